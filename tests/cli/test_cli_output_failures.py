"""When the output cannot be written, the command says so in its own words and exit code, never "internal
error" (exit 3) nor a code that reads as an answer: ``loba check`` exits 1 for "not legal" (README
"Exit codes"), so a reader that went away (``loba check --file - | head -1``) must not look like one.

- the reader went away (a closed pipe): silent, exit 141, as a shell reports a process a closed pipe stopped;
- standard output closed, or a full disk: "cannot write the output", exit 2.

These run the real ``loba`` entry point in a child process: what happens at a closed descriptor is the
interpreter's and the entry point's business, which an in-process runner does not see.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# rules.md §1: three sevens of three suits are a pierna (legal), so every line's answer is exit 0.
LEGAL = "7♠ 7♥ 7♦\n"
MANY = LEGAL * 20_000  # far more than a pipe holds (64 KiB on Linux), so the writer meets the closed end


def loba(*args: str) -> list[str]:
    return [sys.executable, "-c", "from loba_cli.main import main; main()", *args]


def run_closed_pipe(args: list[str], stdin: Path) -> tuple[int, str, str]:
    """Run ``args`` on the file ``stdin``, read the first line of its output, close the pipe, and give
    (exit code, that line, what it said on stderr)."""
    with stdin.open("rb") as given, subprocess.Popen(args, stdin=given, stdout=subprocess.PIPE,
                                                     stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline().decode("utf-8")
        proc.stdout.close()
        err = proc.stderr.read().decode("utf-8")
        return proc.wait(timeout=120), first, err


@pytest.mark.parametrize("args", [["check", "--file", "-"], ["check", "--file", "-", "--json"], ["check", "-f-"]],
                         ids=["fast-path", "fast-path-json", "typer-path"])
def test_a_reader_that_goes_away_is_not_an_illegal_meld(args: list[str], tmp_path: Path) -> None:
    melds = tmp_path / "melds.txt"
    melds.write_text(MANY, encoding="utf-8")
    code, first, err = run_closed_pipe(loba(*args), melds)
    assert first.startswith("7♠ 7♥ 7♦") or first.startswith("{")
    assert code == 141, err
    assert err == ""


def test_closed_standard_output_is_said_in_words() -> None:
    proc = subprocess.run(loba("check", "A♣ 2♣ JOKER"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          check=False, preexec_fn=lambda: os.close(1))
    assert proc.returncode == 2, proc.stderr
    assert "cannot write the output: standard output is closed" in proc.stderr
    assert "internal error" not in proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["check", "A♣ 2♣ JOKER"], ["rulesets"], ["show", "menos"]])
def test_a_full_disk_is_said_in_words(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run(loba(*args), stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert proc.returncode == 2, proc.stderr
    assert "cannot write the output: No space left on device" in proc.stderr
    assert "internal error" not in proc.stderr
