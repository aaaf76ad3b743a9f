"""Typed stub of CandidateGenerator's live cards in C (native_live.c); its Python methods are the twin."""

from collections.abc import Callable, Sequence

MAX_RANKS: int
"""The most ranks a deck may have for the C tables (more: ``live_tables`` gives ``None``)."""
MAX_SUITS: int
"""The most suits a deck may have for the C tables (more: ``live_tables`` gives ``None``)."""

class LiveTables:
    """The live-card tables of one generator: answers as ``CandidateGenerator.live``, ``live_shape``, ``split``."""

    def live(self, cards: Sequence[int], /) -> tuple[int, ...]: ...
    def live_shape(self, cards: Sequence[int], /) -> tuple[int, ...] | None: ...
    def split(self, live: tuple[int, ...], /) -> tuple[tuple[tuple[int, ...], ...], int]: ...
    def scored_shape(self, cards: Sequence[int], values: tuple[int, ...], /) -> tuple[tuple[int, ...] | None, int]:
        """``(live_shape(cards), sum(values[c] for c in cards))`` (twin: ``scores.pure_scored_shape``)."""
    def key(self, cards: Sequence[int], /) -> tuple[int, ...] | None:
        """``SuitCanon.key(cards)`` (every card counted), or ``None`` for ``shape_limit`` cards or more."""
    def lookups(self) -> int:
        """How many run lookups (ranks held in one suit, wilds usable) the tables hold."""

def live_tables(
    n_ranks: int,
    n_suits: int,
    cards: tuple[tuple[int, int, bool, bool, int], ...],
    set_shapes: tuple[tuple[int, bool, int], ...],
    run_shapes: tuple[tuple[int, int, bool, tuple[tuple[int, int], ...]], ...],
    least_size: int,
    shape_limit: int,
    pure_live: Callable[[Sequence[int]], tuple[int, ...]],
    /,
) -> LiveTables | None: ...
