"""Type checks of formulas, at load: every name resolved, every operand of the right type.

Value types (:data:`loba_dsl.dsl.vocabulary.Type`): ``int``, ``bool``, ``cards`` (the hand) and
``melds`` (the melds on a player's table).  What a name means comes from
:mod:`loba_dsl.dsl.vocabulary`; a loaded ruleset therefore never fails on a user's hand for a mistake
of its author.

>>> from loba_dsl.dsl.parser import parse_formula
>>> check_expr(parse_formula("count(melds where run and size >= 4)"), round_scope(["pierna"]), "int")
'int'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from loba_dsl.dsl import ast as A
from loba_dsl.dsl.parser import DSLProblem
from loba_dsl.dsl.vocabulary import CARD, FUNCTIONS, MELD, ROUND, function
from loba_dsl.errors import Said, said, suggest

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass

    from loba_dsl.dsl.vocabulary import Type
else:
    from loba_dsl.frozen import dataclass  # cheaper at import (issue 11)


ROUND_VARIABLES: Mapping[str, Type] = {n.name: n.type for n in ROUND.values()}
"""What a round formula may name, besides functions and value tables (from the vocabulary)."""

MELD_ATTRIBUTES: Mapping[str, Type] = {n.name: n.type for n in MELD.values()}
"""What a ``melds where ...`` filter may name, besides meld kinds (from the vocabulary)."""

CARD_VARIABLES: Mapping[str, Type] = {n.name: n.type for n in CARD.values()}
"""What the value side of a value-table line may name (from the vocabulary)."""


@dataclass(frozen=True, slots=True)
class Scope:
    """The names an expression may use, and their types."""

    variables: Mapping[str, Type]
    tables: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    allow_collections: bool = True


def round_scope(kinds: Iterable[str] = (), tables: Iterable[str] = ()) -> Scope:
    """The scope of a round formula in a ruleset with these meld kinds and value tables."""
    return Scope(ROUND_VARIABLES, tuple(tables), tuple(kinds))


def card_scope() -> Scope:
    """The scope of the value side of a value-table line."""
    return Scope(CARD_VARIABLES, allow_collections=False)


def check_expr(expr: A.Expr, scope: Scope, want: Type | None = None) -> Type:
    """Type-check ``expr``; raise :class:`DSLProblem` at the first mistake."""
    got = _type(expr, scope)
    if want is not None and got != want:
        raise DSLProblem(said("expected {wanted}, but this is {found}", wanted=article(want), found=article(got)),
                         expr.pos)
    return got


def article(t: Type) -> Said:
    """A type in words, for messages."""
    words = {"int": said("a number"), "bool": said("a condition"), "cards": said("a list of cards"),
             "melds": said("a list of melds")}
    return words[t]


def _type(expr: A.Expr, scope: Scope) -> Type:
    match expr:
        case A.Num():
            return "int"
        case A.Bool():
            return "bool"
        case A.Var(name=name, pos=pos):
            if name in scope.variables:
                return scope.variables[name]
            pool = [*scope.variables, *scope.tables, *FUNCTIONS]
            hint = suggest(name, pool)
            if name in scope.tables or name in FUNCTIONS:
                hint = said("'{name}' is a function: write {name}(...)", name=name)
            raise DSLProblem(said("unknown name '{name}'", name=name), pos, hint)
        case A.Neg(value=value):
            check_expr(value, scope, "int")
            return "int"
        case A.Arith(first=first, rest=rest):
            check_expr(first, scope, "int")
            for _, operand in rest:
                check_expr(operand, scope, "int")
            return "int"
        case A.Compare(left=left, right=right):
            check_expr(left, scope, "int")
            check_expr(right, scope, "int")
            return "bool"
        case A.And(items=items) | A.Or(items=items):
            for item in items:
                check_expr(item, scope, "bool")
            return "bool"
        case A.Not(value=value):
            check_expr(value, scope, "bool")
            return "bool"
        case A.Cond(test=test, then=then, otherwise=otherwise):
            check_expr(test, scope, "bool")
            t = check_expr(then, scope)
            check_expr(otherwise, scope, t)
            return t
        case A.Call():
            return _type_call(expr, scope)
    raise AssertionError(expr)  # pragma: no cover


def _type_call(call: A.Call, scope: Scope) -> Type:
    name, args, pos = call.name, call.args, call.pos
    fn = function(name, scope.tables)
    for arg in args:
        if arg.where is not None and (fn is None or fn.params != "list"):
            raise DSLProblem(said("'where' is not allowed in {name}(...)", name=name), arg.where.pos)
    if fn is None:
        pool = [*FUNCTIONS, *scope.tables]
        raise DSLProblem(said("unknown function '{name}'", name=name), pos, suggest(name, pool))
    if fn.params == "numbers":
        if not args:
            raise DSLProblem(said("{name}(...) needs at least one number", name=name), pos)
        for arg in args:
            check_expr(arg.value, scope, "int")
        return "int"
    if fn.params == "number":
        if len(args) != 1:
            raise DSLProblem(said("{name}(...) takes one number", name=name), pos)
        check_expr(args[0].value, scope, "int")
        return "int"
    if len(args) != 1:
        raise DSLProblem(said("{name}(...) takes one list (hand or melds)", name=name), pos)
    arg = args[0]
    coll = check_expr(arg.value, scope)
    if coll not in ("cards", "melds"):
        raise DSLProblem(said("{name}(...) needs the hand or the melds, not {found}", name=name, found=article(coll)),
                         arg.value.pos)
    if arg.where is not None:
        if coll != "melds":
            raise DSLProblem(said("'where' filters the melds, not the hand"), arg.where.pos)
        check_expr(arg.where, _meld_scope(scope), "bool")
    return "int"


def _meld_scope(scope: Scope) -> Scope:
    """Inside ``melds where ...``: the meld's attributes and kinds, besides the outer names."""
    variables: dict[str, Type] = dict(MELD_ATTRIBUTES)
    variables.update({k: "bool" for k in scope.kinds})
    return Scope({**scope.variables, **variables}, scope.tables, scope.kinds)


def free_names(expr: A.Expr) -> set[str]:
    """Every variable name an expression mentions (``where`` filters included)."""
    return {e.name for e in A.walk(expr) if isinstance(e, A.Var)}
