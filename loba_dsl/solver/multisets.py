"""Multisets of cards as sorted tuples, and the few operations the solver needs on them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from loba_dsl.cards.deck import Card

__all__ = ["Multiset", "combos", "minus_all", "submultisets"]

Multiset = tuple[Card, ...]
"""A multiset of card codes: a tuple, sorted in the solver's processing order where it is a key."""


def minus_all(cards: Sequence[Card], melds: Sequence[Sequence[Card]]) -> Multiset:
    """``cards`` less every card of ``melds`` (one copy per occurrence)."""
    out = list(cards)
    for m in melds:
        for c in m:
            out.remove(c)
    return tuple(out)


def submultisets(items: list[tuple[Card, int]], max_size: int) -> Iterator[Multiset]:
    """Every sub-multiset of ``items`` (code, count) with at most ``max_size`` cards."""

    def rec(i: int, room: int) -> Iterator[Multiset]:
        if i == len(items):
            yield ()
            return
        code, n = items[i]
        for take in range(min(n, room) + 1):
            for rest in rec(i + 1, room - take):
                yield (code,) * take + rest

    yield from rec(0, max(0, max_size))


def combos(pool: list[tuple[Card, int]], size: int, exclude: Sequence[Card] = ()) -> Iterator[Multiset]:
    """Every multiset of ``size`` cards from ``pool``, less the copies already used in ``exclude``."""
    if size == 0:
        yield ()
        return
    used = Counter(exclude)
    avail = [(c, n - used[c]) for c, n in pool if n - used[c] > 0]

    def rec(i: int, room: int) -> Iterator[Multiset]:
        if room == 0:
            yield ()
            return
        if i == len(avail):
            return
        code, n = avail[i]
        for take in range(min(n, room), -1, -1):
            for rest in rec(i + 1, room - take):
                yield (code,) * take + rest

    yield from rec(0, size)
