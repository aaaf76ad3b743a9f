"""The syntax tree back to text: one canonical spelling for every start symbol of ``loba.lark``.

:func:`print_shape`, :func:`print_cards`, :func:`print_rule` (and :func:`print_table`),
:func:`print_formula` and :func:`print_contract` write the fewest parentheses that keep the tree:
parsing the text gives the same tree again (positions aside), and the text of a canonical spelling
is itself (``tests/dsl/test_dsl_printer.py`` holds the fixtures).

Canonical spelling: one space around binary operators and after commas, ``a ? b : c``, ``-x``,
``not x``, ``f(a, b where c)``; card words separated by spaces in a value table and by ``, `` in a
card list; ``ace high or low`` for the ace played at either end; a contract term's count only when it
is not 1; a shape's size left out when it is the default ``1+``.

>>> from loba_dsl.dsl.parser import parse_formula
>>> print_formula(parse_formula("((went_out)) ? 0 : (penalty(hand) - (10 * count(melds)))"))
'went_out ? 0 : penalty(hand) - 10 * count(melds)'
>>> print_formula(parse_formula("(a - b) - c")), print_formula(parse_formula("a - (b - c)"))
('(a - b) - c', 'a - (b - c)')
"""

from __future__ import annotations

from collections.abc import Iterable

from loba_dsl.dsl import ast as A

# Precedence levels of formulas, loosest first (``loba.lark``: expr, or_expr, and_expr, not_expr,
# comparison, sum, product, unary, atom).
_COND, _OR, _AND, _NOT, _CMP, _SUM, _PROD, _UNARY, _ATOM = range(9)


def _level(e: A.Expr) -> int:
    match e:
        case A.Cond():
            return _COND
        case A.Or():
            return _OR
        case A.And():
            return _AND
        case A.Not():
            return _NOT
        case A.Compare():
            return _CMP
        case A.Arith(rest=rest):
            return _PROD if all(op == "*" for op, _ in rest) else _SUM
        case A.Neg():
            return _UNARY
        case _:
            return _ATOM


def _at(e: A.Expr, least: int) -> str:
    """``e``'s text where the grammar expects a level of at least ``least`` (else in parentheses)."""
    text = print_formula(e)
    return text if _level(e) >= least else f"({text})"


def print_formula(e: A.Expr) -> str:
    """A formula (``scoring.round``, ``match.instant_win``, the value side of a table line)."""
    match e:
        case A.Num(value=v):
            return str(v) if v >= 0 else f"-{-v}"
        case A.Bool(value=v):
            return "true" if v else "false"
        case A.Var(name=name):
            return name
        case A.Neg(value=v):
            return "-" + _at(v, _UNARY)
        case A.Arith():
            return _arith(e)
        case A.Compare(op=op, left=left, right=right):
            return f"{_at(left, _SUM)} {op} {_at(right, _SUM)}"
        case A.And(items=items):
            return " and ".join(_at(i, _AND + 1) for i in items)
        case A.Or(items=items):
            return " or ".join(_at(i, _OR + 1) for i in items)
        case A.Not(value=v):
            return "not " + _at(v, _NOT)
        case A.Cond(test=t, then=a, otherwise=b):
            return f"{_at(t, _OR)} ? {print_formula(a)} : {print_formula(b)}"
        case A.Call(name=name, args=args):
            return f"{name}({', '.join(_arg(a) for a in args)})"
    raise AssertionError(e)  # pragma: no cover


def _arg(a: A.Arg) -> str:
    text = print_formula(a.value)
    return text if a.where is None else f"{text} where {print_formula(a.where)}"


def _arith(e: A.Arith) -> str:
    """``first (op operand)*``: the parser makes one node per chain of ``+ -`` or of ``*``.

    A node mixing both (built by hand) folds left to right: it is written as the nested chains it means.
    """
    chains: list[tuple[bool, list[tuple[str, A.Expr]]]] = []  # (is a product, its (op, operand)s)
    for op, operand in e.rest:
        product = op == "*"
        if chains and chains[-1][0] == product:
            chains[-1][1].append((op, operand))
        else:
            chains.append((product, [(op, operand)]))
    text, level = print_formula(e.first), _level(e.first)
    for product, ops in chains:
        least = _UNARY if product else _PROD
        text = text if level >= least else f"({text})"
        text += "".join(f" {op} {_at(operand, least)}" for op, operand in ops)
        level = _PROD if product else _SUM
    return text


# ---------------------------------------------------------------- card predicates and tables

_P_OR, _P_AND, _P_NOT, _P_ATOM = range(4)


def _plevel(p: A.Pred) -> int:
    match p:
        case A.POr():
            return _P_OR
        case A.PAnd():
            return _P_AND
        case A.PNot():
            return _P_NOT
        case _:
            return _P_ATOM


def _pat(p: A.Pred, least: int) -> str:
    text = print_pred(p)
    return text if _plevel(p) >= least else f"({text})"


def _words(words: Iterable[A.Word], sep: str = " ") -> str:
    return sep.join(w.text for w in words)


def print_pred(p: A.Pred) -> str:
    """A card condition (the left side of a value-table line)."""
    match p:
        case A.PAlways():
            return "_"
        case A.PWild():
            return "wild"
        case A.PNatural():
            return "natural"
        case A.PHigh():
            return "high"
        case A.PLow():
            return "low"
        case A.PAs(words=words):
            return "as " + _words(words)
        case A.PIn(name=name):
            return "in " + name.text
        case A.PIs(words=words):
            return _words(words)
        case A.PAnd(items=items):
            return " and ".join(_pat(i, _P_AND + 1) for i in items)
        case A.POr(items=items):
            return " or ".join(_pat(i, _P_OR + 1) for i in items)
        case A.PNot(item=item):
            return "not " + _pat(item, _P_NOT)
    raise AssertionError(p)  # pragma: no cover


def print_rule(rule: A.Rule) -> str:
    """One value-table line: ``condition -> value``."""
    return f"{print_pred(rule.cond)} -> {print_formula(rule.value)}"


def print_table(rules: Iterable[A.Rule]) -> str:
    """A value table, one line per rule."""
    return "\n".join(print_rule(r) for r in rules)


def print_cards(words: Iterable[A.Word]) -> str:
    """A card pattern list (``wilds.cards``)."""
    return _words(words, ", ")


# ---------------------------------------------------------------- shapes and contracts

_ACE = {"low": "low", "high": "high", "either": "high or low", "wrap": "wrap"}


def _clause(c: A.Clause) -> str:
    match c:
        case A.SuitsDistinct():
            return "suits distinct"
        case A.Ace(mode=mode):
            return f"ace {_ACE[mode]}"
        case A.NoWilds():
            return "no wilds"
        case A.WildsApart():
            return "wilds apart"
        case A.Limit(counter=counter, op=op, value=value):
            return f"{counter} {op} {value}"
    raise AssertionError(c)  # pragma: no cover


def print_shape(shape: A.Shape) -> str:
    """A meld shape (``melds.<kind>.shape``)."""
    lo, hi = shape.min_size, shape.max_size
    size = "" if (lo, hi) == (1, None) else f"{lo}+" if hi is None else str(lo) if lo == hi else f"{lo}..{hi}"
    head = f"{shape.kind} {size}" if size else shape.kind
    return ", ".join([head, *(_clause(c) for c in shape.clauses)])


def print_contract(contract: A.Contract) -> str:
    """A round's contract (``requirements.contracts.rounds``)."""
    return " + ".join(t.kind.text if t.count == 1 else f"{t.count} {t.kind.text}" for t in contract.terms)
