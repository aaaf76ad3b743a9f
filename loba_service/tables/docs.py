"""The live tables in the OpenAPI document: their paths (with the WebSocket protocol in the text)."""

from __future__ import annotations

from typing import Any

from loba_service.tables.config import TablesConfig
from loba_service.tables.routes import PROTOCOL
from loba_service.tables.schema import CreateTable, MoveRequest, MoveResult, TableCreated, TableView

__all__ = ["paths"]

REF = "#/components/schemas/{name}"

_WHY = {
    401: "No seat token, or an Authorization header that is not `Bearer TOKEN`.",
    403: "A token of no seat of this table, the host's token for a move, or a move for another seat.",
    404: "No table has this id (it may have finished and been removed).",
    409: "The move was chosen at another `ply` than the table's (a stale screen; another tab moved first).",
    413: "The body is larger than the limit (`max_body`).",
    422: "A body that is not the JSON asked for, a ruleset that does not seat these players, or an illegal move "
         "(`errors`: the referee's reasons, each with its `rule` and the ruleset's file:line).",
    501: "This server runs several processes (`loba serve --workers N`): live tables need one.",
    503: "The server holds its limit of live tables (`max_tables`): retry after `Retry-After` seconds.",
}


def _ref(t: Any) -> dict[str, str]:
    return {"$ref": REF.format(name=t.__name__)}


def _op(summary: str, description: str, ok: int, response: dict[str, Any], errors: tuple[int, ...], op_id: str,
        request: Any = None, auth: str = "") -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "description": description, "tags": ["tables"], "operationId": op_id}
    params = [{"name": "table", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64},
               "description": "The table's id."}] if op_id != "tablesCreate" else []
    if auth:
        params.append({"name": "Authorization", "in": "header", "required": False, "schema": {"type": "string"},
                       "description": auth})
    if params:
        op["parameters"] = params
    if request is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": _ref(request)}}}
    problem = {"application/problem+json": {"schema": {"$ref": REF.format(name="Problem")}}}
    op["responses"] = {str(ok): {"description": "OK", "content": {"application/json": {"schema": response}}},
                       **{str(s): {"description": _WHY[s], "content": problem} for s in (*errors, 501)},
                       "500": {"description": "A bug in the service (it is logged); never expected for any input.",
                               "content": problem}}
    return op


def paths(config: TablesConfig | None = None) -> dict[str, Any]:
    c = config or TablesConfig()
    seat = "`Bearer SEAT_TOKEN`: that seat's view; none: the public view (no hand)."
    return {
        "/v1/tables": {"post": _op(
            "Start a live table", "A table dealt by the server for `players` (seating order), refereed move by "
            "move: 201 with each seat's `token` and `url` (send a friend their link), the `host_token` (the whole "
            "record) and the public `view`.  With `seed` the deal is `loba deal --seed`'s; with `match: true` the "
            "table deals round after round until the match ends (a re-entry is asked on the eliminated player's "
            "seat).  With `bots` (`{\"Carla\": \"greedy\"}`) the server plays those seats: each bot sees only "
            "its seat's view, its moves are stored and sent like a person's, and its seat gets no token (422 for "
            f"an unknown bot or seat).  At most {c.max_tables} live tables per server (503 past it); a finished "
            "table is kept "
            f"{c.keep_finished_s} s, one with no move for {c.abandon_s} s is removed.\n\n" + PROTOCOL,
            201, _ref(TableCreated), (413, 422, 503), "tablesCreate", request=CreateTable)},
        "/v1/tables/{table}": {"get": _op(
            "A seat's view", "The seat's `hand`, the others' `hand_counts`, the melds, the pile (top first), the "
            "stock's size, the standings, `to_move`, the table's `ply` and the seat's `legal` moves (in the "
            "record's move format; empty when it is not this seat's turn).  Live updates: the WebSocket at "
            "`/v1/tables/{table}/ws` (see `POST /v1/tables`).", 200, _ref(TableView), (401, 403, 404),
            "tablesView", auth=seat)},
        "/v1/tables/{table}/moves": {"post": _op(
            "Play a move", "`{\"move\": MOVE, \"ply\": N}` with the seat's token: the events (another seat's stock "
            "draw shows no card) and the seat's new view.  The move is stored before it is answered and sent to "
            "every connection of the table.", 200, _ref(MoveResult), (401, 403, 404, 409, 413, 422),
            "tablesMove", request=MoveRequest, auth="`Bearer SEAT_TOKEN` (required).")},
        "/v1/tables/{table}/record": {"get": _op(
            "The table's record", "`loba-record/1`: whole with the host's token (and with a seat's once the game "
            "is over), else as the seat (or, without a token, someone at no seat) may see it: hidden cards `??`.",
            200, {"type": "object"}, (401, 403, 404), "tablesRecord",
            auth="`Bearer HOST_TOKEN` or `Bearer SEAT_TOKEN`; none: the public record.")},
    }
