"""Budgets for searches: a time limit (and optionally a step limit) that every search obeys.

A search that could take long (the solver's arrangements, the matcher's
readings of many wild cards) takes a ``budget``: a :class:`Budget`, a number
of seconds, or ``None`` for :data:`DEFAULT_BUDGET`.  When the budget runs
out the search raises :class:`~loba_dsl.errors.BudgetExceeded`; it never
returns a partial answer as if it were exact, and it never hangs.

>>> Budget(seconds=2.5).seconds
2.5
>>> as_budget(3).seconds
3.0
>>> clock = Budget(steps=3).start("a search")
>>> clock.tick(); clock.tick()
>>> clock.tick()  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
loba_dsl.errors.BudgetExceeded: error: a search stopped at its budget of 3 steps ...
"""

from __future__ import annotations

import math
import time

from loba_dsl.errors import BudgetExceeded, InputError

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    from loba_dsl.frozen import dataclass  # cheaper at import (issue 11)

__all__ = ["DEFAULT_BUDGET", "UNLIMITED", "Budget", "BudgetLike", "Clock", "as_budget"]

_CHECK_EVERY = 256
"""Steps between two looks at the clock (reading it costs more than a step)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search may run: ``seconds`` of wall-clock time and/or ``steps`` of work (``None``: no limit).

    Steps count search states and matcher readings: a step budget gives the
    same outcome on every machine (for tests); a time budget is what people ask for.
    """

    seconds: float | None = None
    steps: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None and not (self.seconds > 0 and math.isfinite(self.seconds)):
            raise InputError(f"a time limit must be a positive number of seconds, not {self.seconds!r}")
        if self.steps is not None and self.steps <= 0:
            raise InputError(f"a step limit must be positive, not {self.steps!r}")

    def start(self, what: str) -> Clock:
        """A running clock for one search (``what`` names it in the error)."""
        return Clock(self, what)


BudgetLike = Budget | float | int | None
"""What a ``budget=`` argument takes: a :class:`Budget`, seconds, or ``None`` (the default budget)."""

DEFAULT_BUDGET = Budget(seconds=60.0)
"""The library's budget when a call names none: a minute per search (the CLI uses 10 s: ``--time-limit``)."""

UNLIMITED = Budget()
"""No limit at all (a search may then run as long as it needs)."""


def as_budget(budget: BudgetLike) -> Budget:
    """``budget`` as a :class:`Budget` (seconds become a time limit; ``None`` is :data:`DEFAULT_BUDGET`)."""
    if budget is None:
        return DEFAULT_BUDGET
    if isinstance(budget, Budget):
        return budget
    if isinstance(budget, bool) or not isinstance(budget, int | float):
        raise TypeError(f"budget must be a Budget or a number of seconds, not {type(budget).__name__}")
    return Budget(seconds=float(budget))


class Clock:
    """One search's running budget: :meth:`tick` once per step; it raises when the budget is spent."""

    __slots__ = ("_deadline", "_granted", "_left", "_steps", "budget", "what")

    def __init__(self, budget: Budget, what: str) -> None:
        self.budget = budget
        self.what = what
        self._deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        self._steps = budget.steps
        self._granted = self._left = _CHECK_EVERY if self._steps is None else min(_CHECK_EVERY, self._steps)

    def tick(self, n: int = 1) -> None:
        """Count ``n`` steps of work (cheap: the clock is read every few hundred steps)."""
        self._left -= n
        if self._left <= 0:
            self._check()

    def _check(self) -> None:
        if self._steps is not None:
            self._steps -= self._granted - self._left  # the steps taken since the last look
            if self._steps <= 0:
                self._stop(f"{self.budget.steps} steps")
        if self._deadline is not None and time.monotonic() > self._deadline:
            self._stop(f"{self.budget.seconds:g} s")
        self._granted = self._left = _CHECK_EVERY if self._steps is None else min(_CHECK_EVERY, self._steps)

    def _stop(self, limit: str) -> None:
        raise BudgetExceeded(
            f"{self.what} stopped at its budget of {limit} without an exact answer",
            hint="give it more time (--time-limit SECONDS, or budget= in the library)")
