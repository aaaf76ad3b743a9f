"""The meld table: every candidate meld of a deck judged once per ruleset (issue 22, item 4).

:meth:`Solver.compile_meld_table` judges every candidate meld the whole deck can
make, by the matcher, into a table that :meth:`Solver.clear_caches` keeps, so a
hand never waits on the matcher again.  It must change no answer, hold exactly
the legal melds of the rules with their values, and not be built where the
deck makes too many candidates.
"""

from __future__ import annotations

import itertools
import random

import pytest

from loba_dsl.cards.deck import Card
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.api import Solver
from loba_dsl.solver.meld_table import TABLE_MELDS, deck_candidates, universe_bound


def pack(rs: Ruleset) -> list[Card]:
    deck = rs.deck
    return [c for c in range(deck.joker_code) for _ in range(deck.copies)] + [deck.joker_code] * deck.jokers


def dealt(rs: Ruleset, seed: str, n: int, size: int = 10) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    cards = pack(rs)
    return [tuple(rng.sample(cards, size)) for _ in range(n)]


@pytest.mark.parametrize("name", shipped_names())
def test_the_table_changes_no_best_score(name: str) -> None:
    rs = load(name)
    plain, tabled = Solver(rs), Solver(rs)
    built = tabled.compile_meld_table()
    for i, hand in enumerate(dealt(rs, f"table:{name}", 150)):
        if i % 3 == 0:
            tabled.clear_caches()  # the table stays; every cache of hands goes
        assert tabled.best_score(hand) == plain.best_score(hand), (name, hand, built)


def test_a_tabled_solver_never_asks_the_matcher_again(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load("menos")
    hands = dealt(rs, "matcher", 300)
    expected = [Solver(rs).best_score(h) for h in hands]
    solver = Solver(rs)
    assert solver.compile_meld_table() > 0
    solver.clear_caches()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the matcher was asked after the table was built")

    monkeypatch.setattr(solver.matcher, "match", refuse)
    assert [solver.best_score(h) for h in hands] == expected
    # rules.md §1: A-2-3 of clubs is an escalera (ace low), three 7s of three suits a pierna; K♠ (10) is left.
    cards = rs.notation().parse("A♣ 2♣ 3♣ 7♠ 7♥ 7♦ K♠", source="<test>").cards
    assert solver.best_score(cards) == 10


def gin_melds(rs: Ruleset) -> set[tuple[Card, ...]]:
    """Every legal gin meld by the rules (gin.yaml): sets of 3-4 suits of a rank, runs of 3+ in suit, ace low."""
    deck = rs.deck
    out: set[tuple[Card, ...]] = set()
    for r in range(13):
        for size in (3, 4):
            for suits in itertools.combinations(range(4), size):
                out.add(tuple(sorted(deck.code(r, s) for s in suits)))
    for s in range(4):
        for lo in range(13):
            for hi in range(lo + 3, 14):
                out.add(tuple(sorted(deck.code(r, s) for r in range(lo, hi))))
    return out


def test_the_gin_table_holds_the_legal_melds_of_the_rules_at_their_deadwood() -> None:
    rs = load("gin")
    solver = Solver(rs)
    solver.compile_meld_table()
    deck = rs.deck
    deadwood = {c: min(deck.rank_of(c) + 1, 10) for c in range(52)}  # A 1, 2-10 face, J Q K 10
    legal = {tuple(sorted(m)): v for m, v in solver.melds.table.items() if v is not None}
    assert set(legal) == gin_melds(rs)  # 4 x 66 runs and 13 x 5 sets
    assert len(legal) == 4 * 66 + 13 * 5
    # Melding takes the cards' deadwood off the hand: the gain is their sum.
    assert all(v == sum(deadwood[c] for c in m) for m, v in legal.items())


def test_a_deck_of_many_wilds_gets_no_table() -> None:
    rs = load("mas-pagat")  # rules.md §3: escaleras take any number of wilds (Jokers and 2s)
    solver = Solver(rs)
    assert universe_bound(solver.candidates, rs.deck) > TABLE_MELDS
    assert solver.compile_meld_table() == 0
    assert not solver.melds.table


@pytest.mark.parametrize("name", shipped_names())
def test_the_bound_holds_every_candidate_of_the_deck(name: str) -> None:
    rs = load(name)
    generator = Solver(rs).candidates
    bound = universe_bound(generator, rs.deck)
    for pooled in (False, True):
        found = deck_candidates(generator, rs.deck, pooled=pooled)
        if found is not None:
            assert len(found) <= bound, (name, pooled)
        else:
            assert bound > TABLE_MELDS


def test_a_table_past_the_budget_is_not_built() -> None:
    from loba_dsl.budget import Budget
    from loba_dsl.errors import BudgetExceeded

    solver = Solver(load("menos"), budget=Budget(steps=10))  # one step a meld: menos's deck makes 1,783
    with pytest.raises(BudgetExceeded):
        solver.compile_meld_table()
    assert not solver.melds.table
