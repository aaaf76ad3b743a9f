"""``Table``: one game at the table, round after round, move by move, always refereed.

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
with the reasons, changing nothing.  A table with a random generator (dealt
from a seed, or given one) also plays the dealer's part: it reshuffles the
discard pile when the stock runs out (the record gets the reshuffle entry)
and deals the next round.

Between rounds the match rules decide (:mod:`loba_dsl.game.between_rounds`):
who is eliminated, who may re-enter (``reentry_offers``; ``reenter`` records
the decision), who plays the next round, and when the match is over.  A round
of a hand-dealt game may leave cards unknown (:mod:`loba_dsl.game.partial`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from loba_dsl.budget import BudgetLike
from loba_dsl.cards.deck import Card
from loba_dsl.errors import LobaError, said
from loba_dsl.frozen import replace
from loba_dsl.game import legal as generated
from loba_dsl.game import outcome as scoring
from loba_dsl.game import partial, referee
from loba_dsl.game.between_rounds import BetweenRounds, MatchRefused
from loba_dsl.game.moves import (
    UNKNOWN,
    Draw,
    Move,
    Reshuffle,
    cards_played,
    check_player_name,
    resolve,
)
from loba_dsl.game.record import deal_entry, piece, tail_entry
from loba_dsl.game.referee import Event, IllegalMove, Reason
from loba_dsl.game.round_log import RoundLog
from loba_dsl.game.round_log import names as _names
from loba_dsl.game.standings import Standings
from loba_dsl.game.state import Phase, RoundState
from loba_dsl.game.table_record import record_dict
from loba_dsl.rules.model import Ruleset, StockExhausted
from loba_dsl.rules.sources import sha256  # the interpreter's own: hashlib loads OpenSSL (start-up)

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    import random
    from dataclasses import dataclass
    from typing import Any

    from loba_dsl.game.view import PlayerView
else:
    from loba_dsl.frozen import dataclass  # built without importing dataclasses (issue 22)

__all__ = ["Check", "DealRejected", "LegalMoves", "MatchRefused", "RoundLog", "Table", "UndoRefused"]


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


class LegalMoves:
    """The legal moves of a state: iterate for the list (generated, lazily, bounded: :mod:`loba_dsl.game.legal`);
    ``in`` is exact legality (one judgement, never a listing)."""

    def __init__(self, table: Table, budget: BudgetLike = None, limit: int = generated.MOVE_LIMIT) -> None:
        self._table = table
        self._rs, self._state, self._auto = table.rs, table.state, table.rng is not None
        self._budget, self._limit = budget, limit

    def __iter__(self) -> Iterator[Move]:
        s = self._state
        if s.phase is Phase.OVER:
            return iter(())
        table = self._table
        if table.rounds[-1].unchecked is not None or UNKNOWN in s.hands[s.turn]:
            return self._judged()
        # the generator's moves are legal by construction: each is vouched for to the table, which then
        # takes it without checking its cards again (only this very object, only in this state)
        vouched = table._vouched_for(s)
        rs = self._rs
        if s.phase is Phase.DRAW:  # two draws at most, listed at once
            draws = generated.draws(rs, s)
            for mv in draws:
                vouched[id(mv)] = mv
            if self._auto and not s.stock and _can_reshuffle(rs, s):
                return iter((Draw(s.players[s.turn], "stock", deck=rs.deck), *draws))
            return iter(draws)
        return _vouching(generated.generate(rs, s, self._budget, self._limit), vouched)

    def _judged(self) -> Iterator[Move]:
        """The moves of a round that leaves cards unknown (a hand-dealt game), each judged on the real state."""
        s, rs = self._state, self._rs
        if self._auto and s.phase is Phase.DRAW and not s.stock and _can_reshuffle(rs, s):
            yield Draw(s.players[s.turn], "stock", deck=rs.deck)
        if UNKNOWN in s.hands[s.turn]:
            # moves of the cards known to be held, each judged on the real state
            known = tuple(c for c in s.hands[s.turn] if c != UNKNOWN)
            view = replace(s, hands=(*s.hands[:s.turn], known, *s.hands[s.turn + 1:]))
            for mv in generated.generate(rs, view, self._budget, self._limit):
                if not self._table._judge(mv)[0]:
                    yield mv
            return
        for mv in generated.generate(rs, s, self._budget, self._limit):
            if not self._table._judge(mv)[0]:
                yield mv

    def __contains__(self, move: object) -> bool:
        try:
            mv = resolve(self._rs, move)
        except LobaError:
            return False
        if self._auto and _reshuffle_first(self._rs, self._state, mv):
            return True
        return not self._table._judge(mv)[0]


def _vouching(moves: Iterator[Move], vouched: dict[int, Move]) -> Iterator[Move]:
    """``moves``, each vouched for to the table as it is given."""
    for mv in moves:
        vouched[id(mv)] = mv
        yield mv


def _can_reshuffle(rs: Ruleset, s: RoundState) -> bool:
    return rs.turn.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS and len(s.pile) > 1


def _reshuffle_first(rs: Ruleset, s: RoundState, move: Move) -> bool:
    """A legal stock draw from an empty stock that the dealer must reshuffle for first."""
    return (isinstance(move, Draw) and move.source == "stock" and not s.stock and s.phase is Phase.DRAW
            and move.player == s.to_move and _can_reshuffle(rs, s))


class Table(BetweenRounds):
    """A game of one ruleset: the current round's state, its record, the rounds before, the match."""

    def __init__(self, rs: Ruleset, players: Sequence[str], rng: random.Random | None = None,
                 ruleset_ref: str | None = None, *, target: int | None = None) -> None:
        for i, name in enumerate(players):
            check_player_name(name, f"players[{i}]")
        if len(set(players)) != len(players):
            raise LobaError(f"players must have different names: {', '.join(players)}")
        if target is not None:
            from loba_dsl.scoring.match_play import check_target

            check_target(rs, target)
        self.rs = rs
        self.players = tuple(players)
        self.ruleset_ref = ruleset_ref or rs.name
        self.rng = rng
        """Where the dealer's shuffles come from (reshuffles, the next deal); ``None``: the record gives them."""
        self.target = target
        self.rounds: list[RoundLog] = []
        self.results: list[scoring.RoundResult] = []
        self.seed: int | None = None
        self._match: tuple[tuple[int, int], Standings] | None = None
        self._vouched: tuple[RoundState | None, dict[int, Move]] = (None, {})
        """The state last listed and the moves its listing gave (by identity): :meth:`play` takes those as
        they are (cards known to be codes of this deck) instead of reading them again."""

    # ------------------------------------------------------------ starting a round

    @classmethod
    def deal(cls, rs: Ruleset, players: Sequence[str], dealer: str, seed: int, *,
             target: int | None = None) -> Table:
        """A fresh game, dealt from ``seed`` (the same seed deals the same cards)."""
        import random  # only where a table deals: not on a replay's start-up path (issue 22)

        t = cls(rs, players, random.Random(seed), target=target)
        t.seed = seed
        t._deal_from_rng(t._seat(dealer), t.players)
        return t

    @classmethod
    def from_deal(cls, rs: Ruleset, players: Sequence[str], dealer: str, hands: Sequence[Sequence[Card]],
                  upcard: Card | None, stock: Sequence[Card] | None, ruleset_ref: str | None = None, *,
                  target: int | None = None, rng: random.Random | None = None) -> Table:
        """A game whose first deal is given (a physical game to check); raises :class:`DealRejected`.

        A hand-dealt game may leave cards unknown: ``UNKNOWN`` (``-1``) in a hand or the stock, or
        ``stock=None`` (its size is then what the deck leaves).
        """
        t = cls(rs, players, rng, ruleset_ref, target=target)
        t._start(t._seat(dealer), t.players, hands, upcard, stock)
        return t

    def _seat(self, player: str) -> int:
        if player not in self.players:
            raise LobaError(f"'{player}' is not at the table ({', '.join(self.players)})")
        return self.players.index(player)

    def _deal_from_rng(self, dealer: int, playing: Sequence[str]) -> None:
        assert self.rng is not None
        rs, n = self.rs, len(playing)
        cards = referee.deck_cards(rs)
        each = rs.deal.cards_for(n)  # deal.cards_by_players, else deal.cards
        need = n * each + (1 if rs.deal.upcard else 0)
        if need > len(cards):  # a house deck too small for its deal at this table: said, never an IndexError
            if rs.deal.upcard:
                short = said("{count} hands of {each} cards and the up-card need {need} cards, but the deck has "
                             "{size}", count=n, each=each, need=need, size=len(cards))
            else:
                short = said("{count} hands of {each} cards need {need} cards, but the deck has {size}", count=n,
                             each=each, need=need, size=len(cards))
            raise DealRejected([Reason("deal.cards", short,
                                       referee.where(rs, "deal.cards"), str(each))])
        self.rng.shuffle(cards)
        hands: list[list[Card]] = [[] for _ in range(n)]
        seat = referee.first_seat(rs, playing.index(self.players[dealer]), n)
        step, pos = referee.step(rs), 0
        for _ in range(each):
            for k in range(n):
                hands[(seat + k * step) % n].append(cards[pos])
                pos += 1
        upcard = None
        if rs.deal.upcard:
            upcard, pos = cards[pos], pos + 1
        self._start(dealer, playing, hands, upcard, cards[pos:])

    def _start(self, dealer: int, playing: Sequence[str], hands: Sequence[Sequence[Card]], upcard: Card | None,
               stock: Sequence[Card] | None) -> None:
        """Start a round: ``dealer`` is a seat of the table, ``playing`` who plays it (in seating order)."""
        playing = tuple(playing)
        if len(hands) != len(playing):
            raise LobaError(f"the deal gives {len(hands)} hands for {len(playing)} players")
        dealt = tuple(tuple(h) for h in hands)
        known_stock = stock is not None
        if stock is None:
            size = sum(len(h) for h in dealt) + (upcard is not None)
            stock = (UNKNOWN,) * max(0, self.rs.deck.size - size)
        problems = referee.deal_problems(self.rs, dealt, upcard, stock, playing)
        if problems:
            raise DealRejected(problems)
        seat = playing.index(self.players[dealer])
        state = referee.start(self.rs, playing, seat, dealt, upcard, stock, len(self.rounds) + 1)
        log = RoundLog(seat, dealt, upcard, tuple(stock) if known_stock else None, [], [state], playing)
        if partial.has_unknown(state):
            log.unchecked = partial.Unchecked()
            log.unchecked.note_deal(playing, dealt, log.stock)
        if self.rounds:
            h = self._finished_hash(self.rounds[-1])
        else:
            h = sha256(piece({"ruleset": self.ruleset_ref, "players": list(self.players), "target": self.target}))
        h.update(b"\n" + piece(self._deal_entry(log)) + b"\n")
        log.hashes.append((0, h))
        self.rounds.append(log)

    def _deal_entry(self, log: RoundLog) -> dict[str, Any]:
        rs = self.rs
        return deal_entry(log.players, log.players[log.dealer], [_names(rs, h) for h in log.hands],
                          None if log.upcard is None else rs.deck.name(log.upcard),
                          None if log.stock is None else _names(rs, log.stock))

    def _finished_hash(self, log: RoundLog) -> Any:
        """A new hash of the record up to the end of ``log``'s round (its decisions and shown hands included)."""
        h = log.digest_hash(self.rs).copy()
        if log.reentries or log.shown:
            h.update(b"\n" + piece(tail_entry(log.reentries, {p: self.rs.deck.names_of(c)
                                                               for p, c in log.shown.items()})))
        return h

    def next_round(self, hands: Sequence[Sequence[Card]] | None = None, upcard: Card | None = None,
                   stock: Sequence[Card] | None = None) -> None:
        """Deal the next round to the players still in (``deal.next_dealer`` names the dealer): from the
        random generator, or as given (one hand per player of :meth:`playing`, in seating order)."""
        playing = self.playing()
        dealer = self.next_dealer()
        if hands is None:
            if self.rng is None:
                raise LobaError("this table has no random generator: give the next round's hands, up-card and "
                                "stock")
            self._deal_from_rng(dealer, playing)
        else:
            self._start(dealer, playing, hands, upcard, stock)

    def deal_next(self, seed: int) -> None:
        """Deal the next round from ``seed`` (a server continuing a recorded game)."""
        import random

        self.playing()  # refused before the generator changes
        self.rng = random.Random(seed)
        self.seed = None  # one seed no longer explains every deal of the record
        self.next_round()

    # ------------------------------------------------------------ where the game is

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

    @property
    def partial(self) -> bool:
        """Whether the current round leaves cards unknown (a hand-dealt game)."""
        return self.rounds[-1].unchecked is not None

    @property
    def digest(self) -> str:
        """The record digest of the game so far (the same as :func:`~loba_dsl.game.record.record_digest` of
        :meth:`record`): a cache key for :meth:`snapshot`, extended by the moves played since it was last
        asked for (never the whole record again)."""
        return str(self._finished_hash(self.rounds[-1]).hexdigest())

    def legal(self, budget: BudgetLike = None, limit: int = generated.MOVE_LIMIT) -> LegalMoves:
        """The legal moves now: iterate to list them (bounded by ``budget`` and ``limit``, past them a
        :class:`~loba_dsl.errors.LobaError`); ``move in table.legal()`` judges one move."""
        return LegalMoves(self, budget, limit)

    def _vouched_for(self, s: RoundState) -> dict[int, Move]:
        """The moves listed so far in state ``s`` (a listing of another state starts a new record)."""
        state, moves = self._vouched
        if state is not s:
            moves = {}
            self._vouched = (s, moves)
        return moves

    def _listed(self, move: object) -> bool:
        """Whether ``move`` is this very object given by a listing of the current state (never an equal move
        made elsewhere)."""
        state, moves = self._vouched
        return state is self.state and moves.get(id(move)) is move

    def _judge(self, move: Move) -> referee.Judgement:
        s = self.state
        got = referee.judge(self.rs, s, move)
        if self.partial and not got[0] and got[1] is not None:
            over = partial.over_the_deck(self.rs, got[1])
            if over:
                return over, None, ()
        return got

    def check(self, move: Move) -> Check:
        """A dry run: legal, or why not.  Changes nothing.  Cards may be given by name (``"K♦"``)."""
        move = resolve(self.rs, move)
        if self._auto_reshuffle_needed(move):
            return Check(True)
        reasons = self._judge(move)[0]
        return Check(not reasons, tuple(reasons))

    def _auto_reshuffle_needed(self, move: Move) -> bool:
        return self.rng is not None and _reshuffle_first(self.rs, self.state, move)

    def play(self, move: Move, ply: int | None = None) -> tuple[Event, ...]:
        """Play a move (always validated): the events it caused, or :class:`IllegalMove`.

        Cards may be given by name (``Discard("Beto", "K♦")``).  ``ply``, where given, is the ply the
        move was chosen at: a move chosen on a state that has moved on since (a stale client) is refused.
        """
        state, vouched = self._vouched  # self._listed(move), inline: every move of random play asks it
        listed = state is self.rounds[-1].states[-1] and vouched.get(id(move)) is move
        if not listed:
            move = resolve(self.rs, move)
        if ply is not None and ply != self.ply:
            raise IllegalMove(move, [Reason("turn.order", said("the move was chosen at ply {ply}, but the round is "
                                                               "at ply {now}", ply=ply, now=self.ply),
                                            referee.where(self.rs, "turn.order"))])
        events: tuple[Event, ...] = ()
        if self._auto_reshuffle_needed(move):
            reasons = self._judge(move)[0] if self.state.stock else []
            if reasons:
                raise IllegalMove(move, reasons)
            assert self.rng is not None
            pile = list(self.state.pile[1:])
            self.rng.shuffle(pile)
            events = self._push(Reshuffle(tuple(pile), deck=self.rs.deck))
        return events + self._push(move, listed and not events)

    def _push(self, move: Move, listed: bool = False) -> tuple[Event, ...]:
        """Play ``move`` (``listed``: given by this state's own listing, so the checks the listing made are
        not made again: :func:`~loba_dsl.game.referee.judge_listed`)."""
        log = self.rounds[-1]
        before = log.states[-1]
        reasons, new, events = referee.judge_listed(self.rs, before, move) if listed else self._judge(move)
        if reasons or new is None:
            raise IllegalMove(move, reasons)
        if log.unchecked is None and isinstance(move, Reshuffle) and partial.has_unknown(new):  # of unknown order
            log.unchecked = partial.Unchecked()
        if log.unchecked is not None:
            log.unchecked.note_move(move, before)
        log.moves.append(move)  # its record entry and digest are made when asked for (RoundLog.digest_hash)
        log.states.append(new)
        if new.phase is Phase.OVER:
            self._score(log)
        return events

    def undo(self) -> Move:
        """Take back the last move of this round; refused past a stock draw (it showed a card)."""
        log = self.rounds[-1]
        if not log.moves:
            raise UndoRefused("nothing to undo in this round (the deal cannot be taken back)")
        last = log.moves[-1]
        if isinstance(last, Reshuffle) or (isinstance(last, Draw) and last.source == "stock"):
            raise UndoRefused("a stock draw showed a card: it cannot be taken back")
        if log.reentries or log.shown:
            raise UndoRefused("the round's end was followed by re-entry decisions or shown hands")
        if log.result is not None:
            self.results.pop()
            log.result = None
            self._match = None
        if log.unchecked is not None and not isinstance(last, (Draw, Reshuffle)):
            self._forget_unknown(log, last)
        log.take_back()
        return last

    def _forget_unknown(self, log: RoundLog, move: Move) -> None:
        assert log.unchecked is not None
        taken = log.unchecked.from_unknown.get(move.player or "", [])
        held = list(log.states[-2].hands[log.states[-2].turn])
        for c in cards_played(move):
            if c in held:
                held.remove(c)
            elif c in taken:
                taken.remove(c)

    # ------------------------------------------------------------ views, records, snapshots

    def view(self, player: str | None) -> PlayerView:
        """What ``player`` may see now (``None``: someone at no seat): see :class:`~loba_dsl.game.view.PlayerView`."""
        from loba_dsl.game.view import build, turn_moves

        if player is not None:
            self._seat(player)
        log = self.rounds[-1]
        match = self.standings() if self.results else None
        return build(self.rs, self.state, turn_moves(log.moves, log.states), player, self.round_number, match,
                     self.outcome())

    def record(self, view: str | None = None) -> dict[str, Any]:
        """The game as a ``loba-record/1`` document (``view``: as that player may see it, hidden cards ``??``)."""
        full = record_dict(self)
        if view is None:
            return full
        from loba_dsl.game.view import hide_record

        return hide_record(full, view)

    def unchecked(self) -> list[str]:
        """The checks the record did not allow (a hand-dealt game), round by round, in words."""
        out: list[str] = []
        for i, log in enumerate(self.rounds, 1):
            if log.unchecked is not None:
                out.extend(f"round {i}: {line}" for line in log.unchecked.lines(self.rs))
        return out

    def copy(self) -> Table:
        """An independent table in the same state (cheap: states are immutable and shared)."""
        t = Table.__new__(Table)
        t.rs, t.players, t.ruleset_ref, t.target, t.seed = self.rs, self.players, self.ruleset_ref, self.target, \
            self.seed
        t.rounds = [log.copy() for log in self.rounds]
        t.results = list(self.results)
        t._match = self._match
        t._vouched = (None, {})
        t.rng = rng = self.rng
        if rng is not None:
            import random  # not at the module's top: a replay's start-up deals nothing (issue 22)

            if type(rng) is random.Random:
                t.rng = random.Random()
                t.rng.setstate(rng.getstate())
        return t

