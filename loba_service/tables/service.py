"""The live tables of one server process: created, loaded from the store, played, watched, swept.

All of a table's work (checking the ply, refereeing, appending to the store, queuing every connection's
new state) runs on the event loop with no ``await`` in between: one action at a time per table, the
store's transaction checking the ply again.  A table is loaded from the store the first time it is
asked for (after a restart: replayed from its actions, each action's record digest checked).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec

from loba_service.problems import ErrorItem, ErrorLocation, ServiceError
from loba_service.tables import bots as seat_bots
from loba_service.tables.config import TablesConfig
from loba_service.tables.hub import Conn
from loba_service.tables.live import ActionRefused, LiveTable, Spec
from loba_service.tables.store import Stale, Store

__all__ = ["Seat", "Tables", "token_hash"]

log = logging.getLogger("loba_service.tables")

HOST = "\0host"
"""The host's place in :attr:`Entry.who` (no seat has this name: names print)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Entry:
    """A table in memory: the game, the tokens' hashes, the connections watching it."""

    live: LiveTable
    host_hash: str
    seat_hashes: dict[str, str]
    conns: set[Conn] = field(default_factory=set)
    bots: dict[str, Any] = field(default_factory=dict)
    """The bot playing each bot seat (see :mod:`loba_service.tables.bots`)."""
    bot_task: asyncio.Task[None] | None = None

    def who(self, token: str | None) -> str | None:
        """The seat a token holds (:data:`HOST` for the host's), compared in constant time; ``None``: no
        token.  A token of no seat of this table is a 403."""
        if token is None:
            return None
        given = token_hash(token)
        found: str | None = None
        for name, h in self.seat_hashes.items():  # every comparison made, whichever matches
            if hmac.compare_digest(h, given):
                found = name
        if hmac.compare_digest(self.host_hash, given):
            found = HOST
        if found is None:
            raise ServiceError(403, "forbidden", "Not a seat of this table",
                               "the token is not one of this table's seats (nor its host's)")
        return found


Seat = str | None


class Tables:
    """The live tables of this process (``svc``: the service, for its rulesets)."""

    def __init__(self, svc: Any, config: TablesConfig | None = None) -> None:
        self.svc = svc
        self.config = config or TablesConfig.from_env()
        self._store: Store | None = None
        self.tables: dict[str, Entry] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._dropped: dict[str, Entry] = {}
        """Entries forgotten because the store and the memory disagreed: their connections move to the reloaded
        entry."""
        self.accepted = 0
        """Actions accepted since the process started."""
        self._bot_pool: concurrent.futures.ThreadPoolExecutor | None = None
        """One thread where the bots think, one decision at a time (it bounds the CPU they take)."""

    # ------------------------------------------------------------ life

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.config.db)
        return self._store

    async def start(self) -> None:
        if self.config.workers == 1:
            _ = self.store
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def close(self) -> None:
        for entry in [*self.tables.values(), *self._dropped.values()]:
            if entry.bot_task is not None:
                entry.bot_task.cancel()
        if self._bot_pool is not None:
            self._bot_pool.shutdown(wait=True, cancel_futures=True)
            self._bot_pool = None
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        for entry in list(self.tables.values()):
            for conn in list(entry.conns):
                conn.close(1001, "the server is stopping")
        if self._store is not None:
            self._store.close()
            self._store = None

    def refuse_workers(self) -> None:
        n = self.config.workers
        if n != 1:
            raise ServiceError(501, "tables-need-one-process", "Live tables need one server process",
                               f"this server runs {n} processes (loba serve --workers {n}); a live table's seats "
                               "follow it over WebSockets held by the one process that holds the table: start "
                               "the server with --workers 1 to play live tables")

    # ------------------------------------------------------------ creating and finding

    async def create(self, ruleset: Any, players: list[str], dealer: str | None, seed: int | None,
                     match: bool, bots: dict[str, str] | None = None) -> tuple[Entry, dict[str, str], str]:
        """A new table: its entry, each person's seat's token (a bot's seat has none), the host's token."""
        self.refuse_workers()
        if self.store.live_count() >= self.config.max_tables:
            raise ServiceError(503, "too-many-tables", "Too many live tables",
                               f"this server holds its limit of {self.config.max_tables} live tables; retry later",
                               headers={"Retry-After": "60"})
        rs = await self.ruleset(ruleset)
        if not rs.players.allows(len(players)):
            raise _bad(f"{rs.name} is played by {rs.players.min} to {rs.players.max} players, not {len(players)}",
                       "$.players")
        if len(set(players)) != len(players):
            raise _bad("the players must have different names", "$.players")
        who = dealer if dealer is not None else players[-1]
        if who not in players:
            raise _bad(f"the dealer {who!r} is not one of the players", "$.dealer")
        bots = dict(bots or {})
        wrong = seat_bots.unknown_bots(bots, players)
        if wrong is not None:
            raise _bad(wrong, "$.bots")
        spec = Spec(ruleset if isinstance(ruleset, str) else msgspec.to_builtins(ruleset), tuple(players), who,
                    seed if seed is not None else secrets.randbits(128), seed is not None, match, bots)
        table_id = secrets.token_urlsafe(12)
        live = LiveTable(table_id, spec, rs)
        tokens = {p: secrets.token_urlsafe(24) for p in players if p not in bots}  # 192 random bits each
        host = secrets.token_urlsafe(24)
        entry = Entry(live, token_hash(host), {p: token_hash(t) for p, t in tokens.items()},
                      bots=seat_bots.new_bots(live))
        self.store.create(table_id, spec.to_dict(), entry.host_hash, entry.seat_hashes)
        self.tables[table_id] = entry
        self.wake(entry)
        log.info("table %s created: %s, %d players", table_id, live.table.ruleset_ref, len(players))
        return entry, tokens, host

    async def ruleset(self, ref: Any) -> Any:
        """The table's ruleset: a shipped one from the service's cache; a house one (its cost is the client's
        choice) compiled in a solver process, bounded by the request budget and the solver's memory limit as
        every other endpoint's house rulesets, and sent back compiled: the server never compiles a client's
        text itself (a 422 past the budget or the memory, or for a broken ruleset)."""
        from loba_service.bodies import UNNAMED_RULESET, HouseRuleset

        if not isinstance(ref, HouseRuleset):
            return await self.svc.ruleset(ref)
        cache = self.svc.rulesets
        rs = cache.cached(ref)  # (raises the error of a known broken one)
        if rs is None:
            file = ref.file or UNNAMED_RULESET
            rs = await self.svc.solve("call", ("ruleset", file, ref.yaml), self.svc.limits.request_budget_ms / 1000)
            cache.keep(file, ref.yaml, rs)
        return rs

    async def get(self, table_id: str) -> Entry:
        """The table, loaded from the store if this process has not seen it yet; 404 if there is none."""
        self.refuse_workers()
        entry = self.tables.get(table_id)
        if entry is not None:
            return entry
        row = self.store.load(table_id) if len(table_id) <= 64 else None
        if row is None:
            raise ServiceError(404, "not-found", "No such table",
                               "no table has this id (it may have finished and been removed)")
        spec = Spec.from_dict(row.spec)
        rs = await self.ruleset(_ref(spec.ruleset))
        entry = self.tables.get(table_id)  # loaded by another request meanwhile
        if entry is not None:
            return entry
        live = LiveTable(table_id, spec, rs)
        for ply, action, digest in row.actions:
            if ply != live.ply:
                raise _broken(table_id, f"its action at ply {ply} follows ply {live.ply}")
            try:
                live.act(action["player"], action)
            except ActionRefused as e:
                raise _broken(table_id, f"its action at ply {ply} is refused now: {e.message}") from None
            if live.digest != digest:
                raise _broken(table_id, f"replaying it gives another game at ply {ply}")
        entry = Entry(live, row.host_hash, row.seat_hashes, bots=seat_bots.new_bots(live))
        self.tables[table_id] = entry
        old = self._dropped.pop(table_id, None)
        if old is not None:  # the connections that watched the forgotten copy follow the table as stored
            entry.conns |= old.conns
            self.broadcast(entry)
        self.wake(entry)
        return entry

    def _drop(self, table_id: str) -> None:
        entry = self.tables.pop(table_id, None)
        if entry is not None:
            self._dropped[table_id] = entry

    # ------------------------------------------------------------ playing

    def play(self, entry: Entry, seat: str, action: dict[str, Any], ply: int) -> None:
        """Take ``seat``'s action chosen at ``ply``: refereed, stored, then every connection's new state queued.
        Raises :class:`ServiceError` (403, 409, 422) changing nothing."""
        live = entry.live
        if seat == HOST:
            raise ServiceError(403, "forbidden", "The host does not play",
                               "the host's token plays no seat: use a seat's token")
        player = action.get("player")
        if player is not None and player != seat:
            raise ServiceError(403, "not-your-seat", "Another seat's move",
                               f"this token is {seat}'s seat: it cannot move for {str(player)[:40]!r}")
        if ply != live.ply:
            raise stale(ply, live.ply)
        before = live.ply
        try:
            live.act(seat, action)
        except ActionRefused as e:
            if e.status == 403:
                raise ServiceError(403, e.slug, "Another seat's move", e.message) from None
            raise Illegal(e) from None
        stored = {**action, "player": seat}
        try:
            self.store.append(live.id, before, live.ply, stored, live.digest, live.finished)
        except Stale:  # another process took this ply: forget this copy, reload from the store next time
            self._drop(live.id)
            raise stale(ply, -1) from None
        except Exception:
            self._drop(live.id)  # the memory is ahead of the store: reload it from the store
            log.exception("table %s: the store refused an action", live.id)
            raise ServiceError(503, "store-failed", "The table could not be saved",
                               "the move could not be written to the database; it was not played",
                               headers={"Retry-After": "1"}) from None
        self.accepted += 1
        self.broadcast(entry)
        self.wake(entry)

    # ------------------------------------------------------------ the bots' seats

    def wake(self, entry: Entry) -> None:
        """Let the table's bots play while it is a bot seat's turn (a task on the event loop; nothing when
        there is no bot, or the task runs already)."""
        if not entry.bots or entry.live.finished or (entry.bot_task is not None and not entry.bot_task.done()):
            return
        entry.bot_task = asyncio.get_running_loop().create_task(self._play_bots(entry))

    async def _play_bots(self, entry: Entry) -> None:
        live = entry.live
        loop = asyncio.get_running_loop()
        while self.tables.get(live.id) is entry:
            turn = seat_bots.next_turn(live, entry.bots)
            if turn is None:
                return
            seat, ply, job = turn
            if self._bot_pool is None:
                self._bot_pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="loba-bot")
            try:
                action: dict[str, Any] | None = await asyncio.wait_for(
                    loop.run_in_executor(self._bot_pool, job), self.config.bot_s)
            except TimeoutError:
                log.warning("table %s: the bot at %s took over %d s; it plays its first legal action", live.id,
                            seat, self.config.bot_s)
                entry.bots = seat_bots.new_bots(live)  # the late one may still be thinking
                action = seat_bots.fallback(live, seat) if live.ply == ply else None
            except Exception:
                log.exception("table %s: the bot at %s failed", live.id, seat)
                return
            if action is None or live.ply != ply or self.tables.get(live.id) is not entry:
                continue  # the table moved on meanwhile (another seat's re-entry): ask again
            try:
                self.play(entry, seat, action, ply)
            except ServiceError as e:
                log.error("table %s: the bot at %s chose an action the table refused: %s", live.id, seat, e.detail)
                return

    def broadcast(self, entry: Entry) -> None:
        live = entry.live
        encoded: dict[str | None, str] = {}
        for conn in list(entry.conns):
            text = encoded.get(conn.seat)
            if text is None:
                text = encoded[conn.seat] = self.state_message(live, conn.seat, events=True)
            conn.push(text)

    def state_message(self, live: LiveTable, seat: str | None, events: bool = False) -> str:
        msg = {"type": "state", "ply": live.ply, "view": live.view(seat),
               "events": live.events_for(seat) if events else []}
        return msgspec.json.encode(msg).decode("utf-8")

    # ------------------------------------------------------------ sweeping

    async def _sweep_forever(self) -> None:
        import anyio.to_thread

        ticks = 0
        while True:
            await asyncio.sleep(1)
            ticks += 1
            try:
                await anyio.to_thread.run_sync(self.store.checkpoint)
                if ticks % self.config.sweep_s == 0:
                    self.sweep()
            except Exception:  # a database that cannot be written now is tried again later
                log.exception("checkpointing or sweeping the tables failed")

    def sweep(self, now: float | None = None) -> list[str]:
        """Remove the tables finished more than ``keep_finished_s`` ago and those abandoned (no action for
        ``abandon_s``); their connections are closed (4410)."""
        now = time.time() if now is None else now
        gone = self.store.expired(now - self.config.keep_finished_s, now - self.config.abandon_s)
        if gone:
            self.store.delete(gone)
            for table_id in gone:
                entry = self.tables.pop(table_id, None) or self._dropped.pop(table_id, None)
                if entry is not None:
                    for conn in list(entry.conns):
                        conn.close(4410, "the table was removed")
            log.info("removed %d finished or abandoned table(s)", len(gone))
        return gone


class Illegal(ServiceError):
    """A 422: the referee's reasons (``reasons``: ``{"rule", "message", "where"}``) as located problems, in
    English and (``spoken``, :meth:`reasons_in`) in each other language the referee says them in."""

    def __init__(self, e: ActionRefused) -> None:
        def items(reasons: list[dict[str, str]]) -> list[ErrorItem]:
            return [ErrorItem(code=e.slug, message=r["message"], rule=r["rule"], location=_location(r["where"]))
                    for r in reasons]

        super().__init__(422, e.slug, "The move is illegal" if e.slug == "illegal-move" else
                         "The move cannot be played", e.message, items(e.reasons),
                         spoken={lang: (message, items(reasons)) for lang, (message, reasons) in e.spoken.items()})
        self.reasons = e.reasons
        self.refusal = e

    def reasons_in(self, lang: str) -> list[dict[str, str]]:
        """The reasons ``{"rule", "message", "where"}`` with their messages in ``lang``."""
        return self.refusal.said_in(lang)[1]


def stale(asked: int, now: int) -> ServiceError:
    where = f"the table is at ply {now}" if now >= 0 else "another move was taken at that ply"
    message = f"the move was chosen at ply {asked}, but {where}"
    return ServiceError(409, "stale", "The table has moved on", message,
                        [ErrorItem(code="stale", message=message, rule="turn.order", path="$.ply")])


def _bad(message: str, path: str) -> ServiceError:
    return ServiceError(422, "bad-table", "The table cannot be created", message,
                        [ErrorItem(code="bad-table", message=message, path=path)])


def _broken(table_id: str, why: str) -> ServiceError:
    log.error("table %s cannot be restored: %s", table_id, why)
    return ServiceError(503, "table-broken", "The table cannot be restored",
                        "the stored table cannot be replayed by this server (see its log)")


def _ref(ruleset: Any) -> Any:
    if isinstance(ruleset, str):
        return ruleset
    from loba_service.bodies import HouseRuleset

    return msgspec.convert(ruleset, HouseRuleset)


def _location(where: str) -> ErrorLocation:
    file, _, line = where.rpartition(":")
    if file and line.isdigit():
        return ErrorLocation(file, int(line), 1, 1)
    return ErrorLocation(where or None)


__all__ += ["HOST", "Entry", "Illegal", "stale"]
