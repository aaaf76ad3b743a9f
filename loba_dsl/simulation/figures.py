"""The figures of a simulation: estimates with their standard errors and 95% intervals, from games' facts.

Every figure is a ratio over games, Σx / Σn, with per-game numerator ``x`` and weight ``n`` (a plain mean
has ``n = 1`` per game): rounds per match, turns per round, the share of rounds where the stock ran out,
the mean round score (of every seat, and of each bot's seats), wins by seat and by bot (a shared win counts
``1/k`` to each of the ``k`` winners), how often each bot went out, eliminations and re-entries per match.
Rounds of one game are not independent, so the standard error treats the game as the unit (the ratio
estimator's linearisation: ``z = (x - R n) / mean(n)``, ``se = sd(z) / sqrt(G)``), and a difference between
two rulesets is the paired difference of the same games' ``z`` (same seeds, hence the same deals where the
two rulesets deal alike).  The 95% interval is the estimate ± 1.96 standard errors.  Games that did not
finish (a round no player could ever go out of, or stopped at the move limit) count nowhere but in ``unfinished``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from loba_dsl.simulation.games import SEATS, GameFacts

__all__ = ["Estimate", "Figure", "estimate", "figures", "paired_difference"]

Z95 = 1.959964


@dataclass(frozen=True)
class Estimate:
    """A value, its standard error and its 95% interval (``None`` where no game counted)."""

    value: float | None
    se: float | None
    games: int

    @property
    def low(self) -> float | None:
        return None if self.value is None or self.se is None else self.value - Z95 * self.se

    @property
    def high(self) -> float | None:
        return None if self.value is None or self.se is None else self.value + Z95 * self.se

    def to_dict(self) -> dict[str, Any]:
        def r(v: float | None) -> float | None:
            return None if v is None else round(v, 4)

        return {"value": r(self.value), "se": r(self.se), "low": r(self.low), "high": r(self.high),
                "games": self.games}


@dataclass(frozen=True)
class Figure:
    """One measure: its estimate under each ruleset and, with two, their difference (second less first)."""

    key: str
    name: str
    unit: str
    sides: tuple[Estimate, ...]
    diff: Estimate | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "name": self.name, "unit": self.unit,
                               "rulesets": [s.to_dict() for s in self.sides]}
        if self.diff is not None:
            out["difference"] = self.diff.to_dict()
        return out


Pair = tuple[float, float]
"""A game's (numerator, weight); weight 0: the game does not count."""


def _z(pairs: Sequence[Pair]) -> tuple[float | None, list[float], int]:
    """The ratio, the per-game linearised values, and the number of games with a weight."""
    counted = [(x, n) for x, n in pairs if n > 0]
    total_n = sum(n for _, n in counted)
    if not counted or total_n == 0:
        return None, [0.0] * len(pairs), 0
    ratio = sum(x for x, _ in counted) / total_n
    mean_n = total_n / len(counted)
    return ratio, [(x - ratio * n) / mean_n if n > 0 else 0.0 for x, n in pairs], len(counted)


def _se(zs: Sequence[float], g: int) -> float | None:
    if g < 2:
        return None
    mean = sum(zs) / g
    var = (sum((z - mean) ** 2 for z in zs) - (len(zs) - g) * mean * mean) / (g - 1)
    return math.sqrt(max(var, 0.0) / g)


def estimate(pairs: Sequence[Pair], scale: float = 1.0) -> Estimate:
    """The ratio Σx/Σn over the games with a weight, with its standard error (see the module's doc)."""
    ratio, zs, g = _z(pairs)
    if ratio is None:
        return Estimate(None, None, 0)
    counted = [z for z, (_, n) in zip(zs, pairs, strict=True) if n > 0]
    se = _se(counted, len(counted))
    return Estimate(ratio * scale, None if se is None else se * scale, g)


def paired_difference(a: Sequence[Pair], b: Sequence[Pair], scale: float = 1.0) -> Estimate:
    """``b``'s ratio less ``a``'s, over the games counted on both sides, paired game by game."""
    both = [i for i, (pa, pb) in enumerate(zip(a, b, strict=True)) if pa[1] > 0 and pb[1] > 0]
    ra, za, _ = _z([a[i] for i in both])
    rb, zb, _ = _z([b[i] for i in both])
    if ra is None or rb is None:
        return Estimate(None, None, 0)
    d = [y - x for x, y in zip(za, zb, strict=True)]
    se = _se(d, len(d))
    return Estimate((rb - ra) * scale, None if se is None else se * scale, len(d))


Measure = Callable[[GameFacts], Pair]


def _measures(bots: Sequence[str], players: int, match: bool, lower: bool) -> list[tuple[str, str, str, Measure]]:
    """(key, name, unit, per-game measure) of every figure."""
    out: list[tuple[str, str, str, Measure]] = []

    def done(f: GameFacts) -> float:
        return 1.0 if f.finished else 0.0

    def ended(f: GameFacts) -> list[Any]:
        return [r for r in f.rounds if any(s is not None for s in r.scores)] if f.finished else []

    if match:
        out.append(("rounds_per_match", "rounds per match", "", lambda f: (float(len(f.rounds)) * done(f), done(f))))
    out.append(("turns_per_round", "turns per round", "",
                lambda f: (float(sum(r.turns for r in ended(f))), float(len(ended(f))))))
    out.append(("stock_ran_out", "rounds where the stock ran out", "%",
                lambda f: (float(sum(r.stock_out for r in ended(f))), float(len(ended(f))))))
    out.append(("went_out", "rounds someone went out", "%",
                lambda f: (float(sum(r.went_out is not None for r in ended(f))), float(len(ended(f))))))

    def score_of(bot: str | None) -> Measure:
        def m(f: GameFacts) -> Pair:
            x = n = 0.0
            for r in ended(f):
                for k, s in enumerate(r.scores):
                    if s is not None and (bot is None or f.bots[k] == bot):
                        x += s
                        n += 1
            return x, n
        return m

    out.append(("round_score", "mean round score", "", score_of(None)))
    kinds = list(dict.fromkeys(bots))
    if len(kinds) > 1:
        for b in kinds:
            out.append((f"round_score.{b}", f"mean round score of {b}", "", score_of(b)))

    def went_out_of(bot: str) -> Measure:
        def m(f: GameFacts) -> Pair:
            rounds = ended(f)
            seats = [k for k, x in enumerate(f.bots) if x == bot]
            x = sum(1.0 for r in rounds if r.went_out is not None and f.bots[r.went_out] == bot)
            played = sum(1.0 for r in rounds for k in seats if r.scores[k] is not None)
            return x, played
        return m

    for b in kinds if len(kinds) > 1 else ():
        out.append((f"went_out.{b}", f"rounds {b} went out, per seat", "%", went_out_of(b)))

    def won_seat(k: int) -> Measure:
        def m(f: GameFacts) -> Pair:
            if not f.finished or not f.winners:
                return 0.0, 0.0
            return (1.0 / len(f.winners) if k in f.winners else 0.0), 1.0
        return m

    def won_bot(bot: str) -> Measure:
        def m(f: GameFacts) -> Pair:
            if not f.finished or not f.winners:
                return 0.0, 0.0
            seats = [k for k, x in enumerate(f.bots) if x == bot]
            return sum(1.0 / len(f.winners) for k in seats if k in f.winners), float(len(seats))
        return m

    what = "matches" if match else "rounds"
    for k in range(players):
        out.append((f"win.seat{k + 1}", f"{what} won by seat {k + 1} ({SEATS[k]})", "%", won_seat(k)))
    for b in kinds if len(kinds) > 1 else ():
        out.append((f"win.{b}", f"{what} won by {b}, per seat", "%", won_bot(b)))
    if match:
        out.append(("eliminations", "eliminations per match", "",
                    lambda f: (float(f.eliminations) * done(f), done(f))))
        out.append(("reentries", "re-entries per match", "", lambda f: (float(f.reentries) * done(f), done(f))))
    return out


def figures(sides: Sequence[Sequence[GameFacts]], bots: Sequence[str], *, match: bool,
            lower: Sequence[bool]) -> list[Figure]:
    """The figures of each side's games (in index order), and the paired differences where two sides."""
    out = []
    for key, name, unit, measure in _measures(bots, len(bots), match, lower[0]):
        scale = 100.0 if unit == "%" else 1.0
        per_side = [[measure(f) for f in games] for games in sides]
        ests = tuple(estimate(p, scale) for p in per_side)
        diff = paired_difference(per_side[0], per_side[1], scale) if len(sides) == 2 else None
        if key.startswith("round_score") and len(lower) == 2 and lower[0] != lower[1]:
            diff = None  # opposite scales (least penalty against most points): shown, not subtracted
        out.append(Figure(key, name, unit, ests, diff))
    return out
