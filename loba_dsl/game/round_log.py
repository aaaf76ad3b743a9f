"""One round as a table keeps it: who plays it, the deal, each move with the state before it, what followed.

The table's memory of a round (:class:`RoundLog`) is also what its record is written from, what its
record digest is extended with, and what a snapshot copies (states are immutable and shared).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from loba_dsl.cards.deck import Card
from loba_dsl.game import outcome as scoring
from loba_dsl.game import partial
from loba_dsl.game.moves import HIDDEN, UNKNOWN, Move
from loba_dsl.game.state import RoundState
from loba_dsl.rules.model import Ruleset


@dataclass
class RoundLog:
    """One round as the record states it: who plays, the deal, every move in order, what followed it."""

    dealer: int
    """The dealer's seat in ``players``."""
    hands: tuple[tuple[Card, ...], ...]
    upcard: Card | None
    stock: tuple[Card, ...] | None
    """The stock as dealt, top first; ``None`` where the record does not know it."""
    moves: list[Move] = field(default_factory=list)
    states: list[RoundState] = field(default_factory=list)
    """The state before each move, then the current one (``states[-1]``)."""
    players: tuple[str, ...] = ()
    """Who plays this round, in seating order (players out of the match sit it out)."""
    entries: list[dict[str, Any]] = field(default_factory=list)
    """Each move's record entry (made once, when the move is played)."""
    hashes: list[Any] = field(default_factory=list)
    """The record digest's hash after the deal (``hashes[0]``) and after each move; never changed once made."""
    reentries: list[tuple[str, bool]] = field(default_factory=list)
    """The re-entry decisions made right after this round: (player, accepted)."""
    shown: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    """Hands shown at the end of the round where the record did not know them (a hand-dealt game)."""
    unchecked: partial.Unchecked | None = None
    """What the record leaves unknown (``None``: every card of the round is known)."""
    result: scoring.RoundResult | None = None

    def copy(self) -> RoundLog:
        return replace(self, moves=list(self.moves), states=list(self.states), entries=list(self.entries),
                       hashes=list(self.hashes), reentries=list(self.reentries), shown=dict(self.shown),
                       unchecked=None if self.unchecked is None else replace(
                           self.unchecked, hands_unknown=dict(self.unchecked.hands_unknown),
                           from_unknown={k: list(v) for k, v in self.unchecked.from_unknown.items()}))


def names(rs: Ruleset, cards: Sequence[Card]) -> list[str]:
    """Card names, ``??`` for a card the record does not know."""
    deck_names = rs.deck.names
    return [HIDDEN if c == UNKNOWN else deck_names[c] for c in cards]
