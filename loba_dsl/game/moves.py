"""The moves of a round, as the game record writes them (``loba-record/1``).

A move is a frozen value: who plays it, the operation, and its cards as card
codes of the ruleset's deck.  :func:`move_from_dict` reads the record's JSON
form (card names), :meth:`Move.to_dict` writes it back.  A ``reshuffle`` entry
has no player: the dealer turning the discard pile into a new stock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from loba_dsl.cards.deck import Card
from loba_dsl.errors import InputError

if TYPE_CHECKING:
    from loba_dsl.rules.model import Ruleset

Source = Literal["stock", "discard"]
End = Literal["low", "high"]
OPS = ("draw", "meld", "lay_off", "replace_joker", "move_wild", "discard", "reshuffle")


@dataclass(frozen=True, slots=True)
class Draw:
    player: str
    source: Source

    op = "draw"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        return {"player": self.player, "op": "draw", "from": self.source}


@dataclass(frozen=True, slots=True)
class Meld:
    player: str
    cards: tuple[Card, ...]
    as_: tuple[Card, ...] | None = None
    """What each wild-capable card of ``cards`` stands for, in order (itself: natural)."""

    op = "meld"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "op": "meld", "cards": rs.deck.names_of(self.cards)}
        if self.as_ is not None:
            out["as"] = rs.deck.names_of(self.as_)
        return out


@dataclass(frozen=True, slots=True)
class LayOff:
    player: str
    meld: int
    """The meld's number on the table, from 1, in the order melds were put down."""
    cards: tuple[Card, ...]
    as_: tuple[Card, ...] | None = None

    op = "lay_off"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "op": "lay_off", "meld": self.meld,
                               "cards": rs.deck.names_of(self.cards)}
        if self.as_ is not None:
            out["as"] = rs.deck.names_of(self.as_)
        return out


@dataclass(frozen=True, slots=True)
class ReplaceJoker:
    player: str
    meld: int
    card: Card
    """The natural card put in the wild's place; the wild goes to the hand."""

    op = "replace_joker"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        return {"player": self.player, "op": "replace_joker", "meld": self.meld, "card": rs.deck.name(self.card)}


@dataclass(frozen=True, slots=True)
class MoveWild:
    player: str
    meld: int
    to: End

    op = "move_wild"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        return {"player": self.player, "op": "move_wild", "meld": self.meld, "to": self.to}


@dataclass(frozen=True, slots=True)
class Discard:
    player: str
    card: Card

    op = "discard"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        return {"player": self.player, "op": "discard", "card": rs.deck.name(self.card)}


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """The dealer's entry: the discard pile but its top card becomes the stock (top first)."""

    stock: tuple[Card, ...]
    player: None = None

    op = "reshuffle"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        return {"op": "reshuffle", "stock": rs.deck.names_of(self.stock)}


Move = Draw | Meld | LayOff | ReplaceJoker | MoveWild | Discard | Reshuffle


class RecordError(InputError):
    """A record (or one entry of it) that cannot be read: not a rules question."""

    code = "record"


def card_of(rs: Ruleset, name: object, where: str) -> Card:
    """One card name of the record as a card code."""
    if not isinstance(name, str):
        raise RecordError(f"{where}: a card must be a string, not {name!r}")
    if name == "??":
        raise RecordError(f"{where}: a hidden card '??' cannot be replayed (this is a player's view)")
    codes = rs.notation().parse_codes(name)
    if len(codes) != 1:
        raise RecordError(f"{where}: '{name}' is not one card of {rs.name}'s deck")
    return codes[0]


def cards_of(rs: Ruleset, names: object, where: str) -> tuple[Card, ...]:
    if not isinstance(names, list):
        raise RecordError(f"{where}: expected a list of cards, not {names!r}")
    return tuple(card_of(rs, n, f"{where}[{i}]") for i, n in enumerate(names))


def _int(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{where}: expected a whole number, not {value!r}")
    return value


def move_from_dict(rs: Ruleset, d: Mapping[str, Any], players: Sequence[str], where: str = "move") -> Move:
    """Read one entry of a round's ``moves``; a malformed entry raises :class:`RecordError`."""
    if not isinstance(d, Mapping):
        raise RecordError(f"{where}: a move must be an object, not {d!r}")
    op = d.get("op")
    if op not in OPS:
        raise RecordError(f"{where}: unknown op {op!r} (one of {', '.join(OPS)})")
    if op == "reshuffle":
        return Reshuffle(cards_of(rs, d.get("stock"), f"{where}.stock"))
    player = d.get("player")
    if not isinstance(player, str) or player not in players:
        raise RecordError(f"{where}: player {player!r} is not one of the record's players ({', '.join(players)})")
    as_ = cards_of(rs, d["as"], f"{where}.as") if "as" in d and d["as"] is not None else None
    if op == "draw":
        source = d.get("from")
        if source not in ("stock", "discard"):
            raise RecordError(f"{where}: a draw is 'from' 'stock' or 'discard', not {source!r}")
        return Draw(player, "stock" if source == "stock" else "discard")
    if op == "meld":
        return Meld(player, cards_of(rs, d.get("cards"), f"{where}.cards"), as_)
    if op == "lay_off":
        return LayOff(player, _int(d.get("meld"), f"{where}.meld"), cards_of(rs, d.get("cards"), f"{where}.cards"),
                      as_)
    if op == "replace_joker":
        return ReplaceJoker(player, _int(d.get("meld"), f"{where}.meld"), card_of(rs, d.get("card"), f"{where}.card"))
    if op == "move_wild":
        to = d.get("to")
        if to not in ("low", "high"):
            raise RecordError(f"{where}: move_wild goes 'to' 'low' or 'high', not {to!r}")
        return MoveWild(player, _int(d.get("meld"), f"{where}.meld"), "low" if to == "low" else "high")
    return Discard(player, card_of(rs, d.get("card"), f"{where}.card"))
