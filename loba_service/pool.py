"""Solver processes: CPU-heavy calls (arrange, diff) run here, never on the event loop, each under a
time budget.

Each solver is a long-lived process (``python -m loba_service.jobs``, a fresh interpreter that shares
nothing with the server's threads) that reads one job at a time from a pipe.  A call waits for a free
solver (at most ``queue_wait``: then :class:`Busy`), sends the job, and waits for the answer at most its
budget: past it the solver process is killed and replaced, and the call raises :class:`BudgetExceeded`.
So a slow solve never holds a solver, a thread or the event loop past its budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing.connection
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread

__all__ = ["BudgetExceeded", "Busy", "OutOfMemory", "SolverPool", "WorkerCrashed"]


class BudgetExceeded(Exception):
    """The job did not finish within its budget (the solver process was stopped)."""

    def __init__(self, budget: float) -> None:
        super().__init__(f"the solver did not finish within its budget of {budget * 1000:.0f} ms")
        self.budget = budget


class Busy(Exception):
    """Every solver stayed busy for longer than the queue wait."""


class OutOfMemory(Exception):
    """The job passed the solver process's memory limit (the process was replaced)."""


class WorkerCrashed(Exception):
    """A solver process died while working (a bug, or the machine ran out of memory)."""


@dataclass(eq=False)
class _Worker:
    process: subprocess.Popen[bytes]
    to: multiprocessing.connection.Connection
    back: multiprocessing.connection.Connection

    def alive(self) -> bool:
        return self.process.poll() is None


class SolverPool:
    """``size`` solver processes, started on first use (or by :meth:`start`)."""

    def __init__(self, size: int, *, queue_wait: float = 10.0, memory_mb: int = 0) -> None:
        self.size = size
        self.memory_mb = memory_mb
        """Address-space limit of each solver process, MiB (0: none)."""
        self.queue_wait = queue_wait
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._start_lock = threading.Lock()
        self._sem: asyncio.Semaphore | None = None
        self._sem_loop: asyncio.AbstractEventLoop | None = None
        self._started = False
        self.killed = 0
        """How many solver processes were stopped past their budget."""

    # ------------------------------------------------------------ processes

    def _spawn(self) -> _Worker:
        down_r, down_w = os.pipe()  # server -> solver
        up_r, up_w = os.pipe()  # solver -> server
        try:
            p = subprocess.Popen([sys.executable, "-m", "loba_service.jobs", str(down_r), str(up_w),
                                  str(self.memory_mb)],
                                 pass_fds=(down_r, up_w), stdin=subprocess.DEVNULL, close_fds=True)
        finally:
            os.close(down_r)
            os.close(up_w)
        w = _Worker(p, multiprocessing.connection.Connection(down_w, readable=False),
                    multiprocessing.connection.Connection(up_r, writable=False))
        with self._lock:
            self._all.append(w)
        return w

    def _ready(self, w: _Worker, timeout: float = 60.0) -> bool:
        """Wait for the solver's 'ready' message (it has imported the engine)."""
        if w.back.poll(timeout):
            try:
                return bool(w.back.recv() == "ready")
            except (EOFError, OSError):
                return False
        return False

    def start(self) -> None:
        """Start every solver now and wait until they are ready (blocking: call it off the event loop).
        Callers that come while another is starting them wait for it."""
        with self._start_lock:
            if self._started:
                return
            fresh = [self._spawn() for _ in range(self.size)]
            for w in fresh:
                if self._ready(w):
                    with self._lock:
                        self._idle.append(w)
                else:
                    self._stop(w)
            self._started = True

    def alive(self) -> int:
        with self._lock:
            return sum(1 for w in self._all if w.alive())

    def _stop(self, w: _Worker) -> None:
        if w.alive():
            with contextlib.suppress(OSError):
                w.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            w.process.wait(5)
        for conn in (w.to, w.back):
            with contextlib.suppress(OSError):
                conn.close()
        with self._lock:
            if w in self._all:
                self._all.remove(w)
            if w in self._idle:
                self._idle.remove(w)

    def close(self) -> None:
        """Stop every solver (asking first, then killing those that do not stop)."""
        with self._lock:
            workers = list(self._all)
            self._idle.clear()
            self._started = False
        for w in workers:
            with contextlib.suppress(OSError, ValueError):
                w.to.send(None)
        deadline = time.monotonic() + 2
        for w in workers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                w.process.wait(max(0.01, deadline - time.monotonic()))
            self._stop(w)

    # ------------------------------------------------------------ calls

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._sem is None or self._sem_loop is not loop:
            self._sem = asyncio.Semaphore(self.size)
            self._sem_loop = loop
        return self._sem

    async def run(self, job: str, args: tuple[Any, ...], budget: float) -> Any:
        """Run ``jobs.<job>(*args)`` in a solver within ``budget`` seconds; its result, or the library
        error it raised (re-raised here), or :class:`BudgetExceeded` / :class:`Busy` / :class:`OutOfMemory`.

        The answer is awaited on the event loop (a reader on the solver's pipe, no thread held); a call
        cancelled while its job runs (the client went away) stops that solver process and starts another."""
        if not self._started:
            await anyio.to_thread.run_sync(self.start)
        sem = self._semaphore()
        try:
            await asyncio.wait_for(sem.acquire(), self.queue_wait)
        except TimeoutError:
            raise Busy() from None
        try:
            w = await self._take()
            return await self._call(w, job, args, budget)
        finally:
            sem.release()

    async def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                w = self._idle.pop()
                if w.alive():
                    return w
                self._stop(w)
        # A solver was stopped and not yet replaced: start one (off the loop).
        w = await anyio.to_thread.run_sync(self._spawn)
        if not await anyio.to_thread.run_sync(self._ready, w):
            self._stop(w)
            raise WorkerCrashed("a solver process did not start")
        return w

    async def _call(self, w: _Worker, job: str, args: tuple[Any, ...], budget: float) -> Any:
        try:
            w.to.send((job, args))
        except (OSError, ValueError, EOFError):
            self._replace(w)
            raise WorkerCrashed("the solver process went away") from None
        try:
            done = await _readable(w.back, budget)
        except BaseException:  # cancelled (the client went away, the server stops): the job must not go on
            self._replace(w)
            raise
        if not done:
            self.killed += 1
            self._replace(w)
            raise BudgetExceeded(budget)
        try:
            status, value = w.back.recv()
        except (EOFError, OSError):
            self._replace(w)
            raise WorkerCrashed("the solver process went away") from None
        if status == "memory":  # the process hit its address-space limit; it exits, a fresh one replaces it
            self.killed += 1
            self._replace(w)
            raise OutOfMemory(str(value))
        with self._lock:
            self._idle.append(w)
        if status == "ok":
            return value
        if status == "error":
            raise _rebuild(value)
        if status == "service":
            from loba_service.problems import ServiceError

            status_code, slug, title, detail, errors, spoken = value
            raise ServiceError(status_code, slug, title, detail, errors, spoken=spoken)
        raise WorkerCrashed(str(value))

    def _replace(self, w: _Worker) -> None:
        """Kill ``w`` and start a fresh solver in the background (it joins the idle list when ready).
        Nothing here waits: it may run on the event loop."""
        if w.alive():
            with contextlib.suppress(OSError):
                w.process.kill()
        with self._lock:
            if w in self._all:
                self._all.remove(w)
            if w in self._idle:
                self._idle.remove(w)

        def fresh() -> None:
            self._stop(w)  # reap it and close its pipes
            n = self._spawn()
            if self._ready(n):
                with self._lock:
                    if self._started and len(self._all) <= self.size:
                        self._idle.append(n)
                        return
            self._stop(n)

        threading.Thread(target=fresh, daemon=True, name="loba-solver-restart").start()


def _rebuild(value: Any) -> Exception:
    from loba_service.jobs import JobError

    return JobError(value)


async def _readable(conn: multiprocessing.connection.Connection, timeout: float) -> bool:
    """Wait (on the event loop, no thread) until ``conn`` has data or its other end closed; False past
    ``timeout`` seconds."""
    if conn.poll(0):
        return True
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    fd = conn.fileno()

    def wake() -> None:
        if not ready.done():
            ready.set_result(True)

    loop.add_reader(fd, wake)
    try:
        try:
            await asyncio.wait_for(ready, timeout)
        except TimeoutError:
            return False
        return True
    finally:
        loop.remove_reader(fd)
