"""The connection limits a public service sets, in front of the ASGI app: uvicorn's HTTP protocol (httptools)
with a guard on each connection.

- **Connections**: at most ``max_connections_per_client`` open from one client address (one past it is closed
  as soon as it is accepted) and ``max_connections`` in the server process: past that, the connection idle
  the longest (no request in flight) is closed to make room, so a flood of idle connections cannot starve
  ``/healthz`` or exhaust file descriptors; only when every connection is working is a new one refused.
- **Request heads**: at most ``max_head`` bytes and ``max_headers`` fields; past either the answer is
  ``431`` (a problem body) and the connection is closed, before the app sees anything.
- **Slow clients**: a connection that sends nothing is closed after ``keep_alive`` seconds (as an idle
  keep-alive connection is); a request whose head and body have not all arrived ``request_timeout``
  seconds after it began is closed (slowloris).

- **Quick answers**: ``GET /healthz`` is answered here, as soon as its head is read (:attr:`GuardedProtocol.quick`),
  not by a task of the app that would run after every request the loop read in the same turn: under load, a
  turn of the loop answers dozens of requests, and a health check waited one more turn for nothing.

uvicorn's own settings do the rest (``timeout_keep_alive``, the graceful shutdown); see ``loba serve``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, ClassVar

import httptools
import msgspec
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from loba_service.limits import Limits
from loba_service.problems import PROBLEM_TYPE

__all__ = ["GuardedProtocol", "counts"]

_REASONS = {408: "Request Timeout", 431: "Request Header Fields Too Large"}


def counts() -> tuple[int, dict[str, int]]:
    """(open connections, open connections per client address) of this process (for the tests)."""
    return GuardedProtocol.open_total, dict(GuardedProtocol.open_per_client)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits above (read from ``LOBA_SERVICE_<NAME>`` once)."""

    limits: ClassVar[Limits] = Limits.from_env()
    open_total: ClassVar[int] = 0
    open_per_client: ClassVar[dict[str, int]] = {}
    idle: ClassVar[dict[GuardedProtocol, None]] = {}
    """Connections with no request in flight, the longest idle first."""
    quick: ClassVar[dict[bytes, Callable[[], bytes]]] = {}
    """``GET`` paths answered by the protocol itself (200, a JSON body from the function), before the app: the
    server registers ``/healthz`` (:func:`loba_service.app.server_app`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._counted = False
        self._host = ""
        self._head_bytes = 0
        self._tail = b""
        self._in_head = True
        self._header_count = 0
        self._refusal: tuple[int, str] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._quick: Callable[[], bytes] | None = None

    # ------------------------------------------------------------ connections

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        cls = GuardedProtocol
        self._host = self.client[0] if self.client else ""
        mine = cls.open_per_client.get(self._host, 0)
        if mine >= self.limits.max_connections_per_client:
            transport.abort()  # no answer: a client past its share does not get a write spent on it
            return
        if cls.open_total >= self.limits.max_connections and not _evict_idle():
            transport.abort()  # full of connections that are all working: refuse this one
            return
        self._counted = True
        cls.open_total += 1
        cls.open_per_client[self._host] = mine + 1
        cls.idle[self] = None
        self._arm(self.limits.keep_alive)  # a connection that never sends anything is idle

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        super().connection_lost(exc)

    def _release(self) -> None:
        self._disarm()
        GuardedProtocol.idle.pop(self, None)
        if self._counted:
            self._counted = False
            cls = GuardedProtocol
            cls.open_total -= 1
            left = cls.open_per_client.get(self._host, 1) - 1
            if left > 0:
                cls.open_per_client[self._host] = left
            else:
                cls.open_per_client.pop(self._host, None)

    def handle_websocket_upgrade(self) -> None:
        """A WebSocket (a live table's) takes the connection over: no HTTP timer may close it any more (the
        tables close an idle WebSocket themselves), and it still counts as an open connection until it is
        lost (the WebSocket protocol reports that, not this one)."""
        self._disarm()
        GuardedProtocol.idle.pop(self, None)
        super().handle_websocket_upgrade()
        ws = self.transport.get_protocol()
        if ws is self:
            return
        lost = ws.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            self._release()
            lost(exc)

        ws.connection_lost = connection_lost  # type: ignore[method-assign]

    # ------------------------------------------------------------ timers

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_started or self._in_head:
            # nothing sent yet, or a request that never finished arriving: close (an answer would be read by
            # no one, and a slow client must not hold the connection)
            self.transport.close()
        else:  # the body is late: say so
            self._refuse(408, "the request did not arrive in time")

    # ------------------------------------------------------------ heads

    def data_received(self, data: bytes) -> None:
        if self._refusal is not None:
            return
        if self._in_head:  # count the head's bytes up to its blank line (what follows is the body)
            end = (self._tail + data).find(b"\r\n\r\n")
            if end < 0:
                self._head_bytes += len(data)
                self._tail = data[-3:]
            else:
                self._head_bytes += max(0, end - len(self._tail))
                self._tail = b""
            if self._head_bytes > self.limits.max_head:  # refused before the parser buffers any more of it
                self._refuse(431, f"the request head is larger than {self.limits.max_head} bytes")
                return
        super().data_received(data)

    def on_message_begin(self) -> None:
        GuardedProtocol.idle.pop(self, None)
        super().on_message_begin()
        self._in_head = True
        self._header_count = 0
        self._arm(self.limits.request_timeout)

    def on_url(self, url: bytes) -> None:
        if len(self.url) + len(url) > self.limits.max_head:
            self._refusal = (431, f"the request line is longer than {self.limits.max_head} bytes")
            raise _Refused()
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.limits.max_headers:
            self._refusal = (431, f"the request has more than {self.limits.max_headers} header fields")
            raise _Refused()
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        quick = self.quick.get(self.url)
        if (quick is not None and self.parser.get_method() == b"GET" and not self.parser.should_upgrade()
                and not self.pipeline
                and (self.cycle is None or self.cycle.response_complete)
                and not any(name in (b"content-length", b"transfer-encoding") for name, _ in self.headers)):
            self._quick = quick  # answered once the message is complete, in place of the app
            return
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        quick, self._quick = self._quick, None
        if quick is None:
            super().on_message_complete()
        self._disarm()
        self._head_bytes = 0
        self._tail = b""
        self._in_head = True  # what comes next on this connection is the next request's head
        if quick is not None:
            self._answer_quick(quick())

    def _answer_quick(self, body: bytes) -> None:
        """200 with the JSON ``body``, as uvicorn would write it; then the connection closes or waits for its next
        request as after any answer (keep-alive timer, idle)."""
        if self.transport.is_closing():
            return
        keep_alive = self.parser.should_keep_alive()
        head = [b"HTTP/1.1 200 OK\r\n"]
        head += [name + b": " + value + b"\r\n" for name, value in self.server_state.default_headers]
        head.append(b"content-type: application/json\r\ncontent-length: %d\r\n" % len(body))
        if not keep_alive:
            head.append(b"connection: close\r\n")
        self.transport.write(b"".join(head) + b"\r\n" + body)
        if not keep_alive:
            self.transport.close()
            return
        self.on_response_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._counted and not self.transport.is_closing():
            GuardedProtocol.idle[self] = None  # waiting for its next request: the first to go when full

    def send_400_response(self, msg: str) -> None:
        if self._refusal is not None:
            self._refuse(*self._refusal)
            return
        super().send_400_response(msg)

    def _refuse(self, status: int, detail: str) -> None:
        """Answer ``status`` with a problem body and close the connection."""
        self._refusal = (status, detail)
        self._disarm()
        if self.transport.is_closing():
            return
        reason = _REASONS.get(status, "Bad Request")
        body = msgspec.json.encode({"type": PROBLEM_TYPE + "limit", "title": reason, "status": status, "detail": detail,
                                    "errors": [{"code": "limit", "message": detail, "hint": None, "rule": None,
                                                "location": {"file": None, "line": None, "column": None,
                                                             "length": None}, "path": None}]})
        head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/problem+json\r\n"
                f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode("ascii")
        self.transport.write(head + body)
        self.transport.close()


def _evict_idle() -> bool:
    """Close the connection idle the longest to make room for a new one; False when none is idle."""
    idle = GuardedProtocol.idle
    while idle:
        oldest = next(iter(idle))
        del idle[oldest]
        if oldest.transport is not None and not oldest.transport.is_closing():
            oldest._counted = False  # its slot goes to the new connection now, not when its loss is reported
            cls = GuardedProtocol
            cls.open_total -= 1
            left = cls.open_per_client.get(oldest._host, 1) - 1
            if left > 0:
                cls.open_per_client[oldest._host] = left
            else:
                cls.open_per_client.pop(oldest._host, None)
            oldest.transport.abort()
            return True
    return False


class _Refused(Exception):
    """Raised from a parser callback to stop reading a request the guard refuses."""


assert issubclass(httptools.HttpParserCallbackError, httptools.HttpParserError)
