"""Canonical forms of formulas and meld shapes: two wordings of one rule compare equal.

:func:`canonical` turns a formula into a hashable canonical form: sums and
products become polynomials (terms in any order, constants folded, ``a - b`` is
``a + (-1)*b``), comparisons become ``p >= 0`` or ``p == 0`` with integer normal
forms, and conditions, ``and``/``or``/``not`` become an ordered decision diagram
whose leaves are polynomials.  :func:`evaluate_canonical` evaluates such a form
and always agrees with the formula it came from.

Comparisons of one polynomial with several numbers (``count(hand) > 3``,
``count(hand) > 5``) are not independent: along each path of the diagram what the
tests so far imply about that polynomial is known, a test it decides is never
asked again, and a test that its two branches make redundant is dropped.  So a sum
of ``n`` conditions on one count has ``n + 1`` leaves, not ``2**n``.  Building a
form is bounded (:data:`MAX_CANON_WORK` steps): a formula whose form would be
larger (many independent conditions added up, a product of many sums) gets the
form of its text instead (:func:`is_exact` says which), so two wordings of it may
compare different, but equal forms still always mean equal formulas.

:func:`canonical_shape` gives the meaning of a meld shape: clause order,
``no wilds`` / ``wilds <= 0`` / ``wilds == 0``, ``3..3`` / ``3`` and limits a
shape cannot exceed anyway do not count.

:mod:`loba_dsl.compare.rules` compares rulesets with these forms.

>>> canonical_text("5 * count(melds) + card(melds)") == canonical_text("card(melds) + count(melds) * 5")
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, is_dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol, cast

from loba_dsl.dsl import ast as A
from loba_dsl.dsl.vocabulary import FUNCTIONS, INT_NAMES, meld_reader

if TYPE_CHECKING:
    from dataclasses import dataclass

    from loba_dsl.dsl.evaluate import Env
else:
    from loba_dsl.frozen import dataclass  # cheaper at import (issue 11)


# ================================================================ canonical formulas
#
# A canonical form is a hashable tuple:
#   ("b", bool)                   a boolean leaf
#   ("n", poly)                   a number leaf: a polynomial
#   ("?", atom, then, else)       a decision on an atom, atoms ordered by _k along every path
#   ("f", expr)                   the formula itself, positions aside (a form too large to build)
# poly: ((monomial, coefficient), ...) sorted, no zero coefficients; monomial: a sorted tuple of factors
# (() is the constant).  Factors: ("v", name) an int variable; ("count", coll, where); ("sum", table,
# coll, where); ("max" | "min", args); ("abs", arg).  Atoms: ("v", name) a bool variable; ("ge", poly)
# meaning poly >= 0; ("eq", poly) meaning poly == 0; both with gcd 1 and a positive first coefficient.

Canon = tuple[Any, ...]
Poly = tuple[tuple[tuple[Any, ...], int], ...]
TRUE: Canon = ("b", True)
FALSE: Canon = ("b", False)

MAX_CANON_WORK = 10_000
"""The most steps (decisions combined, terms multiplied) one canonical form may take to build."""

Known = Mapping[str, tuple[int | None, int | None]]
"""What the tests along a path imply: for a polynomial (by :func:`_k` of its non-constant part), the
smallest and largest value it can still take (``None``: unbounded)."""
NOTHING: Known = {}


class _TooLarge(Exception):
    """The form would take more than :data:`MAX_CANON_WORK` steps."""


class _Work:
    """Steps taken building one form."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    def step(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise _TooLarge


_UNBOUNDED = _Work(1 << 62)  # for the module's own helpers called outside :func:`canonical`


def _k(x: Any) -> str:
    return repr(x)


def _pnorm(d: Mapping[tuple[Any, ...], int]) -> Poly:
    return tuple(sorted(((m, c) for m, c in d.items() if c), key=lambda mc: _k(mc[0])))


def _pconst(c: int) -> Poly:
    return _pnorm({(): c})


def _pfactor(f: Any) -> Poly:
    return (((f,), 1),)


def _padd(p: Poly, q: Poly, scale: int = 1) -> Poly:
    d = dict(p)
    for m, c in q:
        d[m] = d.get(m, 0) + scale * c
    return _pnorm(d)


def _pmul(p: Poly, q: Poly, w: _Work = _UNBOUNDED) -> Poly:
    w.step(len(p) * len(q))
    d: dict[tuple[Any, ...], int] = {}
    for m1, c1 in p:
        for m2, c2 in q:
            m = tuple(sorted(m1 + m2, key=_k))
            d[m] = d.get(m, 0) + c1 * c2
    return _pnorm(d)


def _pconst_of(p: Poly) -> int | None:
    """The value of a constant polynomial, or ``None``."""
    if not p:
        return 0
    if len(p) == 1 and p[0][0] == ():
        return p[0][1]
    return None


# -- what a test says about its polynomial


def _fact(atom: Any) -> tuple[str, str, int]:
    """``(kind, polynomial, t)``: the atom says ``polynomial >= t`` (``ge``, and a bool variable, as
    0 or 1) or ``polynomial == t`` (``eq``)."""
    if atom[0] == "v":
        return "ge", _k(atom), 1
    p: Poly = atom[1]
    const = next((c for m, c in p if m == ()), 0)
    rest = tuple(mc for mc in p if mc[0] != ())
    return atom[0], _k(rest), -const


def _implied(atom: Any, known: Known) -> bool | None:
    """Whether the tests so far decide ``atom``, and how."""
    if not known:
        return None
    kind, key, t = _fact(atom)
    bounds = known.get(key)
    if bounds is None:
        return None
    lo, hi = bounds
    if kind == "ge":
        if lo is not None and lo >= t:
            return True
        if hi is not None and hi < t:
            return False
        return None
    if lo is not None and hi is not None and lo == hi == t:
        return True
    if (lo is not None and t < lo) or (hi is not None and t > hi):
        return False
    return None


def _assume(known: Known, atom: Any, value: bool) -> Known:
    """``known`` and the test ``atom`` came out ``value``."""
    kind, key, t = _fact(atom)
    lo, hi = known.get(key, (None, None))
    if kind == "ge":
        if value:
            lo = t if lo is None else max(lo, t)
        else:
            hi = t - 1 if hi is None else min(hi, t - 1)
    elif value:
        lo = hi = t
    else:  # != t only narrows an end
        lo = t + 1 if lo == t else lo
        hi = t - 1 if hi == t else hi
    return {**known, key: (lo, hi)}


def _settle(d: Canon, known: Known) -> Canon:
    """``d`` without the tests at its top that ``known`` decides."""
    while d[0] == "?":
        value = _implied(d[1], known)
        if value is None:
            break
        d = d[2] if value else d[3]
    return d


def _restrict(d: Canon, known: Known, w: _Work) -> Canon:
    """``d`` with every test ``known`` decides taken out (each branch under what it adds)."""
    if d[0] != "?" or not known:
        return d
    d = _settle(d, known)
    if d[0] != "?":
        return d
    w.step()
    hi = _restrict(d[2], _assume(known, d[1], True), w)
    lo = _restrict(d[3], _assume(known, d[1], False), w)
    return d if (hi is d[2] and lo is d[3]) else _decide(d[1], hi, lo, known, w)


def _node(atom: Any, hi: Canon, lo: Canon) -> Canon:
    return hi if hi == lo else ("?", atom, hi, lo)


def _decide(atom: Any, hi: Canon, lo: Canon, known: Known, w: _Work) -> Canon:
    """The decision ``atom ? hi : lo`` under ``known``, without a test its branches make redundant
    (``x >= 6 ? true : (x >= 4 ? true : false)`` is ``x >= 4``)."""
    w.step()
    if hi == lo:
        return hi
    if atom[0] != "v":
        if _restrict(lo, _assume(known, atom, True), w) == hi:
            return lo
        if _restrict(hi, _assume(known, atom, False), w) == lo:
            return hi
    return ("?", atom, hi, lo)


def _var_node(atom: Any) -> Canon:
    return ("?", atom, TRUE, FALSE)


def _cof(d: Canon, atom: Any, value: bool) -> Canon:
    if d[0] == "?" and d[1] == atom:
        return d[2] if value else d[3]  # type: ignore[no-any-return]
    return d


def _top(*ds: Canon) -> Any:
    return min((d[1] for d in ds if d[0] == "?"), key=_k)


def _ite(f: Canon, g: Canon, h: Canon, w: _Work = _UNBOUNDED, known: Known = NOTHING) -> Canon:
    """``f ? g : h`` over diagrams, keeping atoms ordered, under what ``known`` says."""
    w.step()
    f, g, h = _settle(f, known), _settle(g, known), _settle(h, known)
    if f == TRUE:
        return g
    if f == FALSE:
        return h
    if g == h:
        return g
    if g == TRUE and h == FALSE:
        return _restrict(f, known, w)
    v = _top(f, g, h)
    kt, kf = _assume(known, v, True), _assume(known, v, False)
    return _decide(v, _ite(_cof(f, v, True), _cof(g, v, True), _cof(h, v, True), w, kt),
                   _ite(_cof(f, v, False), _cof(g, v, False), _cof(h, v, False), w, kf), known, w)


def _apply(ds: Sequence[Canon], leaf: Callable[[Sequence[Canon]], Canon], w: _Work = _UNBOUNDED,
           known: Known = NOTHING) -> Canon:
    """Combine diagrams leaf by leaf; ``leaf`` may itself return a diagram."""
    w.step()
    ds = [_settle(d, known) for d in ds]
    if all(d[0] != "?" for d in ds):
        return _restrict(leaf(ds), known, w)
    v = _top(*ds)
    kt, kf = _assume(known, v, True), _assume(known, v, False)
    return _ite(_var_node(v), _apply([_cof(d, v, True) for d in ds], leaf, w, kt),
                _apply([_cof(d, v, False) for d in ds], leaf, w, kf), w, known)


def _num(p: Poly) -> Canon:
    return ("n", p)


def _arith(op: str, a: Canon, b: Canon, w: _Work = _UNBOUNDED) -> Canon:
    def leaf(ds: Sequence[Canon]) -> Canon:
        p, q = ds[0][1], ds[1][1]
        return _num(_pmul(p, q, w) if op == "*" else _padd(p, q, -1 if op == "-" else 1))

    return _apply((a, b), leaf, w)


def _atom_ge(d: Poly) -> Canon:
    """The diagram of ``d >= 0`` over integers."""
    const = dict(d).get((), 0)
    rest = tuple(mc for mc in d if mc[0] != ())
    if not rest:
        return TRUE if const >= 0 else FALSE
    g = math.gcd(*(c for _, c in rest))
    body = _padd(tuple((m, c // g) for m, c in rest), _pconst(const // g))
    if rest[0][1] < 0:  # p >= 0  <=>  not (-p - 1 >= 0)
        return _ite(_var_node(("ge", _padd(_pconst(-1), body, -1))), FALSE, TRUE)
    return _var_node(("ge", body))


def _atom_eq(d: Poly) -> Canon:
    const = dict(d).get((), 0)
    rest = tuple(mc for mc in d if mc[0] != ())
    if not rest:
        return TRUE if const == 0 else FALSE
    g = math.gcd(*(c for _, c in rest))
    if const % g:
        return FALSE
    sign = -1 if rest[0][1] < 0 else 1
    return _var_node(("eq", tuple((m, sign * c // g) for m, c in d)))


def _compare_leaf(op: str, p: Poly, q: Poly) -> Canon:
    d = _padd(p, q, -1)
    if op == "==":
        return _atom_eq(d)
    if op == "!=":
        return _ite(_atom_eq(d), FALSE, TRUE)
    if op == ">=":
        return _atom_ge(d)
    if op == ">":
        return _atom_ge(_padd(d, _pconst(-1)))
    if op == "<=":
        return _atom_ge(_padd((), d, -1))
    return _atom_ge(_padd(_pconst(-1), d, -1))  # "<"


class _Canonicaliser:
    def __init__(self, tables: Mapping[str, str], work: int) -> None:
        self.tables = tables
        self.w = _Work(work)

    def expr(self, e: A.Expr, want: str | None = None) -> Canon:
        """``want`` is ``int`` or ``bool`` where the context says (a name's type follows from where it is)."""
        match e:
            case A.Num(value=v):
                return _num(_pconst(v))
            case A.Bool(value=v):
                return TRUE if v else FALSE
            case A.Var(name=name):
                if want == "int" or (want is None and name in INT_NAMES):
                    return _num(_pfactor(("v", name)))
                return _var_node(("v", name))
            case A.Neg(value=v):
                return _arith("*", self.expr(v, "int"), _num(_pconst(-1)), self.w)
            case A.Arith(first=first, rest=rest):
                acc = self.expr(first, "int")
                for op, operand in rest:
                    acc = _arith(op, acc, self.expr(operand, "int"), self.w)
                return acc
            case A.Compare(op=op, left=left, right=right):
                return _apply((self.expr(left, "int"), self.expr(right, "int")),
                              lambda ds: _compare_leaf(op, ds[0][1], ds[1][1]), self.w)
            case A.And(items=items):
                acc = TRUE
                for item in items:
                    acc = _ite(acc, self.expr(item, "bool"), FALSE, self.w)
                return acc
            case A.Or(items=items):
                acc = FALSE
                for item in items:
                    acc = _ite(acc, TRUE, self.expr(item, "bool"), self.w)
                return acc
            case A.Not(value=v):
                return _ite(self.expr(v, "bool"), FALSE, TRUE, self.w)
            case A.Cond(test=t, then=a, otherwise=b):
                return _ite(self.expr(t, "bool"), self.expr(a, want), self.expr(b, want), self.w)
            case A.Call():
                return self.call(e)
        raise AssertionError(e)  # pragma: no cover

    def call(self, c: A.Call) -> Canon:
        if c.name in ("max", "min"):
            name = c.name
            return _apply([self.expr(a.value, "int") for a in c.args],
                          lambda ds: _num(_extremum(name, [d[1] for d in ds])), self.w)
        if c.name == "abs":
            return _apply([self.expr(c.args[0].value, "int")], lambda ds: _num(_abs(ds[0][1])), self.w)
        arg = c.args[0]
        coll = arg.value.name if isinstance(arg.value, A.Var) else _k(self.expr(arg.value))
        where = None if arg.where is None else self.expr(arg.where, "bool")
        if where == FALSE:
            return _num(_pconst(0))
        if where == TRUE:
            where = None
        if c.name == "count":
            return _num(_pfactor(("count", coll, where)))
        return _num(_pfactor(("sum", self.tables.get(c.name, c.name), coll, where)))


def _extremum(name: str, args: list[Poly]) -> Poly:
    flat: list[Poly] = []
    for p in args:
        if len(p) == 1 and p[0][1] == 1 and len(p[0][0]) == 1 and p[0][0][0][0] == name:
            flat.extend(p[0][0][0][1])
        else:
            flat.append(p)
    consts = [c for c in (_pconst_of(p) for p in flat) if c is not None]
    others = {_k(p): p for p in flat if _pconst_of(p) is None}
    if consts:
        best = max(consts) if name == "max" else min(consts)
        others[_k(_pconst(best))] = _pconst(best)
    if len(others) == 1:
        return next(iter(others.values()))
    return _pfactor((name, tuple(others[k] for k in sorted(others))))


def _abs(p: Poly) -> Poly:
    c = _pconst_of(p)
    if c is not None:
        return _pconst(abs(c))
    rest = [mc for mc in p if mc[0] != ()]
    if rest[0][1] < 0:
        p = _padd((), p, -1)
    return _pfactor(("abs", p))


def canonical(expr: A.Expr, tables: Mapping[str, str] | None = None, want: str | None = None, *,
              work: int = MAX_CANON_WORK) -> Canon:
    """The canonical form of a formula; ``tables`` renames value tables (for tables only renamed).

    Built in at most ``work`` steps; a larger form is the formula's own (:func:`is_exact` is false).

    >>> from loba_dsl.dsl.parser import parse_formula as f
    >>> canonical(f("x > 3 and not not went_out")) == canonical(f("went_out and 3 < x"))
    True
    >>> canonical(f("x > 3")) == canonical(f("x >= 4"))
    True
    >>> canonical(f("a - b")) == canonical(f("-b + a"))
    True
    >>> canonical(f("x > 3 or x > 5")) == canonical(f("x >= 4"))
    True
    """
    try:
        return _Canonicaliser(tables or {}, work).expr(expr, want)
    except _TooLarge:
        return ("f", _renamed(A.without_positions(expr), tables or {}))


def is_exact(c: Canon) -> bool:
    """Whether ``c`` is a form by meaning (not a formula too large to build one for, kept as written)."""
    return bool(c[0] != "f")


def _renamed(node: Any, tables: Mapping[str, str]) -> Any:
    """``node`` with the value tables ``tables`` renames under their new names."""
    if not tables:
        return node
    if isinstance(node, tuple):
        return tuple(_renamed(x, tables) for x in node)
    if isinstance(node, A.Call) and node.name in tables:
        node = replace(node, name=tables[node.name])
    if is_dataclass(node) and not isinstance(node, type):
        return replace(node, **{f.name: _renamed(getattr(node, f.name), tables) for f in fields(node)})
    return node


def canonical_text(text: str, tables: Mapping[str, str] | None = None) -> Canon:
    """:func:`canonical` of a formula given as text."""
    from loba_dsl.dsl.parser import parse_formula

    return canonical(parse_formula(text), tables)


class CanonEnv(Protocol):
    """What :func:`evaluate_canonical` needs (the shape of :class:`loba_dsl.dsl.evaluate.Env`)."""

    def variable(self, name: str) -> Any: ...

    def card_value(self, table: str, card: int) -> int: ...

    def meld_value(self, table: str, meld: Any) -> int: ...


def evaluate_canonical(c: Canon, env: CanonEnv) -> int | bool:
    """Evaluate a canonical form; it always agrees with evaluating the formula it came from."""
    if c[0] == "f":
        from loba_dsl.dsl.evaluate import evaluate

        return evaluate(c[1], cast("Env", env))
    return _CanonEval(env, None).diagram(c)


class _CanonEval:
    def __init__(self, env: CanonEnv, item: Any) -> None:
        self.env = env
        self.item = item

    def var(self, name: str) -> Any:
        if self.item is not None:
            read = meld_reader(name)
            if read is not None:
                return read(self.item)
        return self.env.variable(name)

    def diagram(self, c: Canon) -> int | bool:
        while c[0] == "?":
            c = c[2] if self.atom(c[1]) else c[3]
        return bool(c[1]) if c[0] == "b" else self.poly(c[1])

    def atom(self, atom: Any) -> bool:
        if atom[0] == "v":
            return bool(self.var(atom[1]))
        value = self.poly(atom[1])
        return value >= 0 if atom[0] == "ge" else value == 0

    def poly(self, p: Poly) -> int:
        total = 0
        for monomial, coeff in p:
            term = coeff
            for f in monomial:
                term *= self.factor(f)
            total += term
        return total

    def factor(self, f: Any) -> int:
        if f[0] == "v":
            return int(self.var(f[1]))
        if f[0] in ("max", "min", "abs"):
            apply = FUNCTIONS[f[0]].apply
            assert apply is not None
            return apply([self.poly(p) for p in f[1]] if f[0] != "abs" else [self.poly(f[1])])
        coll, where = (f[1], f[2]) if f[0] == "count" else (f[2], f[3])
        items = self.env.variable(coll)
        chosen = [x for x in items if where is None or _CanonEval(self.env, x).diagram(where)]
        if f[0] == "count":
            return len(chosen)
        return sum(self.env.card_value(f[1], x) if isinstance(x, int) else self.env.meld_value(f[1], x)
                   for x in chosen)


# ================================================================ canonical meld shapes


@dataclass(frozen=True)
class ShapeForm:
    """A meld shape in canonical form; ``parts`` maps a component to its text and the clause that says it."""

    key: tuple[Any, ...]
    parts: Mapping[str, tuple[str, int | None]]


def canonical_shape(shape: A.Shape, n_ranks: int, n_suits: int) -> ShapeForm:
    """The meaning of a shape: size range, ace, suit rule, wild and natural limits.

    >>> from loba_dsl.dsl.parser import parse_shape as p
    >>> a = canonical_shape(p("set 3..4, suits distinct, no wilds"), 13, 4)
    >>> b = canonical_shape(p("set 3..4, wilds == 0, suits distinct"), 13, 4)
    >>> a.key == b.key
    True
    """
    run = shape.kind == "run"
    big = 10**6
    bounds: dict[str, list[int]] = {"size": [shape.min_size, shape.max_size or big], "wilds": [0, big],
                                    "naturals": [0, big], "suits": [1, n_suits]}
    source: dict[str, int | None] = {"size": None}
    excluded: dict[str, set[int]] = {}
    distinct = apart = None
    ace: str | None = "low" if run else None
    ace_at: int | None = None
    for i, c in enumerate(shape.clauses):
        match c:
            case A.SuitsDistinct():
                distinct = i
            case A.WildsApart():
                apart = i
            case A.Ace(mode=mode):
                ace, ace_at = mode, i
            case A.NoWilds():
                bounds["wilds"][1] = min(bounds["wilds"][1], 0)
                source["wilds"] = i
            case A.Limit(counter=counter, op=op, value=v):
                b = bounds[counter]
                source.setdefault(counter, i)
                if op in ("<=", "<", "=="):
                    b[1] = min(b[1], v - (op == "<"))
                if op in (">=", ">", "=="):
                    b[0] = max(b[0], v + (op == ">"))
                if op == "!=":
                    excluded.setdefault(counter, set()).add(v)
    size = bounds["size"]
    if run:
        size[1] = min(size[1], n_ranks)
    if distinct is not None:
        size[1] = min(size[1], n_suits)
    for name in ("wilds", "naturals"):
        b = bounds[name]
        b[0], b[1] = max(b[0], 0), min(b[1], size[1])
    if bounds["wilds"][1] == 0 and bounds["naturals"][0] <= size[0]:
        bounds["naturals"] = [0, size[1]]
    if bounds["wilds"][1] <= 1:
        apart = None
    suits = bounds["suits"]
    if distinct is not None or run:
        suits[0], suits[1] = 1, n_suits
    parts: dict[str, tuple[str, int | None]] = {
        "shape": (shape.kind, None),
        "size": (f"size {_range_text(size[0], size[1], big)}", None),
    }
    if ace is not None:
        parts["ace"] = (f"ace {({'either': 'high or low'}.get(ace, ace))}", ace_at)
    if distinct is not None:
        parts["suits"] = ("suits distinct", distinct)
    elif suits != [1, n_suits]:
        parts["suits"] = (_range_text(suits[0], suits[1], n_suits, "suits"), source.get("suits"))
    for name in ("wilds", "naturals"):
        lo, hi = bounds[name]
        if (lo, hi) != (0, size[1]):
            text = "no wilds" if name == "wilds" and hi == 0 else _range_text(lo, hi, size[1], name)
            parts[name] = (text, source.get(name))
    if apart is not None:
        parts["wilds apart"] = ("wilds apart", apart)
    for name, values in sorted(excluded.items()):
        parts[f"{name} not"] = (f"{name} not " + ", ".join(str(v) for v in sorted(values)), source.get(name))
    key = tuple(sorted((name, text) for name, (text, _) in parts.items()))
    return ShapeForm(key, parts)


def _range_text(lo: int, hi: int, top: int, name: str = "") -> str:
    prefix = f"{name} " if name else ""
    if lo == hi:
        return f"{prefix}== {lo}" if name else str(lo)
    if hi >= top:
        return f"{prefix}>= {lo}" if name else f"{lo}+"
    if name and lo == 0:
        return f"{prefix}<= {hi}"
    return f"{prefix}{lo}..{hi}" if name else f"{lo}..{hi}"
