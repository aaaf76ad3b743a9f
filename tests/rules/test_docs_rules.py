"""docs/rules.md agrees with the schema and the shipped rulesets (issue 10: the rules reference).

- Every backquoted ruleset key path in docs/rules.md (`turn.stock_exhausted`, `melds.<kind>.shape`)
  exists in the schema; meld kinds and value tables are free keys, matched by the schema's patterns.
- Every `key: value` in a table column headed "setting in `NAME`" is what the shipped ruleset NAME
  resolves to (``load(NAME).document``); in a table with a "ruleset" column and a
  "key: shipped value" column, the row names the ruleset; a column "how a house writes it" is checked
  against the YAML ruleset printed in the same section, which must load.
- Every key a shipped ruleset sets (where it differs from the ruleset it extends, or from menos, whose
  values are the schema's defaults) is documented for that ruleset.
- Every "rules.md §N" citation in the schema and the README names a section of docs/rules.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from loba_dsl.rules.loading import load, load_file

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"
SCHEMA_FILE = ROOT / "loba_dsl" / "rulesets" / "schema.json"
RULESETS = ROOT / "loba_dsl" / "rulesets"
SHIPPED = sorted(p.stem for p in RULESETS.glob("*.yaml"))

SPAN = re.compile(r"`([^`]+)`")
KEY_PATH = re.compile(r"^([a-z_]+(?:\.(?:<[a-z_]+>|[A-Za-z_][A-Za-z0-9_]*))+)(?:: (.+))?$")
FILE_ENDINGS = {"md", "yaml", "yml", "json", "py", "txt", "lark", "toml"}
HEADING = re.compile(r"^## (\d+)\. ", re.MULTILINE)
SETTING_COLUMN = re.compile(r"^setting in `([a-z0-9-]+)`$")
HOUSE_COLUMN = "how a house writes it"
ROW_COLUMN = "key: shipped value"
YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)
CITATION = re.compile(r"rules\.md((?:(?!\w+\.md)[^)\"])*)")
SECTION_REF = re.compile(r"§(\d+)(?:\s*[–-]\s*§?(\d+))?")


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Setting:
    """One documented `key: value`, for the ruleset ``ruleset`` (a shipped name or ``house:NAME``)."""

    ruleset: str
    key: str
    value: str
    line: int


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]
    section: str


def _cells(line: str) -> tuple[str, ...]:
    """A table row's cells; a `|` inside backquotes does not split."""
    cells: list[str] = []
    current: list[str] = []
    quoted = False
    for ch in line.strip().strip("|"):
        if ch == "`":
            quoted = not quoted
        if ch == "|" and not quoted:
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    cells.append("".join(current).strip())
    return tuple(cells)


def _sections(text: str) -> dict[str, str]:
    """Text by ``## `` heading (the heading line included), in order."""
    parts = re.split(r"^(?=## )", text, flags=re.MULTILINE)
    return {part.splitlines()[0]: part for part in parts if part.startswith("## ")}


def _tables(text: str) -> Iterator[Table]:
    lines = text.splitlines()
    section = ""
    i = 0
    while i < len(lines):
        if lines[i].startswith("## "):
            section = lines[i]
        if lines[i].startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            header = _cells(lines[i])
            rows: list[tuple[int, tuple[str, ...]]] = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append((i + 1, _cells(lines[i])))
                i += 1
            yield Table(header, tuple(rows), section)
            continue
        i += 1


def _house_name(section_text: str) -> str:
    blocks = YAML_BLOCK.findall(section_text)
    assert len(blocks) == 1, "a section with a 'how a house writes it' table prints exactly one YAML ruleset"
    name = yaml.safe_load(blocks[0])["name"]
    assert isinstance(name, str)
    return f"house:{name}"


def _pairs(cell: str) -> Iterator[tuple[str, str]]:
    for span in SPAN.findall(cell):
        m = KEY_PATH.match(span)
        if m and m.group(2) is not None:
            yield m.group(1), m.group(2)


def documented_settings(text: str) -> list[Setting]:
    """Every `key: value` written for a ruleset, with the ruleset its table names."""
    sections = _sections(text)
    out: list[Setting] = []
    for table in _tables(text):
        for col, head in enumerate(table.header):
            m = SETTING_COLUMN.match(head)
            fixed: str | None = None
            if m:
                fixed = m.group(1)
            elif head == HOUSE_COLUMN:
                fixed = _house_name(sections[table.section])
            elif head == ROW_COLUMN and "ruleset" in table.header:
                fixed = None
            else:
                continue
            for line, cells in table.rows:
                if fixed is not None:
                    ruleset = fixed
                else:
                    named = SPAN.findall(cells[table.header.index("ruleset")])
                    assert len(named) == 1, f"rules.md:{line}: the ruleset column names one ruleset"
                    ruleset = named[0]
                out.extend(Setting(ruleset, key, value, line) for key, value in _pairs(cells[col]))
    return out


def lookup(document: Mapping[str, Any], key: str) -> Any:
    node: Any = document
    for part in key.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return ABSENT
        node = node[part]
    return node


def matches(text: str, value: Any) -> bool:
    """Whether the documented ``text`` is how this page writes ``value`` (see its "How to read")."""
    if text == "(absent)" or value is ABSENT:
        return text == "(absent)" and value is ABSENT
    if value is None:
        return text == "null"
    if isinstance(value, bool):
        return text == ("true" if value else "false")
    if isinstance(value, int):
        return text == str(value)
    if isinstance(value, str):
        if "\n" in value:
            return text == "; ".join(line.strip() for line in value.splitlines() if line.strip())
        return text == value
    if isinstance(value, list) and value and all(isinstance(v, Mapping) and "key" in v for v in value):
        return text == " ".join(str(v["key"]) for v in value)
    try:
        return bool(json.loads(text) == value)
    except ValueError:
        return False


def mismatches(settings: list[Setting], documents: Mapping[str, Mapping[str, Any]]) -> list[str]:
    out = []
    for s in settings:
        actual = lookup(documents[s.ruleset], s.key)
        if not matches(s.value, actual):
            out.append(f"rules.md:{s.line}: {s.ruleset} {s.key}: doc says {s.value!r}, ruleset has {actual!r}")
    return out


def schema_node(schema: Mapping[str, Any], key: str) -> Mapping[str, Any] | None:
    """The schema of a dotted key path, or None if the schema has no such key."""
    node: Mapping[str, Any] = schema
    for part in key.split("."):
        if "items" in node and "properties" not in node:
            node = node["items"]
        props: Mapping[str, Any] = node.get("properties", {})
        if part in props:
            node = props[part]
            continue
        for pattern, sub in node.get("patternProperties", {}).items():
            if part.startswith("<") or re.match(pattern, part):
                node = sub
                break
        else:
            return None
    return node


def key_paths(text: str) -> Iterator[tuple[int, str]]:
    """Every backquoted span that looks like a ruleset key (not a file name), with its line."""
    for number, line in enumerate(text.splitlines(), 1):
        for span in SPAN.findall(line):
            m = KEY_PATH.match(span)
            if m and m.group(1).rsplit(".", 1)[1] not in FILE_ENDINGS:
                yield number, m.group(1)


def flatten(document: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in document.items():
        if isinstance(v, Mapping) and v:
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def cited_sections(text: str) -> set[int]:
    found: set[int] = set()
    for tail in CITATION.findall(text):
        for m in SECTION_REF.finditer(tail):
            low = int(m.group(1))
            high = int(m.group(2)) if m.group(2) else low
            found.update(range(low, high + 1))
    return found


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, Mapping):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def text() -> str:
    return DOC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def schema() -> Mapping[str, Any]:
    data = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def documents(text: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Mapping[str, Any]]:
    docs: dict[str, Mapping[str, Any]] = {name: load(name).document for name in SHIPPED}
    folder = tmp_path_factory.mktemp("house")
    for block in YAML_BLOCK.findall(text):
        name = yaml.safe_load(block)["name"]
        path = folder / f"{name}.yaml"
        path.write_text(block, encoding="utf-8")
        docs[f"house:{name}"] = load_file(path).document
    return docs


def test_sections_one_to_six_exist_in_order(text: str) -> None:
    # rules.md §1..§6 are cited by the schema and the tests: the numbering is fixed (later sections follow).
    numbers = [int(n) for n in HEADING.findall(text)]
    assert numbers[:6] == [1, 2, 3, 4, 5, 6] and numbers == list(range(1, len(numbers) + 1))


def test_every_key_named_exists_in_the_schema(text: str, schema: Mapping[str, Any]) -> None:
    paths = list(key_paths(text))
    assert len(paths) > 100
    unknown = [f"rules.md:{line}: {key}" for line, key in paths if schema_node(schema, key) is None]
    assert unknown == []


def test_schema_walk_rejects_a_misspelled_key(schema: Mapping[str, Any]) -> None:
    assert schema_node(schema, "turn.stock_exhausted") is not None
    assert schema_node(schema, "melds.grupo.shape") is not None  # a meld kind is a free key
    assert schema_node(schema, "values.<name>") is not None
    assert schema_node(schema, "turn.stock_exhaustd") is None
    assert schema_node(schema, "melds.pierna.shap") is None
    assert schema_node(schema, "mach.target") is None


def test_documented_values_are_the_shipped_values(text: str, documents: dict[str, Mapping[str, Any]]) -> None:
    settings = documented_settings(text)
    assert {s.ruleset for s in settings} == {*SHIPPED, "house:menos-pagat"}
    assert mismatches(settings, documents) == []


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        ("`match.eliminate_at: 101`", "`match.eliminate_at: 102`"),
        ("`turn.stock_exhausted: reshuffle_discards`", "`turn.stock_exhausted: end_round`"),
        ("`values.penalty: JOKER 2 -> 25; A -> 20;", "`values.penalty: JOKER 2 -> 25; A -> 15;"),
        ("`deck.ranks: 1 2 3 4 5 6 7 S C R`", "`deck.ranks: 1 2 3 4 5 6 7 C S R`"),
        ("`values.penalty: (absent)`", "`values.penalty: null`"),
        ('`deck.languages: ["en", "es"]`', '`deck.languages: ["es", "en"]`'),
        ("`turn.lay_off: any_melds`", "`turn.lay_off: own_melds`"),
    ],
)
def test_a_wrong_value_in_the_doc_is_caught(
    text: str, documents: dict[str, Mapping[str, Any]], right: str, wrong: str
) -> None:
    assert right in text
    broken = text.replace(right, wrong, 1)
    assert len(mismatches(documented_settings(broken), documents)) == 1


def test_every_setting_of_a_shipped_ruleset_is_documented(text: str) -> None:
    documented: dict[str, set[str]] = {}
    for s in documented_settings(text):
        documented.setdefault(s.ruleset, set()).add(s.key)
    menos = flatten(load("menos").document)
    missing: list[str] = []
    for name in SHIPPED:
        raw = yaml.safe_load((RULESETS / f"{name}.yaml").read_text(encoding="utf-8"))
        parent = raw.get("extends")
        base = flatten(load(parent).document) if parent else ({} if name == "menos" else menos)
        mine = flatten(load(name).document)
        keys = documented.get(name, set())

        def covered(key: str, keys: set[str] = keys) -> bool:
            return any(key == d or key.startswith(d + ".") or d.startswith(key + ".") for d in keys)

        for key, value in mine.items():
            if key in {"name", "description"} or key.endswith(".description"):
                continue
            if base.get(key, ABSENT) != value and not covered(key):
                missing.append(f"{name}: {key}")
        if parent:
            missing.extend(f"{name}: {key} (removed)" for key in base if key not in mine and not covered(key))
    assert missing == []


def test_every_cited_section_exists(text: str, schema: Mapping[str, Any]) -> None:
    present = {int(n) for n in HEADING.findall(text)}
    from_schema: set[int] = set()
    for s in _strings(schema):
        from_schema |= cited_sections(s)
    assert {1, 2, 3, 4, 5, 6} <= from_schema  # the schema cites all six
    assert from_schema <= present
    readme = cited_sections((ROOT / "README.md").read_text(encoding="utf-8"))
    assert readme <= present


def test_citation_parsing() -> None:
    assert cited_sections("(rules.md §1, §2, §3)") == {1, 2, 3}
    assert cited_sections("(rules.md §1–§4)") == {1, 2, 3, 4}
    assert cited_sections("(rules.md §4, design.md §5)") == {4}
    assert cited_sections("(rules.md §7)") == {7}
