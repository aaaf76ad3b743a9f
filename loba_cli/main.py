"""The ``loba`` command's entry point, :func:`main`, and the place the whole app is gathered.

A plain ``loba check`` runs without Typer (:mod:`loba_cli.fast`); everything else runs the Typer app
of :mod:`loba_cli.app`, with the commands of :mod:`loba_cli.commands`, :mod:`loba_cli.game_commands` and
:mod:`loba_cli.serve_command` registered on it (:func:`whole_app`), imported only then.  The app and its
parts are still reachable here (``from loba_cli.main import app``), imported on first use.

The CLI's modules import one way (tests/project/test_architecture.py holds it): this module -> the
command modules -> :mod:`loba_cli.app` -> :mod:`loba_cli.common` -> the ``loba_dsl`` facade.
"""

from __future__ import annotations

import errno
import os
import sys

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    import typer

    from loba_cli.app import JsonOpt, LangOpt, RulesetOpt
    from loba_cli.commands import ARRANGE_SECONDS, Progress
    from loba_cli.common import error_json

    app: typer.Typer

__all__ = ["ARRANGE_SECONDS", "JsonOpt", "LangOpt", "Progress", "RulesetOpt", "app", "app_for", "error_json",
           "main", "whole_app"]

_PARTS = {"app": "loba_cli.app", "JsonOpt": "loba_cli.app", "LangOpt": "loba_cli.app", "RulesetOpt": "loba_cli.app",
          "ARRANGE_SECONDS": "loba_cli.commands", "Progress": "loba_cli.commands", "error_json": "loba_cli.common"}


def __getattr__(name: str) -> Any:
    """The Typer app (with every command on it) and its parts (``Progress``, ...), on first use."""
    module = _PARTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    whole_app()
    return getattr(importlib.import_module(module), name)


def whole_app() -> typer.Typer:
    """The Typer app with every command registered (each command module registers its own on import)."""
    from loba_cli import commands, game_commands, serve_command, sim_commands  # noqa: F401  (they register on import)
    from loba_cli.app import app

    return app


def app_for(argv: list[str]) -> typer.Typer:
    """The app with only the command being run (``loba arrange ...``): Typer builds every registered
    command's parameters before it parses anything, and most of start-up would go on commands that do not
    run (issue 11).  Anything else (``loba --help``, no command, a misspelt one, shell completion) gets
    the whole app, so help, errors and suggestions are what they always were."""
    import typer

    app = whole_app()
    if not argv or os.environ.get("_LOBA_COMPLETE"):
        return app
    for info in app.registered_commands:
        if argv[0] == (info.name or typer.main.get_command_name(info.callback.__name__ if info.callback else "")):
            import copy

            lean = copy.copy(app)
            lean.registered_commands = [info]
            return lean
    return app


class OutputFailed(Exception):
    """Writing the command's output failed (``error.errno`` EPIPE: its reader went away)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.error = error


class _Output:
    """Standard output, whose write and flush failures are :class:`OutputFailed` rather than ``OSError``:
    Click ends a command that met a closed pipe with exit 1, which is ``loba check``'s "not legal", and a
    full disk would be an internal error; :func:`main` gives each its own ending."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except OSError as e:
            raise OutputFailed(e) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            raise OutputFailed(e) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """Point standard output at the null device, so that nothing more is written (nor fails) at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115  (lives as long as the process)


def main() -> None:
    """Console-script entry point: our errors exit 2 (each command's guard), an interruption 130, and
    anything else is a bug: "internal error, please report" on stderr and exit 3, never a traceback
    (``LOBA_TRACEBACK=1`` prints it).  The output's own failures are neither: a reader that went away
    (``loba ... | head``) ends the command silently with 141 (as a shell reports a process a closed pipe
    stopped), and an output that cannot be written (standard output closed, a full disk) says so and exits 2."""
    argv = sys.argv[1:]
    if sys.stderr is None:  # nowhere to say anything: still end as below, silently
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    if sys.stdout is None:  # started with standard output closed
        _silence_stdout()
        _cannot_write("standard output is closed")
    sys.stdout = _Output(sys.stdout)
    try:
        try:
            from loba_cli.fast import run

            code = run(argv)
            if code is not None:
                sys.exit(code)
            app_for(argv)()
        finally:
            sys.stdout.flush()  # the last of the output is written here, where its failure is still ours
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except SystemExit:
        raise
    except (OutputFailed, BrokenPipeError) as e:
        error = e.error if isinstance(e, OutputFailed) else e
        _silence_stdout()
        if error.errno == errno.EPIPE:  # the reader went away: nothing more to say
            sys.exit(141)
        _cannot_write(error.strerror or str(error))
    except Exception as e:  # the one place every other exception ends
        from loba_dsl import LobaError

        if isinstance(e, LobaError):  # a command without its guard: still our error, exit 2
            sys.stderr.write(e.render().rstrip("\n") + "\n")
            sys.exit(2)
        if os.environ.get("LOBA_TRACEBACK"):
            import traceback

            traceback.print_exc()
        detail = "".join(ch if ch.isprintable() else "?" for ch in str(e))[:200]
        sys.stderr.write(f"loba: internal error, please report it: {type(e).__name__}"
                         + (f": {detail}" if detail else "") + "\n")
        sys.exit(3)


def _cannot_write(why: str) -> NoReturn:
    try:
        sys.stderr.write(f"loba: cannot write the output: {why}\n")
        sys.stderr.flush()
    except OSError:
        pass
    sys.exit(2)


if __name__ == "__main__":  # python -m loba_cli.main
    main()
