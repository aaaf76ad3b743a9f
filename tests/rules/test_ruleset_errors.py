"""Every kind of ruleset error is reported as ``file:line:col`` with the offending text (issue 2:
"Every error, YAML, schema or DSL, is reported as file:line:col with the offending text"; design.md:
"syntax and meaning are checked [at load] (unknown names, a wild that the deck cannot produce, a
formula over a value that does not exist), with file:line:col"; style.md "Errors a person can act on":
1-based character columns, "did you mean" hints, all errors of one pass reported together).

Each case is a small house file that extends Menos (rules.md §1) with one mistake.  ``@@`` marks where
the offending text starts; it is removed before the file is written, and the expected line and column
are computed from where it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from loba_dsl.errors import LobaError, LobaErrors
from loba_dsl.rules.loading import load_file

MARK = "@@"
HEAD = "# A house ruleset with one mistake.\nname: house\nextends: menos\n"


@dataclass(frozen=True)
class Case:
    id: str
    body: str
    """The file after HEAD, with MARK where the offending text starts."""
    token: str
    """The offending text, which the caret must underline."""
    message: str
    """A word the message must contain."""
    hint: str | None = None
    """A word the hint must contain (a did-you-mean), where one makes sense."""
    head: str = HEAD
    """What comes before the body."""


def place(marked: str) -> tuple[str, int, int]:
    """The text without its MARK, and the 1-based line and column where the MARK was."""
    assert marked.count(MARK) == 1
    offset = marked.index(MARK)
    text = marked.replace(MARK, "")
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return text, line, column


CASES = [
    # ---- YAML
    Case("yaml-syntax", "deal:\n  cards: 9@@: 10\n", ":", "not allowed"),
    Case("duplicate-key", "deal:\n  cards: 9\n  @@cards: 11\n", "cards", "duplicate"),
    Case("anchor", "deal:\n  cards: @@&a 9\n", "&a", "anchor"),
    Case("alias", "deal:\n  cards: @@*a\n", "*a", "alias"),
    # ---- schema
    Case("unknown-key", "deal:\n  @@derection: clockwise\n", "derection", "unknown key", "'direction'"),
    Case("unknown-top-level-key", "@@scorin:\n  better: lower\n", "scorin", "unknown key", "'scoring'"),
    Case("wrong-enum", "deal:\n  direction: @@clockwize\n", "clockwize", "clockwise", "'clockwise'"),
    Case("wrong-type", "deck:\n  copies: @@two\n", "two", "integer"),
    Case("unknown-parent", "extends: @@menso\n", "menso", "menso", "'menos'", head="name: house\n"),
    # ---- DSL syntax, inside a literal block (the line inside the block is the file's line)
    Case("table-syntax", "values:\n  penalty: |\n    JOKER -> 25\n    A -> 15 @@15\n    _ -> face\n", "15",
         "15"),
    # ---- names
    Case("unknown-rank-in-table", "values:\n  penalty: |\n    JOKER -> 25\n    @@1 -> 15\n    _ -> face\n",
         "1", "'1'"),
    Case("unknown-rank-after-as", "values:\n  penalty: |\n    JOKER -> 25\n    wild and as @@Z -> 3\n"
         "    _ -> face\n", "Z", "'Z'"),
    Case("unknown-kind-in-formula",
         'scoring:\n  round: "went_out ? 0 : penalty(hand) - count(melds where @@piernas)"\n',
         "piernas", "piernas", "'pierna'"),
    Case("unknown-kind-in-table", "values:\n  penalty: |\n    JOKER -> 25\n    A and in @@escalara -> 15\n"
         "    _ -> face\n", "escalara", "escalara", "'escalera'"),
    Case("unknown-kind-in-contract", "requirements:\n  contracts:\n    rounds:\n      - 2 pierna\n"
         "      - pierna + 2 @@escaleras\n", "escaleras", "escaleras", "'escalera'"),
    Case("unknown-table", "scoring:\n  meld_points: @@penalti\n", "penalti", "penalti", "'penalty'"),
    Case("unknown-ace", "deck:\n  ace: @@As\n", "As", "As", "'A'"),
    # ---- meaning
    Case("wild-the-deck-lacks", "deck:\n  jokers: 0\nwilds:\n  cards: @@JOKER\n", "JOKER", "Joker"),
    Case("no-catch-all", "values:\n  penalty: |\n    JOKER -> 25\n    A -> 15\n    @@J Q K -> 10\n",
         "J Q K -> 10", "value", "_ ->"),
    Case("face-of-a-joker", "values:\n  penalty: |\n    A -> 15\n    J Q K -> 10\n    _ -> @@face\n",
         "face", "Joker"),
    Case("type-error-plain", "scoring:\n  round: @@went_out + 1\n", "went_out", "number"),
    Case("type-error-single-quoted", "scoring:\n  round: '@@went_out + 1'\n", "went_out", "number"),
    Case("type-error-double-quoted", 'scoring:\n  round: "@@went_out + 1"\n', "went_out", "number"),
    Case("run-clause-on-a-set", "melds:\n  pierna:\n    shape: set 3..4, @@ace low\n", "ace low", "run"),
]


def compile_text(folder: Path, text: str) -> tuple[Path, LobaError]:
    path = folder / "house.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LobaError) as info:
        load_file(path, cached=False)
    return path, info.value


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_each_error_is_at_file_line_col_with_the_offending_text(tmp_path: Path, case: Case) -> None:
    text, line, column = place(case.head + case.body)
    path, err = compile_text(tmp_path, text)
    loc = err.location
    assert loc is not None, err.render()
    assert (loc.source, loc.line, loc.column) == (str(path), line, column), err.render()
    assert str(err).startswith(f"{path}:{line}:{column}: error: "), str(err)
    # The source line is shown, with the caret under the offending text.
    assert loc.text == text.split("\n")[line - 1]
    assert loc.text[column - 1 : column - 1 + loc.length] == case.token, err.render()
    rendered = err.render().split("\n")
    assert rendered[1].endswith(f" | {text.split(chr(10))[line - 1]}")
    assert rendered[2].endswith("|" + " " * column + "^" * len(case.token)), err.render()
    assert case.message in err.message, err.render()
    if case.hint is not None:
        assert err.hint is not None and case.hint in err.hint, err.render()


def test_duplicate_key_names_the_first_definition(tmp_path: Path) -> None:
    text, line, _ = place(HEAD + "deal:\n  cards: 9\n  @@cards: 11\n")
    _, err = compile_text(tmp_path, text)
    assert f"line {line - 1}" in err.message


def test_a_missing_value_names_a_card_left_without_one(tmp_path: Path) -> None:
    # JOKER, A, J, Q, K have lines; every 2–10 of every suit is left without a value.
    text, _, _ = place(HEAD + "values:\n  penalty: |\n    JOKER -> 25\n    A -> 15\n    @@J Q K -> 10\n")
    _, err = compile_text(tmp_path, text)
    left = [f"{rank}{suit}" for rank in range(2, 11) for suit in "♠♥♦♣"]
    assert any(card in err.message for card in left), err.message


# ---------------------------------------------------------------- several errors at once


def places(marked: str) -> tuple[str, list[tuple[int, int]]]:
    """The text without its MARKs, and the (line, column) of every MARK, in order."""
    out: list[tuple[int, int]] = []
    text = marked
    while MARK in text:
        offset = text.index(MARK)
        text = text.replace(MARK, "", 1)
        out.append((text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1))
    return text, out


def test_every_dsl_error_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    text, expected = places(
        HEAD
        + "melds:\n  pierna:\n    shape: set 3..4, @@ace low\n"
        + "values:\n  penalty: |\n    JOKER -> 25\n    @@1 -> 15\n    _ -> face\n"
        + 'scoring:\n  round: "went_out ? 0 : penalty(hand) - count(melds where @@piernas)"\n'
    )
    path, err = compile_text(tmp_path, text)
    assert isinstance(err, LobaErrors), err.render()
    got = sorted((e.location.line, e.location.column) for e in err.errors if e.location is not None)
    assert got == expected, err.render()
    assert all(e.location is not None and e.location.source == str(path) for e in err.errors)
    assert len(err.render().split("\n")) == 3 * len(expected)  # headline, source line, caret each


def test_every_schema_error_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    text, expected = places(HEAD + "deal:\n  @@derection: clockwise\n  next_dealer: @@winner\n"
                            "deck:\n  copies: @@two\n")
    _, err = compile_text(tmp_path, text)
    assert isinstance(err, LobaErrors), err.render()
    got = sorted((e.location.line, e.location.column) for e in err.errors if e.location is not None)
    assert got == expected, err.render()


# ---------------------------------------------------------------- no error blamed on a line that is right


def test_a_broken_table_does_not_blame_the_formula_that_uses_it(tmp_path: Path) -> None:
    """One syntax error in the penalty table is one error: Menos's own formula
    ``went_out ? 0 : penalty(hand)`` (rulesets/menos.yaml) is right and must not be reported as
    "unknown function 'penalty'" because the table that failed was left out."""
    text, line, column = place(HEAD + "values:\n  penalty: |\n    JOKER -> 25\n    A -> 15 @@15\n    _ -> face\n")
    path, err = compile_text(tmp_path, text)
    errors = err.errors if isinstance(err, LobaErrors) else (err,)
    assert [(e.location.source, e.location.line, e.location.column) if e.location else None
            for e in errors] == [(str(path), line, column)], err.render()


def test_a_broken_shape_does_not_blame_the_formula_that_names_its_kind(tmp_path: Path) -> None:
    """One syntax error in the escalera's shape is one error, not also "unknown name 'escalera'" in a
    formula that names the kind correctly."""
    text, line, column = place(
        HEAD
        + "melds:\n  escalera:\n    shape: run 3..13, ace @@lwo, wilds <= 1\n"
        + 'scoring:\n  round: "went_out ? 0 : penalty(hand) + count(melds where escalera)"\n'
    )
    path, err = compile_text(tmp_path, text)
    errors = err.errors if isinstance(err, LobaErrors) else (err,)
    assert [(e.location.source, e.location.line, e.location.column) if e.location else None
            for e in errors] == [(str(path), line, column)], err.render()


def test_a_missing_name_neither_hides_nor_lets_through_a_dsl_error(tmp_path: Path) -> None:
    # A house file without its name (the schema requires one) whose penalty table reads a round variable,
    # which no card has (rules.md §1's table gives each card a value): both mistakes, each at its place,
    # where the table used to be evaluated anyway (an EvalError, outside the error family).
    text = "extends: menos\nvalues:\n  penalty: |\n    JOKER -> 25\n    _ -> went_out\n"
    _, err = compile_text(tmp_path, text)
    rendered = err.render()
    assert isinstance(err, LobaErrors), rendered
    found = {(e.location.line, e.location.column) if e.location else None: e.message for e in err.errors}
    assert "'name' is a required property" in found[(1, 1)], rendered
    assert "unknown name 'went_out'" in found[(5, 10)], rendered
