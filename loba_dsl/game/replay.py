"""Replaying a record move by move: valid, or the first illegal move (``loba replay``).

The result is the JSON contract of ``loba replay``::

    {"valid", "error", "rounds": [{"went_out", "stock_out", "scores": {player: points}}], "totals"}

``error`` is ``None`` or ``{"round", "ply", "player", "rule", "message"}``: ``round`` and ``ply``
count from 1 (``ply`` indexes that round's ``moves``; ``0`` is the deal itself).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loba_dsl.errors import LobaError
from loba_dsl.game.moves import RecordError
from loba_dsl.game.outcome import RoundResult
from loba_dsl.game.record import GameRecord
from loba_dsl.game.referee import IllegalMove, Reason, where
from loba_dsl.game.table import DealRejected, Table


@dataclass
class Replay:
    valid: bool
    error: dict[str, Any] | None
    rounds: list[RoundResult]
    totals: dict[str, int]
    table: Table | None = None
    exception: LobaError | None = field(default=None, repr=False)
    open_round: bool = False
    """Whether the last round has not ended (a game in progress)."""

    def to_dict(self) -> dict[str, Any]:
        rounds = [r.to_dict() for r in self.rounds]
        return {"valid": self.valid, "error": self.error, "rounds": rounds, "totals": self.totals,
                "in_progress": self.open_round}


def _error(rnd: int, ply: int, player: str | None, r: Reason) -> dict[str, Any]:
    return {"round": rnd, "ply": ply, "player": player, "rule": r.rule, "message": r.text()}


def replay(rec: GameRecord) -> Replay:
    """Apply every move of ``rec`` in order; stop at the first illegal one."""
    rs = rec.ruleset
    table: Table | None = None
    results: list[RoundResult] = []

    def done(error: dict[str, Any] | None, exc: LobaError | None = None) -> Replay:
        totals = dict.fromkeys(rec.players, 0)
        for res in results:
            for name, pts in res.scores.items():
                totals[name] += pts
        open_round = table is not None and table.outcome() is None
        return Replay(error is None, error, list(results), totals, table, exc, open_round)

    for number, rnd in enumerate(rec.rounds, 1):
        try:
            if table is None:
                table = Table.from_deal(rs, rec.players, rec.dealer, rnd.hands, rnd.upcard, rnd.stock,
                                        ruleset_ref=rec.ruleset_ref)
            else:
                if table.outcome() is None:
                    r = Reason("turn.order", f"round {number - 1} has not ended, but round {number} follows",
                               where(rs, "turn.order"))
                    return done(_error(number, 0, None, r))
                expected = rec.players[table.next_dealer()]
                if rnd.dealer is not None and rnd.dealer != expected:
                    r = Reason("deal.next_dealer", f"round {number} must be dealt by {expected}, not {rnd.dealer} "
                               f"(deal.next_dealer: {rs.deal.next_dealer})", where(rs, "deal.next_dealer"))
                    return done(_error(number, 0, None, r))
                table.next_round(rnd.hands, rnd.upcard, rnd.stock)
        except DealRejected as e:
            return done(_error(number, 0, None, e.reasons[0]), e)
        if number == 1 and rnd.dealer is not None and rnd.dealer != rec.dealer:
            r = Reason("deal.next_dealer", f"round 1 is dealt by the record's dealer {rec.dealer}, not {rnd.dealer}",
                       where(rs, "deal.next_dealer"))
            return done(_error(1, 0, None, r))
        for ply, move in enumerate(rnd.moves, 1):
            try:
                table.play(move)
            except IllegalMove as e:
                return done(_error(number, ply, move.player, e.reasons[0]), e)
        out = table.outcome()
        if out is not None:
            results.append(out)
    return done(None)


def replay_text(result: Replay) -> str:
    """``loba replay`` without ``--json``: the verdict, each round's scores, the totals."""
    lines = []
    if result.error is not None:
        e = result.error
        who = f" ({e['player']})" if e["player"] else ""
        lines.append(f"illegal: round {e['round']}, ply {e['ply']}{who}: {e['rule']}: {e['message']}")
    else:
        lines.append("valid" + (" (the last round is still being played)" if result.open_round else ""))
    for i, r in enumerate(result.rounds, 1):
        how = f"{r.went_out} went out" if r.went_out else "nobody went out"
        if r.stock_out:
            how += ", the stock ran out"
        scores = ", ".join(f"{p} {s}" for p, s in r.scores.items())
        lines.append(f"round {i}: {how}; {scores}")
    if result.rounds:
        lines.append("totals: " + ", ".join(f"{p} {s}" for p, s in result.totals.items()))
    return "\n".join(lines)


def from_record(rec: GameRecord) -> Table:
    """A table that has played the whole record (raises at the first illegal move or deal)."""
    result = replay(rec)
    if result.error is not None:
        raise result.exception or RecordError(str(result.error))
    assert result.table is not None
    return result.table
