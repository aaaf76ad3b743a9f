"""The ``loba-record/1`` record of a table's game: every round's deal and moves, and what followed each."""

from __future__ import annotations

from loba_dsl.game.between_rounds import BetweenRounds
from loba_dsl.game.record import FORMAT
from loba_dsl.game.round_log import names as _names

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Any


def record_dict(table: BetweenRounds) -> dict[str, Any]:
    """The record of everything played at ``table`` so far, with each finished round's result and standings."""
    rs = table.rs
    match = table.standings() if table.results else None
    rounds = []
    for i, log in enumerate(table.rounds):
        out: dict[str, Any] = {"dealer": log.players[log.dealer]}
        if log.players != table.players:
            out["players"] = list(log.players)
        out["deal"] = {"hands": {p: _names(rs, h) for p, h in zip(log.players, log.hands, strict=True)},
                       "upcard": _names(rs, (log.upcard,))[0] if log.upcard is not None else None,
                       "stock": None if log.stock is None else _names(rs, log.stock)}
        out["moves"] = [dict(e) for e in log.move_entries(rs)]
        if log.shown:
            out["shown"] = {p: _names(rs, c) for p, c in log.shown.items()}
        if log.result is not None:
            out["result"] = log.result.to_dict()
        if log.reentries:
            offered = {e["name"]: e["score"] for e in match.result.rounds[i].reentries} if match and \
                i < len(match.result.rounds) else {}
            out["reentries"] = [{"player": p, "accepted": a, **({"score": offered[p]} if a and p in offered else {})}
                                for p, a in log.reentries]
        if match is not None and i < len(match.result.rounds):
            out["standings"] = match.result.rounds[i].standings
        rounds.append(out)
    rec: dict[str, Any] = {"format": FORMAT, "ruleset": table.ruleset_ref, "players": list(table.players),
                           "dealer": table.players[table.players.index(table.rounds[0].players[
                               table.rounds[0].dealer])]}
    if table.target is not None:
        rec["target"] = table.target
    rec["rounds"] = rounds
    if match is not None and match.over:
        rec["winner"] = list(match.winners)
    if table.seed is not None:
        rec["seed"] = table.seed
    return rec
