"""The state of one round at the table: immutable, so a move makes a new state.

Hands, the stock (top first), the discard pile (top first), the melds on the
table with their owners and what each card stands for, whose turn it is and
in which phase, who has opened, and what the current turn has done so far
(the turn rules ask: where the player drew from, which melds they put down).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from loba_dsl.cards.deck import Card
from loba_dsl.frozen import field_names, init_fields
from loba_dsl.frozen import replace as dataclass_replace

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass, field
    from typing import Any, TypeVar

    T = TypeVar("T")
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)


class Phase(StrEnum):
    """Where a turn is: the player must draw, then may play and must (or may) discard."""

    DRAW = "draw"
    PLAY = "play"
    OVER = "over"
    """The round has ended."""


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its number (from 1), owner, kind and each position's card and role."""

    number: int
    owner: int
    """Seat index of the player who put it down."""
    kind: str
    cards: tuple[Card, ...]
    """The physical cards, in meld order (a run low to high)."""
    stands: tuple[Card, ...]
    """The card each position stands for."""
    wild: tuple[bool, ...]
    """Whether the card at each position is used as a wild."""
    run: bool


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """What the player to move has done this turn (reset when the turn passes)."""

    drew: str | None = None
    """``stock``, ``discard``, or ``None`` before the draw."""
    pile_card: Card | None = None
    """The top card of the pile taken this turn (``None``: drew from the stock)."""
    pile_taken: int = 0
    """How many cards the pile draw took."""
    pile_size: int = 0
    """How many cards the discard pile held when the player drew from it (``turn.rediscard_single``)."""
    pile_card_used: bool = False
    laid: tuple[int, ...] = ()
    """Numbers of the melds this player put down this turn."""
    laid_off: bool = False
    """Whether this player laid off onto a meld of an earlier turn."""
    jokers_owed: tuple[Card, ...] = ()
    """Jokers taken back by replacement this turn and not yet put down again."""


@dataclass(frozen=True, slots=True)
class RoundState:
    """One round: everything a referee needs to judge the next move."""

    players: tuple[str, ...]
    dealer: int
    round_number: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    pile: tuple[Card, ...]
    melds: tuple[TableMeld, ...] = ()
    turn: int = 0
    phase: Phase = Phase.DRAW
    ply: int = 0
    """Moves applied so far in this round (reshuffle entries included)."""
    opened: frozenset[int] = frozenset()
    """Seats that completed a first lay-down in an earlier turn."""
    laid_before: frozenset[int] = frozenset()
    """Seats that put something down (a meld or a lay-off) in an earlier turn."""
    info: TurnInfo = field(default_factory=TurnInfo)
    went_out: int | None = None
    stock_out: bool = False
    all_at_once: bool = False

    @property
    def to_move(self) -> str | None:
        return None if self.phase is Phase.OVER else self.players[self.turn]

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def all_cards(self) -> list[Card]:
        """Every card of the round, wherever it is (for conservation checks)."""
        out = [c for h in self.hands for c in h]
        out.extend(self.stock)
        out.extend(self.pile)
        for m in self.melds:
            out.extend(m.cards)
        return out


_FIELDS: dict[type, tuple[str, ...]] = {cls: field_names(cls)
                                        for cls in (RoundState, TurnInfo, TableMeld)}


def _replacer(cls: type) -> Callable[..., Any]:
    """A ``replace`` for ``cls``, unrolled over its fields: each field set once, from the change or the old
    value (compiled from the field names alone, as :mod:`dataclasses` compiles ``__init__``)."""
    names = _FIELDS[cls]
    # each field set through its slot's own descriptor (what ``object.__setattr__`` finds by the name, found once)
    text = (f"def replace_{cls.__name__}(obj, /, *, {', '.join(f'{n}=_KEEP' for n in names)}):\n"
            "    new = _new(_cls)\n"
            + "".join(f"    _set_{n}(new, obj.{n} if {n} is _KEEP else {n})\n" for n in names)
            + "    return new\n")
    scope: dict[str, Any] = {"_KEEP": object(), "_new": object.__new__, "_cls": cls,
                             **{f"_set_{n}": cls.__dict__[n].__set__ for n in names}}
    exec(compile(text, f"<replace {cls.__name__}>", "exec"), scope)  # the field names only, never input
    function: Callable[..., Any] = scope[f"replace_{cls.__name__}"]
    return function


_REPLACERS = {cls: _replacer(cls) for cls in _FIELDS}


def slot_init(cls: type[T]) -> type[T]:
    """A frozen dataclass with slots whose ``__init__`` sets each slot through its own descriptor, found once,
    where the standard one asks ``object.__setattr__`` to find it by name per field: what
    :mod:`loba_dsl.frozen` writes for every class with slots it builds (this checks the class is one).  For the
    values the referee makes per move."""
    if init_fields(cls) is None or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__qualname__} is not a class with slots built by loba_dsl.frozen")
    return cls


for _cls in (RoundState, TurnInfo, TableMeld):
    slot_init(_cls)

next_state: Callable[..., RoundState] = _REPLACERS[RoundState]
"""``replace`` of a :class:`RoundState` (``next_state(s, ply=s.ply + 1)``), without the look-up by type: the
referee's per-move calls."""


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace`` for the states of this module, without its per-call field walk (the referee
    makes a new state per move, and random play makes hundreds of thousands); other values go to it.
    A name that is no field of the state is a ``TypeError``, as there."""
    replacer = _REPLACERS.get(type(obj))
    if replacer is None:
        return dataclass_replace(obj, **changes)
    new: T = replacer(obj, **changes)
    return new
