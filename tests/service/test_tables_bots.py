"""Bots at a live table: seats the server plays through the same path as a person's moves.

Expected values: rules.md §1 (menos, 3 players: the dealer's right plays first; a turn is draw → meld/lay
off → discard), the library's own referee (`loba replay` of the stored record) and the library's view of
each seat (`PlayerView`), never the service's output.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from cli_runner import run
from starlette.testclient import TestClient
from table_play import PLAYERS, choose, library_view

import loba_dsl as loba
from loba_dsl.game.record import from_dict
from loba_dsl.game.replay import replay
from loba_service import Limits, create_app
from loba_service.tables import TablesConfig, live
from loba_service.tables.live import Spec
from loba_service.tables.service import token_hash
from loba_service.tables.store import Store

BOTS = {"Beto": "greedy", "Carla": "greedy"}


def app(db: Path) -> TestClient:
    return TestClient(create_app(Limits(solvers=1), tables=TablesConfig(db=str(db))))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app(tmp_path / "t.db") as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_for(client: TestClient, tid: str, token: str, seat: str) -> dict[str, Any]:
    """``seat``'s view once it is that seat's turn or the game is over (the bots play in the background)."""
    for _ in range(6_000):
        view: dict[str, Any] = client.get(f"/v1/tables/{tid}", headers=bearer(token)).json()
        if view["over"] or (view["to_move"] == seat and view["legal"]):
            return view
        assert view["to_move"] in BOTS, view  # nobody but a bot is waited for
        time.sleep(0.01)
    raise AssertionError(f"the bots did not hand the turn back to {seat}")


def play_round(client: TestClient, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """A seeded menos table, Ana a person playing random legal moves, Beto and Carla greedy bots, played to the
    round's end: the creation's answer, every view Ana was shown, the whole record."""
    r = client.post("/v1/tables", json={"players": PLAYERS, "dealer": "Carla", "seed": seed, "bots": BOTS})
    assert r.status_code == 201, r.text
    t = r.json()
    tid, token = t["table"], t["seats"]["Ana"]["token"]
    rng = random.Random(seed)
    seen: list[dict[str, Any]] = []
    for _ in range(2_000):
        view = wait_for(client, tid, token, "Ana")
        seen.append(view)
        if view["over"]:
            break
        r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(token),
                        json={"move": choose(view, rng), "ply": view["ply"]})
        assert r.status_code == 200, r.text
        seen.append(r.json()["view"])
    else:
        raise AssertionError("the round did not end")
    record = client.get(f"/v1/tables/{tid}/record", headers=bearer(t["host_token"])).json()
    return t, seen, record


def test_a_person_plays_a_round_against_two_greedy_bots(client: TestClient, tmp_path: Path) -> None:
    t, seen, record = play_round(client, seed=11)
    assert set(t["seats"]) == {"Ana"}  # a bot's seat gets no token
    moves = record["rounds"][0]["moves"]
    movers = {m["player"] for m in moves}
    assert {"Beto", "Carla"} <= movers and "Ana" in movers
    assert moves[0]["player"] == "Beto"  # rules.md §1: the dealer's (Carla's) right plays first: a bot, at once
    # every move, the bots' too, is accepted by the library's referee, to the scores the table announced
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    out = run("replay", str(path), "--json")
    assert out.exit_code == 0, out.output
    replayed = json.loads(out.output)
    assert replayed["valid"] and replayed["rounds"][0]["scores"] == seen[-1]["outcome"]["scores"]
    # Ana is shown exactly what the library shows her seat: her own hand, the bots' hand sizes only
    for view in seen:
        lib = library_view(record, view["round_ply"], "Ana")
        assert view["hand"] == lib["hand"] and view["hand_counts"] == lib["hand_counts"]
        assert view["pile"] == lib["pile"] and view["melds"] == lib["melds"]


def test_a_seeded_table_with_bots_plays_the_same_game_again(client: TestClient) -> None:
    _, _, first = play_round(client, seed=5)
    _, _, again = play_round(client, seed=5)
    assert first["rounds"] == again["rounds"]


@pytest.mark.parametrize(("bots", "named"), [({"Carla": "grandmaster"}, "grandmaster"),
                                             ({"Dora": "greedy"}, "Dora")])
def test_an_unknown_bot_or_seat_is_a_422_naming_it(client: TestClient, bots: dict[str, str], named: str) -> None:
    r = client.post("/v1/tables", json={"players": PLAYERS, "bots": bots})
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    assert named in r.json()["detail"] and r.json()["errors"][0]["path"] == "$.bots"


def test_a_table_of_bots_alone_is_refused(client: TestClient) -> None:
    r = client.post("/v1/tables", json={"players": PLAYERS, "bots": dict.fromkeys(PLAYERS, "random")})
    assert r.status_code == 422 and "person" in r.json()["detail"]


def test_after_a_restart_a_bot_to_move_plays_on(tmp_path: Path) -> None:
    """A table stored with a bot to move and no move taken (the server stopped first): a new server on the same
    database plays the bot's turn when the table is loaded, and stores it."""
    db = tmp_path / "t.db"
    spec = Spec("menos", tuple(PLAYERS), "Carla", 3, True, False, BOTS)
    store = Store(str(db))
    store.create("tbl", spec.to_dict(), token_hash("host"), {"Ana": token_hash("ana")})
    store.close()
    with app(db) as client:
        view = wait_for(client, "tbl", "ana", "Ana")
        assert view["ply"] > 0 and view["to_move"] == "Ana"  # Beto and Carla played their turns
        ply = view["ply"]
    with app(db) as client:  # and the bots' moves were stored
        again = client.get("/v1/tables/tbl", headers=bearer("ana")).json()
        assert again["ply"] == ply and again["hand"] == view["hand"]
        record = client.get("/v1/tables/tbl/record", headers=bearer("host")).json()
        assert [m["player"] for m in record["rounds"][0]["moves"]][:1] == ["Beto"]


def test_a_bots_moves_reach_a_persons_websocket_like_anyone_elses(client: TestClient) -> None:
    """Dealer Beto: Ana (his right, rules.md §1) plays first; after her discard every bot move arrives on her
    WebSocket as a state of its own, a bot's stock draw showing her no card."""
    r = client.post("/v1/tables", json={"players": PLAYERS, "dealer": "Beto", "seed": 8, "bots": BOTS})
    t = r.json()
    tid, token = t["table"], t["seats"]["Ana"]["token"]
    rng = random.Random(8)
    bot_events: list[dict[str, Any]] = []
    with client.websocket_connect(f"/v1/tables/{tid}/ws?token={token}") as ws:
        msg = ws.receive_json()
        assert msg["view"]["to_move"] == "Ana"
        while msg["view"]["to_move"] == "Ana":  # Ana's turn: draw ... discard
            ws.send_json({"type": "move", "move": choose(msg["view"], rng), "ply": msg["ply"]})
            msg = ws.receive_json()
            assert msg["type"] == "state", msg
        for _ in range(200):  # then the bots, one state a move, until it is Ana's turn again
            msg = ws.receive_json()
            assert msg["type"] == "state", msg
            bot_events += msg["events"]
            if msg["view"]["to_move"] == "Ana" or msg["view"]["over"]:
                break
    assert {e["player"] for e in bot_events} == {"Beto", "Carla"} or msg["view"]["over"]
    record = client.get(f"/v1/tables/{tid}/record", headers=bearer(t["host_token"])).json()
    stock_draws = [m for m in record["rounds"][0]["moves"] if m["player"] in BOTS and m["op"] == "draw"
                   and m["from"] == "stock"]
    hidden = [e for e in bot_events if e["kind"] == "drew" and e["cards"] == ["??"]]
    assert stock_draws and len(hidden) == len(stock_draws)


SHORT_MATCH = """extends: menos
name: h-short-match
match:
  eliminate_at: 10
"""
"""Menos whose match eliminates at a total of 10 (rules.md §7's elimination, re-entry and its score otherwise
menos's), so that a first round eliminates somebody."""


def replays(record: dict[str, Any], house: str | None = None) -> bool:
    """Whether the library's referee accepts every deal, move and decision of a record (played under a house
    ruleset: its text)."""
    result = replay(from_dict(record, ruleset=None if house is None else loba.loads(house)))
    assert result.error is None, result.error
    return True


def test_an_eliminated_bot_decides_its_reentry_and_the_match_goes_on(client: TestClient, tmp_path: Path) -> None:
    """rules.md §7 under a house eliminating at 10: after round 1 a player whose total reached 10 is out and is
    offered a re-entry right away, the next round waiting for the answer; a re-entered player's total is the
    highest total among the players still in.  Seed 2 (dealer Carla): round 1 leaves Carla, a bot, over 10 and
    Ana, the person, under it.  Carla's seat answers its own offer (nobody is asked for it), and round 2 is dealt
    to the players still in, where the bots play on."""
    bots = {"Beto": "greedy", "Carla": "random"}
    r = client.post("/v1/tables", json={"players": PLAYERS, "dealer": "Carla", "seed": 2, "match": True,
                                        "ruleset": {"yaml": SHORT_MATCH}, "bots": bots})
    assert r.status_code == 201, r.text
    t = r.json()
    tid, token = t["table"], t["seats"]["Ana"]["token"]
    rng = random.Random(2)

    def record() -> dict[str, Any]:
        got: dict[str, Any] = client.get(f"/v1/tables/{tid}/record", headers=bearer(t["host_token"])).json()
        return got

    for _ in range(20_000):  # Ana plays random legal moves until round 2 has a few moves or the match is over
        view = client.get(f"/v1/tables/{tid}", headers=bearer(token)).json()
        rounds = record()["rounds"]
        if view["over"] or (len(rounds) == 2 and len(rounds[1]["moves"]) >= 6):
            break
        if not view["legal"]:
            time.sleep(0.005)  # a bot's turn, or its re-entry decision
            continue
        move = choose(view, rng)
        r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(token), json={"move": move, "ply": view["ply"]})
        assert r.status_code in (200, 409), r.text  # 409: a bot acted between Ana's view and her move
    else:
        raise AssertionError("round 2 did not get going")
    rec = record()
    first = rec["rounds"][0]
    scores = first["result"]["scores"]  # round 1's scores are the totals after it
    out = {p for p, s in scores.items() if s >= 10}
    still_in = [p for p in PLAYERS if p not in out]
    assert "Carla" in out and "Ana" not in out  # the seed's premise
    decisions = {d["player"]: d for d in first["reentries"]}
    assert set(decisions) == out  # every eliminated player decided, right after round 1
    highest = max(scores[p] for p in still_in)
    for player in sorted(out & set(bots)):
        assert decisions[player]["score"] == highest
    assert len(rec["rounds"]) == 2 and not view["over"]  # the match goes on
    second = rec["rounds"][1]
    dealt = set(second["deal"]["hands"])
    assert dealt == set(still_in) | {p for p, d in decisions.items() if d["accepted"]}
    standing = {s["name"]: s for s in view["standings"]}
    for player, d in decisions.items():
        if d["accepted"]:
            assert standing[player]["total"] == highest and standing[player]["reentries"] == 1
        else:
            assert standing[player]["status"] != "in"
    assert {m["player"] for m in second["moves"]} & set(bots)  # a bot played in round 2
    assert replays(rec, SHORT_MATCH)


def test_a_persons_undo_next_to_bot_seats(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """An undo (offered to a player whose own moves this turn left them no legal move) next to two greedy bot
    seats: Ana's seat is offered only `undo`, the bots wait (it is still her turn), the undo takes her last move
    out of the record and the table's ply goes on by one; once she ends her turn the bots play on, and the record
    replays.

    The referee no longer reaches a turn with no legal move (tests/game/test_a_way_forward.py), so the table is
    told, as in test_tables_http.py's undo test, that Ana has none once she has put a meld down this turn: the
    undo is the service's own safety net, tested here beside the bots' seats.  Menos, seed 5, dealer Carla."""
    listed = live.LiveTable._legal_moves

    def none_after_anas_meld(self: live.LiveTable) -> list[dict[str, Any]]:
        if self.table.to_move == "Ana" and self.table.state.info.laid:
            self._truncated = False  # a whole listing, and it is empty
            return []
        return listed(self)

    monkeypatch.setattr(live.LiveTable, "_legal_moves", none_after_anas_meld)
    r = client.post("/v1/tables", json={"players": PLAYERS, "dealer": "Carla", "seed": 5, "bots": BOTS})
    assert r.status_code == 201, r.text
    t = r.json()
    tid, token = t["table"], t["seats"]["Ana"]["token"]
    rng = random.Random(5)

    def record() -> dict[str, Any]:
        got: dict[str, Any] = client.get(f"/v1/tables/{tid}/record", headers=bearer(t["host_token"])).json()
        return got

    undone: list[dict[str, Any]] = []
    kept = 0
    for _ in range(400):
        view = wait_for(client, tid, token, "Ana")
        if view["over"]:
            break
        if undone and set(BOTS) <= {m["player"] for m in record()["rounds"][0]["moves"][kept:]}:
            break  # after Ana's undo and the rest of her turn, both bots played on
        legal = view["legal"]
        if [m["op"] for m in legal] == ["undo"]:
            assert legal == [{"op": "undo", "player": "Ana"}] and view["to_move"] == "Ana"
            time.sleep(0.2)
            assert client.get(f"/v1/tables/{tid}").json()["ply"] == view["ply"]  # the bots wait for her
            before = record()["rounds"][0]["moves"]
            r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(token),
                            json={"move": {"op": "undo"}, "ply": view["ply"]})
            assert r.status_code == 200, r.text
            after = r.json()["view"]
            assert after["ply"] == view["ply"] + 1 and after["to_move"] == "Ana"
            assert record()["rounds"][0]["moves"] == before[:-1] and before[-1]["op"] == "meld"
            undone.append(before[-1])
            kept = len(before) - 1
            continue
        if undone:  # after the undo: no meld again this round, so that her turn ends
            legal = [m for m in legal if m["op"] != "meld"] or legal
        r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(token),
                        json={"move": choose({**view, "legal": legal}, rng), "ply": view["ply"]})
        assert r.status_code == 200, r.text
    assert undone, "Ana never put a meld down"
    assert set(BOTS) <= {m["player"] for m in record()["rounds"][0]["moves"][kept:]} or view["over"]
    assert replays(record())



SEATING = ["Ana", "Beto", "Carla", "Dani"]
SEATING_SEED = 9


def test_reentry_offers_are_answered_in_seating_order(client: TestClient) -> None:
    """docs/rules.md §7: a re-entry is offered right after the round that eliminated the player, "to each such
    player in seating order".  Ana and Beto are people, Carla and Dani bots; the house eliminates at 10.  Seed 9
    (dealer Dani): round 1 eliminates Ana, Beto and a bot (the premise, checked).  The bot's offer
    waits for the two people's answers, Beto cannot answer before Ana, and the record lists the decisions in
    seating order."""
    r = client.post("/v1/tables", json={"players": SEATING, "dealer": "Dani", "seed": SEATING_SEED, "match": True,
                                        "ruleset": {"yaml": SHORT_MATCH},
                                        "bots": {"Carla": "random", "Dani": "random"}})
    assert r.status_code == 201, r.text
    t = r.json()
    tid = t["table"]
    tokens = {p: t["seats"][p]["token"] for p in ("Ana", "Beto")}
    rng = random.Random(SEATING_SEED)
    for _ in range(20_000):  # the two people play random legal moves until round 1 is over
        views = {p: client.get(f"/v1/tables/{tid}", headers=bearer(tok)).json() for p, tok in tokens.items()}
        if views["Ana"]["offers"] or views["Ana"]["round"] == 2 or views["Ana"]["over"]:
            break
        seat = next((p for p in tokens if views[p]["legal"]), None)
        if seat is None:
            time.sleep(0.005)  # a bot's turn
            continue
        move = choose(views[seat], rng)
        r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(tokens[seat]),
                        json={"move": move, "ply": views[seat]["ply"]})
        assert r.status_code in (200, 409), r.text
    else:
        raise AssertionError("round 1 did not end")
    time.sleep(0.3)  # time for a bot that did not wait its turn to answer
    rec = client.get(f"/v1/tables/{tid}/record", headers=bearer(t["host_token"])).json()
    scores = rec["rounds"][0]["result"]["scores"]
    offered = [p for p in SEATING if scores[p] >= 10]  # eliminated at 10, each offered a re-entry (max 2)
    assert offered[:2] == ["Ana", "Beto"] and len(offered) == 3, offered  # the seed's premise

    def decided() -> list[str]:
        rec = client.get(f"/v1/tables/{tid}/record", headers=bearer(t["host_token"])).json()
        return [d["player"] for d in rec["rounds"][0].get("reentries", [])]

    assert decided() == []  # the bot waits for the people before it
    view = client.get(f"/v1/tables/{tid}", headers=bearer(tokens["Ana"])).json()
    assert [o["player"] for o in view["offers"]] == offered
    beto = client.get(f"/v1/tables/{tid}", headers=bearer(tokens["Beto"])).json()
    assert beto["legal"] == []  # Beto's offer is not asked before Ana's
    r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(tokens["Beto"]),
                    json={"move": {"op": "reenter", "accepted": True}, "ply": beto["ply"]})
    assert r.status_code == 422 and "seating order" in r.text, r.text
    for seat in ("Ana", "Beto"):
        view = client.get(f"/v1/tables/{tid}", headers=bearer(tokens[seat])).json()
        assert {m["accepted"] for m in view["legal"]} == {True, False}
        r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(tokens[seat]),
                        json={"move": {"op": "reenter", "accepted": True}, "ply": view["ply"]})
        assert r.status_code == 200, r.text
    for _ in range(500):
        if len(decided()) == 3:
            break
        time.sleep(0.01)
    assert decided() == offered
