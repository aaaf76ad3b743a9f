"""Replaying a record move by move: valid, or the first illegal move or deal (``loba replay``).

The result is the JSON contract of ``loba replay``::

    {"valid", "error", "rounds": [{"went_out", "stock_out", "scores": {player: points}}], "totals",
     "in_progress", "match": {"standings", "over", "winner", "how", "offers"}, "unchecked": [...]}

``error`` is ``None`` or ``{"round", "ply", "player", "rule", "message"}``: ``round`` and ``ply``
count from 1 (``ply`` indexes that round's ``moves``; ``0`` is the deal itself, one past the last move
what follows the round: shown hands, re-entry decisions).  ``totals`` adds the rounds' scores up;
``match`` is what the match rules make of them (eliminations, re-entries, the winner).  A round of an
older record that deals an eliminated player in, without a decision, is that player's re-entry (where
the rules allow one); ``unchecked`` lists what a hand-dealt record did not let the referee check.
"""

from __future__ import annotations

from loba_dsl.errors import LobaError, said
from loba_dsl.game.moves import RecordError
from loba_dsl.game.outcome import RoundResult
from loba_dsl.game.record import GameRecord
from loba_dsl.game.referee import IllegalMove, Reason, where
from loba_dsl.game.standings import Standings
from loba_dsl.game.table import DealRejected, Table
from loba_dsl.rules.model import Ruleset

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    import random
    from dataclasses import dataclass, field
    from typing import Any
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)


@dataclass
class Replay:
    """What replaying a record found: valid or the first error, each round's result, the totals."""

    valid: bool
    error: dict[str, Any] | None
    rounds: list[RoundResult]
    totals: dict[str, int]
    table: Table | None = None
    exception: LobaError | None = field(default=None, repr=False)
    open_round: bool = False
    """Whether the last round has not ended (a game in progress)."""
    match: Standings | None = None
    """The match after the rounds scored (``None`` before any)."""
    unchecked: list[str] = field(default_factory=list)
    """What a hand-dealt record did not let the referee check, in words."""
    unscored: str | None = None
    """Why the last round, which has ended, has no scores (a hand-dealt round's unknown hands)."""

    def to_dict(self) -> dict[str, Any]:
        rounds = [r.to_dict() for r in self.rounds]
        out: dict[str, Any] = {"valid": self.valid, "error": self.error, "rounds": rounds, "totals": self.totals,
               "in_progress": self.open_round, "match": self.match.to_dict() if self.match is not None else None,
               "unchecked": self.unchecked}
        if self.unscored is not None:
            out["unscored"] = self.unscored
        return out


def _error(rnd: int, ply: int, player: str | None, r: Reason) -> dict[str, Any]:
    return {"round": rnd, "ply": ply, "player": player, "rule": r.rule, "message": r.text()}


def _match_reason(rs: Ruleset, key: str, message: str) -> Reason:
    return Reason(f"match.{key}", message, rs.where("match", key))


def replay(rec: GameRecord, *, rng: random.Random | None = None) -> Replay:
    """Apply every deal, move and decision of ``rec`` in order; stop at the first illegal one.

    ``rng``: the random generator the replayed table then deals and reshuffles with.
    """
    rs = rec.ruleset
    table: Table | None = None
    results: list[RoundResult] = []

    def done(error: dict[str, Any] | None, exc: LobaError | None = None) -> Replay:
        totals = dict.fromkeys(rec.players, 0)
        for res in results:
            for name, pts in res.scores.items():
                totals[name] += pts
        open_round = table is not None and table.state.phase.value != "over"
        match = table.standings() if table is not None and table.results else None
        unscored = table._unscored() if table is not None and not open_round and table.outcome() is None else None
        return Replay(error is None, error, list(results), totals, table, exc, open_round, match,
                      table.unchecked() if table is not None else [], unscored)

    for number, rnd in enumerate(rec.rounds, 1):
        playing = rnd.players or rec.players
        try:
            if table is None:
                if rnd.players is not None and rnd.players != rec.players:
                    r = _match_reason(rs, "end", said("the first round is played by every player of the record"))
                    return done(_error(1, 0, None, r))
                table = Table.from_deal(rs, rec.players, rec.dealer, rnd.hands, rnd.upcard, rnd.stock,
                                        ruleset_ref=rec.ruleset_ref, target=rec.target, rng=rng)
            else:
                problem = _before_round(table, number, playing)
                if problem is not None:
                    return done(_error(number, 0, None, problem))
                expected = rec.players[table.next_dealer()]
                if rnd.dealer is not None and rnd.dealer != expected:
                    r = Reason("deal.next_dealer", said("round {number} must be dealt by {expected}, not {dealer} "
                                                        "(deal.next_dealer: {rule})", number=number,
                                                        expected=expected, dealer=rnd.dealer,
                                                        rule=rs.deal.next_dealer), where(rs, "deal.next_dealer"))
                    return done(_error(number, 0, None, r))
                table.next_round(rnd.hands, rnd.upcard, rnd.stock)
        except DealRejected as e:
            return done(_error(number, 0, None, e.reasons[0]), e)
        if number == 1 and rnd.dealer is not None and rnd.dealer != rec.dealer:
            r = Reason("deal.next_dealer", said("round 1 is dealt by the record's dealer {expected}, not {dealer}",
                                                expected=rec.dealer, dealer=rnd.dealer), where(rs, "deal.next_dealer"))
            return done(_error(1, 0, None, r))
        for ply, move in enumerate(rnd.moves, 1):
            try:
                table.play(move)
            except IllegalMove as e:
                return done(_error(number, ply, move.player, e.reasons[0]), e)
        after = len(rnd.moves) + 1
        for player, cards in rnd.shown.items():
            try:
                table.show(player, cards)
            except IllegalMove as e:
                return done(_error(number, after, player, e.reasons[0]), e)
            except LobaError as e:
                return done(_error(number, after, player, Reason("cards.shown", e.message, rs.source)), e)
        for player, accepted in rnd.reentries:
            try:
                table.reenter(player, accepted)
            except LobaError as e:
                return done(_error(number, after, player, _match_reason(rs, "reentry", e.message)), e)
        out = table.outcome()
        if out is not None:
            results.append(out)
    return done(None)


def _before_round(table: Table, number: int, playing: tuple[str, ...]) -> Reason | None:
    """Why round ``number`` cannot be dealt to ``playing`` now, or ``None`` (pending re-entries decided
    by who is dealt in)."""
    rs = table.rs
    if table.state.phase.value != "over":
        return Reason("turn.order", said("round {last} has not ended, but round {number} follows", last=number - 1,
                                         number=number), where(rs, "turn.order"))
    if table.outcome() is None:
        return Reason("cards.shown", said("round {last} has ended, but its scores cannot be counted: {why}",
                                          last=number - 1, why=table._unscored()), rs.source)
    for offer in table.reentry_offers():  # an older record: a player dealt in has re-entered
        table.reenter(offer.player, offer.player in playing)
    m = table.standings()
    if m.over:
        return _match_reason(rs, "end", said("the match is over ({how}), but round {number} follows", how=m.how,
                                             number=number))
    expected = m.playing
    if tuple(playing) != expected:
        dealt_out = [p for p in playing if p not in expected]
        if dealt_out:
            p = dealt_out[0]
            seat = next(s for s in m.players if s.name == p)
            if seat.reentries == 1:
                used = said("{count} re-entry used", count=seat.reentries)
            else:
                used = said("{count} re-entries used", count=seat.reentries)
            return _match_reason(rs, "eliminate_at", said(
                "round {number} deals {player}, who is out of the match (eliminated in round {round} at {total}, "
                "{used})", number=number, player=p, round=seat.eliminated_in, total=seat.total, used=used))
        left = [p for p in expected if p not in playing]
        return _match_reason(rs, "end", said("round {number} leaves out {players}, still in the match",
                                             number=number, players=", ".join(left)))
    return None


def replay_text(result: Replay) -> str:
    """``loba replay`` without ``--json``: the verdict, each round's scores, the totals, what went unchecked."""
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
    if result.unscored:
        lines.append(f"round {len(result.rounds) + 1} has ended, but its scores cannot be counted: {result.unscored}")
    for line in result.unchecked:
        lines.append(f"not checked: {line}")
    return "\n".join(lines)


def from_record(rec: GameRecord, *, rng: random.Random | None = None) -> Table:
    """A table that has played the whole record (raises at the first illegal move or deal)."""
    result = replay(rec, rng=rng)
    if result.error is not None:
        raise result.exception or RecordError(str(result.error))
    assert result.table is not None
    return result.table
