"""A solver shares one hand's arrangement with the hands that only rename its suits in order (issue 11).

Where a ruleset treats every suit alike, ``Solver.arrange`` keeps the melds of a hand's live cards under
a key that a renaming of the suits keeps when it keeps their order (the i-th suit the hand holds becomes
the i-th suit the other holds), and answers such a hand by renaming those melds.  The property here: a
solver that has met many hands (and their renamings) answers every hand exactly as a fresh solver that
has met none: the same melds in the same order, the same cards left, the same score.  Ties included:
the documented tie rule (issue 4 §1: the first arrangement met, cards by suit then rank) keeps the
order of the suits, which is why only order-keeping renamings may share.
"""

from __future__ import annotations

import random

import pytest

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load
from loba_dsl.solver.api import Arrangement, Solver


def _physical(deck: Deck) -> list[Card]:
    return [c for c in range(deck.joker_code) for _ in range(deck.copies)] + [deck.joker_code] * deck.jokers


def _meld_rich(deck: Deck, rng: random.Random, size: int) -> list[Card]:
    """A run of 3-5 in one suit, three of a rank, a Joker now and then, and random cards: up to ``size``."""
    s, r0 = rng.randrange(deck.n_suits), rng.randrange(deck.n_ranks - 4)
    cards = [deck.code(r0 + i, s) for i in range(rng.randint(3, 5))]
    r = rng.randrange(deck.n_ranks)
    cards += [deck.code(r, su) for su in rng.sample(range(deck.n_suits), min(3, deck.n_suits))]
    if deck.jokers and rng.random() < 0.5:
        cards.append(deck.joker_code)
    pool = _physical(deck)
    while len(cards) < size:
        cards.append(rng.choice(pool))
    kept: list[Card] = []
    for c in cards:  # within the deck's copies
        if kept.count(c) < deck.limit(c):
            kept.append(c)
    return kept[:size]


def _renamed_in_order(deck: Deck, hand: list[Card], rng: random.Random) -> list[Card]:
    """``hand`` with the suits it holds renamed to others, in the same order (a random increasing choice)."""
    held = sorted({deck.suit_of(c) for c in hand if c != deck.joker_code})
    to = dict(zip(held, sorted(rng.sample(range(deck.n_suits), len(held))), strict=True))
    return [c if c == deck.joker_code else deck.code(deck.rank_of(c), to[deck.suit_of(c)]) for c in hand]


def _shown(arr: Arrangement) -> tuple[object, ...]:
    return tuple(m.cards for m in arr.melds), arr.left, arr.score


@pytest.mark.slow
@pytest.mark.parametrize("name", shipped_names())
def test_a_shared_arrangement_is_the_fresh_one(name: str) -> None:
    rs = load(name)
    deck = rs.deck
    rng = random.Random(23)
    shared = Solver(rs)
    for _ in range(60):
        hand = _meld_rich(deck, rng, rng.choice((7, 10, 12)))
        for h in (hand, _renamed_in_order(deck, hand, rng), _renamed_in_order(deck, hand, rng)):
            assert _shown(shared.arrange(h)) == _shown(Solver(rs).arrange(h)), (name, deck.names_of(h))


def test_a_renaming_that_changes_the_suits_order_shares_nothing() -> None:
    # menos (rules.md §1: escaleras of 3+ in suit, at most one wild): three runs of three and a Joker that
    # can lengthen any of them, every card melded either way.  The tie rule (issue 4 §1, the solver's
    # docstring: the first arrangement met, cards by suit then rank) gives the Joker to the first suit's
    # run: 3♠ 4♠ 5♠ in the first hand, 7♠ 8♠ 9♠ in the second, which renames ♠ and ♦ (not in order), so
    # renaming the first hand's answer would give it to 3♦ 4♦ 5♦ instead.
    rs = load("menos")
    shared = Solver(rs)
    first = shared.arrange("3♠ 4♠ 5♠ 3♥ 4♥ 5♥ 7♦ 8♦ 9♦ JOKER")
    second = shared.arrange("7♠ 8♠ 9♠ 3♥ 4♥ 5♥ 3♦ 4♦ 5♦ JOKER")
    names = rs.deck.names_of
    assert [names(m.cards) for m in first.melds if rs.deck.joker_code in m.cards] == [["3♠", "4♠", "5♠", "JOKER"]]
    assert [names(m.cards) for m in second.melds if rs.deck.joker_code in m.cards] == [["7♠", "8♠", "9♠", "JOKER"]]
    assert _shown(second) == _shown(Solver(rs).arrange("7♠ 8♠ 9♠ 3♥ 4♥ 5♥ 3♦ 4♦ 5♦ JOKER"))
