"""Simulated play: many seeded games of bots under a ruleset (or two, on the same deals), with their figures.

>>> from loba_dsl.rules.loading import load
>>> report = simulate(load("menos"), games=2, bots=["greedy", "greedy"], seed=1, match=False, workers=1)
>>> report.games, [f.key for f in report.figures][:3]
(2, ['turns_per_round', 'stock_ran_out', 'went_out'])

:func:`simulate` plays ``games`` whole matches (or single rounds, ``match=False``) with the bots seated in
rotation (:mod:`loba_dsl.simulation.games`), each game dealt from its own seed, derived from the run's seed
and the game's index; with a second ruleset every game is played under both, from the same seed (the same
deal where the two deal alike).  Chunks of games run where :mod:`loba_dsl.simulation.executors` says (this
process, all cores, a Dask cluster) and come back in index order, so the figures
(:mod:`loba_dsl.simulation.figures`) and :meth:`SimReport.to_dict` are the same, byte for byte, whatever
runs them.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from loba_dsl.bots import bot_names
from loba_dsl.errors import InputError
from loba_dsl.rules.model import Better, Ruleset
from loba_dsl.simulation.executors import EXECUTORS, chunk_size, cores, run_chunks
from loba_dsl.simulation.figures import Estimate, Figure, figures
from loba_dsl.simulation.games import MAX_PLIES, SEATS, GameFacts, game_seed, play_game

__all__ = ["EXECUTORS", "Estimate", "Figure", "GameFacts", "SimReport", "game_seed", "play_game", "simulate"]

MAX_GAMES = 1_000_000
SECONDS_PER_ROUND = {"random": 0.15, "greedy": 0.03, "search": 2.0}
"""A rough cost of one seat's play in a round (CPU seconds), for sizing chunks only."""


@dataclass(frozen=True)
class SimReport:
    """What :func:`simulate` found: the run's settings and its figures (see :mod:`.figures`)."""

    rulesets: tuple[str, ...]
    bots: tuple[str, ...]
    games: int
    match: bool
    seed: int
    paired: bool
    """Whether both rulesets dealt the very same cards (same deck and deal)."""
    unfinished: tuple[int, ...]
    """Games per ruleset that did not finish (a round no player could ever go out of, or stopped at the move limit)."""
    figures: tuple[Figure, ...]
    facts: tuple[tuple[GameFacts, ...], ...] = field(default=(), repr=False, compare=False)
    """Every game's facts, per ruleset, in index order."""

    def figure(self, key: str) -> Figure:
        return next(f for f in self.figures if f.key == key)

    def to_dict(self) -> dict[str, Any]:
        return {"rulesets": list(self.rulesets), "bots": list(self.bots), "seats": list(SEATS[:len(self.bots)]),
                "mode": "matches" if self.match else "rounds", "games": self.games, "seed": self.seed,
                "paired": self.paired, "unfinished": list(self.unfinished),
                "figures": [f.to_dict() for f in self.figures]}


_RULESETS: dict[str, Ruleset] = {}
"""The rulesets a worker process has seen, by digest: its bots' solver caches live as long as the process."""

Job = tuple[tuple[tuple[str, Ruleset], ...], tuple[str, ...], int, int, int, bool, int, tuple[tuple[str, int], ...]]


def _play_chunk(job: Job) -> list[list[GameFacts]]:
    rulesets, bots, seed, start, count, match, max_plies, options = job
    live = [_RULESETS.setdefault(digest, rs) for digest, rs in rulesets]
    if len(_RULESETS) > 64:
        _RULESETS.clear()
    return [[play_game(rs, bots, seed, i, match=match, max_plies=max_plies, options=dict(options)) for rs in live]
            for i in range(start, start + count)]


def _digest(rs: Ruleset) -> str:
    return hashlib.sha256(pickle.dumps(rs)).hexdigest()


def simulate(ruleset: Ruleset, *, games: int, bots: Sequence[str], seed: int = 1, match: bool = True,
             vs: Ruleset | None = None, executor: str = "processes", workers: int | None = None,
             address: str | None = None, progress: Callable[[int], None] | None = None,
             max_plies: int = MAX_PLIES, search_samples: int | None = None) -> SimReport:
    """Play ``games`` seeded games (matches, or rounds with ``match=False``) of ``bots`` under ``ruleset``
    (and ``vs``, on the same seeds); ``progress(n)`` after each chunk of ``n`` games."""
    bots = bot_names(",".join(bots)) if bots else []
    if not bots:
        raise InputError("name the bots that play, one per seat, e.g. greedy,greedy,search")
    if not 1 <= games <= MAX_GAMES:
        raise InputError(f"the number of games is 1 to {MAX_GAMES:,}, not {games}")
    if len(bots) > len(SEATS):
        raise InputError(f"at most {len(SEATS)} bots can sit at one table, not {len(bots)}")
    sides = [ruleset] if vs is None else [ruleset, vs]
    for rs in sides:
        if not rs.players.allows(len(bots)):
            raise InputError(f"{rs.name} is played by {rs.players.min} to {rs.players.max} players, "
                             f"not {len(bots)} ({','.join(bots)})")
    options: tuple[tuple[str, int], ...] = (("samples", search_samples),) if search_samples is not None else ()
    per_round = 0.02 + sum(SECONDS_PER_ROUND[b] for b in bots) * (2 if vs is not None else 1)
    per_game = per_round * (8 if match else 1)
    w = cores() if workers is None else workers
    size = chunk_size(games, w if executor == "processes" else max(w, 8), per_game)
    tagged = tuple((_digest(rs), rs) for rs in sides)
    jobs: list[Job] = [(tagged, tuple(bots), seed, start, min(size, games - start), match, max_plies, options)
                       for start in range(0, games, size)]
    tick = None if progress is None else (lambda i: progress(jobs[i][4]))
    chunks = run_chunks(_play_chunk, jobs, executor=executor, workers=workers, address=address, progress=tick)
    played = [[game[k] for chunk in chunks for game in chunk] for k in range(len(sides))]
    lower = [rs.scoring.better is Better.LOWER for rs in sides]
    figs = figures(played, bots, match=match, lower=lower)
    paired = vs is not None and ruleset.deck == vs.deck and ruleset.deal == vs.deal
    return SimReport(tuple(rs.name for rs in sides), tuple(bots), games, match, seed, paired,
                     tuple(sum(not g.finished for g in side) for side in played), tuple(figs),
                     tuple(tuple(side) for side in played))


def estimated_seconds(bots: Sequence[str], games: int, *, match: bool) -> float:
    """A rough CPU time of a run (for a caller deciding how to show progress)."""
    per_round = 0.02 + sum(SECONDS_PER_ROUND.get(b, 0.1) for b in bots)
    return per_round * (8 if match else 1) * games
