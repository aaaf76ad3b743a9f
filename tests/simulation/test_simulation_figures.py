"""The figures' arithmetic: ratios over games, standard errors with the game as the unit, paired differences.

Expected values are worked by hand from the definitions in :mod:`loba_dsl.simulation.figures`.
"""

from __future__ import annotations

import math

import pytest

from loba_dsl.simulation.figures import Z95, estimate, figures, paired_difference
from loba_dsl.simulation.games import GameFacts, RoundFacts


def test_a_plain_mean_has_the_textbook_standard_error() -> None:
    e = estimate([(1.0, 1.0), (3.0, 1.0), (5.0, 1.0)])
    # mean 3, sd 2, se 2/sqrt(3)
    assert e.value == 3.0 and e.se == pytest.approx(2 / math.sqrt(3)) and e.games == 3
    assert e.low == pytest.approx(3 - Z95 * 2 / math.sqrt(3))


def test_a_ratio_weighs_games_by_their_rounds() -> None:
    # turns 30 over 2 rounds, 10 over 1 round: 40/3 turns per round, not the mean of 15 and 10
    e = estimate([(30.0, 2.0), (10.0, 1.0)])
    assert e.value == pytest.approx(40 / 3)
    # z = (x - R n) / mean(n): (30 - 80/3) / 1.5 = 20/9 and (10 - 40/3) / 1.5 = -20/9; sd = 20/9 * sqrt(2)
    assert e.se == pytest.approx(20 / 9 * math.sqrt(2) / math.sqrt(2))


def test_games_without_weight_count_nowhere() -> None:
    assert estimate([(7.0, 0.0), (2.0, 1.0), (4.0, 1.0)]).value == 3.0
    assert estimate([(7.0, 0.0)]).value is None


def test_a_paired_difference_cancels_what_both_sides_share() -> None:
    a = [(10.0, 1.0), (20.0, 1.0), (30.0, 1.0)]
    b = [(11.0, 1.0), (21.0, 1.0), (31.0, 1.0)]
    d = paired_difference(a, b)
    assert d.value == pytest.approx(1.0) and d.se == pytest.approx(0.0)


def _game(index: int, bots: tuple[str, ...], scores: tuple[int, ...], went_out: int) -> GameFacts:
    return GameFacts(index, bots, (RoundFacts(20, 50, False, went_out, scores),), True, (went_out,))


def test_wins_and_scores_by_bot_follow_the_seats() -> None:
    games = [_game(0, ("greedy", "random"), (0, 30), 0), _game(1, ("random", "greedy"), (12, 0), 1)]
    figs = {f.key: f for f in figures([games], ["greedy", "random"], match=False, lower=[True])}
    assert figs["round_score.greedy"].sides[0].value == 0.0
    assert figs["round_score.random"].sides[0].value == 21.0
    assert figs["win.greedy"].sides[0].value == 100.0
    assert figs["win.seat1"].sides[0].value == 50.0
