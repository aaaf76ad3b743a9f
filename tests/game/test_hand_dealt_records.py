"""Refereeing a game dealt with real cards: the stock and other hands may be unknown in the record.

The round is the 3-player menos round of test_game_record (Carla deals; Beto draws 9♦, puts down 7♠ 7♥ 7♦ and
4♣ 5♣ 6♣, discards 2♦; Ana draws Q♣ and discards it; Carla draws J♣ and discards it; Beto draws 3♣, puts
down 9♠ 9♥ 9♦ and goes out discarding 3♣).  rules.md §1 scores it: Beto 0; Ana holds K♠ Q♥ J♦ A♣ 2♠ 3♥ 4♦
5♠ JOKER = 10+10+10+15+2+3+4+5+25 = 84; Carla 8♠ 8♥ 10♦ 10♣ 6♠ 6♥ 2♥ 3♦ A♠ = 8+8+10+10+6+6+2+3+15 = 68.
A hand-dealt record does not know the stock's order, so each stock draw states the card drawn.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run
from menos_round import HANDS, played_round

from loba_dsl.game import Draw, IllegalMove, Table
from loba_dsl.game.record import HIDDEN, dumps, loads
from loba_dsl.game.replay import replay
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset

SCORES = {"Ana": 84, "Beto": 0, "Carla": 68}


@pytest.fixture(scope="module")
def menos() -> Ruleset:
    return load("menos")


def hand_dealt(rs: Ruleset, hide: tuple[str, ...] = ()) -> dict[str, Any]:
    """The round's record as an app at the table keeps it: no stock; each stock draw names its card; the
    hands of ``hide`` unknown."""
    t = played_round(rs)
    rec = t.record()
    log = t.rounds[0]
    rnd = rec["rounds"][0]
    rnd["deal"]["stock"] = None
    for entry, state in zip(rnd["moves"], log.states, strict=False):
        if entry["op"] == "draw" and entry["from"] == "stock":
            entry["card"] = rs.deck.name(state.stock[0])
    for p in hide:
        rnd["deal"]["hands"][p] = [HIDDEN] * 9
    for key in ("result", "standings"):
        rnd.pop(key)
    return rec


def test_an_unknown_stock_replays_to_the_scores(menos: Ruleset) -> None:
    rec = hand_dealt(menos)
    assert [m.get("card") for m in rec["rounds"][0]["moves"] if m["op"] == "draw"] == ["9♦", "Q♣", "J♣", "3♣"]
    result = replay(loads(json.dumps(rec), ruleset=menos))
    assert result.valid and result.rounds[0].scores == SCORES
    assert result.unchecked == ["round 1: the stock's order (the record does not give it): each card drawn from it "
                                "was checked only against the deck's counts"]
    # The stock is never written, before or after: the record keeps "stock": null.
    assert result.table is not None and result.table.record()["rounds"][0]["deal"]["stock"] is None


def test_unknown_hands_shown_at_the_end(menos: Ruleset, tmp_path: Path) -> None:
    rec = hand_dealt(menos, hide=("Beto", "Carla"))
    result = replay(loads(json.dumps(rec), ruleset=menos))
    # Every move is still judged, but Carla's hand is never seen: the round cannot be scored.
    assert result.valid and result.rounds == [] and result.unscored is not None
    assert "Carla's hand holds 9 unknown card(s)" in result.unscored
    # 9♦ and 3♣ came from the stock as the record states: only the dealt cards he played were unknown
    assert any("that Beto held 7♠ 7♥ 7♦ 4♣ 5♣ 6♣ 2♦ 9♠ 9♥, played from them" in line for line in result.unchecked)
    # Carla shows her cards at the end (she drew J♣ and discarded it: her dealt hand).
    rec["rounds"][0]["shown"] = {"Carla": HANDS["Carla"].split()}
    result = replay(loads(json.dumps(rec), ruleset=menos))
    assert result.valid and result.rounds[0].scores == SCORES
    path = tmp_path / "table.json"
    path.write_text(dumps(rec), encoding="utf-8")
    r = run("replay", str(path))
    assert r.exit_code == 0 and "round 1: Beto went out; Ana 84, Beto 0, Carla 68" in r.stdout
    assert "not checked: round 1: Beto's hand (9 card(s) unknown at the deal)" in r.stdout
    # A shown hand that cannot be hers (a card the deck holds no more of) is refused.
    rec["rounds"][0]["shown"] = {"Carla": ["JOKER"] * 9}
    bad = replay(loads(json.dumps(rec), ruleset=menos))
    assert not bad.valid and bad.error is not None and bad.error["rule"] == "deck"


def test_a_card_the_deck_cannot_hold_is_refused_with_the_reason(menos: Ruleset) -> None:
    rec = hand_dealt(menos, hide=("Beto", "Carla"))
    # Ana was dealt both 7♠ of the two decks (rules.md §1: 2 x 52 + 4 Jokers): Beto's meld of a third 7♠,
    # from cards the record does not know, cannot be.
    ana = rec["rounds"][0]["deal"]["hands"]["Ana"]
    ana[ana.index("K♠")] = "7♠"
    ana[ana.index("Q♥")] = "7♠"
    result = replay(loads(json.dumps(rec), ruleset=menos))
    assert not result.valid and result.error is not None
    assert (result.error["ply"], result.error["player"], result.error["rule"]) == (2, "Beto", "deck")
    assert "7♠ 3 times (the deck holds 2)" in result.error["message"]
    # A deal that already shows a third copy is refused at the deal.
    rec["rounds"][0]["deal"]["upcard"] = "7♠"
    result = replay(loads(json.dumps(rec), ruleset=menos))
    assert not result.valid and result.error is not None and (result.error["ply"], result.error["rule"]) == (0, "deck")


def test_what_can_be_checked_still_is(menos: Ruleset) -> None:
    base = hand_dealt(menos, hide=("Carla",))
    # Beto's hand is known: a card he does not hold is refused, as in a dealt game.
    rec = json.loads(json.dumps(base))
    rec["rounds"][0]["moves"][1] = {"player": "Beto", "op": "meld", "cards": ["8♦", "8♣", "8♥"]}
    result = replay(loads(json.dumps(rec), ruleset=menos))
    assert not result.valid and result.error is not None and result.error["rule"] == "cards.in_hand"
    # Turn order: Carla may not play before Ana.
    rec = json.loads(json.dumps(base))
    rec["rounds"][0]["moves"][4] = {"player": "Carla", "op": "draw", "from": "stock", "card": "Q♣"}
    result = replay(loads(json.dumps(rec), ruleset=menos))
    assert not result.valid and result.error is not None and result.error["rule"] == "turn.order"
    # Carla's unknown hand holds nine cards (rules.md §1) and she drew J♣: she cannot put down ten others.
    rec = json.loads(json.dumps(base))
    rec["rounds"][0]["moves"][7] = {"player": "Carla", "op": "meld", "cards": ["A♥", "2♥", "3♥", "4♥", "5♥", "6♥",
                                                                            "7♥", "8♥", "9♥", "10♥"]}
    result = replay(loads(json.dumps(rec), ruleset=menos))
    assert not result.valid and result.error is not None and result.error["rule"] == "cards.in_hand"
    # A meld that is no meld is refused whoever's cards it is (three ranks and three suits: as far from a
    # pierna as from an escalera, so the rule is `melds`, every kind's reason given).
    rec = json.loads(json.dumps(base))
    rec["rounds"][0]["moves"][7] = {"player": "Carla", "op": "meld", "cards": ["5♥", "9♣", "K♦"]}
    result = replay(loads(json.dumps(rec), ruleset=menos))
    assert not result.valid and result.error is not None and result.error["rule"] == "melds"


def test_a_known_stock_and_a_stated_card_must_agree(menos: Ruleset) -> None:
    t = played_round(menos)
    rec = t.record()
    rec["rounds"][0]["moves"][0]["card"] = "K♦"  # the stock's top card is 9♦
    result = replay(loads(json.dumps(rec), ruleset=menos))
    assert not result.valid and result.error is not None and result.error["rule"] == "cards.stock"
    assert "the stock's top card is 9♦" in result.error["message"]


def test_a_table_from_a_hand_dealt_deal(menos: Ruleset) -> None:
    c = menos.notation().parse_codes
    hands = [list(c(HANDS[p])) for p in ("Ana", "Beto", "Carla")]
    hands[2] = [-1] * 9  # Carla's hand is not known
    t = Table.from_deal(menos, ["Ana", "Beto", "Carla"], "Carla", hands, c("K♣")[0], None)
    assert t.state.stock.count(-1) == 108 - 27 - 1  # rules.md §1: the stock is the rest of the deck
    t.play(Draw("Beto", "stock", c("9♦")[0]))
    with pytest.raises(IllegalMove):
        t.play(Draw("Beto", "stock"))  # one draw a turn
    assert c("9♦")[0] in t.view("Beto").hand and -1 not in t.view("Beto").hand
    assert t.view("Ana").hand_sizes == (9, 10, 9)
