"""The games a server process keeps, so a client may send a state token instead of the whole record.

Every game answer (``/v1/games/deal``, ``/play``, ``/check``, ``/state``) carries ``"state"``: a token that
stands for the record the answer describes, as the server holds it (sealed games: the whole record, every
hidden card).  A later request may send that token instead of the record; the server resumes the table it
kept and the answer need not carry the record back (``"include_record": false``), so a move costs the same at
ply 400 as at ply 4.

The token is an HMAC-SHA-256 (192 bits kept) under a key derived from the service key, of the ruleset's key,
whether the game is sealed, and the record's digest (:attr:`Table.digest <loba_dsl.game.table.Table.digest>`):

- it cannot be guessed or forged without the service key (the seal's key comes from the same key, so a sealed
  game's token is as strong as its seal), and it says nothing about the record it stands for;
- it names a state, not a game: every answer gives a new one, an earlier token still stands for its earlier
  state (exactly as an earlier record does), and the same state reached twice has the same token;
- it binds the ruleset: a token is refused under another ruleset.

The store is a least-recently-used map, bounded in entries and in (estimated) bytes; a token that was never
made here, or whose state was dropped (the bound, a restart, another worker process of ``--workers N``) is
gone: the client sends the record instead (410 ``state-gone``).

>>> states = GameStates(b"k" * 32, count=2, max_bytes=10**6)
>>> t1 = states.put(Held(table=None, full={"rounds": []}, sealed=False, ruleset_key="r", ref="menos"), "d1")
>>> t2 = states.put(Held(table=None, full={"rounds": []}, sealed=False, ruleset_key="r", ref="menos"), "d2")
>>> t3 = states.put(Held(table=None, full={"rounds": []}, sealed=False, ruleset_key="r", ref="menos"), "d3")
>>> states.get(t1) is None, states.get(t3) is not None, len(states)
(True, True, 2)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PLY_BYTES", "GameStates", "Held"]

PLY_BYTES = 1_024
"""Estimated bytes a kept state costs per move of its record (a round state is about 0.9 KiB, measured on a
4-player menos round; states shared by the plies of one game are counted in each)."""
BASE_BYTES = 4_096
"""Estimated bytes of a kept state besides its moves (the deal, the players, the entry itself)."""
_TOKEN_BYTES = 24


@dataclass(eq=False)
class Held:
    """What a state token stands for: the table that played the record (where the game work runs in this
    process), or the whole record (house rulesets: their game work runs in a solver process)."""

    table: Any
    """A :class:`~loba_dsl.game.table.Table` never played on (copy it to play), or ``None``."""
    full: dict[str, Any] | None
    """The whole record (every hidden card), where ``table`` is ``None``."""
    sealed: bool
    """Whether the game is sealed (its answers show hidden cards as ``??`` and carry the seal)."""
    ruleset_key: str
    """What the ruleset is bound by (:meth:`loba_service.games.Games.ruleset_key`)."""
    ref: Any
    """The ruleset as the request named it (a shipped name, or a house ruleset): used when a request sends a
    token and no ruleset."""
    ply: int = 0
    bytes: int = field(default=0)

    def record(self) -> dict[str, Any]:
        """The whole record (every hidden card)."""
        if self.table is not None:
            full: dict[str, Any] = self.table.record()
            return full
        assert self.full is not None
        return self.full


def estimated_bytes(held: Held) -> int:
    if held.table is not None:
        moves = sum(len(log.moves) for log in held.table.rounds)
    else:
        assert held.full is not None
        moves = sum(len(r.get("moves", ())) for r in held.full.get("rounds", ()) if isinstance(r, dict))
    return BASE_BYTES + PLY_BYTES * moves


class GameStates:
    """At most ``count`` kept states and about ``max_bytes`` of them, by token, least recently used dropped
    first (thread-safe)."""

    def __init__(self, key: bytes, count: int = 4_096, max_bytes: int = 256 * 1_048_576) -> None:
        self._mac = hmac.new(hmac.new(key, b"loba-game-state-token", hashlib.sha256).digest(), digestmod="sha256")
        self.count = count
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, Held] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self.dropped = 0

    def token(self, ruleset_key: str, sealed: bool, digest: str) -> str:
        """The token of the state of that record digest, ruleset and seal (the same state, the same token)."""
        mac = self._mac.copy()  # the keyed state made once: cheaper than a new HMAC a token
        mac.update(f"{ruleset_key}\0{int(sealed)}\0{digest}".encode("ascii"))
        return "s1." + base64.urlsafe_b64encode(mac.digest()[:_TOKEN_BYTES]).decode("ascii")

    def put(self, held: Held, digest: str) -> str:
        """Keep ``held`` (the state of the record of that digest); its token."""
        token = self.token(held.ruleset_key, held.sealed, digest)
        held.bytes = estimated_bytes(held)
        with self._lock:
            old = self._entries.pop(token, None)
            if old is not None:
                self.bytes -= old.bytes
            self._entries[token] = held
            self.bytes += held.bytes
            while len(self._entries) > self.count or (self.bytes > self.max_bytes and len(self._entries) > 1):
                _, gone = self._entries.popitem(last=False)
                self.bytes -= gone.bytes
                self.dropped += 1
        return token

    def get(self, token: str) -> Held | None:
        """The state that token stands for, or ``None`` (never made here, or dropped since)."""
        with self._lock:
            held = self._entries.get(token)
            if held is None:
                self.misses += 1
                return None
            self._entries.move_to_end(token)
            self.hits += 1
            return held

    def __len__(self) -> int:
        return len(self._entries)
