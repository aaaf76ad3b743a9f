"""loba_dsl.frozen writes ``__init__`` on first use and compiles no method (issue 11: start-up).

Each expected value is what :func:`dataclasses.dataclass(frozen=True)` gives the same class body.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any, ClassVar

import pytest

from loba_dsl.frozen import dataclass


def _both(make: Any, **options: Any) -> tuple[Any, Any]:
    return dataclass(frozen=True, **options)(make()), dataclasses.dataclass(frozen=True, **options)(make())


def _rich() -> type:
    class Rich:
        limit: ClassVar[int] = 7
        name: str
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
        weight: int = dataclasses.field(default=1, kw_only=True)
        seen: list[str] = dataclasses.field(default_factory=list)

        def __post_init__(self) -> None:
            object.__setattr__(self, "seen", [*self.seen, self.name])

    return Rich


@pytest.mark.parametrize("slots", [True, False])
def test_factories_keyword_only_and_post_init_as_the_standard(slots: bool) -> None:
    fast, std = _both(_rich, slots=slots)
    assert str(inspect.signature(fast)) == str(inspect.signature(std))  # read before any instance
    a, b = fast("x", weight=3), std("x", weight=3)
    assert (a.name, a.tags, a.weight, a.seen) == (b.name, b.tags, b.weight, b.seen) == ("x", (), 3, ["x"])
    assert fast.limit == std.limit == 7 and "limit" not in [f.name for f in dataclasses.fields(fast)]
    assert fast.__match_args__ == std.__match_args__
    said = []
    for cls in (fast, std):
        with pytest.raises(TypeError) as info:
            cls("x", (), [], 4)
        said.append(str(info.value))
    assert said[0] == said[1] and "positional arguments" in said[0]


@pytest.mark.parametrize("slots", [True, False])
def test_first_instance_made_by_a_subclass(slots: bool) -> None:
    def make() -> type:
        class Base:
            x: int
            y: int = 2

        return Base

    fast, std = _both(make, slots=slots)

    class FastChild(fast):  # type: ignore[misc,valid-type]
        pass

    class StdChild(std):  # type: ignore[misc,valid-type]
        pass

    assert (FastChild(1).x, FastChild(1).y) == (StdChild(1).x, StdChild(1).y) == (1, 2)
    assert fast(5).x == std(5).x == 5


@dataclass(frozen=True, slots=True)
class Slotted:
    name: str
    tags: tuple[str, ...] = ()
    weight: int = dataclasses.field(default=1, kw_only=True)


@dataclass(frozen=True)
class Plain:
    name: str
    tags: tuple[str, ...] = ()
    weight: int = dataclasses.field(default=1, kw_only=True)


@pytest.mark.parametrize("cls", [Slotted, Plain])
def test_copies_and_pickles_and_stays_frozen(cls: Any) -> None:
    a = cls("x", ("t",), weight=2)
    for b in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a)), dataclasses.replace(a)):
        assert b == a
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
        a.name = "y"
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'other'"):
        a.other = 1  # the standard decorator says so for any name on an instance of the class itself
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'tags'"):
        del a.tags


def test_a_field_not_in_init_goes_to_the_standard_decorator() -> None:
    class Counted:
        x: int
        n: int = dataclasses.field(default=0, init=False)

    made: Any = dataclass(frozen=True)(Counted)
    assert made(4).n == 0
    assert str(inspect.signature(made)) == "(x: 'int') -> None"
