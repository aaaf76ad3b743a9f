"""Card predicates and value tables: what a card is worth, by its role in a meld or in hand.

A value table is a list of ``condition -> value`` lines (:class:`Table`); the first line whose
condition (:class:`CompiledPred`, a card predicate with its words resolved against the deck) matches
the card gives the value, computed by the one evaluator (:mod:`loba_dsl.dsl.evaluate`) over the card
variables of :data:`loba_dsl.dsl.vocabulary.CARD`.  The compiler evaluates every table over its whole
domain when a ruleset loads, so these run only then.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.evaluate import EvalError, compile_formula
from loba_dsl.dsl.names import Names
from loba_dsl.dsl.parser import DSLProblem
from loba_dsl.dsl.vocabulary import CARD, Value
from loba_dsl.errors import suggest

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from typing import TypeVar

    from loba_dsl.dsl.vocabulary import MeldFacts

    T = TypeVar("T")
else:
    from loba_dsl.frozen import dataclass  # cheaper at import (issue 11)


__all__ = ["IN_HAND", "CardRole", "CompiledPred", "Table", "TableRule", "compile_pred", "eval_pred"]

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



class _CardEnv:
    """The card variables of one card in one role, for the evaluator."""

    __slots__ = ("card", "deck", "expr", "stands")

    def __init__(self, expr: A.Expr, deck: Deck, card: Card, role: CardRole) -> None:
        self.expr, self.deck, self.card, self.stands = expr, deck, card, role.stands

    def variable(self, name: str) -> Value:
        declared = CARD.get(name)
        if declared is None:  # pragma: no cover - rejected at load
            raise EvalError(name)
        value = declared.read(self.deck, self.card, self.stands)
        if value is None:
            raise DSLProblem(declared.missing, _find_var(self.expr, name))
        return value

    def card_value(self, table: str, card: Card) -> int:  # pragma: no cover - rejected at load
        raise EvalError(table)

    def card_values(self, table: str) -> Sequence[int]:  # pragma: no cover - rejected at load
        raise EvalError(table)

    def meld_value(self, table: str, meld: MeldFacts) -> int:  # pragma: no cover - rejected at load
        raise EvalError(table)


_compiled: dict[A.Expr, Callable[[_CardEnv], Value]] = {}


def _card_expr(expr: A.Expr, deck: Deck, card: Card, role: CardRole) -> int:
    fn = _compiled.get(expr)
    if fn is None:
        if len(_compiled) > 4096:
            _compiled.clear()
        fn = _compiled[expr] = compile_formula(expr)
    return int(fn(_CardEnv(expr, deck, card, role)))


def _find_var(expr: A.Expr, name: str) -> A.Pos:
    found = [e.pos for e in A.walk(expr) if isinstance(e, A.Var) and e.name == name]
    return found[0] if found else expr.pos
