"""The round formula as an objective the solver can optimise exactly.

"If the round ended now" the formula is evaluated with the player not out
(``went_out``, ``all_at_once`` and ``stock_out`` false), and whatever it is
written as, it usually reduces to a sum of per-meld and per-card terms::

    penalty(hand)                          -> sum over cards left of penalty
    on_table(melds) - in_hand(hand)        -> sum over melds - sum over cards left
    max(0, penalty(hand) - 10 * count(melds where pierna and suits == 4))

This module finds that linear form by evaluating the syntax tree symbolically
(constants fold, a ternary on the round's facts picks its branch), with at
most one monotone ``max``/``min`` against a constant around it, which does not
change which arrangement is best.  A formula that is not of this form (two
lists multiplied together, a comparison of two sums) is reported as such.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from loba_dsl.dsl import ast as A
from loba_dsl.dsl.evaluate import compare
from loba_dsl.dsl.vocabulary import FUNCTIONS, round_facts
from loba_dsl.errors import InputError

Atom = tuple[str, str, Any]
"""``("hand", table, None)``, ``("hand_count", "", None)``, ``("melds", table, where)``, ``("count", "", where)``."""


@dataclass(frozen=True)
class Linear:
    const: int = 0
    terms: Mapping[Atom, int] = field(default_factory=dict)

    def __add__(self, other: Linear) -> Linear:
        terms = dict(self.terms)
        for k, v in other.terms.items():
            terms[k] = terms.get(k, 0) + v
        return Linear(self.const + other.const, {k: v for k, v in terms.items() if v})

    def scale(self, k: int) -> Linear:
        return Linear(self.const * k, {a: v * k for a, v in self.terms.items() if v * k})

    @property
    def is_const(self) -> bool:
        return not self.terms


class NotSeparable(Exception):
    """The formula is not a sum of per-meld and per-card terms."""


@dataclass(frozen=True)
class Objective:
    """Utility to maximise (the score, or minus the score where lower is better)."""

    linear: Linear
    sign: int
    """+1 where higher totals are better, -1 where lower are."""
    wrap: Callable[[int], int] | None
    """A monotone ``max``/``min`` against a constant around the linear part, applied to the score."""

    def score(self, linear_value: int) -> int:
        """The round score from the value of the linear part."""
        return self.wrap(linear_value) if self.wrap is not None else linear_value


def objective(expr: A.Expr, better: str, facts: Mapping[str, int | bool]) -> Objective:
    """The separable objective of a round formula under fixed round facts."""
    wrap: Callable[[int], int] | None = None
    body = expr
    while isinstance(body, A.Cond):  # the round's facts pick a branch
        body = body.then if _bool(body.test, facts) else body.otherwise
    if isinstance(body, A.Call) and body.name in ("max", "min") and len(body.args) == 2:
        values = [_lin(a.value, facts) for a in body.args]
        consts = [v for v in values if isinstance(v, Linear) and v.is_const]
        others = [v for v in values if not (isinstance(v, Linear) and v.is_const)]
        if len(consts) == 1 and len(others) == 1 and isinstance(others[0], Linear):
            c = consts[0].const
            wrap = (lambda x: max(c, x)) if body.name == "max" else (lambda x: min(c, x))
            return Objective(others[0], 1 if better == "higher" else -1, wrap)
    value = _lin(body, facts)
    if not isinstance(value, Linear):
        raise NotSeparable("the round formula is a condition, not a number")
    return Objective(value, 1 if better == "higher" else -1, wrap)


def _lin(e: A.Expr, facts: Mapping[str, int | bool]) -> Linear | bool:
    match e:
        case A.Num(value=v):
            return Linear(v)
        case A.Bool(value=v):
            return v
        case A.Var(name=name):
            if name in facts:
                value = facts[name]
                return value if isinstance(value, bool) else Linear(int(value))
            raise NotSeparable(f"'{name}' is not a number here")
        case A.Neg(value=v):
            return _num(v, facts).scale(-1)
        case A.Arith(first=first, rest=rest):
            acc = _num(first, facts)
            for op, operand in rest:
                x = _num(operand, facts)
                if op == "+":
                    acc = acc + x
                elif op == "-":
                    acc = acc + x.scale(-1)
                elif acc.is_const:
                    acc = x.scale(acc.const)
                elif x.is_const:
                    acc = acc.scale(x.const)
                else:
                    raise NotSeparable("two lists are multiplied together")
            return acc
        case A.Compare(op=op, left=left, right=right):
            a, b = _num(left, facts), _num(right, facts)
            if not (a.is_const and b.is_const):
                raise NotSeparable("a comparison depends on the cards")
            return compare(op, a.const, b.const)
        case A.And(items=items):
            return all(_bool(i, facts) for i in items)
        case A.Or(items=items):
            return any(_bool(i, facts) for i in items)
        case A.Not(value=v):
            return not _bool(v, facts)
        case A.Cond(test=t, then=a, otherwise=b):
            return _lin(a, facts) if _bool(t, facts) else _lin(b, facts)
        case A.Call(name=name, args=args):
            apply = FUNCTIONS[name].apply if name in FUNCTIONS else None
            if apply is not None:
                values = [_num(a.value, facts) for a in args]
                if all(v.is_const for v in values):
                    return Linear(apply([v.const for v in values]))
                raise NotSeparable(f"{name}(...) of the cards inside the formula")
            arg = args[0]
            assert isinstance(arg.value, A.Var)
            coll = arg.value.name
            if name == "count":
                return Linear(0, {("count", "", arg.where) if coll == "melds" else ("hand_count", "", None): 1})
            return Linear(0, {("melds" if coll == "melds" else "hand", name, arg.where): 1})
    raise AssertionError(e)  # pragma: no cover


def _num(e: A.Expr, facts: Mapping[str, int | bool]) -> Linear:
    v = _lin(e, facts)
    if isinstance(v, bool):
        raise NotSeparable("a condition is used as a number")
    return v


def _bool(e: A.Expr, facts: Mapping[str, int | bool]) -> bool:
    v = _lin(e, facts)
    if not isinstance(v, bool):
        raise NotSeparable("a number is used as a condition")
    return v


def round_objective(ruleset: Any, *, players: int = 4) -> Objective:
    """The objective of a ruleset's round formula for a player who has not gone out."""
    facts = round_facts(players=players)
    try:
        return objective(ruleset.scoring.round, ruleset.scoring.better, facts)
    except NotSeparable as e:
        raise InputError(
            f"the solver cannot optimise {ruleset.name}'s round formula: {e} "
            "(it needs a sum of per-meld and per-card terms)") from None
