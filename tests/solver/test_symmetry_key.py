"""SuitCanon.key: the solver's cache key of a hand's live cards up to a renaming of the suits (issue 11).

Two multisets of cards are renamings of each other when some permutation of
the suits (every card's suit renamed, Jokers unchanged) maps one onto the
other (docs/rules.md §1: four suits, each rank in each; the ruleset names no
suit, so the best score is the same).  Expected values come from that
definition, checked by trying every permutation, never from the key itself.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from loba_dsl.cards.deck import Card
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.api import Solver
from loba_dsl.solver.symmetry import SHAPE_LIMIT, SuitCanon


@pytest.fixture(scope="module")
def menos() -> Ruleset:
    return load("menos")


@pytest.fixture(scope="module")
def solver(menos: Ruleset) -> Solver:
    return Solver(menos)


def _canon(solver: Solver) -> SuitCanon:
    assert solver.melds.canon is not None, "menos names no suit"
    return solver.melds.canon


def _cards(rs: Ruleset, text: str) -> tuple[Card, ...]:
    return rs.notation().parse(text, source="<test>").cards


def _renamed(rs: Ruleset, cards: tuple[Card, ...], perm: tuple[int, ...]) -> tuple[Card, ...]:
    deck = rs.deck
    return tuple(c if c == deck.joker_code else deck.code(deck.rank_of(c), perm[deck.suit_of(c)]) for c in cards)


def _are_renamings(rs: Ruleset, a: tuple[Card, ...], b: tuple[Card, ...]) -> bool:
    """The definition: some permutation of the suits maps the multiset ``a`` onto ``b``."""
    target = Counter(b)
    return any(Counter(_renamed(rs, a, perm)) == target
               for perm in itertools.permutations(range(rs.deck.n_suits)))


def _pool(rs: Ruleset) -> list[Card]:
    d = rs.deck
    return [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers


@pytest.mark.parametrize(("a", "b", "same"), [
    ("K♠ K♥", "K♠ K♠", False),  # two suits against one suit twice
    ("K♠ K♥", "K♦ K♣", True),
    ("K♠ Q♠", "K♠ Q♥", False),  # one suit against two
    ("K♠ Q♠", "K♣ Q♣", True),
    ("K♠ Q♥", "Q♠ K♥", True),  # swap spades and hearts
    ("K♠ Q♥", "K♠ K♥", False),  # other ranks
    ("K♠ JOKER", "K♥ JOKER", True),
    ("K♠ JOKER", "K♠", False),  # a Joker more
    ("K♠ JOKER JOKER", "K♠ JOKER", False),
    ("A♠ 2♠ 3♠ 3♥", "A♥ 2♥ 3♥ 3♠", True),
    ("A♠ 2♠ 3♠ 3♥", "A♠ 2♠ 3♥ 3♥", False),
])
def test_key_tells_renamings(menos: Ruleset, solver: Solver, a: str, b: str, same: bool) -> None:
    ca, cb = (solver.candidates.ordered(_cards(menos, t)) for t in (a, b))
    assert _are_renamings(menos, ca, cb) is same  # the expectation, by the definition
    canon = _canon(solver)
    assert (canon.key(ca) == canon.key(cb)) is same


def test_key_invariant_under_every_renaming(menos: Ruleset, solver: Solver) -> None:
    canon = _canon(solver)
    ordered = solver.candidates.ordered
    rng = random.Random(11)
    pool = _pool(menos)
    for size in (1, 3, 6, 10, SHAPE_LIMIT - 1, SHAPE_LIMIT, 25):  # 16 cards and more: keyed by the image
        for _ in range(15):
            hand = ordered(rng.sample(pool, size))
            keys = {canon.key(ordered(_renamed(menos, hand, perm)))
                    for perm in itertools.permutations(range(menos.deck.n_suits))}
            assert len(keys) == 1


def test_key_equal_exactly_for_renamings(menos: Ruleset, solver: Solver) -> None:
    """Small multisets of few ranks (so that renamings do occur), compared pairwise with the definition."""
    canon = _canon(solver)
    ordered = solver.candidates.ordered
    deck = menos.deck
    rng = random.Random(5)
    few = [c for c in _pool(menos) if c == deck.joker_code or deck.rank_of(c) in (0, 1, 12)]
    hands = [ordered(rng.sample(few, rng.randint(1, 5))) for _ in range(100)]
    same = differ = 0
    for a, b in itertools.combinations(hands, 2):
        expected = _are_renamings(menos, a, b)
        assert (canon.key(a) == canon.key(b)) is expected, (a, b)
        same += expected
        differ += not expected
    assert same and differ  # both cases met


def test_live_shape_is_key_of_live(menos: Ruleset, solver: Solver) -> None:
    canon = _canon(solver)
    gen = solver.candidates
    rng = random.Random(3)
    pool = _pool(menos)
    for _ in range(2000):
        hand = tuple(rng.sample(pool, rng.choice((5, 10, 11, 15))))
        live = gen.live(hand)
        assert gen.live_shape(hand) == (canon.key(live) if live else ())
    assert gen.live_shape(tuple(rng.sample(pool, SHAPE_LIMIT))) is None  # too many cards for the counts


def test_gin_live_shape_is_key_of_live() -> None:
    rs = load("gin")
    solver = Solver(rs)
    canon = _canon(solver)
    gen = solver.candidates
    rng = random.Random(4)
    pool = _pool(rs)
    for _ in range(1000):
        hand = tuple(rng.sample(pool, 10))
        live = gen.live(hand)
        assert gen.live_shape(hand) == (canon.key(live) if live else ())
