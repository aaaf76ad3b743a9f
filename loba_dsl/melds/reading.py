"""What the matcher finds: a reading of cards as a meld, why cards are not a meld of a kind, and both together.

A :class:`Reading` is one legal way to read cards as a meld; the best one is chosen by
:meth:`Reading.sort_key` (most points, then most naturals, then the ruleset's order of kinds, then the
layout's order, then the lowest run).  A :class:`Failure` is the clause of one kind that fails, its words
built only when shown.  An :class:`Outcome` holds the best reading or every failure.
"""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.cards.deck import Card

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from typing import Protocol

    from loba_dsl.melds.reason_words import ReasonWords
    from loba_dsl.melds.shapes import CompiledShape
else:
    from loba_dsl.frozen import dataclass

    Protocol = object  # at run time a plain base class: a protocol is read by type checkers only

__all__ = ["HEAD", "Failure", "Outcome", "Reading", "badness", "better"]


class Explains(Protocol):
    """What works out the reasons of a meld the tables rejected (the matcher): :attr:`Outcome.failures`."""

    def rejected_failures(self, cards: tuple[Card, ...], specs: tuple[CompiledShape, ...],
                          explain: bool) -> tuple[Failure, ...]: ...

HEAD = -1
"""Clause index of a shape's head (``set 3..4``): size, one rank, one suit, sequence."""

@dataclass(frozen=True, slots=True)
class Reading:
    """One legal way to read cards as a meld."""

    kind: str
    kind_index: int
    order: tuple[int, ...]
    """Index in the input of the card at each meld position."""
    stands: tuple[Card, ...]
    """The card each meld position stands for."""
    wild: tuple[bool, ...]
    """Whether the card at each meld position is used as a wild."""
    points: int | None
    start: int = 0

    @property
    def naturals(self) -> int:
        return self.wild.count(False)

    @property
    def wilds(self) -> int:
        return self.wild.count(True)

    def inversions(self) -> int:
        o = self.order
        return sum(1 for i in range(len(o)) for j in range(i + 1, len(o)) if o[i] > o[j])

    def sort_key(self) -> tuple[int, int, int, int, int]:
        """Smaller is better."""
        return (-(self.points or 0), -self.naturals, self.kind_index, self.inversions(), self.start)


@dataclass(frozen=True, slots=True)
class Failure:
    """Why cards are not a meld of one kind: the clause that fails.

    The words are built only when asked for (:meth:`message`): matching is a
    hot path and most failures are never shown.
    """

    kind: str
    kind_index: int
    clause: int
    template: str
    """``str.format`` template: ``{cards}`` is the card list, ``{0}``... the values."""
    cards: tuple[Card, ...] = ()
    values: tuple[object, ...] = ()
    structural: bool = False
    """A failure of the meld's structure (rank, suit, sequence), not of a limit."""

    def message(self, names: Sequence[str], words: ReasonWords | None = None) -> str:
        """The reason in words: English, or in the language of ``words``."""
        cards = " ".join(map(names.__getitem__, self.cards))
        if words is None:
            return self.template.format(*self.values, cards=cards)
        return words.template(self.template).format(*map(words.value, self.values), cards=cards)


class Outcome:
    """All that matching found: the best reading, or every reason per kind.

    Immutable.  The reasons of an illegal meld that the tables rejected
    (:meth:`~loba_dsl.melds.matcher.Matcher.match`) are worked out by the general matcher the first
    time :attr:`failures` is read: a caller asking only for the verdict never
    pays for them, and the ones it gets are those of :meth:`~loba_dsl.melds.matcher.Matcher.match_general`.
    """

    __slots__ = ("_failures", "_later", "best")

    best: Reading | None
    _failures: tuple[Failure, ...]
    _later: tuple[Explains, tuple[Card, ...], tuple[CompiledShape, ...], bool] | None

    def __init__(self, best: Reading | None, failures: tuple[Failure, ...] = (),
                 later: tuple[Explains, tuple[Card, ...], tuple[CompiledShape, ...], bool] | None = None) -> None:
        set_ = object.__setattr__
        set_(self, "best", best)
        set_(self, "_failures", failures)
        set_(self, "_later", later)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Outcome is immutable: cannot assign to {name!r}")

    @property
    def valid(self) -> bool:
        return self.best is not None

    @property
    def failures(self) -> tuple[Failure, ...]:
        later = self._later
        if later is not None:
            matcher, cards, specs, explain = later
            object.__setattr__(self, "_failures", matcher.rejected_failures(cards, specs, explain))
            object.__setattr__(self, "_later", None)
        return self._failures

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return self.best == other.best and self.failures == other.failures

    def __hash__(self) -> int:
        return hash((self.best, self.failures))

    def __repr__(self) -> str:
        return f"Outcome(best={self.best!r}, failures={self.failures!r})"

    def __reduce__(self) -> tuple[type[Outcome], tuple[Reading | None, tuple[Failure, ...]]]:
        return Outcome, (self.best, self.failures)


def better(r: Reading, than: Reading) -> bool:
    """``r`` comes before ``than`` in :meth:`Reading.sort_key` order (the costly part only on a tie)."""
    a = (-(r.points or 0), -r.naturals, r.kind_index)
    b = (-(than.points or 0), -than.naturals, than.kind_index)
    if a != b:
        return a < b
    return (r.inversions(), r.start) < (than.inversions(), than.start)


def badness(fails: list[Failure]) -> tuple[int, int]:
    """Which way of reading the wilds failed least: structure first, then count."""
    return sum(1 for f in fails if f.structural), len(fails)
