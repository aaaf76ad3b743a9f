"""Refusals that follow the rule as docs/rules.md and the schema word it, with words that are true.

- Joker replacement is the meld owner's (docs/rules.md §1: "the owner may replace a Joker in an escalera"),
  even where anyone may lay off onto any meld (`turn.lay_off: any_melds`, docs/rules.md §6);
- `turn.rediscard_single: forbidden` is about a discard pile of one card (docs/rules.md §3: "if the pozo is
  one card you may not take it and discard that same card"; the schema: "a player who took a one-card
  discard pile"), whether the top card or the whole pile is taken.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from table_deals import cards, deal

from loba_dsl.game import Discard, Draw, IllegalMove, LayOff, Meld, ReplaceJoker, Table
from loba_dsl.game.moves import Move
from loba_dsl.rules.loading import load_file
from loba_dsl.rules.model import Ruleset


def house(tmp_path: Path, text: str) -> Ruleset:
    path = tmp_path / "house.yaml"
    path.write_text(f"name: house\n{text}", encoding="utf-8")
    return load_file(path, cached=False)


def refusal(t: Table, move: Move) -> tuple[str, str]:
    with pytest.raises(IllegalMove) as e:
        t.play(move)
    return e.value.rule, str(e.value)


def test_only_the_owner_replaces_a_joker(tmp_path: Path) -> None:
    # docs/rules.md §1: the owner may replace the Joker with the natural card it stands for.  Anyone may lay
    # off onto anyone's meld in this house (§6's any_melds), but the replacement stays the owner's.
    rs = house(tmp_path, "extends: menos\nturn: {lay_off: any_melds, lay_off_after_first_meld: false, "
                         "joker_replacement: true}\n")
    t = deal(rs, {"Beto": "4♣ JOKER 6♣ 5♣ 9♦ 9♠", "Ana": "5♣ 7♣ 2♦"}, upcard="K♣", stock_top="3♦ 8♦ 10♠")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(rs, "4♣ JOKER 6♣")))
    t.play(Discard("Beto", cards(rs, "3♦")[0]))
    t.play(Draw("Ana", "stock"))
    rule, words = refusal(t, ReplaceJoker("Ana", 1, cards(rs, "5♣")[0]))
    assert rule == "turn.joker_replacement" and "Beto's" in words and "owner" in words
    t.play(LayOff("Ana", 1, cards(rs, "7♣")))  # a lay-off onto Beto's meld: allowed in this house
    t.play(Discard("Ana", cards(rs, "2♦")[0]))
    t.play(Draw("Carla", "stock"))
    t.play(Discard("Carla", t.state.hands[2][0]))
    t.play(Draw("Beto", "stock"))
    t.play(ReplaceJoker("Beto", 1, cards(rs, "5♣")[0]))  # the owner may
    assert cards(rs, "JOKER")[0] in t.state.hands[1]


def test_rediscard_single_is_about_a_one_card_pile(tmp_path: Path) -> None:
    # docs/rules.md §3 / the schema: only a discard pile of one card.  Taking the top of a pile of two
    # (4♣ on K♣) and discarding the 4♣ again is fine; taking a pile of one (the up-card 4♣) is not.
    rs = house(tmp_path, "extends: menos\nturn: {rediscard_single: forbidden}\n")
    t = deal(rs, {"Beto": "4♣"}, upcard="K♣", stock_top="8♦")
    t.play(Draw("Beto", "stock"))
    t.play(Discard("Beto", cards(rs, "4♣")[0]))
    assert len(t.state.pile) == 2
    t.play(Draw("Ana", "discard"))
    t.play(Discard("Ana", cards(rs, "4♣")[0]))  # the pile held two cards: allowed
    one = deal(rs, {}, upcard="4♣")
    one.play(Draw("Beto", "discard"))
    rule, words = refusal(one, Discard("Beto", cards(rs, "4♣")[0]))
    assert rule == "turn.rediscard_single" and "the only card of the discard pile" in words


def test_rediscard_single_under_the_whole_pile(tmp_path: Path) -> None:
    # docs/rules.md §3 (the pozo is taken whole): a pozo of one card may not be discarded again; from a pozo
    # of two the same card goes back.
    rs = house(tmp_path, "extends: menos\nturn: {rediscard_single: forbidden, discard_pile_take: whole_pile}\n")
    t = deal(rs, {"Beto": "4♣"}, upcard="K♣", stock_top="8♦")
    t.play(Draw("Beto", "stock"))
    t.play(Discard("Beto", cards(rs, "4♣")[0]))
    t.play(Draw("Ana", "discard"))  # 4♣ and K♣
    t.play(Discard("Ana", cards(rs, "4♣")[0]))
    one = deal(rs, {}, upcard="4♣")
    one.play(Draw("Beto", "discard"))
    assert refusal(one, Discard("Beto", cards(rs, "4♣")[0]))[0] == "turn.rediscard_single"


@pytest.mark.parametrize(("name", "meld", "rule"), [
    # docs/rules.md §1: an escalera is one suit in sequence with the ace low only: Q♥ K♥ A♥ is an escalera
    # but for the ace (a pierna would need one rank and three suits: two clauses of its structure broken).
    ("menos", "Q♥ K♥ A♥", "melds.escalera"),
    # §1: a pierna never takes a wild card: 7♠ 7♥ JOKER is a pierna but for the Joker (as an escalera it
    # would need one suit and three ranks).
    ("menos", "7♠ 7♥ JOKER", "melds.pierna"),
    # §1: one suit in sequence: 4♣ 5♥ 6♣ breaks only the escalera's one suit.
    ("menos", "4♣ 5♥ 6♣", "melds.escalera"),
    # §3: a pierna of exactly three suits: 7♠ 7♥ 7♦ 7♣ breaks only that.
    ("mas-pagat", "7♠ 7♥ 7♦ 7♣", "melds.pierna"),
    # §1: no wild in a pierna, at most one in an escalera: 2♣ JOKER JOKER breaks one clause of each kind,
    # as close to both: `melds`, with both kinds' reasons.
    ("menos", "2♣ JOKER JOKER", "melds"),
])
def test_an_illegal_meld_names_the_kind_it_came_closest_to(name: str, meld: str, rule: str) -> None:
    from loba_dsl.rules.loading import load

    rs = load(name)
    t = deal(rs, {"Beto": meld, "Ana": meld}, upcard="K♠" if rs.deal.upcard else None, dealer="Carla")
    first = t.state.players[t.state.turn]
    t.play(Draw(first, "stock"))
    got, words = refusal(t, Meld(first, cards(rs, meld)))
    assert got == rule
    if rule == "melds":
        assert "pierna:" in words and "escalera:" in words
