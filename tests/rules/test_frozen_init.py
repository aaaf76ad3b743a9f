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


def test_a_field_not_in_init_takes_no_parameter() -> None:
    class Counted:
        x: int
        n: int = dataclasses.field(default=0, init=False)

    made: Any = dataclass(frozen=True)(Counted)
    assert made(4).n == 0
    assert str(inspect.signature(made)) == "(x: 'int') -> None"


def _memoised() -> type:
    """The shape of the ruleset model's ``Ruleset``: no generated ``__eq__`` or ``__repr__``, a field left
    out of ``__init__`` with a factory, its own ``__repr__`` and pickling state, a ``__post_init__``."""

    class Memoised:
        name: str
        table: dict[str, int] = dataclasses.field(default_factory=dict)
        memo: dict[str, int] = dataclasses.field(default_factory=dict, init=False, repr=False)

        def __post_init__(self) -> None:
            self.memo["made"] = len(self.table)

        def __repr__(self) -> str:
            return f"<Memoised {self.name}>"

        def __getstate__(self) -> dict[str, Any]:
            return {"name": self.name, "table": self.table, "memo": {}}

        def __setstate__(self, state: dict[str, Any]) -> None:
            self.__dict__.update(state)

    return Memoised


def test_no_generated_eq_or_repr_and_a_field_left_out_of_init_as_the_standard() -> None:
    fast, std = _both(_memoised, eq=False, repr=False)
    assert fast.__doc__ == std.__doc__ and str(inspect.signature(fast)) == str(inspect.signature(std))
    a, b = fast("x", {"k": 1}), std("x", {"k": 1})
    assert vars(a) == vars(b) == {"name": "x", "table": {"k": 1}, "memo": {"made": 1}}
    assert repr(a) == "<Memoised x>" and a != fast("x", {"k": 1}) and hash(a) == object.__hash__(a)
    assert "__eq__" not in vars(fast) and "__hash__" not in vars(fast)
    assert [(f.name, f.init) for f in dataclasses.fields(fast)] == [(f.name, f.init) for f in dataclasses.fields(std)]
    assert vars(copy.copy(a)) == {"name": "x", "table": {"k": 1}, "memo": {}}  # its own pickling state
    assert repr(fast.__dataclass_params__) == repr(std.__dataclass_params__)


def _options() -> type:
    class Options:
        """Written by hand."""

        name: str
        weight: float = dataclasses.field(default=1.0, compare=False)
        note: str = dataclasses.field(default="", repr=False, hash=False)
        limit: int | None = dataclasses.field(default=None, kw_only=True, metadata={"unit": "s"})
        self: int = dataclasses.field(default=0, kw_only=True)

    return Options


@pytest.mark.parametrize("slots", [True, False])
def test_field_options_as_the_standard(slots: bool) -> None:
    fast, std = _both(_options, slots=slots)
    assert fast.__doc__ == std.__doc__ == "Written by hand."
    assert str(inspect.signature(fast)) == str(inspect.signature(std))
    assert fast.__match_args__ == std.__match_args__ == ("name", "weight", "note")
    a, b = fast("x", 2.0, "n", limit=3, self=4), std("x", 2.0, "n", limit=3, self=4)
    assert repr(a).replace(fast.__qualname__, "C") == repr(b).replace(std.__qualname__, "C")
    assert hash(a) == hash(b) and a == fast("x", 9.0, "n", limit=3, self=4)  # weight is not compared
    assert dataclasses.fields(fast)[3].metadata == {"unit": "s"}
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    assert dataclasses.replace(a, limit=5).limit == 5


def test_a_docstring_names_keyword_only_fields_as_the_standard() -> None:
    def make() -> type:
        class Keyed:
            x: int
            y: tuple[int, ...] = dataclasses.field(default_factory=tuple, kw_only=True)

        return Keyed

    fast, std = _both(make, slots=True)
    assert fast.__doc__ == std.__doc__ == "Keyed(x: 'int', *, y: 'tuple[int, ...]' = <factory>)"


def test_what_the_standard_decorator_refuses_it_still_refuses() -> None:
    class Mutable:
        items: list[int] = []  # noqa: RUF012

    class Misordered:
        x: int = 0
        y: int

    with pytest.raises(ValueError, match="mutable default"):
        dataclass(frozen=True)(Mutable)
    with pytest.raises(TypeError, match="non-default argument 'y' follows default argument"):
        dataclass(frozen=True)(Misordered)


_NO_DATACLASSES = """
from __future__ import annotations
import sys
from loba_dsl.frozen import dataclass, field
@dataclass(frozen=True, slots=True)
class P:
    x: int
    y: tuple[int, ...] = field(default_factory=tuple)
@dataclass(frozen=True, eq=False)
class Q:
    x: int
    def __post_init__(self):
        object.__setattr__(self, "seen", True)
p, q = P(1), Q(2)
assert (p, hash(p), p == P(1), q.seen) == (P(1, ()), hash((1, ())), True, True)
assert P.__doc__ == "P(x: 'int', y: 'tuple[int, ...]' = <factory>)"
print("dataclasses" in sys.modules, "inspect" in sys.modules)
"""


def test_classes_are_built_and_used_without_importing_dataclasses() -> None:
    """Issue 22: building, instantiating, comparing, hashing and showing import neither dataclasses nor
    inspect (both a large share of a start-up)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _NO_DATACLASSES], capture_output=True, text=True, check=False)
    assert done.stderr == "" and done.stdout.split() == ["False", "False"]


def _mutable() -> type:
    class Log:
        name: str
        moves: list[str] = dataclasses.field(default_factory=list)
        done: bool = False

    return Log


@pytest.mark.parametrize("slots", [True, False])
def test_a_class_that_is_not_frozen_as_the_standard(slots: bool) -> None:
    fast: Any = dataclass(slots=slots)(_mutable())
    std: Any = dataclasses.dataclass(slots=slots)(_mutable())
    assert fast.__doc__ == std.__doc__ and str(inspect.signature(fast)) == str(inspect.signature(std))
    assert fast.__hash__ is std.__hash__ is None  # compared, not frozen: unhashable
    a, b = fast("x"), std("x")
    a.moves.append("m")
    a.done = True
    assert (a.name, a.moves, a.done, b.moves) == ("x", ["m"], True, [])
    assert a == fast("x", ["m"], True) and a != fast("x")
    assert repr(a).replace(fast.__qualname__, "C") == repr(std("x", ["m"], True)).replace(std.__qualname__, "C")
    assert repr(fast.__dataclass_params__) == repr(std.__dataclass_params__)


@pytest.mark.parametrize("cls", [Slotted, Plain])
def test_replace_and_field_names_as_the_standard(cls: Any) -> None:
    from loba_dsl.frozen import field_names, replace

    a = cls("x", ("t",), weight=2)
    assert replace(a, tags=()) == dataclasses.replace(a, tags=()) == cls("x", (), weight=2)
    assert field_names(cls) == tuple(f.name for f in dataclasses.fields(cls)) == ("name", "tags", "weight")
    with pytest.raises(TypeError, match="unexpected keyword argument 'other'"):
        replace(a, other=1)


def test_named_tuple_as_typings() -> None:
    """loba_dsl.named_tuple.NamedTuple (a replay's start-up imports no typing) makes what typing.NamedTuple makes."""
    import typing

    from loba_dsl.named_tuple import NamedTuple

    def body(base: Any) -> Any:
        class Score(base):  # type: ignore[misc]
            """A meld as scored."""

            kind: str
            cards: tuple[str, ...]
            points: int | None = None

            def to_dict(self) -> dict[str, Any]:
                return {"kind": self.kind, "points": self.points}

        return Score

    ours, theirs = body(NamedTuple), body(typing.NamedTuple)
    a, b = ours("run", ("A♣",)), theirs("run", ("A♣",))
    assert (repr(a), a._asdict(), a._replace(points=3), a.to_dict()) == (repr(b), b._asdict(), b._replace(points=3),
                                                                         b.to_dict())
    assert a == b == ("run", ("A♣",), None) and hash(a) == hash(b)
    for name in ("__doc__", "__qualname__", "__module__", "_fields", "_field_defaults"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert list(ours.__annotations__) == list(theirs.__annotations__)  # typing wraps the texts in ForwardRef
    assert ours.__mro__[1:] == theirs.__mro__[1:] == (tuple, object)

    class Misordered:
        x: int = 0
        y: int

    meta: Any = type(NamedTuple)
    with pytest.raises(TypeError, match="a field without a default follows one with a default"):
        meta("Misordered", (NamedTuple,), dict(vars(Misordered)))
