"""One round as a table keeps it: who plays it, the deal, each move with the state before it, what followed.

The table's memory of a round (:class:`RoundLog`) is also what its record is written from, what its
record digest is extended with, and what a snapshot copies (states are immutable and shared).  A move
is only appended when played; its record entry and the digest over it are made when first asked for
(:meth:`RoundLog.move_entries`, :meth:`RoundLog.digest_hash`), so random play pays for neither.
"""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.frozen import replace
from loba_dsl.game import outcome as scoring
from loba_dsl.game import partial
from loba_dsl.game.moves import HIDDEN, UNKNOWN, Move
from loba_dsl.game.record import piece
from loba_dsl.game.state import RoundState
from loba_dsl.rules.model import Ruleset

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass, field
    from typing import Any
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)


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
    """The record entries of the first ``len(entries)`` moves (made once, when first asked for:
    :meth:`move_entries`)."""
    hashes: list[tuple[int, Any]] = field(default_factory=list)
    """The record digest's hash after the deal (``(0, hash)``, first) and after later moves, each with the
    number of moves it has read; a hash is never changed once made (:meth:`digest_hash` extends a copy)."""
    reentries: list[tuple[str, bool]] = field(default_factory=list)
    """The re-entry decisions made right after this round: (player, accepted)."""
    shown: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    """Hands shown at the end of the round where the record did not know them (a hand-dealt game)."""
    unchecked: partial.Unchecked | None = None
    """What the record leaves unknown (``None``: every card of the round is known)."""
    result: scoring.RoundResult | None = None

    def move_entries(self, rs: Ruleset) -> list[dict[str, Any]]:
        """Every move's record entry, in order (the list kept: do not change it)."""
        entries, moves = self.entries, self.moves
        for move in moves[len(entries):]:
            entries.append(move.to_dict(rs))
        return entries

    def digest_hash(self, rs: Ruleset) -> Any:
        """The record digest's hash after the deal and every move so far (kept: copy it to extend it)."""
        done, h = self.hashes[-1]
        n = len(self.moves)
        if done == n:
            return h
        read = b",".join(piece(e) for e in self.move_entries(rs)[done:n])
        h = h.copy()
        h.update(b"," + read if done else read)
        self.hashes.append((n, h))
        return h

    def take_back(self) -> Move:
        """Forget the last move (its state, entry and the hashes that read it); the move."""
        move = self.moves.pop()
        self.states.pop()
        n = len(self.moves)
        del self.entries[n:]
        while self.hashes[-1][0] > n:
            self.hashes.pop()
        return move

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
