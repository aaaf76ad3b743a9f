"""How two variants differ (issue 5 §1, §2, §4): the keyed rules diff, its witnesses, the report.

Every expected difference comes from the rules, never from the code's output:

- rules.md §1 (Loba de Menos: deck 2 × 52 + 4 Jokers; Jokers wild in escaleras only, at most one;
  penalties Joker 25, Ace 15, J/Q/K 10, 2–10 face; elimination at 101, two re-entries);
- rules.md §2 (household Mas: +5 per meld for going out, hand values subtracted, first to 150);
- rules.md §3 and seed 003 (``/work/shared/seeds/003_…``: pagat's Mas: 11 cards clockwise from the
  dealer's left, no up-card, the whole pozo, 2s wild, piernas of 3–6 cards in exactly three suits,
  escaleras with any number of wilds but never all Jokers, ace high or low, its own meld and hand
  tables, +5 for going out or +5 × players all at once, no bonus when the stock ran out, 150);
- rules.md §4 (uruguay: Ace 20, 2s wild and 25 in hand; sin-jokers: 104 cards, penalties unchanged;
  picos: 2s wild too, a 2 in hand still 2, one wild per escalera; bazas; contrato);
- issue 5's acceptance (``5♥ 2♣ 7♥`` is an escalera only under uruguay; ``A♠`` 15 against 20; a ``2♣``
  in hand 2 against 25).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loba_dsl.compare import Budget, Change, DiffReport, Witness, diff, diff_rules, find_witnesses
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.canon import canonical, canonical_shape, canonical_text, evaluate_canonical
from loba_dsl.dsl.evaluate import evaluate
from loba_dsl.dsl.parser import parse_shape
from loba_dsl.melds.check import check_cards
from loba_dsl.render import diff_text
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load, load_file
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.rounds import score_player

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rs(name: str) -> Ruleset:
    return load(name)


def keys(report: DiffReport) -> set[tuple[str | int, ...]]:
    return set(report.rules.keys())


def change(report: DiffReport, *key: str | int) -> Change:
    found = report.rules.get(*key)
    assert found is not None, f"no change {key} in {sorted(map(str, keys(report)))}"
    return found


def cards_of(ruleset: Ruleset, names: Sequence[str]) -> tuple[int, ...]:
    return ruleset.notation().parse_codes(" ".join(names))


def meld_witnesses(report: DiffReport, *key: str | int) -> list[Witness]:
    return [w for w in report.witnesses_for(*key) if w.kind == "meld"]


def assert_meld_witnesses_hold(report: DiffReport, a: Ruleset, b: Ruleset) -> None:
    """Every meld witness says the truth: check it again, card by card, under both rulesets."""
    for w in report.witnesses:
        if w.kind != "meld":
            continue
        for ruleset, claimed in ((a, w.left_value), (b, w.right_value)):
            if claimed is None:  # that deck cannot hold these cards
                deck = ruleset.deck
                held = {deck.name(c): deck.limit(c) for c in deck.all_codes()}
                assert any(held.get(n, 0) < w.cards.count(n) for n in w.cards)
                continue
            assert check_cards(cards_of(ruleset, w.cards), ruleset).valid is claimed, (w, ruleset.name)


# ---------------------------------------------------------------- the diff of a ruleset with itself


@pytest.mark.parametrize("name", shipped_names())
def test_a_ruleset_against_itself_is_empty(name: str) -> None:
    # style.md "Tests": a diff of a ruleset with itself is empty; issue 5: `loba diff menos menos` is empty.
    report = diff(rs(name), rs(name))
    assert report.same
    assert report.rules.changes == ()
    assert report.witnesses == ()
    # Compiled twice (two different objects) is still the same.
    assert diff_rules(load(name, cached=False), load(name)).same


def test_menos_menos_text_and_json() -> None:
    report = diff(rs("menos"), rs("menos"))
    assert diff_text(report) == "menos and menos have the same rules."
    assert report.to_dict()["same"] is True
    assert report.to_dict()["areas"] == {}


# ---------------------------------------------------------------- menos against uruguay (rules.md §4)


@pytest.fixture(scope="module")
def uruguay() -> DiffReport:
    return diff(rs("menos"), rs("uruguay"))


def test_uruguay_rules(uruguay: DiffReport) -> None:
    # rules.md §4: "Ace 20, face cards 10; 2s are wild and cost 25 in hand", "Joker unchanged (25, wild in
    # escaleras); everything else Menos".  So: the wild cards and the penalty table, nothing else.
    assert keys(uruguay) == {("wilds", "cards"), ("values", "penalty")}
    assert not uruguay.same
    wilds = change(uruguay, "wilds", "cards")
    assert wilds.area == "wilds"
    assert {c for d in wilds.details for c in d.cards} == {"2♠", "2♥", "2♦", "2♣"}
    assert "wild" in wilds.details[0].right and wilds.details[0].left == "natural"
    assert wilds.left_where.startswith("rulesets/menos.yaml:") and wilds.right_where == "rulesets/uruguay.yaml:8"

    penalty = change(uruguay, "values", "penalty")
    assert penalty.area == "values" and penalty.kind == "changed"
    assert penalty.right_where == "rulesets/uruguay.yaml:12"
    by_card = {c: (d.left.split()[0], d.right.split()[0]) for d in penalty.details for c in d.cards}
    # §1 Ace 15 -> §4 Ace 20; §1 a 2 costs its face 2 -> §4 a 2 costs 25.  J/Q/K stay 10, Joker stays 25.
    assert by_card == {**{f"A{s}": ("15", "20") for s in "♠♥♦♣"}, **{f"2{s}": ("2", "25") for s in "♠♥♦♣"}}
    # Each side names the line of its table that gives the value.
    ace = next(d for d in penalty.details if "A♠" in d.cards)
    assert "A -> 15" in ace.left and "A -> 20" in ace.right
    assert ace.left_where.startswith("rulesets/menos.yaml:") and ace.right_where == "rulesets/uruguay.yaml:14"


def test_uruguay_meld_witnesses(uruguay: DiffReport) -> None:
    # Issue 5: "`5♥ 2♣ 7♥` is an escalera only under uruguay", or an equivalent minimal one: three cards,
    # one of them a 2 standing wild, legal under uruguay and not under menos.
    found = meld_witnesses(uruguay, "wilds", "cards")
    assert 1 <= len(found) <= 3
    for w in found:
        assert w.size == 3
        assert w.left_value is False and w.right_value is True
    two_wild = [w for w in found if any(c.startswith("2") and f"{c} as" in w.right for c in w.cards)]
    assert two_wild, found
    uru, menos = rs("uruguay"), rs("menos")
    assert_meld_witnesses_hold(uruguay, menos, uru)
    # The issue's own example agrees with the engine.
    example = cards_of(uru, ["5♥", "2♣", "7♥"])
    assert check_cards(example, uru).kind == "escalera" and not check_cards(example, menos).valid


def test_uruguay_hand_witnesses(uruguay: DiffReport) -> None:
    # Issue 5: "`A♠` costs 15 against 20; a `2♣` left in hand costs 2 against 25" (rules.md §1 and §4).
    hands = [w for w in uruguay.witnesses_for("values", "penalty") if w.kind == "round" and len(w.hand) == 1]
    by_rank = {w.hand[0][0]: (w.left_value, w.right_value) for w in hands}
    assert by_rank == {"A": (15, 20), "2": (2, 25)}
    for w in hands:
        assert w.melds == () and dict(w.situation)["went_out"] is False


def test_uruguay_text_shows_both_origins_and_witnesses(uruguay: DiffReport) -> None:
    text = diff_text(uruguay)
    head = text.split("\n\n")[1]
    assert "wilds" in head and "values" in head
    assert "rulesets/uruguay.yaml:12" in text and "rulesets/menos.yaml:" in text
    assert "A♠ left in hand — menos: 15; uruguay: 20" in text
    assert "Witnesses" in text


# ---------------------------------------------------------------- menos against sin-jokers (rules.md §4)


def test_sin_jokers() -> None:
    # rules.md §4: "no Jokers: 104 cards; JOKER in any input is an error; penalties unchanged".
    report = diff(rs("menos"), rs("sin-jokers"))
    assert keys(report) == {("deck", "jokers"), ("wilds", "cards")}
    jokers = change(report, "deck", "jokers")
    assert (jokers.left, jokers.right) == ("4", "0")
    assert "108 → 104 cards" in jokers.summary  # §1: 2 × 52 + 4 = 108; §4: 104
    assert change(report, "wilds", "cards").kind == "removed"
    assert not any(k[0] == "values" for k in keys(report))  # penalties unchanged
    # The Joker itself is the witness of the deck difference.
    deck = [w for w in report.witnesses_for("deck", "jokers") if w.kind == "deck"]
    assert [(w.cards, w.left_value, w.right_value) for w in deck] == [(("JOKER",), 4, 0)]
    # And a meld that needs a Joker is possible under menos only.
    melds = meld_witnesses(report, "wilds", "cards")
    assert melds and all("JOKER" in w.cards and w.left_value is True and w.right_value is None for w in melds)
    assert_meld_witnesses_hold(report, rs("menos"), rs("sin-jokers"))


# ---------------------------------------------------------------- menos against picos (rules.md §4)


def test_picos() -> None:
    # rules.md §4: "2s are wild in escaleras too, beside Jokers"; decisions: a 2 may still be natural, a 2 in
    # hand still costs 2, the limit of wilds per escalera is Menos's (1).  So only the wild cards change.
    report = diff(rs("menos"), rs("picos"))
    assert keys(report) == {("wilds", "cards")}
    found = meld_witnesses(report, "wilds", "cards")
    assert found and all(w.size == 3 and w.left_value is False and w.right_value is True for w in found)
    assert any("2" in w.right and " as " in w.right for w in found)
    assert_meld_witnesses_hold(report, rs("menos"), rs("picos"))


# ---------------------------------------------------------------- mas against mas-pagat (rules.md §2, §3)


@pytest.fixture(scope="module")
def pagat() -> DiffReport:
    return diff(rs("mas"), rs("mas-pagat"))


# Every row of rules.md §3 that differs from §2 (household Mas, which is Menos's deck, deal, melds, wilds).
PAGAT_DIFFERENCES = {
    # deal: "11 cards each, clockwise; player to dealer's left starts; no up-card"; seed 003 line 8: "the turn
    # to deal passes clockwise" (§1's next dealer is the one who went out).
    ("deal", "cards"), ("deal", "direction"), ("deal", "first_player"), ("deal", "upcard"), ("deal", "next_dealer"),
    # draw: "the whole discard pile (pozo); if the pozo is one card you may not ... discard that same card"
    ("turn", "discard_pile_take"), ("turn", "rediscard_single"),
    # wild cards: "Jokers and 2s"
    ("wilds", "cards"),
    # pierna: "3–6 cards ... in exactly three suits"; escalera: "any number of wilds, but never all Jokers;
    # ace high or low, not both, no wrap"
    ("melds", "pierna", "shape"), ("melds", "escalera", "shape"),
    # lay-off: "a wild at an end of an escalera may move to the other end"
    ("turn", "wild_move"),
    # going out: "put down all cards, or all but one and discard it"
    ("turn", "going_out"),
    # stock runs out: "the round ends when the player who took the last stock card discards"
    ("turn", "stock_exhausted"),
    # meld points and hand points: seed 003's own tables instead of §1's values
    ("values", "card"), ("values", "on_table"), ("values", "in_hand"), ("scoring", "meld_points"),
    # bonuses: "+5, or +5 × players all at once; nobody gets the bonus when the stock ran out"
    ("scoring", "round"),
}
# Not different: players 2–5 (seed 003 line 6), 108 cards (line 7), lay-offs on own melds only (line 24),
# the match to 150 with the highest winning (§2, §3).


def test_pagat_every_difference_appears(pagat: DiffReport) -> None:
    assert keys(pagat) == PAGAT_DIFFERENCES
    areas = {c.area for c in pagat.rules.changes}
    assert areas == {"deal", "melds", "wilds", "values", "scoring", "turn rules"}
    pierna = change(pagat, "melds", "pierna", "shape")
    parts = {d.subject: (d.left, d.right) for d in pierna.details}
    assert parts == {"size": ("size 3..4", "size 3..6"), "suits": ("suits distinct", "suits == 3")}
    escalera = change(pagat, "melds", "escalera", "shape")
    assert {d.subject for d in escalera.details} == {"ace", "wilds", "naturals"}
    assert change(pagat, "deal", "cards").left == "9" and change(pagat, "deal", "cards").right == "11"


def test_pagat_meld_witnesses(pagat: DiffReport) -> None:
    mas, mp = rs("mas"), rs("mas-pagat")
    assert_meld_witnesses_hold(pagat, mas, mp)
    pierna = meld_witnesses(pagat, "melds", "pierna", "shape")
    # A pierna with a repeated suit (3 suits, 4 cards) is pagat's only; all four suits is Mas's only.
    assert any(w.size == 4 and len({c[-1] for c in w.cards}) == 3 and w.right_value and not w.left_value
               for w in pierna)
    assert any(w.size == 4 and len({c[-1] for c in w.cards}) == 4 and w.left_value and not w.right_value
               for w in pierna)
    # Q-K-A is an escalera only where the ace may be high (§1 ace low only; §3 ace high or low).
    escalera = meld_witnesses(pagat, "melds", "escalera", "shape")
    assert any(sorted(w.cards) == sorted(["Q♠", "K♠", "A♠"]) for w in escalera)
    assert all(w.size == 3 for w in escalera)
    # 2s wild (§3): a three-card escalera that needs a 2 as a wild.
    wild = meld_witnesses(pagat, "wilds", "cards")
    assert wild and all(w.size == 3 and any(c.startswith("2") for c in w.cards) for w in wild)


def test_pagat_round_witnesses(pagat: DiffReport) -> None:
    mas, mp = rs("mas"), rs("mas-pagat")
    # Hand points: an ace left in hand costs 15 in Mas (§2 subtracts §1's values) and 3 under pagat (§3).
    aces = [w for w in pagat.witnesses_for("values", "in_hand") if w.hand and w.hand[0][0] == "A" and not w.melds]
    assert [(w.left_value, w.right_value) for w in aces] == [(-15, -3)]
    # Bonuses shown by a small round: going out all at once with one meld earns Mas +5 (one meld, §2) and
    # pagat +5 × players (§3, seed 003 line 53).
    rounds = [w for w in pagat.witnesses_for("scoring", "round") if dict(w.situation).get("all_at_once")]
    assert rounds
    for w in rounds:
        env = dict(w.situation)
        assert len(w.melds) == 1 and not w.hand
        parts = {}
        for ruleset in (mas, mp):
            s = score_player(ruleset, melds=[cards_of(ruleset, w.melds[0])], went_out=True, all_at_once=True,
                             stock_out=bool(env["stock_out"]), players=int(env["players"]))
            assert s.meld_points is not None
            parts[ruleset.name] = s.score - s.meld_points
        assert parts == {"mas": 5, "mas-pagat": 0 if env["stock_out"] else 5 * int(env["players"])}
    text = diff_text(pagat)
    assert "no example" in text and "deal.cards" in text.split("no example")[1]


# ---------------------------------------------------------------- other pairs with witnesses


def test_bazas_opening_witness() -> None:
    # rules.md §4 bazas: the first lay-down must be worth at least 50; Menos has no minimum.
    report = diff(rs("menos"), rs("bazas"))
    assert keys(report) == {("requirements", "opening")}
    found = report.witnesses_for("requirements", "opening")
    assert found and all(w.kind == "opening" and w.left_value is True and w.right_value is False for w in found)
    assert all(len(w.melds) == 1 and w.size == 3 for w in found)  # the smallest: one meld of three cards


def test_contrato_contract_witness() -> None:
    # rules.md §4 contrato: round 1's contract is "2 piernas" (Carioca's list); Menos has none.
    report = diff(rs("menos"), rs("contrato"))
    found = report.witnesses_for("requirements", "contracts")
    assert found and found[0].example.startswith("round 1")
    assert found[0].left_value is True and found[0].right_value is False


def test_pierna_de_cuatro_round_witness() -> None:
    # rules.md §4: each four-suit pierna on your table cancels 10 of your round penalty, never below 0.
    report = diff(rs("menos"), rs("pierna-de-cuatro"))
    assert keys(report) == {("scoring", "round")}
    found = report.witnesses_for("scoring", "round")
    assert found
    for w in found:
        assert len(w.melds) == 1 and len({c[-1] for c in w.melds[0]}) == 4 and len(w.hand) == 1
        assert isinstance(w.left_value, int)
        assert w.right_value == max(0, w.left_value - 10)


def test_menos_mas_match_witnesses() -> None:
    # rules.md §1: eliminated at 101 or more; §2: no elimination, first to 150.
    report = diff(rs("menos"), rs("mas"))
    totals = {w.left_value for w in report.witnesses_for("match", "eliminate_at")}
    assert 101 in totals
    assert {("match", "eliminate_at"), ("match", "target"), ("match", "end"), ("match", "reentry"),
            ("scoring", "better"), ("scoring", "round")} <= keys(report)


@pytest.mark.parametrize(("a", "b"), [("menos", "uruguay"), ("mas", "mas-pagat"), ("menos", "sin-jokers"),
                                      ("menos", "bazas"), ("mas", "mas-pierna-de-cuatro")])
def test_diff_is_symmetric(a: str, b: str) -> None:
    ab, ba = diff_rules(rs(a), rs(b)), diff_rules(rs(b), rs(a))
    assert set(ab.keys()) == set(ba.keys())
    swap = {"added": "removed", "removed": "added", "changed": "changed"}
    assert {c.key: swap[c.kind] for c in ab.changes} == {c.key: c.kind for c in ba.changes}


def test_witnesses_are_deterministic_and_bounded() -> None:
    a, b = rs("mas"), rs("mas-pagat")
    rules = diff_rules(a, b)
    first = find_witnesses(a, b, rules)
    assert first == find_witnesses(a, b, rules)
    for c in rules.changes:
        assert len([w for w in first if c.key in w.changes]) <= 3
    small = find_witnesses(a, b, rules, budget=Budget(per_change=1))
    assert all(len([w for w in small if c.key in w.changes]) <= 1 for c in rules.changes)


# ---------------------------------------------------------------- house rulesets


HOUSE_SAME = """\
# Menos, said in other words: keys in another order, clauses reordered, a table's lines reordered where
# order does not matter, the round formula rewritten.
name: casa
description: Loba de Menos, as our house writes it
extends: menos
turn:
  stock_exhausted: reshuffle_discards
  going_out: discard_required
  discard_pile_take: top_card
melds:
  pierna:
    description: the same pierna
    shape: set 3..4, wilds == 0, suits distinct
  escalera:
    shape: run 3+, wilds < 2, ace low
values:
  penalty: |
    A -> 15
    J Q K -> 10
    JOKER -> 25
    _ -> face * 1 + 0
scoring:
  round: "not went_out ? penalty(hand) * 1 + 0 : 0 - 0"
deck:
  languages: [es, en, de, nl, it]
"""


def write(tmp_path: Path, name: str, text: str) -> Ruleset:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_file(path, cached=False)


def test_house_restating_menos_diffs_empty(tmp_path: Path) -> None:
    # Issue 5: "a house ruleset that only re-states menos in other words ... diffs empty against menos".
    house = write(tmp_path, "casa.yaml", HOUSE_SAME)
    assert house.kind("escalera").text != rs("menos").kind("escalera").text  # really written differently
    report = diff(rs("menos"), house)
    assert report.same, diff_text(report)
    assert diff(house, rs("menos")).same


def test_house_renaming_a_table_diffs_empty(tmp_path: Path) -> None:
    house = write(tmp_path, "castigo.yaml", """\
name: castigo
extends: menos
values:
  penalty: null
  castigo: "JOKER -> 25; A -> 15; J Q K -> 10; _ -> face"
scoring:
  round: "went_out ? 0 : castigo(hand)"
""")
    assert diff(rs("menos"), house).same


def test_house_with_real_changes(tmp_path: Path) -> None:
    # Line order matters in a value table (first match wins): J Q K after `_ -> face` costs 11, 12, 13.
    house = write(tmp_path, "dos.yaml", """\
name: dos
extends: menos
melds:
  escalera:
    shape: run 3..13, ace low, wilds <= 2
values:
  penalty: |
    JOKER -> 25
    A -> 15
    _ -> face
    J Q K -> 10
""")
    report = diff(rs("menos"), house)
    assert keys(report) == {("melds", "escalera", "shape"), ("values", "penalty")}
    shape = change(report, "melds", "escalera", "shape")
    assert [(d.subject, d.left, d.right) for d in shape.details] == [("wilds", "wilds <= 1", "wilds <= 2")]
    values = {c: (d.left.split()[0], d.right.split()[0])
              for d in change(report, "values", "penalty").details for c in d.cards}
    assert values == {**{f"J{s}": ("10", "11") for s in "♠♥♦♣"}, **{f"Q{s}": ("10", "12") for s in "♠♥♦♣"},
                      **{f"K{s}": ("10", "13") for s in "♠♥♦♣"}}
    # A meld with two wilds is the smallest witness of the wild limit.
    found = meld_witnesses(report, "melds", "escalera", "shape")
    assert found and all(w.size == 3 and w.cards.count("JOKER") == 2 and w.right_value for w in found)
    assert_meld_witnesses_hold(report, rs("menos"), house)


def test_role_values_are_compared(tmp_path: Path) -> None:
    # Seed 003's table, but a wild standing for 7…2 or a low ace worth 2 instead of 1: only meld roles differ.
    house = write(tmp_path, "pagat-casa.yaml", """\
name: pagat-casa
extends: mas-pagat
values:
  on_table: |
    wild and (high or as K Q J 10 9 8) -> 3
    wild -> 2
    A and (high or in set) -> 3
    A -> 1
    K Q J 10 9 8 -> 2
    _ -> 1
""")
    report = diff(rs("mas-pagat"), house)
    table = change(report, "values", "on_table")
    assert all(" in " in d.subject and d.left == "1" and d.right == "2" for d in table.details)
    assert any("wild as 7" in d.subject for d in table.details)
    assert report.witnesses_for("values", "on_table")


# ---------------------------------------------------------------- canonical forms


@pytest.mark.parametrize(("left", "right"), [
    ("5 * count(melds) + card(melds)", "card(melds) + count(melds) * 5"),
    ("(went_out ? 0 : (penalty(hand)))", "went_out ? 0 : penalty(hand)"),
    ("players - round", "-round + players"),
    ("players > 3", "3 < players"),
    ("players > 3", "players >= 4"),
    ("2 * players >= 6", "players >= 3"),
    ("not not went_out", "went_out"),
    ("went_out ? 0 : penalty(hand)", "not went_out ? penalty(hand) : 0"),
    ("went_out ? 0 : penalty(hand)", "(went_out ? 0 : 1) * penalty(hand)"),
    ("went_out and stock_out", "stock_out and went_out"),
    ("5 * (count(melds) + 1)", "5 + 5 * count(melds)"),
    ("max(0, penalty(hand), 0)", "max(penalty(hand), 0)"),
    ("max(players, max(round, 1))", "max(1, round, players)"),
    ("count(melds where pierna and suits == 4)", "count(melds where 4 == suits and pierna)"),
    ("count(melds where true)", "count(melds)"),
    ("players != 3", "not (players == 3)"),
    ("players < 3", "not (players >= 3)"),
    ("round - players >= 0", "players <= round"),
    ("abs(players - round)", "abs(round - players)"),
])
def test_same_meaning_same_canonical_form(left: str, right: str) -> None:
    assert canonical_text(left) == canonical_text(right)


@pytest.mark.parametrize(("left", "right"), [
    ("players - round", "round - players"),
    ("players > 3", "players >= 3"),
    ("went_out ? 0 : penalty(hand)", "penalty(hand)"),
    ("went_out and stock_out", "went_out or stock_out"),
    ("max(0, penalty(hand))", "min(0, penalty(hand))"),
    ("card(melds)", "card(hand)"),
])
def test_different_meaning_different_canonical_form(left: str, right: str) -> None:
    assert canonical_text(left) != canonical_text(right)


@pytest.mark.parametrize(("left", "right"), [
    ("set 3..4, suits distinct, no wilds", "set 3..4, wilds <= 0, suits distinct"),
    ("set 3..4, suits distinct, no wilds", "set 3..4, suits distinct, wilds == 0"),
    ("run 3..3, ace low", "run 3"),
    ("run 3+, wilds <= 1", "run 3..13, ace low, wilds < 2"),
    ("set 3..6, suits distinct", "set 3..4, suits distinct"),  # four suits: at most four cards anyway
    ("run 3..13, wilds <= 1, wilds apart", "run 3..13, wilds <= 1"),  # one wild cannot touch another
])
def test_same_shape(left: str, right: str) -> None:
    assert canonical_shape(parse_shape(left), 13, 4).key == canonical_shape(parse_shape(right), 13, 4).key


def test_different_shapes() -> None:
    base = canonical_shape(parse_shape("run 3..13, ace low, wilds <= 1"), 13, 4).key
    for other in ("run 3..13, ace high or low, wilds <= 1", "run 3..13, wilds <= 2", "run 4..13, wilds <= 1",
                  "set 3..13, wilds <= 1", "run 3..13, naturals >= 2"):
        assert canonical_shape(parse_shape(other), 13, 4).key != base, other


# ---------------------------------------------------------------- properties of canonical forms (Hypothesis)


NOPOS = A.NOPOS
INT_VARS = ("players", "round")
BOOL_VARS = ("went_out", "all_at_once", "stock_out")


def n(value: int) -> A.Expr:
    return A.Num(value, NOPOS) if value >= 0 else A.Neg(A.Num(-value, NOPOS), NOPOS)


def call(name: str, coll: str, where: A.Expr | None = None) -> A.Expr:
    return A.Call(name, (A.Arg(A.Var(coll, NOPOS), where),), NOPOS)


meld_filters: st.SearchStrategy[A.Expr] = st.one_of(
    st.sampled_from(["pierna", "escalera", "set", "run"]).map(lambda k: A.Var(k, NOPOS)),
    st.tuples(st.sampled_from(["size", "suits", "wilds"]), st.sampled_from(["==", ">=", "<", "!="]),
              st.integers(0, 5)).map(lambda t: A.Compare(t[1], A.Var(t[0], NOPOS), A.Num(t[2], NOPOS), NOPOS)),
)

int_leaves: st.SearchStrategy[A.Expr] = st.one_of(
    st.integers(-4, 12).map(n),
    st.sampled_from(INT_VARS).map(lambda v: A.Var(v, NOPOS)),
    st.just(call("count", "melds")),
    st.just(call("pen", "hand")),
    st.just(call("pts", "melds")),
    meld_filters.map(lambda w: call("count", "melds", w)),
)


def ints(depth: int) -> st.SearchStrategy[A.Expr]:
    if depth == 0:
        return int_leaves
    sub = ints(depth - 1)
    return st.one_of(
        int_leaves,
        st.lists(st.tuples(st.sampled_from("+-"), sub), min_size=1, max_size=3).flatmap(
            lambda rest: sub.map(lambda first: A.Arith(first, tuple(rest), NOPOS))),
        st.lists(sub, min_size=2, max_size=3).map(
            lambda fs: A.Arith(fs[0], tuple(("*", f) for f in fs[1:]), NOPOS)),
        sub.map(lambda e: A.Neg(e, NOPOS)),
        st.tuples(bools(depth - 1), sub, sub).map(lambda t: A.Cond(t[0], t[1], t[2], NOPOS)),
        st.tuples(st.sampled_from(["max", "min"]), st.lists(sub, min_size=1, max_size=3)).map(
            lambda t: A.Call(t[0], tuple(A.Arg(e, None) for e in t[1]), NOPOS)),
        sub.map(lambda e: A.Call("abs", (A.Arg(e, None),), NOPOS)),
    )


def bools(depth: int) -> st.SearchStrategy[A.Expr]:
    leaves: st.SearchStrategy[A.Expr] = st.one_of(
        st.sampled_from(BOOL_VARS).map(lambda v: A.Var(v, NOPOS)),
        st.booleans().map(lambda b: A.Bool(b, NOPOS)),
    )
    if depth == 0:
        return leaves
    sub_i, sub_b = ints(depth - 1), bools(depth - 1)
    return st.one_of(
        leaves,
        st.tuples(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), sub_i, sub_i).map(
            lambda t: A.Compare(t[0], t[1], t[2], NOPOS)),
        st.lists(sub_b, min_size=2, max_size=3).map(lambda items: A.And(tuple(items), NOPOS)),
        st.lists(sub_b, min_size=2, max_size=3).map(lambda items: A.Or(tuple(items), NOPOS)),
        sub_b.map(lambda e: A.Not(e, NOPOS)),
    )


_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}


def rewrite(e: A.Expr, rnd: random.Random) -> A.Expr:
    """The same formula in other words: terms, factors and items shuffled, comparisons turned around or
    negated twice (``a < b`` as ``not (a >= b)``), ``a - b`` as ``-b + a``, double negations, swapped
    conditions."""
    def go(x: A.Expr) -> A.Expr:
        return rewrite(x, rnd)

    match e:
        case A.Arith(first=first, rest=rest) if all(op == "*" for op, _ in rest):
            factors = [go(first), *(go(f) for _, f in rest)]
            rnd.shuffle(factors)
            return A.Arith(factors[0], tuple(("*", f) for f in factors[1:]), NOPOS)
        case A.Arith(first=first, rest=rest):
            terms = [("+", go(first)), *((op, go(t)) for op, t in rest)]
            rnd.shuffle(terms)
            head_op, head = terms[0]
            head = A.Neg(head, NOPOS) if head_op == "-" else head
            return A.Arith(head, tuple(terms[1:]), NOPOS)
        case A.Neg(value=v):
            return A.Neg(go(v), NOPOS)
        case A.Compare(op=op, left=left, right=right):
            roll = rnd.random()
            if roll < 0.33:
                return A.Compare(_FLIP[op], go(right), go(left), NOPOS)
            if roll < 0.66:
                return A.Not(A.Compare(_NEGATE[op], go(left), go(right), NOPOS), NOPOS)
            return A.Compare(op, go(left), go(right), NOPOS)
        case A.And(items=items) | A.Or(items=items):
            shuffled = [go(i) for i in items]
            rnd.shuffle(shuffled)
            return type(e)(tuple(shuffled), NOPOS)
        case A.Not(value=v):
            return A.Not(go(v), NOPOS)
        case A.Cond(test=t, then=a, otherwise=b):
            if rnd.random() < 0.5:
                return A.Cond(A.Not(go(t), NOPOS), go(b), go(a), NOPOS)
            return A.Cond(go(t), go(a), go(b), NOPOS)
        case A.Call(name=name, args=args) if name in ("max", "min"):
            shuffled_args = [A.Arg(go(a.value), None) for a in args]
            rnd.shuffle(shuffled_args)
            return A.Call(name, tuple(shuffled_args), NOPOS)
        case A.Var(name=name) if name in BOOL_VARS and rnd.random() < 0.3:
            return A.Not(A.Not(e, NOPOS), NOPOS)
        case _:
            return e


@dataclass(frozen=True)
class Meld:
    kind: str
    shape: str
    size: int
    suits: int
    wilds: int
    naturals: int


@dataclass
class Env:
    """A round for a formula: variables, a hand of card codes, melds, and two value tables."""

    values: dict[str, Any]
    hand: tuple[int, ...]
    melds: tuple[Meld, ...]

    def variable(self, name: str) -> Any:
        if name == "hand":
            return self.hand
        if name == "melds":
            return self.melds
        return self.values[name]

    def card_value(self, table: str, card: int) -> int:
        return card % 7 + (3 if table == "pen" else 1)

    def card_values(self, table: str) -> Sequence[int]:
        return [self.card_value(table, c) for c in range(60)]

    def meld_value(self, table: str, meld: Any) -> int:
        return int(meld.size * 2 + meld.wilds)


melds_st = st.builds(Meld, st.sampled_from(["pierna", "escalera"]), st.sampled_from(["set", "run"]),
                     st.integers(3, 6), st.integers(1, 4), st.integers(0, 2), st.integers(1, 6))
envs: st.SearchStrategy[Env] = st.builds(
    Env,
    st.fixed_dictionaries({"players": st.integers(2, 5), "round": st.integers(1, 8),
                           "went_out": st.booleans(), "all_at_once": st.booleans(), "stock_out": st.booleans()}),
    st.lists(st.integers(0, 52), max_size=4).map(tuple),
    st.lists(melds_st, max_size=3).map(tuple),
)


@FAST
@given(ints(3), st.randoms(use_true_random=False), st.lists(envs, min_size=1, max_size=4))
def test_canonical_form_ignores_the_wording(e: A.Expr, rnd: random.Random, samples: list[Env]) -> None:
    other = rewrite(e, rnd)
    assert canonical(e) == canonical(other)
    for env in samples:
        assert evaluate(e, env) == evaluate(other, env)  # the rewrite really says the same thing


@FAST
@given(st.one_of(ints(3), bools(3)), st.lists(envs, min_size=1, max_size=6))
def test_canonical_form_evaluates_like_the_formula(e: A.Expr, samples: list[Env]) -> None:
    # So equal canonical forms always evaluate equal: each evaluates like the formula it came from.
    c = canonical(e)
    for env in samples:
        assert evaluate_canonical(c, env) == evaluate(e, env)


@FAST
@given(ints(1), ints(1), st.lists(envs, min_size=1, max_size=6))
def test_equal_canonical_forms_evaluate_equal(a: A.Expr, b: A.Expr, samples: list[Env]) -> None:
    if canonical(a) == canonical(b):
        for env in samples:
            assert evaluate(a, env) == evaluate(b, env)


# ---------------------------------------------------------------- the report


def test_report_json_and_stats_hook() -> None:
    def stats(a: Ruleset, b: Ruleset) -> dict[str, Any]:
        return {"deals": 10, "seed": 1, "figures": [
            {"name": "least penalty in a dealt hand", "a": 40.1, "b": 47.3, "spread_a": 12.0, "spread_b": 13.5,
             "diff": 7.2, "se": 0.4, "unit": ""}]}

    hook: Callable[[Ruleset, Ruleset], dict[str, Any]] = stats
    report = diff(rs("menos"), rs("uruguay"), stats=hook)
    data = json.loads(json.dumps(report.to_dict()))
    assert data["same"] is False and data["left"] == "menos" and data["right"] == "uruguay"
    assert set(data["areas"]) == {"wilds", "values"}
    assert data["stats"]["figures"][0]["diff"] == 7.2
    text = diff_text(report)
    assert "Play statistics" in text and "least penalty in a dealt hand" in text
    assert "40.1 ± 12.0" in text and "+7.2 ± 0.4" in text
    assert diff(rs("menos"), rs("uruguay")).stats is None
    assert "Play statistics" not in diff_text(diff(rs("menos"), rs("uruguay")))


def test_stats_hook_takes_the_play_statistics() -> None:
    # The hook is where issue 5 §3's play statistics plug in (loba_dsl.compare.stats, with the solver).
    from loba_dsl.compare.stats import play_stats

    report = diff(rs("menos"), rs("uruguay"),
                  stats=lambda a, b: play_stats(a, b, deals=10, seed=1, workers=1).to_dict())
    assert report.stats is not None and report.stats["deals"] == 10
    assert "least penalty in a dealt hand" in diff_text(report)


def test_witnesses_off() -> None:
    report = diff(rs("menos"), rs("uruguay"), witnesses=False)
    assert not report.same and report.witnesses == ()


def test_size_limits_are_searched_at_their_boundary(tmp_path: Path) -> None:
    # rules.md §1: an escalera has "at most 13 cards"; a house that stops at 12 differs only on a 13-card run.
    house = write(tmp_path, "doce.yaml", "name: doce\nextends: menos\nmelds:\n  escalera:\n"
                                          "    shape: run 3..12, ace low, wilds <= 1\n")
    report = diff(rs("menos"), house)
    assert keys(report) == {("melds", "escalera", "shape")}
    found = meld_witnesses(report, "melds", "escalera", "shape")
    assert found and all(w.size == 13 and w.left_value is True and w.right_value is False for w in found)
    assert_meld_witnesses_hold(report, rs("menos"), house)
