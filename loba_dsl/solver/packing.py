"""The solver's packing-search kernels: the best total gain of disjoint melds drawn from a hand.

Two memoised searches, each the inner loop of :class:`~loba_dsl.solver.api.Solver`:

* :func:`plain_search` over a *packed count key*: field ``i`` (``bits`` bits wide, the top
  bit a guard) holds how many copies of card ``i`` are free; a meld fits when subtracting
  its count vector leaves every guard bit set in ``key | guard``.  The first free card is
  kept in hand first, then each of its melds is tried in the order given; a value replaces
  the best only when strictly greater, so the first of equal values is kept.
* :func:`bitmask_search` over the bitmask of free cards (every card distinct), the same way.

Each has a C twin in :mod:`loba_dsl.solver.native_packing` (built from
``native_packing.c`` when a compiler is present) that gives identical answers and counts
the same search states against the budget's clock, in bulk.  :data:`NATIVE` says whether
the C kernels are in use: they are when the extension imports and the environment
variable ``LOBA_DSL_PURE`` is not ``1``.  Keys wider than the C kernels take (127 bits)
fall back to the Python kernels.

>>> plain_search(0b01_01, 2, [[(0b01_01, 5, 0)], []])  # two cards, one meld of both (gain 5)
(5, [0])
>>> bitmask_search(2, [[(0b11, 5)], []])(0b11)
5
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from loba_dsl.budget import Clock
from loba_dsl.solver.natives import PURE

__all__ = ["NATIVE", "NATIVE_PLAIN_SEARCH_MELDS", "bitmask_search", "plain_search", "plain_search_melds",
           "pure_bitmask_search", "pure_plain_search"]

PlainOptions = Sequence[Sequence[tuple[int, int, int]]]
"""For each field, the melds whose first field it is: ``(delta, gain, place)``, in the order tried."""

BitmaskOptions = Sequence[Sequence[tuple[int, int]]]
"""For each card, the melds whose lowest card it is: ``(mask, gain)``, in the order tried."""

try:
    from loba_dsl.solver import native_packing as _native
except ImportError:  # no compiler where it was installed: the Python kernels answer alone
    _native = None  # type: ignore[assignment]

NATIVE: bool = _native is not None and not PURE
"""Whether :func:`plain_search` and :func:`bitmask_search` run the C kernels."""

NATIVE_PLAIN_SEARCH_MELDS: Callable[..., tuple[int, list[int]] | None] | None = (
    _native.plain_search_melds if NATIVE else None)
"""The C kernel of :func:`plain_search_melds` itself, for another C kernel to call (``None``: not in use)."""


def pure_plain_search(key: int, bits: int, by_first: PlainOptions,
                      clock: Clock | None = None) -> tuple[int, list[int]]:
    """The best total gain from ``key``'s free cards, and the places of the melds chosen (Python).

    One ``clock`` step per search state (a memo miss).
    """
    unit = [1 << (bits * i) for i in range(len(by_first))]
    guard = sum(u << (bits - 1) for u in unit)
    memo: dict[int, tuple[int, int, int]] = {0: (0, -1, 0)}

    def solve(key: int) -> int:
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        if clock is not None:
            clock.tick()
        i = ((key & -key).bit_length() - 1) // bits
        best = solve(key - unit[i])
        choice, step = -1, unit[i]
        fit = key | guard
        for delta, g, j in by_first[i]:
            if (fit - delta) & guard == guard:
                value = g + solve(key - delta)
                if value > best:
                    best, choice, step = value, j, delta
        memo[key] = (best, choice, step)
        return best

    best = solve(key)
    chosen: list[int] = []
    while key:
        _, choice, step = memo[key]
        if choice >= 0:
            chosen.append(choice)
        key -= step
    return best, chosen


def pure_bitmask_search(n: int, by_low: BitmaskOptions, clock: Clock | None = None) -> Callable[[int], int]:
    """The best total gain of any mask of free cards among ``n`` (Python); one memo across calls."""
    del n  # the options say it all; the C kernel needs the width
    memo: dict[int, int] = {0: 0}

    def solve(free: int) -> int:
        hit = memo.get(free)
        if hit is not None:
            return hit
        if clock is not None:
            clock.tick()
        low = free & -free
        best = solve(free ^ low)
        for mask, g in by_low[low.bit_length() - 1]:
            if mask & free == mask:
                value = g + solve(free ^ mask)
                if value > best:
                    best = value
        memo[free] = best
        return best

    return solve


def plain_search(key: int, bits: int, by_first: PlainOptions,
                 clock: Clock | None = None) -> tuple[int, list[int]]:
    """As :func:`pure_plain_search`, by the C kernel when :data:`NATIVE` and the key fits it."""
    if NATIVE:
        found = _native.plain_search(
            key, bits, by_first, None if clock is None else clock.tick)
        if found is not None:
            return found
    return pure_plain_search(key, bits, by_first, clock)


def bitmask_search(n: int, by_low: BitmaskOptions, clock: Clock | None = None) -> Callable[[int], int]:
    """As :func:`pure_bitmask_search`, by the C kernel when :data:`NATIVE` and ``n`` cards fit it."""
    if NATIVE:
        solver = _native.bitmask_search(n, by_low, None if clock is None else clock.tick)
        if solver is not None:
            return solver
    return pure_bitmask_search(n, by_low, clock)


def plain_search_melds(cards: Sequence[int], raw: Sequence[tuple[tuple[int, ...], int]], position: tuple[int, ...],
                       joker: int, pooled: frozenset[int], clock: Clock | None = None) -> tuple[int, list[int]] | None:
    """The plain search of melds ``raw`` within ``cards``, its fields and options built by the C kernel too.

    ``None`` where the C kernels are not in use or the key does not fit them: the caller builds the
    fields itself (``Searches.plain_search``, whose order this follows) and calls :func:`plain_search`.
    """
    if not NATIVE:
        return None
    return _native.plain_search_melds(cards, raw, position, joker, pooled, None if clock is None else clock.tick)
