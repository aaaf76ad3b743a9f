"""``typing.NamedTuple`` without importing typing (issue 22: a cached ``loba replay`` imports no typing).

Modules import it at run time only; type checkers see typing's::

    if TYPE_CHECKING:
        from typing import NamedTuple
    else:
        from loba_dsl.named_tuple import NamedTuple
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's flag, without importing typing
if TYPE_CHECKING:
    from typing import Any

__all__ = ["NamedTuple"]


_NAMED_TUPLE_OWN = frozenset(["__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                              "_make", "_replace", "_asdict", "_source"])


class _NamedTupleType(type):
    """Makes ``class P(NamedTuple): x: int`` the class :func:`collections.namedtuple` makes, with the class's
    defaults, methods and docstring, as :class:`typing.NamedTuple` does."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> Any:
        if not bases:  # NamedTuple itself
            return super().__new__(mcls, name, bases, namespace)
        from collections import namedtuple

        annotations = namespace.get("__annotations__", {})
        defaults = [namespace[n] for n in annotations if n in namespace]
        if any(n not in namespace for n in list(annotations)[len(annotations) - len(defaults):]):
            raise TypeError(f"{name}: a field without a default follows one with a default")
        made = namedtuple(name, list(annotations), defaults=defaults, module=namespace["__module__"])  # type: ignore[misc]
        made.__annotations__ = dict(annotations)
        for key, value in namespace.items():
            if key in _NAMED_TUPLE_OWN:
                raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
            if key not in ("__module__", "__annotations__") and key not in annotations:
                setattr(made, key, value)
        return made


class NamedTuple(metaclass=_NamedTupleType):
    """:class:`typing.NamedTuple` for classes whose annotations are strings (see :class:`_NamedTupleType`).

    >>> class Point(NamedTuple):
    ...     'A point.'
    ...     x: int
    ...     y: int = 0
    ...     def norm(self) -> int:
    ...         return abs(self.x) + abs(self.y)
    >>> Point(3), Point(3, -4).norm(), Point._fields, Point.__doc__, Point(1, 2) == (1, 2)
    (Point(x=3, y=0), 7, ('x', 'y'), 'A point.', True)
    """
