"""Typed stub of the C kernels (native_packing.c); loba_dsl.solver.packing is their pure-Python twin."""

from collections.abc import Callable, Sequence

MAX_BITS: int
"""The widest key (and the most cards of a bitmask) the kernels take; wider: ``None``."""

class BitmaskSearch:
    """A memoised search over the bitmask of free cards; one memo across calls."""

    def __call__(self, free: int) -> int: ...

def plain_search(
    key: int,
    bits: int,
    by_first: Sequence[Sequence[tuple[int, int, int]]],
    tick: Callable[[int], object] | None = None,
    max_states: int = 0,
    /,
) -> tuple[int, list[int]] | None: ...
def bitmask_search(
    n: int,
    by_low: Sequence[Sequence[tuple[int, int]]],
    tick: Callable[[int], object] | None = None,
) -> BitmaskSearch | None: ...
def plain_search_melds(
    cards: Sequence[int],
    raw: Sequence[tuple[tuple[int, ...], int]],
    position: tuple[int, ...],
    joker: int,
    pooled: frozenset[int],
    tick: Callable[[int], object] | None = None,
    /,
) -> tuple[int, list[int]] | None: ...
