"""The server's listening socket: every connection waiting in the accept queue is accepted at one turn of the
event loop (:mod:`loba_service.listen`), where uvloop's own server (libuv 1.45 and later) accepts one a turn, and
a flood of connections then holds every new client (a health check among them) in the kernel's queue."""

from __future__ import annotations

import asyncio
import functools
import socket
import threading
from collections.abc import Callable
from typing import Any, ClassVar, cast

import pytest

from loba_service import listen

uvloop = pytest.importorskip("uvloop")


def in_own_thread(test: Callable[..., None]) -> Callable[..., None]:
    """Run ``test`` in a thread of its own: the thread running the tests may already hold an event loop (the
    browser tests' Playwright session keeps one), and a loop cannot run while another runs in its thread."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        failed: list[BaseException] = []

        def body() -> None:
            try:
                test(*args, **kwargs)
            except BaseException as e:  # re-raised in the test's thread
                failed.append(e)

        worker = threading.Thread(target=body, name="listen-test-loop")
        worker.start()
        worker.join(60)
        assert not worker.is_alive(), "the test's loop did not finish within 60 s"
        if failed:
            raise failed[0]

    return run


class Echo(asyncio.Protocol):
    made: ClassVar[list[asyncio.BaseTransport]] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        Echo.made.append(transport)
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports do not subclass asyncio's

    def data_received(self, data: bytes) -> None:
        self.transport.write(data.upper())


@pytest.mark.parametrize(("backlog", "per_turn", "at_first_turn"), [(64, 64, 20), (5, 64, 5), (64, 8, 8)])
@in_own_thread
def test_every_waiting_connection_is_accepted_at_one_turn(backlog: int, per_turn: int, at_first_turn: int) -> None:
    """20 connections wait: one turn accepts them all, or as many as the backlog or the bound of a turn allow."""
    loop = listen.new_event_loop()
    assert isinstance(loop, uvloop.Loop)
    Echo.made = []
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        clients = [socket.create_connection(sock.getsockname()) for _ in range(20)]  # all in the accept queue

        async def main() -> None:
            server = listen.GreedyServer(loop, Echo, sock, backlog)  # what create_server makes, not yet serving
            server.per_turn = per_turn
            server._accept()  # what one turn of the loop does when the listening socket is readable
            assert server.accepted == at_first_turn  # uvloop's own server: 1
            server._start()
            assert server.is_serving()
            while server.accepted < 20:
                await asyncio.sleep(0.01)
            for _ in range(100):
                if len(Echo.made) == 20:
                    break
                await asyncio.sleep(0.01)
            assert len(Echo.made) == 20
            def answers() -> list[bytes]:  # the clients' side, off the loop (which must echo meanwhile)
                for i, c in enumerate(clients):
                    c.sendall(b"ping %d" % i)
                    c.settimeout(5)
                return [c.recv(64) for c in clients]

            assert await loop.run_in_executor(None, answers) == [b"PING %d" % i for i in range(20)]
            server.close()
            await server.wait_closed()
            assert not server.is_serving() and server.sockets == ()
            for t in Echo.made:
                t.close()
            await asyncio.sleep(0.05)  # the transports' closing callbacks

        try:
            loop.run_until_complete(main())
        finally:
            for c in clients:
                c.close()
            loop.close()


@in_own_thread
def test_a_server_on_a_socket_is_greedy_one_on_a_host_and_port_uvloops_own() -> None:
    loop = listen.new_event_loop()

    async def main() -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            greedy = await loop.create_server(Echo, sock=sock, backlog=16)  # as uvicorn serves loba serve's socket
            assert isinstance(greedy, listen.GreedyServer) and greedy.is_serving()
            greedy.close()
            await greedy.wait_closed()
        server = await loop.create_server(Echo, host="127.0.0.1", port=0)
        assert not isinstance(server, listen.GreedyServer)
        server.close()
        await server.wait_closed()

    try:
        loop.run_until_complete(main())
    finally:
        loop.close()
