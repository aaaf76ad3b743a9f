"""``loba check`` without Typer (issue 11: start-up): the fast path says what the Typer app says.

Every invocation below is run twice in this process through :func:`loba_cli.main.main`, once as it
is (the fast path, :mod:`loba_cli.fast`) and once with the fast path switched off (the Typer app),
and the two must give the same stdout, stderr and exit code, byte for byte.  No expected output is
written here: the Typer path is the reference.  A few are also run as real processes, and anything
the fast path does not read exactly (help, a misspelt option, ``--``, completion) goes to Typer.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

import loba_cli.fast as fast
from loba_cli import main as entry
from loba_cli.fast import parse_check

HOUSE = "name: casa\ndescription: menos with the 2s wild\nextends: menos\nwilds:\n  cards: JOKER, 2\n"
MELDS = "# one meld per line\nA♣ 2♣ JOKER\n7♠ 7♥ JOKER\n\n7♠ 7♥ 7X\nK♠ K♥ K♦\n"

# (argv after `loba`, stdin text); HOUSE.yaml and melds.txt are written in the current folder.
CASES: list[tuple[list[str], str]] = [
    (["check", "A♣ 2♣ JOKER"], ""),                        # legal escalera (rules.md §1)
    (["check", "A♣", "2♣", "JOKER"], ""),                  # unquoted cards are one meld
    (["check", "7♠ 7♥ JOKER"], ""),                        # menos: a pierna takes no wild
    (["check", "7♠ 7♥ JOKER", "--json"], ""),
    (["check", "--json", "A♣ 2♣ JOKER"], ""),
    (["check", "A♣ 2♣ 3X"], ""),                           # a bad card: caret error
    (["check", "A♣ 2♣ 3X", "--json"], ""),
    (["check", "A♣ 2♣ JOKER", "-r", "nosuch"], ""),        # unknown ruleset
    (["check", "A♣ 2♣ JOKER", "-r", "nosuch", "--json"], ""),
    (["check", "A♣ 2♣ JOKER", "--ruleset", "mas"], ""),
    (["check", "A♣ 2♣ JOKER", "--ruleset=sin-jokers", "--json"], ""),
    (["check", "7♠ 7♥ 2♦", "-r", "HOUSE.yaml"], ""),      # a house file: the 2s are wild
    (["check", "7♠ 7♥ 2♦", "-r", "HOUSE.yaml", "--json"], ""),
    (["check", "7♠ 7♥ 2♦", "-r", "missing.yaml"], ""),
    (["check", "7♠ 7♥ 2♦", "-r", "-"], HOUSE),             # the ruleset on stdin
    (["check", "-"], MELDS),                               # one meld per line on stdin
    (["check", "-", "--json"], MELDS),
    (["check", "-f", "-"], MELDS),
    (["check", "-f", "melds.txt"], ""),
    (["check", "--file=melds.txt", "--json", "-r", "mas"], ""),
    (["check", "-f", "no-such.txt"], ""),
    (["check", "-f", "no-such.txt", "--json"], ""),
    (["check", "A♣ 2♣", "-f", "melds.txt"], ""),           # cards and a file: an error
    (["check"], ""),                                       # nothing to check
    (["check", "--json"], ""),
    (["check", ""], ""),                                   # no cards given
    (["check", "A♣ 2♣ JOKER | 7♠ 7♥ 7♦"], ""),             # a lay-down without --opening
    (["check", "A♣ 2♣ JOKER | 7♠ 7♥ 7♦", "--json"], ""),
    (["check", "A♥ K♥ Q♥ | 7♠ 7♥ 7♦", "--opening", "-r", "bazas"], ""),   # rules.md: opening minimum
    (["check", "A♥ K♥ Q♥ | 7♠ 7♥ 7♦", "--opening", "-r", "bazas", "--json"], ""),
    (["check", "7♠ 7♥ 7♦ | 9♠ 9♥ 9♦", "--contract", "1", "-r", "contrato"], ""),
    (["check", "7♠ 7♥ 7♦", "--contract=2", "-r", "contrato", "--json"], ""),
    (["check", "--opening", "-f", "melds.txt"], ""),
    (["check", "B♠ D♠ K♠", "--lang", "de"], ""),           # German letters (B, D, K)
    (["check", "B♠ D♠ K♠", "--lang=DE", "--json"], ""),
    (["check", "B♠ D♠ K♠"], ""),                           # ... not read without --lang
    (["check", "A♣ 2♣ JOKER", "-r", "mas", "-r", "menos"], ""),  # the last one wins
    (["check", "A♣ 2♣ JOKER", "--json", "--json"], ""),
]


def _run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, *, use_fast: bool) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with monkeypatch.context() as m:
        m.setattr(sys, "argv", ["loba", *argv])
        m.setattr(sys, "stdout", out)
        m.setattr(sys, "stderr", err)
        m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
        if not use_fast:
            m.setattr(fast, "run", lambda argv: None)
        with pytest.raises(SystemExit) as info:
            entry.main()
    return info.value.code, out.getvalue(), err.getvalue()


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "HOUSE.yaml").write_text(HOUSE, encoding="utf-8")
    (tmp_path / "melds.txt").write_text(MELDS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("argv", "stdin"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_fast_path_says_what_typer_says(argv: list[str], stdin: str, folder: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_check(argv) is not None  # the fast path does take it
    typer_says = _run(argv, stdin, monkeypatch, use_fast=False)
    fast_says = _run(argv, stdin, monkeypatch, use_fast=True)
    assert fast_says == typer_says
    assert typer_says[0] in (0, 1, 2)


def test_the_cases_cover_every_exit_code_and_both_streams(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The comparison above could pass on cases that all say nothing: they do not.
    seen = [_run(argv, stdin, monkeypatch, use_fast=True) for argv, stdin in CASES]
    assert {code for code, _, _ in seen} == {0, 1, 2}
    assert any(out for _, out, _ in seen) and any(err for _, _, err in seen)
    assert any("^" in err for _, _, err in seen)  # a caret under a bad card


@pytest.mark.parametrize("argv", [
    ["check", "-h"], ["check", "--help"], ["check", "A♣", "--jsn"], ["check", "A♣", "--no-json"],
    ["check", "--", "-A♣"], ["check", "A♣", "-r"], ["check", "A♣", "-rmas"], ["check", "A♣", "-r=mas"],
    ["check", "A♣", "--ruleset="], ["check", "A♣", "-r", "--json"], ["check", "A♣", "--contract", "x"],
    ["check", "A♣", "--contract", "-1"], ["check", "A♣", "--json=1"], ["check", "A♣", "-x"],
    ["--version"], ["check-x", "A♣"], ["arrange", "A♣"], [], ["check", "A\udcff"],
])
def test_anything_else_goes_to_typer(argv: list[str]) -> None:
    assert parse_check(argv) is None


@pytest.mark.parametrize("argv", [["check", "-h"], ["check", "A♣ 2♣ JOKER", "--jsn", "--json"]])
def test_what_goes_to_typer_is_still_answered(argv: list[str], folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = _run(argv, "", monkeypatch, use_fast=True)
    assert code in (0, 2) and (out or err)


def test_completion_goes_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_LOBA_COMPLETE", "bash_complete")
    assert fast.run(["check", "A♣ 2♣ JOKER"]) is None


def test_options_are_read_as_click_reads_them() -> None:
    # The last of a repeated option wins; long options take `=value`; --lang is case-insensitive.
    got = parse_check(["check", "A♣", "-r", "mas", "--ruleset=menos", "--lang", " DE ", "2♣", "--contract", "3"])
    assert got == {"words": ["A♣", "2♣"], "ruleset": "menos", "lang": "de", "contract": 3}


PROGRAM = "import sys; from loba_cli.main import main; main()"
TYPER = "import sys, loba_cli.fast as f; f.run = lambda argv: None; from loba_cli.main import main; main()"


@pytest.mark.parametrize(("argv", "stdin"), [
    (["check", "A♣ 2♣ JOKER"], ""), (["check", "A♣ 2♣ 3X", "--json"], ""), (["check", "-"], MELDS),
])
def test_a_real_process_says_the_same(argv: list[str], stdin: str, folder: Path) -> None:
    def run(code: str) -> tuple[int, bytes, bytes]:
        p = subprocess.run([sys.executable, "-c", code, *argv], input=stdin.encode("utf-8"), capture_output=True,
                           check=False)
        return p.returncode, p.stdout, p.stderr

    assert run(PROGRAM) == run(TYPER)


def test_the_fast_path_does_not_import_typer(folder: Path) -> None:
    code = ("import sys\nfrom loba_cli.main import main\ntry:\n    main()\nexcept SystemExit:\n"
            "    pass\nsys.stderr.write(str(sorted(m for m in ('typer', 'click', 'rich') if m in sys.modules)))")
    p = subprocess.run([sys.executable, "-c", code, "check", "A♣ 2♣ JOKER"], capture_output=True, text=True,
                       check=False)
    assert p.stderr == "[]"
    assert p.stdout  # it did check the meld


# ---------------------------------------------------------------- loba replay FILE [--json] (issue 22: start-up)

REPLAY_CASES: list[tuple[list[str], str]] = [
    (["replay", "round.json"], ""),
    (["replay", "round.json", "--json"], ""),
    (["replay", "--json", "round.json"], ""),
    (["replay", "illegal.json"], ""),
    (["replay", "illegal.json", "--json"], ""),
    (["replay", "no-such.json"], ""),
    (["replay", "no-such.json", "--json"], ""),
    (["replay", "-"], "not json"),
]


def _records(folder: Path) -> None:
    """round.json: a Menos deal and the first player's legal moves; illegal.json: the same with a discard of
    a card nobody holds twice over (a third 7♠ of a two-deck pack is never in a hand, rules.md §1)."""
    import json

    import loba_dsl as loba

    table = loba.Table.deal(loba.load("menos"), ["Ana", "Beto", "Carla"], "Carla", seed=7)
    for _ in range(2):
        table.play(next(iter(table.legal())))
    text = loba.dump_record(table.record())
    (folder / "round.json").write_text(text, encoding="utf-8")
    bad = json.loads(text)
    bad["rounds"][0]["moves"].append({"player": table.to_move, "op": "discard", "card": "JOKER"})
    bad["rounds"][0]["moves"].append({"player": table.to_move, "op": "discard", "card": "JOKER"})
    (folder / "illegal.json").write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize(("argv", "stdin"), REPLAY_CASES, ids=[" ".join(a) for a, _ in REPLAY_CASES])
def test_fast_replay_says_what_typer_says(argv: list[str], stdin: str, folder: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    _records(folder)
    assert fast.parse_replay(argv) is not None
    typer_says = _run(argv, stdin, monkeypatch, use_fast=False)
    fast_says = _run(argv, stdin, monkeypatch, use_fast=True)
    assert fast_says == typer_says
    assert typer_says[0] in (0, 1, 2)


def test_the_replay_cases_cover_every_exit_code(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _records(folder)
    seen = {_run(argv, stdin, monkeypatch, use_fast=True)[0] for argv, stdin in REPLAY_CASES}
    assert seen == {0, 1, 2}


@pytest.mark.parametrize("argv", [["replay"], ["replay", "a.json", "b.json"], ["replay", "-h"], ["replay", "--help"],
                                  ["replay", "--", "a.json"], ["replay", "a.json", "--jsn"], ["replay", "-x"],
                                  ["replays", "a.json"], ["replay", "a\udcff.json"]])
def test_any_other_replay_goes_to_typer(argv: list[str]) -> None:
    assert fast.parse_replay(argv) is None
