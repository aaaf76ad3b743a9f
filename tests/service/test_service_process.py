"""The real server: ``loba serve`` on 127.0.0.1 (a free port), requests over loopback, then SIGTERM drains
the request in flight, stops the solver processes and exits 0 (issue 12's acceptance)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

pytestmark = pytest.mark.slow  # `make test-fast` leaves it out; `make test` runs it

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def call(port: int, method: str, path: str, body: Any = None, timeout: float = 30) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out += [int(x) for x in text]
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.split(") ", 1)[1][0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc for the solver processes")
def test_serve_answers_over_loopback_and_drains_on_sigterm() -> None:
    port = free_port()
    # Room for a request that is still running half a second after it was sent, whether the solver's C twins
    # are built or not (8,000 deals of play statistics take seconds either way); the request bodies' bounds follow
    # these raised limits too.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LOBA_NO_CACHE": "1",
           "LOBA_SERVICE_MAX_DEALS": "8000", "LOBA_SERVICE_MAX_BUDGET_MS": "60000"}
    proc = subprocess.Popen([sys.executable, "-c", "from loba_cli.main import main; main()", "serve",
                             "--host", "127.0.0.1", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        health: Any = None
        while time.monotonic() < deadline:
            try:
                status, health = call(port, "GET", "/healthz", timeout=2)
                if status == 200 and health["solvers"] == 2:
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            assert proc.poll() is None, proc.communicate()[1].decode()
            time.sleep(0.2)
        assert health is not None and health["status"] == "ok", health
        solvers = children(proc.pid)
        assert len(solvers) == 2

        status, body = call(port, "POST", "/v1/check", {"cards": "A♣ 2♣ JOKER"})
        assert status == 200 and body["reading"] == ["A♣", "2♣", "3♣"]  # rules.md §1
        status, body = call(port, "POST", "/v1/check", {"cards": "A♣ loba"})
        assert status == 422 and body["errors"][0]["location"]["column"] == 4
        status, body = call(port, "POST", "/v1/arrange", {"cards": "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠", "discard": True})
        assert status == 200 and body["discard"] == "K♠"

        # A slow request in flight (play statistics over 8,000 deals), then SIGTERM: it is still answered.
        slow: dict[str, Any] = {}

        def run() -> None:
            slow["answer"] = call(port, "POST", "/v1/diff", {"left": "menos", "right": "uruguay", "deals": 8000,
                                                            "witnesses": False, "budget_ms": 60000}, timeout=90)

        t = threading.Thread(target=run)
        t.start()
        time.sleep(0.5)
        # the solve runs in a solver process: the event loop still answers at once
        t0 = time.monotonic()
        assert call(port, "POST", "/v1/check", {"cards": "7♠ 7♥ 7♦"})[0] == 200
        assert time.monotonic() - t0 < 1.0 and t.is_alive()
        proc.send_signal(signal.SIGTERM)
        t.join(90)
        status, body = slow["answer"]
        assert status == 200 and body["stats"] is not None, body
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err.decode()
        assert "Traceback" not in err.decode() and "stopped" in err.decode()
        time.sleep(0.2)
        assert not any(alive(p) for p in solvers)
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            call(port, "GET", "/healthz", timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
