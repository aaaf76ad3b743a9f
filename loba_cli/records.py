"""``loba replay``'s body, and what the record commands share, without Typer (issue 22: every command starts
fast; ``loba replay`` of a whole round at most 1.5x ``loba check``'s start-up).

The Typer command (:mod:`loba_cli.game_commands`) and the fast path for plain ``loba replay FILE [--json]``
invocations (:mod:`loba_cli.fast`) both run :func:`replay_command`, so the two give the same output.  As
:mod:`loba_cli.common`, nothing here imports Typer, and library modules are imported where they are used.
"""

from __future__ import annotations

from loba_cli.common import dumps, emit, guard, json_mode, stdin_bytes

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["match_lines", "read_record", "replay_command"]


def read_record(file: str) -> Any:
    """The record of FILE, or exit 2 (nothing replayed) when it cannot be read (a regular file of at most
    MAX_BYTES; a FIFO or a device is refused without waiting on it).  The ruleset it names is compiled
    once and kept in the disk cache, as every command's is."""
    from loba_dsl import enable_disk_cache, read_record

    enable_disk_cache()
    return guard(lambda: read_record(stdin_bytes() if file == "-" else file))


def match_lines(result: Any) -> list[str]:
    """The match as ``loba match`` shows it, and the re-entries still to decide."""
    from loba_dsl import match_text

    if result.match is None:
        return []
    lines = match_text(result.match.result).split("\n")
    for o in result.match.offers:
        lines.append(f"{o.player} may re-enter at {o.score} (re-entry {o.reentry} of at most {o.limit}): "
                     f"`loba deal --next FILE --reenter {o.player}` (or --stay-out {o.player})")
    return lines


def replay_command(file: str, as_json: bool = False) -> int:
    """``loba replay FILE``: print the verdict, each round's scores and the match; the exit code (0 valid,
    1 an illegal move; an unreadable record ends the command with 2)."""
    json_mode(as_json)
    from loba_dsl import replay as run
    from loba_dsl import replay_text

    rec = read_record(file)
    result = guard(lambda: run(rec))
    if as_json:
        emit(dumps(result.to_dict()))
    else:
        emit("\n".join([replay_text(result), *match_lines(result)]))
    return 0 if result.valid else 1
