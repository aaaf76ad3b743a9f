"""Load benchmark of the HTTP service (issue 12): ``loba serve`` on 127.0.0.1, driven by a bounded client.

Run: ``python benchmarks/bench_service.py [--seconds 5] [--max-requests 20000] [--connections 16]
[--workers 1]``.  It starts ``loba serve`` on a free loopback port, and for each of ``/v1/check``,
``/v1/check/batch`` (1,000 melds a request), ``/v1/score/round`` and ``/v1/games/play`` sends requests over
``--connections`` keep-alive connections for at most ``--seconds`` and at most ``--max-requests`` requests;
about 10% of them are malformed (broken JSON, bad cards, a forged seal) and must get a 422.  It prints
requests/s and p50/p99 latency beside the same work done in-process, the 5xx count (must be 0) and the
lost or mis-answered requests (must be 0): every valid answer is compared with the in-process answer.

The client is a small asyncio HTTP/1.1 client (no third-party library) so that it costs the 2 cores as little
as possible; it runs on the same machine as the server, which it competes with.  Only loopback addresses.
Targets (issue 12): /v1/check >= 1,500 req/s with p99 < 20 ms; a batch of 1,000 melds in < 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"

MELDS = ["A♣ 2♣ JOKER", "7♠ 7♥ 7♦", "7♠ 7♥ JOKER", "4♣ 5♣ 6♣ 7♣", "Q♣ K♣ A♣", "K♦ K♠ K♥ K♣", "2♥ 3♥ 4♥ 5♥ 6♥",
         "9♦ 10♦ J♦", "3♦ 3♦ 3♠", "JOKER 5♠ 6♠"]
ROUND = [{"name": "Ana", "melds": ["4♣ 5♣ 6♣", "7♠ 7♥ 7♦"], "went_out": True},
         {"name": "Beto", "hand": "JOKER A♠ K♦ 7♣"},
         {"name": "Carla", "melds": ["9♦ 10♦ J♦"], "hand": "Q♥ J♣ 10♦"},
         {"name": "Dani", "hand": "A♠ K♦ 2♣ 9♥"}]


@dataclass
class Request:
    path: str
    body: bytes
    status: int
    """The status the answer must have."""
    expect: Any = None
    """A function of the answer's JSON that must be true (None: any 422 problem body)."""
    content_type: str = "application/json"

    def wire(self, port: int) -> bytes:
        head = (f"POST {self.path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: {self.content_type}\r\n"
                f"Content-Length: {len(self.body)}\r\n\r\n")
        return head.encode() + self.body


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    """Of the valid requests (the malformed ones are answered faster and would flatter the figures)."""
    statuses: dict[int, int] = field(default_factory=dict)
    wrong: int = 0
    lost: int = 0
    sent: int = 0
    answered: int = 0
    elapsed: float = 0.0


def _json(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode()


# ---------------------------------------------------------------- the workloads


def check_requests() -> list[Request]:
    from loba_dsl.melds.check import check
    from loba_dsl.rules.loading import load

    rs = load("menos")
    out = []
    for m in MELDS:
        want = check(m, rs).to_dict()
        out.append(Request("/v1/check", _json({"cards": m}), 200, lambda got, w=want: got == w))
    return out


def batch_request() -> tuple[Request, dict[str, Any]]:
    from loba_dsl.melds.check import check
    from loba_dsl.rules.loading import load

    rs = load("menos")
    rng = random.Random(12)
    names = rs.deck.names
    inputs: dict[str, str] = {}
    for i in range(1000):
        inputs[str(i)] = " ".join(rng.choice(names) for _ in range(rng.randint(3, 6))) if i % 2 else \
            MELDS[i % len(MELDS)] + " " * (i // 20)
    want: dict[str, Any] = {}
    for k, v in inputs.items():
        try:
            want[k] = check(v, rs).to_dict()["valid"]
        except Exception:
            want[k] = None
    req = Request("/v1/check/batch", _json({"inputs": inputs}), 200,
                  lambda got: {k: r["valid"] for k, r in got["results"].items()} == want)
    return req, inputs


def round_request() -> Request:
    want = {"Ana": 0, "Beto": 57, "Carla": 30, "Dani": 36}  # seed 004, rules.md §1 (tests/scoring/test_scoring.py)
    return Request("/v1/score/round", _json({"players": ROUND}), 200,
                   lambda got: {p["name"]: p["score"] for p in got["players"]} == want)


def play_request(port: int) -> tuple[Request, Request, dict[str, Any]]:
    with urllib.request.urlopen(urllib.request.Request(
            f"http://{HOST}:{port}/v1/games/deal", data=_json({"players": ["Ana", "Beto", "Carla"], "dealer": "Carla"}),
            headers={"content-type": "application/json"}), timeout=30) as r:
        st = json.loads(r.read())
    body = {"record": st["record"], "move": {"op": "draw", "player": st["to_move"], "from": "stock"}, "ply": 0}
    ok = Request("/v1/games/play", _json(body), 200,
                 lambda got: got["ply"] == 1 and got["to_move"] == st["to_move"] and len(got["view"]["hand"]) == 10)
    forged = dict(body, record=dict(st["record"], seal=st["record"]["seal"][:-8] + "AAAAAAAA"))
    return ok, Request("/v1/games/play", _json(forged), 422), body


MALFORMED = [
    Request("/v1/check", b'{"cards": "A\xe2\x99\xa3 2', 422),          # broken JSON
    Request("/v1/check", _json({"cards": "A♣ loba"}), 422),            # a bad card
    Request("/v1/check", _json({"cards": 7}), 422),                    # the wrong type
    Request("/v1/score/round", _json({"players": [{"name": "Ana", "hand": "Z♣"}]}), 422),
]


# ---------------------------------------------------------------- the client


async def _one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, req: Request, port: int,
               tally: Tally) -> bool:
    t0 = time.perf_counter()
    writer.write(req.wire(port))
    await writer.drain()
    status_line = await reader.readline()
    if not status_line:
        return False
    status = int(status_line.split()[1])
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        k, _, v = line.decode("latin-1").partition(":")
        if k.lower() == "content-length":
            length = int(v)
    data = await reader.readexactly(length)
    if req.status == 200:
        tally.latencies.append(time.perf_counter() - t0)
    tally.answered += 1
    tally.statuses[status] = tally.statuses.get(status, 0) + 1
    good = status == req.status
    if good:
        try:
            got = json.loads(data)
            good = req.expect(got) if req.expect is not None else ("errors" in got and got["status"] == status)
        except (ValueError, KeyError, TypeError):
            good = False
    if not good:
        tally.wrong += 1
    return True


async def _drive(port: int, valid: list[Request], bad: list[Request], seconds: float, max_requests: int,
                 connections: int, bad_share: float) -> Tally:
    tally = Tally()
    stop = time.perf_counter() + seconds
    budget = [max_requests]
    rng = random.Random(7)

    async def conn() -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            while time.perf_counter() < stop and budget[0] > 0:
                budget[0] -= 1
                tally.sent += 1
                req = rng.choice(bad) if bad and rng.random() < bad_share else rng.choice(valid)
                try:
                    ok = await asyncio.wait_for(_one(reader, writer, req, port, tally), 30)
                except (TimeoutError, ConnectionError, asyncio.IncompleteReadError):
                    ok = False
                if not ok:
                    tally.lost += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection(HOST, port)
        finally:
            writer.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(conn() for _ in range(connections)))
    tally.elapsed = time.perf_counter() - t0
    return tally


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def _inprocess(fn: Any, n: int) -> tuple[float, float, float]:
    lat = []
    t0 = time.perf_counter()
    for _ in range(n):
        t = time.perf_counter()
        fn()
        lat.append(time.perf_counter() - t)
    total = time.perf_counter() - t0
    return n / total, _pct(lat, 0.5), _pct(lat, 0.99)


# ---------------------------------------------------------------- main


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", "from loba_cli.main import main; main()", "serve", "--host", HOST,
                             "--port", str(port), "--workers", str(workers)], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="at most this long per endpoint")
    ap.add_argument("--max-requests", type=int, default=20_000, help="at most this many requests per endpoint")
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--workers", type=int, default=1, help="loba serve --workers")
    args = ap.parse_args()
    seconds = min(args.seconds, 60.0)
    max_requests = min(args.max_requests, 200_000)

    import msgspec

    from loba_dsl.rules.loading import load
    from loba_service.bodies import ScoreRoundRequest
    from loba_service.engine import check_many, check_one, score_round
    from loba_service.limits import Limits

    port = free_port()
    load_before = os.getloadavg()
    proc = start_server(port, args.workers)
    try:
        checks = check_requests()
        batch, inputs = batch_request()
        rnd = round_request()
        play_ok, play_bad, play_body = play_request(port)
        rs, limits = load("menos"), Limits()
        sreq = msgspec.convert({"players": ROUND}, ScoreRoundRequest)
        from loba_dsl.game import Table
        from loba_service.game_bodies import GameMoveRequest
        from loba_service.games import Games, play_sync
        from loba_service.seal import Sealer

        games = Games(Sealer(b"bench" * 8))
        table = Table.deal(rs, ["Ana", "Beto", "Carla"], "Carla", 7)
        local = dict(play_body, record=games.client_record(table, rs, None, True))
        mreq = msgspec.convert(local, GameMoveRequest)
        inproc = {
            "/v1/check": lambda: check_one(MELDS[3], rs, None, limits),
            "/v1/check/batch": lambda: dict(check_many(inputs.items(), rs, None, limits)),
            "/v1/score/round": lambda: score_round(sreq, rs, limits),
            "/v1/games/play": lambda: play_sync(games, rs, mreq),
        }
        plans = [
            ("/v1/check", checks, MALFORMED[:3], max_requests, args.connections),
            ("/v1/check/batch", [batch], MALFORMED[:1], max(1, max_requests // 50), 1),  # one at a time
            ("/v1/score/round", [rnd], MALFORMED[3:], max_requests, args.connections),
            ("/v1/games/play", [play_ok], [play_bad], max_requests, args.connections),
        ]
        print(f"loba serve --workers {args.workers} on {HOST}:{port}; {args.connections} connections; "
              f"<= {seconds:.0f} s and <= {max_requests} requests per endpoint; ~10% malformed")
        print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} "
              f"({os.cpu_count()} cores)")
        head = (f"{'endpoint':<18}{'requests':>9}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'5xx':>6}{'lost':>6}"
                f"{'wrong':>7}   {'in-process/s':>12}{'p50 ms':>9}{'p99 ms':>9}")
        print(head)
        total_5xx = total_lost = total_wrong = 0
        for path, valid, bad, cap, conns in plans:
            tally = asyncio.run(_drive(port, valid, bad, seconds, cap, conns, 0.10))
            n = 20 if path == "/v1/check/batch" else 2000
            ops, p50i, p99i = _inprocess(inproc[path], n)
            got = tally.answered
            five = sum(v for k, v in tally.statuses.items() if k >= 500)
            total_5xx += five
            total_lost += tally.lost
            total_wrong += tally.wrong
            print(f"{path:<18}{got:>9}{got / tally.elapsed:>9.0f}{_pct(tally.latencies, .5):>9.2f}"
                  f"{_pct(tally.latencies, .99):>9.2f}{five:>6}{tally.lost:>6}{tally.wrong:>7}   "
                  f"{ops:>12.0f}{p50i:>9.2f}{p99i:>9.2f}")
        load_after = os.getloadavg()
        print(f"load average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
        print(f"5xx: {total_5xx} (must be 0); lost: {total_lost}, mis-answered: {total_wrong} (must be 0)")
        print("requests and req/s count every answer; p50/p99 are of the valid requests only.")
        print("/v1/check/batch: 1,000 melds a request, one connection (the latency of one batch, not a queue).")
        print("in-process = the same library work without HTTP (decode, route, encode) on this process.")
        if total_5xx or total_lost or total_wrong:
            raise SystemExit(1)
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
