"""loba_dsl.frozen builds the classes the standard ``dataclass(frozen=True)`` builds (issue 11: start-up).

Each expected value is what :func:`dataclasses.dataclass` gives the same class body.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from loba_dsl.dsl import ast as A
from loba_dsl.frozen import dataclass


def _pair(slots: bool) -> tuple[type, type]:
    def body() -> type:
        class Node:
            kind: str
            size: int = 3
            items: tuple[int, ...] = ()

        return Node

    return dataclass(frozen=True, slots=slots)(body()), dataclasses.dataclass(frozen=True, slots=slots)(body())


@pytest.mark.parametrize("slots", [True, False])
def test_same_class_as_the_standard_decorator(slots: bool) -> None:
    fast, std = _pair(slots)
    assert fast.__doc__ == std.__doc__
    assert str(inspect.signature(fast)) == str(inspect.signature(std))
    assert fast.__match_args__ == std.__match_args__  # type: ignore[attr-defined]
    assert repr(fast.__dataclass_params__) == repr(std.__dataclass_params__)  # type: ignore[attr-defined]
    assert [f.name for f in dataclasses.fields(fast)] == [f.name for f in dataclasses.fields(std)]
    a, b = fast("run", 4, (1, 2)), std("run", 4, (1, 2))
    assert repr(a).replace("Node", "X") == repr(b).replace("Node", "X")
    assert hash(a) == hash(b) == hash(("run", 4, (1, 2)))
    assert a == fast("run", 4, (1, 2)) and a != fast("run", 5) and a.__eq__(b) is NotImplemented
    assert copy.deepcopy(a) == a and copy.copy(a) == a
    assert dataclasses.replace(a, size=9) == fast("run", 9, (1, 2))
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'size'"):
        a.size = 1
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'size'"):
        del a.size
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'kind'"):
        fast()


def test_other_options_go_to_the_standard_decorator() -> None:
    class Ordered:
        x: int

    class Hidden:
        x: int
        y: int = dataclasses.field(default=0, compare=False)

    ordered: Any = dataclass(frozen=True, order=True)(Ordered)
    hidden: Any = dataclass(frozen=True)(Hidden)
    assert ordered(1) < ordered(2)
    assert hidden(1, 2) == hidden(1, 3)


def test_syntax_tree_nodes_pickle() -> None:
    node = A.Shape("run", 3, None, (A.Ace("either", A.Pos(1, 2, 3)),), A.NOPOS)
    assert pickle.loads(pickle.dumps(node)) == node


def test_syntax_tree_nodes_match_by_field() -> None:
    match A.Neg(A.Num(2, A.NOPOS), A.NOPOS):
        case A.Neg(value=A.Num(value=v)):
            assert v == 2
        case _:
            pytest.fail("no match")
