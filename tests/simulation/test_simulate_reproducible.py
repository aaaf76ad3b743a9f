"""Seeded simulations reproduce exactly, whatever runs them: one process, two, or a Dask cluster.

Each game's seed comes from the run's seed and the game's index (a SHA-256, as
:func:`loba_dsl.simulation.game_seed` documents), and chunks come back in index order, so the report's
JSON is the same byte for byte.  The test can fail: another seed gives other figures.
"""

from __future__ import annotations

import hashlib
import json
import logging

import pytest

from loba_dsl.rules.loading import load
from loba_dsl.simulation import game_seed, simulate
from loba_dsl.simulation.executors import chunk_size

BOTS = ["greedy", "random"]


def _json(**kw: object) -> str:
    report = simulate(load("menos"), games=4, bots=BOTS, seed=21, match=False, **kw)  # type: ignore[arg-type]
    return json.dumps(report.to_dict(), sort_keys=True)


@pytest.fixture(scope="module")
def one_process() -> str:
    return _json(workers=1)


def test_the_game_seed_is_the_documented_hash() -> None:
    want = int.from_bytes(hashlib.sha256(b"loba-sim:21:5").digest()[:8], "big")
    assert game_seed(21, 5) == want
    assert len({game_seed(21, i) for i in range(100)}) == 100


def test_one_and_two_worker_processes_give_the_same_figures(one_process: str) -> None:
    assert _json(workers=2) == one_process
    other = json.dumps(simulate(load("menos"), games=4, bots=BOTS, seed=22, match=False, workers=1).to_dict(),
                       sort_keys=True)
    assert other != one_process


def test_a_dask_cluster_gives_the_same_figures(one_process: str) -> None:
    distributed = pytest.importorskip("distributed")
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # dask/distributed#7105's heartbeat noise at exit
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None,
                                  protocol="tcp", host="127.0.0.1") as cluster:
        got = _json(executor="dask", address=cluster.scheduler_address)
    assert got == one_process


def test_chunks_cost_at_least_the_target_and_leave_every_worker_several() -> None:
    # 0.03 s a game: a second of work is 34 games, but 100 games over 2 workers make chunks of 13 (4 each)
    assert chunk_size(100, 2, 0.03) == 13
    assert chunk_size(10_000, 2, 0.03) == 34
    assert chunk_size(3, 8, 5.0) == 1
