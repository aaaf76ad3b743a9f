"""Fuzzing: whatever text a user gives, only our own error family escapes (style.md "Tests": "Fuzz
the card parser, the DSL and the YAML loader: only our own error family may escape"; issue 2: "No
input ever produces a traceback"; "Every error, YAML, schema or DSL, is reported as file:line:col").

- cards: ``check`` and ``Notation.parse``/``parse_codes`` raise only :class:`LobaError`, located
  inside the text;
- the DSL: ``parse_shape``/``parse_formula``/``parse_table``/``parse_contract`` (and the card and
  rule entry points) raise only :class:`DSLProblem`, at a position inside the text;
- rulesets: a file of random YAML-ish text, and Menos with one DSL text replaced by random text,
  compile or raise only :class:`LobaError`, whose location is a line of that file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from loba_dsl.dsl.parser import (
    DSLProblem,
    parse_cards,
    parse_contract,
    parse_formula,
    parse_rule,
    parse_shape,
    parse_table,
)
from loba_dsl.errors import LobaError, LobaErrors, Location
from loba_dsl.melds.check import check
from loba_dsl.rules.documents import shipped_dir
from loba_dsl.rules.loading import load, load_file

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FILES = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# The line breaks YAML counts (and so a ruleset's line numbers): \r\n, \r, \n, NEL, LS, PS.
YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def each_error(err: LobaError) -> list[LobaError]:
    return list(err.errors) if isinstance(err, LobaErrors) else [err]


# ---------------------------------------------------------------- cards

CARD_CHARS = list("A23456789TJQK10♠♥♦♣♤♡♢♧shdcSHDC,-– \n\t\ufe0f\ufe0e\ufeffJOKERjoker🃏BDVHxÍ\u0301é\x00\u2028")
CARD_WORDS = ["A♠", "10♥", "T♦", "JOKER", "JK", "🃏", "Joker", "7♠", "7♠", "7♠", "K♣", "as", "Comodín",
              "♥️", "1o", "Rb", "sota", "B♠", "JOKR", "10", "♠", "-", ",", " ", "\n"]
card_text = st.one_of(
    st.text(),
    st.text(alphabet=st.sampled_from(CARD_CHARS)),
    st.lists(st.sampled_from(CARD_WORDS)).map("".join),
    st.lists(st.sampled_from(CARD_WORDS)).map(" ".join),
)


def assert_located_in(err: LobaError, text: str, first_line: int = 1) -> None:
    for e in each_error(err):
        loc = e.location
        if loc is None:
            continue
        lines = text.split("\n")
        assert first_line <= loc.line < first_line + len(lines), (loc, text)
        assert 1 <= loc.column <= len(lines[loc.line - first_line]) + 1, (loc, text)


@given(card_text)
@FUZZ
def test_check_raises_only_loba_errors(text: str) -> None:
    try:
        result = check(text, load("menos"))
    except LobaError as err:
        assert_located_in(err, text)
        err.render()  # rendering never fails either
    else:
        assert result.valid in (True, False)
        result.to_dict()


@pytest.mark.parametrize(("name", "lang"), [("menos", None), ("menos", "de"), ("menos", "nl"),
                                            ("sin-jokers", None), ("chinchon", None), ("chinchon", "es")])
def test_notation_raises_only_loba_errors(name: str, lang: str | None) -> None:
    notation = load(name).notation(lang)

    @given(card_text)
    @settings(max_examples=150, deadline=None)
    def prop(text: str) -> None:
        try:
            parsed = notation.parse(text)
        except LobaError as err:
            assert_located_in(err, text)
            with pytest.raises(LobaError):
                notation.parse_codes(text)  # the fast path rejects what the slow one rejects
        else:
            assert notation.parse_codes(text) == parsed.cards

    prop()


@given(card_text, st.one_of(st.none(), st.sampled_from(["de", "nl", "it", "es", "en"]), st.text(max_size=5)))
@settings(max_examples=150, deadline=None)
def test_check_with_any_language_raises_only_loba_errors(text: str, lang: str | None) -> None:
    try:
        check(text, load("menos"), lang=lang)
    except LobaError as err:
        assert_located_in(err, text)


# ---------------------------------------------------------------- the DSL

DSL_TOKENS = [
    "set", "run", "3..4", "3", "13", "3+", "..", ",", "wilds", "naturals", "suits", "size", "distinct",
    "ace", "low", "high", "either", "wrap", "or", "and", "not", "no", "apart", "<=", ">=", "==", "!=", "<",
    ">", "?", ":", "(", ")", "->", "_", "JOKER", "A", "K", "10", "2", "face", "stands_face", "wild",
    "natural", "as", "in", "went_out", "penalty", "hand", "melds", "count", "where", "max", "abs", "+",
    "-", "*", "true", "false", "pierna", "escalera", "#", "\n", ";", " ", "  ", "99999999999", "é", "'",
]
dsl_text = st.one_of(
    st.text(),
    st.lists(st.sampled_from(DSL_TOKENS), max_size=30).map(" ".join),
    st.lists(st.sampled_from(DSL_TOKENS), max_size=30).map("".join),
    st.lists(st.one_of(st.sampled_from(DSL_TOKENS), st.text(max_size=3)), max_size=30).map(" ".join),
)
# Deep nesting, within the length a ruleset allows for one DSL text (4000 characters).
nested_text = st.builds(
    lambda pre, core, post, n: pre * n + core + post * n,
    st.sampled_from(["-", "(", "not ", "- ", "( "]),
    st.sampled_from(["1", "A", "went_out", "A -> 1", "_ -> 1", "1 ? 2 : 3"]),
    st.sampled_from(["", ")", " )"]),
    st.one_of(st.integers(0, 1300), st.sampled_from([300, 490, 700, 1000, 1300])),
)

PARSERS: dict[str, Callable[[str], object]] = {
    "shape": parse_shape,
    "formula": parse_formula,
    "table": parse_table,
    "contract": parse_contract,
    "cards": parse_cards,
    "rule": parse_rule,
}


def assert_dsl_problem_in(problem: DSLProblem, text: str) -> None:
    lines = text.split("\n")
    assert 1 <= problem.pos.line <= len(lines), (problem.pos, text)
    assert 1 <= problem.pos.column <= len(lines[problem.pos.line - 1]) + 1, (problem.pos, text)
    assert problem.message


@pytest.mark.parametrize("start", list(PARSERS))
def test_the_dsl_parser_raises_only_dsl_problems(start: str) -> None:
    parse = PARSERS[start]

    @given(st.one_of(dsl_text, nested_text))
    @FUZZ
    def prop(text: str) -> None:
        try:
            parse(text)
        except DSLProblem as problem:
            assert_dsl_problem_in(problem, text)

    prop()


@pytest.mark.parametrize(
    ("start", "text"),
    [
        ("formula", "-" * 1500 + "1"),
        ("formula", "(" * 1900 + "1" + ")" * 1900),
        ("formula", "- " * 600 + "went_out"),
        ("rule", "(" * 1000 + "A" + ")" * 1000 + " -> 1"),
        ("rule", "_ -> " + "-" * 1500 + "1"),
        ("table", "(" * 1000 + "A" + ")" * 1000 + " -> 1"),
    ],
    ids=["neg-1500", "parens-1900", "neg-spaced-600", "rule-parens-1000", "rule-neg-1500", "table-parens"],
)
def test_deep_nesting_is_a_dsl_problem_or_parses(start: str, text: str) -> None:
    """A text under the 4000-character limit that nests deeply must not crash the parser
    (issue 2: "No input ever produces a traceback"): it parses, or it is a DSLProblem."""
    try:
        PARSERS[start](text)
    except DSLProblem as problem:
        assert_dsl_problem_in(problem, text)


# ---------------------------------------------------------------- ruleset files


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def assert_located_in_file(err: LobaError, path: Path, text: str) -> None:
    """Every error of a ruleset names the file, at one of its lines."""
    n_lines = len(YAML_BREAK.split(text))
    for e in each_error(err):
        loc = e.location
        assert loc is not None, e.render()
        assert isinstance(loc, Location)
        assert loc.source == str(path), e.render()
        assert 1 <= loc.line <= n_lines, (e.render(), n_lines)
        assert loc.column >= 1
        e.render()


def compile_only_loba_errors(path: Path, text: str) -> None:
    try:
        load_file(path, cached=False)
    except LobaError as err:
        assert_located_in_file(err, path, text)


YAML_TOKENS = [
    "name", "description", "extends", "deck", "suits", "ranks", "key", "face", "copies", "jokers", "ace",
    "wilds", "cards", "melds", "pierna", "shape", "values", "penalty", "scoring", "round", "meld_points",
    "match", "turn", "deal", "direction", "players", "min", "max", ":", ": ", " ", "  ", "\n", "\n  ",
    "\n    ", "- ", "{", "}", "[", "]", ",", "|", "|\n    ", ">", "&a ", "*a", "!!str ", "!!python/object ",
    "'", '"', "#", "---", "...", "extends: menos", "extends: self.yaml", "extends: nope.yaml", "null",
    "~", "true", "yes", "1e9", "0x10", "99999999999999999999", "-1", "\t", "? ", "%YAML 1.1\n", "<<: ",
    "@", "`", "\x00", "\ufeff", "é", "\r", "\u2028", "set 3..4", "run 3..13, ace low", "JOKER -> 25",
    "went_out ? 0 : penalty(hand)", "clockwise", "menos",
]
yaml_text = st.one_of(
    st.text(),
    st.lists(st.sampled_from(YAML_TOKENS), max_size=60).map("".join),
    st.lists(st.one_of(st.sampled_from(YAML_TOKENS), st.text(max_size=4)), max_size=60).map("".join),
)


def test_random_yaml_compiles_or_raises_only_loba_errors(folder: Path) -> None:
    path = folder / "self.yaml"

    @given(yaml_text)
    @FILES
    def prop(text: str) -> None:
        path.write_text(text, encoding="utf-8")
        compile_only_loba_errors(path, text)

    prop()


def test_random_bytes_raise_only_loba_errors(folder: Path) -> None:
    path = folder / "bytes.yaml"

    @given(st.binary(max_size=300))
    @settings(max_examples=100, deadline=None)
    def prop(data: bytes) -> None:
        path.write_bytes(data)
        try:
            load_file(path, cached=False)
        except LobaError as err:
            for e in each_error(err):
                assert e.location is not None and e.location.source == str(path)

    prop()


# ---------------------------------------------------------------- Menos with random DSL strings

MENOS_TEXT = (shipped_dir() / "menos.yaml").read_text(encoding="utf-8")
MENOS_DATA: dict[str, Any] = yaml.safe_load(MENOS_TEXT)


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: object) -> bool:
        return True


def menos_with(where: tuple[str, ...], text: str) -> str:
    """Menos's own document, with the DSL text at ``where`` replaced, written by a YAML emitter."""
    data = json.loads(json.dumps(MENOS_DATA))
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = text
    dumped: str = yaml.dump(data, Dumper=_NoAliases, allow_unicode=True, sort_keys=False)
    return dumped


DSL_PLACES = [("melds", "escalera", "shape"), ("melds", "pierna", "shape"), ("scoring", "round"),
              ("values", "penalty"), ("wilds", "cards")]


@pytest.mark.parametrize("where", DSL_PLACES, ids=".".join)
def test_menos_with_a_random_dsl_text(folder: Path, where: tuple[str, ...]) -> None:
    path = folder / f"menos-{'-'.join(where)}.yaml"

    @given(st.one_of(dsl_text, nested_text.filter(lambda t: len(t) <= 1000)))
    @example("-" * 900 + "1")  # the schema allows 1000 characters in a formula or a shape
    @example("(" * 450 + "A" + ")" * 450 + " -> 1")
    @FILES
    def prop(text: str) -> None:
        document = menos_with(where, text)
        path.write_text(document, encoding="utf-8")
        compile_only_loba_errors(path, document)

    prop()


@pytest.mark.parametrize(
    ("where", "text"),
    [
        (("scoring", "round"), "-" * 900 + "1"),
        (("scoring", "round"), "(" * 480 + "went_out ? 0 : 1" + ")" * 480),
        (("values", "penalty"), "(" * 300 + "A" + ")" * 300 + " -> 1\n_ -> 0"),
        (("values", "penalty"), "_ -> " + "-" * 900 + "1"),
    ],
    ids=["round-neg-900", "round-parens-480", "table-parens-300", "table-neg-900"],
)
def test_a_deeply_nested_dsl_text_in_a_ruleset_is_a_ruleset_error(
    folder: Path, where: tuple[str, ...], text: str
) -> None:
    """Outside Hypothesis (which raises the recursion limit while it runs a test), at the depth a
    ruleset within the schema's length limits can reach: compiled, or a located LobaError."""
    path = folder / "menos-deep.yaml"
    document = menos_with(where, text)
    path.write_text(document, encoding="utf-8")
    compile_only_loba_errors(path, document)


def menos_with_table(lines: list[str]) -> str:
    """Menos's file as written, with the penalty table's block replaced by ``lines`` (indented)."""
    start = MENOS_TEXT.index("  penalty: |\n") + len("  penalty: |\n")
    end = MENOS_TEXT.index("\nscoring:")
    block = "".join(f"    {line}\n" for line in lines)
    return MENOS_TEXT[:start] + block + MENOS_TEXT[end:]


def test_menos_with_a_random_block_table(folder: Path) -> None:
    path = folder / "menos-block.yaml"

    @given(st.lists(st.one_of(dsl_text, st.sampled_from(["JOKER -> 25", "_ -> face", "A -> 15", ""])),
                    min_size=1, max_size=6))
    @FILES
    def prop(lines: list[str]) -> None:
        document = menos_with_table(lines)
        path.write_text(document, encoding="utf-8")
        compile_only_loba_errors(path, document)

    prop()


def test_a_dsl_error_in_a_block_table_points_into_the_block(folder: Path) -> None:
    """A sanity check of the located property above on one known mistake (rules.md §1's table
    with its catch-all misspelt): the error is on that very line of the file."""
    path = folder / "menos-typo.yaml"
    document = menos_with_table(["JOKER -> 25", "A -> 15", "J Q K -> 10", "_ -> facee"])
    path.write_text(document, encoding="utf-8")
    with pytest.raises(LobaError) as info:
        load_file(path, cached=False)
    line = document.split("\n").index("    _ -> facee") + 1
    err = each_error(info.value)[0]
    assert err.location is not None
    assert (err.location.line, err.location.column) == (line, len("    _ -> ") + 1)
    assert err.hint is not None and "face" in err.hint
