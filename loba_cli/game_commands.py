"""``loba replay``, ``loba deal`` and ``loba moves``: the referee on the command line (thin layer).

Registered on :data:`loba_cli.app.app`; :mod:`loba_cli.main` gathers it with the other command modules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from loba_cli.app import JsonOpt, RulesetOpt, app
from loba_cli.common import dumps as _dumps
from loba_cli.common import emit as _emit
from loba_cli.common import fail as _fail
from loba_cli.common import guard as _guard
from loba_cli.common import json_mode as _json_mode
from loba_cli.common import load_ruleset as _load
from loba_cli.common import read_text
from loba_dsl import DEFAULT_RULESET

FileArg = Annotated[str, typer.Argument(help="A loba-record/1 JSON file ('-': stdin).")]


def _read_record(file: str) -> Any:
    """The record of FILE, or exit 2 (nothing replayed) when it cannot be read."""
    from loba_dsl import load_record

    text, _ = read_text(file)
    base = Path.cwd() if file == "-" else Path(file).parent
    return _guard(lambda: load_record(text, base=base))


@app.command()
def replay(file: FileArg, as_json: JsonOpt = False) -> None:
    """Validate a game record move by move: exit 0 valid, 1 an illegal move, 2 an unreadable record."""
    _json_mode(as_json)
    from loba_dsl import replay as run
    from loba_dsl import replay_text

    rec = _read_record(file)
    result = _guard(lambda: run(rec))
    _emit(_dumps(result.to_dict()) if as_json else replay_text(result))
    raise typer.Exit(0 if result.valid else 1)


@app.command("deal")
def deal_cmd(
    seed: Annotated[int, typer.Option("--seed", help="The shuffle's seed (the same seed deals the same cards).")],
    players: Annotated[str | None, typer.Option("--players", "-p",
                                                help='The players in seating order: "Ana,Beto,Carla".')] = None,
    ruleset: RulesetOpt = DEFAULT_RULESET,
    dealer: Annotated[str | None, typer.Option("--dealer", help="Who deals (default: the last player listed).")]
    = None,
    after: Annotated[str | None, typer.Option("--next", metavar="FILE", help="Deal the next round of this "
                                              "record instead (its last round must be over).")] = None,
) -> None:
    """Print a fresh loba-record/1 record: the deal from SEED and no moves yet."""
    from loba_dsl import Table, dump_record

    if after is not None:
        raise typer.Exit(_deal_next(after, seed))
    names = [p.strip() for p in (players or "").split(",") if p.strip()]
    if not names:
        _fail('error: --players needs names, e.g. --players "Ana,Beto,Carla"')
    rs = _guard(lambda: _load(ruleset))
    who = dealer if dealer is not None else names[-1]
    table = _guard(lambda: Table.deal(rs, names, who, seed))
    if ruleset.endswith((".yaml", ".yml")):
        table.ruleset_ref = Path(ruleset).name
    _emit(dump_record(table.record()))


def _deal_next(file: str, seed: int) -> int:
    from loba_dsl import dump_record, replay_text
    from loba_dsl import replay as run

    rec = _read_record(file)
    result = _guard(lambda: run(rec))
    if not result.valid or result.table is None:
        _fail(replay_text(result), 1)
    table = result.table
    if table.outcome() is None:
        _fail(f"error: round {table.round_number} of {file} has not ended: nothing to deal yet")
    _guard(lambda: table.deal_next(seed))
    _emit(dump_record(table.record()))
    return 0


@app.command()
def moves(file: FileArg, as_json: JsonOpt = False,
          limit: Annotated[int, typer.Option("--limit", help="List at most this many moves.")] = 500) -> None:
    """List the legal moves at the end of a record: what may the player to move do now?"""
    _json_mode(as_json)
    from loba_dsl import replay as run
    from loba_dsl import replay_text

    rec = _read_record(file)
    result = _guard(lambda: run(rec))
    if not result.valid or result.table is None:
        _fail(replay_text(result), 1)
    table = result.table
    rs = table.rs
    listed: list[dict[str, Any]] = []
    for m in table.legal():
        if len(listed) >= limit:
            break
        listed.append(m.to_dict(rs))
    state = table.state
    head: dict[str, Any] = {"round": table.round_number, "ply": table.ply, "player": table.to_move,
                            "phase": table.phase, "moves": listed}
    if table.outcome() is not None:
        head["next_dealer"] = table.players[table.next_dealer()]
    if state.phase.value == "draw" and not state.stock and not listed:
        head["note"] = "the stock is empty: the record needs a reshuffle entry before the next stock draw"
    if as_json:
        _emit(_dumps(head))
        return
    if table.to_move is None:
        _emit(f"round {table.round_number} is over; {head.get('next_dealer')} deals the next round")
        return
    _emit(f"{table.to_move} to move (round {table.round_number}, ply {table.ply}, {table.phase} phase): "
          f"{len(listed)} legal move(s)")
    for entry in listed:
        _emit(_dumps(entry))
