"""Where live tables are kept: SQLite (the standard library's), one file, WAL.

Two tables: ``live_tables`` (one row per table: what it was created from, its tokens' SHA-256, its ply,
when it finished) and ``table_actions`` (every accepted action, keyed by the table and the ply it was
taken at).  An action is appended in one transaction with the update of the table's ply that checks
it (``UPDATE ... WHERE ply = ?``): the same ply is never taken twice, by any process, and the action is
on disk (in the WAL) before anybody hears of it.

``synchronous=NORMAL`` in WAL mode: a commit is written to the WAL file without an fsync.  A process
that crashes (SIGKILL) loses nothing that was committed; a power cut (or an OS crash) may lose the
commits since the last checkpoint's fsync.  The connection that commits never checkpoints (a checkpoint
fsyncs, which would hold up the event loop for milliseconds): :meth:`Store.checkpoint` does it, on a
connection of its own, from a thread, every second.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

__all__ = ["Row", "Stale", "Store"]

_ENCODE = msgspec.json.Encoder().encode
"""An action as the JSON text stored (the same JSON as ``json.dumps(action, ensure_ascii=False)`` reads back)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS live_tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    spec TEXT NOT NULL,
    host_hash TEXT NOT NULL,
    seat_hashes TEXT NOT NULL,
    ply INTEGER NOT NULL DEFAULT 0,
    touched REAL NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS table_actions (
    table_id TEXT NOT NULL REFERENCES live_tables(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    action TEXT NOT NULL,
    digest TEXT NOT NULL,
    PRIMARY KEY (table_id, ply)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS live_tables_finished ON live_tables(finished);
"""


class Stale(Exception):
    """The table is no longer at the ply the action was taken at (another action came first)."""


@dataclass(frozen=True)
class Row:
    """A stored table: its creation, its tokens' hashes, and its actions in order."""

    id: str
    spec: dict[str, Any]
    host_hash: str
    seat_hashes: dict[str, str]
    ply: int
    finished: float | None
    actions: list[tuple[int, dict[str, Any], str]]
    """(ply taken at, action, record digest after it)."""


class Store:
    """The tables' database (``path`` empty: in memory)."""

    def __init__(self, path: str = "") -> None:
        self.path = path
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path or ":memory:", isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.executescript(SCHEMA)
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpointing = threading.Lock()
        """Held by a checkpoint and by :meth:`close`: closing a connection that another thread is using
        crashes the interpreter (seen once, a segfault in a test's teardown)."""
        self._closed = False

    def checkpoint(self) -> None:
        """Copy the WAL into the database file (and fsync it): from another thread than the one that commits;
        nothing once the store is closed."""
        if not self.path:
            return
        with self._checkpointing:
            if self._closed:
                return
            if self._checkpointer is None:
                self._checkpointer = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self._checkpointer.execute("PRAGMA busy_timeout=5000")
            self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        with self._checkpointing:  # (waits for a checkpoint under way)
            self._closed = True
            if self._checkpointer is not None:
                self._checkpointer.close()
            self.db.close()

    def create(self, table_id: str, spec: dict[str, Any], host_hash: str, seat_hashes: dict[str, str]) -> None:
        now = time.time()
        with self._tx():
            self.db.execute("INSERT INTO live_tables (id, created, spec, host_hash, seat_hashes, ply, touched) "
                            "VALUES (?, ?, ?, ?, ?, 0, ?)",
                            (table_id, now, json.dumps(spec), host_hash, json.dumps(seat_hashes), now))

    def append(self, table_id: str, ply: int, new_ply: int, action: dict[str, Any], digest: str,
               finished: bool) -> None:
        """Append an action taken at ``ply`` (the table then at ``new_ply``); :class:`Stale` if the table
        is not at ``ply`` any more.  Committed when this returns."""
        now = time.time()
        with self._tx():
            cur = self.db.execute("UPDATE live_tables SET ply = ?, touched = ?, finished = ? WHERE id = ? AND ply = ?",
                                  (new_ply, now, now if finished else None, table_id, ply))
            if cur.rowcount != 1:
                raise Stale(table_id)
            self.db.execute("INSERT INTO table_actions (table_id, ply, action, digest) VALUES (?, ?, ?, ?)",
                            (table_id, ply, _ENCODE(action).decode("utf-8"), digest))

    def load(self, table_id: str) -> Row | None:
        got = self.db.execute("SELECT spec, host_hash, seat_hashes, ply, finished FROM live_tables WHERE id = ?",
                              (table_id,)).fetchone()
        if got is None:
            return None
        actions = [(p, json.loads(a), d) for p, a, d in self.db.execute(
            "SELECT ply, action, digest FROM table_actions WHERE table_id = ? ORDER BY ply", (table_id,))]
        return Row(table_id, json.loads(got[0]), got[1], json.loads(got[2]), got[3], got[4], actions)

    def live_count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM live_tables WHERE finished IS NULL").fetchone()[0])

    def expired(self, finished_before: float, touched_before: float) -> list[str]:
        """Tables finished before ``finished_before``, or live and untouched since ``touched_before``."""
        rows = self.db.execute("SELECT id FROM live_tables WHERE (finished IS NOT NULL AND finished < ?) OR "
                               "(finished IS NULL AND touched < ?)", (finished_before, touched_before))
        return [r[0] for r in rows]

    def delete(self, table_ids: list[str]) -> None:
        with self._tx():
            for table_id in table_ids:
                self.db.execute("DELETE FROM live_tables WHERE id = ?", (table_id,))

    def _tx(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on an exception)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
