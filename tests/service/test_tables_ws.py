"""Live tables over WebSockets: a whole 3-player menos round played by three seats (one of them in two tabs)
and a spectator, every message each of them got checked against the whole record afterwards, and the
record replayed by `loba replay` to the same scores.

Expected values come from the library's referee replaying the record the host downloads at the end
(rules.md §1: what a player sees is their own hand, the other hands' sizes, the table, the pile and the
stock's size), not from the service: a seat's view at ply N must be the ``PlayerView`` the library builds
for that seat after the record's first N moves, and no card that only another hand or the stock holds at
that ply may appear anywhere in the message.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from cli_runner import run
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from table_play import PLAYERS, choose, library_view, secret_names, table_at

from loba_service import Limits, create_app
from loba_service.tables import TablesConfig

SAME = ("to_move", "phase", "hand", "hand_counts", "stock_count", "pile", "melds", "opened", "turn", "players",
        "dealer", "outcome", "round")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # a test plays faster than people: no rate limit in its way (test_bad_messages... tests the limit)
    config = TablesConfig(db=str(tmp_path / "t.db"), ws_rate=100_000, ws_idle_s=60)
    with TestClient(create_app(Limits(solvers=1), tables=config)) as c:
        yield c


def new_table(client: TestClient, seed: int) -> dict[str, Any]:
    r = client.post("/v1/tables", json={"players": PLAYERS, "dealer": "Carla", "seed": seed})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def check_message(record: dict[str, Any], seat: str | None, msg: dict[str, Any]) -> None:
    assert msg["type"] == "state"
    ply = msg["ply"]
    view = msg["view"]
    assert view["ply"] == ply and view["seat"] == seat
    lib = library_view(record, ply, seat)
    assert {k: view[k] for k in SAME} == {k: lib[k] for k in SAME}, (seat, ply)
    # what a wild stands for names a card, not a card held anywhere: left out of the search
    scanned = json.loads(json.dumps(msg))
    for m in scanned["view"]["legal"] + scanned["view"]["turn"]:
        m.pop("as", None)
        m.pop("text", None)  # the move in words (its "as" too)
    for m in scanned["view"]["melds"]:
        m.pop("stands", None)
    text = json.dumps(scanned, ensure_ascii=False)
    leaked = {name for name in secret_names(record, ply, seat) if f'"{name}"' in text}
    assert not leaked, (seat, ply, leaked)
    table = table_at(record, ply)
    if seat is not None and seat == lib["to_move"] and table.state.stock:
        assert sorted(map(json.dumps, view["legal"])) == sorted(json.dumps(m.to_dict(table.rs)) for m in table.legal())
    else:
        assert view["legal"] == [] or seat == lib["to_move"]
    for e in msg["events"]:  # another seat's stock draw shows no card
        if e["kind"] == "drew" and e["player"] != seat:
            assert set(e["cards"]) <= {"??"}


def test_a_whole_round_over_websockets(client: TestClient, tmp_path: Path) -> None:
    t = new_table(client, seed=21)
    tid = t["table"]
    tok = {p: t["seats"][p]["token"] for p in PLAYERS}
    got: dict[str, list[tuple[str | None, dict[str, Any]]]] = {}
    rng = random.Random(21)
    with client.websocket_connect(f"/v1/tables/{tid}/ws?token={tok['Ana']}") as ana, \
            client.websocket_connect(f"/v1/tables/{tid}/ws?token={tok['Ana']}") as ana2, \
            client.websocket_connect(f"/v1/tables/{tid}/ws?token={tok['Beto']}") as beto, \
            client.websocket_connect(f"/v1/tables/{tid}/ws") as carla, \
            client.websocket_connect(f"/v1/tables/{tid}/ws") as watcher:
        # Carla's tab gives its token as the first message: the public state first, then her seat's
        assert carla.receive_json()["view"]["seat"] is None
        carla.send_json({"type": "auth", "token": tok["Carla"]})
        socks = {"Ana": ana, "Ana (tab 2)": ana2, "Beto": beto, "Carla": carla, "watcher": watcher}
        seat_of: dict[str, str | None] = {"Ana": "Ana", "Ana (tab 2)": "Ana", "Beto": "Beto", "Carla": "Carla",
                                          "watcher": None}
        last: dict[str, dict[str, Any]] = {}
        for name, ws in socks.items():
            msg = ws.receive_json()
            got.setdefault(name, []).append((seat_of[name], msg))
            last[name] = msg
        illegal_sent = False
        for _ in range(2000):
            view = last["watcher"]["view"]
            if view["over"]:
                break
            mover = view["to_move"]
            mine = last[mover]["view"]
            if not illegal_sent and mine["phase"] == "play":  # an illegal move: answered to that tab only
                socks[mover].send_json({"type": "move", "move": {"op": "draw", "from": "stock"}, "ply": mine["ply"]})
                reply = socks[mover].receive_json()
                assert reply["type"] == "illegal" and reply["reasons"] and reply["reasons"][0]["rule"]
                illegal_sent = True
            socks[mover].send_json({"type": "move", "move": choose(mine, rng), "ply": mine["ply"]})
            for name, ws in socks.items():  # every connection gets exactly one new state
                msg = ws.receive_json()
                assert msg["type"] == "state" and msg["ply"] > last[name]["ply"], (name, msg)
                got[name].append((seat_of[name], msg))
                last[name] = msg
        else:
            raise AssertionError("the round did not end")
        assert illegal_sent
    record = client.get(f"/v1/tables/{tid}/record", headers={"Authorization": f"Bearer {t['host_token']}"}).json()
    assert len(record["rounds"][0]["moves"]) == last["watcher"]["ply"]
    for messages in got.values():
        for seat, msg in messages:
            check_message(record, seat, msg)
    assert [m["ply"] for _, m in got["Ana"]] == [m["ply"] for _, m in got["Ana (tab 2)"]]  # both tabs follow
    # the record replays with `loba replay` to the scores the table announced
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    out = run("replay", str(path), "--json")
    assert out.exit_code == 0, out.output
    replayed = json.loads(out.output)
    outcome = last["watcher"]["view"]["outcome"]
    assert replayed["valid"] and replayed["rounds"][0]["scores"] == outcome["scores"]


def test_a_reconnect_resumes_and_spectators_do_not_move(client: TestClient) -> None:
    t = new_table(client, seed=4)
    tid = t["table"]
    beto = t["seats"]["Beto"]["token"]
    with client.websocket_connect(f"/v1/tables/{tid}/ws?token={beto}") as ws:
        first = ws.receive_json()["view"]
        ws.send_json({"type": "move", "move": first["legal"][0], "ply": 0})
        assert ws.receive_json()["ply"] == 1
    with client.websocket_connect(f"/v1/tables/{tid}/ws?token={beto}") as ws:  # the connection dropped: resume
        again = ws.receive_json()
        assert again["ply"] == 1 and again["view"]["phase"] == "play" and len(again["view"]["hand"]) == 10
    with client.websocket_connect(f"/v1/tables/{tid}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": {"op": "discard", "card": again["view"]["hand"][0]}, "ply": 1})
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 403


def test_bad_messages_are_answered_to_that_client_only(tmp_path: Path) -> None:
    app = create_app(Limits(solvers=1), tables=TablesConfig(db=str(tmp_path / "t.db"), ws_max_message=512,
                                                            ws_rate=5))
    with TestClient(app) as client:
        t = new_table(client, seed=4)
        tid = t["table"]
        with client.websocket_connect(f"/v1/tables/{tid}/ws?token={t['seats']['Beto']['token']}") as beto, \
                client.websocket_connect(f"/v1/tables/{tid}/ws?token={t['seats']['Ana']['token']}") as ana:
            beto.receive_json()
            ana.receive_json()
            beto.send_text("{not json")
            assert beto.receive_json()["status"] == 422
            beto.send_text(json.dumps({"type": "move", "move": {"op": "draw"}, "ply": 0, "pad": "x" * 600}))
            assert beto.receive_json()["status"] == 413
            beto.send_json({"type": "move", "move": {"op": "draw", "from": "stock"}, "ply": 7})
            assert beto.receive_json()["status"] == 409
            statuses = []
            for _ in range(12):  # past 5 a second (bursts of 10): refused, and the connection stays open
                beto.send_json({"type": "ping"})
            for _ in range(12):
                statuses.append(beto.receive_json().get("status"))
            assert 429 in statuses
            # Ana heard nothing of it: her next message is the state after a real move
            import time

            time.sleep(2.1)
            beto.send_json({"type": "move", "move": {"op": "draw", "from": "stock"}, "ply": 0})
            assert beto.receive_json()["type"] == "state"
            assert ana.receive_json()["ply"] == 1


def test_unknown_tables_bad_tokens_and_idle_connections(tmp_path: Path) -> None:
    app = create_app(Limits(solvers=1), tables=TablesConfig(db=str(tmp_path / "t.db"), ws_idle_s=1))
    with TestClient(app) as client:
        with client.websocket_connect("/v1/tables/nosuch/ws") as ws:
            assert ws.receive_json()["status"] == 404
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404
        t = new_table(client, seed=4)
        with client.websocket_connect(f"/v1/tables/{t['table']}/ws?token=not-a-seat") as ws:
            assert ws.receive_json()["status"] == 403
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
        with client.websocket_connect(f"/v1/tables/{t['table']}/ws") as ws:
            ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:  # nothing sent for ws_idle_s: closed
                ws.receive_json()
            assert closed.value.code == 1000


def test_a_move_the_database_refuses_is_not_played(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    t = new_table(client, seed=4)
    tid = t["table"]
    beto = {"Authorization": f"Bearer {t['seats']['Beto']['token']}"}
    tables = client.app.state.service.tables  # type: ignore[attr-defined]
    store = tables.store
    real = store.append

    def full_disk(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    with client.websocket_connect(f"/v1/tables/{tid}/ws?token={t['seats']['Ana']['token']}") as ana:
        assert ana.receive_json()["ply"] == 0
        monkeypatch.setattr(store, "append", full_disk)
        draw = {"move": {"op": "draw", "from": "stock"}, "ply": 0}
        r = client.post(f"/v1/tables/{tid}/moves", headers=beto, json=draw)
        assert r.status_code == 503 and "Retry-After" in r.headers
        monkeypatch.setattr(store, "append", real)
        view = client.get(f"/v1/tables/{tid}", headers=beto).json()  # the table as stored: the draw never happened
        assert view["ply"] == 0 and len(view["hand"]) == 9
        assert ana.receive_json()["ply"] == 0  # Ana's connection follows the table as reloaded
        assert client.post(f"/v1/tables/{tid}/moves", headers=beto, json=draw).status_code == 200
        assert ana.receive_json()["ply"] == 1
