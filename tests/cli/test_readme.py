"""Every example of the README runs as printed (issue 10: "the README's own example fails as printed").

The README's ``console`` blocks are run in order, in one fresh folder, by a shell whose ``loba`` is this
checkout's command; each ``$`` line's output (stdout and stderr together) must be what the README prints
under it.  A line ``...`` stands for any number of lines.  A command printed with no output must still
succeed (exit 0 or 1, never 2).  A fenced block right after ``<!-- file: NAME -->`` is written to
``NAME`` first (the round and match files the README shows), and a block right after
``<!-- not run: why -->`` is skipped (only a ten-thousand-deal comparison is).  The expected values are
the README's own, which cite the rules (docs/rules.md) for every figure.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)\s*$")
MARK = re.compile(r"^<!-- (file|not run): ?(.*?) ?-->\s*$")


@dataclass(frozen=True)
class Block:
    lang: str
    lines: tuple[str, ...]
    start: int
    """The README line of the block's first line."""
    file: str | None = None
    skipped: bool = False


@dataclass(frozen=True)
class Command:
    text: str
    expected: tuple[str, ...]
    line: int


def blocks(text: str) -> list[Block]:
    out: list[Block] = []
    lines = text.split("\n")
    i = 0
    mark: tuple[str, str] | None = None
    while i < len(lines):
        m = MARK.match(lines[i])
        if m:
            mark = (m.group(1), m.group(2))
            i += 1
            continue
        f = FENCE.match(lines[i])
        if f:
            j = i + 1
            while j < len(lines) and lines[j].rstrip() != "```":
                j += 1
            out.append(Block(f.group(1), tuple(lines[i + 1:j]), i + 2,
                             file=mark[1] if mark and mark[0] == "file" else None,
                             skipped=bool(mark and mark[0] == "not run")))
            mark = None
            i = j + 1
            continue
        if lines[i].strip():
            mark = None
        i += 1
    return out


def commands(block: Block) -> list[Command]:
    out: list[Command] = []
    text: str | None = None
    expected: list[str] = []
    line = 0
    for n, raw in enumerate(block.lines, start=block.start):
        if raw.startswith("$ "):
            if text is not None:
                out.append(Command(text, tuple(expected), line))
            text, expected, line = raw[2:], [], n
        elif text is not None:
            expected.append(raw)
    if text is not None:
        out.append(Command(text, tuple(expected), line))
    return [Command(c.text, _trimmed(c.expected), c.line) for c in out]


def _trimmed(lines: tuple[str, ...]) -> tuple[str, ...]:
    """Without the blank lines that separate one command from the next."""
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """Line by line, ``...`` standing for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and actual[0].rstrip() == expected[0].rstrip() and matches(expected[1:], actual[1:])


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("readme")
    bin_dir = folder / ".bin"
    bin_dir.mkdir()
    loba = bin_dir / "loba"
    loba.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "from loba_cli.main import main; main()" "$@"\n',
                    encoding="utf-8")
    loba.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "LOBA_NO_CACHE": "1",
           "PYTHONPATH": str(ROOT), "COLUMNS": "100", "NO_COLOR": "1"}
    return folder, env


def test_the_readme_has_examples_to_run() -> None:
    """The harness finds the README's examples (a test that found none would pass for nothing)."""
    found = [c for b in blocks(README.read_text(encoding="utf-8")) if b.lang == "console" and not b.skipped
             for c in commands(b)]
    assert len(found) >= 12
    assert any(b.file == "round.txt" for b in blocks(README.read_text(encoding="utf-8")))


def test_every_readme_example_prints_what_the_readme_says(shell: tuple[Path, dict[str, str]]) -> None:
    folder, env = shell
    failures: list[str] = []
    for block in blocks(README.read_text(encoding="utf-8")):
        if block.skipped:
            continue
        if block.file is not None:
            (folder / block.file).write_text("\n".join(block.lines) + "\n", encoding="utf-8")
            continue
        if block.lang != "console":
            continue
        for cmd in commands(block):
            done = subprocess.run(["bash", "-c", cmd.text + " 2>&1"], cwd=folder, env=env, capture_output=True,
                                  text=True, timeout=120)
            actual = done.stdout.rstrip("\n").split("\n") if done.stdout.strip() else []
            if "Traceback" in done.stdout or done.returncode not in (0, 1):
                failures.append(f"README.md:{cmd.line}: `{cmd.text}` exited {done.returncode}:\n{done.stdout}")
            elif cmd.expected and not matches(cmd.expected, actual):
                failures.append(f"README.md:{cmd.line}: `{cmd.text}` printed\n" + "\n".join(actual)
                                + "\n  but the README says\n" + "\n".join(cmd.expected))
    assert not failures, "\n\n".join(failures)


def test_the_matcher_of_elided_lines() -> None:
    assert matches(("a", "...", "d"), ["a", "b", "c", "d"])
    assert matches(("...",), [])
    assert not matches(("a", "...", "d"), ["a", "b", "c"])
    assert not matches(("a",), ["a", "b"])
