"""The ``loba`` command (loba_cli.main) through Typer's ``CliRunner``: exit codes, stream separation, JSON,
batch mode, languages, the ruleset commands.

Expected values come from issue 2 (§5 ``loba check``, §6 ruleset commands), style.md ("CLI exit codes: 0
ok, 1 a finding, 2 usage or input error. Data to stdout, diagnostics to stderr ... Never a traceback for
any input") and rules.md; the meld verdicts themselves are the acceptance rows (see
test_acceptance_check.py for their seed citations).

This Typer (0.28) has its own ``CliRunner`` without ``mix_stderr``: ``result.stdout`` and
``result.stderr`` are always separate (``result.output`` is both, interleaved).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli_runner import run
from typer.testing import Result

import loba_dsl

PACKAGE_DIR = Path(loba_dsl.__file__).parent

ELEVEN = {
    # Issue 2 §3: "exactly these names" (rules.md §1-§4).
    "menos", "mas", "mas-pagat", "picos", "pierna-de-cuatro", "mas-pierna-de-cuatro", "sin-jokers",
    "bazas", "uruguay", "contrato", "chinchon",
}
SHIPPED = ELEVEN | {"gin"}  # issue 4 §2 adds a `gin` ruleset, written like any other
JSON_KEYS = {"input", "ruleset", "valid", "kind", "cards", "reading", "points", "reasons"}  # issue 2 §5


def assert_finding_or_ok(result: Result, code: int) -> None:
    """Exit ``code`` (0 or 1): the verdict is data on stdout, nothing on stderr."""
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout.strip()
    assert result.stderr == ""


def assert_bad_input(result: Result, *names: str) -> None:
    """Exit 2: a diagnostic on stderr (naming each of ``names``), nothing on stdout (with ``--json``, issue 10:
    only the error as JSON, no verdict)."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stderr.strip()
    assert result.stdout == "" or set(json.loads(result.stdout)) == {"valid", "error", "errors"}
    for name in names:
        assert name in result.stderr, (name, result.stderr)


def json_lines(result: Result) -> list[dict[str, Any]]:
    objects: list[dict[str, Any]] = []
    for line in result.stdout.splitlines():
        obj = json.loads(line)
        assert isinstance(obj, dict)
        objects.append(obj)
    return objects


def one_json(result: Result) -> dict[str, Any]:
    objects = json_lines(result)
    assert len(objects) == 1, result.stdout
    return objects[0]


def cited_line(citation: str) -> str:
    """The text of a ``rulesets/<file>.yaml:<line>`` citation's line."""
    file, line = citation.rsplit(":", 1)
    return (PACKAGE_DIR / file).read_text(encoding="utf-8").splitlines()[int(line) - 1]


# A house ruleset written from scratch (rules.md §6: pagat's Menos plays the ace high or low, and "a house
# that plays this way should be able to write it as a ruleset without code").
HOUSE = """\
# yaml-language-server: $schema=schema.json
name: casa
description: Menos with the ace high or low (never both, no wrap)
extends: menos
melds:
  escalera:
    description: three or more cards of one suit in sequence, ace high or low, at most one Joker
    shape: run 3..13, ace high or low, wilds <= 1
"""

# The same with a schema typo on line 5 ("wildz" is no key of the schema).
HOUSE_TYPO = """\
# yaml-language-server: $schema=schema.json
name: casa-typo
description: Menos with a typo
extends: menos
wildz:
  cards: JOKER
"""


@pytest.fixture
def house(tmp_path: Path) -> Path:
    path = tmp_path / "casa.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    return path


# ------------------------------------------------------------------ check: exit codes and streams


def test_legal_exits_0_with_the_verdict_on_stdout() -> None:
    # Issue 2 row menos A♣ 2♣ JOKER: legal escalera, JOKER -> 3♣.
    result = run("check", "A♣ 2♣ JOKER")
    assert_finding_or_ok(result, 0)
    assert "escalera" in result.stdout
    assert "3♣" in result.stdout


def test_not_legal_exits_1_with_reasons_on_stdout() -> None:
    # Issue 2 row menos 7♠ 7♥ JOKER: not legal (seed 004 line 31: no Joker in a pierna); each reason names
    # its rule and ruleset line.
    result = run("check", "7♠ 7♥ JOKER")
    assert_finding_or_ok(result, 1)
    assert "rulesets/menos.yaml:" in result.stdout


def test_default_ruleset_is_menos() -> None:
    # rules.md §1: menos is the default ruleset; Q-K-A is illegal there (ace low only).
    assert run("check", "Q♣ K♣ A♣").exit_code == 1
    assert run("check", "Q♣ K♣ A♣", "--ruleset", "menos").exit_code == 1


@pytest.mark.parametrize(
    ("args", "named"),
    [
        # Issue 2 §2: a bad token is reported (with a suggestion); rules.md §5 notation.
        pytest.param(("check", "A♣ 2♣ JOKR"), ("JOKR",), id="malformed-card"),
        pytest.param(("check", "A♣ 2♣ 3X"), ("3X",), id="malformed-suit"),
        # rules.md §4 sin-jokers: "JOKER in any input is an error".
        pytest.param(("check", "A♣ 2♣ JOKER", "--ruleset", "sin-jokers"), ("JOKER",), id="sin-jokers-joker"),
        # rules.md §5: two decks hold two 7♠, not three.
        pytest.param(("check", "7♠ 7♠ 7♠"), ("7♠",), id="three-7-spades"),
        # rules.md §4 chinchon: the Spanish deck has no K♣.
        pytest.param(("check", "K♣ Rc Ro", "--ruleset", "chinchon"), ("K♣",), id="chinchon-french-card"),
        pytest.param(("check", "A♣ 2♣ JOKER", "--ruleset", "nonesuch"), ("nonesuch",), id="unknown-ruleset"),
        pytest.param(("check", "A♣ 2♣ JOKER", "--ruleset", "/nonexistent/house.yaml"), ("house.yaml",),
                     id="missing-ruleset-file"),
        pytest.param(("check", "--file", "/nonexistent/melds.txt"), ("melds.txt",), id="missing-batch-file"),
    ],
)
def test_bad_input_exits_2_with_a_diagnostic_on_stderr(args: tuple[str, ...], named: tuple[str, ...]) -> None:
    assert_bad_input(run(*args), *named)


def test_bad_input_json_still_exits_2_and_prints_no_verdict() -> None:
    assert_bad_input(run("check", "A♣ 2♣ JOKER", "--ruleset", "sin-jokers", "--json"), "JOKER")


def test_broken_yaml_ruleset_file_exits_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: broken\ndescription: [unclosed\nextends: menos\n", encoding="utf-8")
    assert_bad_input(run("check", "A♣ 2♣ JOKER", "--ruleset", str(broken)), "broken.yaml")


def test_ruleset_file_that_does_not_parse_as_a_mapping_exits_2(tmp_path: Path) -> None:
    odd = tmp_path / "list.yaml"
    odd.write_text("- menos\n- mas\n", encoding="utf-8")
    assert_bad_input(run("check", "A♣ 2♣ JOKER", "--ruleset", str(odd)), "list.yaml")


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("check",), id="no-cards"),
        pytest.param(("check", "A♣ 2♣ JOKER", "--bogus"), id="unknown-option"),
        pytest.param(("check", "A♣ 2♣ JOKER", "--ruleset"), id="option-without-value"),
        pytest.param(("check", "A♣ 2♣ JOKER", "--file", "x.txt"), id="cards-and-file"),
        pytest.param(("frobnicate",), id="unknown-command"),
        pytest.param(("show",), id="show-without-name"),
        pytest.param(("validate",), id="validate-without-file"),
    ],
)
def test_usage_errors_exit_2_on_stderr(args: tuple[str, ...]) -> None:
    # style.md: exit 2 for usage errors; diagnostics to stderr.
    result = run(*args)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.strip()
    assert result.stdout == ""


# ------------------------------------------------------------------ check --json


def test_json_has_the_issue_keys_reading_in_meld_order_and_null_points_under_menos() -> None:
    # Issue 2 §5 JSON keys; rules.md §1: Menos melds have no points; JOKER stands for 3♣ (ace low only).
    result = run("check", "A♣ 2♣ JOKER", "--json")
    assert result.exit_code == 0
    obj = one_json(result)
    assert obj.keys() >= JSON_KEYS
    assert obj["input"] == "A♣ 2♣ JOKER"
    assert obj["ruleset"] == "menos"
    assert obj["valid"] is True
    assert obj["kind"] == "escalera"
    assert obj["cards"] == ["A♣", "2♣", "JOKER"]
    assert obj["reading"] == ["A♣", "2♣", "3♣"]
    assert obj["points"] is None
    assert obj["reasons"] == []


def test_json_reading_is_in_meld_order_not_input_order() -> None:
    # Seed 004 line 31: the Joker fills the gap 5♣ of 4♣ _ 6♣, whatever order the cards were typed in.
    obj = one_json(run("check", "6♣ JOKER 4♣", "--json"))
    assert obj["reading"] == ["4♣", "5♣", "6♣"]
    assert obj["cards"] == ["6♣", "JOKER", "4♣"]


def test_json_points_under_mas() -> None:
    # rules.md §2: A 15 + 2 + Joker 25 = 42.
    obj = one_json(run("check", "A♣ 2♣ JOKER", "--ruleset", "mas", "--json"))
    assert obj["points"] == 42
    assert obj["ruleset"] == "mas"


def test_json_not_legal_lists_reasons_as_strings() -> None:
    result = run("check", "7♠ 7♥ JOKER", "--json")
    assert result.exit_code == 1
    assert result.stderr == ""
    obj = one_json(result)
    assert obj.keys() >= JSON_KEYS
    assert obj["valid"] is False
    assert obj["kind"] is None
    assert obj["reasons"]
    assert all(isinstance(r, str) and re.search(r"rulesets/[\w.-]+\.yaml:\d+", r) for r in obj["reasons"])


# ------------------------------------------------------------------ batch


BATCH_OK = "A♣ 2♣ JOKER\n7♠ 7♥ 7♦\n"  # both legal under menos (seed 004 lines 13, 30)
BATCH_FINDING = "A♣ 2♣ JOKER\n7♠ 7♥ JOKER\n4♣ 5♣ 6♣\n"  # the second is not legal (seed 004 line 31)
BATCH_BAD = "7♠ 7♥ JOKER\nA♣ 2♣ JOKR\nA♣ 2♣ JOKER\n"  # the second is a malformed card


@pytest.mark.parametrize(
    ("text", "code", "valid"),
    [
        pytest.param(BATCH_OK, 0, [True, True], id="all-legal"),
        pytest.param(BATCH_FINDING, 1, [True, False, True], id="one-not-legal"),
        pytest.param(BATCH_BAD, 2, [False, None, True], id="one-bad-line"),
    ],
)
@pytest.mark.parametrize("source", ["file", "stdin-dash", "stdin-file-dash"])
def test_batch_one_json_object_per_line_exit_is_the_worst(
    tmp_path: Path, text: str, code: int, valid: list[bool | None], source: str
) -> None:
    if source == "file":
        melds = tmp_path / "melds.txt"
        melds.write_text(text, encoding="utf-8")
        result = run("check", "--file", str(melds), "--json")
    elif source == "stdin-dash":
        result = run("check", "-", "--json", input=text)
    else:
        result = run("check", "--file", "-", "--json", input=text)
    assert result.exit_code == code, (result.stdout, result.stderr)
    objects = json_lines(result)
    assert len(objects) == len(text.splitlines())
    assert [o.get("valid") for o in objects] == valid
    for obj, line in zip(objects, text.splitlines(), strict=True):
        assert obj["input"] == line
        if obj["valid"] is not None:
            assert obj.keys() >= JSON_KEYS
    # A bad line is diagnosed on stderr (and only then is there anything on stderr).
    assert ("JOKR" in result.stderr) == (code == 2)
    assert (result.stderr == "") == (code != 2)


def test_batch_text_mode_exit_code(tmp_path: Path) -> None:
    melds = tmp_path / "melds.txt"
    melds.write_text(BATCH_FINDING, encoding="utf-8")
    result = run("check", "--file", str(melds))
    assert_finding_or_ok(result, 1)


def test_batch_reports_line_numbers_of_bad_lines(tmp_path: Path) -> None:
    # Issue 2 §2: every bad token with line:column.
    melds = tmp_path / "melds.txt"
    melds.write_text(BATCH_BAD, encoding="utf-8")
    result = run("check", "--file", str(melds))
    assert result.exit_code == 2
    assert re.search(r"melds\.txt:2:\d+", result.stderr), result.stderr


def test_batch_uses_the_ruleset(tmp_path: Path) -> None:
    # Seed 003 lines 43 and 45: A-K-Q = 7, A-2-2 = 9 under mas-pagat.
    obj = json_lines(run("check", "-", "--ruleset", "mas-pagat", "--json", input="A♠ K♠ Q♠\nA♠ 2♥ 2♦\n"))
    assert [o["points"] for o in obj] == [7, 9]


# ------------------------------------------------------------------ --lang


def test_lang_de_reads_bube_dame_koenig() -> None:
    # rules.md §5: German B D K = Bube, Dame, König (J Q K); a suited run J-Q-K of spades (seed 004 line 13).
    result = run("check", "B♠ D♠ K♠", "--lang", "de", "--json")
    assert result.exit_code == 0, result.stderr
    obj = one_json(result)
    assert obj["cards"] == ["J♠", "Q♠", "K♠"]
    assert obj["kind"] == "escalera"


def test_without_lang_german_letters_are_an_error() -> None:
    # rules.md §5: "language-specific letters need an explicit language choice, never a guess".
    assert_bad_input(run("check", "B♠ D♠ K♠"), "B♠")


def test_unknown_lang_is_an_error() -> None:
    result = run("check", "A♣ 2♣ JOKER", "--lang", "xx")
    assert result.exit_code == 2
    assert result.stderr.strip()


# ------------------------------------------------------------------ rulesets, show


def test_rulesets_lists_all_shipped_each_with_its_description() -> None:
    result = run("rulesets")
    assert_finding_or_ok(result, 0)
    rows: dict[str, str] = {}
    for line in result.stdout.splitlines():
        name, _, rest = line.partition(" ")
        rows[name] = rest.strip()
    assert set(rows) == SHIPPED
    for name in SHIPPED:
        described = yaml.safe_load((PACKAGE_DIR / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8"))
        assert rows[name], f"{name} has no description"
        assert described["description"] in rows[name]


def test_show_picos_origin_text() -> None:
    # rules.md §4 picos: 2s wild (picos.yaml); everything else is Menos, e.g. elimination at 101 (rules.md §1).
    result = run("show", "picos", "--origin")
    assert_finding_or_ok(result, 0)
    lines = result.stdout.splitlines()
    eliminate = [line for line in lines if line.strip().startswith("eliminate_at:")]
    assert len(eliminate) == 1
    m = re.search(r"eliminate_at: 101\s+# (rulesets/menos\.yaml:\d+)$", eliminate[0])
    assert m is not None, eliminate[0]
    assert "eliminate_at" in cited_line(m[1])
    cards = [line for line in lines if re.search(r"^\s+cards: .*# rulesets/picos\.yaml:\d+$", line)]
    assert len(cards) == 1, "the wild cards must be cited from rulesets/picos.yaml"
    where = cards[0].rsplit("# ", 1)[1]
    assert "cards: JOKER, 2" in cited_line(where)


def test_show_picos_origin_json() -> None:
    obj = one_json(run("show", "picos", "--origin", "--json"))
    origins = obj["origins"]
    assert origins["wilds.cards"].startswith("rulesets/picos.yaml:")
    assert "cards:" in cited_line(origins["wilds.cards"])
    assert origins["match.eliminate_at"].startswith("rulesets/menos.yaml:")
    assert "eliminate_at" in cited_line(origins["match.eliminate_at"])
    assert obj["ruleset"]["match"]["eliminate_at"] == 101  # rules.md §1


def test_show_unknown_ruleset_exits_2() -> None:
    assert_bad_input(run("show", "nonesuch"), "nonesuch")


# ------------------------------------------------------------------ validate and house rulesets


def test_validate_house_file_exits_0(house: Path) -> None:
    result = run("validate", str(house))
    assert_finding_or_ok(result, 0)


def test_validate_schema_typo_exits_1_with_its_line(tmp_path: Path) -> None:
    typo = tmp_path / "typo.yaml"
    typo.write_text(HOUSE_TYPO, encoding="utf-8")
    result = run("validate", str(typo))
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert re.search(r"typo\.yaml:5\b", result.stderr), result.stderr  # 'wildz' is on line 5
    assert "wildz" in result.stderr


def test_validate_missing_file_exits_2(tmp_path: Path) -> None:
    assert_bad_input(run("validate", str(tmp_path / "absent.yaml")), "absent.yaml")


def test_check_with_a_house_ruleset_file(house: Path) -> None:
    # The house plays the ace high or low (rules.md §6): Q-K-A is legal there, illegal under menos (§1).
    result = run("check", "Q♣ K♣ A♣", "--ruleset", str(house), "--json")
    assert result.exit_code == 0, result.stderr
    obj = one_json(result)
    assert obj["kind"] == "escalera"
    assert obj["reading"] == ["Q♣", "K♣", "A♣"]
    # "not both": K-A-2 wraps around the corner, still illegal (seed 003 line 13).
    assert run("check", "K♣ A♣ 2♣", "--ruleset", str(house)).exit_code == 1
    # The pierna is inherited from menos unchanged.
    assert run("check", "7♠ 7♥ 7♦", "--ruleset", str(house)).exit_code == 0


# ------------------------------------------------------------------ no traceback, ever


NASTY = [
    pytest.param("", id="empty"),
    pytest.param("   ", id="spaces"),
    pytest.param(" , - ,, -- ", id="only-separators"),
    pytest.param("7♠ " * 10_000, id="10000-cards"),
    pytest.param(" ".join(["A♣", "2♣", "JOKER", "K♦"] * 2_500), id="10000-mixed-cards"),
    pytest.param("J" * 10_000, id="10000-char-token"),
    pytest.param("A♣\x00 2♣ JOKER", id="nul-in-card"),
    pytest.param("\x00", id="nul"),
    pytest.param("\u200b\ufeff\ufe0f", id="invisible"),
    pytest.param("A♣ 2♣ JOKER\n7♠", id="newline"),
    pytest.param("🃏🃏🃏", id="jokers-without-separators"),
]


@pytest.mark.parametrize("text", NASTY)
def test_nasty_arguments_never_give_a_traceback(text: str) -> None:
    for extra in ((), ("--json",), ("--ruleset", "mas-pagat"), ("--lang", "de")):
        result = run("check", text, *extra)
        assert result.exit_code in (1, 2)  # none of them is a legal meld
        if result.exit_code == 2:
            assert result.stderr.strip()


@pytest.mark.parametrize("text", NASTY)
def test_nasty_stdin_never_gives_a_traceback(text: str) -> None:
    result = run("check", "-", "--json", input=text)
    assert result.exit_code in (0, 1, 2)  # a line of it may be legal (the "newline" case's first line)


def test_nasty_files_never_give_a_traceback(tmp_path: Path) -> None:
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("A\u00e9 2\u00e9\n".encode("latin-1"))  # not UTF-8
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(bytes(range(256)))
    for args in (
        ("check", "--file", str(latin1)),
        ("check", "--file", str(tmp_path)),  # a directory
        ("check", "A♣ 2♣ JOKER", "--ruleset", str(binary)),
        ("check", "A♣ 2♣ JOKER", "--ruleset", str(tmp_path)),
        ("validate", str(binary)),
        ("validate", str(tmp_path)),
        ("show", str(binary)),
    ):
        result = run(*args)
        assert result.exit_code in (1, 2), args
        assert result.stderr.strip(), args


# ------------------------------------------------------------------ the real process


def test_console_script_streams_and_exit_codes() -> None:
    # The installed `loba` script, as a user runs it: real stdout/stderr and exit status.
    loba = Path(sys.executable).with_name("loba")
    ok = subprocess.run([str(loba), "check", "A♣ 2♣ JOKER"], capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and "3♣" in ok.stdout and ok.stderr == ""
    bad = subprocess.run([str(loba), "check", "A♣ 2♣ JOKER", "--ruleset", "sin-jokers"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "JOKER" in bad.stderr and bad.stdout == ""
    assert "Traceback" not in bad.stderr
