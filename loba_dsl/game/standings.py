"""The match at a table: the rounds played so far fed to the match rules (:mod:`loba_dsl.scoring.match_play`).

The referee's door to match play, as :mod:`loba_dsl.game.outcome` is its door to round scoring:
every rule (elimination, re-entry and its score and limit, the target, the last player standing,
an instant win) is :func:`~loba_dsl.scoring.match_play.play_match`'s; this module only turns a
table's finished rounds and re-entry decisions into its events, and asks it which re-entries it
would accept (an offer is a re-entry ``play_match`` accepts right after the round that eliminated
the player).
"""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.errors import LobaError
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.match_play import MatchResult, Standing, play_match
from loba_dsl.scoring.model import MatchEvent, MatchRound, Reentry

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from typing import Any
else:
    from loba_dsl.frozen import dataclass  # built without importing dataclasses (issue 22)


@dataclass(frozen=True, slots=True)
class ReentryOffer:
    """An eliminated player may re-enter (``match.reentry``): at which total, the how-many-th time."""

    player: str
    round: int
    """The round that eliminated them (the offer is made right after it)."""
    total: int
    """Their total now (at or over ``match.eliminate_at``)."""
    score: int
    """The total they re-enter at (``match.reentry.score``)."""
    reentry: int
    """Which re-entry this would be (1, 2, ...)."""
    limit: int
    """How many re-entries the ruleset allows a player in a match (``match.reentry.max``)."""

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "round": self.round, "total": self.total, "score": self.score,
                "reentry": self.reentry, "max": self.limit}


@dataclass(frozen=True)
class Standings:
    """The match after the rounds played so far, and the re-entry decisions made."""

    result: MatchResult
    """``play_match``'s answer: every round, the totals, eliminations, re-entries."""
    offers: tuple[ReentryOffer, ...]
    """Re-entries still to be decided (right after the last round); the next round waits for them."""

    @property
    def over(self) -> bool:
        return self.result.over and not self.offers

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(self.result.winners) if self.over else ()

    @property
    def how(self) -> str:
        if self.offers:
            return "re-entries to decide: " + ", ".join(o.player for o in self.offers)
        return self.result.how

    @property
    def players(self) -> tuple[Standing, ...]:
        return self.result.players

    @property
    def playing(self) -> tuple[str, ...]:
        """Who plays the next round: the players still in (eliminated players who did not re-enter sit out)."""
        return tuple(p.name for p in self.result.players if p.active)

    def total(self, name: str) -> int:
        return next(p.total for p in self.result.players if p.name == name)

    def to_dict(self) -> dict[str, Any]:
        return {"standings": [p.to_dict() for p in self.result.players], "over": self.over,
                "winner": list(self.winners) or None, "how": self.how,
                "offers": [o.to_dict() for o in self.offers]}


def standings(rs: Ruleset, players: Sequence[str], rounds: Sequence[MatchRound],
              decisions: Sequence[Sequence[tuple[str, bool]]], target: int | None = None) -> Standings:
    """The match after ``rounds`` (scored, in order) and, after each, its re-entry decisions (name, accepted).

    A decision the match rules refuse raises the :class:`~loba_dsl.scoring.model.PartError` of
    ``play_match``.
    """
    events: list[MatchEvent] = []
    for i, rnd in enumerate(rounds):
        events.append(rnd)
        events.extend(Reentry(name) for name, accepted in (decisions[i] if i < len(decisions) else ())
                      if accepted)
    result = play_match(rs, events, players=players, target=target, settle=False)
    offers: list[ReentryOffer] = []
    if result.rounds and rs.match.max_reentries > 0 and not result.over:  # not won by a target or outright
        last = result.rounds[-1]
        decided = {name for name, _ in (decisions[len(rounds) - 1] if len(decisions) >= len(rounds) else ())}
        for name in last.eliminated:
            if name in last.out_for_good or name in decided:
                continue
            try:
                trial = play_match(rs, [*events, Reentry(name)], players=players, target=target)
            except LobaError:
                continue
            seat = next(p for p in trial.players if p.name == name)
            offers.append(ReentryOffer(name, last.number, last.totals[name], seat.total, seat.reentries,
                                       rs.match.max_reentries))
    if not offers:  # nothing left to decide: is anyone still in?
        result = play_match(rs, events, players=players, target=target)
    return Standings(result, tuple(offers))
