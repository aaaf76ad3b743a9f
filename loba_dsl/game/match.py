"""``Match``: a whole match at one table, round after round, each move asked of its player.

>>> from loba_dsl.rules.loading import load
>>> import random
>>> players = {name: RandomPlayer(random.Random(i)) for i, name in enumerate(["Ana", "Beto", "Carla"])}
>>> m = Match.deal(load("menos"), players, dealer="Carla", seed=3)
>>> result = m.play()
>>> result.over, len(result.winners) >= 1
(True, True)

Each round is played through :class:`~loba_dsl.game.table.Table` (every move refereed); when it ends,
its result goes to the match rules (:mod:`loba_dsl.game.standings`, i.e.
:mod:`loba_dsl.scoring.match_play`): eliminations, re-entries (offered to each eliminated player, who
accepts or refuses), the target or the last player standing, the winner.  The next round is dealt to
the players still in.  The table's record holds the decisions and the standings.

A round that no player can ever go out of (docs/rules.md §7: the sources give it no end and no score, and
we add no rule for it) is stopped as soon as :func:`~loba_dsl.game.stalemate.never_ends` proves it, between
two turns, with :class:`RoundNeverEnds`: the round stays as played, unscored, and the match cannot go on
(no rule deals a round after one that never ended; the players abandon the game, its record kept).  That is
a setting of the driver (``stop_stalemates``, as the simulations' ``play_game`` has), not a game rule:
without it the round is played on to ``max_plies`` moves, then stopped with a :class:`LobaError`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from loba_dsl.errors import LobaError
from loba_dsl.game.moves import Move
from loba_dsl.game.players import Player, RandomPlayer, blind
from loba_dsl.game.stalemate import RoundNeverEnds, proved_endless
from loba_dsl.game.standings import Standings
from loba_dsl.game.state import Phase
from loba_dsl.game.table import Table, UndoRefused
from loba_dsl.rules.model import Ruleset

__all__ = ["Match", "RandomPlayer", "RoundNeverEnds"]

MAX_PLIES = 5_000
"""A round that has not ended after this many moves is stopped (a player that never goes out)."""
MAX_ROUNDS = 500


class Match:
    """A match: a table and a player for each seat."""

    def __init__(self, table: Table, players: Mapping[str, Player]) -> None:
        missing = [p for p in table.players if p not in players]
        if missing:
            raise LobaError(f"no player plays for {', '.join(missing)}")
        self.table = table
        self.players = dict(players)

    @classmethod
    def deal(cls, rs: Ruleset, players: Mapping[str, Player], dealer: str, seed: int, *,
             target: int | None = None) -> Match:
        """A match whose every deal and reshuffle comes from ``seed``; ``players`` in seating order."""
        return cls(Table.deal(rs, list(players), dealer, seed, target=target), players)

    @property
    def standings(self) -> Standings:
        return self.table.standings()

    def play_round(self, max_plies: int = MAX_PLIES, *, stop_stalemates: bool = True) -> int:
        """Play the current round to its end: each player moves when it is their turn.  The moves played.

        A move the player returns must be legal (it is refereed: :class:`~loba_dsl.game.referee.IllegalMove`
        otherwise).  A player left with no legal move by their own earlier moves this turn (a lay-down
        short of a requirement) has the last of them taken back and is not offered it again that turn.
        A round proved never to end is stopped between two turns with :class:`RoundNeverEnds`
        (``stop_stalemates``, see the module's doc); one that has not ended after ``max_plies`` moves, with a
        :class:`~loba_dsl.errors.LobaError`.  A player that chooses without a view
        (:class:`~loba_dsl.game.players.BlindPlayer`) is asked without one.
        """
        t = self.table
        rs = t.rs
        tabu: set[Move] = set()
        plies = 0
        choosers = {name: blind(p) for name, p in self.players.items()}
        new_turn = True
        while t.outcome() is None and t.state.phase is not Phase.OVER:
            if new_turn and stop_stalemates and proved_endless(rs, t.state):
                raise RoundNeverEnds(t.round_number, t.state)
            new_turn = False
            if plies >= max_plies:
                raise LobaError(f"round {t.round_number} has not ended after {max_plies} moves")
            legal = [m for m in t.legal() if m not in tabu] if tabu else list(t.legal())
            if not legal:
                try:
                    tabu.add(t.undo())
                except UndoRefused:
                    raise LobaError(f"{t.to_move} has no legal move (round {t.round_number}, ply {t.ply})") \
                        from None
                plies -= 1
                continue
            who = t.to_move
            assert who is not None
            chooser = choosers.get(who)
            move = chooser.choose(legal) if chooser is not None else self.players[who].move(t.view(who), legal)
            turn = t.state.turn
            t.play(move)
            plies += 1
            if t.state.turn != turn:
                tabu.clear()
                new_turn = True
        return plies

    def decide_reentries(self) -> None:
        """Ask each eliminated player offered a re-entry (in seating order) and record the answer."""
        t = self.table
        while True:
            offers = t.reentry_offers()
            if not offers:
                return
            offer = offers[0]
            t.reenter(offer.player, bool(self.players[offer.player].reenter(offer)))

    def play(self, max_rounds: int = MAX_ROUNDS) -> Standings:
        """Play on until the match is over (or ``max_rounds`` rounds): the final standings."""
        t = self.table
        for _ in range(max_rounds):
            self.play_round()
            self.decide_reentries()
            if self.standings.over:
                return self.standings
            t.next_round()
        return self.standings


def random_match(rs: Ruleset, names: list[str], seed: int, *, eager: float = 0.8) -> Match:
    """A match of random players (each with its own generator from ``seed``), the last name dealing."""
    players: dict[str, Player] = {n: RandomPlayer(random.Random(seed * 31 + i), eager) for i, n in enumerate(names)}
    return Match.deal(rs, players, names[-1], seed)
