"""The Solver's parts, one job each, called directly as a bot's author would, and what an empty hand is.

The Solver is a facade over its parts (``solver.melds``, ``searches``, ``scores``,
``arranger``, ``discards``, ``openings``); each part's public method is one
call under its own budget, so it can be asked without the facade.
"""

from __future__ import annotations

import random

import pytest

from loba_dsl.budget import Budget
from loba_dsl.errors import BudgetExceeded, InputError, LobaError
from loba_dsl.rules.loading import load
from loba_dsl.solver.api import Solver


@pytest.fixture(scope="module")
def menos() -> Solver:
    return Solver(load("menos"))


def test_a_hand_with_no_cards_has_no_discard(menos: Solver) -> None:
    # A discard is one card of the hand (rules.md §1): an empty hand has none to give.
    with pytest.raises(InputError, match="no cards has no discard") as raised:
        menos.best_discard(())
    assert isinstance(raised.value, LobaError)
    with pytest.raises(InputError, match="no cards has no discard"):
        menos.best_discard_score(())


def test_an_empty_hand_arranges_to_nothing(menos: Solver) -> None:
    # No card left, no meld: menos counts the penalty of the cards left, none (docs/rules.md §1).
    arrangement = menos.arrange(())
    assert (arrangement.melds, arrangement.left, arrangement.score) == ((), (), 0)
    assert menos.best_score(()) == 0


def test_each_part_obeys_the_budget_it_is_given() -> None:
    # 30 random mas-pagat cards take far more than a handful of search steps.
    solver = Solver(load("mas-pagat"))
    rng = random.Random(5)
    deck = solver.deck
    pool = [c for c in range(deck.joker_code) for _ in range(deck.copies)] + [deck.joker_code] * deck.jokers
    hand = tuple(rng.sample(pool, 30))
    tiny = Budget(steps=5)
    for ask in (lambda: solver.discards.best_discard(hand, budget=tiny),
                lambda: solver.discards.best_discard_score(hand, budget=tiny),
                lambda: solver.discards.can_go_out(hand, opened=True, budget=tiny),
                lambda: solver.discards.max_melded(hand, budget=tiny),
                lambda: solver.arranger.arrange(hand, tiny),
                lambda: solver.scores.best_score(hand, budget=tiny)):
        with pytest.raises(BudgetExceeded):
            ask()
        assert solver.calls.clock is None  # the call ended with its error


def test_the_parts_answer_as_the_facade() -> None:
    # Two solvers of one ruleset: one asked through the facade, one through its parts.
    rs = load("mas-pagat")
    facade, parts = Solver(rs), Solver(rs)
    rng = random.Random(8)
    deck = rs.deck
    pool = [c for c in range(deck.joker_code) for _ in range(deck.copies)] + [deck.joker_code] * deck.jokers
    for _ in range(40):
        hand = tuple(rng.sample(pool, 11))
        assert parts.scores.best_score(hand) == facade.best_score(hand)
        assert parts.arranger.arrange(hand) == facade.arrange(hand)
        assert parts.discards.best_discard(hand) == facade.best_discard(hand)
        assert parts.discards.can_go_out(hand, opened=True) == facade.can_go_out(hand, opened=True)
