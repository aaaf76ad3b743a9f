"""The matcher's placement of unlike wilds (a memoised search) agrees with trying every permutation.

Issue 9/11: the matcher once tried every permutation of the wild cards of a
run (13.7 s for 11 cards).  The oracle here is that old method, kept in the
test: every distinct permutation of the wilds, each scored, the best reading
chosen by the documented order (most points, most naturals, kind order, fewest
inversions, lowest run).  Both must give the same reading on random melds of
house rulesets whose wilds score differently by card and by position.
"""

from __future__ import annotations

import itertools
import random

import pytest
from house_rulesets import THREE_WILD_CLASSES

from loba_dsl.cards.deck import Card
from loba_dsl.melds.matcher import CompiledShape, Matcher
from loba_dsl.rules.loading import loads

HOUSES = {
    "jokers-worth-more": """extends: mas-pagat
name: h1
deck: {jokers: 8}
values:
  on_table: |
    JOKER and wild -> 5
    wild and (high or as K Q J 10 9 8) -> 3
    wild -> 1
    A and (high or in set) -> 3
    A -> 1
    K Q J 10 9 8 -> 2
    _ -> 1
""",
    "three-wild-classes": THREE_WILD_CLASSES,
}


def permuting(self: Matcher, k: CompiledShape, cards: tuple[Card, ...], wild: list[int], wild_pos: list[int],
              stands: list[Card], highs: list[bool], order: list[int], clock: object = None) -> list[tuple[int, ...]]:
    """The old method: every distinct permutation of the wilds (one per sequence of card codes)."""
    if self.values is None or len(wild) < 2:
        return [tuple(wild)]
    seen: set[tuple[Card, ...]] = set()
    out = []
    for perm in itertools.permutations(wild):
        key = tuple(cards[i] for i in perm)
        if key not in seen:
            seen.add(key)
            out.append(perm)
    return out


def random_melds(m: Matcher, rng: random.Random, n: int) -> list[tuple[Card, ...]]:
    deck = m.deck
    wilds = [c for c in range(deck.n_codes) if m.always_wild[c] or m.maybe_wild[c]]
    out = []
    for _ in range(n):
        size = rng.randint(3, 8)
        s, r0 = rng.randrange(deck.n_suits), rng.randrange(deck.n_ranks)
        cards = [deck.code((r0 + i) % deck.n_ranks, s) for i in range(rng.randint(1, 3))]
        cards += [rng.choice(wilds) for _ in range(size - len(cards))]
        rng.shuffle(cards)
        out.append(tuple(cards))
    return out


@pytest.mark.parametrize("name", sorted(HOUSES))
def test_placing_wilds_agrees_with_every_permutation(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = loads(HOUSES[name])
    fast = Matcher(rs)
    melds = random_melds(fast, random.Random(f"wilds:{name}"), 400)
    got = [fast.match(c, reasons=False).best for c in melds]
    monkeypatch.setattr(Matcher, "_wild_orders", permuting)
    slow = Matcher(rs)
    want = [slow.match(c, reasons=False).best for c in melds]
    assert sum(r is not None for r in want) > 100  # the sample has many legal runs with several wilds
    assert sum(r is not None and r.wilds >= 3 for r in want) > 30
    for cards, a, b in zip(melds, got, want, strict=True):
        assert a == b, rs.deck.names_of(cards)
