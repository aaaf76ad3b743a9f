"""The names of the ruleset language, declared once: what each means, its type and how it is read.

Three scopes hold names, and one table holds the functions:

- :data:`ROUND`: what a round formula (``scoring.round``, ``match.instant_win``) may name;
- :data:`MELD`: what a ``melds where ...`` filter may name besides the round's names (and any meld
  kind's name, a condition true of melds of that kind);
- :data:`CARD`: what the value side of a value-table line may name;
- :data:`FUNCTIONS`: ``count``, ``max``, ``min``, ``abs``; any value table is also a function of a
  list (:data:`TABLE_FUNCTION`).

The type checker (:mod:`loba_dsl.dsl.typecheck`), the evaluator (:mod:`loba_dsl.dsl.evaluate`), the
canonical forms (:mod:`loba_dsl.dsl.canon`), the solver's objective, the value tables and the README's
reference of names (:func:`reference_markdown`) all read these declarations: a new round variable is
added here, with its default, and in :func:`round_facts`.

>>> ROUND["went_out"].type, MELD["suits"].type, CARD["face"].type
('bool', 'int', 'int')
>>> sorted(INT_NAMES)
['naturals', 'players', 'round', 'size', 'suits', 'wilds']
>>> round_facts(players=3)["players"], round_facts()["went_out"]
(3, False)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence

from loba_dsl.cards.deck import Card, Deck

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from typing import Literal, Protocol, TypeAlias

    Type: TypeAlias = Literal["int", "bool", "cards", "melds"]
    """The value types of the language: numbers, conditions, the hand and the melds on a table."""
    Scalar: TypeAlias = Literal["int", "bool"]
    Params: TypeAlias = Literal["numbers", "number", "list"]
else:
    from loba_dsl.frozen import dataclass  # cheaper at import (issue 11)

    Protocol = object  # at run time a plain base class: a protocol is read by type checkers only


Value = int | bool
"""What a formula evaluates to."""



class MeldFacts(Protocol):
    """What a formula can ask of one meld on the table (read through :data:`MELD`'s ``field``)."""

    @property
    def kind(self) -> str: ...

    @property
    def shape(self) -> str: ...

    @property
    def size(self) -> int: ...

    @property
    def suits(self) -> int: ...

    @property
    def wilds(self) -> int: ...

    @property
    def naturals(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Name:
    """A name of the language: its type, what it means, and (round scalars) its default."""

    name: str
    type: Type
    doc: str
    default: Value | None = None
    """The value a round fact takes when nobody says (scalar round variables only)."""


@dataclass(frozen=True, slots=True)
class MeldName:
    """A name inside ``melds where ...``, read from the meld's :class:`MeldFacts` ``field``."""

    name: str
    type: Scalar
    doc: str
    field: str
    read: Callable[[MeldFacts], Value]


@dataclass(frozen=True, slots=True)
class CardName:
    """A name on the value side of a value-table line.

    ``read(deck, card, stands)`` gives the value for a card (``stands``: the rank index it stands for in
    a meld, ``None`` in hand), or ``None`` where it has none; ``missing`` then says why.
    """

    name: str
    type: Scalar
    doc: str
    read: Callable[[Deck, Card, int | None], int | None]
    missing: str




@dataclass(frozen=True, slots=True)
class Function:
    """A function of the language.

    ``params``: ``numbers`` (one or more numbers), ``number`` (exactly one), or ``list`` (the hand or the
    melds, the melds optionally filtered with ``where``).  ``apply`` computes a numeric function from
    its arguments' values (``None`` for functions of a list, which the evaluator folds itself).
    """

    name: str
    signature: str
    params: Params
    doc: str
    apply: Callable[[Sequence[int]], int] | None = None


# ---------------------------------------------------------------- the declarations

_ROUND = (
    Name("hand", "cards", "the cards left in the player's hand"),
    Name("melds", "melds", "the melds on the player's table, each read the best way"),
    Name("went_out", "bool", "the player went out this round", False),
    Name("all_at_once", "bool", "the player went out laying down every card in one turn", False),
    Name("stock_out", "bool", "the round ended because the stock ran out", False),
    Name("players", "int", "the number of players at the table", 4),
    Name("round", "int", "the round's number in the match, from 1", 1),
)
ROUND: Mapping[str, Name] = {n.name: n for n in _ROUND}
"""What a round formula may name, besides functions and value tables."""


def _is(shape: str) -> Callable[[MeldFacts], Value]:
    return lambda meld: meld.shape == shape


_MELD = (
    MeldName("size", "int", "how many cards the meld has", "size", operator.attrgetter("size")),
    MeldName("suits", "int", "how many different suits its cards stand for", "suits", operator.attrgetter("suits")),
    MeldName("wilds", "int", "how many of its cards are played as wilds", "wilds", operator.attrgetter("wilds")),
    MeldName("naturals", "int", "how many of its cards are played as themselves", "naturals",
             operator.attrgetter("naturals")),
    MeldName("set", "bool", "the meld's kind is a set (cards of one rank)", "shape", _is("set")),
    MeldName("run", "bool", "the meld's kind is a run (a sequence in one suit)", "shape", _is("run")),
)
MELD: Mapping[str, MeldName] = {n.name: n for n in _MELD}
"""What a ``melds where ...`` filter may name, besides meld kinds and the round's names."""

KIND_NAME_DOC = "any meld kind's name (`pierna`): the meld is of that kind"
"""Meld kinds are names in a filter too (a condition, read from the meld's ``kind``)."""


def _face(deck: Deck, card: Card, stands: int | None) -> int | None:
    return None if card == deck.joker_code else deck.ranks[deck.rank_of(card)].face


def _stands_face(deck: Deck, card: Card, stands: int | None) -> int | None:
    return _face(deck, card, stands) if stands is None else deck.ranks[stands].face


_CARD = (
    CardName("face", "int", "the number on the card (its rank's `face` in `deck.ranks`)", _face,
             "a Joker has no face value"),
    CardName("stands_face", "int", "the face of the card a wild stands for in a meld (its own face in hand)",
             _stands_face, "a Joker in hand stands for nothing"),
)
CARD: Mapping[str, CardName] = {n.name: n for n in _CARD}
"""What the value side of a value-table line may name."""


def _abs(values: Sequence[int]) -> int:
    return abs(values[0])


_FUNCTIONS = (
    Function("count", "count(list)", "list", "how many cards in the hand, or melds (`count(melds where run)`)"),
    Function("max", "max(n, ...)", "numbers", "the largest of its numbers", max),
    Function("min", "min(n, ...)", "numbers", "the smallest of its numbers", min),
    Function("abs", "abs(n)", "number", "the number without its sign", _abs),
)
FUNCTIONS: Mapping[str, Function] = {f.name: f for f in _FUNCTIONS}
"""The functions of the language, besides value tables."""

TABLE_FUNCTION = Function(
    "table", "table(list)", "list",
    "any value table, applied to the hand (`penalty(hand)`: the sum of its cards' values) or to the melds "
    "(the sum of their cards' values, each meld read the best way)")
"""What every value table is, as a function."""

INT_NAMES: frozenset[str] = frozenset(
    [n.name for n in _ROUND if n.type == "int"] + [n.name for n in _MELD if n.type == "int"])
"""Names that are numbers; every other scalar name is a condition (went_out, a meld kind, set, run...)."""

ROUND_SCALARS: tuple[str, ...] = tuple(n.name for n in _ROUND if n.type in ("int", "bool"))
"""The round's facts: the round variables that are a number or a condition."""


def round_facts(*, went_out: bool = False, all_at_once: bool = False, stock_out: bool = False,
                players: int = 4, round: int = 1) -> dict[str, Value]:
    """The values of the round's scalar variables (:data:`ROUND_SCALARS`), by name."""
    return {"went_out": went_out, "all_at_once": all_at_once, "stock_out": stock_out, "players": players,
            "round": round}


def function(name: str, tables: Sequence[str] | frozenset[str] | Mapping[str, object]) -> Function | None:
    """The function ``name`` means in a ruleset with these value tables, or ``None``."""
    if name in FUNCTIONS:
        return FUNCTIONS[name]
    return TABLE_FUNCTION if name in tables else None


def meld_reader(name: str) -> Callable[[MeldFacts], Value] | None:
    """How ``name`` inside ``melds where ...`` reads a meld; ``None`` where it names a round variable.

    A meld attribute reads the meld; any other name is a meld kind's name, true of melds of that kind
    (an unknown kind is rejected when the ruleset loads).
    """
    if name in ROUND:
        return None
    attr = MELD.get(name)
    if attr is not None:
        return attr.read
    return lambda meld: meld.kind == name


# ---------------------------------------------------------------- the README's reference


def reference_markdown() -> str:
    """The reference of names, as the README shows it (between its ``names`` markers)."""
    lines = ["| name | type | meaning |", "|---|---|---|"]

    def row(name: str, type_: str, doc: str) -> None:
        lines.append(f"| `{name}` | {type_} | {doc} |")

    kinds = {"int": "number", "bool": "condition", "cards": "list of cards", "melds": "list of melds"}
    out = ["Round variables (`scoring.round`, `match.instant_win`):", ""]
    for n in _ROUND:
        row(n.name, kinds[n.type], n.doc + ("" if n.default is None else f" (default `{_show(n.default)}`)"))
    out += [*lines, "", "Meld attributes (inside `melds where ...`, besides the round variables):", ""]
    lines = ["| name | type | meaning |", "|---|---|---|"]
    for m in _MELD:
        row(m.name, kinds[m.type], m.doc)
    row("<kind>", "condition", KIND_NAME_DOC)
    out += [*lines, "", "Card variables (the value side of a value-table line):", ""]
    lines = ["| name | type | meaning |", "|---|---|---|"]
    for c in _CARD:
        row(c.name, kinds[c.type], c.doc)
    out += [*lines, "", "Functions (`where` filters the melds of a list function):", ""]
    lines = ["| function | takes | meaning |", "|---|---|---|"]
    takes = {"numbers": "numbers", "number": "a number", "list": "`hand` or `melds`"}
    for f in (*_FUNCTIONS, TABLE_FUNCTION):
        row(f.signature, takes[f.params], f.doc)
    out += lines
    return "\n".join(out) + "\n"


def _show(value: Value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
