"""What one seat may see: :class:`PlayerView`, built in one place for bots, the terminal, the service and tests.

A view holds the player's own hand, the other players' hand *sizes*, the melds on the table with what
each wild stands for, the discard pile, the stock's size, the match standings, whose turn it is and the
moves of the turn so far.  No other seat's card reaches it: a stock draw of another player shows no
card, and the stock's order never appears.  ``to_dict()`` is its JSON form (the service's ``view``).

:func:`hide_record` is the same rule for a whole ``loba-record/1`` record: what a player (or, with
``None``, someone at no seat) could have seen of the game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from loba_dsl.cards.deck import Card
from loba_dsl.frozen import replace
from loba_dsl.game.moves import HIDDEN, UNKNOWN, Draw, Move, RecordError, Reshuffle
from loba_dsl.game.outcome import RoundResult
from loba_dsl.game.referee import Event
from loba_dsl.game.state import Phase, RoundState, TableMeld

if TYPE_CHECKING:
    from dataclasses import dataclass, field

    from loba_dsl.game.standings import ReentryOffer, Standings
    from loba_dsl.rules.model import Ruleset
    from loba_dsl.scoring.match_play import Standing
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)


@dataclass(frozen=True, slots=True)
class MeldView:
    """A meld on the table: its number (from 1), whose it is, its kind, and each card with what it stands for."""

    number: int
    owner: str
    kind: str
    cards: tuple[Card, ...]
    stands: tuple[Card, ...]
    wild: tuple[bool, ...]
    """Whether the card at each position is used as a wild (then ``stands`` says for which card)."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of the table now (frozen; cards are codes of ``ruleset``'s deck, ``-1`` unknown)."""

    ruleset: Ruleset = field(repr=False, compare=False)
    player: str | None
    """The viewer; ``None`` for someone at no seat (a spectator, or a player sitting the round out)."""
    round: int
    ply: int
    phase: Phase
    to_move: str | None
    dealer: str
    players: tuple[str, ...]
    """This round's players, in seating order."""
    hand: tuple[Card, ...]
    """The viewer's own hand (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    """How many cards each of ``players`` holds."""
    stock_size: int
    pile: tuple[Card, ...]
    """The discard pile, top first (every card of it was seen face up)."""
    melds: tuple[MeldView, ...]
    opened: tuple[str, ...]
    """Players who completed a first lay-down in an earlier turn."""
    turn: tuple[Move, ...]
    """The moves of the current turn so far (another player's stock draw shows no card)."""
    standings: tuple[Standing, ...]
    """The match: every player's total and status, after the rounds finished so far."""
    offers: tuple[ReentryOffer, ...] = ()
    """Re-entries still to be decided after the last round."""
    outcome: RoundResult | None = None
    """The round's result once it is over and scored."""

    @property
    def my_turn(self) -> bool:
        return self.player is not None and self.to_move == self.player

    def hand_size(self, player: str) -> int:
        return self.hand_sizes[self.players.index(player)]

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON (card names; ``??`` for a card the record does not know)."""
        from loba_dsl.game.notation import format_move

        rs = self.ruleset
        names = rs.deck.names

        def n(cards: Sequence[Card]) -> list[str]:
            return [HIDDEN if c == UNKNOWN else names[c] for c in cards]

        return {
            "round": self.round,
            "player": self.player,
            "to_move": self.to_move,
            "phase": self.phase.value,
            "ply": self.ply,
            "dealer": self.dealer,
            "players": list(self.players),
            "hand": n(self.hand),
            "hand_counts": dict(zip(self.players, self.hand_sizes, strict=True)),
            "stock_count": self.stock_size,
            "pile": n(self.pile),
            "melds": [{"meld": number, "owner": owner, "kind": kind, "cards": list(cards), "stands": list(stands),
                       "wild": list(wild)}
                      for number, owner, kind, cards, stands, wild in _melds_named(self.melds, names)],
            "opened": list(self.opened),
            "turn": [{**m.to_dict(rs), "text": format_move(m, rs)} for m in self.turn],
            "standings": [s.to_dict() for s in self.standings],
            "offers": [o.to_dict() for o in self.offers],
            "outcome": self.outcome.to_dict() if self.outcome is not None else None,
        }


def turn_moves(moves: Sequence[Move], states: Sequence[RoundState]) -> tuple[Move, ...]:
    """The moves of the turn in progress: those played from states where it was the same player's turn."""
    s = states[-1]
    i = len(moves)
    while i > 0 and states[i - 1].turn == s.turn and states[i - 1].phase is not Phase.OVER:
        i -= 1
        if states[i].phase is Phase.DRAW and not isinstance(moves[i], Reshuffle):
            break  # the draw that began this turn
    return tuple(moves[i:])


def build(rs: Ruleset, state: RoundState, moves: Sequence[Move], player: str | None, round_number: int,
          match: Standings | None = None, outcome: RoundResult | None = None) -> PlayerView:
    """The view of ``player`` (``None``: no seat) of ``state``; ``moves`` are the current turn's moves."""
    s = state
    seat = s.players.index(player) if player is not None and player in s.players else None
    turn = tuple(_seen(m, player) for m in moves)
    melds = _meld_views(s)
    return PlayerView(
        ruleset=rs, player=player, round=round_number, ply=s.ply, phase=s.phase, to_move=s.to_move,
        dealer=s.players[s.dealer], players=s.players, hand=s.hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in s.hands), stock_size=len(s.stock), pile=s.pile, melds=melds,
        opened=tuple(s.players[i] for i in sorted(s.opened)), turn=turn,
        standings=match.players if match is not None else (), offers=match.offers if match is not None else (),
        outcome=outcome)


def _meld_views(s: RoundState) -> tuple[MeldView, ...]:
    """The views of the melds on the table: made once per tuple of melds (a state shares its melds with the
    states before it until a meld is put down or changed, and every seat's view shows the same)."""
    key = id(s.melds)
    kept = _MELD_VIEWS.get(key)
    if kept is not None and kept[0] is s.melds and kept[1] is s.players:
        return kept[2]
    views = tuple(MeldView(m.number, s.players[m.owner], m.kind, m.cards, m.stands, m.wild) for m in s.melds)
    if len(_MELD_VIEWS) >= _MELD_VIEWS_KEPT:
        _MELD_VIEWS.clear()
    _MELD_VIEWS[key] = (s.melds, s.players, views)
    return views


_MELD_VIEWS: dict[int, tuple[tuple[TableMeld, ...], tuple[str, ...], tuple[MeldView, ...]]] = {}
"""By the identity of a state's melds (kept with them, so the identity is not reused while kept)."""
_MELD_VIEWS_KEPT = 1024

_NamedMeld = tuple[int, str, str, tuple[str, ...], tuple[str, ...], tuple[bool, ...]]


def _melds_named(melds: tuple[MeldView, ...], names: Sequence[str]) -> tuple[_NamedMeld, ...]:
    """The melds' fields for :meth:`PlayerView.to_dict`, card names looked up once per tuple of meld views (the
    views are shared, :func:`_meld_views`: most moves leave the melds as they were)."""
    key = id(melds)
    kept = _MELDS_NAMED.get(key)
    if kept is not None and kept[0] is melds and kept[1] is names:
        return kept[2]
    rows = tuple((m.number, m.owner, m.kind, tuple(HIDDEN if c == UNKNOWN else names[c] for c in m.cards),
                  tuple(HIDDEN if c == UNKNOWN else names[c] for c in m.stands), m.wild) for m in melds)
    if len(_MELDS_NAMED) >= _MELD_VIEWS_KEPT:
        _MELDS_NAMED.clear()
    _MELDS_NAMED[key] = (melds, names, rows)
    return rows


_MELDS_NAMED: dict[int, tuple[tuple[MeldView, ...], Sequence[str], tuple[_NamedMeld, ...]]] = {}
"""By the identity of a tuple of meld views (kept with it, so the identity is not reused while kept)."""


def _seen(move: Move, viewer: str | None) -> Move:
    """A move as ``viewer`` saw it: another player's stock draw without its card, a reshuffle without its order."""
    if isinstance(move, Draw) and move.card is not None and move.player != viewer:
        return replace(move, card=None)
    if isinstance(move, Reshuffle) and move.stock is not None:
        return replace(move, stock=None)
    return move


def seen_event(event: Event, viewer: str | None) -> Event:
    """An event as ``viewer`` saw it: the card another player drew from the stock is not shown."""
    if event.kind == "drew" and event.player != viewer and event.cards:
        return replace(event, cards=())
    return event


def hide_record(record: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    """``record`` as ``player`` could have seen it (``None``: someone at no seat).

    Other hands, the stock and reshuffled stocks are ``??`` (one per card), the seed is dropped (it
    would reveal every card), and the viewer's own stock draws say which card came (``"card"``).
    Everything on the table and the discard pile is public and stays.  Works on a well-formed record
    dict (as :func:`~loba_dsl.game.record.to_dict` writes one; a hand-dealt record's unknown stock,
    ``null``, stays ``null``).
    """
    if player is not None and player not in record.get("players", ()):
        raise RecordError(f"'{player}' is not one of the record's players")
    out: dict[str, Any] = json.loads(json.dumps(record))
    if player is not None:
        out["view"] = player
    out.pop("seed", None)
    out.pop("seal", None)
    for rnd in out["rounds"]:
        deal = rnd["deal"]
        stock = deal.get("stock")
        stock = list(stock) if isinstance(stock, list) else None
        deal["hands"] = {p: (h if p == player else [HIDDEN] * len(h)) for p, h in deal["hands"].items()}
        if stock is not None:
            deal["stock"] = [HIDDEN] * len(stock)
        for m in rnd.get("moves", []):
            if m.get("op") == "reshuffle":
                new = m.get("stock")
                stock = list(new) if isinstance(new, list) else None
                if stock is not None:
                    m["stock"] = [HIDDEN] * len(stock)
            elif m.get("op") == "draw" and m.get("from") == "stock":
                card = stock.pop(0) if stock else m.get("card")
                if m.get("player") == player and card is not None and card != HIDDEN:
                    m["card"] = card
                else:
                    m.pop("card", None)
    return out
