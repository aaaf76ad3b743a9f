"""Read-only dicts and lists, for what a loaded ruleset shares with every caller (``document``, ``tables``,
``origins``): ``load(name)`` hands out one compiled ruleset, so an edit by one caller would change what the
next ``load(name)`` returns.

They are ``dict`` and ``list`` still (JSON, ``isinstance`` and the renderers see no difference), pickle as
themselves, and refuse every change with a :class:`TypeError` that says how to get a copy to edit.

>>> doc = read_only({"deal": {"cards": 9}, "melds": [{"shape": "run 3..13"}]})
>>> doc["deal"]["cards"], isinstance(doc["melds"], list)
(9, True)
>>> doc["deal"]["cards"] = 11
Traceback (most recent call last):
...
TypeError: a loaded ruleset is read-only: edit a copy (copy.deepcopy, or dict(...) for one level)
>>> import copy, pickle
>>> edited = copy.deepcopy(doc); edited["deal"]["cards"] = 11; (edited["deal"]["cards"], doc["deal"]["cards"])
(11, 9)
>>> pickle.loads(pickle.dumps(doc)) == doc
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["ReadOnlyDict", "ReadOnlyList", "read_only"]

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Any, NoReturn, SupportsIndex, TypeVar

    K = TypeVar("K")
    V = TypeVar("V")
    T = TypeVar("T")
else:  # the parameters of the generic bases below are for type checkers; at run time any name does
    K = V = T = "?"

MESSAGE = "a loaded ruleset is read-only: edit a copy (copy.deepcopy, or dict(...) for one level)"


def _refuse(*_: object, **__: object) -> NoReturn:
    raise TypeError(MESSAGE)


class ReadOnlyDict(dict[K, V]):
    """A ``dict`` that refuses changes (see the module)."""

    __slots__ = ()

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))

    def __copy__(self) -> dict[K, V]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[K, V]:
        import copy

        return {copy.deepcopy(k, memo): copy.deepcopy(v, memo) for k, v in self.items()}


class ReadOnlyList(list[T]):
    """A ``list`` that refuses changes (see the module)."""

    __slots__ = ()

    __setitem__ = _refuse
    __delitem__ = _refuse
    __iadd__ = _refuse
    __imul__ = _refuse
    append = _refuse
    extend = _refuse
    insert = _refuse
    pop = _refuse
    remove = _refuse
    clear = _refuse
    reverse = _refuse
    sort = _refuse

    def __init__(self, items: Iterable[T] = ()) -> None:
        list.extend(self, items)  # the one change: filling it once

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (list(self),))

    def __copy__(self) -> list[T]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[T]:
        import copy

        return [copy.deepcopy(v, memo) for v in self]

    def __mul__(self, n: SupportsIndex) -> list[T]:
        return list(self) * n


def read_only(value: Any) -> Any:
    """``value`` with every dict and list in it (at any depth) made read-only; other values as they are."""
    if isinstance(value, ReadOnlyDict | ReadOnlyList):
        return value
    if isinstance(value, Mapping):
        return ReadOnlyDict({k: read_only(v) for k, v in value.items()})
    if isinstance(value, list):
        return ReadOnlyList(read_only(v) for v in value)
    return value
