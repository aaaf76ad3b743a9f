"""The solver's pool of wilds: where Jokers and 2s are wild alike, a search holds them as one pool (issue 11).

``Solver`` searches a hand holding a card that can be wild besides the Joker (a 2 of ``mas-pagat``,
``uruguay``) with every such card twice over: one more wild of a pool that fills the places of
wilds (a Joker of the search), and the right to stand as its natural self.  The candidate melds fill every
wild's place with a Joker, so melds that differed only in which wild stood where are one
(``loba_dsl.solver.searches.Searches.pooled_input``).

Where the expected values come from:

- ``mas-pagat``: seed 003 lines 32-51 and rules.md §3 (Jokers and 2s wild, a 2 may be a natural 2;
  escaleras of 3-13 in suit with any number of wilds but never all wild, ace high or low; piernas of
  3-6 of one rank in exactly three suits, no wilds; on the table a wild standing for a K-8 or a high
  ace is 3, another wild 1, a high ace 3, a low one 1, K-8 2, 7-3 1; in hand A, Joker and 2 are 3,
  K-8 2, 7-3 1); the score of an arrangement is the round formula if the round ended now, the
  going-out bonus aside (``tests/solver/test_solver.py``'s ``A♠ K♠ Q♠`` is 7);
- every arrangement is checked card by card: its melds are legal by ``loba check``'s matcher, they and
  the cards left are the hand, and its score is ``score_player``'s (the round formula).

The agreement property compares the pooled search with the search that names every wild (the one the
solver keeps for the opening and the contracts, whose tables may tell a Joker from a 2): two different
searches of the same question, on hands too large for ``tests/solver/test_solver.py``'s brute force; the
brute force itself covers hands of up to 9 cards, and ``benchmarks/crosscheck_ilp.py`` (HiGHS) 20-30.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from loba_dsl.cards.deck import Card
from loba_dsl.melds.matcher import matcher_for
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.rounds import score_player
from loba_dsl.solver.api import Arrangement, Solver

POOLED = ("mas-pagat", "uruguay")
"""The shipped rulesets whose 2s are wild like the Jokers and cost the same in hand (rules.md §3, §4; in
``picos`` a Joker and a 2 differ in value, so its search names them)."""


ALWAYS_WILD_TWOS = """extends: mas-pagat
name: house-always-wild-twos
wilds: {cards: "JOKER, 2", natural_too: false}
"""
"""A house form of ``mas-pagat`` whose 2s are wild only, never a natural 2 (``wilds.natural_too: false``)."""


@functools.cache
def ruleset(name: str) -> Ruleset:
    return loads(ALWAYS_WILD_TWOS) if name == "house-always-wild-twos" else load(name)


def codes(rs: Ruleset, text: str) -> tuple[Card, ...]:
    return tuple(rs.notation().parse_codes(text))


def assert_valid(rs: Ruleset, hand: Sequence[Card], arr: Arrangement) -> None:
    """Legal melds of real cards of the hand, the rest left, and the round formula's score."""
    matcher = matcher_for(rs)
    for m in arr.melds:
        assert matcher.match(m.cards, reasons=False).best is not None, rs.deck.names_of(m.cards)
    together = Counter(arr.left)
    for m in arr.melds:
        together.update(m.cards)
    assert together == Counter(hand)
    scored = score_player(rs, melds=[m.cards for m in arr.melds], hand=list(arr.left))
    assert arr.score == scored.score


@pytest.mark.parametrize(("text", "score"), [
    # Three wild places, one Joker: the 2s fill the others.  9-10-J-Q-K-A with 2♥ 2♦ JOKER as 9, 10, J:
    # 3 + 3 + 3 + 2 + 2 + 3 = 16; A-K-Q alone (7) leaves three wilds that cannot meld (never all wild).
    ("A♠ K♠ Q♠ 2♥ 2♦ JOKER", 16),
    # One 2 natural, the other wild: 2♥ 3♥ 4♥ (1 + 1 + 1) and 7♠ 8♠ 2♣ as 7-8-9 (1 + 2 + 3) = 9, nothing
    # left; the 2s both in 7-8-9-10 (9) leave 3♥ 4♥ (-2): 7; 2-3-4-5 (4) leaves 7♠ 8♠ (-3): 1.
    ("2♥ 3♥ 4♥ 7♠ 8♠ 2♣", 9),
    # A natural pierna of 2s, a wild 2 elsewhere: 9♣ 10♣ with the five wilds as 8, J, Q, K, A (high):
    # 3 + 2 + 2 + 3 + 3 + 3 + 3 = 19, everything melded; the pierna 2♠ 2♥ 2♦ (3) with 9-10-J-Q (10) is 13.
    ("2♠ 2♥ 2♦ 2♣ JOKER 9♣ 10♣", 19),
    # Four wilds, three of them 2s: K♠ with all four as 9-10-J-Q-K or 10-J-Q-K-A, 3 x 4 + 2 = 14, every
    # card melded; the pierna of natural 2s 2♥ 2♦ 2♣ (3) leaves JOKER K♠ (-5): -2; K♠ with two wilds (8)
    # leaves two (-6): 2.
    ("2♥ 2♦ 2♣ JOKER K♠", 14),
])
def test_mas_pagat_pool_hands(text: str, score: int) -> None:
    rs = ruleset("mas-pagat")
    hand = codes(rs, text)
    solver = Solver(rs)
    arr = solver.arrange(hand)
    assert arr.score == score
    assert solver.best_score(hand) == score
    assert_valid(rs, hand, arr)


def test_real_jokers_fill_the_wild_places_first() -> None:
    # uruguay (rules.md §4: 2s wild, a Joker or a 2 left costs 25; Menos's escalera holds at most one wild,
    # a pierna none): 5♠ 6♠ with one wild as 4♠ or 7♠, the other wild and 9♦ left, 25 + 9 = 34 whichever
    # wild is melded.  The solver names the pool's wild places with the real Jokers first, so the Joker is
    # melded and the 2 stays.
    rs = ruleset("uruguay")
    hand = codes(rs, "5♠ 6♠ 2♥ JOKER 9♦")
    arr = Solver(rs).arrange(hand)
    assert arr.score == 34
    assert_valid(rs, hand, arr)
    assert sorted(rs.deck.names_of(arr.left)) == sorted(["2♥", "9♦"])


def test_discard_of_a_pool_card() -> None:
    # The best discard (issue 4 §1, exact): from 2♥ 3♥ 4♥ 7♠ 8♠ 2♣ K♦, keeping all six others is 9 (above);
    # discarding the K♦ (2 in hand) is the only way to it, so K♦ goes; discarding a 2 breaks a meld.
    rs = ruleset("mas-pagat")
    hand = codes(rs, "2♥ 3♥ 4♥ 7♠ 8♠ 2♣ K♦")
    solver = Solver(rs)
    discard, arr = solver.best_discard(hand)
    assert rs.deck.names_of([discard]) == ["K♦"]
    assert arr.score == 9 == solver.best_discard_score(hand)
    kept = list(hand)
    kept.remove(discard)
    assert_valid(rs, kept, arr)


def _wild_rich_hands(rs: Ruleset, size: int, n: int, seed: int) -> list[tuple[Card, ...]]:
    """Random hands of the ruleset's deck: a 2, and up to a third of the cards more wilds (Jokers and 2s)."""
    deck = rs.deck
    rng = random.Random(seed)
    two = deck.rank_index["2"]
    twos = [c for c in range(deck.joker_code) if deck.rank_of(c) == two for _ in range(deck.copies)]
    wilds = twos + [deck.joker_code] * deck.jokers
    others = [c for c in range(deck.joker_code) if deck.rank_of(c) != two for _ in range(deck.copies)]
    out = []
    for _ in range(n):
        first = rng.randrange(len(twos))  # at least one 2: the pool is searched only where there is one
        rest = wilds[:first] + wilds[first + 1:]
        k = rng.randint(0, min(len(rest), size // 3))
        out.append(tuple([twos[first], *rng.sample(rest, k), *rng.sample(others, size - 1 - k)]))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", [*POOLED, "house-always-wild-twos"])
def test_pooled_search_agrees_with_the_named_search(name: str) -> None:
    rs = ruleset(name)
    solver = Solver(rs)
    for hand in _wild_rich_hands(rs, 14, 60, seed=11):
        arr = solver.arrange(hand)
        assert_valid(rs, hand, arr)
        assert solver.best_score(hand) == arr.score
        named = solver.searches.search(tuple(hand), solver.gain_value, pooled=False)
        pooled = solver.searches.search(tuple(hand), solver.gain_value, pooled=True)
        assert pooled.pooled and not named.pooled
        assert pooled.solve(pooled.full) == named.solve(named.full), rs.deck.names_of(hand)
        going_out = solver.can_go_out(hand)
        counted = solver.searches.search(tuple(hand), solver.melds.count_if_legal, pooled=False)
        assert going_out.possible == (counted.solve(counted.full) >= len(hand) - 1), rs.deck.names_of(hand)
