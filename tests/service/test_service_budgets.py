"""Every request's work is bounded: a solver process's memory, a worker pool's queue, a body's nesting depth."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_service import assert_problem, run_in_own_loop

from loba_service import Limits, create_app

RECORD: dict[str, Any] = {"format": "loba-record/1", "ruleset": "menos", "players": ["Ana", "Beto"],
                          "dealer": "Beto", "rounds": []}
MOVE = {"op": "draw", "player": "Ana", "from": "stock"}


def test_a_solver_past_its_memory_limit_is_replaced() -> None:
    """A job that needs more memory than the solver process's limit is refused (OutOfMemory, a 422 in the
    service) and the process is replaced: the next job is answered."""
    from loba_service.pool import OutOfMemory, SolverPool

    pool = SolverPool(1, memory_mb=400)

    async def run() -> None:
        assert await pool.run("hog", (10,), 30.0) == 10 * 1_048_576
        with pytest.raises(OutOfMemory):
            await pool.run("hog", (800,), 30.0)
        assert await pool.run("ping", (0.0,), 30.0) == "pong"

    try:
        run_in_own_loop(run)
    finally:
        pool.close()
    assert pool.alive() == 0


def test_worker_threads_past_the_queue_are_overloaded() -> None:
    """One worker thread, no queue: a second call while the first runs is refused at once (a 503 in the service)."""
    import anyio

    from loba_service.work import Overloaded, Threads

    pool = Threads(1, 0)
    release = threading.Event()

    async def run() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(pool.run, release.wait)
            await anyio.sleep(0.2)
            with pytest.raises(Overloaded):
                await pool.run(lambda: None)
            release.set()

    run_in_own_loop(run)


def test_overloaded_service_answers_503_with_retry_after() -> None:
    """With every worker thread busy and the queue full, a request is a 503 problem with Retry-After."""
    from loba_service.work import Threads

    app = create_app(Limits(threads=1, queue=1))
    svc = app.state.service

    class Full(Threads):
        async def run(self, fn: Any, *args: Any) -> Any:
            from loba_service.work import Overloaded

            raise Overloaded()

    svc.threads = Full(1, 1)
    r = TestClient(app).post("/v1/score/round", json={"players": [{"name": "Ana", "hand": "A♣"}]})
    assert_problem(r, 503, "busy")
    assert r.headers["retry-after"] == "1"


@pytest.mark.parametrize("depth", [40, 900, 5_000])
@pytest.mark.parametrize("path", ["/v1/games/check", "/v1/games/play", "/v1/games/legal", "/v1/games/deal"])
def test_deeply_nested_records_are_refused(path: str, depth: int) -> None:
    """A record whose rounds nest deeper than any record (a round needs 3 levels), within or past what the
    decoder reads at all, is a 422 problem."""
    nested: Any = []
    for _ in range(depth - 1 if depth < 500 else 0):
        nested = [nested]
    record = {**RECORD, "rounds": [{"moves": nested}]}
    body = {"record": record} if path in ("/v1/games/legal", "/v1/games/deal") else {"record": record, "move": MOVE}
    text = json.dumps(body) if depth < 500 else json.dumps(body).replace("[]", "[" * depth + "]" * depth, 1)
    with TestClient(create_app(Limits(solvers=1))) as client:  # its solver process stopped with it
        r = client.post(path, content=text, headers={"content-type": "application/json"})
    assert_problem(r, 422)


def test_a_deep_check_body_is_refused() -> None:
    r = TestClient(create_app(Limits())).post("/v1/check", content="[" * 100_000 + "]" * 100_000,
                                              headers={"content-type": "application/json"})
    assert r.status_code in (413, 422) and r.headers["content-type"].startswith("application/problem+json")


def test_a_solve_stops_when_its_client_goes() -> None:
    """A 30 s job whose client disconnects is stopped at once: the call ends with Stopped (not after the job),
    and its solver process is replaced (the next job is answered)."""
    import anyio

    from loba_service.pool import SolverPool
    from loba_service.work import Stopped, watching

    pool = SolverPool(1)
    ended: list[float] = []

    async def receive() -> dict[str, Any]:
        await anyio.sleep(0.5)
        return {"type": "http.disconnect"}

    async def run() -> None:
        assert await pool.run("ping", (0.0,), 30.0) == "pong"
        first = pool._all[0].process.pid
        t0 = anyio.current_time()
        with pytest.raises(Stopped):
            await watching(receive, lambda: pool.run("ping", (30.0,), 60.0))
        ended.append(anyio.current_time() - t0)
        assert await pool.run("ping", (0.0,), 30.0) == "pong"
        assert pool._all[0].process.pid != first

    try:
        run_in_own_loop(run)
    finally:
        pool.close()
    assert ended[0] < 30.0  # it did not wait for the job


def test_a_batch_stops_at_its_deadline() -> None:
    """A batch looks at its request's deadline between melds: past it (or cancelled), it stops."""
    from loba_dsl import load
    from loba_service import engine
    from loba_service.work import Deadline, Stopped

    deadline = Deadline(60.0)
    deadline.cancel()
    items = [(str(i), "A♣ 2♣ 3♣") for i in range(10)]
    with pytest.raises(Stopped):
        list(engine.check_many(items, load("menos"), None, Limits(), deadline))
    assert len(list(engine.check_many(items, load("menos"), None, Limits(), Deadline(60.0)))) == 10
