"""Formulas turned into nested Python closures, for the hot paths (scoring).

The syntax tree is walked once and each node becomes a small function of the
environment; evaluating a formula is then a handful of calls, without the
per-node dispatch of :func:`loba_dsl.dsl.semantics.evaluate`, whose results it
must match (a property test checks this).  Nothing is compiled from text:
there is no ``eval`` or ``exec``; closures are built only from the checked
syntax tree.  Closures do not pickle, so they are built per process and cached
by the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from loba_dsl.dsl import ast as A
from loba_dsl.dsl.semantics import ROUND_VARIABLES, Env, Value, compare

Fn = Callable[[Any], Any]

_MELD_ATTRS = ("size", "suits", "wilds", "naturals")


def compile_formula(expr: A.Expr) -> Callable[[Env], Value]:
    """A function computing ``expr`` for an environment."""
    fn = _compile(expr, None)

    def run(env: Env) -> Value:
        value: Value = fn(env)
        return value

    return run


def _compile(e: A.Expr, item: str | None) -> Fn:
    """``item`` names the kind of element a ``where`` filter is looking at."""
    match e:
        case A.Num(value=v) | A.Bool(value=v):
            return lambda env: v
        case A.Var(name=name):
            return _var(name, item)
        case A.Neg(value=v):
            f = _compile(v, item)
            return lambda env: -f(env)
        case A.Arith(first=first, rest=rest):
            acc = _compile(first, item)
            for op, operand in rest:
                acc = _arith(op, acc, _compile(operand, item))
            return acc
        case A.Compare(op=op, left=left, right=right):
            lf, rf = _compile(left, item), _compile(right, item)
            return lambda env: compare(op, lf(env), rf(env))
        case A.And(items=items):
            fs = [_compile(i, item) for i in items]
            return lambda env: all(f(env) for f in fs)
        case A.Or(items=items):
            fs = [_compile(i, item) for i in items]
            return lambda env: any(f(env) for f in fs)
        case A.Not(value=v):
            f = _compile(v, item)
            return lambda env: not f(env)
        case A.Cond(test=t, then=a, otherwise=b):
            tf, af, bf = _compile(t, item), _compile(a, item), _compile(b, item)
            return lambda env: af(env) if tf(env) else bf(env)
        case A.Call():
            return _call(e, item)
    raise AssertionError(e)  # pragma: no cover


def _arith(op: str, a: Fn, b: Fn) -> Fn:
    if op == "+":
        return lambda env: a(env) + b(env)
    if op == "-":
        return lambda env: a(env) - b(env)
    return lambda env: a(env) * b(env)


def _var(name: str, item: str | None) -> Fn:
    if item == "melds" and name not in ROUND_VARIABLES:
        # Inside `melds where ...`: env is (outer env, meld).
        if name in _MELD_ATTRS:
            return lambda env: getattr(env[1], name)
        if name in ("set", "run"):
            return lambda env: env[1].shape == name
        return lambda env: env[1].kind == name
    if item is not None:
        return lambda env: env[0].variable(name)
    return lambda env: env.variable(name)


def _call(c: A.Call, item: str | None) -> Fn:
    name = c.name
    if name in ("max", "min", "abs"):
        fs = [_compile(a.value, item) for a in c.args]
        if name == "max":
            return lambda env: max(f(env) for f in fs)
        if name == "min":
            return lambda env: min(f(env) for f in fs)
        f0 = fs[0]
        return lambda env: abs(f0(env))
    arg = c.args[0]
    assert isinstance(arg.value, A.Var), "collections are named variables"
    coll = arg.value.name
    outer = _var(coll, item)
    keep = _compile(arg.where, "melds") if arg.where is not None else None
    unwrap: Callable[[Any], Env] = (lambda env: env[0]) if item is not None else (lambda env: env)

    def chosen(env: Any) -> list[Any]:
        items = outer(env)
        if keep is None:
            return list(items)
        base = unwrap(env)
        return [x for x in items if keep((base, x))]

    if name == "count":
        return lambda env: len(chosen(env))
    if coll == "hand" and keep is None:
        def hand_sum(env: Any) -> int:
            values = unwrap(env).card_values(name)
            return sum([values[c] for c in outer(env)])

        return hand_sum
    if coll == "hand":
        return lambda env: sum(unwrap(env).card_value(name, x) for x in chosen(env))
    return lambda env: sum(unwrap(env).meld_value(name, x) for x in chosen(env))
