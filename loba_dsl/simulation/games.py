"""One simulated game: a whole match (or one round) at a refereed table, bots in every seat, and its facts.

Each game is dealt from its own seed (:func:`game_seed` of the run's seed and the game's index) and every
bot's generator from that seed and its seat, so a game plays the same whichever process plays it and
whatever else that process played before.  Bots sit in rotation: in game ``i`` seat ``k`` holds
``bots[(k + i) % n]``, so each bot plays each seat equally often over ``n`` games.

The table referees every move (:meth:`~loba_dsl.game.table.Table.play`); the bots are given their view and
the legal moves as a lazy sequence (:class:`LegalList`): a bot that asks whether its move is legal gets
the referee's exact answer without the whole list being built.  A round that has not ended after
``max_plies`` moves is stopped and the game counted as unfinished (random play under a ruleset that
reshuffles the pile may never end a round).  So is, as soon as it is proved, a round that no player can ever go
out of (:func:`~loba_dsl.game.stalemate.never_ends`, checked between turns once every hand is too small for a
meld): ``stop_stalemates``, on by default, is a *simulation setting*, not a game rule (the rules give such a round
no end and no score); without it the round plays on to the move cap, unfinished all the same.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from loba_dsl.bots import make_bot
from loba_dsl.errors import LobaError
from loba_dsl.game.moves import Discard, Draw, Move, Reshuffle
from loba_dsl.game.players import Player, blind
from loba_dsl.game.stalemate import proved_endless
from loba_dsl.game.state import Phase
from loba_dsl.game.table import LegalMoves, Table, UndoRefused
from loba_dsl.rules.model import Ruleset

__all__ = ["SEATS", "GameFacts", "LegalList", "RoundFacts", "game_seed", "play_game"]

SEATS = ("Ana", "Beto", "Carla", "Dora", "Eva", "Fede", "Gala", "Hugo")
"""The players' names, by seat."""
MAX_PLIES = 3_000
MAX_ROUNDS = 200


def game_seed(seed: int, index: int) -> int:
    """Game ``index``'s seed in a run seeded ``seed``: a hash, the same on every machine and process."""
    digest = hashlib.sha256(f"loba-sim:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class LegalList(Sequence[Move]):
    """The legal moves of the table now, less ``tabu``: ``in`` asks the referee; the list is built on first need."""

    def __init__(self, table: Table, tabu: set[Move]) -> None:
        self._table = table
        self._legal: LegalMoves = table.legal()
        self._tabu = tabu
        self._list: list[Move] | None = None

    def _all(self) -> list[Move]:
        if self._list is None:
            tabu = self._tabu
            self._list = [m for m in self._legal if m not in tabu] if tabu else list(self._legal)
        return self._list

    def __contains__(self, move: object) -> bool:
        if self._list is not None:
            return move in self._list
        return move not in self._tabu and move in self._legal

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return self.any()

    @overload
    def __getitem__(self, i: int) -> Move: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Move]: ...

    def __getitem__(self, i: int | slice) -> Move | Sequence[Move]:
        return self._all()[i]

    def __iter__(self) -> Iterator[Move]:
        return iter(self._all())

    def any(self) -> bool:
        """Whether there is a legal move: a draw or a discard is asked first (the usual case), then the list."""
        t = self._table
        s = t.state
        me = s.players[s.turn]
        first: list[Move] = [Draw(me, "stock"), Draw(me, "discard")] if s.phase is Phase.DRAW else \
            [Discard(me, c) for c in dict.fromkeys(s.hands[s.turn])]
        return any(m in self for m in first) or bool(self._all())


@dataclass(frozen=True)
class RoundFacts:
    """One round: its length, how it ended, every seat's score."""

    turns: int
    """Turns played (stock or pile draws)."""
    plies: int
    stock_out: bool
    """Whether the stock ran out (a reshuffle, or the round ended on it)."""
    went_out: int | None
    """The seat that went out."""
    scores: tuple[int | None, ...]
    """Per seat (``None``: sat the round out)."""
    stalemate: bool = False
    """Whether the round was stopped unscored, proved one that no player can ever go out of."""


@dataclass(frozen=True)
class GameFacts:
    """A game's facts, seat by seat (bots in ``bots`` order by seat)."""

    index: int
    bots: tuple[str, ...]
    rounds: tuple[RoundFacts, ...]
    finished: bool
    """Whether every round ended (and, for a match, the match did)."""
    winners: tuple[int, ...]
    """The winning seats (a round: who went out, else the best score)."""
    eliminations: int = 0
    reentries: int = 0

    def to_list(self) -> list[object]:
        return [self.index, list(self.bots), [[r.turns, r.plies, r.stock_out, r.went_out, list(r.scores)]
                                              for r in self.rounds],
                self.finished, list(self.winners), self.eliminations, self.reentries]


def seat_bots(bots: Sequence[str], index: int) -> tuple[str, ...]:
    """The bots by seat in game ``index`` (rotated by the index)."""
    n = len(bots)
    return tuple(bots[(k + index) % n] for k in range(n))


def play_game(rs: Ruleset, bots: Sequence[str], seed: int, index: int, *, match: bool = True,
              max_plies: int = MAX_PLIES, max_rounds: int = MAX_ROUNDS, options: dict[str, Any] | None = None,
              stop_stalemates: bool = True) -> GameFacts:
    """Play game ``index`` of a run seeded ``seed``: a whole match, or one round (``match=False``); a round no
    player can ever go out of is stopped unfinished as soon as it is proved (``stop_stalemates``, see the
    module's doc), else at ``max_plies``."""
    gseed = game_seed(seed, index)
    seated = seat_bots(bots, index)
    names = SEATS[:len(seated)]
    players: dict[str, Player] = {
        name: make_bot(kind, random.Random(gseed ^ (0x9E3779B97F4A7C15 * (k + 1)) & (2**64 - 1)), **(options or {}))
        for k, (name, kind) in enumerate(zip(names, seated, strict=True))}
    table = Table.deal(rs, list(names), names[-1], gseed)
    seat = {n: i for i, n in enumerate(names)}
    rounds: list[RoundFacts] = []
    finished = True
    for _ in range(max_rounds):
        rounds.append(_play_round(table, players, seat, max_plies, stop_stalemates))
        if table.outcome() is None:
            finished = False
            break
        if not match:
            break
        _decide_reentries(table, players)
        if table.standings().over:
            break
        table.next_round()
    else:
        finished = False
    winners: tuple[int, ...] = ()
    elim = reent = 0
    if finished and match:
        st = table.standings()
        finished = st.over
        winners = tuple(sorted(seat[w] for w in st.winners))
        elim = sum(len(r.eliminated) for r in st.result.rounds)
        reent = sum(p.reentries for p in st.players)
    elif finished:
        last = rounds[-1]
        if last.went_out is not None:
            winners = (last.went_out,)
        else:
            valid = [s for s in last.scores if s is not None]
            best = min(valid) if rs.scoring.better.value == "lower" else max(valid)
            winners = tuple(i for i, s in enumerate(last.scores) if s == best)
    return GameFacts(index, seated, tuple(rounds), finished, winners, elim, reent)


def _play_round(table: Table, players: dict[str, Player], seat: dict[str, int], max_plies: int,
                stop_stalemates: bool = True) -> RoundFacts:
    """Play the table's current round to its end (or ``max_plies`` moves, or a proved stalemate): its facts.

    A player that chooses without a view (:class:`~loba_dsl.game.players.BlindPlayer`, the random bot) is given
    the legal moves as a list and no view is built for it; the others get their view and a :class:`LegalList`.
    """
    tabu: set[Move] = set()
    plies = turns = 0
    stock_out = stalemate = False
    rs = table.rs
    choosers = {name: blind(p) for name, p in players.items()}
    new_turn = True
    while table.state.phase is not Phase.OVER:
        if plies >= max_plies:
            break
        if new_turn and stop_stalemates and proved_endless(rs, table.state):
            stalemate = True
            break
        new_turn = False
        who = table.to_move
        assert who is not None
        chooser = choosers[who]
        move: Move | None
        if chooser is not None:
            moves = [m for m in table.legal() if m not in tabu] if tabu else list(table.legal())
            move = chooser.choose(moves) if moves else None
        else:
            legal = LegalList(table, tabu)
            try:
                move = players[who].move(table.view(who), legal)
            except (IndexError, LobaError):
                if legal.any():
                    raise
                move = None
        if move is None:  # no legal move: the player's own lay-down this turn fell short; take it back
            try:
                tabu.add(table.undo())
            except UndoRefused:
                raise LobaError(f"{table.to_move} has no legal move (round {table.round_number}, "
                                f"ply {table.ply})") from None
            plies -= 1
            continue
        turn = table.state.turn
        events = table.play(move)
        plies += 1
        if type(move) is Draw:
            turns += 1
        if events and any(e.kind in ("reshuffle", "stock_out") for e in events):
            stock_out = True
        if table.state.turn != turn:
            tabu.clear()
            new_turn = True
    s = table.state
    log = table.rounds[-1]
    stock_out = stock_out or s.stock_out or any(isinstance(m, Reshuffle) for m in log.moves)
    result = table.outcome()
    scores: list[int | None] = [None] * len(table.players)
    if result is not None:
        for name, points in result.scores.items():
            scores[seat[name]] = points
    went_out = seat[s.players[s.went_out]] if s.went_out is not None else None
    return RoundFacts(turns, plies, stock_out, went_out, tuple(scores), stalemate)


def _decide_reentries(table: Table, players: dict[str, Player]) -> None:
    while True:
        offers = table.reentry_offers()
        if not offers:
            return
        offer = offers[0]
        table.reenter(offer.player, bool(players[offer.player].reenter(offer)))
