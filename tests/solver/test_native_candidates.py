"""The hand's candidate melds: the C twin (native_candidates.c) gives exactly the Python generator's list.

``CandidateGenerator.hand_candidates`` runs the C twin where it is built (and ``LOBA_DSL_PURE`` is not
``1``); ``pure_hand_candidates`` is the Python reference.  Both must return the same list, element for
element (the same multisets, each in the processing order, the list sorted by it), for both values of
``pooled``, on random hands of every shipped ruleset and of house rulesets that reach the parts of the
generator the shipped ones do not (more wild classes, wilds that are never natural, the ace round the
corner, sets of distinct suits with wilds, no size limit).  The whole solver is then run with and
without the twin and must give the same scores and arrangements.

The C-against-Python comparisons are skipped, printing why, where the extension is not built (a
machine without a C compiler installs the Python generator alone), unless ``LOBA_DSL_REQUIRE_NATIVE=1``
(CI), where a missing twin fails.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType

import pytest
from house_rulesets import THREE_WILD_CLASSES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_twins import missing

from loba_dsl.cards.deck import Card
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver import candidates, packing, searches
from loba_dsl.solver.api import Solver
from loba_dsl.solver.candidates import CandidateGenerator

try:
    from loba_dsl.solver import native_candidates, native_packing
except ImportError as error:  # pragma: no cover - only where no compiler built it
    native_candidates = native_packing = None  # type: ignore[assignment]
    WHY = f"the C candidate generator is not built here ({error}); the Python one answers alone"
else:
    WHY = ""

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))

WRAP_DISTINCT = """extends: menos
name: house-wrap
wilds: {cards: "JOKER, 2", natural_too: false}
melds:
  pierna:
    description: three or four cards of one rank, suits distinct, at most two wilds
    shape: set 3..4, suits distinct, wilds <= 2
  escalera:
    description: three or more in suit, round the corner (K-A-2), any number of wilds
    shape: run 3..13, ace wrap
"""
"""Jokers and 2s always wild (never a natural 2), runs round the corner, sets of distinct suits with wilds."""

HIGH_UNBOUNDED = """extends: mas-pagat
name: house-high
wilds: {cards: "JOKER, 7", natural_too: true}
melds:
  pierna:
    description: three or more cards of one rank, any suits, any number of wilds
    shape: set 3+
  escalera:
    description: three to eight in suit, ace high only, at most three wilds
    shape: run 3..8, ace high, wilds <= 3
"""
"""7s wild (and natural) beside the Jokers, sets of any suits with no size limit, runs ace high only."""

HOUSES = {"three-wild-classes": THREE_WILD_CLASSES, "wrap-distinct": WRAP_DISTINCT, "high-unbounded": HIGH_UNBOUNDED}


def needs_native() -> None:
    if native_candidates is None:
        missing(WHY)


def ruleset(name: str) -> Ruleset:
    return loads(HOUSES[name], source=name) if name in HOUSES else load(name)


ALL = RULESETS + sorted(HOUSES)


_GENERATORS: dict[str, CandidateGenerator] = {}


def generator(name: str) -> CandidateGenerator:
    """The generator the solver builds for ruleset ``name``, with its C twin (the test needs it); one per name."""
    gen = _GENERATORS.get(name)
    if gen is None:
        gen = _GENERATORS[name] = with_twin(Solver(ruleset(name))).candidates
    return gen


def with_twin(solver: Solver) -> Solver:
    """``solver`` with its generator's C twin on, even where ``LOBA_DSL_PURE=1`` left it off."""
    gen = solver.candidates
    if gen.native_candidates is None:
        gen.native_candidates = gen._native_candidates_tables()
    assert gen.native_candidates is not None, "the C twin takes every deck these rulesets have"
    return solver


def full_deck(rs: Ruleset) -> list[Card]:
    d = rs.deck
    return [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers


def random_hand(rng: random.Random, deck: list[Card], wilds: list[Card], size: int) -> tuple[Card, ...]:
    """``size`` cards of ``deck``; a third of hands wild-rich (one to eight of its cards that can be wild)."""
    size = min(size, len(deck))
    if wilds and rng.random() < 1 / 3:
        plain = [c for c in deck if c not in wilds]
        k = min(rng.randint(1, 8), len(wilds), size)
        hand = rng.sample(wilds, k) + rng.sample(plain, min(size - k, len(plain)))
        rng.shuffle(hand)
        return tuple(hand)
    return tuple(rng.sample(deck, size))


def assert_same(gen: CandidateGenerator, hand: tuple[Card, ...]) -> None:
    """The C twin's list is the Python's, element for element, for both values of ``pooled``."""
    twin = gen.native_candidates
    assert twin is not None
    for pooled in (False, True):
        expected = gen.pure_hand_candidates(hand, pooled=pooled)
        got = twin.candidates(hand, pooled)
        assert got == expected, (hand, pooled, sorted(set(got) ^ set(expected))[:5])
        assert gen.hand_candidates(hand, pooled=pooled) == expected


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "high-unbounded" else n for n in ALL])
def test_the_twin_gives_the_python_list_on_random_hands(name: str) -> None:
    needs_native()
    rs = ruleset(name)
    gen = generator(name)
    deck = full_deck(rs)
    wilds = [c for c in deck if gen.wild_capable[c]]
    rng = random.Random(f"candidates {name}")
    sizes = [*range(1, 26), *range(1, 16), 30, 35, 40]
    for size in sizes:
        assert_same(gen, random_hand(rng, deck, wilds, size))


@pytest.mark.parametrize("name", ["menos", "mas-pagat", "three-wild-classes", "wrap-distinct", "high-unbounded"])
def test_the_twin_gives_the_python_list_on_wild_rich_hands(name: str) -> None:
    needs_native()
    rs = ruleset(name)
    gen = generator(name)
    deck = full_deck(rs)
    wilds = [c for c in deck if gen.wild_capable[c]]
    plain = [c for c in deck if not gen.wild_capable[c]]
    rng = random.Random(f"wild-rich {name}")
    for _ in range(25):
        n_wild = rng.randint(1, min(9, len(wilds)))
        hand = (*rng.sample(wilds, n_wild), *rng.sample(plain, rng.randint(0, 9)))
        assert_same(gen, hand)
    for n in range(1, min(8, len(wilds)) + 1):  # wilds alone: the melds of wild-capable cards only
        assert_same(gen, tuple(rng.sample(wilds, n)))
    assert_same(gen, ())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(ALL), data=st.data())
def test_property_the_twin_agrees(name: str, data: st.DataObject) -> None:
    needs_native()
    rs = ruleset(name)
    gen = generator(name)
    deck = full_deck(rs)
    picks = data.draw(st.lists(st.integers(0, len(deck) - 1), max_size=18, unique=True))
    assert_same(gen, tuple(deck[i] for i in picks))


@pytest.mark.parametrize(("name", "hand", "melds"), [
    # gin.yaml: sets of 3-4 of one rank in distinct suits, runs of 3+ in suit ace low, no wilds: the run
    # 3-4-5 of spades and the three 5s; 9♣ is in no meld.
    ("gin", "3♠ 4♠ 5♠ 5♥ 5♦ 9♣", ["3♠ 4♠ 5♠", "5♠ 5♥ 5♦"]),
    # docs/rules.md, menos: an escalera holds at most one wild, a pierna none: the Joker fills 2-3-4 or
    # 3-4-5 (the same cards), and one natural with the Joker is too short.
    ("menos", "3♠ 4♠ JOKER 9♣", ["3♠ 4♠ JOKER"]),
])
def test_a_hand_by_the_rules(name: str, hand: str, melds: list[str]) -> None:
    rs = load(name)
    notation = rs.notation()
    gen = Solver(rs).candidates
    cards = notation.parse_codes(hand)
    want = {tuple(sorted(notation.parse_codes(m), key=gen.order.__getitem__)) for m in melds}
    lists = [gen.pure_hand_candidates(cards), gen.hand_candidates(cards)]
    if native_candidates is not None:
        twin = gen._native_candidates_tables()
        assert twin is not None
        lists.append(twin.candidates(cards, False))
    for got in lists:
        assert set(got) == want and len(got) == len(want)
        assert got == sorted(got, key=lambda m: [gen.order[c] for c in m])


@contextmanager
def twin_off(solver: Solver) -> Iterator[None]:
    gen = solver.candidates
    twin = gen.native_candidates
    gen.native_candidates = None
    try:
        yield
    finally:
        gen.native_candidates = twin


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL)
def test_the_solver_answers_the_same_with_and_without_the_twin(name: str) -> None:
    needs_native()
    rs = ruleset(name)
    deck = full_deck(rs)
    twin, without = with_twin(Solver(rs)), Solver(rs)
    rng = random.Random(f"solver {name}")
    for i in range(30):
        hand = tuple(rng.sample(deck, rng.choice((5, 8, 10, 11, 12, 14)) if i % 3 else 10))
        with twin_off(without):
            score, arranged = without.best_score(hand), without.arrange(hand)
        assert twin.best_score(hand) == score, hand
        got = twin.arrange(hand)
        assert (got.score, got.melds, got.left) == (arranged.score, arranged.melds, arranged.left), hand


def test_pure_switches_the_twin_off() -> None:
    """``LOBA_DSL_PURE=1`` (loba_dsl.solver.natives): no generator uses the C twin in that process."""
    code = ("from loba_dsl.rules.loading import load; from loba_dsl.solver.api import Solver; "
            "from loba_dsl.solver import candidates; "
            "print(candidates.NATIVE_CANDIDATES, Solver(load('menos')).candidates.native_candidates is None)")
    env = {**os.environ, "LOBA_DSL_PURE": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
    assert (native_candidates is not None and os.environ.get("LOBA_DSL_PURE") != "1") == candidates.NATIVE_CANDIDATES


# ------------------------------------------------------------------ a whole light search in one call


class Ticks:
    """A budget clock's stand-in that counts the steps it is told of."""

    def __init__(self) -> None:
        self.steps = 0

    def tick(self, n: int = 1) -> None:
        self.steps += n


def python_light_gain(solver: Solver, hand: tuple[Card, ...], table: Mapping[tuple[Card, ...], int | None],
                      ticks: Ticks, monkeypatch: pytest.MonkeyPatch) -> int | None:
    """What ``light_gain`` answers, the Python way (``Searches._searched_gain``'s light branch, the packing
    kernels in Python): the candidates (one step each), their gains from the table or the solver, at most
    LIGHT_UP_TO of positive gain, then the plain search of them (one step a state)."""
    g = solver.melds
    cards = g.sorted(hand)
    melds = g.generator.pure_hand_candidates(cards)
    ticks.tick(len(melds))
    raw = []
    for m in melds:
        v = table[m] if m in table else g.gain_value(m)
        if v is not None and v > 0:
            raw.append((m, v))
    if len(raw) > searches.LIGHT_UP_TO:
        return None
    with monkeypatch.context() as patch:
        patch.setattr(packing, "NATIVE", False)
        patch.setattr(solver.calls, "clock", ticks)
        return solver.searches.plain_search(cards, raw)[0]


@pytest.mark.parametrize("name", ALL)
def test_light_gain_answers_as_the_python_light_search(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """native_candidates' light_gain: the same best gain (None exactly where there are too many melds) and
    the same steps counted against the budget as the Python, with no table, the solver's table, or a
    read-only view of it (a mapping that is not a dict)."""
    needs_native()
    rs = ruleset(name)
    solver = with_twin(Solver(rs))
    twin = solver.candidates.native_candidates
    assert twin is not None
    kernel = native_packing.plain_search_melds  # even where LOBA_DSL_PURE=1 keeps the solver from it
    deck = full_deck(rs)
    wilds = [c for c in deck if solver.wild_capable[c]]
    rng = random.Random(f"light {name}")
    hands = [random_hand(rng, deck, wilds, rng.randint(1, 14)) for _ in range(150)]
    built = solver.compile_meld_table()
    tables: list[Mapping[tuple[Card, ...], int | None]] = [{}, solver.melds.table,
                                                              MappingProxyType(dict(solver.melds.table))]
    nones = 0
    for hand in hands:
        for table in tables:
            c_ticks, py_ticks = Ticks(), Ticks()
            got = twin.light_gain(hand, table, solver.melds.gain_value, searches.LIGHT_UP_TO,
                                  kernel, solver.melds.positions, rs.deck.joker_code,
                                  frozenset(), c_ticks.tick)
            expected = python_light_gain(solver, hand, table, py_ticks, monkeypatch)
            assert got == expected, (name, hand, built)
            if expected is not None:
                assert c_ticks.steps == py_ticks.steps, (name, hand)
            nones += got is None
    assert nones < len(hands) * len(tables)  # most hands are light
