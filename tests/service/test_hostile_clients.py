"""Hostile clients against the real ``loba serve`` on loopback: slowloris, connection floods, huge heads, deep
nesting, YAML bombs, CPU-heavy house rulesets, worker-thread exhaustion.  Through each, ``/healthz`` (probed
from another client address every 25 ms) keeps answering and no request gets a 5xx.

The limits are lowered for the run (``LOBA_SERVICE_<NAME>``) so that each timeout is seconds, not minutes.
How fast ``/healthz`` answers under such load is measured in ``benchmarks/bench_load.py``, not asserted here.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hostile import ROOT, Probe, Server, connect, raw_request, read_response, request, serve

pytest.importorskip("uvicorn")

ENV = {
    "LOBA_SERVICE_KEEP_ALIVE": "2",
    "LOBA_SERVICE_REQUEST_TIMEOUT": "3",
    "LOBA_SERVICE_MAX_CONNECTIONS": "300",
    "LOBA_SERVICE_MAX_CONNECTIONS_PER_CLIENT": "60",
    "LOBA_SERVICE_REQUEST_BUDGET_MS": "2000",
    "LOBA_SERVICE_SOLVER_BUDGET_MS": "2000",
    "LOBA_SERVICE_MAX_BUDGET_MS": "3000",
    "LOBA_SERVICE_QUEUE": "8",
}

HEAVY_HOUSE = {"yaml": "name: heavy\nextends: mas\nwilds:\n  cards: JOKER, 2, A♠, 3♠, 4♠, 5♠, 6♠, 7♠, 8♠, 9♠, 10♠, J♠, "
                       "Q♠, K♠\n"}
"""A house ruleset whose wilds are a whole suit (and the Jokers and 2s): checking 18 spades under it took
~14 s of CPU before the service bounded it."""
HEAVY_MELD = "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ 2♠ 3♠ 4♠ 5♠"


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serve(ENV) as s:
        yield s


def no_5xx(statuses: list[int]) -> None:
    assert not [s for s in statuses if s >= 500 and s != 503], statuses


def healthy(probe: Probe) -> None:
    """/healthz answered every probe (each within the probe's timeout) and answered some."""
    assert not probe.failures, probe.failures[:5]
    assert probe.latencies


def closed_by_server(s: socket.socket, within: float) -> bool:
    s.settimeout(within)
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


# ---------------------------------------------------------------- /healthz, answered before the app


def responses(s: socket.socket, n: int) -> list[tuple[bytes, bytes]]:
    """The next ``n`` (head, body) answers on ``s`` (bodies by their content-length)."""
    data, out = b"", list[tuple[bytes, bytes]]()
    while len(out) < n:
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            assert chunk, (data, out)
            data += chunk
        head, _, data = data.partition(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        while len(data) < length:
            data += s.recv(65536)
        out.append((head, data[:length]))
        data = data[length:]
    return out


def test_healthz_is_answered_as_the_app_answers_it(server: Server) -> None:
    """The server answers ``GET /healthz`` in its protocol, before the app (a turn of the event loop sooner
    under load): the same body and type as the app's route, on a connection kept alive or closed as asked, in
    order after a request sent before it on the same connection."""
    port = server.port
    status, body = request(port, "GET", "/healthz?from=app")  # a query: the app's own route answers
    assert status == 200
    app_answer = json.loads(body)
    assert app_answer["status"] == "ok" and app_answer["solvers"] >= 1
    with connect(port, "127.0.0.4") as s:  # kept alive: two answers on one connection, then a third request
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        for head, answer in responses(s, 2):
            assert head.startswith(b"HTTP/1.1 200 ") and b"content-type: application/json" in head.lower()
            assert b"connection: close" not in head.lower() and json.loads(answer) == app_answer
        check = json.dumps({"cards": "A♣ 2♣ JOKER"}).encode()
        s.sendall(raw_request("POST", "/v1/check", check, {"Content-Type": "application/json"}, close=False)
                  + b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        (_, b1), (h2, b2) = responses(s, 2)  # the check first, then /healthz, and the connection closed
        assert json.loads(b1)["valid"] is True and json.loads(b2) == app_answer
        assert b"connection: close" in h2.lower() and closed_by_server(s, 5)
    with connect(port, "127.0.0.4") as s:  # HTTP/1.0: answered, then closed
        s.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
        (head, answer), = responses(s, 1)
        assert json.loads(answer) == app_answer and closed_by_server(s, 5)
    assert request(port, "HEAD", "/healthz")[0] == 200  # not a GET: the app's route
    assert request(port, "POST", "/healthz", {})[0] == 405


# ---------------------------------------------------------------- heads and nesting


def test_huge_heads_are_431_and_closed(server: Server) -> None:
    port = server.port
    with Probe(port) as probe:
        big = raw_request("GET", "/healthz", headers={"X-Big": "a" * 1_048_576})
        assert request(port, "GET", "/", raw=big, source="127.0.0.2")[0] == 431
        many = raw_request("GET", "/healthz", headers={f"X-{i}": "a" for i in range(200)})
        status, body = request(port, "GET", "/", raw=many, source="127.0.0.2")
        assert status == 431 and json.loads(body)["status"] == 431
        long_line = raw_request("GET", "/" + "a" * 100_000)
        assert request(port, "GET", "/", raw=long_line, source="127.0.0.2")[0] == 431
        # 64 MiB of head: refused long before it is all sent (the server closes; sending fails or stops)
        with connect(port, "127.0.0.2") as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
            sent = 0
            with pytest.raises(OSError):
                while sent < 64 * 1_048_576:
                    s.sendall(b"a" * 1_048_576)
                    sent += 1_048_576
                raise OSError("the server read all 64 MiB")
            assert sent < 64 * 1_048_576
    healthy(probe)


@pytest.mark.parametrize("path", ["/v1/games/play", "/v1/games/check", "/v1/games/deal", "/v1/games/legal",
                                  "/v1/check", "/v1/score/round", "/v1/check/batch"])
def test_deeply_nested_json_is_a_4xx(server: Server, path: str) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    record = ('{"format":"loba-record/1","ruleset":"menos","players":["Ana","Beto"],"dealer":"Beto",'
              '"rounds":[{"moves":' + deep + '}]}')
    body = ('{"record":' + record + ',"move":{"op":"draw","player":"Ana","from":"stock"}}').encode()
    if not path.startswith("/v1/games"):
        body = ('{"cards":' + deep + '}').encode()
    status, answer = request(server.port, "POST", path, body)
    assert status in (413, 422), answer[:300]
    assert json.loads(answer)["status"] == status


def yaml_post(port: int, text: str) -> tuple[int, bytes]:
    raw = raw_request("POST", "/v1/rulesets/validate", text.encode(), {"Content-Type": "application/yaml"})
    return request(port, "POST", "/", raw=raw)


def test_deeply_nested_yaml_is_refused(server: Server) -> None:
    flow = "name: x\nextends: menos\nmeta: " + "[" * 20_000 + "]" * 20_000 + "\n"
    block = "name: x\nextends: menos\nmeta:\n" + "".join(" " * i + "- \n" for i in range(1, 3_000))
    mapping = "name: x\nextends: menos\nmeta:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 3_000))
    with Probe(server.port) as probe:
        for text in (flow, block[:60_000], mapping[:60_000]):
            status, body = yaml_post(server.port, text)
            assert status < 500, body[:300]
            if status == 200:
                assert json.loads(body)["valid"] is False
        # through a check's house ruleset too
        status, body = request(server.port, "POST", "/v1/check", {"cards": "A♣", "ruleset": {"yaml": flow}})
        assert 400 <= status < 500, body[:300]
    healthy(probe)


def test_yaml_bombs_are_refused(server: Server) -> None:
    lines = ["name: x", "extends: menos", 'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 12):
        lines.append(f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]")
    bomb = "\n".join(lines) + "\n"
    with Probe(server.port) as probe:
        status, body = yaml_post(server.port, bomb)
        assert status < 500, body[:300]
        if status == 200:
            assert json.loads(body)["valid"] is False
        status, body = request(server.port, "POST", "/v1/check", {"cards": "A♣", "ruleset": {"yaml": bomb}})
        assert 400 <= status < 500, body[:300]
    healthy(probe)


# ---------------------------------------------------------------- heavy work


@pytest.mark.slow
def test_cpu_heavy_house_rulesets_do_not_stall_the_service(server: Server) -> None:
    port = server.port
    score = {"ruleset": HEAVY_HOUSE, "players": [{"name": "Ana", "melds": [HEAVY_MELD], "hand": "K♥"},
                                                 {"name": "Beto", "hand": "A♥", "went_out": True}]}
    calls: list[tuple[str, dict[str, Any]]] = [("/v1/check", {"cards": HEAVY_MELD, "ruleset": HEAVY_HOUSE})] * 3
    calls += [("/v1/score/round", score)] * 2
    with Probe(port) as probe, ThreadPoolExecutor(len(calls)) as pool:
        answers = list(pool.map(lambda c: request(port, "POST", c[0], c[1], source="127.0.0.2"), calls))
        # meanwhile, ordinary requests are answered
        assert request(port, "POST", "/v1/check", {"cards": "A♣ 2♣ JOKER"})[0] == 200
    statuses = [a[0] for a in answers]
    no_5xx(statuses)
    for status, body in answers:  # past the budget: a 422 that says so (or a 503 while the solvers are busy)
        assert status in (200, 422, 503), body[:300]
        if status == 422:
            assert json.loads(body)["type"].endswith("budget-exceeded"), body[:300]
    healthy(probe)
    # the solvers were replaced: a house ruleset is answered again
    house = {"yaml": "name: casa\nextends: menos\n"}
    assert request(port, "POST", "/v1/check", {"cards": "A♣ 2♣ 3♣", "ruleset": house})[0] == 200


def test_thread_exhaustion_is_503_with_retry_after(server: Server) -> None:
    """60 concurrent batches of 65 melds: each answered, or refused with 503 and Retry-After; never a stall."""
    port = server.port
    melds = {f"m{i}": f"{r}♣ {r}♥ {r}♠" for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                               "J", "Q", "K"] * 5)}
    body = {"inputs": melds, "ruleset": "menos"}

    def one(i: int) -> tuple[int, bytes, str]:
        raw = raw_request("POST", "/v1/check/batch", json.dumps(body).encode(), {"Content-Type": "application/json"})
        with connect(port, f"127.0.0.{3 + i % 4}") as s:
            s.sendall(raw)
            status, answer = read_response(s)
        return status, answer, ""

    with Probe(port) as probe, ThreadPoolExecutor(60) as pool:
        answers = list(pool.map(one, range(60)))
    statuses = [a[0] for a in answers]
    no_5xx(statuses)
    assert set(statuses) <= {200, 503}, statuses
    assert statuses.count(200) >= 1
    for status, answer, _ in answers:
        if status == 200:
            assert len(json.loads(answer)["results"]) == 65
    healthy(probe)


def test_malformed_requests_are_4xx(server: Server) -> None:
    bad = [b"\xff\xfe", b'{"cards": 5}', b'{"cards": "A\xe2\x99\xa3 ' + b"x" * 3000 + b'"}', b"{" * 10,
           b'{"record": {"format": "loba-record/1"}}', b"null", b'{"inputs": {"a": 1}}']
    statuses = []
    for path in ("/v1/check", "/v1/check/batch", "/v1/games/play", "/v1/arrange", "/v1/score/round"):
        for body in bad:
            statuses.append(request(server.port, "POST", path, body)[0])
    assert all(400 <= s < 500 for s in statuses), statuses


# ---------------------------------------------------------------- slow and many connections (seconds each)


@pytest.mark.slow
def test_slowloris_connections_are_closed(server: Server) -> None:
    """50 clients that send their request one byte at a time are closed once the request timeout (3 s) passes;
    a request whose body trickles in is closed too."""
    port = server.port
    conns = [connect(port, "127.0.0.5") for _ in range(50)]
    for s in conns:
        s.sendall(b"POST /v1/check HTTP/1.1\r\nHost: x\r\n")
    slow_body = connect(port, "127.0.0.5")
    slow_body.sendall(raw_request("POST", "/v1/check", b"", {"Content-Type": "application/json"}).replace(
        b"Content-Length: 0", b"Content-Length: 100"))
    started = time.monotonic()
    with Probe(port) as probe:
        while time.monotonic() - started < 8:
            for s in conns:
                with contextlib.suppress(OSError):
                    s.sendall(b"X")
            time.sleep(0.5)
    healthy(probe)
    assert all(closed_by_server(s, 1.0) for s in conns)
    assert closed_by_server(slow_body, 1.0)
    for s in (*conns, slow_body):
        s.close()


@pytest.mark.slow
def test_connection_floods_are_bounded(server: Server) -> None:
    """Past 60 connections from one client, or 300 in all, new ones are closed at once; idle ones are closed
    after the keep-alive time (2 s); /healthz from another client answers throughout."""
    port = server.port
    with Probe(port) as probe:
        one_client = []
        for _ in range(120):
            with contextlib.suppress(OSError):
                one_client.append(connect(port, "127.0.0.6"))
        time.sleep(0.5)
        still_open = [s for s in one_client if not closed_by_server(s, 0.05)]
        assert len(still_open) <= 60
        many: list[socket.socket] = []
        for i in range(400):
            with contextlib.suppress(OSError):
                many.append(connect(port, f"127.0.1.{1 + i % 200}"))
        time.sleep(0.5)
        open_many = [s for s in many if not closed_by_server(s, 0.02)]
        assert len(open_many) + len(still_open) <= 300
        time.sleep(3)  # past the keep-alive time: every idle connection is closed
        assert all(closed_by_server(s, 1.0) for s in still_open + open_many)
    healthy(probe)
    for s in one_client + many:
        s.close()


# ---------------------------------------------------------------- start and stop


def test_a_port_in_use_is_one_error_line_exit_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run([sys.executable, "-c", "from loba_cli.main import main; main()", "serve",
                               "--port", str(port)], capture_output=True, cwd=ROOT, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2
    lines = proc.stderr.decode().strip().splitlines()
    assert lines == [f"error: cannot listen on 127.0.0.1:{port}: Address already in use"], lines


@pytest.mark.slow
def test_sigterm_stops_the_server_while_it_is_busy() -> None:
    """Busy worker threads and solver processes: SIGTERM still ends the server within its graceful time
    (the largest budget, 3 s, plus 5 s) and a little more, exit 0, its solvers gone."""
    with serve(ENV) as s:
        heavy = {"cards": HEAVY_MELD, "ruleset": HEAVY_HOUSE}
        melds = {f"m{i}": "A♣ 2♣ 3♣" for i in range(5000)}

        def busy(i: int) -> None:
            try:
                if i % 2:
                    request(s.port, "POST", "/v1/check", heavy, timeout=30)
                else:
                    request(s.port, "POST", "/v1/check/batch", {"inputs": melds}, timeout=30)
            except OSError:
                pass

        threads = [threading.Thread(target=busy, args=(i,), daemon=True) for i in range(8)]
        for t in threads:
            t.start()
        time.sleep(1.0)
        t0 = time.monotonic()
        s.proc.send_signal(signal.SIGTERM)
        assert s.proc.wait(30) == 0
        assert time.monotonic() - t0 < 3 + 5 + 10
        assert "Traceback" not in "".join(s.stderr)
