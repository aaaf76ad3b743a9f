"""Where a simulation's chunks run: this process, a pool of processes, or a Dask cluster.

A chunk is a run of consecutive game indices; its result depends on nothing but the indices and the run's
seed (:func:`~loba_dsl.simulation.games.game_seed`), and the results are put back in index order, so
neither the executor nor the number of workers nor the chunk size changes a figure.

- ``processes`` (the default): a :class:`~concurrent.futures.ProcessPoolExecutor` of ``workers``
  processes (all cores by default); one worker runs in this process.
- ``dask``: an existing Dask cluster, through ``distributed.Client(address)`` (the optional extra
  ``loba-dsl[cluster]``; imported only here).  Its workers need loba-dsl installed.  Dask spends a few
  milliseconds per task, so chunks are sized to take a second or more (:func:`chunk_size`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from loba_dsl.errors import InputError

__all__ = ["EXECUTORS", "chunk_size", "run_chunks"]

EXECUTORS = ("processes", "dask")
J = TypeVar("J")
R = TypeVar("R")


def chunk_size(games: int, workers: int, seconds_per_game: float, *, target: float = 1.0) -> int:
    """Games per chunk: at least ``target`` seconds of work each (a Dask task costs ~1-5 ms: under 1%),
    and enough chunks for every worker to get four or more (so none waits long on the last)."""
    by_time = max(1, math.ceil(target / max(seconds_per_game, 1e-6)))
    by_balance = max(1, math.ceil(games / max(1, 4 * workers)))
    return max(1, min(by_time, by_balance))


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_chunks(fn: Callable[[J], R], jobs: Sequence[J], *, executor: str = "processes", workers: int | None = None,
               address: str | None = None, progress: Callable[[int], None] | None = None) -> list[R]:
    """``fn`` of every job, in the jobs' order (``progress(i)``: job ``i`` is done, in the order they finish)."""
    if executor not in EXECUTORS:
        raise InputError(f"no executor is called '{executor}': one of {', '.join(EXECUTORS)}")
    if executor == "dask":
        return _dask(fn, jobs, address, progress)
    if address is not None:
        raise InputError("--address names a Dask scheduler: give it with --executor dask")
    workers = cores() if workers is None else workers
    if workers < 1:
        raise InputError(f"workers must be 1 or more, not {workers}")
    results: list[Any] = [None] * len(jobs)
    if workers == 1 or len(jobs) <= 1:
        for i, job in enumerate(jobs):
            results[i] = fn(job)
            if progress is not None:
                progress(i)
        return results
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        futures = {pool.submit(fn, job): i for i, job in enumerate(jobs)}
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            if progress is not None:
                progress(i)
    return results


def _dask(fn: Callable[[J], R], jobs: Sequence[J], address: str | None,
          progress: Callable[[int], None] | None) -> list[R]:
    if not address:
        raise InputError("--executor dask needs the scheduler's address: --address tcp://HOST:8786")
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise InputError("--executor dask needs the 'distributed' package, which is not installed",
                         hint="pip install 'loba-dsl[cluster]'") from None
    try:
        client = Client(address, timeout="10s", set_as_default=False)  # type: ignore[no-untyped-call]
    except OSError as e:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    with client:
        futures = client.map(fn, list(jobs), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        if progress is not None:
            for fut in dask_completed(futures):  # type: ignore[no-untyped-call]
                progress(index[fut.key])
        results: list[R] = client.gather(futures)  # type: ignore[no-untyped-call]
    return list(results)
