"""``loba check`` and ``loba replay`` without Typer, for the plain invocations (issues 11 and 22: start-up).

Typer's import (it brings Click) and the building of the command take a large share of a
``loba check`` run.  :func:`parse_check` reads the common forms of the command line itself::

    loba check CARDS... [-r/--ruleset R] [--lang L] [--json] [-f/--file F] [--opening] [--contract N]

(options before, between or after the cards; ``--name=value`` for the long ones; the last of a
repeated option wins, as in Click) and answers None for anything else: ``--help``, an unknown or
misspelt option, a missing or option-like value, ``--``, a short option with its value attached,
a number that is not plain digits, shell completion.  :func:`run` then runs
:func:`loba_cli.common.check_command`, the body the Typer command runs, and ends the way Typer's
``main`` ends a command (an interruption exit 130, end of input "Aborted!" exit 1; a closed pipe or a
full disk is :func:`loba_cli.main.main`'s, for every command alike), so the output, the exit code and
the JSON are those of the Typer path; a None from :func:`run` means "not mine: run the Typer app".
:func:`parse_replay` does the same for ``loba replay FILE [--json]``, whose body is
:func:`loba_cli.records.replay_command`.

>>> parse_check(["check", "A♣", "2♣", "JOKER", "-r", "house.yaml", "--json"])
{'words': ['A♣', '2♣', 'JOKER'], 'ruleset': 'house.yaml', 'as_json': True}
>>> parse_check(["check", "--lang=DE", "-f", "-"])
{'words': [], 'lang': 'de', 'file': '-'}
>>> [parse_check(argv) for argv in (["check", "-h"], ["check", "A♣", "--jsn"], ["arrange", "A♣"])]
[None, None, None]
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["parse_check", "parse_replay", "run"]

_VALUED = {"--ruleset": "ruleset", "-r": "ruleset", "--lang": "lang", "--file": "file", "-f": "file",
           "--contract": "contract"}
_FLAGS = {"--json": "as_json", "--opening": "opening"}


def parse_check(argv: list[str]) -> dict[str, Any] | None:
    """``check_command``'s arguments for a plain ``loba check`` command line, or None (see the module)."""
    if not argv or argv[0] != "check":
        return None
    words: list[str] = []
    params: dict[str, Any] = {"words": words}
    i, n = 1, len(argv)
    while i < n:
        token = argv[i]
        i += 1
        if token == "-" or not token.startswith("-"):
            words.append(token)
            continue
        if token in _FLAGS:
            params[_FLAGS[token]] = True
            continue
        name, eq, value = token.partition("=")
        if name not in _VALUED or (eq and not name.startswith("--")):
            return None
        if not eq:
            if i == n:
                return None
            value = argv[i]
            i += 1
        if not value or (value.startswith("-") and value != "-"):
            return None
        key = _VALUED[name]
        if key == "contract":
            if not (value.isascii() and value.isdigit()):
                return None
            params[key] = int(value)
        elif key == "lang":
            params[key] = value.strip().lower()
        else:
            params[key] = value
    if any(not _utf8(token) for token in argv):
        return None
    return params


def parse_replay(argv: list[str]) -> dict[str, Any] | None:
    """``replay_command``'s arguments for a plain ``loba replay FILE [--json]`` command line, or None.

    >>> [parse_replay(a) for a in (["replay", "r.json"], ["replay", "--json", "-"], ["replay", "a", "b"])]
    [{'file': 'r.json'}, {'file': '-', 'as_json': True}, None]
    """
    if not argv or argv[0] != "replay":
        return None
    params: dict[str, Any] = {}
    for token in argv[1:]:
        if token == "--json":
            params["as_json"] = True
        elif (token == "-" or not token.startswith("-")) and "file" not in params:
            params["file"] = token
        else:  # a second file, --help, an unknown option, "--": Typer's business
            return None
    if "file" not in params or any(not _utf8(token) for token in argv):
        return None
    return params


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeError:  # a byte the file system's encoding could not decode: Click's business
        return False
    return True


def _completing() -> bool:
    """Whether a shell asks for completions (Click's ``_PROG_COMPLETE`` variable, whatever the name)."""
    return any(name.endswith("_COMPLETE") for name in os.environ)


def run(argv: list[str]) -> int | None:
    """Run a plain ``loba check`` (or ``loba replay FILE``) and give its exit code; None when the command line
    is neither."""
    if _completing():
        return None
    checking = parse_check(argv)
    replaying = parse_replay(argv) if checking is None else None
    if checking is None and replaying is None:
        return None
    try:
        if replaying is not None:
            from loba_cli.records import replay_command

            return replay_command(**replaying)
        from loba_cli.common import check_command

        return check_command(**(checking or {}))
    except EOFError:  # as Typer's main: a newline, then "Aborted!"
        _say("\n")
        _say("Aborted!\n")
        return 1
    except KeyboardInterrupt:
        return 130


def _say(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()
