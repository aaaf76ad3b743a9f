"""Where a request's work runs, and for how long.

- **On the event loop**: only work whose cost is bounded and small (a shipped ruleset's meld of a few cards).
- **In a worker thread** (:class:`Threads`): the rest of the work under shipped rulesets (batches, sheets,
  games, small solves).  At most ``threads`` run at once and at most ``queue`` wait; past that a request is
  answered 503 with ``Retry-After`` at once.  A thread's work looks at its :class:`Deadline` between steps:
  past the request's budget, or once the client has gone, it stops.
- **In a solver process** (:mod:`loba_service.pool`): solves, and everything under a house ruleset (whose
  cost a client chooses): killed past its time budget, bounded in memory (``RLIMIT_AS``).

>>> d = Deadline(60.0)
>>> d.check()
>>> d.cancel()
>>> d.check()  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
loba_service.work.Stopped: the client went away
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

__all__ = ["Deadline", "Overloaded", "Stopped", "Threads", "until_disconnected", "watching"]

T = TypeVar("T")


class Stopped(Exception):
    """A request's work stopped: its budget ran out (``timeout``), or its client went away."""

    def __init__(self, message: str, *, timeout: bool) -> None:
        super().__init__(message)
        self.timeout = timeout


class Overloaded(Exception):
    """Every worker thread is busy and the queue is full."""


class Deadline:
    """A request's budget as the work sees it: ``check()`` raises :class:`Stopped` past it or once cancelled."""

    __slots__ = ("at", "cancelled", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def check(self) -> None:
        if self.cancelled:
            raise Stopped("the client went away", timeout=False)
        if time.monotonic() > self.at:
            raise Stopped(f"the request did not finish within its budget of {self.seconds * 1000:.0f} ms",
                          timeout=True)


class Threads:
    """A bounded pool of worker threads with a bounded queue (its own, not anyio's shared default)."""

    def __init__(self, threads: int, queue: int) -> None:
        self.threads = threads
        self.queue = queue
        self._limiter: anyio.CapacityLimiter | None = None

    def limiter(self) -> anyio.CapacityLimiter:
        if self._limiter is None:  # made on first use, inside the server's event loop
            self._limiter = anyio.CapacityLimiter(self.threads)
        return self._limiter

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        limiter = self.limiter()
        if limiter.available_tokens == 0 and limiter.statistics().tasks_waiting >= self.queue:
            raise Overloaded()
        return await anyio.to_thread.run_sync(fn, *args, limiter=limiter)

    def busy(self) -> int:
        return 0 if self._limiter is None else int(self._limiter.borrowed_tokens)


async def until_disconnected(receive: Callable[[], Awaitable[Any]]) -> None:
    """Return once the client has gone (``http.disconnect``); call it only after the body is read."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


async def watching(receive: Callable[[], Awaitable[Any]], work: Callable[[], Awaitable[T]],
                   deadline: Deadline | None = None) -> T:
    """``await work()``, cancelled (and ``deadline`` cancelled, for a thread's work) if the client goes first:
    a solver process working for nobody is stopped at once."""
    result: list[T] = []
    gone = False

    async with anyio.create_task_group() as tg:

        async def watch() -> None:
            nonlocal gone
            await until_disconnected(receive)
            gone = True
            if deadline is not None:
                deadline.cancel()
            tg.cancel_scope.cancel()

        tg.start_soon(watch)
        failed: BaseException | None = None
        try:
            result.append(await work())
        except Exception as e:  # raised below, as itself (not inside an exception group)
            failed = e
        finally:
            tg.cancel_scope.cancel()
    if failed is not None:
        raise failed
    if gone or not result:
        raise Stopped("the client went away", timeout=False)
    return result[0]
