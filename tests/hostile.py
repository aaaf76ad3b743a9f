"""Helpers for the hostile-client tests and the load benchmark: the real ``loba serve`` on loopback, raw HTTP
over sockets from a chosen source address (127.0.0.2, 127.0.0.3... are other clients to the server), and a
``/healthz`` probe that runs beside an attack.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Server:
    """A running ``loba serve`` (its process, the port it printed)."""

    proc: subprocess.Popen[bytes]
    port: int
    stderr: list[str] = field(default_factory=list)


@contextlib.contextmanager
def serve(env: dict[str, str] | None = None, timeout: float = 60.0, root: Path = ROOT,
          args: Sequence[str] = ()) -> Iterator[Server]:
    """``loba serve --port 0`` with ``LOBA_SERVICE_<NAME>`` overrides; yields once ``/healthz`` answers with
    its solvers up; SIGTERM (then a kill) at the end.  ``root``: the checkout whose code serves (a benchmark's
    baseline; this one by default); ``args``: more options (``--workers 2``)."""
    full = {**os.environ, "PYTHONPATH": str(root), **(env or {})}
    proc = subprocess.Popen([sys.executable, "-c", "from loba_cli.main import main; main()", "serve",
                             "--host", "127.0.0.1", "--port", "0", *args],
                            env=full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=root)
    assert proc.stderr is not None
    line, m = "", None
    for _ in range(10):  # the line that says the port (others may come first)
        line = proc.stderr.readline().decode()
        m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if m is not None or not line:
            break
    if m is None:
        proc.kill()
        rest = proc.communicate()[1].decode(errors="replace")
        proc.stderr.close()
        raise AssertionError(f"loba serve did not say its port: {line!r} {rest!r}")
    server = Server(proc, int(m.group(1)))
    errors = proc.stderr

    def drain() -> None:  # keep reading its stderr so the server never blocks on a full pipe
        for raw in errors:
            server.stderr.append(raw.decode(errors="replace"))

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError):
            status, body = request(server.port, "GET", "/healthz", timeout=2)
            if status == 200 and json.loads(body)["solvers"] >= 1:
                break
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("loba serve did not start: " + "".join(server.stderr))
        time.sleep(0.2)
    try:
        yield server
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        reader.join(10)
        errors.close()


def connect(port: int, source: str = "127.0.0.1", timeout: float = 10.0) -> socket.socket:
    """A TCP connection to the server from ``source`` (any 127.x.y.z address is this machine)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def raw_request(method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
                close: bool = True) -> bytes:
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    if body or method == "POST":
        head.append(f"Content-Length: {len(body)}")
    for k, v in (headers or {}).items():
        head.append(f"{k}: {v}")
    if close:
        head.append("Connection: close")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def read_response(s: socket.socket) -> tuple[int, bytes]:
    """(status, body) of one response on ``s`` (read until the server closes or the body is complete);
    status 0 when the server closed the connection without an answer."""
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = s.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            chunk = b""
        if not chunk:
            return (0, b"") if not data else (int(data.split(b" ", 2)[1]), b"")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    m = re.search(rb"(?i)content-length:\s*(\d+)", head)
    length = int(m.group(1)) if m else None
    while length is None or len(rest) < length:
        try:
            chunk = s.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            break
        if not chunk:
            break
        rest += chunk
    return status, rest


def request(port: int, method: str, path: str, body: Any = None, *, source: str = "127.0.0.1",
            timeout: float = 30.0, raw: bytes | None = None, headers: dict[str, str] | None = None
            ) -> tuple[int, bytes]:
    """One request on a fresh connection: (status, body); status 0 when the server closed without answering."""
    if raw is None:
        data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        raw = raw_request(method, path, data, {"Content-Type": "application/json", **(headers or {})})
    with connect(port, source, timeout) as s:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            s.sendall(raw)
        return read_response(s)


@dataclass
class Probe:
    """``GET /healthz`` from 127.0.0.1 every ``every`` seconds on a fresh connection, in a thread: each
    answer's latency and status (``None``: no answer within ``timeout``)."""

    port: int
    every: float = 0.025
    timeout: float = 5.0
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> Probe:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        assert self._thread is not None
        self._thread.join(self.timeout + 5)

    def _run(self) -> None:
        while not self._stop.is_set():
            t0 = time.perf_counter()
            try:
                status, _ = request(self.port, "GET", "/healthz", timeout=self.timeout)
            except OSError as e:
                self.failures.append(f"{type(e).__name__}: {e}")
            else:
                if status == 200:
                    self.latencies.append(time.perf_counter() - t0)
                else:
                    self.failures.append(f"status {status}")
            self._stop.wait(self.every)

    def p(self, q: float) -> float:
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
