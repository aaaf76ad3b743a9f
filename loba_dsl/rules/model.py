"""The compiled ruleset: what the engine knows about one variant (types only; see ``loading``).

Compiling checks the meaning of every DSL text (unknown names, a wild card the
deck cannot produce, a value table that leaves a card without a value) and
reports all mistakes at once, each at its ``file:line:col``.  The result is
pure data (frozen dataclasses and tuples), cached in the process and, keyed by
the content of every file read, on disk, so that a command-line call does not
pay for YAML, JSON Schema and Lark again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.dsl import ast as A

if TYPE_CHECKING:
    from loba_dsl.cards.notation import Notation

T = TypeVar("T")

ValueKey = tuple[int, Card, bool, int, bool]
"""(meld kind index, card, is wild, rank index it stands for, played high)."""


@dataclass(frozen=True)
class MeldKind:
    """One meld kind of a ruleset (``pierna``), with its compiled shape."""

    name: str
    description: str
    text: str
    shape: A.Shape
    where: str
    """``file:line`` of the shape."""
    clause_where: tuple[str, ...]
    """``file:line`` of each clause, in order."""
    clause_text: tuple[str, ...]
    """Source text of each clause, in order."""
    head_text: str

    @property
    def is_run(self) -> bool:
        return self.shape.kind == "run"


@dataclass(frozen=True)
class Opening:
    minimum: int
    scope: str
    table: str
    wild_value: str


@dataclass(frozen=True)
class Contracts:
    rounds: tuple[A.Contract, ...]
    texts: tuple[str, ...]
    at_once: bool
    before_other_melds: bool
    source: str


@dataclass
class Ruleset:
    """Everything the engine needs to know about one variant."""

    name: str
    description: str
    source: str
    deck: Deck
    wild_cards: frozenset[Card]
    natural_too: bool
    kinds: tuple[MeldKind, ...]
    tables: Mapping[str, Any]
    meld_points: str | None
    better: str
    round_formula: A.Expr
    opening: Opening | None
    contracts: Contracts | None
    instant_win: A.Expr | None
    settings: dict[str, Any]
    """The resolved document (after ``extends`` and defaults)."""
    origins: dict[tuple[str | int, ...], str]
    """``file:line`` of every value that a file set."""
    files: tuple[str, ...]
    hand_values: Mapping[str, tuple[int, ...]]
    """Per value table, the value of each card code in hand."""
    meld_values: Mapping[str, Mapping[ValueKey, int]] = field(default_factory=dict)
    """Per value table used on melds, the value of a card in each role."""

    def kind(self, name: str) -> MeldKind:
        for k in self.kinds:
            if k.name == name:
                return k
        raise KeyError(name)

    def notation(self, lang: str | None = None) -> Notation:
        """The card notation of this ruleset's deck (cached per language)."""
        return self.memo(("notation", lang), _notation, self.deck, lang)

    def memo(self, key: Hashable, build: Callable[..., T], *args: Any) -> T:
        """What other modules derive from this ruleset (matchers, compiled formulas), built once.

        ``build(*args)`` runs only the first time ``key`` is asked for (no closure
        is made per call: this sits on hot paths).  Kept on the ruleset itself, so
        it lives exactly as long as the ruleset, and left out when the ruleset is
        pickled to the disk cache.
        """
        cache = self._memo
        try:
            found: T = cache[key]
        except KeyError:
            found = cache[key] = build(*args)
        return found

    @cached_property
    def _memo(self) -> dict[Hashable, Any]:
        return {}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_memo", None)
        return state

    def where(self, *path: str | int) -> str:
        return self.origins.get(tuple(path), "(default)")


def _notation(deck: Deck, lang: str | None) -> Notation:
    from loba_dsl.cards.notation import Notation

    return Notation(deck, lang)
