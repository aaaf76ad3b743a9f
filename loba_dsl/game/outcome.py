"""The referee's only door to scoring and the lay-down requirements.

Everything the referee asks of ``loba_dsl.scoring`` goes through this module
(an opening minimum, a round's contract, a finished round's scores), so that
a change of the scoring API is adapted here alone.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from loba_dsl.cards.deck import Card
from loba_dsl.rules.model import Ruleset


@dataclass(frozen=True, slots=True)
class Requirement:
    """The verdict on a first lay-down: met or not, in words."""

    ok: bool
    rule: str
    """``requirements.opening`` or ``requirements.contracts``."""
    summary: str


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


def first_lay_down(rs: Ruleset, melds: Sequence[Sequence[Card]], round_number: int) -> list[Requirement]:
    """Whether a player's first lay-down (every meld put down that turn) meets ``requirements``."""
    if rs.requirements.opening is None and rs.requirements.contracts is None:
        return []
    key = tuple(tuple(m) for m in melds)
    return list(_first_lay_down(rs, key, round_number))


@functools.lru_cache(maxsize=4096)  # legal() asks the same of every discard of a turn
def _first_lay_down(rs: Ruleset, melds: tuple[tuple[Card, ...], ...], round_number: int) -> tuple[Requirement, ...]:
    from loba_dsl.scoring import requirements

    out: list[Requirement] = []
    if rs.requirements.opening is not None:
        v = requirements.opening(rs, melds)
        out.append(Requirement(v.ok, "requirements.opening", v.summary))
    if rs.requirements.contracts is not None:
        v = requirements.contract(rs, contract_round(rs, round_number), melds)
        out.append(Requirement(v.ok, "requirements.contracts", v.summary))
    return tuple(out)


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
