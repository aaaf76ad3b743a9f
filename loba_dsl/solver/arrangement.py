"""What the solver answers: melds as read, arrangements of a hand, whether it can go out."""

from __future__ import annotations

from dataclasses import dataclass

from loba_dsl.cards.deck import Card
from loba_dsl.melds.matcher import Reading
from loba_dsl.solver.multisets import Multiset

__all__ = ["ArrangedHand", "Arrangement", "GoingOut", "OutNote", "PlacedMeld"]


@dataclass(frozen=True)
class PlacedMeld:
    """A meld of the arrangement, read the way that scores best."""

    cards: Multiset
    reading: Reading
    gain: int


@dataclass(frozen=True)
class Arrangement:
    """The melds, the cards left, and what they are worth."""

    cards: Multiset
    melds: tuple[PlacedMeld, ...]
    left: Multiset
    left_value: int | None
    """The left cards by the hand table of the round formula (deadwood in gin)."""
    score: int
    """The round score if the round ended now, by the ruleset's formula."""
    melded_all: bool


@dataclass(frozen=True)
class GoingOut:
    """Whether a hand can go out, and how."""

    possible: bool
    discard: Card | None
    arrangement: Arrangement | None


@dataclass(frozen=True)
class OutNote:
    """Going out, in words and figures."""

    why_not: tuple[str, ...] = ()
    """When the hand cannot go out this turn: why (empty when it can)."""
    score: int | None = None
    """When it can: the round score of its best way out (``scoring.round`` with ``went_out``)."""
    wins: bool = False
    """When it can: that way out wins the match outright (``match.instant_win``)."""


@dataclass(frozen=True)
class ArrangedHand:
    """A hand read from text and arranged: what ``loba arrange`` shows."""

    cards: Multiset
    """The hand as given (before any discard)."""
    arrangement: Arrangement
    discard: Card | None
    """The best discard, when the hand had just drawn (``discard=True``); else ``None``."""
    can_go_out: bool
    """Whether the whole hand (before any discard) can go out this turn, as the referee allows (``turn``)."""
    note: OutNote = OutNote()
    """Why it cannot go out, or what going out scores and whether it wins the match (``loba arrange`` says it)."""
