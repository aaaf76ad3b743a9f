"""Seats and the deal: who plays after whom, who plays first, the deck's cards, whether a deal is one the
ruleset could have dealt, the state after it, and who deals next (``deal.*``, ``players.*``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.errors import said
from loba_dsl.game.moves import UNKNOWN
from loba_dsl.game.state import RoundState
from loba_dsl.game.verdicts import Reason, reason
from loba_dsl.rules.model import Direction, FirstPlayer, Ruleset


def step(rs: Ruleset) -> int:
    """+1 where play passes to the next player in the list (clockwise), -1 where to the previous."""
    return 1 if rs.deal.direction is Direction.CLOCKWISE else -1


def first_seat(rs: Ruleset, dealer: int, n: int) -> int:
    """The seat that plays first: the dealer's left is the next in the list, the right the previous."""
    return (dealer + (1 if rs.deal.first_player is FirstPlayer.DEALER_LEFT else -1)) % n


def deck_cards(rs: Ruleset) -> list[Card]:
    """Every physical card of the deck, in code order."""
    deck = rs.deck
    return [c for c in deck.all_codes() for _ in range(deck.limit(c))]


def deal_problems(rs: Ruleset, hands: Sequence[Sequence[Card]], upcard: Card | None,
                  stock: Sequence[Card], players: Sequence[str]) -> list[Reason]:
    """Whether a deal is one the ruleset could have dealt: hand sizes, the up-card, the whole deck once."""
    out: list[Reason] = []
    if not rs.players.allows(len(players)):
        out.append(reason(rs, "players.count", said("{ruleset} is played by {least} to {most} players, not "
                                                    "{players}", ruleset=rs.name, least=rs.players.min,
                                                    most=rs.players.max, players=len(players))))
    each = rs.deal.cards_for(len(players))
    rule = "deal.cards_by_players" if each != rs.deal.cards else "deal.cards"
    for name, hand in zip(players, hands, strict=True):
        if len(hand) != each:
            out.append(reason(rs, rule, said("{player} was dealt {count} cards, not the {each} dealt to each of "
                                             "{players} players", player=name, count=len(hand), each=each,
                                             players=len(players))))
    if rs.deal.upcard and upcard is None:
        out.append(reason(rs, "deal.upcard", said("the deal turns up a card to start the discard pile, but none is "
                                                  "given")))
    if not rs.deal.upcard and upcard is not None:
        out.append(reason(rs, "deal.upcard", said("the deal turns up no card, but {card} is given",
                                                  card=rs.deck.name(upcard))))
    have = Counter(c for h in hands for c in h)
    have.update(stock)
    if upcard is not None:
        have[upcard] += 1
    unknown = have.pop(UNKNOWN, 0)  # a hand-dealt game: cards the record does not know
    want = Counter(deck_cards(rs))
    extra, missing = have - want, want - have
    if unknown and not extra:
        if sum(missing.values()) != unknown:
            known = sum(have.values())
            out.append(Reason("deck", said("hands, up-card and stock hold {count} cards ({unknown} of them "
                                           "unknown), but {ruleset}'s deck has {size}", count=known + unknown,
                                           unknown=unknown, ruleset=rs.name, size=rs.deck.size), rs.where("deck")))
    elif extra or missing:
        names = rs.deck.names
        parts = []
        if extra:
            parts.append(said("more copies than the deck holds of {cards}",
                              cards=" ".join(names[c] for c in sorted(extra.elements()))))
        if missing:
            parts.append(said("{count} card(s) of the deck missing: {cards}", count=sum(missing.values()),
                              cards=" ".join(names[c] for c in sorted(missing.elements())[:12])))
        both = parts[0] if len(parts) == 1 else said("{some}; {more}", some=parts[0], more=parts[1])
        out.append(Reason("deck", said("hands, up-card and stock must be exactly {ruleset}'s deck of {size} cards: "
                                       "{problems}", ruleset=rs.name, size=rs.deck.size, problems=both),
                          rs.where("deck")))
    return out


def start(rs: Ruleset, players: Sequence[str], dealer: int, hands: Sequence[Sequence[Card]], upcard: Card | None,
          stock: Sequence[Card], round_number: int = 1) -> RoundState:
    """The state after the deal (call :func:`deal_problems` first)."""
    n = len(players)
    return RoundState(tuple(players), dealer, round_number, tuple(tuple(h) for h in hands), tuple(stock),
                      (upcard,) if upcard is not None else (), turn=first_seat(rs, dealer, n))


def next_dealer(rs: Ruleset, s: RoundState) -> int:
    """Who deals the round after ``s`` (``deal.next_dealer``; with nobody out, the deal rotates)."""
    from loba_dsl.rules.model import NextDealer

    if rs.deal.next_dealer is NextDealer.WENT_OUT and s.went_out is not None:
        return s.went_out
    return (s.dealer + step(rs)) % len(s.players)
