"""What every ``loba`` command shares, and ``loba check``'s body, without Typer (issue 11: start-up).

The Typer app (:mod:`loba_cli.commands`) and the fast path for plain ``loba check`` invocations
(:mod:`loba_cli.fast`) both run :func:`check_command`, so the two give the same output, byte for byte.
An error ends the command with :class:`SystemExit` (what ``typer.Exit`` becomes in the end), so nothing
here needs Typer.  Library modules are imported inside the functions that use them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator

from loba_dsl import DEFAULT_RULESET

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Any, NoReturn, TypeVar

    T = TypeVar("T")

__all__ = ["DEFAULT_RULESET", "batch_file", "check_command", "dumps", "emit", "error_json", "fail", "guard",
           "joined", "json_mode", "lang_code", "load_ruleset", "read_lines", "read_text", "stdin_bytes"]

_OUTPUT = {"json": False}
"""Whether the running command was asked for ``--json``: then every error is also JSON on stdout."""


def json_mode(as_json: bool) -> None:
    """Say whether the running command prints JSON (its errors too)."""
    _OUTPUT["json"] = as_json


def joined(words: list[str] | None) -> str | None:
    """Cards given as several arguments (``loba check A♣ 2♣ 3♣``, unquoted) are one meld or hand."""
    if not words:
        return None
    return " ".join(words)


def lang_code(value: str | None) -> str | None:
    """Language codes are case-insensitive (``--lang DE``)."""
    return value.strip().lower() if value else value


def error_json(error: Any = None, *, message: str | None = None, code: str = "usage") -> dict[str, Any]:
    """The one JSON form of an error: ``{"error": {"code", "message", "hint", "location": {"file", "line",
    "column", "length"} or null}, "errors": [...]}`` (``errors``: every problem, in the same form)."""

    def one(problem: dict[str, Any]) -> dict[str, Any]:
        location = None
        if problem.get("line") is not None or problem.get("file") is not None:
            location = {k: problem.get(k) for k in ("file", "line", "column", "length")}
        return {"code": problem.get("code"), "message": problem.get("message"), "hint": problem.get("hint"),
                "location": location}

    if error is None:
        text = (message or "").strip()
        text = text.removeprefix("error: ")
        first = {"code": code, "message": text, "hint": None, "location": None}
        return {"valid": None, "error": first, "errors": [first]}
    d = error.to_dict()
    problems = d.get("errors") or [d]
    return {"valid": None, "error": one(d), "errors": [one(x) for x in problems]}


def fail(message: str, code: int = 2, *, error: Any = None) -> NoReturn:
    """Say what is wrong (also as JSON on stdout under ``--json``) and end the command with CODE."""
    if _OUTPUT["json"]:
        emit(dumps(error_json(error, message=message, code="input")))
    sys.stderr.write(message.rstrip("\n") + "\n")
    raise SystemExit(code)


def guard(fn: Callable[[], T]) -> T:
    """Run a command body; our errors become a message and exit 2, never a traceback."""
    from loba_dsl import LobaError

    try:
        return fn()
    except LobaError as e:
        fail(e.render(), error=e)
    except (OSError, UnicodeError) as e:
        fail(f"error: {e}")


def emit(line: str) -> None:
    """One line of output on stdout."""
    sys.stdout.write(line + "\n")


def dumps(obj: Any) -> str:
    """JSON as ``loba`` prints it: one line, non-ASCII characters as they are."""
    import json  # here, not at the top: a plain ``loba check`` prints no JSON (issue 22: start-up)

    return json.dumps(obj, ensure_ascii=False)


def load_ruleset(spec: str) -> Any:
    """The one place a name-or-path is read: what a user typed after ``--ruleset`` (or ``show``, ``diff``).

    A shipped name is :func:`load`; an existing file, a ``.yaml``/``.yml`` name or anything with a path
    separator is :func:`load_file`; ``-`` is the text on stdin (:func:`loads`, whose ``extends`` may
    reach shipped rulesets and files of the current folder).  Compiled rulesets are kept in the disk
    cache (the library itself never uses it).
    """
    import loba_dsl as loba

    loba.enable_disk_cache()
    if spec == "-":
        return loba.loads(sys.stdin.buffer.read(), source="<stdin>", resolver=loba.Siblings(os.getcwd()))
    if spec in loba.shipped_names():
        return loba.load(spec)
    if os.sep in spec or "/" in spec or spec.endswith((".yaml", ".yml")) or os.path.exists(spec):
        return loba.load_file(spec)
    return loba.load(spec)  # an unknown name: the error lists the shipped ones


def batch_file(cards: str | None, file: str | None, missing: str) -> str | None:
    """The file to read one input per line from ('-': stdin), or None when CARDS is the input."""
    if file is not None and cards is not None and cards != "-":
        fail("error: give the cards or --file, not both")
    if file is None and cards in (None, "-"):
        if cards is None:
            fail(f"error: {missing}")
        return "-"
    return file


def read_lines(file: str) -> Iterator[str]:
    """The lines of FILE ('-': stdin); an unreadable file ends the command (exit 2), and text that is not
    UTF-8 ends it with the library's one wording (where, which byte, its offset)."""
    from loba_dsl import LobaError, decode_utf8

    source = "<stdin>" if file == "-" else file
    offset = 0

    def lines(raw: Iterator[bytes]) -> Iterator[str]:
        nonlocal offset
        for number, data in enumerate(raw, start=1):
            try:
                yield decode_utf8(data, source, offset=offset, first_line=number)
            except LobaError as e:
                fail(e.render(), error=e)
            offset += len(data)

    if file == "-":
        yield from lines(iter(stdin_bytes().readline, b""))
        return
    from pathlib import Path

    try:
        with Path(file).open("rb") as f:
            yield from lines(iter(f.readline, b""))
    except FileNotFoundError:
        fail(f"error: no such file: {file}")
    except IsADirectoryError:
        fail(f"error: not a file: {file}")
    except OSError as e:
        fail(f"error: cannot read {file}: {e.strerror}")


def stdin_bytes() -> Any:
    """Standard input as bytes (its text wrapper would decode it with the locale's codec, or fail unseen)."""
    return getattr(sys.stdin, "buffer", None) or sys.stdin


def read_text(file: str, what: str = "file") -> tuple[str, str]:
    """The text of FILE ('-': stdin) for every command that reads a whole file: a UTF-8 byte-order mark
    (Notepad writes one) is dropped, and an empty file is an error, not an empty result."""
    from pathlib import Path

    from loba_dsl import decode_utf8

    if file == "-":
        data, source = stdin_bytes().read(), "<stdin>"
    else:
        try:
            data, source = Path(file).read_bytes(), file
        except FileNotFoundError:
            fail(f"error: no such file: {file}")
        except IsADirectoryError:
            fail(f"error: not a file: {file}")
        except OSError as e:
            fail(f"error: cannot read {file}: {e.strerror}")
    text = data if isinstance(data, str) else guard(lambda: decode_utf8(data, source))
    text = text.removeprefix("\ufeff")
    if not text.strip():
        fail(f"error: {source} is empty: give the {what} to read (see `loba help formats`)")
    return text, source



# ---------------------------------------------------------------- check


def check_command(words: list[str] | None, ruleset: str = DEFAULT_RULESET, lang: str | None = None,
                  as_json: bool = False, file: str | None = None, opening: bool = False,
                  contract: int | None = None) -> int:
    """``loba check``: say whether CARDS form one legal meld; the exit code (0 legal, 1 not, 2 bad input)."""
    json_mode(as_json)
    cards = joined(words)
    if cards is not None and "|" in cards and not opening and contract is None:
        fail("error: '|' separates the melds of a lay-down; this checks one meld. To check a lay-down, add "
             "--opening (does it reach the opening minimum?) or --contract N (does it fulfil round N's "
             "contract?); to check each meld, give them one at a time or one per line with --file")
    if opening or contract is not None:
        if cards is None or file is not None:
            fail("error: --opening and --contract take the lay-down as CARDS, melds separated by '|'")
        return _requirement(cards, ruleset, lang, as_json, opening, contract)
    file = batch_file(cards, file, 'give the cards to check (e.g. loba check "A♣ 2♣ JOKER"), or --file')
    rs = guard(lambda: load_ruleset(ruleset))
    if file is not None:
        return _check_batch(file, rs, lang, as_json)
    assert cards is not None
    result = guard(lambda: _check_one(cards, rs, lang))  # no cards at all: the library's "no cards given"
    from loba_dsl import check_text

    emit(dumps(result.to_dict()) if as_json else check_text(result))
    return 0 if result.valid else 1


def _requirement(cards: str, ruleset: str, lang: str | None, as_json: bool, opening: bool,
                 contract: int | None) -> int:
    from loba_dsl import check_contract, check_opening, parse_lay_down, verdict_text

    rs = guard(lambda: load_ruleset(ruleset))

    def body() -> Any:
        melds = parse_lay_down(rs, cards, lang)
        if opening:
            return check_opening(rs, melds)
        assert contract is not None
        return check_contract(rs, contract, melds)

    verdict = guard(body)
    emit(dumps(verdict.to_dict(rs)) if as_json else verdict_text(verdict, rs))
    return 0 if verdict.ok else 1


def _check_one(cards: str, rs: Any, lang: str | None) -> Any:
    from loba_dsl import check as check_meld

    return check_meld(cards, rs, lang=lang, source="<cards>")


def _check_batch(file: str, rs: Any, lang: str | None, as_json: bool) -> int:
    from loba_dsl import LobaError, check_lines, check_text

    source = "<stdin>" if file == "-" else file
    worst = 0
    for item in check_lines(read_lines(file), rs, lang=lang, source=source):
        if isinstance(item, LobaError):
            worst = 2
            sys.stderr.write(item.render() + "\n")
            if as_json:
                loc = item.location
                emit(dumps({"input": loc.text if loc else None, "ruleset": rs.name, **error_json(item),
                            "headline": item.headline()}))
            continue
        assert not isinstance(item, Exception)
        if not item.valid:
            worst = max(worst, 1)
        emit(dumps(item.to_dict()) if as_json else check_text(item))
    return worst
