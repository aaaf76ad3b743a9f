"""Every meld on the table is a legal meld of its kind, with the roles the table gives its wilds.

The wild limits count the roles a meld states (a record's ``as``) and the roles a meld on the table
keeps (a lay-off never frees a fixed wild): docs/rules.md §1 (Menos: at most one wild per escalera,
none in a pierna), §3 (the pagat form: any number of wilds but never all wild), the `picos` table of
docs/rules.md (2s wild beside Jokers, still one wild per escalera).  The random-play property reads every
table meld after every move with tests/meld_rules.py, a reading written from the rules that never calls
the matcher, so a mistake shared by the referee, the listing, the replay and the scoring shows.
"""

from __future__ import annotations

import random

import pytest
from house_rulesets import OPEN_TABLE, THREE_WILD_CLASSES, WHOLE_PILE_OPENING
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from meld_rules import table_meld_problems
from table_deals import deal

from loba_dsl.game import Draw, IllegalMove, LayOff, Meld, Table
from loba_dsl.game.moves import Move
from loba_dsl.game.simulate import PUT_DOWN
from loba_dsl.game.state import TableMeld
from loba_dsl.game.table import UndoRefused
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset

NAMES = ("Ana", "Beto", "Carla", "Dora", "Eva")
HOUSES = {"open-table": OPEN_TABLE, "three-wild-classes": THREE_WILD_CLASSES, "whole-pile-opening": WHOLE_PILE_OPENING}


def c(rs: Ruleset, text: str) -> tuple[int, ...]:
    return rs.notation().parse_codes(text)


def refused(t: Table, move: Move) -> str:
    with pytest.raises(IllegalMove) as e:
        t.play(move)
    return e.value.rule


# ---------------------------------------------------------------- the reading from the rules


def test_the_rules_reading_sees_a_broken_meld() -> None:
    # The check must be able to fail: docs/rules.md picos: at most one wild per escalera; §3: never all wild;
    # §1: a pierna never takes a wild; an escalera is one suit in sequence, ace low in Menos.
    picos, pagat, menos = load("picos"), load("mas-pagat"), load("menos")
    two_wilds = TableMeld(1, 0, "escalera", c(picos, "2♥ 4♥ 5♥ 2♣"), c(picos, "3♥ 4♥ 5♥ 6♥"),
                          (True, False, False, True), True)
    assert any("wilds 2" in p for p in table_meld_problems(picos, two_wilds))
    one_wild = TableMeld(1, 0, "escalera", c(picos, "2♥ 2♣ 4♥ 5♥"), c(picos, "2♥ 3♥ 4♥ 5♥"),
                         (False, True, False, False), True)
    assert table_meld_problems(picos, one_wild) == []
    all_wild = TableMeld(1, 0, "escalera", c(pagat, "2♥ JOKER JOKER"), c(pagat, "5♠ 6♠ 7♠"), (True, True, True), True)
    assert any("naturals 0" in p for p in table_meld_problems(pagat, all_wild))
    wild_pierna = TableMeld(1, 0, "pierna", c(menos, "7♠ 7♥ JOKER"), c(menos, "7♠ 7♥ 7♦"), (False, False, True), False)
    assert table_meld_problems(menos, wild_pierna)
    ace_high = TableMeld(1, 0, "escalera", c(menos, "Q♥ K♥ A♥"), c(menos, "Q♥ K♥ A♥"), (False,) * 3, True)
    assert table_meld_problems(menos, ace_high)
    assert table_meld_problems(pagat, TableMeld(1, 0, "escalera", c(pagat, "Q♥ K♥ A♥"), c(pagat, "Q♥ K♥ A♥"),
                                                (False,) * 3, True)) == []
    hidden = TableMeld(1, 0, "escalera", c(menos, "4♥ 5♥ 6♥"), c(menos, "4♥ 5♥ 7♥"), (False,) * 3, True)
    assert table_meld_problems(menos, hidden)


# ---------------------------------------------------------------- a stated role counts


def test_as_counts_its_wilds_under_picos() -> None:
    # docs/rules.md picos: 2s are wild beside Jokers, still one wild per escalera.  Read as 3♥ and 6♥ both
    # 2s are wild (two wilds): refused; 2♥ as itself and 2♣ as 3♥ is one wild: accepted.
    rs = load("picos")
    t = deal(rs, {"Beto": "2♥ 4♥ 5♥ 2♣"}, upcard="K♠")
    t.play(Draw("Beto", "stock"))
    assert refused(t, Meld("Beto", c(rs, "2♥ 4♥ 5♥ 2♣"), c(rs, "3♥ 6♥"))) == "melds.escalera"
    t.play(Meld("Beto", c(rs, "2♥ 4♥ 5♥ 2♣"), c(rs, "2♥ 3♥")))
    m = t.state.melds[0]
    assert m.stands == c(rs, "2♥ 3♥ 4♥ 5♥") and sum(m.wild) == 1


def test_as_never_reads_an_all_wild_escalera_under_mas_pagat() -> None:
    # docs/rules.md §3: any number of wilds but never all wild; a 2 standing as the natural 2 of its suit
    # counts as natural.  2♥ JOKER JOKER as 5♠ 6♠ 7♠ holds no natural card: refused.
    rs = load("mas-pagat")
    t = deal(rs, {"Ana": "2♥ JOKER JOKER 2♠"}, dealer="Carla")
    t.play(Draw("Ana", "stock"))
    assert refused(t, Meld("Ana", c(rs, "2♥ JOKER JOKER"), c(rs, "5♠ 6♠ 7♠"))) == "melds.escalera"
    t.play(Meld("Ana", c(rs, "2♠ JOKER JOKER"), c(rs, "2♠ 3♠ 4♠")))  # the 2♠ natural: legal
    assert t.state.melds[0].wild == (False, True, True)


def test_a_fixed_wild_on_the_table_counts_against_a_lay_off() -> None:
    # docs/rules.md picos (one wild per escalera) and §1 (a wild on the table keeps its place): in 3♥ 2♥ 5♥
    # the 2♥ stands for 4♥.  A Joker laid off as 2♥ would be the second wild (the cards alone could read the
    # 2♥ as itself, but the table fixed it as 4♥): refused.  A 2♦ as 6♥ too; the natural 6♥ may be laid off.
    rs = load("picos")
    t = deal(rs, {"Beto": "3♥ 2♥ 5♥ JOKER 2♦ 6♥"}, upcard="K♣")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", c(rs, "3♥ 2♥ 5♥"), c(rs, "4♥")))
    assert t.state.melds[0].wild == (False, True, False)
    assert refused(t, LayOff("Beto", 1, c(rs, "JOKER"), c(rs, "2♥"))) == "melds.escalera"
    assert refused(t, LayOff("Beto", 1, c(rs, "2♦"), c(rs, "6♥"))) == "melds.escalera"
    t.play(LayOff("Beto", 1, c(rs, "6♥")))
    assert t.state.melds[0].stands == c(rs, "3♥ 4♥ 5♥ 6♥")


# ---------------------------------------------------------------- random play, every meld read again


def rulesets() -> list[tuple[str, Ruleset]]:
    out = [(name, load(name)) for name in shipped_names()]
    out.extend((name, loads(text, source=f"{name}.yaml")) for name, text in HOUSES.items())
    return out


RULESETS = rulesets()


def play_and_read(rs: Ruleset, seed: int, n: int, max_plies: int) -> None:
    n = max(rs.players.min, min(n, rs.players.max))
    t = Table.deal(rs, NAMES[:n], NAMES[seed % n], seed)
    rng = random.Random(seed)
    tabu: set[Move] = set()
    plies = 0
    while t.outcome() is None and plies < max_plies:
        moves = [m for m in t.legal() if m not in tabu]
        if not moves:
            try:
                tabu.add(t.undo())
            except UndoRefused:
                break
            continue
        puts = [m for m in moves if m.op in PUT_DOWN]
        move = rng.choice(puts) if puts and rng.random() < 0.9 else rng.choice(moves)
        turn = t.state.turn
        t.play(move)
        plies += 1
        if t.state.turn != turn:
            tabu.clear()
        for m in t.state.melds:
            problems = table_meld_problems(rs, m)
            assert not problems, f"after {move!r} (seed {seed}): {problems}"


@pytest.mark.parametrize(("name", "rs"), RULESETS, ids=[n for n, _ in RULESETS])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(2, 5))
@example(seed=7, n=5)  # picos and uruguay: a Joker laid off as 2♥ beside a 2♥ fixed as 4♥ (two wilds, one allowed)
def test_random_play_keeps_every_table_meld_legal(name: str, rs: Ruleset, seed: int, n: int) -> None:
    play_and_read(rs, seed, n, max_plies=200)
