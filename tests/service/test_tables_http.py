"""Live tables over HTTP: creating a table, a seat's view, moves (200, 409, 422, 403), the record by token,
the limits.

Expected values: rules.md §1 (menos: 9 cards each, one up-card, 108 cards, the dealer's right plays first,
a turn is draw → meld/lay off → discard) and the CLI (`loba deal --seed` prints the deal a table dealt
from that seed must have).
"""

from __future__ import annotations

import concurrent.futures
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from cli_runner import run
from house_rulesets import WHOLE_PILE_OPENING
from starlette.testclient import TestClient
from table_play import PLAYERS, choose

from loba_dsl import Budget
from loba_service import Limits, create_app
from loba_service.tables import TablesConfig, live


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Limits(solvers=1), tables=TablesConfig(db=str(tmp_path / "t.db")))) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: TestClient, **extra: Any) -> dict[str, Any]:
    r = client.post("/v1/tables", json={"players": PLAYERS, **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_table_dealt_from_a_seed_is_the_cli_deal(client: TestClient) -> None:
    t = new_table(client, seed=7, dealer="Carla")
    cli = json.loads(run("deal", "--seed", "7", "--players", "Ana,Beto,Carla", "--dealer", "Carla").output)
    whole = client.get(f"/v1/tables/{t['table']}/record", headers=bearer(t["host_token"])).json()
    assert whole["rounds"][0]["deal"] == cli["rounds"][0]["deal"] and whole["rounds"][0]["moves"] == []
    for p in PLAYERS:
        view = client.get(f"/v1/tables/{t['table']}", headers=bearer(t["seats"][p]["token"])).json()
        assert view["hand"] == cli["rounds"][0]["deal"]["hands"][p]
    # rules.md §1: the dealer's right (the previous in seating order) plays first
    assert t["view"]["to_move"] == "Beto" and t["view"]["ply"] == 0 and t["view"]["hand"] == []


def test_tokens_are_long_random_and_never_shown_in_a_view(client: TestClient) -> None:
    t = new_table(client)
    tokens = [s["token"] for s in t["seats"].values()] + [t["host_token"]]
    assert len(set(tokens)) == 4
    for tok in tokens:  # URL-safe base64: 6 bits a character; at least 128 random bits
        assert re.fullmatch(r"[A-Za-z0-9_\-]+", tok) and len(tok) * 6 >= 128
    texts = [client.get(f"/v1/tables/{t['table']}", headers=bearer(tok)).text for tok in tokens]
    texts += [client.get(f"/v1/tables/{t['table']}/record", headers=bearer(tok)).text for tok in tokens]
    texts.append(client.get(f"/v1/tables/{t['table']}").text)
    assert not any(tok in text for tok in tokens for text in texts)
    assert "seed" not in client.get(f"/v1/tables/{t['table']}/record", headers=bearer(t["host_token"])).json()


def test_each_seat_sees_its_own_hand_and_the_others_sizes(client: TestClient) -> None:
    t = new_table(client, seed=3, dealer="Carla")
    tid = t["table"]
    beto = client.get(f"/v1/tables/{tid}", headers=bearer(t["seats"]["Beto"]["token"])).json()
    ana = client.get(f"/v1/tables/{tid}", headers=bearer(t["seats"]["Ana"]["token"])).json()
    public = client.get(f"/v1/tables/{tid}").json()
    assert len(beto["hand"]) == 9 and len(ana["hand"]) == 9 and public["hand"] == []
    assert beto["hand_counts"] == {"Ana": 9, "Beto": 9, "Carla": 9}
    assert beto["stock_count"] == 108 - 27 - 1 and len(beto["pile"]) == 1  # rules.md §1
    # Beto moves first: he may draw from the stock or take the up-card; Ana may do nothing yet
    assert {(m["op"], m.get("from")) for m in beto["legal"]} == {("draw", "stock"), ("draw", "discard")}
    assert ana["legal"] == [] and public["legal"] == [] and public["seat"] is None


def test_moves_answer_200_409_422_403(client: TestClient) -> None:
    t = new_table(client, seed=7, dealer="Carla")
    tid, beto, ana = t["table"], t["seats"]["Beto"]["token"], t["seats"]["Ana"]["token"]
    url = f"/v1/tables/{tid}/moves"
    draw = {"op": "draw", "player": "Beto", "from": "stock"}
    r = client.post(url, headers=bearer(beto), json={"move": draw, "ply": 0})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["view"]["ply"] == 1 and body["view"]["phase"] == "play" and len(body["view"]["hand"]) == 10
    assert [e["kind"] for e in body["events"]] == ["drew"] and body["events"][0]["cards"][0] in body["view"]["hand"]
    assert client.post(url, headers=bearer(beto), json={"move": draw, "ply": 0}).status_code == 409  # stale screen
    # a card Beto does not hold: the referee's reason, located in the ruleset
    held = set(body["view"]["hand"])
    absent = next(c for c in ("A♣", "K♠", "Q♥", "J♦", "2♠", "3♥") if c not in held)
    r = client.post(url, headers=bearer(beto), json={"move": {"op": "discard", "card": absent}, "ply": 1})
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["errors"][0]["code"] == "illegal-move" and r.json()["errors"][0]["rule"]
    # Ana's token moving for Beto; a token of no seat; the host's token; no token
    assert client.post(url, headers=bearer(ana), json={"move": {**draw, "player": "Beto"}, "ply": 1}).status_code \
        == 403
    assert client.post(url, headers=bearer("x" * 32), json={"move": draw, "ply": 1}).status_code == 403
    assert client.post(url, headers=bearer(t["host_token"]), json={"move": draw, "ply": 1}).status_code == 403
    assert client.post(url, json={"move": draw, "ply": 1}).status_code == 401
    # Ana moving out of turn is the referee's refusal (turn order), not a seat problem
    r = client.post(url, headers=bearer(ana), json={"move": {"op": "draw", "from": "stock"}, "ply": 1})
    assert r.status_code == 422
    # the move with the player left out is the seat's own
    card = body["view"]["hand"][0]
    r = client.post(url, headers=bearer(beto), json={"move": {"op": "discard", "card": card}, "ply": 1})
    assert r.status_code == 200 and r.json()["view"]["to_move"] == "Ana"


def test_bad_bodies_and_unknown_tables(client: TestClient) -> None:
    assert client.get("/v1/tables/nosuchtable").status_code == 404
    assert client.post("/v1/tables/nosuchtable/moves", headers=bearer("x"), json={}).status_code == 404
    assert client.post("/v1/tables", json={"players": ["Ana"]}).status_code == 422
    r = client.post("/v1/tables", json={"players": ["Ana", "Ana", "Beto"]})
    assert r.status_code == 422 and r.json()["errors"][0]["path"] == "$.players"
    assert client.post("/v1/tables", json={"players": PLAYERS, "dealer": "Zoe"}).status_code == 422
    t = new_table(client)
    url = f"/v1/tables/{t['table']}/moves"
    tok = t["seats"]["Beto"]["token"]
    assert client.post(url, headers=bearer(tok), content=b"{not json").status_code == 422
    assert client.post(url, headers=bearer(tok), json={"move": {"op": "fly"}, "ply": 0}).status_code == 422
    assert client.post(url, headers={"Authorization": "Basic abc"}, json={}).status_code == 401


def test_the_record_by_token(client: TestClient) -> None:
    t = new_table(client, seed=11, dealer="Carla")
    tid = t["table"]
    whole = client.get(f"/v1/tables/{tid}/record", headers=bearer(t["host_token"])).json()
    assert whole["format"] == "loba-record/1" and "??" not in whole["rounds"][0]["deal"]["stock"]
    ana = client.get(f"/v1/tables/{tid}/record", headers=bearer(t["seats"]["Ana"]["token"])).json()
    deal = ana["rounds"][0]["deal"]
    assert deal["hands"]["Ana"] == whole["rounds"][0]["deal"]["hands"]["Ana"]
    assert set(deal["hands"]["Beto"]) == {"??"} and set(deal["stock"]) == {"??"}
    public = client.get(f"/v1/tables/{tid}/record").json()
    assert all(set(h) == {"??"} for h in public["rounds"][0]["deal"]["hands"].values())


def play_to_the_end(client: TestClient, t: dict[str, Any], rng: random.Random, limit: int = 3000) -> dict[str, Any]:
    tid = t["table"]
    view = t["view"]
    for _ in range(limit):
        if view["over"]:
            out: dict[str, Any] = view
            return out
        seat = next((p for p in PLAYERS if client.get(f"/v1/tables/{tid}", headers=bearer(
            t["seats"][p]["token"])).json()["legal"]), None)
        assert seat is not None
        mine = client.get(f"/v1/tables/{tid}", headers=bearer(t["seats"][seat]["token"])).json()
        r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(t["seats"][seat]["token"]),
                        json={"move": choose(mine, rng), "ply": mine["ply"]})
        assert r.status_code == 200, r.text
        view = r.json()["view"]
    raise AssertionError("the table did not finish")


def test_a_finished_table_shows_every_seat_the_whole_record_and_is_removed_later(client: TestClient) -> None:
    t = new_table(client, seed=5, dealer="Carla")
    end = play_to_the_end(client, t, random.Random(5))
    assert end["over"] and end["outcome"] is not None and end["legal"] == []
    tid = t["table"]
    ana = client.get(f"/v1/tables/{tid}/record", headers=bearer(t["seats"]["Ana"]["token"])).json()
    assert "??" not in ana["rounds"][0]["deal"]["stock"]
    tables = client.app.state.service.tables  # type: ignore[attr-defined]
    assert tables.sweep() == []  # kept for keep_finished_s
    import time

    assert tables.sweep(time.time() + tables.config.keep_finished_s + 1) == [tid]
    assert client.get(f"/v1/tables/{tid}").status_code == 404


def test_a_cap_on_live_tables(tmp_path: Path) -> None:
    app = create_app(Limits(solvers=1), tables=TablesConfig(db=str(tmp_path / "t.db"), max_tables=2))
    with TestClient(app) as c:
        new_table(c)
        new_table(c)
        r = c.post("/v1/tables", json={"players": PLAYERS})
        assert r.status_code == 503 and int(r.headers["retry-after"]) > 0


def test_several_server_processes_refuse_live_tables(tmp_path: Path) -> None:
    app = create_app(Limits(solvers=1), tables=TablesConfig(db=str(tmp_path / "t.db"), workers=2))
    with TestClient(app) as c:
        r = c.post("/v1/tables", json={"players": PLAYERS})
        assert r.status_code == 501 and "--workers 1" in r.json()["detail"]


def test_a_match_table_deals_the_next_round(client: TestClient) -> None:
    t = new_table(client, seed=9, dealer="Carla", match=True)
    tid = t["table"]
    rng = random.Random(9)
    for _ in range(3000):
        views = {p: client.get(f"/v1/tables/{tid}", headers=bearer(t["seats"][p]["token"])).json() for p in PLAYERS}
        any_view = views["Ana"]
        if any_view["round"] == 2 or any_view["offers"]:
            break
        seat = next(p for p in PLAYERS if views[p]["legal"])
        r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(t["seats"][seat]["token"]),
                        json={"move": choose(views[seat], rng), "ply": views[seat]["ply"]})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("round 1 did not end")
    assert any_view["previous"] is not None or any_view["offers"]
    assert not any_view["over"]
    for offer in any_view["offers"]:  # a re-entry is asked on the eliminated player's seat
        legal = views[offer["player"]]["legal"]
        assert {m["accepted"] for m in legal if m["op"] == "reenter"} == {True, False}


def test_an_undo_moves_the_table_on_and_the_next_move_is_stored(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """An undo (offered to a player whose own moves this turn left them no legal move) takes moves out of the
    record, but is an action of its own: the table's ply goes on by one, the next move is stored (it was a 503
    once the ply went back), a screen from before the undo is stale (409), and a server started again on the
    same database serves the same table.

    The referee no longer reaches a turn with no legal move (tests/game/test_a_way_forward.py; the last case,
    a pile card that must be put down, docs/rules.md §1), so the table here is told that a player who has put a
    meld down this turn has none: the undo is the service's own safety net, tested as such."""
    from loba_service.tables.live import LiveTable

    listed = LiveTable._legal_moves

    def none_after_a_meld(self: LiveTable) -> list[dict[str, Any]]:
        if self.table.state.info.laid:
            self._truncated = False  # a whole listing, and it is empty
            return []
        return listed(self)

    monkeypatch.setattr(LiveTable, "_legal_moves", none_after_a_meld)
    db = str(tmp_path / "t.db")
    rng = random.Random(0)
    with TestClient(create_app(Limits(solvers=1), tables=TablesConfig(db=db))) as c:
        t = c.post("/v1/tables", json={"players": PLAYERS, "ruleset": {"yaml": WHOLE_PILE_OPENING}, "seed": 0,
                                       "dealer": "Carla"}).json()
        tid = t["table"]

        def seat_view() -> tuple[str, dict[str, Any]]:
            who = c.get(f"/v1/tables/{tid}").json()["to_move"]
            return who, c.get(f"/v1/tables/{tid}", headers=bearer(t["seats"][who]["token"])).json()

        undone_at = None
        for _ in range(400):  # random legal play until an undo is offered
            who, v = seat_view()
            undo = [m for m in v["legal"] if m["op"] == "undo"]
            move = undo[0] if undo else rng.choice(v["legal"])
            r = c.post(f"/v1/tables/{tid}/moves", headers=bearer(t["seats"][who]["token"]),
                       json={"move": move, "ply": v["ply"]})
            assert r.status_code == 200, r.text
            if undo:
                undone_at = v["ply"]
                assert r.json()["view"]["ply"] == undone_at + 1
                break
        assert undone_at is not None, "no undo was offered in 400 random actions"
        stale = c.post(f"/v1/tables/{tid}/moves", headers=bearer(t["seats"][who]["token"]),
                       json={"move": {"op": "undo"}, "ply": undone_at})
        assert stale.status_code == 409
        for _ in range(5):  # the table goes on, every action stored
            who, v = seat_view()
            legal = [m for m in v["legal"] if m["op"] != "undo"] or v["legal"]
            r = c.post(f"/v1/tables/{tid}/moves", headers=bearer(t["seats"][who]["token"]),
                       json={"move": rng.choice(legal), "ply": v["ply"]})
            assert r.status_code == 200, r.text
        who, before = seat_view()
        record = c.get(f"/v1/tables/{tid}/record", headers=bearer(t["host_token"])).json()
    with TestClient(create_app(Limits(solvers=1), tables=TablesConfig(db=db))) as c:  # started again
        again = c.get(f"/v1/tables/{tid}", headers=bearer(t["seats"][who]["token"])).json()
        assert again["ply"] == before["ply"] and again["hand"] == before["hand"]
        assert c.get(f"/v1/tables/{tid}/record", headers=bearer(t["host_token"])).json() == record


MANY_KINDS = "name: many-kinds\nextends: menos\nmelds:\n" + "".join(
    f"  k{i}:\n    description: a run\n    shape: run 3..13, ace low, wilds <= 6\n" for i in range(8))
"""A house ruleset of eight wild run kinds (tenths of a second to compile, the heaviest here the schema allows)."""


def test_a_tables_house_ruleset_is_compiled_in_a_solver_process(tmp_path: Path) -> None:
    """A house ruleset's cost is its author's choice: a table's is compiled in a solver process (bounded by the
    request budget and the solver's memory limit, as every endpoint's house rulesets), never by the server:
    past the budget the table is a 422 that says so, while /healthz keeps answering; within it the table is
    dealt under the ruleset sent back compiled."""
    db = str(tmp_path / "t.db")
    body = {"players": PLAYERS, "ruleset": {"yaml": MANY_KINDS}, "seed": 1}
    slow = create_app(Limits(solvers=1, request_budget_ms=20), tables=TablesConfig(db=db))
    pool = slow.state.service.pool
    run = pool.run

    async def tight(job: str, args: tuple[Any, ...], seconds: float) -> Any:
        # The pool kills a job at its budget plus a grace of a quarter second, which a quiet machine compiles
        # this ruleset within: the job is given 1 ms instead, far less than any compile from YAML takes.
        return await run(job, args, 0.001)

    pool.run = tight
    with TestClient(slow) as c:
        c.get("/healthz")
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            created = pool.submit(c.post, "/v1/tables", json=body)
            probes = 0
            while not created.done():
                assert c.get("/healthz").status_code == 200
                probes += 1
            r = created.result()
        assert r.status_code == 422 and r.json()["type"].endswith("budget-exceeded"), r.text
        assert probes > 0
    app = create_app(Limits(solvers=1), tables=TablesConfig(db=db))
    with TestClient(app) as c:
        r = c.post("/v1/tables", json=body)
        assert r.status_code == 201, r.text
        assert r.json()["view"]["ruleset"] == "many-kinds"
        assert app.state.service.rulesets.compiled == 0  # the server compiled nothing itself
        tid = r.json()["table"]
    with TestClient(create_app(Limits(solvers=1), tables=TablesConfig(db=db))) as c:  # started again: reloaded
        again = c.get(f"/v1/tables/{tid}")
        assert again.status_code == 200 and again.json()["ruleset"] == "many-kinds"
        assert c.app.state.service.rulesets.compiled == 0  # type: ignore[attr-defined]
        assert c.post("/v1/check", json={"cards": "A♣ 2♣ 3♣"}).status_code == 200


def test_a_listing_past_its_budget_lists_what_it_found_and_offers_no_undo(client: TestClient,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The legal moves of the seat to move are listed on the event loop within ``LISTING_BUDGET`` (a house's hand
    of many wilds could take seconds): past it the view says ``legal_truncated`` and does not offer undo (undo is
    for a turn its own moves left with no legal move, which a listing cut short does not show), and a move it
    did not list is still played (rules.md §1: a turn ends with a discard of a card in hand).  Seed 0: after his
    stock draw Beto's hand has cards that might make a meld, whose reading is the listing's first step."""
    monkeypatch.setattr(live, "LISTING_BUDGET", Budget(steps=1))
    t = new_table(client, seed=0, dealer="Carla")
    tid, token = t["table"], t["seats"]["Beto"]["token"]  # rules.md §1: the dealer's right (Beto) plays first
    view = client.get(f"/v1/tables/{tid}", headers=bearer(token)).json()
    r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(token),
                    json={"move": {"op": "draw", "from": "stock"}, "ply": view["ply"]})
    assert r.status_code == 200, r.text
    view = r.json()["view"]
    assert view["phase"] == "play" and view["legal_truncated"] is True
    assert all(m["op"] != "undo" for m in view["legal"])
    undo = client.post(f"/v1/tables/{tid}/moves", headers=bearer(token),
                       json={"move": {"op": "undo"}, "ply": view["ply"]})
    assert undo.status_code == 422
    r = client.post(f"/v1/tables/{tid}/moves", headers=bearer(token),
                    json={"move": {"op": "discard", "card": view["hand"][0]}, "ply": view["ply"]})
    assert r.status_code == 200, r.text
    assert r.json()["view"]["to_move"] == "Ana"
