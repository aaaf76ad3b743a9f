"""The three C twins against their Python twins on random house rulesets, and called with bad arguments.

A house ruleset is untrusted input: any deck the schema admits (1-20 ranks, 1-8 suits, 1-8 copies, 0-16
Jokers, the ace any rank or none), set shapes by copies or by distinct suits, run shapes with the ace low,
high, either or round the corner, wild limits, wild ranks natural too or not.  On such rulesets
(generated from a seed) and on random hands (empty, all wilds, wild-rich, whole decks and more), each twin
must give exactly the Python answer or decline (the generator keeps its Python method): ``live``,
``live_shape``, ``split`` (native_live.c), ``hand_candidates`` for both values of ``pooled``
(native_candidates.c), ``Searches.plain_search`` (native_packing.c's ``plain_search_melds``), and the whole
solver's ``best_score`` and ``arrange`` with every twin on against every twin off.

The direct calls with bad arguments (wrong types, codes out of range, huge ints, wrong tuple shapes, and
arguments whose ``__index__`` or tick runs Python code that empties the caller's lists) must raise a Python
exception or give None: never crash, never read freed memory (run under AddressSanitizer with
``PYTHONMALLOC=malloc`` to see the latter).

Skipped where the extensions are not built, unless ``LOBA_DSL_REQUIRE_NATIVE=1`` (CI).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from native_twins import missing, plain_search_both, switched

from loba_dsl.budget import Budget, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.errors import RulesetError
from loba_dsl.rules.loading import loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver import packing
from loba_dsl.solver.api import Solver
from loba_dsl.solver.candidates import CandidateGenerator
from loba_dsl.solver.searches import Searches

try:
    from loba_dsl.solver import native_candidates, native_live, native_packing
except ImportError as error:  # pragma: no cover - only where no compiler built them
    native_candidates = native_live = native_packing = None  # type: ignore[assignment]
    WHY = f"the C twins are not built here ({error}); the Python code answers alone"
else:
    WHY = ""


def needs_native() -> None:
    if native_packing is None or native_live is None or native_candidates is None:
        missing(WHY)


def twins(on: bool) -> AbstractContextManager[None]:
    """Solvers built inside use every C twin (``on``) or none."""
    return switched(live=on, candidates_=on, packing_=on)


class CountingClock(Clock):
    """A clock that counts the steps it is given (both plain searches must count the same states)."""

    __slots__ = ("counted",)

    def __init__(self) -> None:
        super().__init__(Budget(seconds=600.0), "a fuzz search")
        self.counted = 0

    def tick(self, n: int = 1) -> None:
        self.counted += n
        super().tick(n)


# ------------------------------------------------------------------ random house rulesets

SUITS = [("spades", "♠"), ("hearts", "♥"), ("diamonds", "♦"), ("clubs", "♣"),
         ("stars", "✶"), ("moons", "☾"), ("suns", "☼"), ("waves", "≈")]
KEYS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X1", "X2", "X3", "X4", "X5", "X6", "X7"]


def house_text(rng: random.Random) -> str:
    """A valid house ruleset across the schema's bounds (deck.ranks <= 20, suits <= 8, copies <= 8, jokers <= 16)."""
    n_ranks = rng.choice([1, 2, 3, rng.randint(4, 12), 13, 13, 16, 17, rng.randint(14, 20), 20])
    n_suits = rng.randint(1, 8)
    keys = KEYS[:n_ranks]
    if rng.random() < 0.3:
        keys = keys[1:] + keys[:1]  # the ace (when it is the first key) the top rank
    ace = rng.choice(keys) if rng.random() < 0.8 else None
    # 'ace high' (and either) need the ace first in the ranks (the compiler refuses it elsewhere)
    modes = ["low", "wrap", "wrap", "high", "either", "high or low"] if ace == keys[0] else ["low", "wrap"]
    jokers = rng.choice([0, 1, 2, 4, 8, 16])
    copies = rng.choice([1, 2, rng.randint(1, 8), 8])
    wild_ranks = rng.sample(keys, rng.randint(0, min(2, n_ranks)))
    wilds = ", ".join((["JOKER"] if jokers else []) + wild_ranks)
    lo = rng.randint(1, 4)
    distinct = n_suits >= 2 and rng.random() < 0.5
    if distinct:
        lo = min(lo, n_suits)
    set_hi = min(n_suits, lo + rng.randint(0, 4)) if distinct else lo + rng.randint(0, 4)
    set_shape = f"set {lo}" + (f"..{set_hi}" if distinct or rng.random() < 0.7 else "+")
    if distinct:
        set_shape += ", suits distinct"
    r = rng.random()
    set_shape += ", no wilds" if r < 0.2 else f", wilds <= {rng.randint(0, 3)}" if r < 0.6 else ""
    rlo = min(rng.randint(1, 4), n_ranks)
    run_shape = f"run {rlo}" + (f"..{min(n_ranks, rlo + rng.randint(0, 10))}" if rng.random() < 0.7 else "+")
    if ace is not None and rng.random() < 0.8:
        run_shape += ", ace " + rng.choice(modes)
    r = rng.random()
    run_shape += ", no wilds" if r < 0.15 else f", wilds <= {rng.randint(0, 3)}" if r < 0.6 else ""
    suits = "\n".join(f'    {name}: {{symbol: "{symbol}"}}' for name, symbol in SUITS[:n_suits])
    ranks = "\n".join(f'    - {{key: "{k}", face: {i + 1}}}' for i, k in enumerate(keys))
    return f"""extends: menos
name: fuzz
deck:
  suits:
{suits}
  ranks:
{ranks}
  ace: {f'"{ace}"' if ace else "null"}
  copies: {copies}
  jokers: {jokers}
wilds: {{cards: {f'"{wilds}"' if wilds else "null"}, natural_too: {"true" if rng.random() < 0.5 else "false"}}}
melds:
  pierna:
    description: a set
    shape: {set_shape}
  escalera:
    description: a run
    shape: {run_shape}
values:
  penalty: |
    JOKER -> 25
    _ -> face
"""


def full_deck(rs: Ruleset) -> list[Card]:
    d = rs.deck
    return [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers


def random_hands(rng: random.Random, deck: list[Card], wild: list[Card], sizes: list[int],
                 max_wilds: int) -> list[tuple[Card, ...]]:
    """Hands of each size drawn from the deck (no physical card twice); every other one wild-rich."""
    plain = [c for c in deck if c not in wild]
    out: list[tuple[Card, ...]] = []
    for j, size in enumerate(sizes):
        size = min(size, len(deck))
        if j % 2 and wild:
            k = min(rng.randint(1, max_wilds), len(wild), size)
            hand = rng.sample(wild, k) + rng.sample(plain, min(size - k, len(plain)))
        else:
            hand = rng.sample(deck, size)
        rng.shuffle(hand)
        out.append(tuple(hand))
    return out


def wild_poor(hand: tuple[Card, ...], wild: set[Card], most: int) -> bool:
    return sum(c in wild for c in hand) <= most


# ------------------------------------------------------------------ one ruleset, every twin

def check_ruleset(seed: int) -> None:
    rng = random.Random(f"native fuzz {seed}")
    text = house_text(rng)
    rs = loads(text, source=f"fuzz-{seed}", cached=False)
    d = rs.deck
    with twins(True):
        fast = Solver(rs)
    with twins(False):
        slow = Solver(rs)
    gen = fast.candidates
    # native_live takes decks of at most 16 ranks (its per-suit fields); beyond, the Python methods stay bound.
    assert (gen.native_live is None) == (d.n_ranks > native_live.MAX_RANKS), (text, d.n_ranks)
    assert gen.native_candidates is not None, text  # native_candidates takes every deck the schema admits
    assert slow.candidates.native_live is None and slow.candidates.native_candidates is None
    deck = full_deck(rs)
    wild_cards = [c for c in deck if gen.wild_capable[c]]
    wild = set(wild_cards)

    # live, live_shape, split: any hand, huge ones included (linear in its size)
    sizes = [0, 1, 2, 3, 5, 8, 10, 12, 15, 16, 17, 20, 25, 40, 60, 127, 128, 200]
    hands = random_hands(rng, deck, wild_cards, sizes, 40)
    hands += [tuple(wild_cards[:30]), tuple(deck), tuple(deck + deck[: len(deck) // 3])]
    if gen.native_live is not None:
        for cards in hands:
            for shown in (cards, list(cards)):
                live = CandidateGenerator.live(gen, shown)
                assert gen.live(shown) == live, (text, cards)
                assert gen.live_shape(shown) == CandidateGenerator.live_shape(gen, shown), (text, cards)
                assert gen.split(live) == CandidateGenerator.split(gen, live), (text, live)
                ordered = gen.ordered(shown)
                assert gen.split(ordered) == CandidateGenerator.split(gen, ordered), (text, ordered)

    # hand_candidates, both pools: hands small enough (and few enough wilds) that the lists stay short
    twin = gen.native_candidates
    for hand in random_hands(rng, deck, wild_cards, [0, 1, 2, 3, 4, 6, 8, 10, 12, 3, 5, 7], 5):
        if not wild_poor(hand, wild, 6):
            continue
        ordered = gen.ordered(hand)
        for pooled in (False, True):
            expected = gen.pure_hand_candidates(ordered, pooled=pooled)
            assert twin.candidates(ordered, pooled) == expected, (text, ordered, pooled)
    all_wild = tuple(wild_cards[:5])
    for pooled in (False, True):
        assert twin.candidates(all_wild, pooled) == gen.pure_hand_candidates(all_wild, pooled=pooled), text

    # the whole solver with every twin against none, recording its plain searches as it goes
    calls: list[tuple[tuple[Card, ...], list[tuple[tuple[Card, ...], int]], frozenset[Card]]] = []
    real = Searches.plain_search

    def record(self: Searches, cards: tuple[Card, ...], raw: list[tuple[tuple[Card, ...], int]],
               pooled: frozenset[Card] = frozenset()) -> tuple[int, list[int]]:
        if self is fast.searches:
            calls.append((cards, list(raw), pooled))
        return real(self, cards, raw, pooled)

    Searches.plain_search = record  # type: ignore[method-assign]
    try:
        for hand in random_hands(rng, deck, wild_cards, [0, 1, 3, 5, 7, 9, 4, 6, 8], 3):
            if not wild_poor(hand, wild, 3):
                continue
            assert fast.best_score(hand) == slow.best_score(hand), (text, hand)
            assert fast.arrange(hand) == slow.arrange(hand), (text, hand)
    finally:
        Searches.plain_search = real  # type: ignore[method-assign]
    for cards, raw, pool in calls:
        clocks = (CountingClock(), CountingClock())
        native, python = plain_search_both(fast.searches, cards, raw, pool, clocks)
        if native is not None:  # None: the key is wider than the C kernel takes (the Python builds it)
            assert native == python, (text, cards, raw, pool)
            assert clocks[0].counted == clocks[1].counted


FAST_SEEDS = [s for s in range(13) if s != 3]
"""The rulesets checked by ``make test-fast`` (seed 3 takes some 7 s: with the slow ones)."""


@pytest.mark.parametrize("seed", FAST_SEEDS)
def test_twins_equal_python_on_random_house_rulesets(seed: int) -> None:
    needs_native()
    check_ruleset(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [s for s in range(120) if s not in FAST_SEEDS])
def test_twins_equal_python_on_more_house_rulesets(seed: int) -> None:
    needs_native()
    check_ruleset(seed)


ACE_ON_TOP = """extends: menos
name: ace-on-top
deck:
  ranks:
""" + "\n".join(f'    - {{key: "{k}", face: {i + 2}}}' for i, k in enumerate(
    ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])) + """
  ace: A
melds:
  pierna:
    description: three or four of a rank
    shape: set 3..4, suits distinct, no wilds
  escalera:
    description: a run, the ace low or high
    shape: run 3+, ace either
"""
"""The ace the top rank, runs with the ace high: high, the ace goes above the top rank, and its low place is its
own, the top: a window K A A(high) would hold it twice (the generator named the ace twice there, and the C
twin raised SystemError before it allowed for that)."""


def test_ace_high_with_the_ace_on_top_is_refused() -> None:
    """A run is of consecutive ranks, each once (docs/rules.md, escalera): the ace may not be both at its own
    place and above the top rank, so 'ace either' needs the ace to be the lowest rank, and says so where."""
    with pytest.raises(RulesetError) as info:
        loads(ACE_ON_TOP, source="ace-on-top.yaml", cached=False)
    err = info.value
    assert "must be the first (lowest) rank" in err.message, err.render()
    line = ACE_ON_TOP.splitlines().index("    shape: run 3+, ace either") + 1
    assert err.location is not None and (err.location.source, err.location.line) == ("ace-on-top.yaml", line)
    assert err.location.column == len("    shape: run 3+, ") + 1
    # the same deck with the ace first is taken
    first = ACE_ON_TOP.replace('    - {key: "A", face: 14}\n', "").replace(
        "  ranks:\n", '  ranks:\n    - {key: "A", face: 1}\n')
    rs = loads(first, source="ace-first.yaml", cached=False)
    assert rs.deck.ace == 0


# ------------------------------------------------------------------ bad arguments: an exception or None, no crash

class Flip:
    """An index whose value changes from one read to the next (a C kernel must read it once, or not at all)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def __index__(self) -> int:
        return self.values.pop(0) if len(self.values) > 1 else self.values[0]


class Emptying:
    """An index that empties a list when read (the list a C kernel may be reading in place)."""

    def __init__(self, victim: list[Any], value: int) -> None:
        self.victim, self.value = victim, value

    def __index__(self) -> int:
        self.victim.clear()
        return self.value


BAD = (TypeError, ValueError, IndexError, OverflowError)


def answers_or_raises(call: Callable[[], Any]) -> Any:
    """The call's answer, or None where it raised one of the clear exceptions of bad arguments."""
    try:
        return call()
    except BAD:
        return None


def test_plain_search_melds_bad_arguments() -> None:
    needs_native()
    f: Any = native_packing.plain_search_melds
    pos = (0, 1, 2, 3)
    good: tuple[Any, ...] = ((0, 1, 2), [((0, 1, 2), 5)], pos, 3, frozenset())
    assert f(*good) == (5, [0])
    bad_calls: list[tuple[Any, ...]] = [
        (), good[:4], (*good, None, None),
        (5, *good[1:]), ((0, "x"), *good[1:]), ((0, -1), *good[1:]), ((0, 2**70), *good[1:]),
        (good[0], 7, *good[2:]), (good[0], [(0, 1, 2)], *good[2:]), (good[0], [((0, 1), 5, 9)], *good[2:]),
        (good[0], [([0, 1], 5)], *good[2:]), (good[0], [((0, 1), "5")], *good[2:]),
        (good[0], [((0, 1), 2**80)], *good[2:]), (good[0], [((0, 99), 5)], *good[2:]),
        (good[0], [((0, -5), 5)], *good[2:]), (*good[:2], [0, 1, 2, 3], 3, frozenset()),
        (*good[:2], (0, "a", 2, 3), 3, frozenset()), (*good[:3], 4, frozenset()), (*good[:3], -1, frozenset()),
        (*good[:3], 2**64, frozenset()), (*good[:3], 3, {0: 1}), (*good[:3], 3, frozenset({9})),
        (*good[:3], 3, frozenset({"a"})), (*good, "not callable"),
        (good[0], [((True, 1, 2), 5)], *good[2:]),
        ((0, 1, 2), [((Flip(0, 3_000_000), 1, 2), 5)], pos, 3, frozenset()),  # was a read far off the stack
    ]
    for args in bad_calls:
        answers_or_raises(lambda a=args: f(*a))  # type: ignore[misc]
    # an item whose __index__ empties the list being read (was a read of freed memory)
    raw: list[Any] = []
    raw.extend([((0, 1, 2), 5)] * 3 + [((Emptying(raw, 0), 1, 2), 5)] + [((0, 1, 2), 5)] * 50)
    answers_or_raises(lambda: f((0, 1, 2), raw, pos, 3, frozenset()))
    cards: list[Any] = []
    cards.extend([0, 1, Emptying(cards, 2)] + [0] * 100)
    answers_or_raises(lambda: f(cards, [((0, 1, 2), 5)], pos, 3, frozenset()))
    # a tick that raises ends the search with its exception
    def stop(n: int) -> None:
        raise ValueError("stop")
    with pytest.raises(ValueError, match="stop"):
        f(*good, stop)


def test_plain_search_melds_a_huge_hand_is_bounded() -> None:
    """100,000 copies of one card: a key of 18-bit fields the kernel takes, but a search 50,000 states deep:
    a RecursionError (Python's own kernel would need the same depth), never a crash."""
    needs_native()
    with pytest.raises(RecursionError):
        native_packing.plain_search_melds((0,) * 100_000, [((0, 0), 1)], (0, 1), 1, frozenset())


def test_plain_search_bad_arguments() -> None:
    needs_native()
    f: Any = native_packing.plain_search
    assert f(0b01_01, 2, [[(0b01_01, 5, 0)], []]) == (5, [0])
    bad_calls: list[tuple[Any, ...]] = [
        (), (1, 2), (1, 2, [[]], None, 0, 9), ("1", 2, [[]]), (1, "2", [[]]), (1, 1, [[]]), (1, 65, [[]]),
        (1, -3, [[]]), (1, 2**80, [[]]), (1, 2, 5), (1, 2, [5]), (1, 2, [[5]]), (1, 2, [[(1, 2)]]),
        (1, 2, [[(1, 2, 3, 4)]]), (1, 2, [[("1", 2, 3)]]), (1, 2, [[(1, "2", 3)]]), (1, 2, [[(1, 2**70, 3)]]),
        (-1, 2, [[(1, 1, 0)]]), (2**200, 2, [[(1, 1, 0)]]), (1, 2, [[(-1, 1, 0)]]), (1, 2, [[(2**200, 1, 0)]]),
        (1, 2, [[(1, 1, 0)]], "tick"), (1, 2, [[(1, 1, 0)]], None, "cap"), (1, 2, [[(1, 1, 0)]], None, 2**70),
        (0b1, 2, [[(0, 1, 0)]]),  # an option of no card: Python recurses for ever, C stops (RecursionError)
        (1, 64, [[(1, 1, 0)]] * 2), (1, 2, [[(1, 1, 0)]] * 70),
    ]
    for args in bad_calls:
        try:
            f(*args)
        except (*BAD, RecursionError):
            pass


def test_plain_search_keeps_the_places_alive_while_the_tick_runs() -> None:
    """A tick that empties the caller's option lists must not free the places the answer names (it did: the
    places were borrowed from the lists' tuples)."""
    needs_native()

    class Place:
        def __init__(self, i: int) -> None:
            self.i = i

    bits, n = 5, 4
    by_first: list[list[tuple[int, int, Place]]] = [
        [((1 << (bits * i)) | (1 << (bits * (i + 1))), 3, Place(i))] for i in range(n - 1)] + [[]]
    key = sum(3 << (bits * i) for i in range(n))

    def tick(steps: int) -> None:
        for row in by_first:
            row.clear()
        [Place(-1) for _ in range(100)]

    search: Any = native_packing.plain_search
    best, chosen = search(key, bits, by_first, tick)
    # four cards of three copies each, melds of two neighbours (3 points): six melds, the pairs (0,1) and (2,3)
    # three times each (all twelve cards), as the pure kernel finds
    assert best == 18
    assert sorted(p.i for p in chosen) == [0, 0, 0, 2, 2, 2]


def test_int_subclass_with_its_own_shift() -> None:
    """Keys over 64 bits are read with int's own >>: an int subclass's __rshift__ (which could empty the lists)
    is not called."""
    needs_native()
    called = []

    class K(int):
        def __rshift__(self, other: int) -> int:
            called.append(1)
            return int(self) >> other

    rows = [[(K(1 << (7 * i)), 1, i)] for i in range(18)]
    key = sum(1 << (7 * i) for i in range(18))
    search: Any = native_packing.plain_search
    assert search(K(key), 7, rows) == packing.pure_plain_search(key, 7, rows)
    assert not called


def test_bitmask_search_bad_arguments() -> None:
    needs_native()
    f: Any = native_packing.bitmask_search
    assert f(2, [[(0b11, 5)], []])(0b11) == 5
    bad_calls: list[tuple[Any, ...]] = [
        (), ("2", [[], []]), (-1, []), (2**40, []), (2, [[]]), (2, 5), (2, [5, []]), (2, [[5], []]),
        (2, [[(1,)], []]), (2, [[(1, 2, 3)], []]), (2, [[("1", 2)], []]), (2, [[(1, "2")], []]),
        (2, [[(2, 1)], []]), (2, [[(0, 1)], []]), (2, [[(4, 1)], []]), (2, [[(-1, 1)], []]),
        (2, [[(1, 2**70)], []]), (2, [[], []], "tick"), (128, [[]] * 128), (127, [[(2**127, 1)]] + [[]] * 126),
    ]
    for args in bad_calls:
        answers_or_raises(lambda a=args: f(*a))  # type: ignore[misc]
    solve: Any = f(2, [[(0b11, 5)], []])
    for bad in ("1", -1, 4, 2**200, None):
        answers_or_raises(lambda b=bad: solve(b))  # type: ignore[misc]
    answers_or_raises(lambda: solve(1, 2))
    answers_or_raises(lambda: solve(free=1))
    with pytest.raises(TypeError):
        type(solve)()


def _menos_generator() -> CandidateGenerator:
    with twins(True):
        gen = Solver(loads("extends: menos\nname: bad-args\n", source="bad-args", cached=False)).candidates
    assert gen.native_live is not None and gen.native_candidates is not None
    return gen


def test_live_tables_bad_arguments() -> None:
    needs_native()
    gen = _menos_generator()
    tables: Any = gen.native_live
    assert tables is not None
    for method in (tables.live, tables.live_shape, tables.split):
        for bad in (5, None, ["a"], [-1], [53], [2**70], [0, "x"], [Flip(0, 10_000)]):
            answers_or_raises(lambda m=method, b=bad: m(b))  # type: ignore[misc]
        answers_or_raises(lambda m=method: m())  # type: ignore[misc]
        answers_or_raises(lambda m=method: m([0], [1]))  # type: ignore[misc]
        victim: list[Any] = []
        victim.extend([0, 1, Emptying(victim, 2)] + [3 + i for i in range(10)])
        answers_or_raises(lambda m=method, v=victim: m(v))  # type: ignore[misc]  # was a read of freed memory
    values = tuple(range(gen.deck.n_codes))
    for bad_values in (None, [0] * 60, values[:-1], (*values[:-1], "x"), (*values[:-1], 2**80), (Flip(0, 9),) * 60):
        answers_or_raises(lambda v=bad_values: tables.scored_shape([0, 1, 52], v))  # type: ignore[misc]
    for bad in (5, None, ["a"], [-1], [53], [2**70], [0, "x"], [Flip(0, 10_000)], [Flip(0, 10_000)] * 20):
        answers_or_raises(lambda b=bad: tables.scored_shape(b, values))  # type: ignore[misc]
    answers_or_raises(lambda: tables.scored_shape([0]))
    answers_or_raises(lambda: tables.scored_shape([0], values, values))
    victim = []
    victim.extend([0, 1, Emptying(victim, 2)] + [3 + i for i in range(20)])
    answers_or_raises(lambda v=victim: tables.scored_shape(v, values))  # type: ignore[misc]
    with pytest.raises(TypeError):
        type(tables)()
    make: Any = native_live.live_tables
    cards = (*tuple((r, 0, 1, 0, r) for r in range(4)), (-1, -1, 0, 1, 4))
    good: tuple[Any, ...] = (4, 1, cards, ((3, 0, 2),), ((3, 1, 0, ((3, 7), (3, 14), (4, 15))),), 3, 16, lambda c: ())
    assert make(*good) is not None
    variants: list[tuple[Any, ...]] = [
        (), good[:7], ("4", *good[1:]), (0, *good[1:]), (17, *good[1:]), (2**70, *good[1:]), (4, 9, *good[2:]),
        (*good[:2], [list(c) for c in cards], *good[3:]), (*good[:2], cards[:-1], *good[3:]),
        (*good[:2], ((9, 0, 1, 0, 0), *cards[1:]), *good[3:]), (*good[:2], ((0, 0, 1, 0, 99), *cards[1:]), *good[3:]),
        (*good[:2], (*cards[:-1], (-1, -1, 0, 0, 4)), *good[3:]), (*good[:2], ((0, 0, 1), *cards[1:]), *good[3:]),
        (*good[:2], (("0", 0, 1, 0, 0), *cards[1:]), *good[3:]),
        (*good[:3], ((3, 0),), *good[4:]), (*good[:3], ((200, 0, 2),), *good[4:]), (*good[:3], ((3, 5, 2),), *good[4:]),
        (*good[:3], ((3, 0, -2),), *good[4:]), (*good[:3], ((3, 0, 2**80),), *good[4:]),
        (*good[:4], ((3, 1, 0, ((99, 7),)),), *good[5:]), (*good[:4], ((3, 1, 0, ((3, 2**20),)),), *good[5:]),
        (*good[:4], ((3, 1, 0, ((3,),)),), *good[5:]), (*good[:4], ((3, 1, 0, [(3, 7)]),), *good[5:]),
        (*good[:4], ((-3, 1, 0, ((3, 7),)),), *good[5:]),
        (*good[:4], ((40, 0, 1, ((4, 15),)),), *good[5:]),  # windows held whole longer than the deck: was UB
        (*good[:5], 2**70, *good[6:]), (*good[:6], 17, good[7]), (*good[:6], -1, good[7]), (*good[:7], "no"),
    ]
    for args in variants:
        made = answers_or_raises(lambda a=args: make(*a))  # type: ignore[misc]
        if made is not None:  # whatever it took, it answers (or raises) without crashing
            for hand in ([], [0, 1, 2, 3, 4], [4, 4, 4], list(range(5)) * 30):
                answers_or_raises(lambda t=made, h=hand: (t.live(h), t.live_shape(h), t.split(h), t.lookups()))  # type: ignore[misc]
    assert make(*good[:4], ((40, 0, 1, ((4, 15),)),), *good[5:]) is None


def test_candidate_tables_bad_arguments() -> None:
    needs_native()
    gen = _menos_generator()
    twin: Any = gen.native_candidates
    assert twin is not None
    for bad in (5, None, ["a"], [-1], [53], [2**70], [0, "x"], [Flip(0, 10_000)]):
        answers_or_raises(lambda b=bad: twin.candidates(b, False))  # type: ignore[misc]
    answers_or_raises(lambda: twin.candidates([0]))
    victim: list[Any] = []
    victim.extend([0, 1, Emptying(victim, 2)] + [3 + i for i in range(10)])
    answers_or_raises(lambda: twin.candidates(victim, False))  # was a read of freed memory

    class Falsy:
        def __bool__(self) -> bool:
            raise ValueError("no truth")

    with pytest.raises(ValueError):
        twin.candidates([0], Falsy())
    # light_gain: bad tables, gains, searches and ticks answer or raise one clear error, never crash
    search = native_packing.plain_search_melds
    position = gen.position
    good_light: tuple[Any, ...] = ([0, 1, 2, 52], {}, lambda m: 5, 48, search, position, 52, frozenset(), None)
    # A♠ A♥ A♦ and a Joker (codes 0, 1, 2, 52): menos' one candidate is the pierna of the aces (no wild in a
    # pierna, rules.md §1), which the gain given values at 5.
    assert twin.light_gain(*good_light) == 5
    variants_light: list[tuple[Any, ...]] = [
        (), good_light[:8], (5, *good_light[1:]), ([Flip(0, 10_000)], *good_light[1:]),
        (good_light[0], 5, *good_light[2:]), (good_light[0], {(0,): "x"}, *good_light[2:]),
        (*good_light[:2], None, *good_light[3:]), (*good_light[:2], lambda m: "x", *good_light[3:]),
        (*good_light[:2], lambda m: 2**200, *good_light[3:]), (*good_light[:3], "48", *good_light[4:]),
        (*good_light[:3], -1, *good_light[4:]), (*good_light[:4], None, *good_light[5:]),
        (*good_light[:4], lambda *a: 7, *good_light[5:]), (*good_light[:4], lambda *a: (1, 2, 3), *good_light[5:]),
        (*good_light[:5], (), *good_light[6:]), (*good_light[:6], 99, *good_light[7:]),
        (*good_light[:7], set(), None), (*good_light[:8], 5), (*good_light[:8], lambda n: int("x")),
    ]
    for args in variants_light:
        answers_or_raises(lambda a=args: twin.light_gain(*a))  # type: ignore[misc]
    victim_light: list[Any] = []
    victim_light.extend([0, 1, Emptying(victim_light, 2)] + [3 + i for i in range(10)])
    answers_or_raises(lambda: twin.light_gain(victim_light, *good_light[1:]))
    make: Any = native_candidates.CandidateTables
    # 3 ranks of 1 suit and a Joker: codes 0-2 naturals (ranks 0-2), 3 the Joker
    good: tuple[Any, ...] = ([0, 1, 2, 3], [0, 1, 2, -1], [0, 0, 0, -1], [0, 0, 0, 1], [1, 1, 1, 0], [[0, 1, 2]], 3,
            [(True, 2, 3, False, False, 2, [[0, 1], [1, 2], [0, 1, 2]]), (False, 2, 4, False, False, 2, [])])
    assert make(*good).candidates([0, 1, 3], False)
    variants: list[tuple[Any, ...]] = [
        (), good[:7], ([0, 1, 2, 2], *good[1:]), ([0, 1, 2, 9], *good[1:]), (list(range(300)), *good[1:]),
        ([], *good[1:]), (good[0], [0, 1, 99, -1], *good[2:]), (good[0], [0, 1, 2], *good[2:]),
        (*good[:2], [0, 0, 0, 0], *good[3:]), (*good[:2], [0, 0, 70, -1], *good[3:]),
        (*good[:3], [0, 0, 2, 1], *good[4:]), (*good[:5], [[0, 1, 9]], *good[6:]), (*good[:5], [[0, 2, 1]], *good[6:]),
        (*good[:5], [[0, 1]], *good[6:]), (*good[:5], [[0, 1, 2]] * 70, *good[6:]), (*good[:5], 5, *good[6:]),
        (*good[:6], 9, good[7]), (*good[:6], -1, good[7]), (*good[:6], 2**70, good[7]), (*good[:6], "3", good[7]),
        (*good[:7], []), (*good[:7], 5), (*good[:7], [(True, 2, 3)]), (*good[:7], [(True, 2, 3, 0, 0, 2, [[5]])]),
        (*good[:7], [(True, 2, 3, 0, 0, 2, [[0, 1, 2], [0, 1]])]),  # windows not smallest first
        (*good[:7], [(True, 2, 3, 0, 0, 2, [[0, 1, 2, 0]])]), (*good[:7], [(True, 2, 3, 0, 0, 2, 7)]),
        (*good[:7], [(True, 2**80, -(2**80), 0, 0, 2**80, [[0, 1]])]), (*good[:7], [(False, 0, 0, 0, 0, 0, [])]),
        (*good[:7], [(True, 1, 40, False, False, 3, [[0, 0], [0, 0, 0]])]),  # a window repeating a rank
    ]
    for args in variants:
        made = answers_or_raises(lambda a=args: make(*a))  # type: ignore[misc]
        if made is not None:
            for hand in ([], [0], [0, 1, 3], [3, 3, 3], [0, 0, 3, 3, 3], [0, 1, 2, 3] * 3):
                for pooled in (False, True):
                    answers_or_raises(lambda t=made, h=hand, p=pooled: t.candidates(h, p))  # type: ignore[misc]
