"""Whole matches: standings after every round, elimination, re-entry, the winner.

Every number comes from the ruleset's ``match`` section (``end``,
``eliminate_at``, ``target``, ``reentry``, ``winner_if_all_out``,
``instant_win``) and its ``scoring.better``; no variant is named here.

- ``end: last_standing``: a player whose total reaches ``eliminate_at`` is
  eliminated; right after that round they may re-enter (at most
  ``reentry.max`` times) at the total ``reentry.score`` sets (the highest
  total among the players still in, one more, or a fixed one): each round
  lists these offers;
  the last player standing wins; if everybody left is eliminated in the same
  round, the best total among them wins (ties shared).
- ``end: target``: the match ends after the first round in which a total
  reaches the target; the best total wins (ties shared).
- ``instant_win``: a formula over a player's round (e.g. a seven-card run in
  Chinchón) that ends the match at once in that player's favour.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from loba_dsl.dsl.evaluate import compile_formula
from loba_dsl.errors import InputError, LobaError, LobaErrors, raise_all, said
from loba_dsl.rules.model import MatchEnd, MatchRules, ReentryScore, Ruleset
from loba_dsl.scoring import round_checks
from loba_dsl.scoring.model import (
    SCHEMA_VERSION,
    MatchEvent,
    MatchRound,
    Part,
    PartError,
    PlayerPoints,
    PlayerRound,
    Reentry,
    RoundFacts,
)
from loba_dsl.scoring.rounds import RoundEnv, RoundScore, score_round

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass, field
    from typing import Any
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)

__all__ = ["MatchResult", "RoundResult", "Standing", "check_target", "play_match"]


@dataclass(frozen=True)
class Standing:
    """A player's place in the match after its last event."""

    name: str
    total: int = 0
    active: bool = True
    reentries: int = 0
    eliminated_in: int | None = None
    out_for_good: bool = False

    @property
    def status(self) -> str:
        return "in" if self.active else "out for good" if self.out_for_good else "eliminated"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "total": self.total, "status": self.status, "reentries": self.reentries}


@dataclass(frozen=True)
class RoundResult:
    """One round of the match: its scores, the totals after it, who fell, who re-entered, the standings.

    ``reentries`` and ``standings`` include the re-entries decided right after the round.
    """

    number: int
    scores: dict[str, int]
    totals: dict[str, int]
    eliminated: list[str]
    out_for_good: list[str]
    reentries: list[dict[str, Any]]
    """``{"name", "score", "reentry"}``: who re-entered, at which total, their how-many-th re-entry."""
    offers: list[dict[str, Any]]
    """``{"name", "score"}``: who, eliminated in this round, may still re-enter right after it, and at which
    total the rules would set them (after the re-entries already made: ``reentries``)."""
    detail: RoundScore | None
    """The round's scoring, card by card (``None`` for a round kept in points)."""
    standings: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "scores": self.scores,
            "totals": self.totals,
            "eliminated": self.eliminated,
            "out_for_good": self.out_for_good,
            "reentries": self.reentries,
            "offers": self.offers,
            "standings": self.standings,
        }


@dataclass(frozen=True)
class MatchResult:
    """A match so far: every round, the standings, and the winners once it is over."""

    ruleset: str
    rules: MatchRules
    """The ruleset's ``match`` section, as it was applied."""
    target: int | None
    players: tuple[Standing, ...]
    rounds: tuple[RoundResult, ...]
    winners: list[str]
    over: bool
    how: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "ruleset": self.ruleset,
            "target": self.target,
            "rounds": [r.to_dict() for r in self.rounds],
            "standings": [p.to_dict() for p in self.players],
            "winner": self.winners if self.winners else None,
            "over": self.over,
            "how": self.how,
        }


@dataclass
class _Seat:
    """A player's standing while the match is played."""

    name: str
    total: int = 0
    active: bool = True
    reentries: int = 0
    eliminated_in: int | None = None
    out_for_good: bool = False

    def standing(self) -> Standing:
        return Standing(self.name, self.total, self.active, self.reentries, self.eliminated_in, self.out_for_good)


@dataclass
class _Round:
    """A round's result while the re-entries after it are still to come."""

    number: int
    scores: dict[str, int]
    detail: RoundScore | None
    totals: dict[str, int] = field(default_factory=dict)
    eliminated: list[str] = field(default_factory=list)
    out_for_good: list[str] = field(default_factory=list)
    reentries: list[dict[str, Any]] = field(default_factory=list)
    offers: list[dict[str, Any]] = field(default_factory=list)
    standings: list[dict[str, Any]] = field(default_factory=list)

    def result(self) -> RoundResult:
        return RoundResult(self.number, self.scores, self.totals, self.eliminated, self.out_for_good, self.reentries,
                           self.offers, self.detail, self.standings)


def _at(event: int, error: LobaError) -> LobaError:
    """``error`` (one or several) about parts of match event ``event``."""
    errors = error.errors if isinstance(error, LobaErrors) else (error,)
    placed = [e.within(event) if isinstance(e, PartError) else e for e in errors]
    return placed[0] if len(placed) == 1 else LobaErrors(placed)


class _Match:
    def __init__(self, ruleset: Ruleset, players: Sequence[str] | None, target: int | None) -> None:
        self.rs = ruleset
        rules = ruleset.match
        self.end = rules.end
        self.eliminate_at = rules.eliminate_at
        self.target = target if target is not None else rules.target
        self.max_reentries = rules.max_reentries
        self.sign = ruleset.scoring.better.sign
        self.players: dict[str, _Seat] = {name: _Seat(name) for name in players or ()}
        if players is not None and len(self.players) < len(players):
            twice = next(n for i, n in enumerate(players) if n in players[:i])
            raise PartError(said("player '{name}' is listed twice", name=twice))
        if players is not None and not ruleset.players.allows(len(players)):
            lo, hi = ruleset.players.min, ruleset.players.max
            raise PartError(said("{ruleset} is played by {least} to {most} players, not {players}",
                                 ruleset=ruleset.name, least=lo, most=hi, players=len(players)), part=Part(0))
        self.rounds: list[_Round] = []
        self.winners: list[str] = []
        self.over = False
        self.how = "the match is not over"
        self.event = -1

    def best(self, names: list[str]) -> list[str]:
        top = max(self.sign * self.players[n].total for n in names)
        return [n for n in names if self.sign * self.players[n].total == top]

    def active(self) -> list[str]:
        return [p.name for p in self.players.values() if p.active]

    def run(self, events: Iterable[MatchEvent], settle: bool = True) -> MatchResult:
        for i, event in enumerate(events):
            self.event = i
            if isinstance(event, Reentry):
                self.reenter(event.name)
            else:
                self.settle()
                if self.over:
                    raise PartError(f"the match is already over ({self.how}), but another round follows",
                                    part=Part(i))
                self.round(event)
        if settle:
            self.settle()
        rules = self.rs.match
        return MatchResult(self.rs.name, rules, self.target, tuple(p.standing() for p in self.players.values()),
                           tuple(r.result() for r in self.rounds), self.winners, self.over, self.how)

    def round(self, event: MatchRound) -> None:
        i = self.event
        number = event.number if event.number is not None else len(self.rounds) + 1
        players: Sequence[PlayerRound | PlayerPoints] = event.players
        if not self.players:
            for p in players:
                self.players[p.name] = _Seat(p.name)
        errors: list[LobaError] = []
        for j, p in enumerate(players):
            seat = self.players.get(p.name)
            if seat is None:
                errors.append(PartError(said("round {number}: '{name}' is not a player of this match",
                                             number=number, name=p.name), part=Part(i, j)))
            elif not seat.active:
                errors.append(PartError(said("round {number}: {name} was eliminated and has not re-entered",
                                             number=number, name=p.name), part=Part(i, j)))
        missing = [n for n in self.active() if all(p.name != n for p in players)]
        if missing:
            errors.append(PartError(said("round {number} has no line for {names}", number=number,
                                         names=", ".join(missing)), part=Part(i)))
        raise_all(errors)
        facts = RoundFacts(len(players), number, event.stock_out)
        detail = None
        cards = [p for p in players if isinstance(p, PlayerRound)]
        if len(cards) < len(players):
            if cards:
                first = next(j for j, p in enumerate(players) if isinstance(p, PlayerRound))
                raise PartError(said("a round gives either each player's points or their cards, not both"),
                                part=Part(i, first))
            points = [p for p in players if isinstance(p, PlayerPoints)]
            raise_all([e.within(i) for e in (*round_checks.distinct_names(points),
                                             *round_checks.going_out(self.rs, points, event.stock_out))])
            scores = {p.name: p.points for p in points}
        else:
            try:
                detail = score_round(self.rs, cards, facts)
            except LobaError as e:
                raise _at(i, e) from None
            scores = {p.name: p.score for p in detail.players}
        result = _Round(number, scores, detail)
        for name, score in scores.items():
            self.players[name].total += score
        if detail is not None and self.rs.match.instant_win is not None:
            self.instant(cards, facts)
        if not self.over and self.eliminate_at is not None:
            for name in self.active():
                seat = self.players[name]
                if seat.total >= int(self.eliminate_at):
                    seat.active = False
                    seat.eliminated_in = number
                    result.eliminated.append(name)
                    if seat.reentries >= self.max_reentries:
                        seat.out_for_good = True
                        result.out_for_good.append(name)
        result.totals = {p.name: p.total for p in self.players.values()}
        self.rounds.append(result)
        if not self.over and self.end is MatchEnd.TARGET and self.target is not None:
            reached = [n for n in scores if self.players[n].total >= int(self.target)]
            if reached:
                self.over = True
                # The best of those still in; where the same round put everyone out too (a house with both
                # a target and an elimination total), the best of those who played it.
                self.winners = self.best(self.active() or list(scores))
                self.how = f"{', '.join(reached)} reached {self.target} in round {number}"
        self.snapshot()

    def instant(self, players: Sequence[PlayerRound], facts: RoundFacts) -> None:
        assert self.rs.match.instant_win is not None
        for p in players:
            env = RoundEnv.of(self.rs, p, facts)
            if self.rs.memo("instant win", compile_formula, self.rs.match.instant_win)(env):
                self.over = True
                self.winners = [p.name]
                self.how = f"{p.name} won outright in round {facts.round} (match.instant_win)"
                return

    def settle(self) -> None:
        """Before the next round (re-entries are decided by then): is anyone left?  Under ``last_standing``
        the last one in wins; under any end rule, a match with nobody left to play (a house with a target and
        an elimination total, whose round put everyone out before anyone reached the target) is over too, and
        the best total wins, as there is no next round to deal."""
        if self.over or not self.rounds:
            return
        active = self.active()
        last = self.rounds[-1]
        if self.end is not MatchEnd.LAST_STANDING:
            if not active:
                self.over = True
                fallen = last.eliminated or [p.name for p in self.players.values()]
                self.winners = self.best(fallen)
                self.how = f"everybody went out of the match in round {last.number}: the best total wins"
            elif len(active) == 1 and len(self.players) > 1:  # a round needs two players
                self.over = True
                self.winners = active
                self.how = f"{active[0]} is the only player left after round {last.number}"
            return
        if len(active) == 1 and len(self.players) > 1:
            self.over = True
            self.winners = active
            self.how = f"{active[0]} is the last player standing after round {last.number}"
        elif not active:
            self.over = True
            fallen = last.eliminated or [p.name for p in self.players.values()]
            self.winners = self.best(fallen)
            self.how = f"everybody left went out of the match in round {last.number}: the best total wins"

    def reenter(self, name: str) -> None:
        at = Part(self.event)
        if not self.rounds:
            raise PartError(said("'reenter {name}' comes before any round", name=name), part=at)
        number = self.rounds[-1].number
        seat = self.players.get(name)
        if seat is None:
            raise PartError(said("after round {number}: '{name}' is not a player of this match", number=number,
                                 name=name), part=at)
        if self.max_reentries == 0:
            raise PartError(said("after round {number}: {ruleset} has no re-entry (match.reentry)", number=number,
                                 ruleset=self.rs.name), part=at)
        if seat.active:
            raise PartError(said("after round {number}: {name} is not eliminated, so cannot re-enter", number=number,
                                 name=name), part=at)
        if seat.eliminated_in != number:
            raise PartError(
                said("after round {number}: {name} was eliminated in round {eliminated}; re-entry is "
                     "decided right after that round", number=number, name=name, eliminated=seat.eliminated_in),
                part=at)
        if seat.reentries >= self.max_reentries:
            raise PartError(
                said("after round {number}: {name} has already re-entered {times} times (at most {most})",
                     number=number, name=name, times=seat.reentries, most=self.max_reentries), part=at)
        score = self.reentry_score()
        if score is None:
            raise PartError(said("after round {number}: nobody is still in, so {name} cannot re-enter", number=number,
                                 name=name), part=at)
        seat.total = score
        seat.active = True
        seat.out_for_good = False
        seat.reentries += 1
        last = self.rounds[-1]
        last.reentries.append({"name": name, "score": seat.total, "reentry": seat.reentries})
        self.snapshot()

    def reentry_score(self) -> int | None:
        """The total a player re-entering now starts again from (``match.reentry.score``); ``None`` when nobody
        is still in, or the rules have no re-entry."""
        still_in = [p.total for p in self.players.values() if p.active]
        reentry = self.rs.match.reentry
        if not still_in or reentry is None or self.max_reentries == 0:
            return None
        if reentry.score is ReentryScore.HIGHEST_REMAINING:
            return max(still_in)
        if reentry.score is ReentryScore.HIGHEST_PLUS_ONE:
            return max(still_in) + 1
        return reentry.fixed_score

    def snapshot(self) -> None:
        """The last round's standings and re-entry offers, as they stand after its last event."""
        last = self.rounds[-1]
        last.standings = [p.standing().to_dict() for p in self.players.values()]
        score = None if self.over else self.reentry_score()
        last.offers = [] if score is None else [
            {"name": name, "score": score} for name in last.eliminated
            if not self.players[name].active and not self.players[name].out_for_good]


def play_match(ruleset: Ruleset, rounds: Iterable[MatchEvent], *, players: Sequence[str] | None = None,
               target: int | None = None, settle: bool = True) -> MatchResult:
    """Play a match: its rounds and re-entries, in order, under a ruleset.

    ``players``: the players of the match, in order (by default, those of the
    first round).  ``target``: the target of a ruleset that ends at one (by
    default ``match.target``).  A mistake (an unknown player, a re-entry the
    rules forbid, a round after the end) raises a
    :class:`~loba_dsl.scoring.model.PartError` naming the event by index.
    A ``target`` under a ruleset that does not end at one, or not above 0, is
    an :class:`~loba_dsl.errors.InputError`.  ``settle=False``: the re-entries after the last round
    are still to be decided, so the match is not yet over for want of players (a referee asks so
    before it offers them).
    """
    if target is not None:
        check_target(ruleset, target)
    return _Match(ruleset, players, target).run(rounds, settle)


def check_target(ruleset: Ruleset, target: int) -> None:
    """A target given for a match must be one the ruleset can use: positive, under ``match.end: target``."""
    if ruleset.match.end is not MatchEnd.TARGET:
        raise InputError(f"{ruleset.name} does not end at a target score (match.end: {ruleset.match.end}), "
                         f"so a target of {target} would change nothing",
                         hint="leave the target out, or choose a ruleset that plays to one (match.end: target)")
    if target <= 0:
        raise InputError(f"the target must be a positive score, not {target}",
                         hint="for example 150, 200 or 300, as in docs/rules.md §2")
