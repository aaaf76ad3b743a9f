"""``loba CMD`` builds only CMD's parameters (issue 11: start-up), and says what the whole app says."""

from __future__ import annotations

import subprocess
import sys

import pytest

from loba_cli.main import app, app_for


def test_only_the_command_being_run_is_built() -> None:
    lean = app_for(["check", "A♣ 2♣ JOKER"])
    assert [c.callback.__name__ for c in lean.registered_commands if c.callback] == ["check"]
    assert len(app.registered_commands) > 10  # the app itself keeps every command


@pytest.mark.parametrize("argv", [[], ["--help"], ["--version"], ["chek"], ["CHECK"]])
def test_anything_else_gets_the_whole_app(argv: list[str]) -> None:
    assert app_for(argv) is app


@pytest.mark.parametrize("argv", [["check", "A♣ 2♣ JOKER"], ["check", "A♣", "--bogus", "--json"], ["check", "--help"],
                                  ["chek", "x"], ["help", "formats"]])
def test_same_output_as_the_whole_app(argv: list[str]) -> None:
    def run(code: str) -> tuple[int, str, str]:
        p = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=False)
        return p.returncode, p.stdout, p.stderr

    whole = run("import sys; from loba_cli.main import app; sys.argv[0] = 'loba'; app(prog_name='loba')")
    lean = run("import sys; from loba_cli.main import main; sys.argv[0] = 'loba'; main()")
    assert lean == whole
