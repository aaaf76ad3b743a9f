"""Live tables survive the server: ``loba serve --db F`` as a process, half a round over HTTP, SIGKILL (also
in the middle of a stream of moves), a new server on the same file, the round finished: every move that was
answered 200 is in the record once, at the ply it was answered at; two tabs sending the same move at the
same instant get one 200 and one 409.

Expected values: the record's own ply numbering (a move answered at ply N is the record's move N, after the
dealer's reshuffle where one came first) and rules.md §1 (the round ends when a player goes out).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
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

from table_play import PLAYERS, choose

pytestmark = pytest.mark.slow  # starts servers; `make test` runs it

ROOT = Path(__file__).resolve().parents[2]


class Server:
    def __init__(self, db: Path, **extra: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "LOBA_NO_CACHE": "1", "LOBA_SERVICE_WS_RATE": "100000", **extra}
        self.proc = subprocess.Popen([sys.executable, "-c", "from loba_cli.main import main; main()", "serve",
                                      "--host", "127.0.0.1", "--port", "0", "--db", str(db)],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        assert self.proc.stderr is not None
        line = ""
        while "http://" not in line:
            line = self.proc.stderr.readline().decode()
            assert line, "the server stopped before it listened"
        self.port = int(line.split("http://127.0.0.1:")[1].split()[0])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.call("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the server did not answer")

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"content-type": "application/json"}
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        if self.proc.stderr is not None:
            self.proc.stderr.close()


def seat_to_move(server: Server, tid: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]] | None:
    public = server.call("GET", f"/v1/tables/{tid}")[1]
    if public["over"]:
        return None
    seat = public["to_move"]
    return seat, server.call("GET", f"/v1/tables/{tid}", token=tokens[seat])[1]


def play(server: Server, tid: str, tokens: dict[str, str], rng: random.Random, answered: list[tuple[int, Any]],
         moves: int, stop: threading.Event | None = None) -> None:
    """Up to ``moves`` moves; each one answered 200 is noted with the ply it was chosen at."""
    for _ in range(moves):
        if stop is not None and stop.is_set():
            return
        got = seat_to_move(server, tid, tokens)
        if got is None:
            return
        seat, view = got
        move = choose(view, rng)
        status, body = server.call("POST", f"/v1/tables/{tid}/moves", {"move": move, "ply": view["ply"]},
                                   token=tokens[seat])
        assert status == 200, body
        answered.append((view["ply"], {**move, "player": seat}))


def test_a_killed_server_loses_no_answered_move(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    server = Server(db)
    answered: list[tuple[int, Any]] = []
    try:
        status, t = server.call("POST", "/v1/tables", {"players": PLAYERS, "dealer": "Carla", "seed": 12})
        assert status == 201 and db.exists()
        tid, host = t["table"], t["host_token"]
        tokens = {p: s["token"] for p, s in t["seats"].items()}
        rng = random.Random(12)
        play(server, tid, tokens, rng, answered, 20)
    finally:
        server.kill()
    # a new server on the same file: the table at the last answered move, the same tokens
    server = Server(db)
    try:
        view = server.call("GET", f"/v1/tables/{tid}", token=tokens["Ana"])[1]
        assert view["ply"] >= answered[-1][0] + 1
        # the second life ends with SIGKILL while a player is sending moves
        stop, killed = threading.Event(), threading.Event()
        streamed: list[tuple[int, Any]] = []

        def stream() -> None:
            try:
                play(server, tid, tokens, rng, streamed, 10_000, stop)
            except (OSError, http.client.HTTPException):  # the server died under it (before its answer, or
                killed.set()  # between the answer's head and its body): the move in flight was not answered

        player = threading.Thread(target=stream)
        player.start()
        # killed once the stream is under way (three moves answered), however fast the machine plays: a fixed
        # wait let a quiet machine finish the round first, and then nothing was killed mid-stream
        deadline = time.monotonic() + 60
        while len(streamed) < 3 and player.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        server.kill()
        stop.set()
        player.join(60)
        answered.extend(streamed)
        assert killed.is_set()  # it was killed in the middle of the stream
    finally:
        if server.proc.poll() is None:
            server.kill()
    server = Server(db)
    try:
        play(server, tid, tokens, random.Random(13), answered, 5_000)
        assert server.call("GET", f"/v1/tables/{tid}")[1]["over"]
        record = server.call("GET", f"/v1/tables/{tid}/record", token=host)[1]
    finally:
        server.kill()
    moves = record["rounds"][0]["moves"]
    plies = [p for p, _ in answered]
    assert len(set(plies)) == len(plies)  # no ply answered twice
    for ply, move in answered:  # each answered move is the record's move at its ply (after a reshuffle there)
        at = moves[ply + 1] if moves[ply]["op"] == "reshuffle" else moves[ply]
        assert at == move, (ply, move, at)
    assert record["rounds"][0].get("result") is not None


def test_two_tabs_sending_one_move_at_once(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.sqlite3")
    try:
        t = server.call("POST", "/v1/tables", {"players": PLAYERS, "dealer": "Carla", "seed": 5})[1]
        tid = t["table"]
        for ply in range(3):  # three moves in a row, each sent by two tabs of the seat to move at once
            got = seat_to_move(server, tid, {p: s["token"] for p, s in t["seats"].items()})
            assert got is not None
            seat, view = got
            token = t["seats"][seat]["token"]
            move = view["legal"][0]
            barrier = threading.Barrier(2)
            results: list[int] = []

            def tab(move: Any = move, token: str = token, view: Any = view, barrier: Any = barrier,
                    results: list[int] = results) -> None:
                barrier.wait()
                results.append(server.call("POST", f"/v1/tables/{tid}/moves", {"move": move, "ply": view["ply"]},
                                           token=token)[0])

            tabs = [threading.Thread(target=tab) for _ in range(2)]
            for x in tabs:
                x.start()
            for x in tabs:
                x.join(30)
            assert sorted(results) == [200, 409], (ply, results)
        record = server.call("GET", f"/v1/tables/{tid}/record", token=t["host_token"])[1]
        assert len(record["rounds"][0]["moves"]) == 3  # each move once
    finally:
        server.kill()


def test_websockets_outlive_the_http_timeouts_and_free_their_connection(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    # An HTTP connection idle for keep_alive, or a request unfinished after request_timeout, is closed; a
    # WebSocket is not an HTTP request any more: only the tables' own idle limit closes it.  It counts as one
    # of its client's connections while it is open, and no longer once it is closed.
    server = Server(tmp_path / "tables.sqlite3", LOBA_SERVICE_KEEP_ALIVE="1", LOBA_SERVICE_REQUEST_TIMEOUT="1",
                    LOBA_SERVICE_MAX_CONNECTIONS_PER_CLIENT="3")
    try:
        t = server.call("POST", "/v1/tables", {"players": PLAYERS, "seed": 5})[1]
        url = f"ws://127.0.0.1:{server.port}/v1/tables/{t['table']}/ws"
        with connect(url) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            for _ in range(3):
                time.sleep(1.2)
                ws.send('{"type": "ping"}')
                assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        for _ in range(5):  # more than the 3 a client may hold at once: each closed one was given back
            with connect(url) as ws:
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
        assert server.call("GET", "/healthz")[0] == 200
    finally:
        server.kill()
