"""Budgets on every search, and the answers they must not change (issues 9 and 11).

Every search of the solver and the matcher's reading search takes ``budget=``;
running out raises :class:`BudgetExceeded` (exit 2 in the CLI), never a guess
and never a hang.  Expected scores come from the rules (rules.md §3, seed 003's
``on_table`` and ``in_hand`` tables), worked out in the comments.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from loba_cli.main import app
from loba_dsl.budget import Budget, as_budget
from loba_dsl.cards.deck import Card
from loba_dsl.errors import BudgetExceeded, InputError, LobaError
from loba_dsl.melds.matcher import matcher_for
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.rounds import score_player
from loba_dsl.solver.api import Solver


def jokers(n: int) -> Ruleset:
    return loads(f"extends: mas-pagat\nname: jokers{n}\ndeck: {{jokers: {n}}}\n")


# ---------------------------------------------------------------- the 16-Joker wrong answer (issue 9)


@pytest.mark.parametrize(("n", "score"), [(15, 45), (16, 46)])
def test_many_jokers_are_counted_not_overflowed(n: int, score: int) -> None:
    # rules.md §3 (seed 003): a wild scores 3 as 8..K or as a high ace, else 1; a high ace scores 3; a 5 scores 1.
    # Two runs (one per natural, at most 13 cards) can hold at most 7 positions from 8 up to the high ace
    # each: 14 x 3 = 42, and every other card scores 1.  16 Jokers: 42 + 4 x 1 = 46 (5♠-A♠ and 4♠...), all
    # melded; 15 Jokers: 8♥..A♥ (21) and 5♠..A♠ (1 + 2 + 18 + 3 = 24) = 45.  Nothing is left in hand.
    # Before the fix 16 copies overflowed a 4-bit count to 0: -52, nothing melded.
    arr = Solver(jokers(n)).arrange("A♥ 5♠ " + " ".join(["JOKER"] * n))
    assert arr.score == score
    assert arr.left == ()


# ---------------------------------------------------------------- solver == brute force under wild house rules


SHAPES = ["run 3..13, naturals >= 1", "run 3..13, ace high or low, wilds <= 3", "run 3..6, ace low"]
SETS = ["set 3..6, no wilds", "set 3..8", "set 3..4, suits distinct"]


@functools.cache
def house(base: str, n_jokers: int, wilds: str, natural_too: bool, run: str, set_: str) -> Ruleset:
    return loads(
        f"extends: {base}\nname: house\ndeck: {{jokers: {n_jokers}}}\n"
        f"wilds: {{cards: \"{wilds}\", natural_too: {str(natural_too).lower()}}}\n"
        f"melds:\n  escalera: {{shape: \"{run}\"}}\n  pierna: {{shape: \"{set_}\"}}\n")


def brute_best(rs: Ruleset, hand: tuple[Card, ...]) -> int:
    """The best round score over every set of disjoint legal melds (the matcher judges legality)."""
    m = matcher_for(rs)
    lower = rs.scoring.better == "lower"
    counts = sorted(Counter(hand).items())
    subs = []
    for takes in itertools.product(*(range(k + 1) for _, k in counts)):
        sub = tuple(c for (c, _), t in zip(counts, takes, strict=True) for _ in range(t))
        if sub and m.match(sub, reasons=False, budget=Budget(seconds=30)).best is not None:
            subs.append(sub)
    best: int | None = None

    def walk(left: Counter[Card], melds: list[tuple[Card, ...]], start: int) -> None:
        nonlocal best
        s = score_player(rs, melds=list(melds), hand=sorted(left.elements())).score
        if best is None or (s < best if lower else s > best):
            best = s
        for k in range(start, len(subs)):
            need = Counter(subs[k])
            if all(left[c] >= v for c, v in need.items()):
                walk(left - need, [*melds, subs[k]], k)

    walk(Counter(hand), [], 0)
    assert best is not None
    return best


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(["mas-pagat", "menos"]), n_jokers=st.integers(4, 16),
       wilds=st.sampled_from(["JOKER", "JOKER, 2", "JOKER, 2, 3"]), natural_too=st.booleans(),
       run=st.sampled_from(SHAPES), set_=st.sampled_from(SETS), data=st.data())
def test_solver_matches_brute_force_with_many_wilds(base: str, n_jokers: int, wilds: str, natural_too: bool,
                                                     run: str, set_: str, data: st.DataObject) -> None:
    # issue 9 acceptance: random house rulesets that allow many wilds, small hands heavy in wild cards.
    rs = house(base, n_jokers, wilds, natural_too, run, set_)
    deck = rs.deck
    two, three = deck.rank_index["2"], deck.rank_index["3"]
    wild_cards = [deck.joker_code] * 4 + [deck.code(r, s) for r in (two, three) for s in range(deck.n_suits)]
    plain = list(range(deck.joker_code))
    cards = data.draw(st.lists(st.sampled_from(wild_cards), min_size=1, max_size=5), label="wilds")
    cards += data.draw(st.lists(st.sampled_from(plain), min_size=1, max_size=3), label="naturals")
    seen: Counter[Card] = Counter()
    hand = []
    for c in cards:
        if seen[c] < deck.limit(c):
            seen[c] += 1
            hand.append(c)
    got = Solver(rs).arrange(tuple(hand), budget=30)
    assert got.score == brute_best(rs, tuple(sorted(hand))), deck.names_of(hand)



# Hypothesis's @example cannot supply st.data(), so its failing example is pinned here instead.
@pytest.mark.parametrize("hand", ["JOKER JOKER JOKER A♥ A♥ 2♠", "2♠ A♥ JOKER A♥ JOKER JOKER"])
def test_a_2_that_leads_its_meld_is_not_traded_for_a_free_joker(hand: str) -> None:
    # Found by test_solver_matches_brute_force_with_many_wilds: a house mas-pagat (4 Jokers, wilds Jokers and
    # 2s, never natural; escalera "run 3..13, ace high or low, wilds <= 3"; pierna "set 3..6, no wilds").
    # Seed 003 (rules.md §3): a wild standing for Q or K scores 3, a high ace 3, so A♥-JOKER-JOKER and
    # A♥-2♠-JOKER read as Q-K-A score 9 + 9 = 18 with nothing left in hand.  J-Q-K-A (JOKER JOKER JOKER A♥)
    # scores 12 but leaves A♥ (3) and 2♠ (3) in hand: 12 - 6 = 6, which the solver answered when it skipped
    # every meld using 2♠ as a wild while a Joker was free, though 2♠ was the card being placed.
    rs = house("mas-pagat", 4, "JOKER, 2", False, "run 3..13, ace high or low, wilds <= 3", "set 3..6, no wilds")
    got = Solver(rs).arrange(hand)
    assert got.score == 18
    assert got.left == ()
    assert Solver(rs).best_score(rs.notation().parse(hand).cards) == 18
    assert brute_best(rs, tuple(sorted(rs.notation().parse(hand).cards))) == 18

# ---------------------------------------------------------------- budgets: each hang case ends within its budget

WORST_25 = "2♠ 2♥ 2♥ 2♦ 2♦ 2♣ 3♥ 3♥ 4♥ 5♥ 5♦ 6♥ 7♠ 7♥ 8♥ 9♥ 10♥ 10♦ J♣ Q♣ Q♣ K♠ K♣ JOKER JOKER"
"""Issue 11: 30 s through ``loba arrange`` before budgets (well under a second since the pooled wilds)."""

LONG_50 = ("A♠ A♥ A♦ A♦ 2♠ 2♥ 2♦ 2♣ 3♥ 3♣ 4♠ 4♥ 4♣ 5♠ 5♥ 5♦ 5♣ 6♠ 6♥ 6♦ 6♦ 6♣ 6♣ 7♠ 7♥ 7♦ 7♣ 8♠ 8♥ "
           "9♠ 9♠ 9♥ 9♥ 9♣ 9♣ 10♠ 10♥ 10♥ 10♣ J♦ J♣ Q♥ Q♣ Q♣ K♠ K♥ K♦ JOKER JOKER JOKER")
"""A random 50-card ``mas-pagat`` hand whose ``loba arrange`` takes several seconds (about 7 s here)."""

MENOS_60 = ("A♠ A♠ 2♠ 3♠ 4♠ 5♠ 5♠ 6♠ 7♠ 8♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♥ 2♥ 3♥ 3♥ 4♥ 5♥ 6♥ 7♥ 7♥ 8♥ 9♥ 10♥ "
            "J♥ J♥ Q♥ K♥ A♦ 2♦ 3♦ 4♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 9♦ 10♦ J♦ Q♦ K♦ K♦ A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ "
            "JOKER JOKER JOKER")
"""Issue 9: a 60-card menos hand never finished (> 120 s)."""


def test_budget_values() -> None:
    assert as_budget(2).seconds == 2.0
    assert as_budget(None).seconds is not None  # the library has a default budget: no search is unbounded
    with pytest.raises(InputError):
        Budget(seconds=0)
    with pytest.raises(InputError):
        Budget(seconds=float("inf"))
    with pytest.raises(TypeError):
        as_budget("10")  # type: ignore[arg-type]
    assert issubclass(BudgetExceeded, LobaError)


@pytest.mark.parametrize(("name", "text", "discard"), [
    ("mas-pagat", LONG_50, False),
    ("mas-pagat", LONG_50, True),
    ("menos", MENOS_60, False),
])
def test_a_long_search_stops_at_its_time_budget(name: str, text: str, discard: bool) -> None:
    solver = Solver(load(name))
    start = time.monotonic()
    with pytest.raises(BudgetExceeded, match=r"stopped at its budget of 0\.5 s"):
        solver.arrange_text(text, discard=discard, budget=0.5)
    assert time.monotonic() - start < 3.0  # the budget plus the time to notice it (a few hundred steps)


def test_a_step_budget_is_the_same_everywhere() -> None:
    solver = Solver(load("mas-pagat"))
    hand = solver.rs.notation().parse_codes(WORST_25)
    for call in (solver.arrange, solver.best_score, solver.can_go_out, solver.best_discard, solver.max_melded):
        with pytest.raises(BudgetExceeded, match="1000 steps"):
            call(hand, budget=Budget(steps=1000))
    # A budget that suffices changes nothing: the answer is the exact one.
    small = solver.rs.notation().parse_codes("3♥ 4♥ 5♥ JOKER 9♠ 9♦ 9♣")
    assert solver.arrange(small, budget=Budget(steps=10_000)).score == solver.arrange(small).score


def test_the_solver_default_budget_is_used_and_can_be_set() -> None:
    solver = Solver(load("mas-pagat"), budget=Budget(steps=500))
    with pytest.raises(BudgetExceeded):
        solver.arrange(WORST_25)
    # A call's own budget wins over the solver's.
    assert solver.arrange("3♥ 4♥ 5♥", budget=10).score == Solver(load("mas-pagat")).arrange("3♥ 4♥ 5♥").score


def test_cli_arrange_time_limit_is_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["arrange", "-r", "mas-pagat", "--time-limit", "0.5", LONG_50])
    assert result.exit_code == 2
    assert "stopped at its budget of 0.5 s" in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- the matcher: alike wilds are never permuted

WILDY = """extends: mas-pagat
name: wildy
deck: {jokers: 12}
values:
  on_table: |
    JOKER and wild -> 5
    wild and (high or as K Q J 10 9 8) -> 3
    wild -> 1
    A and (high or in set) -> 3
    A -> 1
    K Q J 10 9 8 -> 2
    _ -> 1
"""


def test_many_unlike_wilds_are_placed_without_permuting_them() -> None:
    # Issue 9: 11 cards with many Jokers and wild 2s took 13.7 s (every permutation of the wilds).
    # Here a Joker scores 5 wherever it stands, a wild 2 scores 3 as 8..K (else 1), the natural 3♥ 1.
    # The longest window holding 3♥ is 3..K: the five 2s take five of 8..K (15), the Jokers the sixth and
    # 4..7 (25): 1 + 15 + 25 = 41.
    rs = loads(WILDY)
    cards = rs.notation().parse_codes("3♥ JOKER JOKER JOKER JOKER JOKER 2♠ 2♣ 2♦ 2♠ 2♣")
    start = time.monotonic()
    best = matcher_for(rs).match(cards, budget=Budget(steps=5000)).best
    assert time.monotonic() - start < 1.0
    assert best is not None and best.points == 41
    names = rs.deck.names
    # Ties go to the reading that keeps the cards in the order given (melds/matcher.py, Reading.sort_key):
    # here every card can stay where it is (3♥, Jokers on 4..8, the 2s on 9..K): no inversion at all.
    assert list(best.order) == list(range(11))
    assert [names[c] for c in best.stands][:2] == ["3♥", "4♥"] and names[best.stands[-1]] == "K♥"


def test_a_whole_suit_wild_is_bounded() -> None:
    # Issue 9: with a whole suit wild, 18 cards took 26 s (x3.5 per two cards).  It ends at its budget.
    rs = loads('extends: mas-pagat\nname: suit\nwilds: {cards: "JOKER, hearts", natural_too: true}\n')
    hearts = "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♥ 3♥ 4♥ 5♥"
    start = time.monotonic()
    with pytest.raises(BudgetExceeded):
        matcher_for(rs).match(rs.notation().parse_codes(hearts), budget=0.5)
    assert time.monotonic() - start < 3.0
