"""``loba serve``: the HTTP validation service (``loba_service``) on uvicorn.

Registered on :data:`loba_cli.app.app` (:mod:`loba_cli.main` gathers the command modules); the service,
Starlette, msgspec and uvicorn are imported only when the command runs, so ``loba check`` does not pay for them.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from loba_cli.app import app
from loba_cli.common import fail as _fail

_MISSING = "error: the service needs its extra: pip install 'loba-dsl[service]' ({})"


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port (0: any free port).")] = 8080,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64,
                                         help="Server processes (each with its own solver processes).")] = 1,
    access_log: Annotated[bool, typer.Option("--access-log", help="Log every request.")] = False,
    db: Annotated[str | None, typer.Option("--db", metavar="PATH", help="Keep live tables in this SQLite file "
                                           "(created on first use); without it they live in memory only.")]
    = None,
) -> None:
    """Serve the page at / and the HTTP API (OpenAPI at /openapi.json, docs at /docs) until SIGTERM or Ctrl-C.

    SIGTERM stops accepting connections, lets the requests in flight finish (at most the solver budget
    plus a few seconds), stops the solver processes and exits 0.
    """
    try:
        import uvicorn

        import loba_service.app  # noqa: F401  (fail here, with the hint, if starlette or msgspec is missing)
        from loba_service.limits import Limits
    except ImportError as e:
        _fail(_MISSING.format(e))
    limits = Limits.from_env()
    import os
    import secrets
    import signal
    import threading

    from loba_service.guard import GuardedProtocol
    from loba_service.seal import KEY_ENV

    # One key for every worker process, so any worker opens any sealed record (drawn here when unset).
    os.environ.setdefault(KEY_ENV, secrets.token_hex(32))
    # Live tables (loba_service.tables): where they are kept, and whether this server may hold them (one process).
    if db is not None:
        os.environ["LOBA_SERVICE_TABLES_DB"] = os.path.abspath(db)
    os.environ["LOBA_SERVICE_WORKERS"] = str(workers)
    if workers > 1:
        sys.stderr.write("loba serve: live tables are refused with more than one worker (their WebSockets follow "
                         "the one process that holds a table): use --workers 1 to play live tables\n")
        sys.stderr.write("loba serve: each worker keeps its own game states, so a /v1/games state token may be gone "
                         "(410) on the worker that gets it: clients fall back to the record\n")
    sock = _listen(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    sys.stderr.write(f"loba serve: http://{shown}:{bound} (the page at /, the API docs at /docs), "
                     f"{workers} worker(s)\n")
    sys.stderr.flush()
    _raise_file_limit()
    # In-flight requests get their whole budget to finish; then the rest is cancelled and the process exits.
    graceful = limits.max_budget_ms // 1000 + 5

    def stopped(signum: int, frame: object) -> None:  # uvicorn re-raises SIGTERM once it has drained
        sys.stderr.write("loba serve: stopped\n")
        sys.stderr.flush()
        os._exit(0)  # busy worker threads were told to stop; nothing is left to wait for

    signal.signal(signal.SIGTERM, stopped)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            if not self.should_exit:  # the first signal: a watchdog bounds the whole stop
                timer = threading.Timer(graceful + 10, _hard_stop)
                timer.daemon = True
                timer.start()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        "loba_service.app:server_app",
        factory=True,
        http=GuardedProtocol,
        loop="loba_service.listen:new_event_loop",  # uvloop, accepting every waiting connection at each turn
        workers=workers,
        access_log=access_log,
        log_level="info" if access_log else "warning",
        timeout_graceful_shutdown=graceful,
        timeout_keep_alive=limits.keep_alive,
        limit_max_requests=None,
        server_header=False,
        # A live table's state messages are 1-3 kB of JSON sent to every seat after every move: compressing each
        # for each socket cost a tenth of the server's CPU a move (benchmarks/bench_tables.py), for bytes a phone
        # on any network receives in no time.
        ws_per_message_deflate=False,
    )
    if workers > 1:
        from uvicorn.supervisors import Multiprocess

        Multiprocess(config, sockets=[sock]).run()
    else:
        Server(config).run(sockets=[sock])
    sys.stderr.write("loba serve: stopped\n")
    sys.stderr.flush()
    os._exit(0)


def _listen(host: str, port: int) -> Any:
    """The listening socket (so ``--port 0`` can say which port it got); a port in use is one line, exit 2."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as e:
        sock.close()
        _fail(f"error: cannot listen on {host}:{port}: {e.strerror or e}")
    sock.set_inheritable(True)
    return sock


def _raise_file_limit() -> None:
    """Use every file descriptor the system allows (the connection limits stay well under it)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _hard_stop() -> None:
    import os

    sys.stderr.write("loba serve: stopped (work still running past the graceful stop was cancelled)\n")
    sys.stderr.flush()
    os._exit(0)
