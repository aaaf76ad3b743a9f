"""The live tables' database: checkpoints from another thread never touch a closed store."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

pytest.importorskip("msgspec")

from loba_service.tables.store import Store


def test_a_checkpoint_after_close_does_nothing(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "t.db"))
    store.create("t1", {"players": ["Ana", "Beto"]}, "h", {"Ana": "a", "Beto": "b"})
    store.checkpoint()
    store.close()
    store.checkpoint()  # the sweeper's thread may still ask once the server has closed the store


def test_checkpoints_racing_close_end_cleanly(tmp_path: Path) -> None:
    """A thread checkpointing in a loop while the store closes (a server stopping with its sweeper mid-step):
    every checkpoint either runs whole before the close or does nothing after it."""
    for _ in range(20):
        store = Store(str(tmp_path / "race.db"))
        errors: list[BaseException] = []
        started = threading.Event()

        def loop(s: Store = store, errs: list[BaseException] = errors, go: threading.Event = started) -> None:
            try:
                for _ in range(200):
                    s.checkpoint()
                    go.set()
            except BaseException as e:  # pragma: no cover - what the test is there to catch
                errs.append(e)

        t = threading.Thread(target=loop)
        t.start()
        started.wait(5)
        store.close()
        t.join(10)
        assert errors == []
