"""Parse DSL text into the syntax tree of :mod:`loba_dsl.dsl.ast`.

The grammar (``grammar/loba.lark``) is read and compiled to an LALR(1) parser
once per process.  Lark's exceptions never escape: they become
:class:`DSLProblem` with a position relative to the parsed text, which the
ruleset loader places in the YAML file.

>>> parse_shape("set 3..4, suits distinct, no wilds").min_size
3
>>> parse_formula("went_out ? 0 : penalty(hand)").__class__.__name__
'Cond'
"""

from __future__ import annotations

import functools

from loba_dsl.dsl import ast as A
from loba_dsl.errors import Said, said

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from lark import Lark, Token, Tree

START_SYMBOLS = ("shape", "cards", "rule", "formula", "contract")
MAX_TEXT = 4000
"""Longest DSL text accepted (a value table is parsed line by line)."""

_FRIENDLY = {
    "NAME": said("a name"),
    "INT": said("a number"),
    "CARD": said("a card or suit (J♠, ♥)"),
    "CMP": said("a comparison (== != < <= > >=)"),
    "SHAPE": said("'set' or 'run'"),
    "ADDOP": said("'+' or '-'"),
    "MULOP": "'*'",
    "$END": said("the end of the text"),
}


class DSLProblem(Exception):
    """A syntax or meaning problem at a position of one DSL text.

    Internal: its position is relative to the DSL text, not a file, so it is not a ``LobaError``.
    The ruleset compiler turns it into :class:`loba_dsl.errors.DSLError` (a ``LobaError``) located in
    the YAML file; nothing outside the compiler lets a ``DSLProblem`` escape.
    """

    def __init__(self, message: str, pos: A.Pos, hint: str | None = None) -> None:  # (both may be Said words)
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.hint = hint


def grammar_text() -> str:
    """The grammar file shipped with the package."""
    from importlib import resources  # package data; imported only when read

    return resources.files("loba_dsl").joinpath("grammar/loba.lark").read_text(encoding="utf-8")


@functools.cache
def _parser() -> Lark:
    from lark import Lark

    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        start=list(START_SYMBOLS),
        propagate_positions=True,
        maybe_placeholders=False,
    )


def _describe(name: str) -> str:
    if name in _FRIENDLY:
        return _FRIENDLY[name]
    try:
        pattern = _parser().get_terminal(name).pattern
    except KeyError:
        return name
    return f"'{pattern.value}'"


def _parse(text: str, start: str) -> Tree[Token]:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    if len(text) > MAX_TEXT:
        raise DSLProblem(said("expression is longer than {limit} characters", limit=MAX_TEXT), A.Pos(1, 1, 1))
    if not text.strip():
        raise DSLProblem(said("expression is empty"), A.Pos(1, 1, 1))
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedToken as e:
        tok = e.token
        expected = sorted({_describe(t) for t in e.expected})[:6]
        hint = said("expected {items}", items=Said(", ".join("{}" for _ in expected), tuple(expected))) \
            if expected else None
        if tok.type == "$END":
            line, col = _end_pos(text)
            raise DSLProblem(said("the expression ends too early"), A.Pos(line, col, 1), hint) from None
        line, col = tok.line or 1, tok.column or 1
        raise DSLProblem(said("unexpected '{token}'", token=str(tok)), A.Pos(line, col, max(1, len(str(tok)))),
                         hint) from None
    except UnexpectedCharacters as e:
        at = e.pos_in_stream if e.pos_in_stream is not None else -1
        ch = text[at] if 0 <= at < len(text) else "?"
        raise DSLProblem(said("unexpected character '{char}'", char=ch), A.Pos(e.line, e.column, 1)) from None
    except UnexpectedEOF:
        line, col = _end_pos(text)
        raise DSLProblem(said("the expression ends too early"), A.Pos(line, col, 1)) from None
    except UnexpectedInput as e:  # pragma: no cover - other Lark input errors
        raise DSLProblem(str(e).splitlines()[0], A.Pos(1, 1, 1)) from None
    except RecursionError:
        raise DSLProblem("expression is nested too deeply", A.Pos(1, 1, 1)) from None
    _check_depth(tree)
    return tree


MAX_DEPTH = 300
"""Deepest syntax tree accepted (the tree is then walked recursively)."""


def _check_depth(tree: Tree[Token]) -> None:
    """Refuse absurdly nested texts before any recursive walk (an iterative check)."""
    from lark import Tree

    stack: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise DSLProblem("expression is nested too deeply", _pos(node))
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _end_pos(text: str) -> tuple[int, int]:
    lines = text.rstrip().split("\n")
    return len(lines), len(lines[-1]) + 1


# ---------------------------------------------------------------- tree -> AST


def _pos(node: Tree[Token] | Token) -> A.Pos:
    from lark import Token

    if isinstance(node, Token):
        return A.Pos(node.line or 1, node.column or 1, max(1, len(str(node))))
    meta = node.meta
    if getattr(meta, "empty", True):
        return A.Pos(1, 1, 1)
    length = meta.end_pos - meta.start_pos if meta.end_line == meta.line else meta.end_column
    return A.Pos(meta.line, meta.column, max(1, length))


def _children(tree: Tree[Token]) -> list[Tree[Token] | Token]:
    return list(tree.children)


def _tok(node: Tree[Token] | Token) -> Token:
    from lark import Token

    assert isinstance(node, Token)
    return node


def _tree(node: Tree[Token] | Token) -> Tree[Token]:
    from lark import Tree

    assert isinstance(node, Tree)
    return node


def _word(node: Tree[Token] | Token) -> A.Word:
    tok = _tok(node)
    return A.Word(str(tok), _pos(tok))


def _words(tree: Tree[Token]) -> tuple[A.Word, ...]:
    return tuple(_word(c) for c in tree.children)


def _int(node: Tree[Token] | Token) -> int:
    text = str(_tok(node))
    if len(text) > 9:
        raise DSLProblem(f"number {text[:12]}… is too large", _pos(node))
    return int(text)


def _shape(tree: Tree[Token]) -> A.Shape:
    kids = _children(tree)
    head = _tok(kids[0])
    lo, hi = 1, None
    rest = kids[1:]
    if rest and not isinstance(rest[0], str) and _tree(rest[0]).data in ("size_range", "size_min", "size_exact"):
        size = _tree(rest[0])
        nums = [_int(c) for c in size.children]
        if size.data == "size_range":
            lo, hi = nums[0], nums[1]
        elif size.data == "size_min":
            lo = nums[0]
        else:
            lo = hi = nums[0]
        rest = rest[1:]
        if hi is not None and hi < lo:
            raise DSLProblem(f"size range {lo}..{hi} is empty", _pos(size))
    clauses = tuple(_clause(_tree(c)) for c in rest)
    head_pos = _pos(head)
    return A.Shape("set" if str(head) == "set" else "run", lo, hi, clauses, head_pos)


def _clause(tree: Tree[Token]) -> A.Clause:
    pos = _pos(tree)
    data = tree.data
    if data == "suits_distinct":
        return A.SuitsDistinct(pos)
    if data == "no_wilds":
        return A.NoWilds(pos)
    if data == "wilds_apart":
        return A.WildsApart(pos)
    if data == "ace":
        mode = _tree(tree.children[0]).data
        from typing import cast  # parsing only: typing is not on the start-up path (issue 22)

        return A.Ace(cast("A.AceMode", str(mode)[4:]), pos)
    if data == "limit":
        counter, cmp, value = tree.children
        name = str(_tree(counter).data)
        name = "size" if name == "size_counter" else name
        from typing import cast

        return A.Limit(cast("A.Counter", name), str(cmp), _int(value), pos)
    raise DSLProblem(f"unknown clause {data}", pos)  # pragma: no cover - grammar and code agree


def _pred(node: Tree[Token] | Token) -> A.Pred:
    tree = _tree(node)
    pos = _pos(tree)
    data = tree.data
    if data == "p_or":
        items = tuple(_pred(c) for c in tree.children)
        return items[0] if len(items) == 1 else A.POr(items, pos)
    if data == "p_and":
        items = tuple(_pred(c) for c in tree.children)
        return items[0] if len(items) == 1 else A.PAnd(items, pos)
    if data == "p_not":
        return A.PNot(_pred(tree.children[0]), pos)
    if data == "p_wild":
        return A.PWild(pos)
    if data == "p_natural":
        return A.PNatural(pos)
    if data == "p_high":
        return A.PHigh(pos)
    if data == "p_low":
        return A.PLow(pos)
    if data == "p_as":
        return A.PAs(_words(_tree(tree.children[0])), pos)
    if data == "p_in":
        return A.PIn(_word(tree.children[0]), pos)
    if data == "p_is":
        return A.PIs(_words(_tree(tree.children[0])), pos)
    if data == "always":
        return A.PAlways(pos)
    raise DSLProblem(f"unknown condition {data}", pos)  # pragma: no cover


def _expr(node: Tree[Token] | Token) -> A.Expr:
    tree = _tree(node)
    pos = _pos(tree)
    data = tree.data
    kids = _children(tree)
    if data == "ternary":
        return A.Cond(_expr(kids[0]), _expr(kids[1]), _expr(kids[2]), pos)
    if data in ("e_or", "e_and"):
        items = tuple(_expr(c) for c in kids)
        if len(items) == 1:
            return items[0]
        return A.Or(items, pos) if data == "e_or" else A.And(items, pos)
    if data == "e_not":
        return A.Not(_expr(kids[0]), pos)
    if data == "compare":
        return A.Compare(str(kids[1]), _expr(kids[0]), _expr(kids[2]), pos)
    if data == "arith":
        first = _expr(kids[0])
        rest = tuple((str(kids[i]), _expr(kids[i + 1])) for i in range(1, len(kids), 2))
        return first if not rest else A.Arith(first, rest, pos)
    if data == "neg":
        return A.Neg(_expr(kids[0]), pos)
    if data == "number":
        return A.Num(_int(kids[0]), pos)
    if data == "true":
        return A.Bool(True, pos)
    if data == "false":
        return A.Bool(False, pos)
    if data == "var":
        return A.Var(str(kids[0]), pos)
    if data == "call":
        name = _tok(kids[0])
        args = []
        for a in kids[1:]:
            parts = _children(_tree(a))
            where = _expr(parts[1]) if len(parts) > 1 else None
            args.append(A.Arg(_expr(parts[0]), where))
        return A.Call(str(name), tuple(args), _pos(name))
    raise DSLProblem(f"unknown expression {data}", pos)  # pragma: no cover


# ---------------------------------------------------------------- public entry points


def parse_shape(text: str) -> A.Shape:
    return _shape(_parse(text, "shape"))


def parse_cards(text: str) -> tuple[A.Word, ...]:
    return _words(_tree(_parse(text, "cards").children[0]))


def parse_rule(text: str) -> A.Rule:
    tree = _parse(text, "rule")
    cond, value = tree.children
    return A.Rule(_pred(cond), _expr(value), _pos(tree))


def parse_formula(text: str) -> A.Expr:
    return _expr(_parse(text, "formula"))


def parse_contract(text: str) -> A.Contract:
    tree = _parse(text, "contract")
    terms = []
    for term in tree.children:
        parts = _children(_tree(term))
        count = _int(parts[0]) if len(parts) == 2 else 1
        terms.append(A.ContractTerm(count, _word(parts[-1])))
    return A.Contract(tuple(terms), _pos(tree))


def parse_table(text: str) -> list[tuple[int, int, A.Rule]]:
    """Parse a value table: one rule per line (``;`` also separates rules).

    Returns ``(line, column_offset, rule)`` for each rule, where the rule's
    positions are relative to its own piece of text; add the offset to place
    them in ``text``.  Blank pieces and ``#`` comments are skipped.
    """
    out: list[tuple[int, int, A.Rule]] = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        offset = 0
        for piece in line.split(";"):
            stripped = piece.split("#", 1)[0]
            if stripped.strip():
                try:
                    rule = parse_rule(stripped)
                except DSLProblem as e:
                    raise DSLProblem(e.message, A.Pos(lineno, e.pos.column + offset, e.pos.length), e.hint) from None
                out.append((lineno, offset, rule))
            offset += len(piece) + 1
    return out
