"""What a compiled shape lets a meld span: its run windows (the ranks in order, the ace low, high or round
the corner, a run of that shape may lie on) and the most wilds a meld of it may hold.

Pure functions of a shape and the deck's ranks, read once per
:class:`~loba_dsl.solver.candidates.CandidateGenerator`: its candidate melds and
the live cards of a hand are read off these windows.
"""

from __future__ import annotations

from collections.abc import Iterator

from loba_dsl.melds.matcher import CompiledShape

__all__ = ["RunWindow", "rank_at", "run_windows", "wild_limit", "window_positions"]

RunWindow = tuple[int, tuple[int, ...], int]
"""A run window: its size, the rank at each position, and the bitmask of its ranks."""


def wild_limit(shape: CompiledShape) -> int:
    """The most wilds a meld of this shape may hold (its size limit and its ``wilds`` limits)."""
    limit = shape.hi
    for counter, op, v, _ in shape.limits:
        if counter == "wilds":
            if op in ("<=", "=="):
                limit = min(limit, v)
            elif op == "<":
                limit = min(limit, v - 1)
    return max(0, limit)


def window_positions(shape: CompiledShape, n_ranks: int, ace: int | None) -> Iterator[list[int]]:
    """Position lists of every run window of an allowed size (positions past ``n_ranks - 1`` are the high ace)."""
    R = n_ranks
    hi = min(shape.hi, R)
    if shape.ace == "wrap":
        for size in range(shape.lo, hi + 1):
            for start in range(R if size < R else 1):
                yield [start + i for i in range(size)]
        return
    mappings = {"low": (False,), "high": (True,), "either": (False, True)}.get(shape.ace, (False,))
    seen: set[tuple[int, int]] = set()
    for high in mappings if ace is not None else (False,):
        lo_bound = 1 if (high and ace == 0) else 0
        hi_bound = R if high else R - 1
        for size in range(shape.lo, hi + 1):
            for start in range(lo_bound, hi_bound - size + 2):
                if (start, size) not in seen:
                    seen.add((start, size))
                    yield list(range(start, start + size))


def rank_at(position: int, shape: CompiledShape, n_ranks: int, ace: int | None) -> int:
    """The rank at a window position (round the corner where the ace wraps; ``n_ranks`` is the high ace)."""
    if shape.ace == "wrap":
        return position % n_ranks
    if position == n_ranks:
        assert ace is not None
        return ace
    return position


def run_windows(shape: CompiledShape, n_ranks: int, ace: int | None) -> list[RunWindow]:
    """Every distinct run window of a run shape, smallest first."""
    found: dict[tuple[int, ...], RunWindow] = {}
    for positions in window_positions(shape, n_ranks, ace):
        ranks = tuple(rank_at(p, shape, n_ranks, ace) for p in positions)
        found[ranks] = (len(ranks), ranks, sum(1 << r for r in set(ranks)))
    return sorted(found.values(), key=lambda w: w[0])
