"""The vocabulary is the one list of the language's names: everything that knows names reads it.

Expected names and types are the README's reference of the language (rules.md §4 scoring formulas,
seed 003's value table): round variables hand, melds, went_out, all_at_once, stock_out, players, round;
meld attributes size, suits, wilds, naturals, set, run; card variables face, stands_face; functions
count, max, min, abs and the value tables.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from loba_dsl.dsl import typecheck
from loba_dsl.dsl.canon import canonical_text
from loba_dsl.dsl.evaluate import compile_formula
from loba_dsl.dsl.parser import DSLProblem, parse_formula
from loba_dsl.dsl.vocabulary import (
    CARD,
    FUNCTIONS,
    INT_NAMES,
    MELD,
    ROUND,
    ROUND_SCALARS,
    MeldFacts,
    meld_reader,
    reference_markdown,
    round_facts,
)
from loba_dsl.rules.loading import load

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_names_of_the_language() -> None:
    assert {n: v.type for n, v in ROUND.items()} == {
        "hand": "cards", "melds": "melds", "went_out": "bool", "all_at_once": "bool", "stock_out": "bool",
        "players": "int", "round": "int"}
    assert {n: v.type for n, v in MELD.items()} == {
        "size": "int", "suits": "int", "wilds": "int", "naturals": "int", "set": "bool", "run": "bool"}
    assert {n: v.type for n, v in CARD.items()} == {"face": "int", "stands_face": "int"}
    assert list(FUNCTIONS) == ["count", "max", "min", "abs"]
    assert {"players", "round", "size", "suits", "wilds", "naturals"} == INT_NAMES


def test_every_name_is_documented() -> None:
    docs = [n.doc for n in ROUND.values()] + [m.doc for m in MELD.values()] + [c.doc for c in CARD.values()]
    for doc in docs + [f.doc for f in FUNCTIONS.values()]:
        assert doc and doc[0].islower(), doc


def test_the_meld_facts_protocol_is_what_the_attributes_read() -> None:
    fields = {n for n, v in vars(MeldFacts).items() if isinstance(v, property)}
    assert fields == {m.field for m in MELD.values()} | {"kind"}


def test_round_facts_are_the_scalar_round_variables_with_their_defaults() -> None:
    params = inspect.signature(round_facts).parameters
    assert tuple(params) == ROUND_SCALARS
    assert round_facts() == {n: ROUND[n].default for n in ROUND_SCALARS}
    # A player who has not gone out, at a four-player table, in round 1 (the solver's premise).
    assert round_facts() == {"went_out": False, "all_at_once": False, "stock_out": False, "players": 4,
                             "round": 1}


def test_the_type_checker_reads_the_vocabulary() -> None:
    scope = typecheck.round_scope(["pierna"], ["penalty"])
    for name, entry in ROUND.items():
        assert typecheck.check_expr(parse_formula(name), scope) == entry.type
    for name, attr in MELD.items():
        want = "int" if attr.type == "int" else "bool"
        text = f"count(melds where {name} {'>= 0' if want == 'int' else ''})"
        assert typecheck.check_expr(parse_formula(text), scope) == "int"
    for name in CARD:
        assert typecheck.check_expr(parse_formula(name), typecheck.card_scope()) == "int"
    with pytest.raises(DSLProblem, match="unknown name 'size'"):
        typecheck.check_expr(parse_formula("size"), scope)  # a meld attribute, outside a filter
    with pytest.raises(DSLProblem, match="unknown name 'face'"):
        typecheck.check_expr(parse_formula("face"), scope)
    with pytest.raises(DSLProblem, match="unknown function 'sum'"):
        typecheck.check_expr(parse_formula("sum(hand)"), scope)


def test_meld_names_read_the_meld() -> None:
    class Pierna:
        kind, shape, size, suits, wilds, naturals = "pierna", "set", 4, 4, 0, 4

    meld = Pierna()
    values = {name: meld_reader(name)(meld) for name in [*MELD, "pierna", "escalera"]}  # type: ignore[misc]
    assert values == {"size": 4, "suits": 4, "wilds": 0, "naturals": 4, "set": True, "run": False,
                      "pierna": True, "escalera": False}
    assert meld_reader("players") is None  # the round's names stay the round's inside a filter


def test_canon_types_names_by_the_vocabulary() -> None:
    # `players` is a number and `went_out` a condition: x + 0 and x are one form for numbers only.
    assert canonical_text("players + 0") == canonical_text("players")
    assert canonical_text("went_out and true") == canonical_text("went_out")


def test_instant_win_uses_the_one_evaluator() -> None:
    # Chinchón ends the match when a player goes out with a seven-card escalera
    # (rules.md, the chinchon row: "a 7-card run (chinchón) wins the match").
    rs = load("chinchon")
    assert rs.match.instant_win is not None
    win = compile_formula(rs.match.instant_win)

    class Escalera:
        kind, shape, size, suits, wilds, naturals = "escalera", "run", 7, 1, 0, 7

    class Round:
        def __init__(self, went_out: bool, size: int) -> None:
            self.facts = round_facts(went_out=went_out)
            meld = Escalera()
            meld.size = size
            self.melds = (meld,)

        def variable(self, name: str) -> object:
            return self.melds if name == "melds" else self.facts[name]

    assert win(Round(True, 7)) is True  # type: ignore[arg-type]
    assert win(Round(True, 6)) is False  # type: ignore[arg-type]
    assert win(Round(False, 7)) is False  # type: ignore[arg-type]


def test_readme_reference_of_names_is_generated_from_the_vocabulary() -> None:
    text = README.read_text(encoding="utf-8")
    start = text.index("<!-- names:")
    body = text[text.index("\n", start) + 1:text.index("<!-- /names -->")]
    assert body == reference_markdown()
    for name in [*ROUND, *MELD, *CARD, *FUNCTIONS]:
        assert f"`{name}" in body
