"""The WebSocket connections of the live tables: each with its own queue of messages to send, in order.

A change at a table is sent to every connection of that table, each its own view (one encoding per seat,
shared by the seat's tabs).  A connection sends from its own task: a slow phone never holds up the table
or another seat.  One whose queue passes ``ws_queue`` messages has stopped reading: it is closed (1008)
and, once it reconnects, resumes with the current state.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque

from starlette.websockets import WebSocket

__all__ = ["Conn", "TokenBucket"]


class TokenBucket:
    """``rate`` messages a second, in bursts of ``2 * rate``."""

    def __init__(self, rate: int, now: float) -> None:
        self.rate = float(rate)
        self.capacity = 2.0 * rate
        self.tokens = self.capacity
        self.at = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Conn:
    """One WebSocket at a table: who sits there (``None``: a spectator) and its outgoing queue."""

    def __init__(self, ws: WebSocket, seat: str | None, limit: int) -> None:
        self.ws = ws
        self.seat = seat
        self.limit = limit
        self._out: deque[str] = deque()
        self._wake = asyncio.Event()
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._writer())

    def push(self, text: str) -> None:
        if self.closed:
            return
        if len(self._out) >= self.limit:
            self.close(1008, "too many messages waiting: the client is not reading")
            return
        self._out.append(text)
        self._wake.set()

    def close(self, code: int, reason: str) -> None:
        """Close after the messages already queued."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            self._wake.set()

    async def _writer(self) -> None:
        ws = self.ws
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._out:
                    await ws.send_text(self._out.popleft())
                if self.closed:
                    break
            with contextlib.suppress(Exception):
                await ws.close(self.close_code, self.close_reason)
        except Exception:  # the client went away: the reader sees it too
            self.closed = True

    async def finish(self) -> None:
        """Stop sending (the reader is done)."""
        self.closed = True
        self._out.clear()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
