"""What a hand-dealt record leaves unknown: the checks that can still be made, and those that cannot.

A game dealt with real cards is recorded as an app at the table knows it: the stock may be unknown
(``"stock": null``, or ``"??"`` per card), other players' hands too (``"??"``); a stock draw states
the card drawn where it is known, a reshuffle may leave the new order unknown.  The referee then
judges every move as usual, with a card the record did not know coming from the player's unknown
cards (as far as they have any).  This module checks what remains checkable after every such move
(no card is seen more often than the deck holds) and keeps the list of the checks it could not make.
"""

from __future__ import annotations

import functools
from collections import Counter

from loba_dsl.cards.deck import Card
from loba_dsl.errors import said
from loba_dsl.game.moves import UNKNOWN, Draw, Move, Reshuffle, cards_played
from loba_dsl.game.referee import Reason
from loba_dsl.game.state import RoundState
from loba_dsl.rules.model import Ruleset

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass, field
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)


def has_unknown(state: RoundState) -> bool:
    return any(UNKNOWN in h for h in state.hands) or UNKNOWN in state.stock


def over_the_deck(rs: Ruleset, state: RoundState, extra: tuple[Card, ...] = ()) -> list[Reason]:
    """A card seen more often than the deck holds (hands, stock, pile, table, and ``extra``)."""
    seen = Counter(c for c in state.all_cards() if c != UNKNOWN)
    seen.update(extra)
    deck = rs.deck
    over = sorted(c for c, k in seen.items() if k > deck.limit(c))
    if not over:
        return []
    words = functools.reduce(lambda some, more: said("{some}, {more}", some=some, more=more), (
        said("{card} {count} times (the deck holds {limit})", card=deck.name(c), count=seen[c], limit=deck.limit(c))
        for c in over))
    return [Reason("deck", said("the record shows {cards}: no deck of {ruleset} holds that", cards=words,
                                ruleset=rs.name), rs.where("deck"))]


@dataclass
class Unchecked:
    """The checks a round's record did not allow (each said once, in words)."""

    stock_unknown: bool = False
    hands_unknown: dict[str, int] = field(default_factory=dict)
    """Player: how many cards of their dealt hand were unknown."""
    from_unknown: dict[str, list[Card]] = field(default_factory=dict)
    """Player: the cards they played that the record had not known they held."""
    blind_draws: int = 0
    """Stock draws of an unknown card with no card stated."""
    blind_reshuffles: int = 0

    def note_deal(self, players: tuple[str, ...], hands: tuple[tuple[Card, ...], ...],
                  stock: tuple[Card, ...] | None) -> None:
        self.stock_unknown = stock is None or UNKNOWN in stock
        for name, hand in zip(players, hands, strict=True):
            k = hand.count(UNKNOWN)
            if k:
                self.hands_unknown[name] = k

    def note_move(self, move: Move, before: RoundState) -> None:
        if isinstance(move, Reshuffle):
            if move.stock is None:
                self.blind_reshuffles += 1
            return
        if isinstance(move, Draw):
            if move.source == "stock" and move.card is None and before.stock and before.stock[0] == UNKNOWN:
                self.blind_draws += 1
            return
        hand = Counter(before.hands[before.turn])
        for c in cards_played(move):
            if hand[c] > 0:
                hand[c] -= 1
            else:
                self.from_unknown.setdefault(move.player, []).append(c)

    def lines(self, rs: Ruleset) -> list[str]:
        names = rs.deck.names
        out = []
        if self.stock_unknown:
            out.append("the stock's order (the record does not give it): each card drawn from it was checked "
                       "only against the deck's counts")
        for name, k in self.hands_unknown.items():
            played = self.from_unknown.get(name, [])
            tail = f"; that {name} held {' '.join(names[c] for c in played)}, played from them" if played else ""
            out.append(f"{name}'s hand ({k} card(s) unknown at the deal){tail}")
        for name, played in self.from_unknown.items():
            if name not in self.hands_unknown:
                out.append(f"that {name} held {' '.join(names[c] for c in played)} (drawn unseen)")
        if self.blind_draws:
            out.append(f"{self.blind_draws} stock draw(s) with no card stated")
        if self.blind_reshuffles:
            out.append(f"the order of {self.blind_reshuffles} reshuffled stock(s)")
        return out
