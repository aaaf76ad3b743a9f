"""The deal settings the referee reads: `deal.cards_by_players` and `deal.counted_at_end`.

docs/rules.md appendix A and the schema: `deal.cards_by_players: {"2": 11}` deals 11 cards each at a
table of two and `deal.cards` at any other; `deal.counted_at_end: true` (Chinchón, docs/rules.md §4) means
every player ends the round holding exactly the cards dealt, table and hand together, so the referee never
lets a round reach a table `loba score` would refuse: no pile of several cards taken, no card laid off onto
another player's meld, no turn ended with more cards than dealt.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import run
from table_deals import cards, deal

from loba_dsl.game import Discard, Draw, IllegalMove, LayOff, Meld, Table
from loba_dsl.game.moves import Move
from loba_dsl.game.table import DealRejected
from loba_dsl.rules.loading import load_file
from loba_dsl.rules.model import Ruleset


def house(tmp_path: Path, text: str, name: str = "house") -> tuple[Ruleset, Path]:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\n{text}", encoding="utf-8")
    return load_file(path, cached=False), path


def refusal(t: Table, move: Move) -> str:
    with pytest.raises(IllegalMove) as e:
        t.play(move)
    return e.value.rule


def test_cards_by_players_sets_the_deal_at_that_table(tmp_path: Path) -> None:
    # The schema: {"2": 11} deals 11 cards each at a table of two; any other table deal.cards (9 in Menos).
    rs, path = house(tmp_path, 'extends: menos\ndeal: {cards_by_players: {"2": 11}}\n')
    two = Table.deal(rs, ("Ana", "Beto"), "Beto", seed=3)
    assert [len(h) for h in two.state.hands] == [11, 11]
    three = Table.deal(rs, ("Ana", "Beto", "Carla"), "Carla", seed=3)
    assert [len(h) for h in three.state.hands] == [9, 9, 9]
    # The referee holds a stated deal to it: nine cards each at a table of two is refused.
    with pytest.raises(DealRejected) as e:
        deal(rs, {}, upcard="K♣", players=("Ana", "Beto"), dealer="Beto")
    assert e.value.reasons[0].rule == "deal.cards_by_players"
    # `loba deal` deals the same.
    r = run("deal", "--seed", "3", "-p", "Ana,Beto", "-r", str(path))
    assert r.exit_code == 0, r.output
    hands = json.loads(r.output)["rounds"][0]["deal"]["hands"]
    assert {p: len(h) for p, h in hands.items()} == {"Ana": 11, "Beto": 11}


def test_counted_at_end_refuses_a_pile_of_several_cards(tmp_path: Path) -> None:
    # Taking a whole pile of two would leave Ana with 11 cards where 9 were dealt (the pile of one is fine).
    rs, _ = house(tmp_path, "extends: menos\ndeal: {counted_at_end: true}\nturn: {discard_pile_take: whole_pile}\n")
    t = deal(rs, {}, upcard="K♣")
    t.play(Draw("Beto", "discard"))  # a pile of one card: Beto still ends his turn with nine
    t.play(Discard("Beto", t.state.hands[1][0]))
    assert len(t.state.pile) == 1
    t.play(Draw("Ana", "stock"))
    t.play(Discard("Ana", t.state.hands[0][0]))
    assert len(t.state.pile) == 2
    assert refusal(t, Draw("Carla", "discard")) == "deal.counted_at_end"
    assert Draw("Carla", "discard") not in list(t.legal())
    loose, _ = house(tmp_path, "extends: menos\nturn: {discard_pile_take: whole_pile}\n", "loose")
    u = deal(loose, {}, upcard="K♣")
    for who in ("Beto", "Ana"):
        u.play(Draw(who, "stock"))
        u.play(Discard(who, u.state.hands[u.state.turn][0]))
    u.play(Draw("Carla", "discard"))  # not counted: the whole pile may be taken


def test_counted_at_end_keeps_lay_offs_on_the_players_own_melds(tmp_path: Path) -> None:
    # A card laid off onto Beto's meld would count among Beto's cards: refused where cards are counted.
    text = "extends: menos\ndeal: {counted_at_end: true}\nturn: {lay_off: any_melds, lay_off_after_first_meld: false}\n"
    rs, _ = house(tmp_path, text)
    t = deal(rs, {"Beto": "4♣ 5♣ 6♣", "Ana": "7♣"}, upcard="K♣", stock_top="2♦ 3♦")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(rs, "4♣ 5♣ 6♣")))
    t.play(Discard("Beto", cards(rs, "2♦")[0]))
    t.play(Draw("Ana", "stock"))
    assert refusal(t, LayOff("Ana", 1, cards(rs, "7♣"))) == "deal.counted_at_end"
    free, _ = house(tmp_path, text.replace("counted_at_end: true", "counted_at_end: false"), "free")
    u = deal(free, {"Beto": "4♣ 5♣ 6♣", "Ana": "7♣"}, upcard="K♣", stock_top="2♦ 3♦")
    u.play(Draw("Beto", "stock"))
    u.play(Meld("Beto", cards(free, "4♣ 5♣ 6♣")))
    u.play(Discard("Beto", cards(free, "2♦")[0]))
    u.play(Draw("Ana", "stock"))
    u.play(LayOff("Ana", 1, cards(free, "7♣")))


def test_counted_at_end_needs_the_closing_discard(tmp_path: Path) -> None:
    # Going out without a discard (discard_optional) leaves ten cards on Beto's table where nine were dealt.
    text = "extends: menos\ndeal: {counted_at_end: true}\nturn: {going_out: discard_optional}\n"
    rs, _ = house(tmp_path, text)
    hand = "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠"
    t = deal(rs, {"Beto": hand}, upcard="K♣", stock_top="10♠")
    t.play(Draw("Beto", "stock"))
    assert refusal(t, Meld("Beto", cards(rs, hand + " 10♠"))) == "deal.counted_at_end"
    t.play(Meld("Beto", cards(rs, hand)))
    t.play(Discard("Beto", cards(rs, "10♠")[0]))  # nine on the table: out, with the cards dealt
    out = t.outcome()
    assert out is not None and out.went_out == "Beto"
