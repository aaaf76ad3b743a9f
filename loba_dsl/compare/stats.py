"""Play statistics: what a variant feels like, from many dealt hands and the exact solver.

For each ruleset, ``deals`` hands are dealt (``deal.cards`` cards from the
ruleset's own deck) with a seeded generator; where two rulesets share a deck
they get the very same hands, so their difference is measured on paired
deals.  For every hand the solver gives the best score if the round ended now
(least penalty, or most points, by each ruleset's ``scoring.better``; scores
of opposite scales are shown side by side, never subtracted), whether the hand can go out at once, and,
where the ruleset has one, whether the opening minimum is reachable.  Means
come with their standard deviation, and differences with their standard
error; the same seed gives the same figures, whatever the number of workers.
"""

from __future__ import annotations

import itertools
import math
import os
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from loba_dsl.cards.deck import Card
from loba_dsl.errors import InputError
from loba_dsl.rules.model import Better, Ruleset
from loba_dsl.solver.api import Solver

CHUNK = 250
"""Deals per unit of work sent to a worker process."""
MAX_DEALS = 1_000_000
"""The most deals one comparison may ask for (as ``simulate``'s ``MAX_GAMES``): hands are dealt a chunk at
a time, so memory holds the figures of each deal, not every hand."""


@dataclass(frozen=True)
class Figure:
    """One measure on both sides, with the difference and its standard error."""

    name: str
    a: float
    b: float
    spread_a: float | None
    spread_b: float | None
    diff: float | None
    """``b - a``; ``None`` when the two sides are not on one scale (see ``comparable``)."""
    se: float | None
    unit: str = ""
    comparable: bool = True
    """False when ``a`` and ``b`` are on opposite scales (one ruleset's best is lowest, the other's highest):
    both are shown, and no difference is taken."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "a": self.a, "b": self.b, "spread_a": self.spread_a, "spread_b": self.spread_b,
                "diff": self.diff, "se": self.se, "unit": self.unit, "comparable": self.comparable}


@dataclass(frozen=True)
class PlayStats:
    """The figures of ``deals`` dealt hands under each ruleset; ``paired`` when both got the same hands."""

    deals: int
    seed: int
    paired: bool
    figures: tuple[Figure, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"deals": self.deals, "seed": self.seed, "paired": self.paired,
                "figures": [f.to_dict() for f in self.figures]}


def deal(ruleset: Ruleset, count: int, seed: int) -> list[tuple[Card, ...]]:
    """``count`` hands of ``deal.cards`` cards from the ruleset's deck, reproducibly."""
    return [hand for chunk in deal_chunks(ruleset, count, seed) for hand in chunk]


def deal_chunks(ruleset: Ruleset, count: int, seed: int) -> Iterator[list[tuple[Card, ...]]]:
    """The hands of :func:`deal`, :data:`CHUNK` at a time, dealt as they are asked for."""
    d = ruleset.deck
    pack = [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers
    size = ruleset.deal.cards
    rng = random.Random(f"loba-deal:{seed}:{len(pack)}:{size}")
    for first in range(0, count, CHUNK):
        yield [tuple(rng.sample(pack, size)) for _ in range(min(CHUNK, count - first))]


def _evaluate(job: tuple[Ruleset, Sequence[tuple[Card, ...]]]) -> list[tuple[int, bool, bool | None]]:
    ruleset, hands = job
    solver = Solver(ruleset)
    out = []
    for hand in hands:
        score = solver.arrange(hand).score
        out_at_once = solver.can_go_out(hand).possible
        opening = solver.best_opening(hand) is not None if ruleset.requirements.opening is not None else None
        out.append((score, out_at_once, opening))
    return out


def _run(ruleset: Ruleset, chunks: Iterator[list[tuple[Card, ...]]], pool: ProcessPoolExecutor | None, workers: int,
         progress: Callable[[int], None] | None) -> list[tuple[int, bool, bool | None]]:
    jobs = ((ruleset, chunk) for chunk in chunks)
    results: list[tuple[int, bool, bool | None]] = []
    # map keeps the order, so the figures do not depend on the workers; Executor.map takes every job at once,
    # so the pool is fed a window of chunks at a time (memory holds a few chunks of hands, not every hand).
    window = 4 * workers
    while batch := list(itertools.islice(jobs, window)):
        mapped = pool.map(_evaluate, batch) if pool is not None else map(_evaluate, batch)
        for chunk in mapped:
            results.extend(chunk)
            if progress is not None:
                progress(len(chunk))
    return results


def play_stats(a: Ruleset, b: Ruleset, *, deals: int, seed: int = 1, workers: int | None = None,
               progress: Callable[[int], None] | None = None) -> PlayStats:
    """Deal and solve ``deals`` hands (at most :data:`MAX_DEALS`) under each ruleset; compare what players feel."""
    if not 0 <= deals <= MAX_DEALS:
        raise InputError(f"the number of deals is 0 to {MAX_DEALS:,}, not {deals:,}")
    # Where both rulesets share a deck and a deal size, one seed deals both the very same hands.
    paired = a.deck == b.deck and a.deal.cards == b.deal.cards
    workers = workers if workers is not None else (os.cpu_count() or 1)
    if workers > 1 and deals >= 2 * CHUNK:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            ra = _run(a, deal_chunks(a, deals, seed), pool, workers, progress)
            rb = _run(b, deal_chunks(b, deals, seed), pool, workers, progress)
    else:
        ra = _run(a, deal_chunks(a, deals, seed), None, 1, progress)
        rb = _run(b, deal_chunks(b, deals, seed), None, 1, progress)
    figures = [
        _score_figure(a, b, [r[0] for r in ra], [r[0] for r in rb], paired),
        _compare("dealt hands that can go out at once", [float(r[1]) for r in ra], [float(r[1]) for r in rb],
                 paired, unit="%"),
    ]
    if a.requirements.opening is not None or b.requirements.opening is not None:
        oa = [float(bool(r[2])) if r[2] is not None else 1.0 for r in ra]
        ob = [float(bool(r[2])) if r[2] is not None else 1.0 for r in rb]
        figures.append(_compare("dealt hands whose opening minimum is reachable", oa, ob, paired, unit="%"))
    return PlayStats(deals, seed, paired, tuple(figures))


BEST_SCORE: dict[Better, str] = {Better.LOWER: "least penalty", Better.HIGHER: "most points"}
"""How the best score of a hand is called under each ``scoring.better``."""


def _score_figure(a: Ruleset, b: Ruleset, xs: Sequence[float], ys: Sequence[float], paired: bool) -> Figure:
    """The best score of a dealt hand on each side, labelled by each ruleset's ``scoring.better``.

    Scores of opposite scales (a penalty to keep low against points to make high) are not subtracted: both
    are shown, and the figure says they are not comparable.
    """
    if a.scoring.better is b.scoring.better:
        return _compare(f"{BEST_SCORE[a.scoring.better]} in a dealt hand", xs, ys, paired, spread=True)
    name = (f"best score in a dealt hand, not comparable ({a.name}: {BEST_SCORE[a.scoring.better]}, "
            f"{b.name}: {BEST_SCORE[b.scoring.better]})")
    return Figure(name, _mean(xs), _mean(ys), _sd(xs), _sd(ys), None, None, comparable=False)


def _compare(name: str, xs: Sequence[float], ys: Sequence[float], paired: bool, *, spread: bool = False,
             unit: str = "") -> Figure:
    n = len(xs)
    ma, mb = _mean(xs), _mean(ys)
    if paired:
        diffs = [y - x for x, y in zip(xs, ys, strict=True)]
        se = _sd(diffs) / math.sqrt(n) if n > 1 else 0.0
    else:
        se = math.sqrt(_sd(xs) ** 2 / n + _sd(ys) ** 2 / n) if n > 1 else 0.0
    scale = 100.0 if unit == "%" else 1.0
    return Figure(name, ma * scale, mb * scale, _sd(xs) if spread else None, _sd(ys) if spread else None,
                  (mb - ma) * scale, se * scale, unit)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _sd(xs: Sequence[float]) -> float:
    if len(xs) < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
