"""Hypothesis strategies for the DSL: well-typed formula trees over the vocabulary, as the parser makes them.

Shared by tests/dsl/test_dsl_printer.py and tests/dsl/test_dsl_evaluator.py (not a test module itself).
Names come from :mod:`loba_dsl.dsl.vocabulary`, so a name or function added there is generated here.
Trees are in the parser's normal form: ``and``/``or`` with two items or more, an ``Arith`` chain all of
``+ -`` or all of ``*``, numbers not negative (``-3`` is ``Neg(3)``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from hypothesis import strategies as st

from loba_dsl.dsl import ast as A
from loba_dsl.dsl.ast import NOPOS
from loba_dsl.dsl.vocabulary import FUNCTIONS, MELD, ROUND, MeldFacts

KINDS = ("pierna", "escalera")
TABLES = ("pen", "pts")
Kind = Literal["int", "bool"]


def var(name: str) -> A.Expr:
    return A.Var(name, NOPOS)


def _names(scope: str, type_: Kind) -> list[str]:
    if scope == "round":
        return [n.name for n in ROUND.values() if n.type == type_]
    names = [n.name for n in MELD.values() if n.type == type_]
    return names + (list(KINDS) if type_ == "bool" else [])


def _list_calls(depth: int) -> st.SearchStrategy[A.Expr]:
    """``count``/a table of the hand, or of the melds with an optional filter."""
    funcs = [f.name for f in FUNCTIONS.values() if f.params == "list"] + list(TABLES)
    hand = st.sampled_from(funcs).map(lambda f: A.Call(f, (A.Arg(var("hand"), None),), NOPOS))
    filters = st.none() | exprs("bool", max(0, depth - 1), True)
    melds = st.tuples(st.sampled_from(funcs), filters).map(
        lambda t: A.Call(t[0], (A.Arg(var("melds"), t[1]),), NOPOS))
    return hand | melds


@functools.cache
def exprs(type_: Kind, depth: int, in_meld: bool = False) -> st.SearchStrategy[A.Expr]:
    """Well-typed formulas of ``type_`` up to ``depth``; ``in_meld``: inside a ``melds where`` filter."""
    names = _names("round", type_) + (_names("meld", type_) if in_meld else [])
    if type_ == "int":
        leaves: st.SearchStrategy[A.Expr] = (st.integers(0, 12).map(lambda v: A.Num(v, NOPOS))
                                             | st.sampled_from(names).map(var))
        if not in_meld:
            leaves = leaves | _list_calls(depth)
    else:
        leaves = st.booleans().map(lambda b: A.Bool(b, NOPOS)) | st.sampled_from(names).map(var)
    if depth == 0:
        return leaves
    ints, bools = exprs("int", depth - 1, in_meld), exprs("bool", depth - 1, in_meld)
    sub = ints if type_ == "int" else bools
    cond = st.tuples(bools, sub, sub).map(lambda t: A.Cond(t[0], t[1], t[2], NOPOS))
    if type_ == "bool":
        return st.one_of(
            leaves, cond,
            st.tuples(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), ints, ints).map(
                lambda t: A.Compare(t[0], t[1], t[2], NOPOS)),
            st.lists(bools, min_size=2, max_size=3).map(lambda items: A.And(tuple(items), NOPOS)),
            st.lists(bools, min_size=2, max_size=3).map(lambda items: A.Or(tuple(items), NOPOS)),
            bools.map(lambda e: A.Not(e, NOPOS)),
        )
    numeric = []
    for f in FUNCTIONS.values():
        if f.params == "list":
            continue
        counts = st.integers(1, 3) if f.params == "numbers" else st.just(1)
        numeric.append(st.tuples(st.just(f.name), counts.flatmap(lambda n: st.lists(ints, min_size=n, max_size=n)))
                       .map(lambda t: A.Call(t[0], tuple(A.Arg(e, None) for e in t[1]), NOPOS)))
    return st.one_of(
        leaves, cond, *numeric,
        st.tuples(ints, st.lists(st.tuples(st.sampled_from("+-"), ints), min_size=1, max_size=3)).map(
            lambda t: A.Arith(t[0], tuple(t[1]), NOPOS)),
        st.lists(ints, min_size=2, max_size=3).map(lambda fs: A.Arith(fs[0], tuple(("*", f) for f in fs[1:]), NOPOS)),
        ints.map(lambda e: A.Neg(e, NOPOS)),
    )


@dataclass(frozen=True)
class Meld:
    """What a formula can ask of a meld (:class:`loba_dsl.dsl.vocabulary.MeldFacts`)."""

    kind: str
    shape: str
    size: int
    suits: int
    wilds: int
    naturals: int


@dataclass(frozen=True)
class Round:
    """A player's round for a formula: the round's facts, a hand of card codes, melds, value tables."""

    facts: dict[str, int | bool]
    hand: tuple[int, ...]
    melds: tuple[Meld, ...]
    hand_values: dict[str, tuple[int, ...]] | None = None

    def variable(self, name: str) -> int | bool | tuple[int, ...] | tuple[Meld, ...]:
        if name == "hand":
            return self.hand
        if name == "melds":
            return self.melds
        return self.facts[name]

    def card_value(self, table: str, card: int) -> int:
        return self.card_values(table)[card]

    def card_values(self, table: str) -> tuple[int, ...]:
        if self.hand_values is not None:
            return self.hand_values[table]
        return tuple(c % 7 + (3 if table == "pen" else 1) for c in range(60))

    def meld_value(self, table: str, meld: MeldFacts) -> int:
        return meld.size * (2 if table == "pts" else 1) + meld.wilds * len(table) - meld.suits


def melds(kinds: tuple[tuple[str, str], ...] = (("pierna", "set"), ("escalera", "run"))) -> st.SearchStrategy[Meld]:
    return st.sampled_from(kinds).flatmap(lambda k: st.builds(
        Meld, st.just(k[0]), st.just(k[1]), st.integers(3, 7), st.integers(1, 4), st.integers(0, 2),
        st.integers(1, 6)))


def facts() -> st.SearchStrategy[dict[str, int | bool]]:
    """The round's scalar facts, one value for each (names and types from the vocabulary)."""
    by_type = {"int": st.integers(1, 8), "bool": st.booleans()}
    return st.fixed_dictionaries({n.name: by_type[n.type] for n in ROUND.values() if n.type in by_type})


def rounds(n_codes: int = 60, kinds: tuple[tuple[str, str], ...] = (("pierna", "set"), ("escalera", "run")),
           hand_values: dict[str, tuple[int, ...]] | None = None) -> st.SearchStrategy[Round]:
    return st.builds(Round, facts(), st.lists(st.integers(0, n_codes - 1), max_size=6).map(tuple),
                     st.lists(melds(kinds), max_size=3).map(tuple), st.just(hand_values))


def _facts_only(type_: Kind, depth: int) -> st.SearchStrategy[A.Expr]:
    """Formulas over the round's facts alone (no list): constants once the facts are known."""
    names = _names("round", type_)
    if type_ == "int":
        leaves: st.SearchStrategy[A.Expr] = st.integers(0, 12).map(lambda v: A.Num(v, NOPOS)) | st.sampled_from(
            names).map(var)
    else:
        leaves = st.booleans().map(lambda b: A.Bool(b, NOPOS)) | st.sampled_from(names).map(var)
    if depth == 0:
        return leaves
    ints = _facts_only("int", depth - 1)
    if type_ == "bool":
        bools = _facts_only("bool", depth - 1)
        return st.one_of(leaves, bools.map(lambda e: A.Not(e, NOPOS)),
                         st.lists(bools, min_size=2, max_size=2).map(lambda i: A.And(tuple(i), NOPOS)),
                         st.tuples(st.sampled_from(["<", ">=", "=="]), ints, ints).map(
                             lambda t: A.Compare(t[0], t[1], t[2], NOPOS)))
    numeric = [st.tuples(st.just(f.name), st.lists(ints, min_size=1, max_size=1 if f.params == "number" else 3))
               .map(lambda t: A.Call(t[0], tuple(A.Arg(e, None) for e in t[1]), NOPOS))
               for f in FUNCTIONS.values() if f.params != "list"]
    return st.one_of(leaves, *numeric, st.tuples(ints, ints).map(lambda t: A.Arith(t[0], (("+", t[1]),), NOPOS)))


@functools.cache
def _linear(depth: int) -> st.SearchStrategy[A.Expr]:
    if depth == 0:
        return _list_calls(2) | _facts_only("int", 1)
    sub = _linear(depth - 1)
    return st.one_of(
        sub,
        st.tuples(sub, st.lists(st.tuples(st.sampled_from("+-"), sub), min_size=1, max_size=3)).map(
            lambda t: A.Arith(t[0], tuple(t[1]), NOPOS)),
        st.tuples(_facts_only("int", 1), sub).map(lambda t: A.Arith(t[0], (("*", t[1]),), NOPOS)),
        st.tuples(sub, _facts_only("int", 1)).map(lambda t: A.Arith(t[0], (("*", t[1]),), NOPOS)),
        sub.map(lambda e: A.Neg(e, NOPOS)),
        st.tuples(_facts_only("bool", 2), sub, sub).map(lambda t: A.Cond(t[0], t[1], t[2], NOPOS)),
    )


def separable(depth: int) -> st.SearchStrategy[A.Expr]:
    """Number formulas the solver's objective can linearise: sums of per-card and per-meld terms, scaled
    by the round's facts, picked by conditions on the facts, possibly under a max/min against a constant."""
    body = _linear(depth)
    wrapped = st.tuples(st.sampled_from(["max", "min"]), st.integers(0, 20), body, st.booleans()).map(
        lambda t: A.Call(t[0], (A.Arg(A.Num(t[1], NOPOS), None), A.Arg(t[2], None))[:: 1 if t[3] else -1], NOPOS))
    return body | wrapped
