"""The C twin of the live cards (native_live.c) answers exactly as CandidateGenerator's Python methods.

``live``, ``live_shape`` and ``split`` of the C tables are compared with the Python methods (called
through the class, which the twin shadows on the instance) on random hands of every shipped ruleset
and of house rulesets written here: values and types.  A few hands are also checked against the
rules themselves, and the whole solver must give the same scores and arrangements with the twin and
without it.

The comparisons are skipped, saying why, when the extension is not built (a machine without a C
compiler installs the Python methods alone), except where ``LOBA_DSL_REQUIRE_NATIVE=1`` (CI): there a
missing extension fails.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from house_rulesets import THREE_WILD_CLASSES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_twins import missing, switched

from loba_dsl.cards.deck import Card
from loba_dsl.cards.notation import Notation
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.api import Solver
from loba_dsl.solver.candidates import CandidateGenerator
from loba_dsl.solver.scores import pure_scored_shape
from loba_dsl.solver.symmetry import SHAPE_LIMIT, SuitCanon, suit_symmetric

try:
    from loba_dsl.solver import native_live
except ImportError as error:  # pragma: no cover - only where no compiler built it
    native_live = None  # type: ignore[assignment]
    WHY = f"the C live tables are not built here ({error}); the Python methods answer alone"
else:
    WHY = ""

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))

HOUSES = {
    # Jokers, 2s and 3s wild or natural, eight Jokers (tests/house_rulesets.py).
    "three-wild-classes": THREE_WILD_CLASSES,
    # 2s always wild (never natural), sets of copies (no distinct suits) with two wilds, runs round the corner.
    "wrap-copies": """extends: menos
name: h-wrap
deck: {jokers: 6}
wilds: {cards: "JOKER, 2", natural_too: false}
melds:
  pierna:
    description: three to eight of one rank, copies allowed, at most two wilds
    shape: set 3..8, wilds <= 2
  escalera:
    description: a run round the corner with at most three wilds
    shape: run 3..13, ace wrap, wilds <= 3
""",
    # Four meld kinds: pairs without wilds, sets of distinct suits with a wild, short runs ace high or low with
    # two wilds, long runs ace low with no wild.
    "four-kinds": """extends: mas
name: h-four
melds:
  pierna:
    description: three or four of one rank in distinct suits, at most one wild
    shape: set 3..4, suits distinct, wilds <= 1
  pareja:
    description: two of one rank, no wilds
    shape: set 2..2, no wilds
  escalera:
    description: three to five in suit, ace high or low, at most two wilds
    shape: run 3..5, ace high or low, wilds <= 2
  larga:
    description: six or more in suit, ace low, no wilds
    shape: run 6..13, ace low, no wilds
""",
}


def _rulesets() -> list[tuple[str, Ruleset]]:
    return [(name, load(name)) for name in SHIPPED] + [(name, loads(text)) for name, text in HOUSES.items()]


RULESETS = _rulesets()
NAMES = [name for name, _ in RULESETS]


def needs_native() -> Any:
    if native_live is None:
        missing(WHY)
    return native_live


def twin(on: bool) -> AbstractContextManager[None]:
    """New generators (and solvers) built inside use the C twin (``on``) or the Python methods alone."""
    return switched(live=on)


def generator(rs: Ruleset) -> CandidateGenerator:
    needs_native()
    with twin(True):
        gen = Solver(rs).candidates
    assert gen.native_live is not None
    return gen


def full_deck(rs: Ruleset) -> list[Card]:
    d = rs.deck
    return [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers


def random_hands(rs: Ruleset, rng: random.Random, n: int) -> list[list[Card]]:
    """Hands of 1-60 cards from the full deck; every third one heavy in wild cards or in one suit."""
    pool = full_deck(rs)
    d = rs.deck
    wilds = [c for c in pool if c == d.joker_code or c in rs.wilds.cards]
    out: list[list[Card]] = []
    for j in range(n):
        size = rng.randint(1, min(60, len(pool)))
        if j % 3 == 1 and wilds:
            k = rng.randint(0, min(size, len(wilds)))
            hand = rng.sample(wilds, k) + rng.sample(pool, size - k)
        elif j % 3 == 2:
            su = rng.randrange(d.n_suits)
            hand = [c for c in pool if c != d.joker_code and d.suit_of(c) == su]
            hand = rng.sample(hand, min(len(hand), rng.randint(1, 14))) + rng.sample(pool, rng.randint(0, 4))
        else:
            hand = rng.sample(pool, size)
        out.append(hand)
    return out


def values_of(gen: CandidateGenerator) -> list[tuple[int, ...]]:
    """Per-card values to add up: small ones of both signs, and ones whose sum leaves a C long long."""
    n = gen.deck.n_codes
    return [tuple((7 * c) % 23 - 11 for c in range(n)), tuple(2**62 + c for c in range(n)),
            tuple(-(2**70) * (c % 3) for c in range(n))]


def assert_same(gen: CandidateGenerator, cards: list[Card] | tuple[Card, ...]) -> None:
    """The C twin and the Python methods give equal answers of the same types."""
    live = CandidateGenerator.live(gen, cards)
    got = gen.live(cards)
    assert got == live and type(got) is tuple and all(type(c) is int for c in got), cards
    shape = CandidateGenerator.live_shape(gen, cards)
    got_shape = gen.live_shape(cards)
    assert got_shape == shape, cards
    if shape is not None:
        assert type(got_shape) is tuple and all(type(x) is int for x in got_shape), cards
    tables = gen.native_live
    assert tables is not None
    for values in values_of(gen):
        scored = tables.scored_shape(cards, values)
        assert scored == (shape, sum(values[c] for c in cards)) == pure_scored_shape(gen, cards, values), cards
        assert type(scored[1]) is int
    split = CandidateGenerator.split(gen, live)
    got_split = gen.split(live)
    assert got_split == split, (cards, live)
    parts, jokers = got_split
    assert type(parts) is tuple and type(jokers) is int
    assert all(type(p) is tuple and all(type(c) is int for c in p) for p in parts)


@pytest.mark.parametrize("name", NAMES)
def test_random_hands_match_the_python_methods(name: str) -> None:
    rs = dict(RULESETS)[name]
    gen = generator(rs)
    rng = random.Random(f"live-{name}")
    hands = random_hands(rs, rng, 1200)
    for cards in hands:
        assert_same(gen, cards)
        assert_same(gen, tuple(cards))
    # split of any multiset in the processing order (not only live ones) and of small ones (the hit path)
    for cards in hands[:300]:
        assert gen.split(gen.ordered(cards)) == CandidateGenerator.split(gen, gen.ordered(cards))
    for cards in random_hands(rs, rng, 300):
        assert_same(gen, cards[:rng.randint(1, 15)])


@pytest.mark.parametrize("name", ["menos", "mas-pagat", "wrap-copies"])
def test_whole_decks_and_more_than_a_deck(name: str) -> None:
    rs = dict(RULESETS)[name]
    gen = generator(rs)
    pool = full_deck(rs)
    assert_same(gen, pool)
    assert_same(gen, pool + pool[:30])  # 138 cards: live() gives them to the Python method (byte counts)
    assert_same(gen, [])


GENERATORS: dict[str, CandidateGenerator] = {}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_property_twin_equals_python(data: st.DataObject) -> None:
    name, rs = data.draw(st.sampled_from(RULESETS), label="ruleset")
    gen = GENERATORS.get(name) or GENERATORS.setdefault(name, generator(rs))
    pool = full_deck(rs)
    idx = data.draw(st.lists(st.integers(0, len(pool) - 1), max_size=60, unique=True), label="cards")
    assert_same(gen, [pool[i] for i in idx])


# ------------------------------------------------------------------ hands checked against the rules


def test_menos_hands_by_the_rules() -> None:
    """rules.md §2 (menos): escalera, 3+ in suit in sequence with at most one Joker; pierna, 3-4 of one rank in
    distinct suits, never a wild.  The processing order: plain naturals by suit (♠ ♥ ♦ ♣) then rank, then Jokers."""
    rs = load("menos")
    gen = generator(rs)
    codes = Notation(rs.deck).parse_codes
    # 7♠ 8♠ 9♠ run; K♥ and 2♦ meld with nothing.
    assert gen.live(codes("K♥ 9♠ 2♦ 7♠ 8♠")) == codes("7♠ 8♠ 9♠")
    # One Joker fills 7♠ _ 9♠; two kings of two suits are no pierna and cannot take the Joker.
    live = gen.live(codes("K♦ 9♠ JOKER K♥ 7♠"))
    assert live == codes("7♠ 9♠ JOKER")
    assert gen.split(live) == ((codes("7♠ 9♠"),), 1)
    # A run of hearts and a pierna of nines: two parts, in the order of their first card.
    live = gen.live(codes("3♥ 9♣ 4♥ 9♦ 5♥ 9♠"))
    assert live == codes("9♠ 3♥ 4♥ 5♥ 9♦ 9♣")
    assert gen.split(live) == ((codes("9♠ 9♦ 9♣"), codes("3♥ 4♥ 5♥")), 0)
    # Nothing melds: no card is live, the key is ().
    assert gen.live(codes("A♠ 5♥ 9♦ K♣")) == ()
    assert gen.live_shape(codes("A♠ 5♥ 9♦ K♣")) == ()
    # The key (SuitCanon.key): per suit the sum of 1 << 4 * rank index (A = 0), sorted, then the Jokers.
    seven_to_nine = (1 << 4 * 6) + (1 << 4 * 7) + (1 << 4 * 8)
    assert gen.live_shape(codes("K♥ 9♠ 2♦ 7♠ 8♠")) == (0, 0, 0, seven_to_nine, 0)
    assert gen.live_shape(codes("7♦ 9♦ JOKER K♠")) == (0, 0, 0, (1 << 4 * 6) + (1 << 4 * 8), 1)


def test_pagat_wild_twos_are_one_part() -> None:
    """rules.md §3 (mas-pagat): 2s are wild or natural, so a hand holding one is one part with no Joker shared."""
    rs = load("mas-pagat")
    gen = generator(rs)
    codes = Notation(rs.deck).parse_codes
    live = gen.live(codes("2♣ 5♥ 6♥ 9♠ 9♦ 9♣"))
    assert set(live) == set(codes("2♣ 5♥ 6♥ 9♠ 9♦ 9♣"))
    assert gen.split(live) == ((live,), 0)


# ------------------------------------------------------------------ the switch and the limits


def test_tables_beyond_the_limits_are_none() -> None:
    nl = needs_native()
    cards = tuple((-1, -1, False, True, 0) for _ in range(1))
    assert nl.live_tables(nl.MAX_RANKS + 1, 4, cards, (), (), 3, 16, print) is None
    assert nl.live_tables(13, nl.MAX_SUITS + 1, cards, (), (), 3, 16, print) is None
    one = ((0, 0, True, False, 0), (-1, -1, False, True, 1))
    assert nl.live_tables(1, 1, one, ((3, True, 0),), (), 3, 16, print) is not None
    assert nl.live_tables(1, 1, one, ((500, True, 0),), (), 3, 16, print) is None  # a set's least size > 127


def test_pure_generators_keep_the_python_methods() -> None:
    rs = load("menos")
    with twin(False):
        gen = Solver(rs).candidates
    assert gen.native_live is None
    assert gen.live.__func__ is CandidateGenerator.live  # type: ignore[attr-defined]


def test_pure_switch_turns_the_twin_off() -> None:
    code = "from loba_dsl.solver import candidates; print(candidates.NATIVE_LIVE)"
    env = {**os.environ, "LOBA_DSL_PURE": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------ the whole solver


def test_solver_same_with_and_without_the_twin() -> None:
    needs_native()
    for name, rs in RULESETS:
        with twin(True):
            fast = Solver(rs)
        with twin(False):
            slow = Solver(rs)
        assert fast.candidates.native_live is not None and slow.candidates.native_live is None
        rng = random.Random(f"solver-{name}")
        pool = full_deck(rs)
        for _ in range(40):
            hand = rng.sample(pool, rng.randint(1, 14))
            assert fast.best_score(hand) == slow.best_score(hand), (name, hand)
            assert fast.arrange(hand) == slow.arrange(hand), (name, hand)


SIXTEEN_RANKS = """extends: menos
name: h-sixteen
deck:
  ranks:
""" + "\n".join(f'    - {{key: "{k}", face: {i + 1}}}' for i, k in enumerate(
    ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "P", "R", "V"])) + """
  ace: A
  jokers: 16
melds:
""" + "".join(f"""  run{w}:
    description: a run of three or more, at most {w} wilds
    shape: run 3+, ace either, wilds <= {w}
""" for w in range(1, 9))
"""A house deck of 16 ranks (the most the C tables take), 16 Jokers, and eight run kinds of up to 1..8 wilds:
each (run kind, wilds usable) of a hand's suits is an array of 2^16 lookups, far more than the tables keep."""


def test_the_lookup_tables_stay_bounded_and_right() -> None:
    """Hands with every number of Jokers, under a house of 16 ranks and eight run kinds, make more lookup arrays
    than the tables keep (4 MiB): they are dropped and made again, and every answer stays the Python's."""
    rs = loads(SIXTEEN_RANKS, source="h-sixteen.yaml", cached=False)
    gen = generator(rs)
    tables = gen.native_live
    assert tables is not None
    d = rs.deck
    rng = random.Random("sixteen")
    naturals = [c for c in range(d.joker_code) for _ in range(d.copies)]
    most = 0
    dropped = False
    for j in range(400):
        hand = rng.sample(naturals, rng.randint(3, 20)) + [d.joker_code] * (j % 10)
        assert_same(gen, hand)
        held = tables.lookups()
        dropped = dropped or held < most
        most = max(most, held)
    assert dropped, "the tables were never dropped: the test did not reach the bound"


@pytest.mark.parametrize("name", NAMES)
def test_keys_match_suit_canon(name: str) -> None:
    """``key`` is SuitCanon.key of every card given (live or not) below SHAPE_LIMIT cards, None from there; the
    Solver's canon, answered by it, still keys big hands by their canonical image."""
    rs = dict(RULESETS)[name]
    if not suit_symmetric(rs):
        pytest.skip("the suits are not alike: no suit key")
    gen = generator(rs)
    tables = gen.native_live
    assert tables is not None
    canon = SuitCanon(rs, gen.ordered)  # the Python keys alone
    solver_canon = SuitCanon(rs, gen.ordered)
    solver_canon.answer_keys_by(tables.key)
    rng = random.Random(f"key-{name}")
    for cards in random_hands(rs, rng, 600):
        multiset = gen.ordered(cards)
        want = canon.key(multiset)
        if len(multiset) < SHAPE_LIMIT:
            assert tables.key(multiset) == want and tables.key(list(cards)) == want, cards
        else:
            assert tables.key(multiset) is None
        assert solver_canon.key(multiset) == want
