"""``loba replay``, ``loba deal`` and ``loba moves``: the referee on the command line (thin layer).

Registered on :data:`loba_cli.app.app`; :mod:`loba_cli.main` gathers it with the other command modules.
"""

from __future__ import annotations

import sys
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
from loba_cli.records import match_lines as _match_lines
from loba_cli.records import read_record as _read_record
from loba_cli.records import replay_command
from loba_dsl import DEFAULT_RULESET

FileArg = Annotated[str, typer.Argument(help="A loba-record/1 JSON file ('-': stdin).")]
MoveLangOpt = Annotated[str, typer.Option("--lang", help="The words of the moves: en (Ana draws stock) or es "
                                                         "(Ana roba del mazo).")]


@app.command()
def replay(file: FileArg, as_json: JsonOpt = False) -> None:
    """Validate a game record move by move: exit 0 valid, 1 an illegal move, 2 an unreadable record.

    Prints each round's scores and the match (eliminations, re-entries, the winner), and for a hand-dealt
    record what could not be checked.
    """
    raise typer.Exit(replay_command(file, as_json))


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
    reenter: Annotated[list[str] | None, typer.Option("--reenter", metavar="NAME", help="With --next: NAME, "
                                                      "eliminated in the last round, re-enters (match.reentry).")]
    = None,
    stay_out: Annotated[list[str] | None, typer.Option("--stay-out", metavar="NAME", help="With --next: NAME, "
                                                       "eliminated in the last round, does not re-enter.")] = None,
) -> None:
    """Print a fresh loba-record/1 record: the deal from SEED and no moves yet.

    With --next, the next round of a record, dealt to the players still in the match: an eliminated player
    offered a re-entry must be decided first (--reenter NAME or --stay-out NAME), and no round follows the
    end of the match.
    """
    from loba_dsl import Table
    from loba_dsl import dump_record as dumps

    if after is not None:
        raise typer.Exit(_deal_next(after, seed, reenter or [], stay_out or []))
    if reenter or stay_out:
        _fail("error: --reenter and --stay-out decide re-entries for --next FILE")
    names = [p.strip() for p in (players or "").split(",") if p.strip()]
    if not names:
        _fail('error: --players needs names, e.g. --players "Ana,Beto,Carla"')
    rs = _guard(lambda: _load(ruleset))
    who = dealer if dealer is not None else names[-1]
    table = _guard(lambda: Table.deal(rs, names, who, seed))
    if ruleset.endswith((".yaml", ".yml")):
        table.ruleset_ref = Path(ruleset).name
    _emit(dumps(table.record()))


def _deal_next(file: str, seed: int, reenter: list[str], stay_out: list[str]) -> int:
    from loba_dsl import dump_record as dumps
    from loba_dsl import replay as run
    from loba_dsl import replay_text

    rec = _read_record(file)
    result = _guard(lambda: run(rec))
    if not result.valid or result.table is None:
        _fail(replay_text(result), 1)
    table = result.table
    if table.state.phase.value != "over":
        _fail(f"error: round {table.round_number} of {file} has not ended: nothing to deal yet")
    for name, accept in [(n, True) for n in reenter] + [(n, False) for n in stay_out]:
        def decide(name: str = name, accept: bool = accept) -> object:
            return table.reenter(name, accept)

        _guard(decide)
    before = set(table.players)
    _guard(lambda: table.deal_next(seed))
    out = [p for p in table.players if p not in table.rounds[-1].players and p in before]
    if out:
        sys.stderr.write(f"note: {', '.join(out)} {'is' if len(out) == 1 else 'are'} out of the match: round "
                         f"{table.round_number} is dealt to {', '.join(table.rounds[-1].players)}\n")
    _emit(dumps(table.record()))
    return 0


def _table_lines(table: Any, lang: str) -> list[str]:
    """The mover's hand, the pile's top, the stock, and the melds on the table (wilds with what they stand for)."""
    rs = table.rs
    names = rs.deck.names
    s = table.state
    mover = s.to_move
    view = table.view(mover)
    hand = " ".join("??" if c < 0 else names[c] for c in sorted(view.hand))
    words = {"en": ("hand", "pile", "top", "stock", "table", "nothing yet", "card(s)"),
             "es": ("mano", "descarte", "arriba", "mazo", "mesa", "nada todavía", "carta(s)")}[lang]
    top = f"{names[view.pile[0]]} ({words[2]}, {len(view.pile)} {words[6]})" if view.pile else "—"
    lines = [f"{words[0]}: {hand or '—'}", f"{words[1]}: {top}; {words[3]}: {view.stock_size} {words[6]}",
             f"{words[4]}:" + ("" if view.melds else f" {words[5]}")]
    for m in view.melds:
        cards = " ".join(f"{names[c]}({names[st]})" if w else names[c]
                         for c, st, w in zip(m.cards, m.stands, m.wild, strict=True))
        lines.append(f"  {m.number}  {m.owner}: {cards}  [{m.kind}]")
    return lines


@app.command()
def moves(file: FileArg, as_json: JsonOpt = False,
          limit: Annotated[int, typer.Option("--limit", help="List at most this many moves.")] = 500,
          lang: MoveLangOpt = "en") -> None:
    """List the legal moves at the end of a record: what may the player to move do now?

    Numbered, in the move notation (`Beto melds 7♠ 7♥ 7♦`), after the mover's hand, the discard pile's top
    card and the melds on the table.
    """
    _json_mode(as_json)
    from loba_dsl import format_move, replay_text
    from loba_dsl import replay as run

    if lang not in ("en", "es"):
        _fail(f"error: --lang is en or es for the moves, not '{lang}'")
    if limit < 0:
        _fail("error: --limit must be 0 or more")
    rec = _read_record(file)
    result = _guard(lambda: run(rec))
    if not result.valid or result.table is None:
        _fail(replay_text(result), 1)
    table = result.table
    rs = table.rs
    listed: list[Any] = []
    for m in table.legal():
        if len(listed) >= limit:
            break
        listed.append(m)
    state = table.state
    head: dict[str, Any] = {"round": table.round_number, "ply": table.ply, "player": table.to_move,
                            "phase": table.phase, "moves": [m.to_dict(rs) for m in listed],
                            "notation": [format_move(m, rs, lang) for m in listed]}
    over = state.phase.value == "over"
    if over and result.match is not None:
        head["match"] = result.match.to_dict()
        if not result.match.over and not result.match.offers:
            head["next_dealer"] = table.players[table.next_dealer()]
    if state.phase.value == "draw" and not state.stock and not listed:
        head["note"] = "the stock is empty: the record needs a reshuffle entry before the next stock draw"
    if table.to_move is not None:
        head["view"] = table.view(table.to_move).to_dict()
    if as_json:
        _emit(_dumps(head))
        return
    if table.to_move is None:
        if result.match is not None and result.match.over:
            _emit(f"round {table.round_number} is over, and the match: {', '.join(result.match.winners)} won "
                  f"({result.match.how})")
        elif result.match is not None and result.match.offers:
            _emit(f"round {table.round_number} is over; re-entries to decide first:")
            _emit("\n".join(_match_lines(result)[-len(result.match.offers):]))
        elif "next_dealer" in head:
            _emit(f"round {table.round_number} is over; {head['next_dealer']} deals the next round")
        else:
            _emit(f"round {table.round_number} is over; its scores wait for the hands to be shown: "
                  f"{result.unscored}")
        return
    if lang == "es":
        phase = {"draw": "robar", "play": "jugar"}.get(table.phase, table.phase)
        _emit(f"le toca a {table.to_move} (ronda {table.round_number}, jugada {table.ply}, fase: {phase}): "
              f"{len(listed)} jugada(s) legal(es)")
    else:
        _emit(f"{table.to_move} to move (round {table.round_number}, ply {table.ply}, {table.phase} phase): "
              f"{len(listed)} legal move(s)")
    for line in _table_lines(table, lang):
        _emit(line)
    width = len(str(len(listed)))
    for i, text in enumerate(head["notation"], 1):
        _emit(f"{i:>{width + 2}}  {text}")
    if "note" in head:
        _emit(head["note"])
