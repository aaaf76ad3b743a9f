"""The live tables' settings: where they are kept and how much one server and one connection may do.

Each can be changed with an environment variable when the server starts (``LOBA_SERVICE_MAX_TABLES=...``,
as :class:`~loba_service.limits.Limits`); ``loba serve --db PATH`` sets ``LOBA_SERVICE_TABLES_DB``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

from loba_service.limits import positive_int

__all__ = ["TablesConfig"]


@dataclass(frozen=True)
class TablesConfig:
    """Where live tables are kept, and their limits."""

    db: str = ""
    """The SQLite file (created on first use); empty: a database in memory, lost when the server stops."""
    workers: int = 1
    """Server processes (``loba serve --workers``); live tables are refused when there is more than one."""
    max_tables: int = 1_000
    """Most live (unfinished) tables one server holds; past it ``POST /v1/tables`` is a 503 with Retry-After."""
    keep_finished_s: int = 86_400
    """How long a finished table (its record, its views) is kept before it is removed, in seconds."""
    abandon_s: int = 604_800
    """A live table with no move for this long is removed, in seconds."""
    ws_idle_s: int = 300
    """A WebSocket that sends nothing (not even ``{"type": "ping"}``) for this long is closed, in seconds."""
    ws_rate: int = 20
    """Messages per second one WebSocket may send (a burst of twice as many is allowed)."""
    ws_max_message: int = 65_536
    """Largest message a WebSocket client may send, in bytes."""
    ws_queue: int = 1_024
    """Messages waiting to be sent to one WebSocket before it is closed as not reading (1008)."""
    sweep_s: int = 60
    """How often finished and abandoned tables are looked for, in seconds."""
    bot_s: int = 30
    """Longest a bot seat may think about one action, in seconds (then it plays its first legal action)."""

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> TablesConfig:
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for f in fields(cls):
            key = "LOBA_SERVICE_TABLES_DB" if f.name == "db" else f"LOBA_SERVICE_{f.name.upper()}"
            raw = env.get(key)
            if raw is None:
                continue
            values[f.name] = raw if f.name == "db" else positive_int(key, raw)
        return cls(**values)  # type: ignore[arg-type]
