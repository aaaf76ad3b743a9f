"""One public call of the solver: its budget's clock (shared by nested calls), bounded caches, no cyclic GC.

Every part of the solver (:mod:`~loba_dsl.solver.meld_gains`,
:mod:`~loba_dsl.solver.scores`, :mod:`~loba_dsl.solver.arranging`,
:mod:`~loba_dsl.solver.discards`, :mod:`~loba_dsl.solver.openings`) runs its
work inside :meth:`Calls.running` of the one :class:`Calls` they share, and
reads the running clock from :attr:`Calls.clock`.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from contextlib import AbstractContextManager
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

    def running(self, budget: BudgetLike | Clock, what: str) -> AbstractContextManager[Clock]:
        """One public call: its clock (shared with nested calls), bounded caches, no cyclic GC.

        A search allocates tens of thousands of short-lived, acyclic objects; with
        the solver's caches making the heap large, the collector's scans cost up to
        a quarter of a slow hand's time and collect nothing.  Reference counting
        still frees everything; the collector is back on when the call returns.
        (A class rather than a generator: a best score opens one for each hand it
        has not met, and this costs half as much.)
        """
        return _Running(self, budget, what)


class _Running:
    """The context of :meth:`Calls.running`."""

    __slots__ = ("budget", "calls", "nested", "paused", "what")

    def __init__(self, calls: Calls, budget: BudgetLike | Clock, what: str) -> None:
        self.calls, self.budget, self.what = calls, budget, what
        self.nested = self.paused = False

    def __enter__(self) -> Clock:
        calls = self.calls
        if calls.clock is not None:  # called from another call of this solver: its budget holds
            self.nested = True
            return calls.clock
        budget = self.budget
        clock = budget if isinstance(budget, Clock) else (
            calls.budget if budget is None else as_budget(budget)).start(self.what)
        if sum(map(len, calls._readings)) > CACHE_LIMIT:
            for cache in calls._readings:
                cache.clear()
        if sum(map(len, calls._values)) > VALUE_CACHE_LIMIT:
            for cache in calls._values:
                cache.clear()
        self.paused = gc.isenabled()
        if self.paused:
            gc.disable()
        calls.clock = clock
        return clock

    def __exit__(self, *exc: object) -> None:
        if self.nested:
            return
        calls = self.calls
        calls.clock = None
        try:
            for forget in calls._after:
                forget()
        finally:
            if self.paused:
                gc.enable()
