"""Resuming a game without replaying it: table snapshots, kept by the digest of their record.

A stateless server gets the whole record with every move.  Replaying it costs more with every ply;
:class:`TableCache` keeps the tables it has seen (as :class:`TableSnapshot`, immutable) by
:attr:`Table.digest <loba_dsl.game.table.Table.digest>`, the digest of the record so far, which a table
extends move by move at no cost.  A later call on the same record resumes the snapshot instead: a move
then costs the same at ply 400 as at ply 4.

>>> from loba_dsl.rules.loading import load
>>> from loba_dsl.game.table import Table
>>> from loba_dsl.game.moves import Draw
>>> cache = TableCache()
>>> t = Table.deal(load("menos"), ["Ana", "Beto", "Carla"], "Carla", seed=7)
>>> key = cache.put(t)                      # after answering a call, keep the table
>>> again = cache.get(key)                  # the next call on the same record
>>> again.state == t.state, again is t
(True, False)

:func:`~loba_dsl.game.record.record_digest` gives the same digest from a record (a cache miss costs a
replay: :meth:`TableCache.resume` does both).
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from loba_dsl.game.table import Table
from loba_dsl.rules.model import Ruleset

if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    from loba_dsl.frozen import dataclass  # built without importing dataclasses (issue 22)


@dataclass(frozen=True)
class TableSnapshot:
    """A table frozen at one point of its game (its rounds' states are shared, never copied)."""

    table: Table

    @classmethod
    def of(cls, table: Table) -> TableSnapshot:
        return cls(table.copy())

    def resume(self, rng: random.Random | None = None) -> Table:
        """A table to play on from here (``rng``: its generator for reshuffles and deals, if given)."""
        t = self.table.copy()
        if rng is not None:
            t.rng = rng
        return t


class TableCache:
    """At most ``size`` table snapshots by record digest, the least recently used dropped first (thread-safe),
    and at most ``max_states`` round states held by them in all.

    A table holds one state per ply of its record (about 0.9 kB each), so a count of entries alone does not bound
    the memory: 256 tables replayed from 1 MiB records (about 17,000 plies each) would hold some 4 GB.  A snapshot
    weighs its tables' states (counted in full, although snapshots of one game share them: the bound errs on the
    safe side); the oldest go until the weights fit, and a table heavier than ``max_states`` alone is not kept.
    """

    def __init__(self, size: int = 256, max_states: int = 200_000) -> None:
        self.size = size
        self.max_states = max_states
        self._entries: OrderedDict[tuple[int, str], TableSnapshot] = OrderedDict()
        self._weights: dict[tuple[int, str], int] = {}
        self.states = 0
        """Round states held by the snapshots kept (the sum of their weights)."""
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def put(self, table: Table) -> str:
        """Keep a snapshot of ``table`` (unless it alone holds more than ``max_states`` states); its digest (the key
        to :meth:`get` it by)."""
        key = table.digest
        weight = sum(len(log.states) for log in table.rounds)
        if weight > self.max_states:
            return key
        snap = TableSnapshot.of(table)
        entry = (id(table.rs), key)
        with self._lock:
            self.states += weight - self._weights.get(entry, 0)
            self._weights[entry] = weight
            self._entries[entry] = snap
            self._entries.move_to_end(entry)
            while len(self._entries) > self.size or self.states > self.max_states:
                old, _ = self._entries.popitem(last=False)
                self.states -= self._weights.pop(old)
        return key

    def get(self, digest: str, ruleset: Ruleset | None = None, rng: random.Random | None = None) -> Table | None:
        """A table resumed from the snapshot of that digest (under ``ruleset``, where several are cached),
        or ``None``."""
        with self._lock:
            snap = None
            if ruleset is not None:
                snap = self._entries.get((id(ruleset), digest))
                if snap is not None and snap.table.rs is not ruleset:
                    snap = None
            else:
                snap = next((s for (_, d), s in reversed(self._entries.items()) if d == digest), None)
            if snap is None:
                self.misses += 1
                return None
            self._entries.move_to_end((id(snap.table.rs), digest))
            self.hits += 1
        return snap.resume(rng)

    def resume(self, record: Mapping[str, Any], ruleset: Ruleset, *, base: Path | None = None,
               rng: random.Random | None = None) -> Table:
        """The table that has played ``record``: resumed from a snapshot, or replayed (and kept).

        An illegal record raises as :func:`~loba_dsl.game.replay.from_record` does.
        """
        from loba_dsl.game.record import from_dict, record_digest
        from loba_dsl.game.replay import from_record

        hit = self.get(record_digest(record), ruleset, rng)
        if hit is not None:
            return hit
        table = from_record(from_dict(dict(record), ruleset=ruleset, base=base), rng=rng)
        self.put(table)
        return table

    def __len__(self) -> int:
        return len(self._entries)
