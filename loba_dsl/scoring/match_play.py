"""Whole matches: standings after every round, elimination, re-entry, the winner.

Every number comes from the ruleset's ``match`` section (``end``,
``eliminate_at``, ``target``, ``reentry``, ``winner_if_all_out``,
``instant_win``) and its ``scoring.better``; no variant is named here.

- ``end: last_standing``: a player whose total reaches ``eliminate_at`` is
  eliminated; right after that round they may re-enter (at most
  ``reentry.max`` times) at the highest total among the players still in;
  the last player standing wins; if everybody left is eliminated in the same
  round, the best total among them wins (ties shared).
- ``end: target``: the match ends after the first round in which a total
  reaches the target; the best total wins (ties shared).
- ``instant_win``: a formula over a player's round (e.g. a seven-card run in
  Chinchón) that ends the match at once in that player's favour.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from loba_dsl.dsl.evaluate import compile_formula
from loba_dsl.errors import InputError, LobaError, raise_all
from loba_dsl.rules.model import Better

if TYPE_CHECKING:
    from loba_dsl.rules.model import Ruleset
    from loba_dsl.scoring.rounds import RoundScore
    from loba_dsl.scoring.score_sheets import MatchSheet, RoundSheet


@dataclass
class Standing:
    name: str
    total: int = 0
    active: bool = True
    reentries: int = 0
    eliminated_in: int | None = None
    out_for_good: bool = False

    def to_dict(self) -> dict[str, Any]:
        status = "in" if self.active else "out for good" if self.out_for_good else "eliminated"
        return {"name": self.name, "total": self.total, "status": status, "reentries": self.reentries}


@dataclass
class RoundResult:
    number: int
    scores: dict[str, int]
    totals: dict[str, int] = field(default_factory=dict)
    eliminated: list[str] = field(default_factory=list)
    out_for_good: list[str] = field(default_factory=list)
    reentries: list[dict[str, Any]] = field(default_factory=list)
    detail: RoundScore | None = None
    standings: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "scores": self.scores,
            "totals": self.totals,
            "eliminated": self.eliminated,
            "out_for_good": self.out_for_good,
            "reentries": self.reentries,
            "standings": self.standings,
        }


@dataclass
class MatchResult:
    ruleset: Ruleset
    target: int | None
    players: list[Standing]
    rounds: list[RoundResult]
    winners: list[str]
    over: bool
    how: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.name,
            "target": self.target,
            "rounds": [r.to_dict() for r in self.rounds],
            "standings": [p.to_dict() for p in self.players],
            "winner": self.winners if self.winners else None,
            "over": self.over,
            "how": self.how,
        }


class _Match:
    def __init__(self, ruleset: Ruleset, sheet: MatchSheet, target: int | None) -> None:
        self.rs = ruleset
        rules = ruleset.match
        self.end = rules.end
        self.eliminate_at = rules.eliminate_at
        self.target = target if target is not None else sheet.target if sheet.target is not None else rules.target
        self.max_reentries = rules.max_reentries
        self.higher = ruleset.scoring.better is Better.HIGHER
        self.sheet = sheet
        self.players: dict[str, Standing] = {}
        for name in sheet.players or []:
            self.players[name] = Standing(name)
        lo, hi = ruleset.players.min, ruleset.players.max
        if sheet.players is not None and not lo <= len(sheet.players) <= hi:
            raise InputError(f"{ruleset.name} is played by {lo} to {hi} players, not {len(sheet.players)}",
                             location=sheet.events[0].where if sheet.events else None)
        self.rounds: list[RoundResult] = []
        self.winners: list[str] = []
        self.over = False
        self.how = "the match is not over"

    def best(self, names: list[str]) -> list[str]:
        totals = [self.players[n].total for n in names]
        top = max(totals) if self.higher else min(totals)
        return [n for n in names if self.players[n].total == top]

    def active(self) -> list[str]:
        return [p.name for p in self.players.values() if p.active]

    def run(self) -> MatchResult:
        from loba_dsl.scoring.score_sheets import Reentry

        for event in self.sheet.events:
            if isinstance(event, Reentry):
                self.reenter(event)
            else:
                self.settle()
                if self.over:
                    raise InputError(f"the match is already over ({self.how}), but another round follows",
                                     location=event.where)
                self.round(event)
        self.settle()
        return MatchResult(self.rs, self.target, list(self.players.values()), self.rounds, self.winners, self.over,
                           self.how)

    def round(self, sheet: RoundSheet) -> None:
        from loba_dsl.scoring.rounds import score_round

        number = sheet.number if sheet.number is not None else len(self.rounds) + 1
        if not self.players:
            for p in sheet.players:
                self.players[p.name] = Standing(p.name)
        errors: list[LobaError] = []
        for p in sheet.players:
            standing = self.players.get(p.name)
            if standing is None:
                errors.append(InputError(f"round {number}: '{p.name}' is not a player of this match",
                                         location=p.where))
            elif not standing.active:
                errors.append(InputError(f"round {number}: {p.name} was eliminated and has not re-entered",
                                         location=p.where))
        missing = [n for n in self.active() if all(p.name != n for p in sheet.players)]
        if missing:
            errors.append(InputError(f"round {number} has no line for {', '.join(missing)}", location=sheet.where))
        raise_all(errors)
        detail = None
        if sheet.points_only:
            scores = {p.name: int(p.points or 0) for p in sheet.players}
        else:
            detail = score_round(sheet, self.rs, players=len(sheet.players), round_number=number)
            scores = {p.name: p.score for p in detail.players}
        result = RoundResult(number, scores, detail=detail)
        for name, score in scores.items():
            self.players[name].total += score
        if detail is not None and self.rs.match.instant_win is not None:
            self.instant(detail, result)
        if not self.over and self.eliminate_at is not None:
            for name in self.active():
                standing = self.players[name]
                if standing.total >= int(self.eliminate_at):
                    standing.active = False
                    standing.eliminated_in = number
                    result.eliminated.append(name)
                    if standing.reentries >= self.max_reentries:
                        standing.out_for_good = True
                        result.out_for_good.append(name)
        result.totals = {p.name: p.total for p in self.players.values()}
        self.rounds.append(result)
        if not self.over and self.end == "target" and self.target is not None:
            reached = [n for n in scores if self.players[n].total >= int(self.target)]
            if reached:
                self.over = True
                self.winners = self.best(self.active())
                self.how = f"{', '.join(reached)} reached {self.target} in round {number}"
        self.snapshot()

    def instant(self, detail: RoundScore, result: RoundResult) -> None:
        from loba_dsl.scoring.rounds import _Env

        assert self.rs.match.instant_win is not None
        for p in detail.players:
            env = _Env(self.rs, p.hand, p.melds, {
                "went_out": p.went_out, "all_at_once": p.all_at_once, "stock_out": detail.stock_out,
                "players": detail.n_players, "round": result.number})
            if self.rs.memo("instant win", compile_formula, self.rs.match.instant_win)(env):
                self.over = True
                self.winners = [p.name]
                self.how = f"{p.name} won outright in round {result.number} (match.instant_win)"
                return

    def settle(self) -> None:
        """Before the next round (re-entries are decided by then): is anyone left?"""
        if self.over or self.end != "last_standing" or not self.rounds:
            return
        active = self.active()
        last = self.rounds[-1]
        if len(active) == 1 and len(self.players) > 1:
            self.over = True
            self.winners = active
            self.how = f"{active[0]} is the last player standing after round {last.number}"
        elif not active:
            self.over = True
            fallen = last.eliminated or [p.name for p in self.players.values()]
            self.winners = self.best(fallen)
            self.how = f"everybody left went out of the match in round {last.number}: the best total wins"

    def reenter(self, event: Any) -> None:
        name, where = event.name, event.where
        if not self.rounds:
            raise InputError(f"'reenter {name}' comes before any round", location=where)
        number = self.rounds[-1].number
        standing = self.players.get(name)
        if standing is None:
            raise InputError(f"after round {number}: '{name}' is not a player of this match", location=where)
        if self.max_reentries == 0:
            raise InputError(f"after round {number}: {self.rs.name} has no re-entry (match.reentry)", location=where)
        if standing.active:
            raise InputError(f"after round {number}: {name} is not eliminated, so cannot re-enter", location=where)
        if standing.eliminated_in != number:
            raise InputError(
                f"after round {number}: {name} was eliminated in round {standing.eliminated_in}; re-entry is "
                f"decided right after that round", location=where)
        if standing.reentries >= self.max_reentries:
            raise InputError(
                f"after round {number}: {name} has already re-entered {standing.reentries} times "
                f"(at most {self.max_reentries})", location=where)
        still_in = [p.total for p in self.players.values() if p.active]
        if not still_in:
            raise InputError(f"after round {number}: nobody is still in, so {name} cannot re-enter", location=where)
        standing.total = max(still_in)  # reentry.score: highest_remaining
        standing.active = True
        standing.out_for_good = False
        standing.reentries += 1
        last = self.rounds[-1]
        last.reentries.append({"name": name, "score": standing.total, "reentry": standing.reentries})
        self.snapshot()

    def snapshot(self) -> None:
        self.rounds[-1].standings = [p.to_dict() for p in self.players.values()]


def play_match(sheet: MatchSheet, ruleset: Ruleset, *, target: int | None = None) -> MatchResult:
    """Run a parsed match file under a ruleset."""
    return _Match(ruleset, sheet, target).run()
