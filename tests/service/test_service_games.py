"""The stateless referee endpoints (issue 12 §2, on issue 13's referee): deal, legal, check, play.

Expected values: rules.md §1 (menos deals 9 cards each, one up-card, the dealer's right plays first, a
turn is draw → meld/lay off → discard), the record format of the README ("The referee: game records"), and
the CLI (`loba deal --seed` prints the same record the service deals from that seed).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient
from typer.testing import CliRunner

from loba_cli.main import app as cli
from loba_service import Limits, create_app

PLAYERS = ["Ana", "Beto", "Carla"]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(solvers=1))) as c:
        yield c


def deal(client: TestClient, **extra: Any) -> dict[str, Any]:
    r = client.post("/v1/games/deal", json={"players": PLAYERS, "dealer": "Carla", **extra})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def hidden_everywhere(record: dict[str, Any]) -> bool:
    return all(c == "??" for rnd in record["rounds"] for h in rnd["deal"]["hands"].values() for c in h) and \
        all(c == "??" for rnd in record["rounds"] for c in rnd["deal"]["stock"])


def test_a_sealed_deal(client: TestClient) -> None:
    st = deal(client)
    rec = st["record"]
    assert rec["format"] == "loba-record/1" and rec["players"] == PLAYERS and "seal" in rec and "seed" not in rec
    assert hidden_everywhere(rec)
    # rules.md §1: menos plays first from the dealer's right (the previous in seating order), 9 cards each
    assert (st["to_move"], st["phase"], st["ply"], st["round"]) == ("Beto", "draw", 0, 1)
    view = st["view"]
    assert view["player"] == "Beto" and len(view["hand"]) == 9 and "??" not in view["hand"]
    assert view["hand_counts"] == {"Ana": 9, "Beto": 9, "Carla": 9}
    assert view["stock_count"] == 108 - 27 - 1 and len(view["pile"]) == 1  # rules.md §1: 108 cards, one up-card
    assert len(rec["rounds"][0]["deal"]["stock"]) == 80


def test_an_open_deal_is_the_cli_record(client: TestClient) -> None:
    st = deal(client, seed=7)
    out = CliRunner().invoke(cli, ["deal", "--ruleset", "menos", "--players", "Ana,Beto,Carla", "--seed", "7"])
    assert out.exit_code == 0, out.stderr
    assert st["record"] == json.loads(out.stdout)
    assert "seal" not in st["record"]


def test_play_a_turn(client: TestClient) -> None:
    """A turn: draw from the stock, then discard (rules.md §1); the record grows by two moves."""
    st = deal(client)
    rec, beto = st["record"], st["view"]["hand"]
    r = client.post("/v1/games/play", json={"record": rec, "move": {"op": "draw", "player": "Beto", "from": "stock"},
                                            "ply": 0})
    assert r.status_code == 200, r.text
    st2 = r.json()
    assert (st2["to_move"], st2["phase"], st2["ply"]) == ("Beto", "play", 1)
    [drew] = st2["events"]
    assert drew["kind"] == "drew" and drew["player"] == "Beto" and len(drew["cards"]) == 1 and drew["cards"] != ["??"]
    assert sorted(st2["view"]["hand"]) == sorted([*beto, drew["cards"][0]])
    assert hidden_everywhere(st2["record"]) and st2["record"]["rounds"][0]["moves"] == [
        {"player": "Beto", "op": "draw", "from": "stock"}]
    card = st2["view"]["hand"][0]
    r = client.post("/v1/games/play", json={"record": st2["record"], "ply": 1,
                                            "move": {"op": "discard", "player": "Beto", "card": card}})
    assert r.status_code == 200, r.text
    st3 = r.json()
    # rules.md §1: play goes on to the right (counter-clockwise): after Beto, Ana
    assert (st3["to_move"], st3["phase"], st3["ply"]) == ("Ana", "draw", 2)
    assert st3["view"]["player"] == "Ana" and st3["view"]["pile"][0] == card  # the pile's top comes first
    assert st3["view"]["hand_counts"]["Beto"] == 9


def test_legal_and_check(client: TestClient) -> None:
    st = deal(client)
    legal = client.post("/v1/games/legal", json={"record": st["record"]}).json()
    # rules.md §1: a turn starts with a draw, from the stock or the top of the discard pile
    assert legal["to_move"] == "Beto" and {(m["op"], m["from"]) for m in legal["moves"]} == {
        ("draw", "stock"), ("draw", "discard")}
    ok = client.post("/v1/games/check", json={"record": st["record"],
                                              "move": {"op": "draw", "player": "Beto", "from": "discard"}}).json()
    assert ok["ok"] and ok["reasons"] == []
    no = client.post("/v1/games/check", json={"record": st["record"],
                                              "move": {"op": "draw", "player": "Ana", "from": "stock"}}).json()
    assert not no["ok"] and no["reasons"][0]["rule"] == "turn.order"
    assert no["reasons"][0]["where"].startswith("rulesets/menos.yaml:")
    one = client.post("/v1/games/legal", json={"record": st["record"], "limit": 1}).json()
    assert len(one["moves"]) == 1 and one["truncated"]


def test_illegal_move_is_422_naming_the_rule(client: TestClient) -> None:
    st = deal(client)
    r = client.post("/v1/games/play", json={"record": st["record"],
                                            "move": {"op": "discard", "player": "Beto", "card": "A♠"}})
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    err = r.json()["errors"][0]
    assert err["code"] == "illegal-move" and err["rule"] and err["location"]["file"]


def test_stale_ply_is_409(client: TestClient) -> None:
    st = deal(client)
    r = client.post("/v1/games/play", json={"record": st["record"], "ply": 5,
                                            "move": {"op": "draw", "player": "Beto", "from": "stock"}})
    assert r.status_code == 409 and r.json()["errors"][0]["code"] == "stale"
    r = client.post("/v1/games/check", json={"record": st["record"], "ply": 1,
                                             "move": {"op": "draw", "player": "Beto", "from": "stock"}})
    assert r.status_code == 409


def test_a_seal_cannot_be_forged_or_moved(client: TestClient) -> None:
    st = deal(client)
    rec = st["record"]
    move = {"op": "draw", "player": "Beto", "from": "stock"}
    for seal in (rec["seal"][:-6] + "AAAAAA", "v2.AAAA", "nonsense", rec["seal"][:40]):
        r = client.post("/v1/games/play", json={"record": {**rec, "seal": seal}, "move": move})
        assert r.status_code == 422 and r.json()["errors"][0]["code"] == "bad-seal", seal
    # another server (another key) cannot open it
    other = TestClient(create_app(Limits(solvers=1)))
    assert other.post("/v1/games/play", json={"record": rec, "move": move}).status_code == 422
    # without its seal the record is a hand-dealt one (README: recording a hand-dealt game): its hidden
    # cards stay unknown to the server too, and the stock draw brings an unknown card, shown to nobody
    unsealed = {k: v for k, v in rec.items() if k != "seal"}
    r = client.post("/v1/games/play", json={"record": unsealed, "move": move})
    assert r.status_code == 200, r.text
    assert "seal" not in r.json()["record"] and r.json()["view"]["hand"].count("??") == 10
    # the seal binds the ruleset: the same record claimed under uruguay is refused
    r = client.post("/v1/games/play", json={"record": {**rec, "ruleset": "uruguay"}, "move": move})
    assert r.status_code == 422


def test_open_record_editing_a_hand_is_refused(client: TestClient) -> None:
    """An open record is replayed: a deal that is not exactly the deck is refused (README: the record)."""
    st = deal(client, seed=3)
    rec = json.loads(json.dumps(st["record"]))
    hand = rec["rounds"][0]["deal"]["hands"]["Beto"]
    hand[0] = "JOKER" if hand[0] != "JOKER" else "A♠"
    r = client.post("/v1/games/legal", json={"record": rec})
    assert r.status_code == 422


def test_next_round_needs_a_finished_round(client: TestClient) -> None:
    st = deal(client)
    r = client.post("/v1/games/deal", json={"record": st["record"]})
    assert r.status_code == 422 and "has not ended" in r.json()["detail"]


def test_events_hide_a_drawn_card_from_the_others() -> None:
    from loba_dsl.game.referee import Event
    from loba_dsl.rules.loading import load
    from loba_service.games import _event

    rs = load("menos")
    e = Event("drew", "Beto", (0,))
    assert _event(e, rs, "Beto")["cards"] != ["??"]
    assert _event(e, rs, "Ana")["cards"] == ["??"]


def test_a_house_ruleset_game(client: TestClient) -> None:
    """A house ruleset carried in the requests (rules.md Appendix A); the seal binds its content."""
    house = {"yaml": "name: casa\nextends: menos\ndeal:\n  cards: 7\n"}
    r = client.post("/v1/games/deal", json={"players": PLAYERS, "dealer": "Carla", "ruleset": house})
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["record"]["ruleset"] == "casa" and len(st["view"]["hand"]) == 7
    move = {"op": "draw", "player": st["to_move"], "from": "stock"}
    r = client.post("/v1/games/play", json={"record": st["record"], "move": move, "ruleset": house})
    assert r.status_code == 200 and len(r.json()["view"]["hand"]) == 8
    other = {"yaml": "name: casa\nextends: menos\ndeal:\n  cards: 8\n"}  # same name, other rules
    r = client.post("/v1/games/play", json={"record": st["record"], "move": move, "ruleset": other})
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "bad-record"


def test_a_hand_dealt_record_is_refereed(client: TestClient) -> None:
    """README, "Recording a hand-dealt game": the stock unknown ("stock": null), Carla's hand unknown; a stock
    draw states its card.  Beto's first turn (rules.md §1: Carla deals, Beto, her right, plays first)."""
    hands = {"Ana": ["K♠", "Q♥", "J♦", "A♣", "2♠", "3♥", "4♦", "5♠", "JOKER"],
             "Beto": ["7♠", "7♥", "7♦", "4♣", "5♣", "6♣", "9♠", "9♥", "2♦"], "Carla": ["??"] * 9}
    rec = {"format": "loba-record/1", "ruleset": "menos", "players": ["Ana", "Beto", "Carla"], "dealer": "Carla",
           "rounds": [{"deal": {"hands": hands, "upcard": "K♣", "stock": None}, "moves": [
               {"player": "Beto", "op": "draw", "from": "stock", "card": "9♦"},
               {"player": "Beto", "op": "meld", "cards": ["7♠", "7♥", "7♦"]},
               {"player": "Beto", "op": "discard", "card": "2♦"}]}]}
    move = {"op": "draw", "player": "Ana", "from": "stock", "card": "Q♣"}
    r = client.post("/v1/games/check", json={"record": rec, "move": move, "ply": 3})
    assert r.status_code == 200 and r.json()["ok"], r.text
    r = client.post("/v1/games/play", json={"record": rec, "move": move})
    assert r.status_code == 200, r.text
    body = r.json()
    assert "Q♣" in body["view"]["hand"] and body["record"]["rounds"][0]["deal"]["stock"] is None
    # a deal that shows three 7♠ (rules.md §1: two decks hold two) is refused, naming the card
    hands["Ana"][:2] = ["7♠", "7♠"]
    r = client.post("/v1/games/check", json={"record": rec, "move": move})
    assert r.status_code == 422 and "7♠" in r.text
