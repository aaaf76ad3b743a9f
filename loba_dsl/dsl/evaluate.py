"""The one evaluator of formulas: a checked syntax tree compiled once into nested Python closures.

Every concrete evaluation goes through here: the round formula (scoring), ``match.instant_win``, the
value side of value-table lines and the solver's ``melds where ...`` filters.  The tree is walked once
and each node becomes a small function of the environment; evaluating is then a handful of calls.
Nothing is compiled from text (no ``eval``, no ``exec``).  Closures do not pickle, so they are built
per process and cached by the caller (``Ruleset.memo``).

Names are read as :mod:`loba_dsl.dsl.vocabulary` declares them; the symbolic readings of a formula
(:mod:`loba_dsl.dsl.canon`, :mod:`loba_dsl.solver.objective`) must agree with this one, which
``tests/dsl/test_dsl_evaluator.py`` checks on random formulas and rounds.

>>> from loba_dsl.dsl.parser import parse_formula
>>> class Round:
...     def variable(self, name): return {"went_out": False, "hand": (3, 5)}[name]
...     def card_value(self, table, card): return card
...     def card_values(self, table): return list(range(60))
...     def meld_value(self, table, meld): return 0
>>> evaluate(parse_formula("went_out ? 0 : penalty(hand) + count(hand)"), Round())
10
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.vocabulary import FUNCTIONS, Value, meld_reader

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Any, Protocol, TypeAlias

    from loba_dsl.dsl.vocabulary import MeldFacts
else:
    Protocol = object  # at run time a plain base class: a protocol is read by type checkers only


class Env(Protocol):
    """What evaluation needs from the caller: variables and value tables."""

    def variable(self, name: str) -> Value | Sequence[Card] | Sequence[MeldFacts]: ...

    def card_value(self, table: str, card: Card) -> int: ...

    def card_values(self, table: str) -> Sequence[int]:
        """The value of every card code in hand, by a value table."""
        ...

    def meld_value(self, table: str, meld: MeldFacts) -> int: ...


class EvalError(Exception):
    """A formula that cannot be evaluated (a name the caller's environment does not know)."""


_COMPARE: Mapping[str, Callable[[int, int], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def compare(op: str, a: int, b: int) -> bool:
    """``a op b`` for a comparison operator of the language."""
    return _COMPARE[op](a, b)


if TYPE_CHECKING:
    Fn: TypeAlias = Callable[[Any], Any]
    """A compiled formula or part of one."""


def compile_formula(expr: A.Expr) -> Callable[[Env], Value]:
    """A function computing ``expr`` (type-checked) for an environment."""
    fn = _compile(expr, False)

    def run(env: Env) -> Value:
        value: Value = fn(env)
        return value

    return run


def compile_filter(where: A.Expr) -> Callable[[Env, MeldFacts], bool]:
    """A function deciding a ``melds where ...`` filter for one meld (the round's names from ``env``)."""
    fn = _compile(where, True)

    def keep(env: Env, meld: MeldFacts) -> bool:
        return bool(fn((env, meld)))

    return keep


def evaluate(expr: A.Expr, env: Env) -> Value:
    """Evaluate a type-checked formula once (hot paths keep :func:`compile_formula`'s function)."""
    return compile_formula(expr)(env)


def _compile(e: A.Expr, in_meld: bool) -> Fn:
    """``in_meld``: inside a ``melds where`` filter, where the argument is ``(env, meld)``."""
    match e:
        case A.Num(value=v) | A.Bool(value=v):
            return lambda env: v
        case A.Var(name=name):
            return _var(name, in_meld)
        case A.Neg(value=v):
            f = _compile(v, in_meld)
            return lambda env: -f(env)
        case A.Arith(first=first, rest=rest):
            acc = _compile(first, in_meld)
            for op, operand in rest:
                acc = _arith(op, acc, _compile(operand, in_meld))
            return acc
        case A.Compare(op=op, left=left, right=right):
            lf, rf, cmp = _compile(left, in_meld), _compile(right, in_meld), _COMPARE[op]
            return lambda env: cmp(lf(env), rf(env))
        case A.And(items=items):
            fs = [_compile(i, in_meld) for i in items]
            return lambda env: all(f(env) for f in fs)
        case A.Or(items=items):
            fs = [_compile(i, in_meld) for i in items]
            return lambda env: any(f(env) for f in fs)
        case A.Not(value=v):
            f = _compile(v, in_meld)
            return lambda env: not f(env)
        case A.Cond(test=t, then=a, otherwise=b):
            tf, af, bf = _compile(t, in_meld), _compile(a, in_meld), _compile(b, in_meld)
            return lambda env: af(env) if tf(env) else bf(env)
        case A.Call():
            return _call(e, in_meld)
    raise AssertionError(e)  # pragma: no cover


def _arith(op: str, a: Fn, b: Fn) -> Fn:
    if op == "+":
        return lambda env: a(env) + b(env)
    if op == "-":
        return lambda env: a(env) - b(env)
    return lambda env: a(env) * b(env)


def _var(name: str, in_meld: bool) -> Fn:
    if in_meld:
        read = meld_reader(name)
        if read is not None:
            return lambda env: read(env[1])
        return lambda env: env[0].variable(name)
    return lambda env: env.variable(name)


def _call(c: A.Call, in_meld: bool) -> Fn:
    name = c.name
    fn = FUNCTIONS.get(name)
    if fn is not None and fn.apply is not None:
        fs = [_compile(a.value, in_meld) for a in c.args]
        apply = fn.apply
        if len(fs) == 1:
            f0 = fs[0]
            return lambda env: apply((f0(env),))
        return lambda env: apply([f(env) for f in fs])
    arg = c.args[0]
    assert isinstance(arg.value, A.Var), "collections are named variables"
    coll = arg.value.name
    outer = _var(coll, in_meld)
    keep = _compile(arg.where, True) if arg.where is not None else None
    unwrap: Callable[[Any], Env] = (lambda env: env[0]) if in_meld else (lambda env: env)

    def chosen(env: Any) -> list[Any]:
        items = outer(env)
        if keep is None:
            return list(items)
        base = unwrap(env)
        return [x for x in items if keep((base, x))]

    if name == "count":
        if keep is None:
            return lambda env: len(outer(env))
        return lambda env: len(chosen(env))
    if coll == "hand" and keep is None:
        def hand_sum(env: Any) -> int:
            values = unwrap(env).card_values(name)
            return sum([values[c] for c in outer(env)])

        return hand_sum
    if coll == "hand":
        return lambda env: sum(unwrap(env).card_value(name, x) for x in chosen(env))
    return lambda env: sum(unwrap(env).meld_value(name, x) for x in chosen(env))
