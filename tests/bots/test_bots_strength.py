"""Greedy beats random, and search beats greedy, under menos: statistical tests on fixed seeded deals.

Design: duplicate deals, two players.  Deal ``i`` (seed ``(SEED, i)``, :func:`loba_dsl.simulation.game_seed`) is
played twice with the bots' seats swapped, so luck of the cards cancels; the deal's *edge* is the weaker
bot's round score less the stronger's, averaged over the two seatings (menos scores penalties: lower is
better, rules.md §1).  Over ``n`` deals the test is one-sided at the 5% level: the mean edge divided by its
standard error (``sd / sqrt(n)``) must exceed Student's t quantile t(0.95, n-1).  The deals are fixed, so
the test is deterministic; its sample size and threshold are stated with each test.

A round nobody can end (no hand left can ever go out: stopped when proved, loba_dsl.game.stalemate) scores nothing
for either bot.

Search beats greedy the same way, over 120 duplicate deals of seed 9001 (a sample drawn after search's settings were
fixed: the endgame lookahead from 7 cards, chosen on seed 2025).  Measured by
``python benchmarks/bench_search_strength.py --deals 120 --seed 9001 --opt endgame=7``: +2.79 ± 0.72 points a
round (t = 3.90); the test asks t > t(0.95, 119) = 1.658.  Were search to play greedy's moves, every deal's edge
would be 0 and the test would fail.  It plays 240 rounds of search: a few CPU-minutes.
"""

from __future__ import annotations

import math
import statistics

import pytest

from loba_dsl.rules.loading import load
from loba_dsl.simulation.games import play_game

T95 = {11: 1.796, 119: 1.658}
"""Student's t, one-sided 95%, by degrees of freedom (n - 1)."""


def edges(strong: str, weak: str, deals: int, seed: int, options: dict[str, int] | None = None) -> list[float]:
    """Each deal's edge (a round nobody can end, stopped at the move limit, scores nothing for either: edge 0)."""
    rs = load("menos")
    out = []
    for i in range(deals):
        edge = 0.0
        for bots in ([strong, weak], [weak, strong]):
            game = play_game(rs, bots, seed, i, match=False, options=options)
            if not game.finished:
                continue
            scores = game.rounds[0].scores
            mine = {b: s for b, s in zip(game.bots, scores, strict=True)}
            edge += (mine[weak] or 0) - (mine[strong] or 0)
        out.append(edge / 2)
    return out


def one_sided_t(xs: list[float]) -> float:
    """Student's t of the mean against 0 (no spread at all: 0 for a mean of 0, as when two bots play alike)."""
    mean, sd = statistics.mean(xs), statistics.stdev(xs)
    if sd == 0:
        return 0.0 if mean == 0 else math.copysign(math.inf, mean)
    return mean / (sd / math.sqrt(len(xs)))


@pytest.mark.slow
def test_greedy_beats_random_under_menos() -> None:
    # n = 12 duplicate deals (24 rounds); pass: t > t(0.95, 11) = 1.796
    d = edges("greedy", "random", 12, seed=2025)
    assert one_sided_t(d) > T95[11], d


@pytest.mark.slow
def test_search_beats_greedy_under_menos() -> None:
    # n = 120 duplicate deals (240 rounds), search with its default settings; pass: t > t(0.95, 119) = 1.658
    d = edges("search", "greedy", 120, seed=9001)
    assert one_sided_t(d) > T95[119], (statistics.mean(d), d)


def test_two_bots_that_play_alike_show_no_edge() -> None:
    # the test above can fail: greedy against itself gives every deal an edge of 0, and t = 0
    assert one_sided_t(edges("greedy", "greedy", 3, seed=9001)) == 0.0
