"""``run(*args)``: the ``loba`` command through Typer's ``CliRunner``, as every CLI test calls it.

Whatever the arguments, no exception escapes the command, no traceback is printed, and no input makes an
internal error (exit 3): those hold for every call, so every test that runs the CLI checks them.
Not a test module itself: ``from cli_runner import run``.
"""

from __future__ import annotations

from typer.testing import CliRunner, Result

from loba_cli.main import app


def run(*args: str, input: str | bytes | None = None) -> Result:
    """Invoke ``loba ARGS`` (``input``: standard input); the result, once the invariants above hold."""
    result = CliRunner().invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"loba {args!r} raised {result.exception!r}")
    assert "Traceback" not in result.output, result.output
    assert result.exit_code != 3, f"loba {args!r} is an internal error: {result.output}"
    return result
