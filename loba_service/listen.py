"""Accepting connections: every connection waiting in the kernel's accept queue, at each turn of the event loop.

libuv (uvloop's core) accepts one connection per turn of the event loop since its 1.45 ("don't accept() connections
in a loop", libuv pull request 3696).  A busy server turns its loop a few dozen to a few hundred times a second
(each turn answers every request that arrived meanwhile), so a client opening connections faster than that (an
idle-connection flood) fills the kernel's accept queue, and every new client, a health check among them, waits
behind the whole queue: ``/healthz`` took 0.4 to 3.9 s under ``benchmarks/bench_load.py``'s flood, every second of
it between the client's ``connect`` and the server's ``accept``.

asyncio's own loop accepts up to the backlog at each turn (CPython issue 27906) but answers requests at a third of
uvloop's rate here; :class:`Loop` keeps uvloop and accepts as asyncio does: the listening socket is watched by
``add_reader``, and each turn accepts until the queue is empty (at most :attr:`GreedyServer.per_turn`
connections).  What is over
the connection limits is then closed or evicted at once by :class:`loba_service.guard.GuardedProtocol`.

``loba serve`` runs uvicorn with ``loop="loba_service.listen:new_event_loop"``; without uvloop installed it is
asyncio's loop, which needs none of this.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Callable
from typing import Any

__all__ = ["GreedyServer", "new_event_loop"]

log = logging.getLogger("loba_service")

_OUT_OF_DESCRIPTORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


class GreedyServer(asyncio.AbstractServer):
    """A listening socket served by accepting every waiting connection at once (what ``create_server`` returns
    for a given ``sock`` on :class:`Loop`)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, protocol_factory: Callable[[], asyncio.BaseProtocol],
                 sock: socket.socket, backlog: int) -> None:
        self._loop = loop
        self._factory = protocol_factory
        self._sock: socket.socket | None = sock
        self._backlog = max(1, backlog)
        self._serving = False
        self._closed = asyncio.Event()
        self.accepted = 0
        """Connections accepted (for the tests)."""
        sock.setblocking(False)
        sock.listen(self._backlog)

    # ------------------------------------------------------------ accepting

    def _start(self) -> None:
        if self._sock is not None and not self._serving:
            self._serving = True
            self._loop.add_reader(self._sock.fileno(), self._accept)

    per_turn = 64
    """Most connections accepted at one turn (with ~30 turns a second under load, ~2,000 a second): a turn that
    accepted a whole backlog of 2,048 would hold every request in flight for a good part of a second."""

    def _accept(self) -> None:
        sock = self._sock
        for _ in range(min(self._backlog, self.per_turn)):
            if sock is None:
                return
            try:
                conn, _ = sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return  # the queue is empty
            except OSError as e:
                if e.errno not in _OUT_OF_DESCRIPTORS:
                    raise
                # Out of file descriptors: stop reading for a second (as asyncio does), or this would spin.
                log.warning("cannot accept a connection: %s; accepting again in 1 s", e.strerror)
                self._loop.remove_reader(sock.fileno())
                self._serving = False
                self._loop.call_later(1.0, self._start)
                return
            self.accepted += 1
            self._connect(conn)

    def _connect(self, conn: socket.socket) -> None:
        """The connection's transport and protocol made now, in this turn of the loop, not by a task that would
        run a turn later; and what the client has already sent (a client sends its request right after its
        ``connect``, so it is usually there by the time it is accepted) given to the protocol at once, as its
        first data, instead of at the loop's next turn: a health check is answered in the turn that accepts it
        (:attr:`loba_service.guard.GuardedProtocol.quick`), and every new connection's first request starts a
        turn earlier."""
        try:
            first: bytes | None = conn.recv(FIRST_READ, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            first = None  # nothing sent yet: the transport reads it when it comes
        except OSError:  # reset before it was accepted: nothing to answer
            conn.close()
            return
        if first == b"":  # closed before it was accepted
            conn.close()
            return
        factory = self._factory if first is None else _first_data(self._factory, first)
        steps = self._loop.connect_accepted_socket(factory, conn)

        def step(_: object = None) -> None:  # drive the coroutine as a task would, without waiting for a turn
            try:
                waiting = steps.send(None)
            except StopIteration:
                return
            except Exception:  # a connection reset before its transport was made: nothing to answer
                conn.close()
                return
            if isinstance(waiting, asyncio.Future):
                waiting.add_done_callback(step)
            else:  # a bare yield: go on at the next turn, as a task would
                self._loop.call_soon(step)

        step()

    # ------------------------------------------------------------ asyncio.AbstractServer

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is None:
            return
        if self._serving:
            self._loop.remove_reader(sock.fileno())
            self._serving = False
        sock.close()
        self._closed.set()

    async def wait_closed(self) -> None:
        await self._closed.wait()

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def is_serving(self) -> bool:
        return self._serving

    async def start_serving(self) -> None:
        self._start()

    async def serve_forever(self) -> None:
        self._start()
        await self._closed.wait()

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return () if self._sock is None else (self._sock,)


FIRST_READ = 65_536
"""Most bytes read from a new connection when it is accepted (the transport reads the rest)."""


def _first_data(factory: Callable[[], asyncio.BaseProtocol], data: bytes) -> Callable[[], asyncio.BaseProtocol]:
    """``factory``, whose protocol is given ``data`` as soon as its connection is made (what the connection had
    sent before it was accepted, read by :meth:`GreedyServer._connect`; the transport reads what follows)."""

    def make() -> asyncio.BaseProtocol:
        protocol = factory()
        made = protocol.connection_made

        def connection_made(transport: asyncio.BaseTransport) -> None:
            made(transport)
            if not transport.is_closing() and isinstance(protocol, asyncio.Protocol):
                protocol.data_received(data)

        protocol.connection_made = connection_made  # type: ignore[method-assign]
        return protocol

    return make


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvicorn's ``loop`` hook (a custom loop is named by its factory): a uvloop loop whose servers on a given
    socket accept greedily; asyncio's own loop when uvloop is not installed."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()

    class Loop(uvloop.Loop):
        async def create_server(  # type: ignore[override]  # one signature for asyncio's overloads
                self, protocol_factory: Callable[[], asyncio.BaseProtocol], host: Any = None, port: Any = None, *,
                sock: socket.socket | None = None, backlog: int = 100, ssl: Any = None,
                **kwargs: Any) -> asyncio.AbstractServer:
            if sock is None or ssl is not None or kwargs or sock.type != socket.SOCK_STREAM:
                server: asyncio.AbstractServer = await super().create_server(
                    protocol_factory, host, port, sock=sock, backlog=backlog, ssl=ssl, **kwargs)
                return server
            greedy = GreedyServer(self, protocol_factory, sock, backlog)
            greedy._start()
            return greedy

    return Loop()
