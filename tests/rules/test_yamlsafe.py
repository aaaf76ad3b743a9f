"""Tests for the strict, position-keeping YAML loader (loba_dsl.rules.yamlsafe)."""

from __future__ import annotations

import math
import pathlib

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from loba_dsl.errors import Location, RulesetError
from loba_dsl.rules.yamlsafe import MAX_BYTES, MAX_DEPTH, MAX_NODES, MAX_SCALAR, Document, Path, load, load_file

RULESET = """\
# A house ruleset.
name: menos
players: {min: 2, max: 5}
melds:
  pierna:
    shape: set 3..4, suits distinct
  escalera:
    shape: 'run 3..13'
    aliases: ["escala", 'esc']
    when: |
      card is joker
      and face > 10
deal:
  - cards: 9
  - upcard: yes
"""


def _error(text: str | bytes, source: str = "house.yaml") -> RulesetError:
    with pytest.raises(RulesetError) as info:
        load(text, source)
    return info.value


def _where(loc: Location) -> tuple[int, int, int]:
    return loc.line, loc.column, loc.length


# --- data and positions -----------------------------------------------------------------


def test_data_is_plain_python() -> None:
    doc = load(RULESET, "house.yaml")
    assert doc.data == {
        "name": "menos",
        "players": {"min": 2, "max": 5},
        "melds": {
            "pierna": {"shape": "set 3..4, suits distinct"},
            "escalera": {
                "shape": "run 3..13",
                "aliases": ["escala", "esc"],
                "when": "card is joker\nand face > 10\n",
            },
        },
        "deal": [{"cards": 9}, {"upcard": "yes"}],
    }
    assert doc.source == "house.yaml"
    assert doc.text == RULESET


def test_positions_of_nested_values() -> None:
    doc = load(RULESET, "house.yaml")
    loc = doc.location(("melds", "pierna", "shape"))
    assert (loc.source, *_where(loc)) == ("house.yaml", 6, 12, 24)
    assert loc.text == "    shape: set 3..4, suits distinct"
    assert _where(doc.location(("players", "max"))) == (3, 24, 1)
    assert _where(doc.location(("players",))) == (3, 10, 16)  # the whole one-line flow mapping
    assert _where(doc.location(("melds", "escalera", "aliases", 1))) == (9, 25, 5)  # 'esc' with its quotes
    assert _where(doc.location(("deal", 1, "upcard"))) == (15, 13, 3)
    assert _where(doc.location(("deal", 0))) == (14, 5, 1)  # a block mapping: one caret
    assert doc.location(("melds", "escalera", "when")).line == 10
    assert str(doc.location(("name",))) == "house.yaml:2:7"


def test_key_locations() -> None:
    doc = load(RULESET, "house.yaml")
    assert _where(doc.key_location(("melds", "escalera"))) == (7, 3, 8)
    assert _where(doc.key_location(("players", "min"))) == (3, 11, 3)
    assert _where(doc.key_location(("deal", 1, "upcard"))) == (15, 5, 6)
    # No key for a sequence item or the root: falls back to the value.
    assert doc.key_location(("deal", 1)) == doc.location(("deal", 1))
    assert doc.key_location(()) == doc.location(())


def test_has_and_missing_paths() -> None:
    doc = load(RULESET, "house.yaml")
    assert doc.has(())
    assert doc.has(("melds", "escalera", "aliases", 0))
    assert not doc.has(("melds", "escalera", "aliases", 2))
    assert not doc.has(("nope",))
    # A missing path points at its nearest existing ancestor.
    assert doc.location(("melds", "pierna", "missing")) == doc.location(("melds", "pierna"))
    assert _where(doc.location(("nope", "deeper"))) == (2, 1, 1)  # the root mapping


def test_columns_are_characters_not_bytes() -> None:
    doc = load('nombre: "ñandú"\nmano: [ñ, 🃏, x]\n', "u.yaml")
    assert _where(doc.location(("mano", 2))) == (2, 14, 1)
    assert _where(doc.text_location(("nombre",), 1, 5)) == (1, 14, 1)


def test_crlf_and_bom() -> None:
    doc = load("\ufeffa: 1\r\nb:\r\n  - x\r\n  - |\r\n    l1\r\n    l2 zz\r\n", "crlf.yaml")
    assert doc.data == {"a": 1, "b": ["x", "l1\nl2 zz\n"]}
    assert _where(doc.location(("b", 0))) == (3, 5, 1)
    assert _where(doc.text_location(("b", 1), 2, 4, 2)) == (6, 8, 2)
    assert doc.location(("b", 0)).text == "  - x"
    assert load(b"\xef\xbb\xbfk: v\n", "bom.yaml").data == {"k": "v"}


def test_error_renders_with_caret() -> None:
    err = _error("melds: 1\nb: 2\nmelds: 3\n")
    assert err.render().splitlines() == [
        "house.yaml:3:1: error: duplicate key 'melds' (first defined on line 1)",
        "    3 | melds: 3",
        "      | ^^^^^",
    ]


# --- text_location ----------------------------------------------------------------------

BLOCKS = """\
rule:
  plain: hello world
  single: 'it is here'
  double: "ok then"
  escaped: "tab\\there"
  doubled: 'it''s'
  literal: |
    card is joker
    and face > 10
  strip: |-
    base
      deeper
  keep: |+
    x

    y

  explicit: |2
      two more
     one more
  folded: >
    a b
    c d
  multi: one
    two
after: 1
"""


@pytest.mark.parametrize(
    ("key", "line", "column", "expected"),
    [
        ("plain", 1, 7, (2, 16)),
        ("plain", 1, 1, (2, 10)),
        ("single", 1, 4, (3, 15)),
        ("double", 1, 4, (4, 15)),
        ("literal", 1, 1, (8, 5)),
        ("literal", 2, 5, (9, 9)),  # a DSL error at column 5 of the block's 2nd line
        ("strip", 1, 1, (11, 5)),
        ("strip", 2, 2, (12, 6)),
        ("keep", 3, 1, (16, 5)),
        ("explicit", 1, 1, (19, 5)),  # the value keeps two leading spaces
        ("explicit", 2, 2, (20, 6)),
    ],
)
def test_text_location_exact(key: str, line: int, column: int, expected: tuple[int, int]) -> None:
    doc = load(BLOCKS, "blocks.yaml")
    loc = doc.text_location(("rule", key), line, column, length=2)
    assert (loc.line, loc.column) == expected
    value = doc.data["rule"][key] if isinstance(doc.data, dict) else None
    assert isinstance(value, str)
    row = value.split("\n")[line - 1]
    assert loc.text is not None
    assert loc.text[loc.column - 1 :].startswith(row[column - 1 :])


@pytest.mark.parametrize("key", ["escaped", "doubled", "folded", "multi"])
def test_text_location_falls_back_to_scalar_start(key: str) -> None:
    doc = load(BLOCKS, "blocks.yaml")
    assert doc.text_location(("rule", key), 1, 3) == doc.location(("rule", key))


def test_text_location_out_of_range_falls_back() -> None:
    doc = load(BLOCKS, "blocks.yaml")
    start = doc.location(("rule", "plain"))
    assert doc.text_location(("rule", "plain"), 2, 1) == start
    assert doc.text_location(("rule", "plain"), 1, 99) == start
    assert doc.text_location(("rule", "literal"), 9, 1) == doc.location(("rule", "literal"))
    assert doc.text_location(("rule",), 1, 1) == doc.location(("rule",))


def test_text_location_caps_caret_to_line() -> None:
    doc = load(BLOCKS, "blocks.yaml")
    loc = doc.text_location(("rule", "literal"), 2, 12, length=50)
    assert _where(loc) == (9, 16, 2)


# --- scalars ----------------------------------------------------------------------------


def test_norway_problem_avoided() -> None:
    doc = load("a: yes\nb: no\nc: on\nd: off\ne: y\nf: n\ng: Yes\nh: NO\nno: 1\n", "n.yaml")
    assert doc.data == {"a": "yes", "b": "no", "c": "on", "d": "off", "e": "y", "f": "n", "g": "Yes",
                        "h": "NO", "no": 1}


def test_core_scalars() -> None:
    text = ("t: [true, True, TRUE]\nf: [false, False, FALSE]\nn: [~, null, Null, NULL]\ne:\n"
            "i: [0, -3, +42, 1000]\nx: [1.5, -2., .5, 1.0e+3, .inf, -.Inf]\n"
            "s: [0x1F, 017, 1_000, 1e5, 1:30, 2024-01-01, '1', \"true\", 'null']\n")
    data = load(text, "s.yaml").data
    assert data == {
        "t": [True, True, True],
        "f": [False, False, False],
        "n": [None, None, None, None],
        "e": None,
        "i": [0, -3, 42, 1000],
        "x": [1.5, -2.0, 0.5, 1000.0, math.inf, -math.inf],
        "s": ["0x1F", "017", "1_000", "1e5", "1:30", "2024-01-01", "1", "true", "null"],
    }
    nan = load("v: .nan", "s.yaml").data
    assert isinstance(nan, dict) and math.isnan(nan["v"])
    assert type(load("v: 3", "s.yaml").data) is dict


def test_keys_become_strings() -> None:
    assert load("2: x\ntrue: y\nnull: z\n1.50: w\n'q': v\n", "k.yaml").data == {
        "2": "x", "true": "y", "null": "z", "1.50": "w", "q": "v"}
    assert load('"<<": quoted, so not a merge\n', "k.yaml").data == {"<<": "quoted, so not a merge"}


@pytest.mark.parametrize("text", ["", "\n\n", "# only\n  # comments\n", "---\n", "--- ~\n", "---\n...\n"])
def test_empty_documents_give_none(text: str) -> None:
    doc = load(text, "e.yaml")
    assert doc.data is None
    assert doc.location(()).line in (1, 2)
    assert doc.location(("anything",)) == doc.location(())


def test_top_level_scalar_and_list() -> None:
    assert load("hello\n", "t.yaml").data == "hello"
    assert load("- 1\n- [2, {a: b}]\n", "t.yaml").data == [1, [2, {"a": "b"}]]


# --- rejections -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("a: 1\nb: !!python/object:os.system x\n", (2, 4, 25), "tags are not allowed"),
        ("a: [1, !foo x]\n", (1, 8, 4), "tags are not allowed"),
        ("a: !!str 1\n", (1, 4, 5), "tags are not allowed"),
        ("a: !!map {}\n", (1, 4, 5), "tags are not allowed"),
        ("a: ! x\n", (1, 4, 1), "tags are not allowed"),
        ("x: 1\na: &anchor [1]\n", (2, 4, 7), "anchors are not allowed"),
        ("a: 1\nb: *ref\n", (2, 4, 4), "aliases are not allowed"),
        ("melds: 1\nb: 2\nmelds: 3\n", (3, 1, 5), "duplicate key 'melds' (first defined on line 1)"),
        ("a:\n  x: 1\n  'x': 2\n", (3, 3, 3), "duplicate key 'x' (first defined on line 2)"),
        ("2: a\n'2': b\n", (2, 1, 3), "duplicate key '2' (first defined on line 1)"),
        ("a: 1\n? [a, b]\n: c\n", (2, 3, 1), "key must be a string or number, not a sequence"),
        ("{a: 1, {b: 2}: c}\n", (1, 8, 1), "not a mapping"),
        ("base: {x: 1}\nother:\n  <<: {y: 2}\n", (3, 3, 2), "merge keys"),
        ("a: 1\n---\nb: 2\n", (2, 1, 3), "single YAML document"),
        ("--- a\n--- b\n", (2, 1, 3), "single YAML document"),
        ("a:\n  b: 1\n c: 2\n", (3, 2, 1), "expected <block end>"),
        ("a:\n\tb: 1\n", (2, 1, 1), "found character '\\t' that cannot start any token"),
        ("a: 'abc\nb: 2\n", (3, 1, 1), "unexpected end of stream"),
        ("a: [1, 2\nb: 3\n", (2, 2, 1), "expected ',' or ']'"),
        ("a: b: c\n", (1, 5, 1), "mapping values are not allowed here"),
        ("a: 1\nb: c\x01d\n", (2, 5, 1), "unacceptable character #x0001"),
        ('a: "\\UFFFFFFFF"\n', (1, 7, 1), "cannot be read"),
        ("a: 1\nb: " + "9" * 5000 + "\n", (2, 4, 5000), "5,000 digits"),
    ],
)
def test_rejections_are_located(text: str, where: tuple[int, int, int], words: str) -> None:
    err = _error(text)
    assert isinstance(err, RulesetError)
    assert err.location is not None
    assert words in err.message
    assert _where(err.location) == where
    lines = text.split("\n")
    assert err.location.text == (lines[err.location.line - 1] if err.location.line <= len(lines) else "")


def test_yaml_error_hint_names_context_line() -> None:
    err = _error("a: 1\nb: 'open\n")
    assert err.hint == "while scanning a quoted scalar, which started on line 2"
    assert "spaces" in (_error("a:\n\tb: 1\n").hint or "")


def test_depth_cap() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert load(ok, "d.yaml").data is not None
    err = _error("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert "MAX_DEPTH" in err.message and str(MAX_DEPTH) in err.message
    assert err.location is not None and (err.location.line, err.location.column) == (1, MAX_DEPTH + 1)
    block = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 1)) + "  " * (MAX_DEPTH + 1) + "x\n"
    err = _error(block)
    assert "MAX_DEPTH" in err.message
    assert err.location is not None and err.location.line == MAX_DEPTH + 1


@pytest.mark.parametrize("bomb", ["[" * 100_000, "- " * 100_000 + "x", "{a: " * 60_000, "[\n" * 100_000])
def test_deep_nesting_bomb_is_rejected(bomb: str) -> None:
    err = _error(bomb)  # would be a RecursionError if the recursive composer ran
    assert "MAX_DEPTH" in err.message


def test_billion_laughs_is_rejected() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    err = _error("\n".join(lines) + "\n")
    assert "anchors are not allowed" in err.message
    assert err.location is not None and _where(err.location) == (1, 4, 2)
    # Aliases alone (without the anchor) are refused too.
    assert "aliases" in _error("x: [*a, *a]\n").message


def test_node_cap() -> None:
    assert isinstance(load("[" + "1," * (MAX_NODES - 2) + "1]", "n.yaml").data, list)
    err = _error("[" + "1," * MAX_NODES + "1]")
    assert "MAX_NODES" in err.message
    assert err.location is not None and err.location.column == 2 + 2 * (MAX_NODES - 1)


def test_scalar_cap() -> None:
    assert load("a: " + "x" * MAX_SCALAR, "s.yaml").data == {"a": "x" * MAX_SCALAR}
    err = _error("a: 1\nb: '" + "x" * (MAX_SCALAR + 1) + "'\n")
    assert "MAX_SCALAR" in err.message
    assert err.location is not None and (err.location.line, err.location.column) == (2, 4)
    assert "MAX_SCALAR" in _error("k" * (MAX_SCALAR + 1) + ": v\n").message


def test_size_cap() -> None:
    big = "a: " + "x" * (MAX_BYTES - 3)
    assert "MAX_BYTES" in _error(big + "y").message
    assert "MAX_BYTES" in _error((big + "y").encode()).message
    # The cap is in bytes, not characters.
    assert "MAX_BYTES" in _error("a: " + "ñ" * (MAX_BYTES // 2)).message


def test_invalid_utf8_names_the_byte_offset() -> None:
    err = _error(b"a: 1\nb: ok \xff\n")
    assert "byte offset 11" in err.message
    assert err.location is not None and (err.location.line, err.location.column) == (2, 7)
    err = _error(b"\xef\xbb\xbfa: \xc3(\n")
    assert "byte offset 6" in err.message


# --- load_file --------------------------------------------------------------------------


def test_load_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_bytes(RULESET.encode())
    doc = load_file(path)
    assert doc.source == str(path)
    assert doc.data == load(RULESET, "x").data
    assert load_file(str(path), "rulesets/house.yaml").location(("name",)).source == "rulesets/house.yaml"


def test_load_file_unreadable(tmp_path: pathlib.Path) -> None:
    for path in (tmp_path / "missing.yaml", tmp_path):
        with pytest.raises(RulesetError) as info:
            load_file(path, "rulesets/missing.yaml")
        assert info.value.code == "unreadable"
        assert info.value.location is not None and info.value.location.source == "rulesets/missing.yaml"


def test_load_file_refuses_huge_file_before_reading(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(1024**3)  # sparse: reading it whole would take a GiB
    with pytest.raises(RulesetError) as info:
        load_file(path)
    assert "MAX_BYTES" in info.value.message
    assert info.value.code != "unreadable"


def test_load_file_bad_utf8(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("nombre: ñandú\n".encode("latin-1"))
    with pytest.raises(RulesetError, match="byte offset 8"):
        load_file(path)


# --- properties -------------------------------------------------------------------------

YAMLISH = st.text(alphabet=st.sampled_from(list("[]{}:,-?&*!|>'\"#%@`~ \n\t\r\\abxy01.:<=\x85\u2028\ufeff")))


def _check_document(doc: Document) -> None:
    """Every recorded path yields sane locations."""
    def walk(value: object, path: Path) -> None:
        for loc in (doc.location(path), doc.key_location(path), doc.text_location(path, 1, 1)):
            assert loc.line >= 1 and loc.column >= 1 and loc.length >= 1
        if isinstance(value, dict):
            for key, item in value.items():
                assert isinstance(key, str)
                walk(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))

    walk(doc.data, ())


def _only_ruleset_errors(text: str | bytes) -> None:
    try:
        doc = load(text, "fuzz.yaml")
    except RulesetError as err:
        assert err.location is not None and err.location.line >= 1 and err.location.column >= 1
        err.render()
    else:
        _check_document(doc)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_fuzz_text(text: str) -> None:
    _only_ruleset_errors(text)


@settings(max_examples=300, deadline=None)
@given(YAMLISH)
def test_fuzz_yamlish_text(text: str) -> None:
    _only_ruleset_errors(text)


@settings(max_examples=300, deadline=None)
@given(st.binary())
def test_fuzz_bytes(data: bytes) -> None:
    _only_ruleset_errors(data)


def _json_like(depth: int) -> st.SearchStrategy[object]:
    leaves: st.SearchStrategy[object] = (
        st.none() | st.booleans() | st.integers(min_value=-(2**64), max_value=2**64) | st.text(max_size=12)
        | st.sampled_from(["yes", "no", "on", "off", "y", "n", "~", "null", "1.5", "0x1F", "<<", "1e5", ""])
    )
    if depth == 0:
        return leaves
    inner = _json_like(depth - 1)
    return leaves | st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_json_like(4), st.sampled_from([None, True, False]), st.booleans())
def test_round_trip_of_safe_dump(data: object, flow: bool | None, unicode: bool) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=unicode)
    # PyYAML's emitter writes a raw NEL inside quotes with allow_unicode=True, and YAML folds it
    # into a space, so yaml.safe_load does not round-trip "\x85" either; not our loader's concern.
    assume("\x85" not in text)
    doc = load(text, "dump.yaml")
    assert doc.data == data
    _check_document(doc)
