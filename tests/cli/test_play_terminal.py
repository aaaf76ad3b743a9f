"""``loba play``: a person at a pseudo-terminal plays a round against a bot to its end, then stops.

The session is the real command in a child process on a pty (stdlib ``pty``), answered line by line:
each prompt gets the first listed move (a stock draw, then a put-down or a discard), with bad input
(a number past the list, a line that is no move, a move that is not allowed) answered in words and asked
again.  When the round is over (someone went out: rules.md, a round ends when a player goes out) the
person types ``q``; the record is written whole, and replays as a valid record.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

PROMPT = "your move ("


class Session:
    """``loba ARGS`` on a pty: read until a text shows, write a line."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
        self.proc = subprocess.Popen([sys.executable, "-m", "loba_cli.main", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.out = ""

    def until(self, *texts: str, timeout: float = 120.0) -> str:
        """Read until one of ``texts`` shows after what was read before; the one that showed."""
        end = time.monotonic() + timeout
        start = len(self.out)
        while True:
            for t in texts:
                if t in self.out[start:]:
                    return t
            left = end - time.monotonic()
            assert left > 0, f"waited for {texts!r}; the session said:\n{self.out[-3000:]}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    assert any(t in self.out[start:] for t in texts), f"ended early:\n{self.out[-3000:]}"
                self.out += chunk.decode("utf-8", "replace").replace("\r\n", "\n")

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


@pytest.mark.slow
def test_a_person_plays_a_round_to_its_end_at_a_terminal(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    s = Session("play", "--players", "2", "--bots", "greedy", "--seed", "4", "--record", str(record))
    try:
        assert s.until(PROMPT) == PROMPT
        shown = s.out
        assert "your hand (9):" in shown  # menos deals nine cards (rules.md)
        assert "1. You draws stock" in shown and "scores: You 0, Ana 0" in shown
        s.send("99")
        s.until(PROMPT)
        assert "there is no move 99" in s.out
        s.send("dance a tango")
        s.until(PROMPT)
        assert "that is not a move" in s.out
        s.send("discards K♦")  # a discard before the draw is not allowed (a turn begins with a draw)
        s.until(PROMPT)
        assert "not allowed" in s.out
        moves = 0
        while True:
            s.send("1")
            moves += 1
            got = s.until(PROMPT, "is over:", timeout=180)
            if got != PROMPT:
                break
            assert moves < 400, "the round does not end"
        s.until(PROMPT, "[y/n]", "the match is over")
        assert re.search(r"round 1 is over: You \d+, Ana \d+", s.out)
        s.send("q")
        s.until("the record is in")
        assert s.close() == 0
    finally:
        if s.proc.poll() is None:
            s.proc.kill()
    rec = json.loads(record.read_text(encoding="utf-8"))
    assert rec["players"] == ["You", "Ana"] and rec["rounds"][0]["result"]
    from loba_dsl import load_record, replay

    assert replay(load_record(record.read_text(encoding="utf-8"))).valid


def test_q_stops_and_the_record_is_still_written(tmp_path: Path) -> None:
    from cli_runner import run

    record = tmp_path / "stopped.json"
    r = run("play", "--players", "2", "--seed", "4", "--record", str(record), input="q\n")
    assert r.exit_code == 0, r.output
    assert "stopped" in r.output and "the record is in" in r.output
    rec = json.loads(record.read_text(encoding="utf-8"))
    assert rec["rounds"][0]["moves"] == []  # nobody moved: the person to move first stopped


def test_a_record_that_cannot_be_written_is_exit_2_and_leaves_no_file(tmp_path: Path) -> None:
    from cli_runner import run

    target = tmp_path / "no-such-folder" / "game.json"
    r = run("play", "--players", "2", "--seed", "4", "--record", str(target), input="q\n")
    assert r.exit_code == 2
    assert "cannot write the record" in r.output and not target.parent.exists()


def test_play_refuses_a_table_the_ruleset_does_not_seat() -> None:
    from cli_runner import run

    r = run("play", "--players", "7")  # menos is played by 2 to 5 (rules.md §1)
    assert r.exit_code == 2 and "played by 2 to 5 players" in r.output
