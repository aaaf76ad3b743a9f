"""The referee's reasons in the language a request asks for (``"messages"``): a live table's refused move over
HTTP and over its WebSocket, and ``/v1/games/check`` and ``/v1/games/play``.  Without ``"messages"`` every
answer is the English one it always was.

Expected values: rules.md §1 (menos plays counterclockwise: with Carla dealing, Beto, on her right, plays
first, so Ana drawing is out of turn); the Spanish words are the catalogue's (loba_dsl.referee_words), the
rule key and the ruleset's file:line stay as written.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from table_play import PLAYERS

from loba_dsl import load
from loba_service import Limits, create_app
from loba_service.tables import TablesConfig

OUT_OF_TURN = {"op": "draw", "player": "Ana", "from": "stock"}


def direction_line() -> str:
    """Where menos says which way play goes (``deal.direction``, the ``turn.order`` rule's place)."""
    path = Path(load("menos").files[0])
    line = next(i for i, x in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if x.strip().startswith("direction:"))
    return f"rulesets/menos.yaml:{line}"


def english() -> str:
    return f"it is Beto's turn, not Ana's (turn.order: play goes counterclockwise at {direction_line()})"


def spanish() -> str:
    return ("es el turno de Beto, no de Ana (turn.order: se juega en sentido contrario a las agujas del reloj en "
            f"{direction_line()})")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Limits(solvers=1), tables=TablesConfig(db=str(tmp_path / "t.db")))) as c:
        yield c


def new_table(client: TestClient) -> tuple[str, dict[str, str]]:
    r = client.post("/v1/tables", json={"players": PLAYERS, "seed": 7, "dealer": "Carla"})
    assert r.status_code == 201, r.text
    t: dict[str, Any] = r.json()
    assert t["view"]["to_move"] == "Beto"
    return t["table"], {p: t["seats"][p]["token"] for p in PLAYERS}


def test_a_refused_move_at_a_table_in_spanish_and_by_default_in_english(client: TestClient) -> None:
    tid, tok = new_table(client)
    url, ana = f"/v1/tables/{tid}/moves", {"Authorization": f"Bearer {tok['Ana']}"}
    r = client.post(url, headers=ana, json={"move": OUT_OF_TURN, "ply": 0, "messages": "es"})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["detail"] == spanish()
    assert [(e["code"], e["rule"], e["message"]) for e in body["errors"]] == [("illegal-move", "turn.order", spanish())]
    assert body["errors"][0]["location"]["file"] == "rulesets/menos.yaml"
    for asked in ({}, {"messages": "en"}):
        r = client.post(url, headers=ana, json={"move": OUT_OF_TURN, "ply": 0, **asked})
        assert r.status_code == 422 and r.json()["detail"] == english()
        assert [e["message"] for e in r.json()["errors"]] == [english()]
    r = client.post(url, headers=ana, json={"move": OUT_OF_TURN, "ply": 0, "messages": "fr"})
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "invalid"  # the body's schema: en or es
    assert client.get(f"/v1/tables/{tid}").json()["ply"] == 0  # nothing was played


def test_a_refused_move_over_the_websocket_in_spanish(client: TestClient) -> None:
    tid, tok = new_table(client)
    with client.websocket_connect(f"/v1/tables/{tid}/ws?token={tok['Ana']}") as ana:
        assert ana.receive_json()["type"] == "state"
        ana.send_json({"type": "move", "move": OUT_OF_TURN, "ply": 0, "messages": "es"})
        reply = ana.receive_json()
        assert reply["type"] == "illegal"
        assert reply["reasons"] == [{"rule": "turn.order", "message": spanish(), "where": direction_line()}]
        ana.send_json({"type": "move", "move": OUT_OF_TURN, "ply": 0})
        reply = ana.receive_json()
        assert reply["reasons"] == [{"rule": "turn.order", "message": english(), "where": direction_line()}]


def test_games_check_and_play_say_the_reasons_in_spanish(client: TestClient) -> None:
    r = client.post("/v1/games/deal", json={"players": PLAYERS, "dealer": "Carla"})
    assert r.status_code == 200, r.text
    record = r.json()["record"]
    check = {"record": record, "move": OUT_OF_TURN}
    no = client.post("/v1/games/check", json={**check, "messages": "es"}).json()
    assert not no["ok"] and [r["message"] for r in no["reasons"]] == [spanish()]
    no = client.post("/v1/games/check", json=check).json()
    assert [r["message"] for r in no["reasons"]] == [english()]
    r = client.post("/v1/games/play", json={**check, "messages": "es"})
    assert r.status_code == 422 and r.json()["detail"] == spanish()
    assert [(e["rule"], e["message"]) for e in r.json()["errors"]] == [("turn.order", spanish())]
    r = client.post("/v1/games/play", json=check)
    assert r.status_code == 422 and r.json()["detail"] == english()
