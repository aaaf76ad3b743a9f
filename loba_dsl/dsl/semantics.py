"""Meaning of the DSL: name resolution and type checks at load, evaluation after.

Nothing here hands text to ``eval``: expressions are syntax trees walked by a
small interpreter, and every name is resolved against the ruleset when it
loads, so that a loaded ruleset never fails on a user's hand for a mistake of
its author.

Value types of formulas: ``int``, ``bool``, ``cards`` (the hand) and ``melds``
(the melds on a player's table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.parser import DSLProblem
from loba_dsl.errors import suggest

Type = Literal["int", "bool", "cards", "melds"]
Value = int | bool

ROUND_VARIABLES: Mapping[str, Type] = {
    "hand": "cards",
    "melds": "melds",
    "went_out": "bool",
    "all_at_once": "bool",
    "stock_out": "bool",
    "players": "int",
    "round": "int",
}
"""What a round formula may name, besides functions and value tables."""

MELD_ATTRIBUTES: Mapping[str, Type] = {
    "size": "int",
    "suits": "int",
    "wilds": "int",
    "naturals": "int",
    "set": "bool",
    "run": "bool",
}
"""What a ``melds where ...`` filter may name, besides meld kinds."""

CARD_VARIABLES: Mapping[str, Type] = {"face": "int", "stands_face": "int"}
"""What the value side of a value-table line may name."""

FUNCTIONS = ("count", "max", "min", "abs")


# ---------------------------------------------------------------- card context


@dataclass(frozen=True, slots=True)
class CardRole:
    """How a card is used: in hand (``wild`` is None) or in a meld.

    ``stands`` is the rank index it stands for (its own rank for a natural),
    ``high`` whether it is the ace played above the top rank, ``kind`` the meld
    kind's name and ``shape`` ``set`` or ``run``.
    """

    wild: bool | None = None
    stands: int | None = None
    high: bool = False
    kind: str | None = None
    shape: str | None = None


IN_HAND = CardRole()


class Names:
    """What names mean in one ruleset: ranks, suits, Joker, meld kinds, tables."""

    def __init__(self, deck: Deck, kinds: Iterable[str], tables: Iterable[str]) -> None:
        self.deck = deck
        self.kinds = tuple(kinds)
        self.tables = tuple(tables)
        self.joker = deck.joker_symbol

    def rank(self, word: A.Word) -> int:
        index = self.deck.rank_index.get(word.text)
        if index is None:
            raise DSLProblem(f"unknown rank '{word.text}'", word.pos, self._hint(word.text, self.deck.rank_index))
        return index

    def _hint(self, text: str, pool: Iterable[str]) -> str | None:
        """A rank written as its number (``1`` for the ace) suggests that rank first."""
        if text.isascii() and text.isdigit():
            for r in self.deck.ranks:
                if r.face == int(text):
                    return f"did you mean '{r.key}'?"
        return suggest(text, pool)

    def card_word(self, word: A.Word) -> tuple[str, int]:
        """Resolve a word naming cards: ``("rank", i)``, ``("suit", i)`` or ``("joker", 0)``."""
        if word.text in self.deck.rank_index:
            return "rank", self.deck.rank_index[word.text]
        if word.text in self.deck.suit_index:
            return "suit", self.deck.suit_index[word.text]
        if word.text == self.joker or word.text.upper() == self.joker.upper():
            return "joker", 0
        pool = [*self.deck.rank_index, *self.deck.suit_index, self.joker]
        raise DSLProblem(
            f"'{word.text}' is not a rank, suit or Joker of this deck", word.pos, self._hint(word.text, pool)
        )


# ---------------------------------------------------------------- predicates


@dataclass(frozen=True, slots=True)
class CompiledPred:
    """A predicate with its words resolved to deck indices."""

    node: A.Pred
    ranks: Mapping[int, frozenset[int]]
    suits: Mapping[int, frozenset[int]]
    jokers: Mapping[int, bool]
    stands: Mapping[int, frozenset[int]]


def compile_pred(pred: A.Pred, names: Names) -> CompiledPred:
    ranks: dict[int, frozenset[int]] = {}
    suits: dict[int, frozenset[int]] = {}
    jokers: dict[int, bool] = {}
    stands: dict[int, frozenset[int]] = {}

    def walk(p: A.Pred) -> None:
        match p:
            case A.PIs(words=words):
                r: set[int] = set()
                s: set[int] = set()
                j = False
                for w in words:
                    what, index = names.card_word(w)
                    if what == "rank":
                        r.add(index)
                    elif what == "suit":
                        s.add(index)
                    else:
                        j = True
                ranks[id(p)], suits[id(p)], jokers[id(p)] = frozenset(r), frozenset(s), j
            case A.PAs(words=words):
                stands[id(p)] = frozenset(names.rank(w) for w in words)
            case A.PIn(name=name):
                if name.text not in ("set", "run") and name.text not in names.kinds:
                    raise DSLProblem(
                        f"unknown meld kind '{name.text}'",
                        name.pos,
                        suggest(name.text, [*names.kinds, "set", "run"]),
                    )
            case A.PAnd(items=items) | A.POr(items=items):
                for item in items:
                    walk(item)
            case A.PNot(item=item):
                walk(item)
            case _:
                pass

    walk(pred)
    # Keys are node ids: keep them valid by holding the tree in the result.
    return CompiledPred(
        pred, _by_path(pred, ranks), _by_path(pred, suits), _by_path(pred, jokers), _by_path(pred, stands)
    )


def _nodes(pred: A.Pred) -> list[A.Pred]:
    out = [pred]
    match pred:
        case A.PAnd(items=items) | A.POr(items=items):
            for item in items:
                out.extend(_nodes(item))
        case A.PNot(item=item):
            out.extend(_nodes(item))
        case _:
            pass
    return out


T = TypeVar("T")


def _by_path(pred: A.Pred, by_id: Mapping[int, T]) -> dict[int, T]:
    """Re-key a mapping from ``id(node)`` to the node's pre-order index (stable across pickling)."""
    return {i: by_id[id(n)] for i, n in enumerate(_nodes(pred)) if id(n) in by_id}


def eval_pred(cp: CompiledPred, deck: Deck, card: Card, role: CardRole) -> bool:
    counter = iter(range(1 << 30))

    def ev(p: A.Pred) -> bool:
        index = next(counter)
        match p:
            case A.PAlways():
                return True
            case A.PWild():
                return role.wild is True
            case A.PNatural():
                return role.wild is False
            case A.PHigh():
                return role.wild is not None and role.high
            case A.PLow():
                return (
                    role.wild is not None
                    and not role.high
                    and role.shape == "run"
                    and deck.ace is not None
                    and role.stands == deck.ace
                )
            case A.PAs():
                return role.stands is not None and role.stands in cp.stands[index]
            case A.PIn(name=name):
                return role.kind == name.text or role.shape == name.text
            case A.PIs():
                if card == deck.joker_code:
                    return cp.jokers[index]
                return deck.rank_of(card) in cp.ranks[index] or deck.suit_of(card) in cp.suits[index]
            case A.PAnd(items=items):
                results = [ev(i) for i in items]  # evaluate all: keeps the pre-order counter right
                return all(results)
            case A.POr(items=items):
                results = [ev(i) for i in items]
                return any(results)
            case A.PNot(item=item):
                return not ev(item)
        raise AssertionError(p)  # pragma: no cover

    return ev(cp.node)


# ---------------------------------------------------------------- expressions: type check


@dataclass(frozen=True, slots=True)
class Scope:
    """The names an expression may use, and their types."""

    variables: Mapping[str, Type]
    tables: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    allow_collections: bool = True


def check_expr(expr: A.Expr, scope: Scope, want: Type | None = None) -> Type:
    """Type-check ``expr``; raise :class:`DSLProblem` at the first mistake."""
    got = _type(expr, scope)
    if want is not None and got != want:
        raise DSLProblem(f"expected {_article(want)}, but this is {_article(got)}", _expr_pos(expr))
    return got


def _article(t: Type) -> str:
    return {"int": "a number", "bool": "a condition", "cards": "a list of cards", "melds": "a list of melds"}[t]


def _expr_pos(expr: A.Expr) -> A.Pos:
    return expr.pos


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
                hint = f"'{name}' is a function: write {name}(...)"
            raise DSLProblem(f"unknown name '{name}'", pos, hint)
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
    for arg in args:
        if arg.where is not None and name not in ("count", *scope.tables):
            raise DSLProblem(f"'where' is not allowed in {name}(...)", arg.where.pos)
    if name in ("max", "min"):
        if not args:
            raise DSLProblem(f"{name}(...) needs at least one number", pos)
        for arg in args:
            check_expr(arg.value, scope, "int")
        return "int"
    if name == "abs":
        if len(args) != 1:
            raise DSLProblem("abs(...) takes one number", pos)
        check_expr(args[0].value, scope, "int")
        return "int"
    if name == "count" or name in scope.tables:
        if len(args) != 1:
            raise DSLProblem(f"{name}(...) takes one list (hand or melds)", pos)
        arg = args[0]
        coll = check_expr(arg.value, scope)
        if coll not in ("cards", "melds"):
            raise DSLProblem(f"{name}(...) needs the hand or the melds, not {_article(coll)}", arg.value.pos)
        if arg.where is not None:
            if coll != "melds":
                raise DSLProblem("'where' filters the melds, not the hand", arg.where.pos)
            check_expr(arg.where, _item_scope(coll, scope), "bool")
        return "int"
    pool = [*FUNCTIONS, *scope.tables]
    raise DSLProblem(f"unknown function '{name}'", pos, suggest(name, pool))


def _item_scope(coll: Type, scope: Scope) -> Scope:
    if coll == "melds":
        variables: dict[str, Type] = dict(MELD_ATTRIBUTES)
        variables.update({k: "bool" for k in scope.kinds})
    else:
        variables = {"wild": "bool"}
    return Scope({**scope.variables, **variables}, scope.tables, scope.kinds)


def free_names(expr: A.Expr) -> set[str]:
    """Every variable name an expression mentions (``where`` filters included)."""
    return {e.name for e in A.walk(expr) if isinstance(e, A.Var)}


class MeldFacts(Protocol):
    """What a formula can ask of one meld on the table."""

    kind: str
    shape: str
    size: int
    suits: int
    wilds: int
    naturals: int


class Env(Protocol):
    """What evaluation needs from the caller: variables and value tables."""

    def variable(self, name: str) -> Value | Sequence[Card] | Sequence[MeldFacts]: ...

    def card_value(self, table: str, card: Card) -> int: ...

    def card_values(self, table: str) -> Sequence[int]:
        """The value of every card code in hand, by a value table."""
        ...

    def meld_value(self, table: str, meld: MeldFacts) -> int: ...


class EvalError(Exception):
    """A formula that cannot be evaluated (an unknown variable at run time)."""


def evaluate(expr: A.Expr, env: Env) -> Value:
    """Evaluate a type-checked formula."""
    return _Evaluator(env).ev(expr)


class _Evaluator:
    def __init__(self, env: Env, local: Callable[[str], Value | None] | None = None) -> None:
        self.env = env
        self.local = local

    def ev(self, e: A.Expr) -> Value:
        match e:
            case A.Num(value=v):
                return v
            case A.Bool(value=v):
                return v
            case A.Var(name=name):
                if self.local is not None:
                    found = self.local(name)
                    if found is not None:
                        return found
                value = self.env.variable(name)
                if isinstance(value, int | bool):
                    return value
                raise EvalError(f"'{name}' is a list, not a value")
            case A.Neg(value=v):
                return -int(self.ev(v))
            case A.Arith(first=first, rest=rest):
                acc = int(self.ev(first))
                for op, operand in rest:
                    x = int(self.ev(operand))
                    acc = acc + x if op == "+" else acc - x if op == "-" else acc * x
                return acc
            case A.Compare(op=op, left=left, right=right):
                a, b = int(self.ev(left)), int(self.ev(right))
                return _COMPARE[op](a, b)
            case A.And(items=items):
                return all(self.ev(i) for i in items)
            case A.Or(items=items):
                return any(self.ev(i) for i in items)
            case A.Not(value=v):
                return not self.ev(v)
            case A.Cond(test=t, then=a, otherwise=b):
                return self.ev(a) if self.ev(t) else self.ev(b)
            case A.Call():
                return self.call(e)
        raise AssertionError(e)  # pragma: no cover

    def call(self, c: A.Call) -> Value:
        if c.name == "max":
            return max(int(self.ev(a.value)) for a in c.args)
        if c.name == "min":
            return min(int(self.ev(a.value)) for a in c.args)
        if c.name == "abs":
            return abs(int(self.ev(c.args[0].value)))
        arg = c.args[0]
        assert isinstance(arg.value, A.Var), "collections are named variables"
        items = self.env.variable(arg.value.name)
        assert not isinstance(items, int | bool)
        chosen = [x for x in items if arg.where is None or self.keep(arg.where, x)]
        if c.name == "count":
            return len(chosen)
        total = 0
        for x in chosen:
            if isinstance(x, int):
                total += self.env.card_value(c.name, x)
            else:
                total += self.env.meld_value(c.name, x)
        return total

    def keep(self, where: A.Expr, item: Card | MeldFacts) -> bool:
        if isinstance(item, int):
            return bool(_Evaluator(self.env, lambda n: None).ev(where))
        meld = item

        def local(name: str) -> Value | None:
            if name in ("size", "suits", "wilds", "naturals"):
                value: int = getattr(meld, name)
                return value
            if name in ("set", "run"):
                return meld.shape == name
            if name == meld.kind:
                return True
            return False if name not in ROUND_VARIABLES else None

        return bool(_Evaluator(self.env, local).ev(where))


_COMPARE: Mapping[str, Callable[[int, int], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def compare(op: str, a: int, b: int) -> bool:
    return _COMPARE[op](a, b)


# ---------------------------------------------------------------- value tables


@dataclass(frozen=True, slots=True)
class TableRule:
    pred: CompiledPred
    value: A.Expr
    where: A.Pos
    """Position of the line in the DSL text (line within the table)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A value table: the first line whose condition matches gives the value."""

    name: str
    rules: tuple[TableRule, ...]

    def value(self, deck: Deck, card: Card, role: CardRole) -> int:
        for rule in self.rules:
            if eval_pred(rule.pred, deck, card, role):
                try:
                    return _card_expr(rule.value, deck, card, role)
                except DSLProblem as e:
                    pos = A.Pos(rule.where.line, rule.where.column - 1 + e.pos.column, e.pos.length)
                    raise DSLProblem(f"{e.message} ({deck.name(card)})", pos, e.hint) from None
        last = self.rules[-1].where if self.rules else A.Pos(1, 1, 1)
        raise DSLProblem(
            f"no line of value table '{self.name}' gives a value to {deck.name(card)}"
            + ("" if role.wild is None else f" ({'wild' if role.wild else 'natural'} in a meld)"),
            last,
            "end the table with a catch-all line such as '_ -> 0'",
        )


def _card_expr(expr: A.Expr, deck: Deck, card: Card, role: CardRole) -> int:
    class CardEnv:
        def variable(self, name: str) -> Value:
            if name == "face":
                if card == deck.joker_code:
                    raise DSLProblem("a Joker has no face value", _find_var(expr, name))
                return deck.ranks[deck.rank_of(card)].face
            if name == "stands_face":
                if role.stands is None:
                    if card == deck.joker_code:
                        raise DSLProblem("a Joker in hand stands for nothing", _find_var(expr, name))
                    return deck.ranks[deck.rank_of(card)].face
                return deck.ranks[role.stands].face
            raise EvalError(name)  # pragma: no cover - rejected at load

        def card_value(self, table: str, card: Card) -> int:  # pragma: no cover
            raise EvalError(table)

        def card_values(self, table: str) -> Sequence[int]:  # pragma: no cover
            raise EvalError(table)

        def meld_value(self, table: str, meld: MeldFacts) -> int:  # pragma: no cover
            raise EvalError(table)

    return int(_Evaluator(CardEnv()).ev(expr))


def _find_var(expr: A.Expr, name: str) -> A.Pos:
    found = [e.pos for e in A.walk(expr) if isinstance(e, A.Var) and e.name == name]
    return found[0] if found else expr.pos
