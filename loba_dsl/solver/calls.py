"""One public call of the solver: its budget's clock (shared by nested calls), bounded caches, no cyclic GC.

Every part of the solver (:mod:`~loba_dsl.solver.meld_gains`,
:mod:`~loba_dsl.solver.scores`, :mod:`~loba_dsl.solver.arranging`,
:mod:`~loba_dsl.solver.discards`, :mod:`~loba_dsl.solver.openings`) runs its
work inside :meth:`Calls.running` of the one :class:`Calls` they share, and
reads the running clock from :attr:`Calls.clock`.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from loba_dsl.budget import Budget, BudgetLike, Clock, as_budget

__all__ = ["CACHE_LIMIT", "VALUE_CACHE_LIMIT", "Calls"]

CACHE_LIMIT = 20_000
"""Entries the solver's caches of readings may hold; past it they are emptied before the next hand.

Long batches (20,000 hands) would otherwise grow memory without bound; a
meld's reading is cheap to work out again.
"""

VALUE_CACHE_LIMIT = 200_000
"""Entries the solver's caches of plain numbers (a meld's gain, a hand's best gain) may hold.

A number costs a few dozen bytes where a reading costs hundreds, and a large
hand (25 cards, many wilds) has thousands of candidate melds: a bound this
size keeps a batch's memory flat (tens of MiB) while a hand's melds stay
known from one hand to the next.
"""


class Calls:
    """The solver's running call (its clock) and the caches it bounds between calls."""

    def __init__(self, budget: BudgetLike = None) -> None:
        self.budget: Budget = as_budget(budget)
        """Each call's budget unless the call names its own (default :data:`~loba_dsl.budget.DEFAULT_BUDGET`)."""
        self.clock: Clock | None = None
        """The running call's clock (a nested call shares it); ``None`` between calls."""
        self._readings: list[dict[Any, Any]] = []
        self._values: list[dict[Any, Any]] = []
        self._after: list[Callable[[], None]] = []

    def readings(self, cache: dict[Any, Any]) -> dict[Any, Any]:
        """Bound ``cache`` (of readings, hundreds of bytes an entry) with the others by :data:`CACHE_LIMIT`."""
        self._readings.append(cache)
        return cache

    def values(self, cache: dict[Any, Any]) -> dict[Any, Any]:
        """Bound ``cache`` (of plain numbers) with the others by :data:`VALUE_CACHE_LIMIT`."""
        self._values.append(cache)
        return cache

    def after_each(self, forget: Callable[[], None]) -> None:
        """Call ``forget`` when each public call ends (what one call keeps for itself)."""
        self._after.append(forget)

    def clear(self) -> None:
        """Empty every cache (the answers stay the same; they are worked out again)."""
        for cache in (*self._readings, *self._values):
            cache.clear()

    @contextmanager
    def running(self, budget: BudgetLike | Clock, what: str) -> Iterator[Clock]:
        """One public call: its clock (shared with nested calls), bounded caches, no cyclic GC.

        A search allocates tens of thousands of short-lived, acyclic objects; with
        the solver's caches making the heap large, the collector's scans cost up to
        a quarter of a slow hand's time and collect nothing.  Reference counting
        still frees everything; the collector is back on when the call returns.
        """
        if self.clock is not None:  # called from another call of this solver: its budget holds
            yield self.clock
            return
        clock = budget if isinstance(budget, Clock) else (
            self.budget if budget is None else as_budget(budget)).start(what)
        if sum(map(len, self._readings)) > CACHE_LIMIT:
            for cache in self._readings:
                cache.clear()
        if sum(map(len, self._values)) > VALUE_CACHE_LIMIT:
            for cache in self._values:
                cache.clear()
        paused = gc.isenabled()
        if paused:
            gc.disable()
        self.clock = clock
        try:
            yield clock
        finally:
            self.clock = None
            for forget in self._after:
                forget()
            if paused:
                gc.enable()
