"""The ``loba`` Typer app itself and the options its commands share, with no command registered here.

The commands register themselves on :data:`app` from their own modules (:mod:`loba_cli.commands`,
:mod:`loba_cli.game_commands`, :mod:`loba_cli.serve_command`), which import this module and nothing of
each other; :mod:`loba_cli.main` gathers them (:func:`loba_cli.main.whole_app`).  So the modules of the
CLI import one way: ``main`` -> the command modules -> ``app`` and ``common`` -> the ``loba_dsl`` facade.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
import typer.core
from typer._click.core import Context
from typer._click.exceptions import ClickException, UsageError  # Typer's own copy of Click

from loba_cli.common import dumps as _dumps
from loba_cli.common import emit as _emit
from loba_cli.common import error_json
from loba_cli.common import json_mode as _json_mode
from loba_cli.common import lang_code as _lang

__all__ = ["JsonOpt", "LangOpt", "RulesetOpt", "app"]


def _help_width() -> int:
    """Help text is wrapped to the terminal (up to 100 columns), however narrow (issue 10)."""
    return max(20, min(shutil.get_terminal_size().columns, 100) - 2)


class _LobaGroup(typer.core.TyperGroup):
    """Click's own usage errors (a bad option, a missing argument) in the one JSON error form when
    ``--json`` is on the command line (issue 10); help wrapped to the terminal's width."""

    def make_context(self, info_name: str | None, args: list[str], parent: Context | None = None,
                     **extra: Any) -> Context:
        extra.setdefault("terminal_width", _help_width())
        return super().make_context(info_name, args, parent, **extra)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode or "--json" not in argv:
            return super().main(argv, prog_name, complete_var, standalone_mode, windows_expand_args, **extra)
        try:
            code = super().main(argv, prog_name, complete_var, False, windows_expand_args, **extra)
        except UsageError as e:
            _emit(_dumps(error_json(message=e.format_message(), code="usage")))
            e.show()
            sys.exit(e.exit_code)
        except ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except typer.Abort:
            sys.stderr.write("Aborted!\n")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_LobaGroup,
    name="loba",
    help="Loba rules as data: check melds, score rounds and matches, arrange hands, compare and validate rulesets.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            shown = version("loba-dsl")
        except PackageNotFoundError:  # pragma: no cover - a source tree without an install
            shown = "unknown"
        sys.stdout.write(f"loba {shown}\n")
        raise typer.Exit(0)


@app.callback()
def _root(
    show_version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Loba rules as data: check melds, score rounds and matches, arrange hands, compare and validate rulesets.

    `loba help formats` shows the round and match file formats with examples.
    """
    _json_mode(False)  # each command turns it on with its own --json


RulesetOpt = Annotated[
    str,
    typer.Option("--ruleset", "-r", help="A shipped ruleset name (see `loba rulesets`) or a .yaml file."),
]
LangOpt = Annotated[
    str | None,
    typer.Option("--lang", callback=_lang,
                 help="Read language-specific rank letters and suit names: de (B D K), nl (B V H), it, "
                      "es (picas corazones diamantes tréboles); any case."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON (one object per line in batch mode).")]
