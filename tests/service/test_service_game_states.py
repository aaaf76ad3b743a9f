"""Game state tokens (issue 20 item 5, issue 22 item 2): a request sends the ``state`` token of an earlier answer
instead of the whole record, and may leave the record out of the answer.

Expected values: rules.md §1 (menos: 9 cards each, the dealer's right plays first, the player who went out deals
next), the README ("The referee": a token stands for the record it was given with; a gone token is a 410 and the
client sends the record; a token is refused under another ruleset; a stale ply is a 409), and the record path
itself: what a game played by tokens ends with is what the same moves played by records end with.  The moves are
those of a random round the library's referee played (seed 3, no reshuffle, so both paths deal the same cards).
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from loba_service import Limits, create_app
from loba_service.game_states import BASE_BYTES, PLY_BYTES, GameStates, Held
from loba_service.seal import KEY_ENV, Sealer, service_key

PLAYERS = ["Ana", "Beto", "Carla"]
KEY = "test game states " * 4
SHORT = {"view", "to_move", "phase", "ply", "round", "outcome", "events", "state"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(KEY_ENV, KEY)  # so that the tests can open a seal and see what it hides
        with TestClient(create_app(Limits(solvers=1))) as c:
            yield c


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def library_round(seed: int = 3) -> Any:
    """A menos round the library's referee played at random to its end (no reshuffle in it)."""
    from loba_dsl.game import Table
    from loba_dsl.game.simulate import play_round
    from loba_dsl.rules.loading import load

    t = Table.deal(load("menos"), PLAYERS, "Carla", seed)
    play_round(t, random.Random(seed))
    assert t.phase == "over"
    assert all(m["op"] != "reshuffle" for m in t.record()["rounds"][0]["moves"])
    return t


def test_a_round_played_by_tokens_ends_with_the_record_played_by_records(client: TestClient) -> None:
    t = library_round()
    moves = t.record()["rounds"][0]["moves"]
    by_record = post(client, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla", "seed": 3})
    by_state = post(client, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla", "seed": 3,
                                               "include_record": False})
    assert set(by_state) == SHORT and by_state["state"] == by_record["state"]  # the same record, the same token
    record, token = by_record["record"], by_state["state"]
    for ply, move in enumerate(moves):
        a = post(client, "/v1/games/play", {"state": token, "move": move, "ply": ply, "include_record": False})
        b = post(client, "/v1/games/play", {"record": record, "move": move, "ply": ply})
        assert set(a) == SHORT and a["ply"] == ply + 1
        assert a == {k: v for k, v in b.items() if k != "record"}
        record, token = b["record"], a["state"]
    # rules.md §1: the round is over when a player goes out; the scores are the library referee's
    assert a["phase"] == "over" and a["outcome"] == t.outcome().to_dict()
    fetched = post(client, "/v1/games/state", {"state": token})
    assert fetched["record"] == record == t.record() and fetched["state"] == token
    # the next round, dealt from the token and from the record alike (rules.md §1: who went out deals next)
    nxt = post(client, "/v1/games/deal", {"state": token, "seed": 11, "include_record": False})
    assert nxt == {k: v for k, v in post(client, "/v1/games/deal", {"record": record, "seed": 11}).items()
                   if k != "record"}
    assert (nxt["round"], nxt["ply"], nxt["view"]["dealer"]) == (2, 0, t.outcome().went_out)


def test_a_token_stands_for_its_state_after_a_move_as_a_record_does(client: TestClient) -> None:
    st = post(client, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla", "seed": 3})
    move = {"op": "draw", "player": "Beto", "from": "stock"}  # rules.md §1: Beto, the dealer's right, first
    once = post(client, "/v1/games/play", {"state": st["state"], "move": move, "ply": 0})
    again = post(client, "/v1/games/play", {"state": st["state"], "move": move, "ply": 0})
    assert once == again  # a retry of a lost answer gets the same answer
    assert once["record"]["rounds"][0]["moves"] == [{"player": "Beto", "op": "draw", "from": "stock"}]
    listed = post(client, "/v1/games/legal", {"state": once["state"]})
    assert listed == post(client, "/v1/games/legal", {"record": once["record"]})
    assert listed["to_move"] == "Beto" and listed["phase"] == "play"


def test_an_unknown_token_is_410_and_the_record_still_works(client: TestClient) -> None:
    st = post(client, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla"})
    forged = "s1." + base64.urlsafe_b64encode(bytes(24)).decode()
    move = {"op": "draw", "player": "Beto", "from": "stock"}
    r = client.post("/v1/games/play", json={"state": forged, "move": move})
    assert r.status_code == 410 and r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["type"] == "urn:loba-dsl:problem:state-gone" and problem["errors"][0]["path"] == "$.state"
    assert "record" in problem["errors"][0]["hint"]
    for path in ("/v1/games/check", "/v1/games/legal", "/v1/games/state", "/v1/games/deal"):
        body = {"state": forged} if path in ("/v1/games/legal", "/v1/games/state", "/v1/games/deal") else \
            {"state": forged, "move": move}
        assert client.post(path, json=body).status_code == 410, path
    assert post(client, "/v1/games/play", {"record": st["record"], "move": move, "ply": 0})["ply"] == 1
    # exactly one of the two
    both = client.post("/v1/games/play", json={"state": st["state"], "record": st["record"], "move": move})
    assert both.status_code == 422 and both.json()["errors"][0]["code"] == "bad-state"
    neither = client.post("/v1/games/play", json={"move": move})
    assert neither.status_code == 422


def test_a_token_is_refused_under_another_ruleset(client: TestClient) -> None:
    st = post(client, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla", "include_record": False})
    move = {"op": "draw", "player": "Beto", "from": "stock"}
    r = client.post("/v1/games/play", json={"state": st["state"], "move": move, "ruleset": "uruguay"})
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "bad-state", r.text
    assert post(client, "/v1/games/play", {"state": st["state"], "move": move, "ruleset": "menos"})["ply"] == 1
    # a house ruleset (rules.md Appendix A), played by tokens in a solver process; another house is refused
    house = {"yaml": "name: casa\nextends: menos\ndeal:\n  cards: 7\n"}
    st = post(client, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla", "ruleset": house,
                                         "include_record": False})
    played = post(client, "/v1/games/play", {"state": st["state"], "move": move, "ply": 0, "include_record": False})
    assert set(played) == SHORT and len(played["view"]["hand"]) == 8  # 7 dealt, one drawn
    other = {"yaml": "name: casa\nextends: menos\ndeal:\n  cards: 8\n"}  # same name, other rules
    r = client.post("/v1/games/play", json={"state": played["state"], "move": move, "ruleset": other})
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "bad-state"
    fetched = post(client, "/v1/games/state", {"state": played["state"], "ruleset": house})
    assert fetched["record"]["ruleset"] == "casa" and len(fetched["record"]["rounds"][0]["moves"]) == 1


def test_a_stale_ply_is_409_by_token_too(client: TestClient) -> None:
    st = post(client, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla", "include_record": False})
    move = {"op": "draw", "player": "Beto", "from": "stock"}
    r = client.post("/v1/games/play", json={"state": st["state"], "move": move, "ply": 3})
    assert r.status_code == 409 and r.json()["type"] == "urn:loba-dsl:problem:stale"
    r = client.post("/v1/games/check", json={"state": st["state"], "move": move, "ply": 1})
    assert r.status_code == 409
    r = client.post("/v1/games/play", json={"state": st["state"], "move": move, "ply": 3, "include_record": False})
    assert r.status_code == 409 and "the state is at ply 0" in r.json()["detail"]
    # rules.md §1: a turn begins with a draw, so a discard first is illegal, naming the rule
    discard = {"op": "discard", "player": "Beto", "card": st["view"]["hand"][0]}
    r = client.post("/v1/games/play", json={"state": st["state"], "move": discard, "include_record": False})
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "illegal-move", r.text
    assert r.json()["errors"][0]["rule"].startswith("turn.")
    checked = post(client, "/v1/games/check", {"state": st["state"], "move": move, "ply": 0})
    assert checked["ok"] and checked["state"] == st["state"]  # a dry run: the game (and its token) unchanged


def test_a_sealed_game_by_tokens_shows_a_seat_no_more_than_its_record_does(client: TestClient) -> None:
    from loba_dsl.game import Table
    from loba_dsl.game.record import from_dict
    from loba_dsl.game.replay import from_record
    from loba_dsl.rules.loading import load

    st = post(client, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla"})
    record, token = st["record"], st["state"]
    assert "seal" in record and len(base64.urlsafe_b64decode(token[3:])) * 8 >= 128
    for ply in range(6):  # two turns each: draw from the stock, discard the first card of the hand (rules.md §1)
        view = st["view"]
        move = ({"op": "draw", "player": view["player"], "from": "stock"} if ply % 2 == 0 else
                {"op": "discard", "player": view["player"], "card": view["hand"][0]})
        a = post(client, "/v1/games/play", {"state": token, "move": move, "ply": ply, "include_record": False})
        st = post(client, "/v1/games/play", {"record": record, "move": move, "ply": ply})
        assert a == {k: v for k, v in st.items() if k != "record"}  # nothing the record path does not show
        assert set(a) == SHORT and "seal" not in a
        for e in a["events"]:  # a drawn card only to the player who drew it
            assert e["kind"] != "drew" or e["player"] == move["player"] or e["cards"] == ["??"] * len(e["cards"])
        record, token = st["record"], a["state"]
    # the view of a token's answer is the seat's own view of the sealed game (the library's one hiding rule)
    full = Sealer(service_key({KEY_ENV: KEY})).open(record["seal"])["record"]
    table: Table = from_record(from_dict(full, ruleset=load("menos")))
    assert a["view"] == table.view(a["to_move"]).to_dict()
    others = [p for p in PLAYERS if p != a["to_move"]]
    assert a["view"]["hand_counts"] == {p: len(table.state.hands[PLAYERS.index(p)]) for p in PLAYERS}
    assert set(a["view"]) >= {"hand"} and not any(k in a["view"] for k in ("hands", "stock"))
    assert others and all(p in a["view"]["hand_counts"] for p in others)
    # fetched by its token, the record is sealed again: every hidden card "??", the same game in the seal
    fetched = post(client, "/v1/games/state", {"state": token})["record"]
    assert {k: v for k, v in fetched.items() if k != "seal"} == {k: v for k, v in record.items() if k != "seal"}
    assert Sealer(service_key({KEY_ENV: KEY})).open(fetched["seal"])["record"] == full


def test_the_store_is_bounded_in_count() -> None:
    move = {"op": "draw", "player": "Beto", "from": "stock"}
    with TestClient(create_app(Limits(solvers=1, game_states=2))) as c:
        first = post(c, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla"})
        for _ in range(2):
            post(c, "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla"})
        assert c.post("/v1/games/play", json={"state": first["state"], "move": move}).status_code == 410
        again = post(c, "/v1/games/state", {"record": first["record"]})  # the client falls back to the record
        assert again["state"] == first["state"]  # the same record, the same token: kept again
        assert post(c, "/v1/games/play", {"state": first["state"], "move": move, "ply": 0})["ply"] == 1
        assert len(c.app.state.service.games.states) <= 2  # type: ignore[attr-defined]


def test_the_store_is_bounded_in_bytes() -> None:
    def held(moves: int) -> Held:
        return Held(table=None, full={"rounds": [{"moves": [{}] * moves}]}, sealed=False, ruleset_key="k",
                    ref="menos")

    one = BASE_BYTES + PLY_BYTES * 100
    states = GameStates(b"k" * 32, count=1_000, max_bytes=2 * one)
    tokens = [states.put(held(100), f"digest {i}") for i in range(3)]
    assert states.get(tokens[0]) is None and states.get(tokens[1]) is not None and states.get(tokens[2]) is not None
    assert states.bytes == 2 * one
    states.get(tokens[1])  # used last: the next one drops tokens[2]
    states.put(held(100), "digest 3")
    assert states.get(tokens[2]) is None and states.get(tokens[1]) is not None


@pytest.mark.slow
def test_with_two_workers_a_gone_token_falls_back_to_the_record() -> None:
    """README, "State tokens", --workers N: each worker keeps its own states, so a token may be gone (410) on the
    worker a connection lands on; the record then gives the same answer (the workers share the key, so the same
    state has the same token on both)."""
    from hostile import request, serve

    with serve({"LOBA_SERVICE_SOLVERS": "1"}, args=["--workers", "2"]) as server:
        status, raw = request(server.port, "POST", "/v1/games/deal", {"players": PLAYERS, "dealer": "Carla"})
        assert status == 200, raw[:300]
        dealt = json.loads(raw)
        move = {"op": "draw", "player": "Beto", "from": "stock"}  # rules.md §1: the dealer's right first
        answers, statuses = [], []
        for _ in range(12):  # each on a fresh connection: either worker
            status, raw = request(server.port, "POST", "/v1/games/play",
                                  {"state": dealt["state"], "move": move, "ply": 0, "include_record": False})
            statuses.append(status)
            if status == 410:
                status, raw = request(server.port, "POST", "/v1/games/play",
                                      {"record": dealt["record"], "move": move, "ply": 0, "include_record": False})
            assert status == 200, raw[:300]
            answers.append(json.loads(raw))
        assert set(statuses) <= {200, 410}
        assert all(a == answers[0] for a in answers)  # the same stock card drawn, the same token, by either way
