"""The plain records of a diff: changes between two rulesets, and the examples that show them.

Every other module of :mod:`loba_dsl.compare` builds or reads these; this one imports none of them.

- :class:`Change` is one rule added, removed or changed, keyed by its path in the ruleset
  (``("values", "penalty")``), with :class:`Detail` lines under it; :class:`RulesDiff` holds them all.
- :class:`Witness` is one concrete example that behaves differently under the two rulesets;
  :class:`Budget` bounds the search for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Key = tuple[str | int, ...]
"""A change's path in the ruleset: ``("melds", "escalera", "shape")``."""
ChangeKind = Literal["added", "removed", "changed"]
WitnessKind = Literal["deck", "meld", "round", "opening", "contract", "match", "players"]

AREAS = ("deck", "deal", "melds", "wilds", "values", "scoring", "turn rules", "match rules")
"""The areas of a diff, in the order a report lists them."""
AREA_OF: Mapping[str, str] = {
    "deck": "deck",
    "players": "deal",
    "deal": "deal",
    "melds": "melds",
    "wilds": "wilds",
    "values": "values",
    "scoring": "scoring",
    "turn": "turn rules",
    "requirements": "turn rules",
    "match": "match rules",
}
"""The area of each top-level key of a ruleset (``name``, ``description`` and ``extends`` are not rules)."""


@dataclass(frozen=True)
class Detail:
    """One line under a change: what differs (``subject``), on each side, and where each side says it."""

    subject: str
    left: str
    right: str
    left_where: str = ""
    right_where: str = ""
    cards: tuple[str, ...] = ()
    """The cards the line is about, if any (by name)."""

    def to_dict(self) -> dict[str, Any]:
        return {"subject": self.subject, "left": self.left, "right": self.right, "left_where": self.left_where,
                "right_where": self.right_where, "cards": list(self.cards)}


@dataclass(frozen=True)
class Change:
    """One rule added, removed or changed, keyed by its path in the ruleset."""

    key: Key
    area: str
    kind: ChangeKind
    left: str | None
    right: str | None
    left_where: str
    right_where: str
    summary: str
    """A short phrase for the area's headline."""
    details: tuple[Detail, ...] = ()

    @property
    def path(self) -> str:
        return ".".join(str(k) for k in self.key)

    def to_dict(self) -> dict[str, Any]:
        return {"key": list(self.key), "path": self.path, "area": self.area, "kind": self.kind,
                "left": self.left, "right": self.right, "left_where": self.left_where,
                "right_where": self.right_where, "summary": self.summary,
                "details": [d.to_dict() for d in self.details]}


@dataclass(frozen=True)
class RulesDiff:
    """Every change between two rulesets, in area order, then key order."""

    left: str
    right: str
    changes: tuple[Change, ...]

    @property
    def same(self) -> bool:
        return not self.changes

    def get(self, *key: str | int) -> Change | None:
        return next((c for c in self.changes if c.key == key), None)

    def keys(self) -> list[Key]:
        return [c.key for c in self.changes]

    def by_area(self) -> dict[str, list[Change]]:
        """The changes of each area that has some, in :data:`AREAS` order."""
        out: dict[str, list[Change]] = {area: [] for area in AREAS}
        for c in self.changes:
            out.setdefault(c.area, []).append(c)
        return {area: changes for area, changes in out.items() if changes}

    def headline(self, area: str) -> str:
        """The area's first three summaries, ``; ``-separated, and how many more."""
        changes = [c for c in self.changes if c.area == area]
        parts = [c.summary for c in changes[:3]]
        more = f" (+{len(changes) - 3} more)" if len(changes) > 3 else ""
        return "; ".join(parts) + more


@dataclass(frozen=True)
class WitnessBudget:
    """Bounds of the witness search, in full (``diff(budget=)`` also takes the library's own
    :class:`loba_dsl.budget.Budget`: its seconds bound the time, its steps the examples tried)."""

    per_change: int = 3
    """Witnesses kept per change."""
    max_meld_cards: int = 5
    """Largest meld tried."""
    max_examples: int = 200_000
    """Examples tried in all, over every search (each is checked under both rulesets); the candidates
    a search enumerates before trying them are bounded by a few times this too."""
    max_seconds: float | None = 20.0
    """Time the searches may take in all (``None``: no time bound); past it, each search stops where
    it is and the report says so (the examples found so far are kept)."""


Budget = WitnessBudget
"""The witness search's bounds under their first name (``loba_dsl.compare.Budget``)."""


@dataclass(frozen=True)
class Witness:
    """One example that behaves differently, with what happens under each ruleset."""

    kind: WitnessKind
    changes: tuple[Key, ...]
    """The changes this example shows."""
    example: str
    """The example in words: ``5♥ 2♣ 7♥``, ``A♠ left in hand``."""
    left: str
    right: str
    left_value: int | bool | None
    right_value: int | bool | None
    cards: tuple[str, ...] = ()
    melds: tuple[tuple[str, ...], ...] = ()
    hand: tuple[str, ...] = ()
    situation: tuple[tuple[str, int | bool], ...] = ()
    """Round variables of a round witness (``went_out``, ``players``...)."""

    @property
    def size(self) -> int:
        return len(self.cards)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "changes": [".".join(str(k) for k in c) for c in self.changes],
                "example": self.example, "left": self.left, "right": self.right,
                "left_value": self.left_value, "right_value": self.right_value, "cards": list(self.cards),
                "melds": [list(m) for m in self.melds], "hand": list(self.hand),
                "situation": dict(self.situation)}
