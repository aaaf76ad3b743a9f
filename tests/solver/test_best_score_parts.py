"""A best score's live cards searched whole or in parts (their Jokers shared out) give the same score.

:func:`BestScores._split_gain <loba_dsl.solver.scores.BestScores>` searches fewer than
:data:`~loba_dsl.solver.scores.SPLIT_FROM` live cards whole and more in parts no meld crosses,
sharing the Jokers among the parts (a knapsack): both must be exact, so each is forced on every
hand here and compared with the other and with the score of the hand's best arrangement.
"""

from __future__ import annotations

import random

import pytest

from loba_dsl.cards.deck import Card
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver import scores
from loba_dsl.solver.api import Solver


def joker_heavy_hands(rs: Ruleset, seed: str, n: int) -> list[tuple[Card, ...]]:
    """Hands of 6-18 cards, half of them with one to three Jokers added (the parts then share them)."""
    rng = random.Random(seed)
    deck = rs.deck
    pack = [c for c in range(deck.joker_code) for _ in range(deck.copies)]
    out = []
    for i in range(n):
        hand = rng.sample(pack, rng.randint(6, 18))
        if i % 2 and deck.jokers:
            hand += [deck.joker_code] * rng.randint(1, min(3, deck.jokers))
        out.append(tuple(hand))
    return out


def solver_splitting_from(rs: Ruleset, cards: int) -> Solver:
    """A Solver whose best scores search live cards whole below ``cards``, in parts from there."""
    solver = Solver(rs)
    solver.scores._split_from = cards
    return solver


@pytest.mark.parametrize("name", ["menos", "uruguay", "pierna-de-cuatro", "gin", "mas-pagat"])
def test_whole_and_parts_give_the_same_best_score(name: str) -> None:
    rs = load(name)
    hands = joker_heavy_hands(rs, f"parts:{name}", 120)
    in_parts = [solver_splitting_from(rs, 0).best_score(h) for h in hands]  # a fresh Solver: no cache
    whole = [solver_splitting_from(rs, 10**6).best_score(h) for h in hands]
    arranged = Solver(rs)
    for hand, a, b in zip(hands, in_parts, whole, strict=True):
        assert a == b == arranged.arrange(hand).score, (name, hand)


def test_the_default_splits_only_large_hands_where_the_twins_search() -> None:
    solver = Solver(load("menos"))
    assert solver.scores._split_from == (scores.SPLIT_FROM if solver.searches.native_light else 0)
