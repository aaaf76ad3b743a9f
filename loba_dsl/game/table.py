"""``Table``: one game at the table, move by move, always refereed.

>>> from loba_dsl.defaults import DEFAULT_RULESET
>>> from loba_dsl.rules.loading import load
>>> t = Table.deal(load(DEFAULT_RULESET), players=["Ana", "Beto", "Carla"], dealer="Carla", seed=7)
>>> t.to_move, t.phase, t.ply            # the dealer's right (the previous in the list) plays first
('Beto', 'draw', 0)
>>> events = t.play(Draw("Beto", "stock"))
>>> t.phase
'play'

A table holds the rounds played so far; ``play`` validates every move with
the referee (:mod:`loba_dsl.game.referee`) and raises :class:`IllegalMove`
with the reasons, changing nothing.  A table dealt from a seed also plays the
dealer's part: it reshuffles the discard pile when the stock runs out (the
record gets the reshuffle entry) and deals the next round.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from loba_dsl.cards.deck import Card
from loba_dsl.errors import LobaError
from loba_dsl.game import outcome as scoring
from loba_dsl.game import record, referee
from loba_dsl.game.moves import Draw, Move, Reshuffle
from loba_dsl.game.referee import Event, IllegalMove, Reason
from loba_dsl.game.state import Phase, RoundState
from loba_dsl.rules.model import Ruleset, StockExhausted


class UndoRefused(LobaError):
    """``undo`` past a move that showed a player a hidden card (a stock draw), or past the deal."""

    code = "undo-refused"


class DealRejected(LobaError):
    """A deal the ruleset could not have dealt (hand sizes, up-card, not exactly the deck)."""

    code = "illegal-deal"

    def __init__(self, reasons: Sequence[Reason]) -> None:
        self.reasons = tuple(reasons)
        super().__init__("; ".join(r.text() for r in self.reasons))


@dataclass(frozen=True, slots=True)
class Check:
    """The verdict of a dry run: legal, or the reasons (rule key, words, ruleset file:line)."""

    ok: bool
    reasons: tuple[Reason, ...] = ()

    def __bool__(self) -> bool:
        return self.ok

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "reasons": [r.to_dict() for r in self.reasons]}


@dataclass
class RoundLog:
    """One round as the record states it: the deal, then every move in order."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    upcard: Card | None
    stock: tuple[Card, ...]
    moves: list[Move] = field(default_factory=list)
    states: list[RoundState] = field(default_factory=list)
    """The state before each move, then the current one (``states[-1]``)."""


class LegalMoves:
    """The legal moves of a state: iterate for a (bounded) list; ``in`` is exact legality."""

    def __init__(self, rs: Ruleset, state: RoundState, auto_reshuffle: bool) -> None:
        self._rs, self._state, self._auto = rs, state, auto_reshuffle

    def __iter__(self) -> Iterator[Move]:
        s = self._state
        if self._auto and s.phase is Phase.DRAW and not s.stock and _can_reshuffle(self._rs, s):
            yield Draw(s.players[s.turn], "stock")
        yield from referee.legal_moves(self._rs, s)

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move):
            return False
        if self._auto and _reshuffle_first(self._rs, self._state, move):
            return True
        return not referee.verify(self._rs, self._state, move)


def _can_reshuffle(rs: Ruleset, s: RoundState) -> bool:
    return rs.turn.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS and len(s.pile) > 1


def _reshuffle_first(rs: Ruleset, s: RoundState, move: Move) -> bool:
    """A legal stock draw from an empty stock that the dealer must reshuffle for first."""
    return (isinstance(move, Draw) and move.source == "stock" and not s.stock and s.phase is Phase.DRAW
            and move.player == s.to_move and _can_reshuffle(rs, s))


class Table:
    """A game of one ruleset: the current round's state, its record, and the rounds before."""

    def __init__(self, rs: Ruleset, players: Sequence[str], rng: random.Random | None = None,
                 ruleset_ref: str | None = None) -> None:
        if len(set(players)) != len(players):
            raise LobaError(f"players must have different names: {', '.join(players)}")
        self.rs = rs
        self.players = tuple(players)
        self.ruleset_ref = ruleset_ref or rs.name
        self._rng = rng
        self.rounds: list[RoundLog] = []
        self.results: list[scoring.RoundResult] = []
        self.seed: int | None = None

    # ------------------------------------------------------------ starting a round

    @classmethod
    def deal(cls, rs: Ruleset, players: Sequence[str], dealer: str, seed: int) -> Table:
        """A fresh game, dealt from ``seed`` (the same seed deals the same cards)."""
        t = cls(rs, players, random.Random(seed))
        t.seed = seed
        t._deal_from_rng(t._seat(dealer))
        return t

    @classmethod
    def from_deal(cls, rs: Ruleset, players: Sequence[str], dealer: str, hands: Sequence[Sequence[Card]],
                  upcard: Card | None, stock: Sequence[Card], ruleset_ref: str | None = None) -> Table:
        """A game whose first deal is given (a physical game to check); raises :class:`DealRejected`."""
        t = cls(rs, players, None, ruleset_ref)
        t._start(t._seat(dealer), hands, upcard, stock)
        return t

    def _seat(self, player: str) -> int:
        if player not in self.players:
            raise LobaError(f"'{player}' is not at the table ({', '.join(self.players)})")
        return self.players.index(player)

    def _deal_from_rng(self, dealer: int) -> None:
        assert self._rng is not None
        rs, n = self.rs, len(self.players)
        cards = referee.deck_cards(rs)
        self._rng.shuffle(cards)
        hands: list[list[Card]] = [[] for _ in range(n)]
        seat, step, pos = referee.first_seat(rs, dealer, n), referee.step(rs), 0
        for _ in range(rs.deal.cards):
            for k in range(n):
                hands[(seat + k * step) % n].append(cards[pos])
                pos += 1
        upcard = None
        if rs.deal.upcard:
            upcard, pos = cards[pos], pos + 1
        self._start(dealer, hands, upcard, cards[pos:])

    def _start(self, dealer: int, hands: Sequence[Sequence[Card]], upcard: Card | None,
               stock: Sequence[Card]) -> None:
        if len(hands) != len(self.players):
            raise LobaError(f"the deal gives {len(hands)} hands for {len(self.players)} players")
        problems = referee.deal_problems(self.rs, hands, upcard, stock, self.players)
        if problems:
            raise DealRejected(problems)
        state = referee.start(self.rs, self.players, dealer, hands, upcard, stock, len(self.rounds) + 1)
        self.rounds.append(RoundLog(dealer, tuple(tuple(h) for h in hands), upcard, tuple(stock), [], [state]))

    def next_round(self, hands: Sequence[Sequence[Card]] | None = None, upcard: Card | None = None,
                   stock: Sequence[Card] | None = None) -> None:
        """Deal the next round (``deal.next_dealer`` names the dealer): from the seed, or as given."""
        if self.outcome() is None:
            raise LobaError(f"round {len(self.rounds)} has not ended yet")
        dealer = self.next_dealer()
        if hands is None:
            if self._rng is None:
                raise LobaError("this table has no seed: give the next round's hands, up-card and stock")
            self._deal_from_rng(dealer)
        else:
            self._start(dealer, hands, upcard, stock or ())

    def deal_next(self, seed: int) -> None:
        """Deal the next round from ``seed`` (a server continuing a recorded game)."""
        self._rng = random.Random(seed)
        self.seed = None  # one seed no longer explains every deal of the record
        self.next_round()

    def next_dealer(self) -> int:
        return referee.next_dealer(self.rs, self.state)

    # ------------------------------------------------------------ where the game is

    @property
    def state(self) -> RoundState:
        return self.rounds[-1].states[-1]

    @property
    def to_move(self) -> str | None:
        return self.state.to_move

    @property
    def phase(self) -> str:
        return self.state.phase.value

    @property
    def ply(self) -> int:
        return self.state.ply

    @property
    def round_number(self) -> int:
        return len(self.rounds)

    def legal(self) -> LegalMoves:
        return LegalMoves(self.rs, self.state, self._rng is not None)

    def check(self, move: Move) -> Check:
        """A dry run: legal, or why not.  Changes nothing."""
        if self._auto_reshuffle_needed(move):
            return Check(True)
        reasons = referee.verify(self.rs, self.state, move)
        return Check(not reasons, tuple(reasons))

    def _auto_reshuffle_needed(self, move: Move) -> bool:
        return self._rng is not None and _reshuffle_first(self.rs, self.state, move)

    def play(self, move: Move, ply: int | None = None) -> tuple[Event, ...]:
        """Play a move (always validated): the events it caused, or :class:`IllegalMove`.

        ``ply``, where given, is the ply the move was chosen at: a move chosen on a state that has
        moved on since (a stale client) is refused.
        """
        if ply is not None and ply != self.ply:
            raise IllegalMove(move, [Reason("turn.order", f"the move was chosen at ply {ply}, but the round is at "
                                            f"ply {self.ply}", referee.where(self.rs, "turn.order"))])
        events: tuple[Event, ...] = ()
        if self._auto_reshuffle_needed(move):
            assert self._rng is not None
            pile = list(self.state.pile[1:])
            self._rng.shuffle(pile)
            events = self._push(Reshuffle(tuple(pile)))
        return events + self._push(move)

    def _push(self, move: Move) -> tuple[Event, ...]:
        log = self.rounds[-1]
        new, events = referee.apply(self.rs, log.states[-1], move)
        log.moves.append(move)
        log.states.append(new)
        if new.phase is Phase.OVER:
            self.results.append(self._score(new))
        return events

    def undo(self) -> Move:
        """Take back the last move of this round; refused past a stock draw (it showed a card)."""
        log = self.rounds[-1]
        if not log.moves:
            raise UndoRefused("nothing to undo in this round (the deal cannot be taken back)")
        last = log.moves[-1]
        if isinstance(last, Reshuffle) or (isinstance(last, Draw) and last.source == "stock"):
            raise UndoRefused("a stock draw showed a card: it cannot be taken back")
        if log.states[-1].phase is Phase.OVER:
            self.results.pop()
        log.moves.pop()
        log.states.pop()
        return last

    # ------------------------------------------------------------ results and views

    def _score(self, s: RoundState) -> scoring.RoundResult:
        melds: list[list[tuple[Card, ...]]] = [[] for _ in s.players]
        for m in s.melds:
            melds[m.owner].append(m.cards)
        return scoring.score(self.rs, players=s.players, melds=melds, hands=s.hands, went_out=s.went_out,
                             all_at_once=s.all_at_once, stock_out=s.stock_out, round_number=s.round_number)

    def outcome(self) -> scoring.RoundResult | None:
        """The current round's result once it is over (scored as ``loba score`` would), else ``None``."""
        if self.state.phase is not Phase.OVER:
            return None
        return self.results[-1]

    def totals(self) -> dict[str, int]:
        out = dict.fromkeys(self.players, 0)
        for r in self.results:
            for name, points in r.scores.items():
                out[name] += points
        return out

    def view(self, player: str) -> dict[str, Any]:
        """What ``player`` may know now: their hand, the table, the pile, how many cards the others hold."""
        seat = self._seat(player)
        s, names = self.state, self.rs.deck.names
        return {
            "round": self.round_number,
            "player": player,
            "to_move": s.to_move,
            "phase": s.phase.value,
            "ply": s.ply,
            "dealer": s.players[s.dealer],
            "hand": [names[c] for c in s.hands[seat]],
            "hand_counts": {p: len(h) for p, h in zip(s.players, s.hands, strict=True)},
            "stock_count": len(s.stock),
            "pile": [names[c] for c in s.pile],
            "melds": [{"meld": m.number, "owner": s.players[m.owner], "kind": m.kind,
                       "cards": [names[c] for c in m.cards], "stands": [names[c] for c in m.stands]}
                      for m in s.melds],
            "opened": [s.players[i] for i in sorted(s.opened)],
            "outcome": self.outcome().to_dict() if self.outcome() is not None else None,  # type: ignore[union-attr]
        }

    def record(self, view: str | None = None) -> dict[str, Any]:
        """The game as a ``loba-record/1`` document (``view``: as that player may see it, hidden cards ``??``)."""
        full = record_dict(self)
        return full if view is None else record.view_of(full, view)


def record_dict(table: Table) -> dict[str, Any]:
    """The record of everything played at ``table`` so far."""
    rs, names = table.rs, table.rs.deck.names
    rounds = []
    for log in table.rounds:
        rounds.append({
            "dealer": table.players[log.dealer],
            "deal": {
                "hands": {p: [names[c] for c in h] for p, h in zip(table.players, log.hands, strict=True)},
                "upcard": names[log.upcard] if log.upcard is not None else None,
                "stock": [names[c] for c in log.stock],
            },
            "moves": [m.to_dict(rs) for m in log.moves],
        })
    out: dict[str, Any] = {"format": record.FORMAT, "ruleset": table.ruleset_ref, "players": list(table.players),
                           "dealer": table.players[table.rounds[0].dealer], "rounds": rounds}
    if table.seed is not None:
        out["seed"] = table.seed
    return out
