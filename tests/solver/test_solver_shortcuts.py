"""The solver's number-only shortcuts agree with its full arrangements.

``best_score`` and ``best_discard_score`` skip building arrangements (and take
a bitmask path for hands of distinct plain cards); the arrangements they must
agree with are checked against a brute-force oracle in ``test_solver.py``.
"""

from __future__ import annotations

import random

import pytest

from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load
from loba_dsl.solver.api import Solver


@pytest.mark.parametrize("name", shipped_names())
def test_best_score_and_best_discard_score_match_the_arrangements(name: str) -> None:
    rs = load(name)
    solver = Solver(rs)
    deck = rs.deck
    pack = [c for c in range(deck.joker_code) for _ in range(deck.copies)] + [deck.joker_code] * deck.jokers
    rng = random.Random(f"shortcuts:{name}")
    for _ in range(150):
        hand = rng.sample(pack, rng.randint(1, 11))
        assert solver.best_score(hand) == solver.arrange(hand).score, hand
        discard, after = solver.best_discard(hand)
        assert solver.best_discard_score(hand) == after.score, hand
        # The discard it names is one of the hand's cards, and the arrangement holds the rest.
        rest = list(hand)
        rest.remove(discard)
        assert sorted(after.cards) == sorted(rest)


@pytest.mark.parametrize("name", ["mas-pagat", "uruguay", "menos"])
def test_the_linear_relaxation_bound_changes_no_answer(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The LP bound (used on large hands) only prunes: with it on every hand the answers stay the same."""
    import loba_dsl.solver.search as search_module

    rs = load(name)
    deck = rs.deck
    pack = [c for c in range(deck.joker_code) for _ in range(deck.copies)] + [deck.joker_code] * deck.jokers
    rng = random.Random(f"lp:{name}")
    hands = [rng.sample(pack, rng.randint(8, 16)) for _ in range(40)]
    plain = [Solver(rs).arrange(h).score for h in hands]
    monkeypatch.setattr(search_module, "_LP_FROM", 0)  # the LP bound (and the search from below it) on every hand
    with_lp = Solver(rs)
    assert [with_lp.arrange(h).score for h in hands] == plain


def test_the_linear_relaxation_is_solved() -> None:
    """Two melds sharing one card (each gain 5) can't both be made: the LP bound is 5, not 10."""
    from loba_dsl.solver.search import _lp_shares

    prices = _lp_shares([1, 1, 1], [({0: 1, 1: 1}, 5), ({1: 1, 2: 1}, 5)])
    assert prices is not None
    assert sum(prices) == pytest.approx(5, abs=1e-6)
    assert prices[0] + prices[1] >= 5 - 1e-6 and prices[1] + prices[2] >= 5 - 1e-6
