"""The ``loba`` command's entry point, :func:`main`.

A plain ``loba check`` runs without Typer (:mod:`loba_cli.fast`); everything else runs the Typer app
of :mod:`loba_cli.commands`, imported only then.  The app and its parts are still reachable here
(``from loba_cli.main import app``), imported on first use.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

    from loba_cli.commands import ARRANGE_SECONDS, JsonOpt, LangOpt, Progress, RulesetOpt, app, error_json

__all__ = ["ARRANGE_SECONDS", "JsonOpt", "LangOpt", "Progress", "RulesetOpt", "app", "error_json", "main"]


def __getattr__(name: str) -> Any:
    """The Typer app's names (``app``, ``Progress``, ...), from :mod:`loba_cli.commands` on first use."""
    if not name.startswith("__"):
        from loba_cli import commands

        if hasattr(commands, name):
            return getattr(commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _app_for(argv: list[str]) -> typer.Typer:
    """The Typer app to run for ARGV (:func:`loba_cli.commands.app_for`)."""
    from loba_cli.commands import app_for

    return app_for(argv)


def main() -> None:
    """Console-script entry point: our errors exit 2 (each command's guard), an interruption 130, and
    anything else is a bug: "internal error, please report" on stderr and exit 3, never a traceback
    (``LOBA_TRACEBACK=1`` prints it)."""
    argv = sys.argv[1:]
    try:
        from loba_cli.fast import run

        code = run(argv)
        if code is not None:
            sys.exit(code)
        _app_for(argv)()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    except SystemExit:
        raise
    except BrokenPipeError:  # the reader went away (``loba ... | head``): nothing more to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(141)
    except Exception as e:  # the one place every other exception ends
        from loba_dsl.errors import LobaError

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


if __name__ == "__main__":  # python -m loba_cli.main
    main()
