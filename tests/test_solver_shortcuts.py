"""The solver's number-only shortcuts agree with its full arrangements.

``best_score`` and ``best_discard_score`` skip building arrangements (and take
a bitmask path for hands of distinct plain cards); the arrangements they must
agree with are checked against a brute-force oracle in ``test_solver.py``.
"""

from __future__ import annotations

import random

import pytest

from loba_dsl.loader import shipped_names
from loba_dsl.ruleset import load_ruleset
from loba_dsl.solver import Solver


@pytest.mark.parametrize("name", shipped_names())
def test_best_score_and_best_discard_score_match_the_arrangements(name: str) -> None:
    rs = load_ruleset(name)
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
