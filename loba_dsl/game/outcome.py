"""The referee's only door to scoring and the lay-down requirements.

Everything the referee asks of ``loba_dsl.scoring`` goes through this module
(an opening minimum, a round's contract, a finished round's scores), so that
a change of the scoring API is adapted here alone.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.rules.model import Ruleset

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    from loba_dsl.frozen import dataclass  # built without importing dataclasses (issue 22)


@dataclass(frozen=True, slots=True)
class Requirement:
    """The verdict on a lay-down: met or not, in words."""

    ok: bool
    rule: str
    """``requirements.opening`` or ``requirements.contracts``."""
    summary: str
    partial: bool = False
    """A contract's verdict: not all of the contract, but part of it (more melds may complete it)."""


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's part of a round's result: the score, and how the round ended for them."""

    name: str
    score: int
    went_out: bool
    all_at_once: bool


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round: who went out, whether the stock ended it, every player's score."""

    round_number: int
    went_out: str | None
    stock_out: bool
    players: tuple[PlayerResult, ...]

    @property
    def scores(self) -> dict[str, int]:
        return {p.name: p.score for p in self.players}

    def to_dict(self) -> dict[str, object]:
        return {"went_out": self.went_out, "stock_out": self.stock_out, "scores": self.scores}


def contract_round(rs: Ruleset, round_number: int) -> int:
    """Which contract a round plays (1-based); past the list it starts again from the first."""
    spec = rs.requirements.contracts
    assert spec is not None
    return (round_number - 1) % len(spec.rounds) + 1


def opening(rs: Ruleset, melds: Sequence[Sequence[Card]]) -> Requirement:
    """Whether a first lay-down (``melds``) reaches ``requirements.opening`` (the ruleset has one)."""
    return _opening(rs, tuple(tuple(m) for m in melds))


def contract(rs: Ruleset, melds: Sequence[Sequence[Card]], round_number: int) -> Requirement:
    """Whether ``melds`` hold round ``round_number``'s contract (the ruleset has contracts), or part of it."""
    return _contract(rs, tuple(tuple(m) for m in melds), round_number)


def contract_words(rs: Ruleset, round_number: int) -> str:
    """Round ``round_number``'s contract as players say it (``2 piernas + escalera``)."""
    from loba_dsl.scoring import requirements

    return requirements.contract_rule(rs, contract_round(rs, round_number)).in_words


@functools.lru_cache(maxsize=4096)  # legal() asks the same of every discard of a turn
def _opening(rs: Ruleset, melds: tuple[tuple[Card, ...], ...]) -> Requirement:
    from loba_dsl.scoring import requirements

    v = requirements.opening(rs, melds)
    return Requirement(v.ok, "requirements.opening", v.summary)


@functools.lru_cache(maxsize=4096)
def _contract(rs: Ruleset, melds: tuple[tuple[Card, ...], ...], round_number: int) -> Requirement:
    from loba_dsl.scoring import requirements

    v = requirements.contract(rs, contract_round(rs, round_number), melds)
    return Requirement(v.ok, "requirements.contracts", v.summary, v.partial)


def score(rs: Ruleset, *, players: Sequence[str], melds: Sequence[Sequence[Sequence[Card]]],
          hands: Sequence[Sequence[Card]], went_out: int | None, all_at_once: bool, stock_out: bool,
          round_number: int) -> RoundResult:
    """Score a finished round with the same code as ``loba score``."""
    from loba_dsl.scoring.rounds import score_player

    results = []
    for seat, name in enumerate(players):
        out = went_out == seat
        p = score_player(rs, name=name, melds=melds[seat], hand=hands[seat], went_out=out,
                         all_at_once=out and all_at_once, stock_out=stock_out, players=len(players),
                         round_number=round_number)
        results.append(PlayerResult(name, p.score, out, out and all_at_once))
    return RoundResult(round_number, players[went_out] if went_out is not None else None, stock_out, tuple(results))
