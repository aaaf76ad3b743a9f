"""The DSL's syntax tree: frozen, hashable, picklable dataclasses.

Every node carries a :class:`Pos` relative to the DSL text it came from
(1-based line and column); the ruleset loader maps it to the YAML file.
"""

from __future__ import annotations

from collections.abc import Iterator

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from typing import Literal, TypeAlias, TypeVar

    AceMode: TypeAlias = Literal["low", "high", "either", "wrap"]
    Counter: TypeAlias = Literal["wilds", "naturals", "suits", "size"]
    _Node = TypeVar("_Node")
else:  # the same classes, built for less at import (issue 11)
    from loba_dsl.frozen import dataclass


@dataclass(frozen=True, slots=True)
class Pos:
    line: int
    column: int
    length: int = 1


NOPOS = Pos(1, 1, 1)


@dataclass(frozen=True, slots=True)
class Word:
    """A name or number as written: a rank, suit, meld kind, table or variable."""

    text: str
    pos: Pos


# ---------------------------------------------------------------- meld shapes

# AceMode and Counter (the words of ``ace`` and of a limit) are type aliases: see the top of the module.


@dataclass(frozen=True, slots=True)
class SuitsDistinct:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Ace:
    mode: AceMode
    pos: Pos


@dataclass(frozen=True, slots=True)
class NoWilds:
    pos: Pos


@dataclass(frozen=True, slots=True)
class WildsApart:
    pos: Pos


@dataclass(frozen=True, slots=True)
class Limit:
    counter: Counter
    op: str
    value: int
    pos: Pos


Clause = SuitsDistinct | Ace | NoWilds | WildsApart | Limit


@dataclass(frozen=True, slots=True)
class Shape:
    kind: Literal["set", "run"]
    min_size: int
    max_size: int | None
    clauses: tuple[Clause, ...]
    pos: Pos
    """Position of the head (``set 3..4``)."""


# ---------------------------------------------------------------- card predicates


@dataclass(frozen=True, slots=True)
class PAlways:
    pos: Pos


@dataclass(frozen=True, slots=True)
class PWild:
    pos: Pos


@dataclass(frozen=True, slots=True)
class PNatural:
    pos: Pos


@dataclass(frozen=True, slots=True)
class PHigh:
    pos: Pos


@dataclass(frozen=True, slots=True)
class PLow:
    pos: Pos


@dataclass(frozen=True, slots=True)
class PAs:
    """The card stands for one of these ranks."""

    words: tuple[Word, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class PIn:
    """The card is in a meld of this kind (a meld name, or ``set``/``run``)."""

    name: Word
    pos: Pos


@dataclass(frozen=True, slots=True)
class PIs:
    """The card itself is one of these: rank keys, suit keys or the Joker."""

    words: tuple[Word, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class PAnd:
    items: tuple[Pred, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class POr:
    items: tuple[Pred, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class PNot:
    item: Pred
    pos: Pos


Pred = PAlways | PWild | PNatural | PHigh | PLow | PAs | PIn | PIs | PAnd | POr | PNot


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class Num:
    value: int
    pos: Pos


@dataclass(frozen=True, slots=True)
class Bool:
    value: bool
    pos: Pos


@dataclass(frozen=True, slots=True)
class Var:
    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Arg:
    value: Expr
    where: Expr | None


@dataclass(frozen=True, slots=True)
class Call:
    name: str
    args: tuple[Arg, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Neg:
    value: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Arith:
    """``first (op operand)*`` with ``op`` in ``+ - *``, left to right."""

    first: Expr
    rest: tuple[tuple[str, Expr], ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Compare:
    op: str
    left: Expr
    right: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class And:
    items: tuple[Expr, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple[Expr, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Not:
    value: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Cond:
    test: Expr
    then: Expr
    otherwise: Expr
    pos: Pos


Expr = Num | Bool | Var | Call | Neg | Arith | Compare | And | Or | Not | Cond


# ---------------------------------------------------------------- tables and contracts


@dataclass(frozen=True, slots=True)
class Rule:
    """One value-table line: ``condition -> value``."""

    cond: Pred
    value: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class ContractTerm:
    count: int
    kind: Word


@dataclass(frozen=True, slots=True)
class Contract:
    terms: tuple[ContractTerm, ...]
    pos: Pos


def children(e: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of ``e``, in source order (``where`` filters included)."""
    match e:
        case Neg(value=v) | Not(value=v):
            return (v,)
        case Arith(first=first, rest=rest):
            return (first, *(operand for _, operand in rest))
        case Compare(left=left, right=right):
            return (left, right)
        case And(items=items) | Or(items=items):
            return items
        case Cond(test=t, then=a, otherwise=b):
            return (t, a, b)
        case Call(args=args):
            return tuple(x for arg in args for x in (arg.value, arg.where) if x is not None)
        case _:
            return ()


def walk(e: Expr) -> Iterator[Expr]:
    """Every sub-expression of ``e``, itself first, in source order (iterative: no recursion limit)."""
    stack = [e]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))



def without_positions(node: _Node) -> _Node:
    """``node`` with every position set to :data:`NOPOS`: trees that say the same compare equal.

    >>> from loba_dsl.dsl.parser import parse_formula
    >>> without_positions(parse_formula("a + b")) == without_positions(parse_formula("a  +  b"))
    True
    """
    from dataclasses import fields, is_dataclass, replace  # not on the start-up path (issue 22)

    if isinstance(node, Pos):
        return NOPOS  # type: ignore[return-value]
    if isinstance(node, tuple):
        return tuple(without_positions(x) for x in node)  # type: ignore[return-value]
    if is_dataclass(node) and not isinstance(node, type):
        return replace(node, **{f.name: without_positions(getattr(node, f.name)) for f in fields(node)})
    return node
