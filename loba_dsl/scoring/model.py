"""What scoring and match play take: plain frozen facts about rounds, with no text format behind them.

A round file, a referee or a service builds these; :mod:`loba_dsl.scoring.rounds`
scores them and :mod:`loba_dsl.scoring.match_play` adds them up into a match.
Cards are codes of the ruleset's deck (:meth:`PlayerRound.from_text` reads them
with the deck's own notation).

A mistake in these inputs (an illegal meld, two players out, more copies of a
card than the deck holds) is a :class:`PartError`: it says *which part* of the
input is wrong by position (:class:`Part`), since the engine knows no file.  A
text layer that knows where each part was written (the score sheets) turns the
part into ``file:line:col``.
"""

from __future__ import annotations

from loba_dsl.cards.deck import Card
from loba_dsl.errors import InputError, Location

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from typing import TypeAlias

    from loba_dsl.rules.model import Ruleset
else:
    from loba_dsl.frozen import dataclass  # built without importing dataclasses (issue 22)

SCHEMA_VERSION = 1
"""The version of the documents that the results' ``to_dict()`` give (``schema_version``)."""


@dataclass(frozen=True)
class PlayerRound:
    """One player's round as it ended: the melds on their table, the cards in hand, whether they went out.

    ``all_at_once``: they went out putting everything down in one turn, having
    put nothing down before in the round (it implies ``went_out``).
    Sequences are stored as tuples, so lists may be passed.
    """

    name: str
    melds: tuple[tuple[Card, ...], ...] = ()
    hand: tuple[Card, ...] = ()
    went_out: bool = False
    all_at_once: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.melds, tuple) or not all(isinstance(m, tuple) for m in self.melds):
            object.__setattr__(self, "melds", tuple(tuple(m) for m in self.melds))
        if not isinstance(self.hand, tuple):
            object.__setattr__(self, "hand", tuple(self.hand))
        if self.all_at_once and not self.went_out:
            object.__setattr__(self, "went_out", True)

    @classmethod
    def from_text(cls, ruleset: Ruleset, name: str, *, melds: str = "", hand: str = "", went_out: bool = False,
                  all_at_once: bool = False, lang: str | None = None) -> PlayerRound:
        """A player's round from card texts in the ruleset's notation; melds are separated by ``|``.

        A bad card raises :class:`~loba_dsl.errors.InputError` at its column in
        ``melds`` (source ``<melds>``) or ``hand`` (source ``<hand>``).
        """
        notation = ruleset.notation(lang)
        laid = tuple(m.cards for m in notation.parse_melds(melds, source="<melds>"))
        return cls(name, laid, notation.parse(hand, source="<hand>").cards, went_out, all_at_once)


@dataclass(frozen=True)
class RoundFacts:
    """What a round formula knows beyond one player's cards."""

    players: int
    """How many play at the table."""
    round: int = 1
    """The round's number in the match, from 1."""
    stock_out: bool = False
    """The stock ran out (where ``turn.stock_exhausted`` ends the round, nobody went out)."""


@dataclass(frozen=True)
class PlayerPoints:
    """One player's round score as written down (a round of a match kept in points only)."""

    name: str
    points: int = 0
    went_out: bool = False


@dataclass(frozen=True)
class MatchRound:
    """One round of a match: every player's cards (scored by the ruleset) or every player's points as written.

    ``number``: the round's number, or ``None`` for "the round after the last
    one played".  The round formula sees ``players`` as the number of players
    listed here.
    """

    players: tuple[PlayerRound, ...] | tuple[PlayerPoints, ...]
    number: int | None = None
    stock_out: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.players, tuple):
            object.__setattr__(self, "players", tuple(self.players))

    @property
    def points_only(self) -> bool:
        return bool(self.players) and all(isinstance(p, PlayerPoints) for p in self.players)


@dataclass(frozen=True)
class Reentry:
    """After a round, an eliminated player re-enters the match (``match.reentry``)."""

    name: str


MatchEvent: TypeAlias = MatchRound | Reentry
"""What a match is made of, in order: rounds, and re-entries right after the round that eliminated someone."""


@dataclass(frozen=True)
class Part:
    """Which part of a round's (or match's) input something is about, by position.

    ``event``: the index of the match event (``None`` in a lone round);
    ``player``: the index of a player in that round; ``meld``: the index of one
    of their melds; ``card``: the index of a card in that meld, or in their hand
    when ``meld`` is ``None``.  ``Part()`` is the round (or match) as a whole.
    """

    event: int | None = None
    player: int | None = None
    meld: int | None = None
    card: int | None = None

    def broader(self) -> Part | None:
        """The part that contains this one (a card's meld, a meld's player...), or ``None`` for the whole."""
        if self.card is not None:
            return Part(self.event, self.player, self.meld)
        if self.meld is not None:
            return Part(self.event, self.player)
        if self.player is not None:
            return Part(self.event)
        if self.event is not None:
            return Part()
        return None


_WHOLE = Part()
"""The whole round or match: no part of it in particular."""


class PartError(InputError):
    """Bad input about one part of a round or match (:class:`Part`); ``location`` is set once a text layer
    knows where that part was written."""

    def __init__(self, message: str, *, part: Part = _WHOLE, hint: str | None = None,
                 location: Location | None = None) -> None:
        super().__init__(message, location=location, hint=hint)
        self.part = part

    def within(self, event: int) -> PartError:
        """The same error, about a part of match event ``event``."""
        p = self.part
        return PartError(self.said or self.message, part=Part(event, p.player, p.meld, p.card),
                         hint=self.hint_said or self.hint, location=self.location)

    def placed(self, location: Location | None) -> PartError:
        """The same error at ``location``."""
        return PartError(self.said or self.message, part=self.part, hint=self.hint_said or self.hint, location=location)
