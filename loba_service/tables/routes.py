"""The live tables' HTTP endpoints and WebSocket.

- ``POST /v1/tables``: a new table (201): each seat's token and link, the host's token, the public view.
- ``GET /v1/tables/{id}``: a seat's view (``Authorization: Bearer TOKEN``), or without a token the public one.
- ``POST /v1/tables/{id}/moves``: ``{"move": MOVE, "ply": N}`` with a seat's token: the events and the new view.
- ``GET /v1/tables/{id}/record``: the ``loba-record/1`` record (whole for the host and, once the game is
  over, for the seats; otherwise as the seat may see it).
- ``/v1/tables/{id}/ws``: the WebSocket (messages in :data:`PROTOCOL`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from loba_dsl import LobaError
from loba_service.problems import ServiceError, body_error, from_loba_error, speaks
from loba_service.tables.hub import Conn, TokenBucket
from loba_service.tables.schema import CreateTable, MoveRequest, WsAuth, WsIn, WsMove, WsPing
from loba_service.tables.service import HOST, Entry, Illegal, Tables

__all__ = ["PROTOCOL", "routes", "socket_routes"]

JSON = "application/json"

PROTOCOL = """\
**WebSocket `/v1/tables/{id}/ws`** (live updates).  Connect with `?token=SEAT_TOKEN`, or without it (a
spectator, shown the public view) and send `{"type": "auth", "token": SEAT_TOKEN}` as the first message.
The server sends `{"type": "state", "ply": N, "view": VIEW, "events": [...]}` at once and after every
change at the table, to every connected seat and spectator, each its own view (`GET /v1/tables/{id}`'s
body; `events`: what the last action did, another seat's stock draw showing no card).  A client sends
`{"type": "move", "move": MOVE, "ply": N}` (MOVE and N as `POST .../moves` takes them; `"messages": "es"`
for the reasons in Spanish) and gets the next state, or `{"type": "illegal", "ply": N, "reasons": [{"rule",
"message", "where"}]}`, or
`{"type": "error", "status": S, "code": C, "detail": TEXT}` (409 a stale ply, 403 another seat's move,
413 a message over `ws_max_message` bytes, 422 a malformed message, 429 past `ws_rate` messages a
second): errors go to that client only and the connection stays open.  `{"type": "ping"}` is answered
`{"type": "pong"}`; a connection that sends nothing for `ws_idle_s` seconds is closed (1000).  Close
codes: 4403 a token of no seat, 4404 no such table, 4410 the table was removed, 1008 a client that does
not read its messages, 1001 the server stopping.  A reconnect resumes with the current state; every tab
of a seat follows the table."""


def _json(obj: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(msgspec.json.encode(obj), status_code=status, media_type=JSON, headers=headers)


def _tables(svc: Any) -> Tables:
    t = svc.tables
    assert isinstance(t, Tables)
    return t


def _bearer(request: Request) -> str | None:
    raw = request.headers.get("authorization")
    if raw is None:
        return None
    scheme, _, token = raw.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 200:
        raise ServiceError(401, "unauthorized", "Bad Authorization header",
                           "give a seat's token as 'Authorization: Bearer TOKEN'",
                           headers={"WWW-Authenticate": "Bearer"})
    return token


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def create(svc: Any, request: Request) -> Response:
    """A new table, dealt by the server."""
    tables = _tables(svc)
    tables.refuse_workers()
    req = svc.decode(CreateTable, await svc.body(request))
    entry, tokens, host = await tables.create(req.ruleset, req.players, req.dealer, req.seed, req.match,
                                              req.bots)
    base, tid = _base(request), entry.live.id
    return _json({"table": tid,
                  "seats": {p: {"token": t, "url": f"{base}/?table={tid}#token={t}"} for p, t in tokens.items()},
                  "host_token": host, "watch_url": f"{base}/?table={tid}", "view": entry.live.view(None)},
                 status=201, headers={"Location": f"/v1/tables/{tid}", "Cache-Control": "no-store"})


def _seat(entry: Entry, who: str | None) -> str | None:
    return None if who is None or who == HOST else who


async def show(svc: Any, request: Request) -> Response:
    """A seat's view (its token as Bearer), or the public view."""
    entry = await _tables(svc).get(request.path_params["table"])
    who = entry.who(_bearer(request))
    return _json(entry.live.view(_seat(entry, who)), headers={"Cache-Control": "no-store"})


async def move(svc: Any, request: Request) -> Response:
    """Play a seat's move: the events and the seat's new view."""
    tables = _tables(svc)
    entry = await tables.get(request.path_params["table"])
    who = entry.who(_bearer(request))
    if who is None:
        raise ServiceError(401, "unauthorized", "A seat's token is needed",
                           "give the seat's token as 'Authorization: Bearer TOKEN'",
                           headers={"WWW-Authenticate": "Bearer"})
    req = svc.decode(MoveRequest, await svc.body(request))
    speaks(request, req)  # a refusal's reasons in the language the body asks for
    entry = await tables.get(request.path_params["table"])  # (the same entry unless it was reloaded)
    tables.play(entry, who, msgspec.to_builtins(req.move), req.ply)
    live = entry.live
    return _json({"events": live.events_for(who), "view": live.view(who)}, headers={"Cache-Control": "no-store"})


async def record(svc: Any, request: Request) -> Response:
    """The record: whole for the host (and for the seats once the game is over), else the seat's view of it."""
    entry = await _tables(svc).get(request.path_params["table"])
    who = entry.who(_bearer(request))
    live = entry.live
    whole = who == HOST or (who is not None and live.finished)
    return _json(live.record(_seat(entry, who), whole), headers={"Cache-Control": "no-store"})


def routes() -> list[tuple[str, Callable[..., Any], str]]:
    return [("/v1/tables", create, "POST"), ("/v1/tables/{table}", show, "GET"),
            ("/v1/tables/{table}/moves", move, "POST"), ("/v1/tables/{table}/record", record, "GET")]


# ---------------------------------------------------------------- the WebSocket

_DECODER = msgspec.json.Decoder(WsIn)


def _error(status: int, code: str, detail: str) -> str:
    return msgspec.json.encode({"type": "error", "status": status, "code": code, "detail": detail}).decode()


def socket_routes(svc: Any) -> list[WebSocketRoute]:
    async def endpoint(ws: WebSocket) -> None:
        await _socket(_tables(svc), ws)

    return [WebSocketRoute("/v1/tables/{table}/ws", endpoint)]


async def _socket(tables: Tables, ws: WebSocket) -> None:
    token = ws.query_params.get("token")
    if "token" in ws.query_params:
        ws.scope["query_string"] = b"token=REDACTED"  # the access log shows the path, never the token
    await ws.accept()
    try:
        entry = await tables.get(ws.path_params["table"])
        who = entry.who(token) if token is not None else None
    except ServiceError as e:
        await ws.send_text(_error(e.status, e.slug, e.detail))
        await ws.close(4000 + e.status if e.status in (403, 404) else 1011, e.title[:100])
        return
    cfg = tables.config
    conn = Conn(ws, _seat(entry, who), cfg.ws_queue)
    conn.start()
    entry.conns.add(conn)
    conn.push(tables.state_message(entry.live, conn.seat))
    bucket = TokenBucket(cfg.ws_rate, time.monotonic())
    first = token is None
    try:
        while not conn.closed:
            try:
                async with asyncio.timeout(cfg.ws_idle_s):  # (wait_for would start a task for every message)
                    message = await ws.receive()
            except TimeoutError:
                conn.close(1000, f"idle for {cfg.ws_idle_s} s")
                break
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            raw: bytes | str | None = data if data is not None else message.get("bytes")
            if raw is None:
                continue
            if not bucket.take(time.monotonic()):
                conn.push(_error(429, "rate-limited", f"at most {cfg.ws_rate} messages a second"))
                continue
            if len(raw) > cfg.ws_max_message:
                conn.push(_error(413, "too-large", f"a message is at most {cfg.ws_max_message} bytes"))
                first = False
                continue
            if entry.live.id not in tables.tables:  # forgotten after a store failure: reload it as stored
                entry.conns.discard(conn)
                try:
                    entry = await tables.get(entry.live.id)
                except ServiceError as e:
                    conn.push(_error(e.status, e.slug, e.detail))
                    conn.close(4000 + e.status if e.status == 404 else 1011, e.title[:100])
                    break
                entry.conns.add(conn)
            entry = tables.tables.get(entry.live.id, entry)
            who_now = _handle(tables, entry, conn, raw, first)
            first = False
            if who_now is not conn.seat:
                entry.conns.discard(conn)
                conn.seat = who_now
                entry.conns.add(conn)
    except WebSocketDisconnect:
        pass
    finally:
        entry.conns.discard(conn)
        if conn.closed and conn.task is not None and not conn.task.done():
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(conn.task, 2)
        await conn.finish()


def _handle(tables: Tables, entry: Entry, conn: Conn, raw: bytes | str, first: bool) -> str | None:
    """One client message; the seat the connection holds after it."""
    try:
        msg = _DECODER.decode(raw)
    except msgspec.MsgspecError as e:
        err = body_error(e, raw.encode("utf-8", "replace") if isinstance(raw, str) else raw)
        conn.push(_error(422, "bad-message", err.detail))
        return conn.seat
    if isinstance(msg, WsPing):
        conn.push('{"type":"pong"}')
        return conn.seat
    if isinstance(msg, WsAuth):
        if not first:
            conn.push(_error(422, "bad-message", "auth is the first message only"))
            return conn.seat
        try:
            who = entry.who(msg.token)
        except ServiceError as e:
            conn.push(_error(e.status, e.slug, e.detail))
            conn.close(4403, "not a seat of this table")
            return conn.seat
        seat = _seat(entry, who)
        conn.push(tables.state_message(entry.live, seat))
        return seat
    assert isinstance(msg, WsMove)
    if conn.seat is None:
        conn.push(_error(403, "forbidden", "a spectator does not move: connect with a seat's token"))
        return conn.seat
    try:
        tables.play(entry, conn.seat, msgspec.to_builtins(msg.move), msg.ply)
    except ServiceError as e:
        if isinstance(e, Illegal):
            conn.push(msgspec.json.encode({"type": "illegal", "ply": entry.live.ply, "code": e.slug,
                                           "reasons": e.reasons_in(msg.messages)}).decode())
        else:
            conn.push(_error(e.status, e.slug, e.detail))
    except LobaError as e:
        err = from_loba_error(e)
        conn.push(_error(err.status, err.slug, err.detail))
    return conn.seat
