"""The solver's packing kernels: the C twin (native_packing.c) answers exactly as the Python one (packing.py).

Each random instance is also solved by brute force (every multiset of the melds that fits), so both
kernels are checked against the definition of the search, not only against each other: the best
total gain of disjoint melds drawn from the free cards, the melds chosen adding up to it.  The whole
solver is then run on random hands of every shipped ruleset with the C kernels and with the Python
ones, in the same process, and must give the same scores and arrangements.

The C-against-Python comparisons are skipped, saying why, when the extension is not built (a machine
without a C compiler installs the pure kernels alone), except where ``LOBA_DSL_REQUIRE_NATIVE=1`` (CI):
there they fail; CI's wheel check also asserts the extension is in the wheel.
"""

from __future__ import annotations

import itertools
import random
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_twins import missing, plain_search_both, switched

from loba_dsl.budget import Budget, Clock
from loba_dsl.errors import BudgetExceeded
from loba_dsl.rules.loading import load
from loba_dsl.solver import packing
from loba_dsl.solver.api import Solver
from loba_dsl.solver.searches import Searches

try:
    from loba_dsl.solver import native_packing
except ImportError as error:  # pragma: no cover - only where no compiler built it
    native_packing = None  # type: ignore[assignment]
    WHY = f"the C kernels are not built here ({error}); the pure-Python ones answer alone"
else:
    WHY = ""

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))


def needs_native() -> Any:
    if native_packing is None:
        missing(WHY)
    return native_packing


class CountingClock(Clock):
    """A clock that also counts the steps it is given (the two kernels must count the same states)."""

    __slots__ = ("counted",)

    def __init__(self, budget: Budget) -> None:
        super().__init__(budget, "a test search")
        self.counted = 0

    def tick(self, n: int = 1) -> None:
        self.counted += n
        super().tick(n)


# ------------------------------------------------------------------ random instances

Instance = tuple[int, int, list[list[tuple[int, int, int]]], list[int]]
"""(key, bits, by_first, counts) of a plain search."""


@st.composite
def plain_instances(draw: st.DrawFn, max_width: int = 127) -> Instance:
    bits = draw(st.integers(2, 5))
    fields = draw(st.integers(1, max(1, min(12, max_width // bits))))
    most = (1 << (bits - 1)) - 1  # the largest count a field holds below its guard bit
    counts = [draw(st.integers(0, min(most, 4))) for _ in range(fields)]
    unit = [1 << (bits * i) for i in range(fields)]
    by_first: list[list[tuple[int, int, int]]] = [[] for _ in range(fields)]
    melds = draw(st.integers(0, 8))
    gains = st.integers(1, 4) if draw(st.booleans()) else st.integers(1, 30)  # small gains: many ties
    for j in range(melds):
        uses = draw(st.lists(st.integers(0, fields - 1), min_size=1, max_size=4))
        per = [min(uses.count(i), most) for i in range(fields)]
        delta = sum(n * u for n, u in zip(per, unit, strict=True))
        by_first[min(uses)].append((delta, draw(gains), j))
    if draw(st.booleans()):  # as the solver gives them: greatest gain first (stable: ties in place order)
        for options in by_first:
            options.sort(key=lambda o: -o[1])
    key = sum(n * u for n, u in zip(counts, unit, strict=True))
    return key, bits, by_first, counts


def brute_best(bits: int, by_first: list[list[tuple[int, int, int]]], counts: list[int]) -> int:
    """The best total gain of a multiset of the melds within ``counts``, by trying every multiset."""
    fields = len(counts)
    melds = [(delta, g) for options in by_first for delta, g, _ in options]
    mask = (1 << bits) - 1

    def per_field(delta: int) -> list[int]:
        return [(delta >> (bits * i)) & mask for i in range(fields)]

    vectors = [(per_field(d), g) for d, g in melds]
    best = 0

    def go(k: int, left: list[int], total: int) -> None:
        nonlocal best
        if k == len(vectors):
            best = max(best, total)
            return
        vec, g = vectors[k]
        times = 0
        while all(n * (times) <= c for n, c in zip(vec, left, strict=True)):
            go(k + 1, [c - n * times for n, c in zip(vec, left, strict=True)], total + g * times)
            times += 1
            if not any(vec):
                break

    go(0, counts, 0)
    return best


def check_chosen(key: int, bits: int, by_first: list[list[tuple[int, int, int]]], best: int,
                 chosen: list[int]) -> None:
    """The melds chosen fit in the free cards together and their gains add up to ``best``."""
    by_place = {j: (delta, g) for options in by_first for delta, g, j in options}
    fields = len(by_first)
    mask = (1 << bits) - 1
    left = [(key >> (bits * i)) & mask for i in range(fields)]
    for j in chosen:
        delta, _ = by_place[j]
        for i in range(fields):
            left[i] -= (delta >> (bits * i)) & mask
    assert min(left, default=0) >= 0
    assert sum(by_place[j][1] for j in chosen) == best


# ------------------------------------------------------------------ the plain search

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_instances())
def test_pure_plain_search_is_the_best_packing(instance: Instance) -> None:
    key, bits, by_first, counts = instance
    best, chosen = packing.pure_plain_search(key, bits, by_first)
    assert best == brute_best(bits, by_first, counts)
    check_chosen(key, bits, by_first, best, chosen)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_instances())
def test_native_plain_search_answers_as_the_python_one(instance: Instance) -> None:
    native = needs_native()
    key, bits, by_first, _ = instance
    pure_clock, native_clock = CountingClock(Budget()), CountingClock(Budget())
    expected = packing.pure_plain_search(key, bits, by_first, pure_clock)
    assert native.plain_search(key, bits, by_first, native_clock.tick) == expected
    assert native_clock.counted == pure_clock.counted  # the same states, counted in bulk


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_instances(), st.integers(1, 6))
def test_plain_keys_wider_than_128_bits_fall_back_to_python(instance: Instance, extra: int) -> None:
    native = needs_native()
    key, bits, by_first, _ = instance
    # Pad with empty fields (no free card, no meld) until the key is wider than the C kernel takes.
    padded = by_first + [[] for _ in range(128 // bits + extra)]
    assert len(padded) * bits > native.MAX_BITS
    assert native.plain_search(key, bits, padded) is None
    assert packing.plain_search(key, bits, padded) == packing.pure_plain_search(key, bits, by_first)


def test_keys_of_65_to_127_bits_are_searched_in_c() -> None:
    native = needs_native()
    bits = 3
    fields = 42  # 126 bits
    unit = [1 << (bits * i) for i in range(fields)]
    # Three copies of the last card and one of card 40; melds: (40, 41) gain 5, (41, 41, 41) gain 7.
    key = unit[40] + 3 * unit[41]
    by_first: list[list[tuple[int, int, int]]] = [[] for _ in range(fields)]
    by_first[40].append((unit[40] + unit[41], 5, 0))
    by_first[41].append((3 * unit[41], 7, 1))
    assert key.bit_length() > 64
    assert native.plain_search(key, bits, by_first) == (7, [1])  # 7 > 5: the three of a kind
    assert packing.pure_plain_search(key, bits, by_first) == (7, [1])


def test_equal_values_keep_the_first() -> None:
    needs_native()
    # One card, two melds of it alone with gain 3 each, and the card kept: the first meld (place 8) is kept.
    by_first = [[(1, 3, 8), (1, 3, 9)]]
    for search in (packing.pure_plain_search, native_packing.plain_search):
        assert search(1, 2, by_first) == (3, [8])
    # Keeping the card is tried first: a meld of gain 0 never replaces it.
    for search in (packing.pure_plain_search, native_packing.plain_search):
        assert search(1, 2, [[(1, 0, 8)]]) == (0, [])


def test_a_state_cap_gives_none() -> None:
    native = needs_native()
    key, by_first = 0b01_01_01, [[(0b00_01_01, 2, 0)], [(0b01_01_00, 2, 1)], []]
    # Card 0 kept first (then cards 1 and 2 melded: 2); melding it (2 + 0) is not strictly better.
    assert native.plain_search(key, 2, by_first) == (2, [1])
    assert native.plain_search(key, 2, by_first, None, 3) == (2, [1])  # three states: all it needs
    assert native.plain_search(key, 2, by_first, None, 2) is None


def test_a_budget_of_steps_stops_both_kernels_alike() -> None:
    needs_native()
    rng = random.Random(11)
    bits, fields = 3, 12
    unit = [1 << (bits * i) for i in range(fields)]
    by_first: list[list[tuple[int, int, int]]] = [[] for _ in range(fields)]
    for j in range(40):
        a, b = sorted(rng.sample(range(fields), 2))
        by_first[a].append((unit[a] + unit[b], rng.randint(1, 9), j))
    key = sum(3 * u for u in unit)
    counting = CountingClock(Budget())
    packing.pure_plain_search(key, bits, by_first, counting)
    states = counting.counted
    assert states > 2000
    for steps, stops in ((states, True), (states + 1, False)):  # Clock: the budget is spent at its last step
        outcomes = []
        for search in (packing.pure_plain_search, _native_with_clock):
            clock = Budget(steps=steps).start("a test search")
            try:
                search(key, bits, by_first, clock)
                outcomes.append(False)
            except BudgetExceeded:
                outcomes.append(True)
        assert outcomes == [stops, stops]


def _native_with_clock(key: int, bits: int, by_first: list[list[tuple[int, int, int]]],
                       clock: Clock) -> tuple[int, list[int]] | None:
    return native_packing.plain_search(key, bits, by_first, clock.tick)


# ------------------------------------------------------------------ the bitmask search

@st.composite
def bitmask_instances(draw: st.DrawFn) -> tuple[int, list[list[tuple[int, int]]], list[int]]:
    n = draw(st.sampled_from([1, 3, 8, 20, 63, 64, 65, 100, 127]))
    by_low: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    gains = st.integers(1, 3) if draw(st.booleans()) else st.integers(1, 50)
    for _ in range(draw(st.integers(0, 14))):
        size = draw(st.integers(1, min(n, 4)))
        cards = draw(st.lists(st.integers(0, n - 1), min_size=size, max_size=size, unique=True))
        mask = sum(1 << c for c in cards)
        by_low[min(cards)].append((mask, draw(gains)))
    frees = [(1 << n) - 1] + [draw(st.integers(0, (1 << n) - 1)) for _ in range(3)]
    return n, by_low, frees


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bitmask_instances())
def test_native_bitmask_search_answers_as_the_python_one(
        instance: tuple[int, list[list[tuple[int, int]]], list[int]]) -> None:
    native = needs_native()
    n, by_low, frees = instance
    pure_clock, native_clock = CountingClock(Budget()), CountingClock(Budget())
    pure = packing.pure_bitmask_search(n, by_low, pure_clock)
    fast = native.bitmask_search(n, by_low, native_clock.tick)
    assert fast is not None
    for free in frees:  # one memo across the calls, as the solver's discards use it
        assert fast(free) == pure(free)
        assert native_clock.counted == pure_clock.counted
    # Against the definition: the best total gain of pairwise disjoint melds within the free cards.
    melds = [o for options in by_low for o in options]
    if len(melds) <= 10:
        for free in frees:
            best = 0
            for k in range(len(melds) + 1):
                for combo in itertools.combinations(melds, k):
                    used = 0
                    for mask, _ in combo:
                        if mask & ~free or mask & used:
                            break
                        used |= mask
                    else:
                        best = max(best, sum(g for _, g in combo))
            assert pure(free) == best


def test_bitmasks_of_128_cards_or_more_fall_back_to_python() -> None:
    native = needs_native()
    for n in (128, 200):
        by_low: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        by_low[0].append((1 | 1 << (n - 1), 4))
        assert native.bitmask_search(n, by_low) is None
        assert packing.bitmask_search(n, by_low)((1 << n) - 1) == 4


# ------------------------------------------------------------------ the whole solver, C against Python

def kernels(native: bool) -> AbstractContextManager[None]:
    return switched(packing_=native)


def _deck(name: str) -> tuple[Solver, list[int]]:
    rs = load(name)
    d = rs.deck
    return Solver(rs), [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_the_solver_answers_alike_with_either_kernel(name: str) -> None:
    needs_native()
    rng = random.Random(f"packing {name}")
    _, pool = _deck(name)
    hands = [tuple(rng.sample(pool, size)) for size in (7, 10, 10, 12, 14) for _ in range(60)]
    hands += [tuple(rng.sample(pool, 20)) for _ in range(4)]
    answers = []
    for native in (True, False):
        with kernels(native):
            solver = Solver(load(name))
            answers.append([(solver.best_score(h), solver.arrange(h)) for h in hands])
    assert answers[0] == answers[1]


def test_the_switch_picks_the_kernel() -> None:
    needs_native()
    assert isinstance(packing.NATIVE, bool)
    with kernels(False):
        assert packing.bitmask_search(2, [[(0b11, 5)], []]).__class__.__name__ == "function"
    with kernels(True):
        assert type(packing.bitmask_search(2, [[(0b11, 5)], []])).__name__ == "BitmaskSearch"


# ------------------------------------------------------------------ the plain search of melds (fields built in C)

PlainCall = tuple[Searches, tuple[int, ...], list[tuple[tuple[int, ...], int]], frozenset[int]]
"""A plain search the solver asked for: its searches, the cards, the melds with their gains, the pool."""


def _recorded_plain_searches() -> list[PlainCall]:
    """Every plain search the solver asks for on random hands of every shipped ruleset (its own inputs)."""
    calls: list[PlainCall] = []
    real = Searches.plain_search

    def record(self: Searches, cards: tuple[int, ...], raw: list[tuple[tuple[int, ...], int]],
               pooled: frozenset[int] = frozenset()) -> tuple[int, list[int]]:
        calls.append((self, cards, list(raw), pooled))
        return real(self, cards, raw, pooled)

    Searches.plain_search = record  # type: ignore[method-assign]
    try:
        for name in RULESETS:
            solver, pool = _deck(name)
            rng = random.Random(f"melds {name}")
            for size in (6, 9, 12, 16):
                for _ in range(25):
                    hand = tuple(rng.sample(pool, size))
                    solver.best_score(hand)
                    solver.arrange(hand)
    finally:
        Searches.plain_search = real  # type: ignore[method-assign]
    return calls


def test_plain_search_melds_answers_as_the_python_fields() -> None:
    """The fields, options and key built in C give the answer, the melds chosen and the states counted of
    Searches.plain_search's own Python (every search it ran on random hands, pooled wilds included)."""
    needs_native()
    calls = _recorded_plain_searches()
    assert any(pooled for *_, pooled in calls), "some search holds a pool of wilds (mas-pagat, uruguay)"
    for searches, cards, raw, pooled in calls:
        clocks = (CountingClock(Budget(seconds=60.0)), CountingClock(Budget(seconds=60.0)))
        native, python = plain_search_both(searches, cards, raw, pooled, clocks)
        assert native == python, (cards, raw, pooled)
        assert clocks[0].counted == clocks[1].counted


def test_plain_search_melds_is_the_python_path_when_pure() -> None:
    with kernels(False):
        assert packing.plain_search_melds((1, 2, 3), [((1, 2, 3), 5)], (0, 1, 2, 3), 3, frozenset()) is None


def test_plain_search_melds_rejects_codes_outside_the_order() -> None:
    needs_native()
    with kernels(True), pytest.raises(ValueError, match="card code"):
        packing.plain_search_melds((1, 2, 9), [((1, 2, 9), 5)], (0, 1, 2, 3), 3, frozenset())


def test_plain_search_melds_first_of_equal_values() -> None:
    """Two melds of equal gain over four cards: the search takes the card in fewest melds first (card 0, in one)
    and tries keeping it before melding it, and keeps the first of equal values, so it keeps card 0 and melds
    the other meld (place 1), as Searches.plain_search's docstring orders it."""
    needs_native()
    cards = (0, 1, 2, 3)
    raw: list[tuple[tuple[int, ...], int]] = [((0, 1, 2), 7), ((1, 2, 3), 7)]
    with kernels(True):
        found = packing.plain_search_melds(cards, raw, (0, 1, 2, 3), 3, frozenset())
    assert found == (7, [1])
    with kernels(False):
        fake = _deck("menos")[0]
        fake.melds.positions = (0, 1, 2, 3)
        fake.melds.order = {0: 0, 1: 1, 2: 2, 3: 3}
        assert fake.searches.plain_search(cards, raw) == found
