"""The DSL printer: print(parse(s)) == s for canonical spellings, and parse(print(tree)) == tree.

Fixtures are data: canonical spellings per start symbol of grammar/loba.lark (most of them the
README's and the shipped rulesets' own texts), other spellings with the canonical one they print as,
every DSL text of every shipped ruleset, and Hypothesis-generated trees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from dsl_strategies import exprs
from hypothesis import HealthCheck, given, settings

from loba_dsl.dsl import ast as A
from loba_dsl.dsl.ast import without_positions
from loba_dsl.dsl.parser import parse_cards, parse_contract, parse_formula, parse_rule, parse_shape, parse_table
from loba_dsl.dsl.printer import (
    print_cards,
    print_contract,
    print_formula,
    print_rule,
    print_shape,
    print_table,
)

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"

CANONICAL: dict[str, list[str]] = {
    "shape": [
        "set 3..4, suits distinct, no wilds",        # pierna (menos, README)
        "set 3..6, suits == 3, no wilds",            # pierna (pagat, README)
        "run 3..13, ace low, wilds <= 1",            # escalera (menos, README)
        "run 3..13, ace high or low, naturals >= 1",  # escalera (pagat, README)
        "run 3+, ace wrap, wilds apart",
        "set 4, ace high",
        "set",
        "run 3..7, size != 5, suits < 2, wilds > 0",
    ],
    "cards": ["JOKER", "JOKER, 2", "2, 10, spades"],
    "rule": [
        "wild and (high or as K Q J 10 9 8) -> 3",   # seed 003's table (README)
        "wild -> 1",
        "A and (high or in set) -> 3",
        "K Q J 10 9 8 -> 2",
        "_ -> 1",
        "_ -> face",
        "not wild and not (natural or low) -> stands_face - 1",
        "in pierna or in escalera and as A -> 2 * face",
    ],
    "formula": [
        "went_out ? 0 : penalty(hand)",                                     # menos
        "went_out and count(hand) == 0 ? -10 : puntos(hand)",               # chinchon
        "on_table(melds) - in_hand(hand) + (went_out and not stock_out ? all_at_once ? 5 * players : 5 : 0)",
        "went_out ? 0 : max(0, penalty(hand) - 10 * count(melds where pierna and suits == 4))",
        "went_out and count(melds where escalera and size == 7) >= 1",      # chinchon's instant win
        "(a - b) - c",
        "a - (b - c)",
        "a - b - c",
        "(a * b) * c",
        "a * (b + c)",
        "-(a + b)",
        "--a",
        "not not went_out",
        "not (a and b) or c",
        "(a or b) and c",
        "a ? b ? 1 : 2 : c ? 3 : 4",
        "(a ? b : c) ? 1 : 2",
        "(a ? 1 : 2) + 3",
        "(a == b) == c",
        "abs(x - 3) * 2",
        "min(1, round, players) >= 2",
        "count(melds where run and (size >= 4 or wilds == 0))",
        "true or false",
    ],
    "contract": ["2 pierna", "pierna + escalera", "2 escalera", "3 pierna + escalera"],
}

OTHER_SPELLINGS: dict[str, list[tuple[str, str]]] = {
    "shape": [("set 3..3, no wilds", "set 3, no wilds"), ("run 3..13,ace either", "run 3..13, ace high or low"),
              ("run 3..13, ace low or high", "run 3..13, ace high or low"), ("set 1+", "set")],
    "cards": [("JOKER 2", "JOKER, 2")],
    "rule": [("(wild) -> (3)", "wild -> 3"), ("K, Q -> 10", "K Q -> 10"), ("not(wild)->face", "not wild -> face")],
    "formula": [("((went_out)) ? 0 : (penalty(hand))", "went_out ? 0 : penalty(hand)"),
                ("a+b*c", "a + b * c"), ("(a)-(b)", "a - b"), ("- a", "-a"), ("f( x where  y )", "f(x where y)"),
                # mas-pagat: a ternary's branches need no parentheses
                ("on_table(melds) - in_hand(hand) + (went_out and not stock_out ? (all_at_once ? 5 * players : 5) : 0)",
                 "on_table(melds) - in_hand(hand) + (went_out and not stock_out ? all_at_once ? 5 * players : 5 : 0)"),
                ],
    "contract": [("1 pierna + 1 escalera", "pierna + escalera")],
}

PARSE: dict[str, Callable[[str], Any]] = {
    "shape": parse_shape, "cards": parse_cards, "rule": parse_rule, "formula": parse_formula,
    "contract": parse_contract,
}
PRINT: dict[str, Callable[[Any], str]] = {
    "shape": print_shape, "cards": print_cards, "rule": print_rule, "formula": print_formula,
    "contract": print_contract,
}


@pytest.mark.parametrize(("start", "text"), [(s, t) for s, texts in CANONICAL.items() for t in texts])
def test_canonical_spellings_print_as_themselves(start: str, text: str) -> None:
    assert PRINT[start](PARSE[start](text)) == text


@pytest.mark.parametrize(("start", "text", "canonical"),
                         [(s, t, c) for s, pairs in OTHER_SPELLINGS.items() for t, c in pairs])
def test_other_spellings_print_canonically(start: str, text: str, canonical: str) -> None:
    tree = PARSE[start](text)
    assert PRINT[start](tree) == canonical
    assert without_positions(PARSE[start](canonical)) == without_positions(tree)


def test_every_start_symbol_has_a_printer() -> None:
    from loba_dsl.dsl.parser import START_SYMBOLS

    assert set(START_SYMBOLS) == set(PRINT) == set(CANONICAL)


def _texts(doc: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every DSL text of one ruleset file: (start symbol, text); value tables as ``table``."""
    for kind in (doc.get("melds") or {}).values():
        if isinstance(kind, dict) and kind.get("shape") is not None:
            yield "shape", str(kind["shape"])
    for table in (doc.get("values") or {}).values():
        if table is not None:
            yield "table", str(table)
    wilds = (doc.get("wilds") or {}).get("cards")
    if wilds is not None:
        yield "cards", str(wilds)
    round_formula = (doc.get("scoring") or {}).get("round")
    if round_formula is not None:
        yield "formula", str(round_formula)
    instant = (doc.get("match") or {}).get("instant_win")
    if instant is not None:
        yield "formula", str(instant)
    contracts = ((doc.get("requirements") or {}).get("contracts") or {}).get("rounds") or []
    for text in contracts:
        yield "contract", str(text)


SHIPPED = [(path.name, start, text) for path in sorted(RULESETS.glob("*.yaml"))
           for start, text in _texts(yaml.safe_load(path.read_text(encoding="utf-8")))]


def test_the_shipped_rulesets_hold_every_kind_of_text() -> None:
    assert len(list(RULESETS.glob("*.yaml"))) >= 12
    assert {start for _, start, _ in SHIPPED} == {"shape", "table", "cards", "formula", "contract"}


@pytest.mark.parametrize(("name", "start", "text"), SHIPPED)
def test_shipped_texts_round_trip(name: str, start: str, text: str) -> None:
    if start == "table":
        rules = [rule for _, _, rule in parse_table(text)]
        again = [rule for _, _, rule in parse_table(print_table(rules))]
        assert without_positions(again) == without_positions(rules)
        assert print_table(again) == print_table(rules)
        return
    tree = PARSE[start](text)
    printed = PRINT[start](tree)
    assert without_positions(PARSE[start](printed)) == without_positions(tree)
    assert PRINT[start](PARSE[start](printed)) == printed


SOME = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SOME
@given(exprs("int", 3) | exprs("bool", 3))
def test_generated_formulas_round_trip(tree: A.Expr) -> None:
    printed = print_formula(tree)
    assert without_positions(parse_formula(printed)) == tree
    assert print_formula(parse_formula(printed)) == printed


def test_a_tree_the_parser_cannot_make_prints_as_what_it_means() -> None:
    # An Arith mixing + and * folds left to right: (a + b) * c.
    a, b, c = (A.Var(n, A.NOPOS) for n in "abc")
    mixed = A.Arith(a, (("+", b), ("*", c)), A.NOPOS)
    assert print_formula(mixed) == "(a + b) * c"
