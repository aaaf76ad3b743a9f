"""Live tables over plain HTTP, for the page's Play tests (tests/page/test_page_play.py), its views
(tests/page_views.py) and ``make screenshots``: a table created at a running ``loba serve``, a seat's view,
a move, and the scripted player the tests use.

The scripted player: on the table's first move it takes the discard; afterwards it puts down the first legal
meld, else the first legal lay-off, else plays the first legal move (a stock draw, or the first legal
discard).  With ``seed=16`` and dealer Carla (players Ana, Beto, Carla, ruleset menos) the round ends after
34 moves, 6 melds and 2 lay-offs among them: short enough for a browser test, and every kind of move the
page offers on the way.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

PLAYERS = ["Ana", "Beto", "Carla"]
SEED = 16
DEALER = "Carla"


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """``method path`` at the service: (status, JSON answer)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    req = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def new_table(base: str, players: list[str] = PLAYERS, seed: int = SEED, dealer: str = DEALER,
              ruleset: Any = "menos") -> dict[str, Any]:
    status, answer = call(base, "POST", "/v1/tables", {"players": players, "seed": seed, "dealer": dealer,
                                                       "ruleset": ruleset})
    assert status == 201, answer
    out: dict[str, Any] = answer
    return out


def view(base: str, table: dict[str, Any], seat: str) -> dict[str, Any]:
    status, answer = call(base, "GET", f"/v1/tables/{table['table']}", token=table["seats"][seat]["token"])
    assert status == 200, answer
    out: dict[str, Any] = answer
    return out


def scripted(v: dict[str, Any]) -> dict[str, Any]:
    """The scripted player's move in the seat's view ``v`` (see the module's text)."""
    legal: list[dict[str, Any]] = v["legal"]
    assert legal, f"{v['seat']} has no legal move at ply {v['ply']}"
    if v["ply"] == 0:
        pile = [m for m in legal if m["op"] == "draw" and m["from"] == "discard"]
        if pile:
            return pile[0]
    for op in ("meld", "lay_off"):
        for m in legal:
            if m["op"] == op:
                return m
    return legal[0]


def advance(base: str, table: dict[str, Any], moves: int) -> dict[str, Any]:
    """Play ``moves`` moves of the scripted player over HTTP; the public view after them."""
    for _ in range(moves):
        public = call(base, "GET", f"/v1/tables/{table['table']}")[1]
        seat = public["to_move"]
        assert seat is not None, public
        v = view(base, table, seat)
        status, answer = call(base, "POST", f"/v1/tables/{table['table']}/moves",
                              {"move": scripted(v), "ply": v["ply"]}, table["seats"][seat]["token"])
        assert status == 200, answer
    out: dict[str, Any] = call(base, "GET", f"/v1/tables/{table['table']}")[1]
    return out
