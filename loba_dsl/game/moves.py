"""The moves of a round, as the game record writes them (``loba-record/1``).

A move is a frozen value: who plays it, the operation, and its cards as card
codes of the ruleset's deck.  :func:`move_from_dict` reads the record's JSON
form (card names), :meth:`Move.to_dict` writes it back; :mod:`loba_dsl.game.notation`
reads and writes one line of text per move (``Beto melds 7♠ 7♥ 7♦``).  A
``reshuffle`` entry has no player: the dealer turning the discard pile into a
new stock.

A move may also be written with card *names* (``Discard("Beto", "K♦")``):
:func:`resolve` (which :class:`~loba_dsl.game.table.Table` calls on every move
it is given) turns the names into codes of its ruleset, and a name that is no
card of that deck is an :class:`InvalidMove`, never a ``TypeError``.  Moves
the library makes (listed legal moves, parsed lines, read records) know their
deck, so their ``repr`` names the cards: ``Discard('Beto', 'K♦')``, which is
also a move :class:`~loba_dsl.game.table.Table` accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.errors import InputError
from loba_dsl.frozen import replace

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass, field
    from typing import Any, Literal, TypeAlias

    from loba_dsl.rules.model import Ruleset
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)

if TYPE_CHECKING:
    Source: TypeAlias = Literal["stock", "discard"]
    End: TypeAlias = Literal["low", "high"]
OPS = ("draw", "meld", "lay_off", "replace_joker", "move_wild", "discard", "reshuffle")
UNKNOWN: Card = -1
"""A card the record does not know (a hidden hand's card, an unknown stock's card), written ``??``."""
HIDDEN = "??"


def _card_repr(deck: Deck | None, card: object) -> str:
    if deck is not None and isinstance(card, int) and not isinstance(card, bool):
        return repr(HIDDEN if card == UNKNOWN else deck.names[card]) if -1 <= card < deck.n_codes else repr(card)
    return repr(card)


def _cards_repr(deck: Deck | None, cards: object) -> str:
    if isinstance(cards, (tuple, list)):
        inner = ", ".join(_card_repr(deck, c) for c in cards)
        return f"({inner},)" if len(cards) == 1 else f"({inner})"
    return repr(cards)


@dataclass(frozen=True, slots=True, repr=False)
class Draw:
    """A draw of the player to move: from the stock or from the discard pile."""

    player: str
    source: Source
    card: Card | None = None
    """The card a stock draw took, where the record states it (a hand-dealt game; a player's own view)."""
    deck: Deck | None = field(default=None, compare=False, kw_only=True)
    """The deck the cards belong to (for the ``repr`` only; moves the library makes carry it)."""

    op = "draw"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "op": "draw", "from": self.source}
        if self.card is not None and self.card != UNKNOWN:
            out["card"] = rs.deck.name(self.card)
        return out

    def __repr__(self) -> str:
        card = f", {_card_repr(self.deck, self.card)}" if self.card is not None else ""
        return f"Draw({self.player!r}, {self.source!r}{card})"


@dataclass(frozen=True, slots=True, repr=False)
class Meld:
    """Cards of the hand put down as a new meld on the table."""

    player: str
    cards: tuple[Card, ...]
    as_: tuple[Card, ...] | None = None
    """What each wild-capable card of ``cards`` stands for, in order (itself: natural)."""
    deck: Deck | None = field(default=None, compare=False, kw_only=True)

    op = "meld"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "op": "meld", "cards": rs.deck.names_of(self.cards)}
        if self.as_ is not None:
            out["as"] = rs.deck.names_of(self.as_)
        return out

    def __repr__(self) -> str:
        as_ = f", as_={_cards_repr(self.deck, self.as_)}" if self.as_ is not None else ""
        return f"Meld({self.player!r}, {_cards_repr(self.deck, self.cards)}{as_})"


@dataclass(frozen=True, slots=True, repr=False)
class LayOff:
    """Cards of the hand added to a meld already on the table."""

    player: str
    meld: int
    """The meld's number on the table, from 1, in the order melds were put down."""
    cards: tuple[Card, ...]
    as_: tuple[Card, ...] | None = None
    deck: Deck | None = field(default=None, compare=False, kw_only=True)

    op = "lay_off"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "op": "lay_off", "meld": self.meld,
                               "cards": rs.deck.names_of(self.cards)}
        if self.as_ is not None:
            out["as"] = rs.deck.names_of(self.as_)
        return out

    def __repr__(self) -> str:
        as_ = f", as_={_cards_repr(self.deck, self.as_)}" if self.as_ is not None else ""
        return f"LayOff({self.player!r}, {self.meld!r}, {_cards_repr(self.deck, self.cards)}{as_})"


@dataclass(frozen=True, slots=True, repr=False)
class ReplaceJoker:
    """A wild on the table replaced by the natural card it stands for, the wild taken into the hand."""

    player: str
    meld: int
    card: Card
    """The natural card put in the wild's place; the wild goes to the hand."""
    deck: Deck | None = field(default=None, compare=False, kw_only=True)

    op = "replace_joker"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        return {"player": self.player, "op": "replace_joker", "meld": self.meld, "card": rs.deck.name(self.card)}

    def __repr__(self) -> str:
        return f"ReplaceJoker({self.player!r}, {self.meld!r}, {_card_repr(self.deck, self.card)})"


@dataclass(frozen=True, slots=True, repr=False)
class MoveWild:
    """The wild at one end of a run on the table moved to its other end."""

    player: str
    meld: int
    to: End
    deck: Deck | None = field(default=None, compare=False, kw_only=True)

    op = "move_wild"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        return {"player": self.player, "op": "move_wild", "meld": self.meld, "to": self.to}

    def __repr__(self) -> str:
        return f"MoveWild({self.player!r}, {self.meld!r}, {self.to!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Discard:
    """The card that ends the turn, put on the discard pile."""

    player: str
    card: Card
    deck: Deck | None = field(default=None, compare=False, kw_only=True)

    op = "discard"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        return {"player": self.player, "op": "discard", "card": rs.deck.name(self.card)}

    def __repr__(self) -> str:
        return f"Discard({self.player!r}, {_card_repr(self.deck, self.card)})"


@dataclass(frozen=True, slots=True, repr=False)
class Reshuffle:
    """The dealer's entry: the discard pile but its top card becomes the stock (top first).

    ``stock`` is ``None`` where the record does not know the new stock's order (a hand-dealt game).
    """

    stock: tuple[Card, ...] | None
    player: None = None
    deck: Deck | None = field(default=None, compare=False, kw_only=True)

    op = "reshuffle"

    def to_dict(self, rs: Ruleset) -> dict[str, Any]:
        return {"op": "reshuffle", "stock": None if self.stock is None else rs.deck.names_of(self.stock)}

    def __repr__(self) -> str:
        return f"Reshuffle({_cards_repr(self.deck, self.stock)})"


Move = Draw | Meld | LayOff | ReplaceJoker | MoveWild | Discard | Reshuffle
MOVE_TYPES = (Draw, Meld, LayOff, ReplaceJoker, MoveWild, Discard, Reshuffle)


class RecordError(InputError):
    """A record (or one entry of it) that cannot be read: not a rules question."""

    code = "record"


class InvalidMove(InputError):
    """A move that cannot be read: a card that is no card of the deck, a line that is no move.

    Not a rules question (that is :class:`~loba_dsl.game.referee.IllegalMove`).
    """

    code = "invalid-move"


def _bad_in_name(ch: str) -> bool:
    """A control character (C0, DEL, C1) or a lone surrogate."""
    return ch < "\x20" or "\x7f" <= ch <= "\x9f" or "\ud800" <= ch <= "\udfff"


def check_player_name(name: object, where: str = "player") -> str:
    """A player's name: non-empty printable text (no control character, no lone surrogate, no outer space)."""
    if not isinstance(name, str) or not name or name != name.strip():
        raise RecordError(f"{where}: a player's name is non-empty text without leading or trailing spaces, "
                          f"not {name!r}")
    if not name.isprintable() and any(map(_bad_in_name, name)):  # every such character is unprintable
        raise RecordError(f"{where}: a player's name may not hold control characters or unpaired surrogates "
                          f"({name!a})")
    if len(name) > 64:
        raise RecordError(f"{where}: a player's name is at most 64 characters ({len(name)} given)")
    return name


def card_of(rs: Ruleset, name: object, where: str, *, unknown: bool = False) -> Card:
    """One card name of the record as a card code (``??`` as :data:`UNKNOWN` where ``unknown`` allows it)."""
    if not isinstance(name, str):
        raise RecordError(f"{where}: a card must be a string, not {name!r}")
    if name == HIDDEN:
        if unknown:
            return UNKNOWN
        raise RecordError(f"{where}: an unknown card '??' cannot stand here (a card that is played is named)")
    codes = rs.notation().parse_codes(name)
    if len(codes) != 1:
        raise RecordError(f"{where}: '{name}' is not one card of {rs.name}'s deck")
    return codes[0]


def cards_of(rs: Ruleset, names: object, where: str, *, unknown: bool = False) -> tuple[Card, ...]:
    if not isinstance(names, list):
        raise RecordError(f"{where}: expected a list of cards, not {names!r}")
    return tuple(card_of(rs, n, f"{where}[{i}]", unknown=unknown) for i, n in enumerate(names))


def _int(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{where}: expected a whole number, not {value!r}")
    return value


def move_from_dict(rs: Ruleset, d: Mapping[str, Any], players: Sequence[str], where: str = "move") -> Move:
    """Read one entry of a round's ``moves``; a malformed entry raises :class:`RecordError`."""
    if not isinstance(d, Mapping):
        raise RecordError(f"{where}: a move must be an object, not {d!r}")
    op = d.get("op")
    deck = rs.deck
    if op not in OPS:
        raise RecordError(f"{where}: unknown op {op!r} (one of {', '.join(OPS)})")
    if op == "reshuffle":
        raw = d.get("stock")
        return Reshuffle(None if raw is None else cards_of(rs, raw, f"{where}.stock"), deck=deck)
    player = d.get("player")
    if not isinstance(player, str) or player not in players:
        raise RecordError(f"{where}: player {player!r} is not one of the record's players ({', '.join(players)})")
    as_ = cards_of(rs, d["as"], f"{where}.as") if "as" in d and d["as"] is not None else None
    if op == "draw":
        source = d.get("from")
        if source not in ("stock", "discard"):
            raise RecordError(f"{where}: a draw is 'from' 'stock' or 'discard', not {source!r}")
        if source == "stock":
            card = d.get("card")
            return Draw(player, "stock", None if card is None else card_of(rs, card, f"{where}.card"), deck=deck)
        return Draw(player, "discard", deck=deck)
    if op == "meld":
        return Meld(player, cards_of(rs, d.get("cards"), f"{where}.cards"), as_, deck=deck)
    if op == "lay_off":
        return LayOff(player, _int(d.get("meld"), f"{where}.meld"), cards_of(rs, d.get("cards"), f"{where}.cards"),
                      as_, deck=deck)
    if op == "replace_joker":
        return ReplaceJoker(player, _int(d.get("meld"), f"{where}.meld"), card_of(rs, d.get("card"), f"{where}.card"),
                            deck=deck)
    if op == "move_wild":
        to = d.get("to")
        if to not in ("low", "high"):
            raise RecordError(f"{where}: move_wild goes 'to' 'low' or 'high', not {to!r}")
        return MoveWild(player, _int(d.get("meld"), f"{where}.meld"), "low" if to == "low" else "high", deck=deck)
    return Discard(player, card_of(rs, d.get("card"), f"{where}.card"), deck=deck)


# ---------------------------------------------------------------- names or codes


def card_code(rs: Ruleset, card: object, what: str) -> Card:
    """A card given by name (``"K♦"``) or code, as a code of ``rs``'s deck; anything else is an :class:`InvalidMove`."""
    deck = rs.deck
    if isinstance(card, int) and not isinstance(card, bool):
        if 0 <= card < deck.n_codes and deck.limit(card) > 0:
            return card
        raise InvalidMove(f"{what}: {card} is not a card code of {rs.name}'s deck (0 to {deck.n_codes - 1}, "
                          "or a card name such as 'K♦')")
    if isinstance(card, str):
        try:
            codes = rs.notation().parse_codes(card)
        except InputError:
            codes = ()
        if len(codes) == 1:
            return codes[0]
        raise InvalidMove(f"{what}: '{card}' is not one card of {rs.name}'s deck")
    raise InvalidMove(f"{what}: a card is a card name ('K♦') or a card code, not {card!r}")


def _many(rs: Ruleset, cards: object, what: str) -> tuple[Card, ...]:
    if isinstance(cards, str):  # "7♠ 7♥ 7♦"
        try:
            return rs.notation().parse_codes(cards)
        except InputError as e:
            raise InvalidMove(f"{what}: {e.message}") from None
    if not isinstance(cards, (tuple, list)):
        raise InvalidMove(f"{what}: cards are a sequence of card names or codes, not {cards!r}")
    return tuple(card_code(rs, c, what) for c in cards)


def _is_code(rs: Ruleset, card: object) -> bool:
    return type(card) is int and 0 <= card < rs.deck.n_codes


def resolve(rs: Ruleset, move: object) -> Move:
    """``move`` with every card a code of ``rs``'s deck: names (``"K♦"``, ``"7♠ 7♥ 7♦"``) are read, and a
    card that is not of this deck, or a value that is no move, is an :class:`InvalidMove`."""
    if not isinstance(move, MOVE_TYPES):
        raise InvalidMove(f"not a move: {move!r}")
    if not isinstance(move.player, (str, type(None))):
        raise InvalidMove(f"a move's player is a name, not {move.player!r}")
    what = f"{move.op} by {move.player}" if move.player else move.op
    if isinstance(move, (Discard, ReplaceJoker)):
        if _is_code(rs, move.card):
            return move
        return replace(move, card=card_code(rs, move.card, what), deck=rs.deck)
    if isinstance(move, Draw):
        if move.source not in ("stock", "discard"):
            raise InvalidMove(f"{what}: a draw is from 'stock' or 'discard', not {move.source!r}")
        if move.card is None or _is_code(rs, move.card):
            return move
        return replace(move, card=card_code(rs, move.card, what), deck=rs.deck)
    if isinstance(move, (Meld, LayOff)):
        if isinstance(move, LayOff) and (not isinstance(move.meld, int) or isinstance(move.meld, bool)):
            raise InvalidMove(f"{what}: the meld is given by its number on the table, not {move.meld!r}")
        cards_ok = isinstance(move.cards, tuple) and all(_is_code(rs, c) for c in move.cards)
        as_ok = move.as_ is None or (isinstance(move.as_, tuple) and all(_is_code(rs, c) for c in move.as_))
        if cards_ok and as_ok:
            return move
        return replace(move, cards=_many(rs, move.cards, what),
                       as_=None if move.as_ is None else _many(rs, move.as_, what), deck=rs.deck)
    if isinstance(move, MoveWild):
        if move.to not in ("low", "high") or not isinstance(move.meld, int) or isinstance(move.meld, bool):
            raise InvalidMove(f"{what}: a wild moves on a meld number 'to' 'low' or 'high'")
        return move
    if move.stock is None or (isinstance(move.stock, tuple) and all(_is_code(rs, c) for c in move.stock)):
        return move
    return replace(move, stock=_many(rs, move.stock, what), deck=rs.deck)


def with_deck(move: Move, deck: Deck) -> Move:
    """``move`` knowing its deck (for a readable ``repr``); equal to ``move``."""
    return move if move.deck is deck else replace(move, deck=deck)


def cards_played(move: Move) -> tuple[Card, ...]:
    """The cards a move takes from the player's hand."""
    if isinstance(move, (Meld, LayOff)):
        return move.cards
    if isinstance(move, (Discard, ReplaceJoker)):
        return (move.card,)
    return ()
