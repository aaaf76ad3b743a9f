"""The report of a diff, as data: the rules diff, its witnesses, play statistics; JSON via ``to_dict``.

Text for people is :func:`loba_dsl.render.diff_text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from loba_dsl.compare.records import RulesDiff, Witness
from loba_dsl.rules.model import Ruleset


class StatsHook(Protocol):
    """A source of play statistics: deals hands under both rulesets and compares them.

    It returns a JSON-ready mapping, such as ``loba_dsl.compare.stats.play_stats(a, b, deals=N, seed=s).to_dict()``:
    ``figures`` (if present) is a list of ``{"name", "a", "b", "spread_a", "spread_b", "diff", "se",
    "unit"}`` rows, rendered as a table; other keys are shown as they are.
    """

    def __call__(self, a: Ruleset, b: Ruleset, /) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class DiffReport:
    """The rules diff, its witnesses and play statistics."""

    rules: RulesDiff
    witnesses: tuple[Witness, ...] = ()
    stats: dict[str, Any] | None = None
    """Play statistics (JSON-ready, see :class:`StatsHook`), when they were asked for."""
    searched: Mapping[str, int] = field(default_factory=dict)
    """How many examples each witness search tried."""
    stopped: Mapping[str, str] = field(default_factory=dict)
    """The witness searches that stopped at their budget (:class:`~loba_dsl.compare.records.Budget`),
    with the bound that stopped each: their examples are the ones found before it."""

    @property
    def same(self) -> bool:
        return self.rules.same

    def witnesses_for(self, *key: str | int) -> list[Witness]:
        return [w for w in self.witnesses if key in w.changes]

    def to_dict(self) -> dict[str, Any]:
        return {
            "left": self.rules.left,
            "right": self.rules.right,
            "same": self.same,
            "areas": {area: {"headline": self.rules.headline(area), "changes": [c.to_dict() for c in changes]}
                      for area, changes in self.rules.by_area().items()},
            "witnesses": [w.to_dict() for w in self.witnesses],
            "searched": dict(self.searched),
            "stopped": dict(self.stopped),
            "stats": dict(self.stats) if self.stats is not None else None,
        }
