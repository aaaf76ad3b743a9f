"""The game record ``loba-record/1`` and the commands ``loba replay``, ``loba deal``, ``loba moves`` (issue 13).

The record's shape, the replay output and its exit codes (0 valid, 1 an illegal move, 2 a record that
cannot be read) are the contract written in issue 13.  The round played is the 3-player menos round of
test_game_referee (rules.md §1; its scores, Ana 84, Beto 0, Carla 68, are worked out there by hand).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from menos_round import HANDS, PLAYERS, played_round
from typer.testing import CliRunner

from loba_cli.main import app
from loba_dsl.game import Discard, Draw, Table
from loba_dsl.game.record import HIDDEN, dumps, loads, to_dict, view_of
from loba_dsl.game.referee import deck_cards
from loba_dsl.game.replay import replay
from loba_dsl.rules.loading import load, load_file
from loba_dsl.rules.model import Ruleset

runner = CliRunner()


@pytest.fixture(scope="module")
def menos() -> Ruleset:
    return load("menos")


def write(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(dumps(record), encoding="utf-8")
    return path


def test_record_round_trip_and_replay(menos: Ruleset) -> None:
    t = played_round(menos)
    rec = t.record()
    assert rec["format"] == "loba-record/1" and rec["ruleset"] == "menos"
    assert rec["players"] == list(PLAYERS) and rec["dealer"] == "Carla"
    r0 = rec["rounds"][0]
    assert r0["deal"]["hands"]["Beto"] == HANDS["Beto"].split()
    assert r0["deal"]["upcard"] == "K♣" and r0["deal"]["stock"][:4] == ["9♦", "Q♣", "J♣", "3♣"]
    assert r0["moves"][0] == {"player": "Beto", "op": "draw", "from": "stock"}
    assert r0["moves"][1] == {"player": "Beto", "op": "meld", "cards": ["7♠", "7♥", "7♦"]}
    parsed = loads(dumps(rec))
    assert to_dict(parsed)["rounds"][0]["moves"] == r0["moves"]
    result = replay(parsed)
    assert result.valid and result.error is None
    assert result.to_dict()["rounds"] == [{"went_out": "Beto", "stock_out": False,
                                          "scores": {"Ana": 84, "Beto": 0, "Carla": 68}}]
    assert result.totals == {"Ana": 84, "Beto": 0, "Carla": 68}
    # Replaying reproduces every state.
    assert result.table is not None
    assert result.table.rounds[0].states == t.rounds[0].states


def test_cli_replay_exit_codes(menos: Ruleset, tmp_path: Path) -> None:
    rec = played_round(menos).record()
    ok = runner.invoke(app, ["replay", str(write(tmp_path, rec)), "--json"])
    assert ok.exit_code == 0, ok.stderr
    out = json.loads(ok.stdout)
    assert set(out) >= {"valid", "error", "rounds", "totals"} and out["valid"] is True and out["error"] is None
    assert out["rounds"][0]["scores"] == {"Ana": 84, "Beto": 0, "Carla": 68}
    # An illegal move: Ana lays off onto Beto's meld (rules.md §1: own melds only) at ply 6.
    bad = json.loads(json.dumps(rec))
    bad["rounds"][0]["moves"][5] = {"player": "Ana", "op": "lay_off", "meld": 2, "cards": ["3♣"]}
    r = runner.invoke(app, ["replay", str(write(tmp_path, bad, "bad.json")), "--json"])
    assert r.exit_code == 1
    err = json.loads(r.stdout)["error"]
    assert err["round"] == 1 and err["ply"] == 6 and err["player"] == "Ana"
    assert err["rule"] in ("turn.lay_off", "cards.in_hand")
    bad["rounds"][0]["moves"][5] = {"player": "Ana", "op": "discard", "card": "Q♣"}
    bad["rounds"][0]["moves"][4] = {"player": "Carla", "op": "draw", "from": "stock"}
    r = runner.invoke(app, ["replay", str(write(tmp_path, bad, "bad.json")), "--json"])
    err = json.loads(r.stdout)["error"]
    assert r.exit_code == 1 and (err["ply"], err["rule"]) == (5, "turn.order")
    assert "menos.yaml:" in err["message"]
    text = runner.invoke(app, ["replay", str(write(tmp_path, bad, "bad.json"))])
    assert text.exit_code == 1 and "ply 5" in text.stdout
    # Unreadable: not JSON, an unknown card, an unknown op; nothing is replayed, nothing on stdout.
    for broken in ("{", json.dumps({**rec, "format": "pgn"})):
        r = runner.invoke(app, ["replay", "-"], input=broken)
        assert r.exit_code == 2 and r.stdout == "" and r.stderr
    for field, value in (("card", "Z♣"), ("op", "fold")):
        b = json.loads(json.dumps(rec))
        b["rounds"][0]["moves"][3][field] = value
        r = runner.invoke(app, ["replay", str(write(tmp_path, b, "b.json"))])
        assert r.exit_code == 2 and r.stdout == ""
    assert runner.invoke(app, ["replay", str(tmp_path / "missing.json")]).exit_code == 2


def test_view_hides_other_hands_and_the_stock(menos: Ruleset) -> None:
    # issue 13: a per-player view of a record shows other hands and the stock as "??".
    t = played_round(menos)
    rec = t.record()
    v = view_of(rec, "Ana")
    deal = v["rounds"][0]["deal"]
    assert deal["hands"]["Ana"] == HANDS["Ana"].split()
    assert deal["hands"]["Beto"] == [HIDDEN] * 9 and deal["hands"]["Carla"] == [HIDDEN] * 9
    assert deal["stock"] == [HIDDEN] * len(rec["rounds"][0]["deal"]["stock"])
    draws = [m for m in v["rounds"][0]["moves"] if m["op"] == "draw"]
    assert [m.get("card") for m in draws] == [None, "Q♣", None, None]  # Ana sees only her own draw
    assert t.record(view="Ana") == v
    tv = t.view("Carla").to_dict()
    assert tv["hand"] == [n for n in HANDS["Carla"].split()]
    assert "hands" not in tv and tv["hand_counts"] == {"Ana": 9, "Beto": 0, "Carla": 9}


def test_two_rounds_went_out_deals_next(menos: Ruleset, tmp_path: Path) -> None:
    # rules.md §1: the next dealer is the player who went out (Beto); his right, Ana, plays first.
    t = played_round(menos)
    assert t.players[t.next_dealer()] == "Beto"
    full = sorted(deck_cards(menos))
    t.next_round([full[0:9], full[9:18], full[18:27]], full[27], full[28:])
    assert t.round_number == 2 and t.to_move == "Ana"
    t.play(Draw("Ana", "stock"))
    t.play(Discard("Ana", t.state.hands[0][0]))
    assert t.to_move == "Carla"  # counter-clockwise: the previous in the list
    rec = t.record()
    assert rec["rounds"][1]["dealer"] == "Beto"
    r = runner.invoke(app, ["replay", str(write(tmp_path, rec)), "--json"])
    assert r.exit_code == 0, r.stdout
    out = json.loads(r.stdout)
    assert len(out["rounds"]) == 1 and out["totals"] == {"Ana": 84, "Beto": 0, "Carla": 68}
    wrong = json.loads(json.dumps(rec))
    wrong["rounds"][1]["dealer"] = "Carla"
    r = runner.invoke(app, ["replay", str(write(tmp_path, wrong, "w.json")), "--json"])
    err = json.loads(r.stdout)["error"]
    assert r.exit_code == 1 and (err["round"], err["ply"], err["rule"]) == (2, 0, "deal.next_dealer")
    first = json.loads(json.dumps(rec))
    first["rounds"][1]["moves"] = [{"player": "Carla", "op": "draw", "from": "stock"}]
    r = runner.invoke(app, ["replay", str(write(tmp_path, first, "f.json")), "--json"])
    err = json.loads(r.stdout)["error"]
    assert r.exit_code == 1 and (err["round"], err["ply"], err["rule"]) == (2, 1, "turn.order")


def test_cli_deal_and_moves(tmp_path: Path) -> None:
    # `loba deal` prints a fresh record (the deal, no moves); the same seed deals the same cards.
    r = runner.invoke(app, ["deal", "--players", "Ana,Beto,Carla", "--seed", "7"])
    assert r.exit_code == 0, r.stderr
    rec = json.loads(r.stdout)
    assert rec["format"] == "loba-record/1" and rec["dealer"] == "Carla" and rec["rounds"][0]["moves"] == []
    hands = rec["rounds"][0]["deal"]["hands"]
    assert [len(hands[p]) for p in PLAYERS] == [9, 9, 9]  # rules.md §1
    assert runner.invoke(app, ["deal", "--players", "Ana,Beto,Carla", "--seed", "7"]).stdout == r.stdout
    path = tmp_path / "fresh.json"
    path.write_text(r.stdout, encoding="utf-8")
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 0
    m = runner.invoke(app, ["moves", str(path), "--json"])
    assert m.exit_code == 0
    listed = json.loads(m.stdout)
    # rules.md §1: Carla deals, her right (Beto) plays first, and a turn starts with a draw.
    assert listed["player"] == "Beto" and listed["phase"] == "draw"
    assert {(x["op"], x["from"]) for x in listed["moves"]} == {("draw", "stock"), ("draw", "discard")}
    bad = runner.invoke(app, ["deal", "--players", "Ana", "--seed", "1"])  # rules.md §1: 2 to 5 players
    assert bad.exit_code == 2


def test_house_ruleset_beside_the_record(tmp_path: Path) -> None:
    # issue 13: `ruleset` may be the file name of a house ruleset, found beside the record file.
    (tmp_path / "casa.yaml").write_text("name: casa\nextends: menos\nturn: {lay_off: any_melds}\n", encoding="utf-8")
    rs = load_file(tmp_path / "casa.yaml")
    t = Table.deal(rs, PLAYERS, "Carla", seed=3)
    rec = t.record()
    rec["ruleset"] = "casa.yaml"
    path = write(tmp_path, rec)
    r = runner.invoke(app, ["replay", str(path), "--json"])
    assert r.exit_code == 0, r.stderr
    rec["ruleset"] = "nowhere.yaml"
    r = runner.invoke(app, ["replay", str(write(tmp_path, rec, "x.json"))])
    assert r.exit_code == 2


def test_cli_deal_next_round(menos: Ruleset, tmp_path: Path) -> None:
    # rules.md §1: the player who went out (Beto) deals the next round; `loba deal --next` deals it.
    path = write(tmp_path, played_round(menos).record())
    r = runner.invoke(app, ["deal", "--next", str(path), "--seed", "4"])
    assert r.exit_code == 0, r.stderr
    rec = json.loads(r.stdout)
    assert len(rec["rounds"]) == 2 and rec["rounds"][1]["dealer"] == "Beto" and rec["rounds"][1]["moves"] == []
    nxt = tmp_path / "next.json"
    nxt.write_text(r.stdout, encoding="utf-8")
    m = json.loads(runner.invoke(app, ["moves", str(nxt), "--json"]).stdout)
    assert (m["round"], m["player"]) == (2, "Ana")  # the dealer's right
    fresh = tmp_path / "fresh.json"
    fresh.write_text(runner.invoke(app, ["deal", "--players", "Ana,Beto", "--seed", "1"]).stdout, encoding="utf-8")
    assert runner.invoke(app, ["deal", "--next", str(fresh), "--seed", "1"]).exit_code == 2  # not over yet


def test_a_view_replays_as_a_hand_dealt_game_and_stale_plies_are_refused(menos: Ruleset, tmp_path: Path) -> None:
    # A player's view hides cards as "??": it replays as a hand-dealt record (every move is still judged),
    # but Carla's hand is never seen, so the round's scores cannot be counted, and the replay says what it
    # could not check.
    t = played_round(menos)
    path = write(tmp_path, t.record(view="Ana"), "view.json")
    r = runner.invoke(app, ["replay", str(path), "--json"])
    assert r.exit_code == 0, r.stdout
    out = json.loads(r.stdout)
    assert out["valid"] and out["rounds"] == [] and "Carla's hand holds 9 unknown card(s)" in out["unscored"]
    assert any("Beto's hand (9 card(s) unknown at the deal)" in line for line in out["unchecked"])
    assert any("stock's order" in line for line in out["unchecked"])
    # A move chosen at an older ply is refused (a stale client), and changes nothing.
    fresh = Table.deal(menos, PLAYERS, "Carla", seed=9)
    fresh.play(Draw("Beto", "stock"), ply=0)
    before = fresh.state
    from loba_dsl.game import IllegalMove

    with pytest.raises(IllegalMove) as e:
        fresh.play(Discard("Beto", fresh.state.hands[1][0]), ply=0)
    assert e.value.rule == "turn.order" and fresh.state is before
    assert fresh.check(Discard("Beto", fresh.state.hands[1][0])).to_dict() == {"ok": True, "reasons": []}
