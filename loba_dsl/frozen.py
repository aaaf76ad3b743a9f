"""``dataclass(frozen=True)`` for less of its import-time cost (issue 11: start-up).

The standard decorator compiles six small functions for each frozen class (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) and asks ``inspect``
for a signature to write a missing docstring: a large part of ``loba check``'s start-up went on
the syntax tree's and the ruleset model's classes.  :func:`dataclass` here leaves the fields and
slots to the standard decorator (so ``dataclasses.fields``, ``replace``, ``is_dataclass``,
``asdict`` and pattern matching work as before) but asks it for no method: ``__eq__``,
``__hash__``, ``__repr__``, the frozen ``__setattr__``/``__delattr__`` and (with slots) the
pickling state are closures over the field names, computing what the standard ones compute
(equality of the fields' tuple between instances of the same class, the hash of that tuple,
``Name(field=value, ...)``, "cannot assign to field"), and ``__init__`` is the standard
decorator's own, written the first time the class is instantiated (or its ``__init__`` is read):
a class that is never instantiated in a run never compiles one.  Nothing is compiled from text
here.  Anything else (``order``, ``eq=False``, ``unsafe_hash``, a class that is not frozen, fields
with ``init=False``, ``compare=False``, ``hash=`` or ``repr=False``, a hand-written method, a
dataclass base) goes to :func:`dataclasses.dataclass` unchanged.

Modules import it as ``dataclass`` at run time only; type checkers see the standard decorator::

    if TYPE_CHECKING:
        from dataclasses import dataclass
    else:
        from loba_dsl.frozen import dataclass

>>> @dataclass(frozen=True, slots=True)
... class P:
...     x: int
...     y: int = 2
>>> P(1), P(1) == P(1, 2), P(1) != P(2), hash(P(1)) == hash((1, 2)), P.__doc__
(P(x=1, y=2), True, True, True, "P(x: 'int', y: 'int' = 2)")
>>> P(1).x = 3
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from operator import attrgetter
from typing import Any

__all__ = ["dataclass"]

_standard = dataclasses.dataclass
_FAST_OPTIONS = frozenset(["frozen", "slots"])
_OURS = ("__repr__", "__eq__", "__hash__", "__init__", "__setattr__", "__delattr__", "__getstate__", "__setstate__")
_NO_DOC = "(the standard docstring, written once the fields are known)"


@_standard(frozen=True, slots=True)
class _SlotsTemplate:
    """Carries the standard decorator's parameter record for ``frozen=True, slots=True``."""


@_standard(frozen=True)
class _Template:
    """The same for ``frozen=True``."""


_PARAMS = {True: _SlotsTemplate.__dataclass_params__, False: _Template.__dataclass_params__}  # type: ignore[attr-defined]


def dataclass(cls: type | None = None, /, **options: Any) -> Any:
    """:func:`dataclasses.dataclass`, cheaper to apply for ``frozen=True`` (optionally ``slots=True``)."""

    def wrap(c: type) -> type:
        return _build(c, options)

    return wrap if cls is None else wrap(cls)


def _build(cls: type, options: dict[str, Any]) -> type:
    if not options.get("frozen") or not _FAST_OPTIONS.issuperset(options) or not _plain(cls):
        return _standard(cls, **options)
    slots = bool(options.get("slots"))
    own_doc = cls.__dict__.get("__doc__") is not None
    if not own_doc:
        cls.__doc__ = _NO_DOC  # written below, as the standard decorator would, without asking inspect
    # The fields and slots only: no method is compiled (init=False, and frozenness is added below).
    built: type = _standard(cls, init=False, eq=False, repr=False, slots=slots)
    fields = dataclasses.fields(built)
    names = tuple(f.name for f in fields)
    qual = built.__qualname__
    key = _key(names)
    methods: list[tuple[str, Callable[..., Any]]] = [
        ("__eq__", _eq(key)), ("__hash__", _hash(key)), ("__repr__", _repr(names)),
        ("__setattr__", _frozen_setattr(built, frozenset(names))),
        ("__delattr__", _frozen_delattr(built, frozenset(names))),
    ]
    if slots:  # as the standard decorator does for a frozen class with slots, so that copy and pickle work
        methods += [("__getstate__", _getstate(names)), ("__setstate__", _setstate(names))]
    for name, method in methods:
        method.__name__ = name
        method.__qualname__ = f"{qual}.{name}"
        method.__module__ = built.__module__
        setattr(built, name, method)
    built.__init__ = _LazyInit(built)  # type: ignore[misc]
    built.__dataclass_params__ = _PARAMS[slots]  # type: ignore[attr-defined]
    if not own_doc:  # the standard decorator's docstring: the signature as inspect prints it
        shown = [f"{f.name}: {f.type!r}" + ("" if f.default is dataclasses.MISSING else f" = {f.default!r}")
                 + ("" if f.default_factory is dataclasses.MISSING else " = <factory>") for f in fields if f.init]
        built.__doc__ = f"{built.__name__}({', '.join(shown)})"
    return built


class _LazyInit:
    """A class's ``__init__`` until it is first used (an instance made, or ``Class.__init__`` read, as
    :func:`inspect.signature` does): then the standard decorator's own ``__init__`` for these fields
    replaces it, so every later instance is made exactly as fast as a standard frozen dataclass's.
    A class that is never instantiated never compiles one."""

    __slots__ = ("owner",)

    def __init__(self, owner: type) -> None:
        self.owner = owner

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        init = _standard_init(self.owner)
        return init if instance is None else init.__get__(instance, owner)


def _standard_init(cls: type) -> Any:
    """The ``__init__`` that ``dataclass(frozen=True)`` writes for ``cls``'s fields, put on ``cls``: taken
    from a twin class with the same fields (types, defaults, factories, keyword-only, ``__post_init__``)."""
    current = cls.__dict__.get("__init__")
    if not isinstance(current, _LazyInit):
        return current
    init = _init_alone(cls)
    if init is not None:
        cls.__init__ = init  # type: ignore[misc]
        return init
    specs = cls.__dataclass_fields__.values()  # type: ignore[attr-defined]
    body: dict[str, Any] = {
        "__annotations__": {f.name: f.type for f in specs},
        "__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": _NO_DOC,
    }
    for f in specs:
        body[f.name] = dataclasses.field(default=f.default, default_factory=f.default_factory, init=f.init,
                                         repr=f.repr, hash=f.hash, compare=f.compare, metadata=f.metadata,
                                         kw_only=f.kw_only)
    if hasattr(cls, "__post_init__"):
        body["__post_init__"] = cls.__post_init__  # only its presence counts
    twin: type = _standard(type(cls.__name__, (), body), frozen=True, eq=False, repr=False, match_args=False)
    init = twin.__dict__["__init__"]
    cls.__init__ = init  # type: ignore[misc]
    return init


def _init_alone(cls: type) -> Any:
    """The same ``__init__`` compiled alone, by the helper the standard decorator calls for it (a twin class
    also compiles a frozen ``__setattr__`` and ``__delattr__``, and collects its fields again: half of the
    cost, at every start-up that makes its first instances); ``None`` where that helper is not the one of
    Python 3.11, whose arguments are given here (the twin then does it)."""
    if sys.version_info[:2] != (3, 11):
        return None
    try:
        fields = [f for f in cls.__dataclass_fields__.values()  # type: ignore[attr-defined]
                  if f._field_type in (dataclasses._FIELD, dataclasses._FIELD_INITVAR)]  # type: ignore[attr-defined]
        std, kw_only = dataclasses._fields_in_init_order(fields)  # type: ignore[attr-defined]
        module = sys.modules.get(cls.__module__)
        init = dataclasses._init_fn(  # type: ignore[attr-defined]
            fields, std, kw_only, True, hasattr(cls, "__post_init__"),
            "__dataclass_self__" if "self" in cls.__dataclass_fields__ else "self",  # type: ignore[attr-defined]
            module.__dict__ if module is not None else {}, False)
    except (AttributeError, TypeError):
        return None
    init.__qualname__ = f"{cls.__qualname__}.{init.__name__}"
    return init


def _plain(cls: type) -> bool:
    """Whether the fast path builds what the standard decorator would: no dataclass base, no
    hand-written ``__init__``, ``__eq__``, ``__hash__``, ``__repr__``, ``__setattr__``, ``__delattr__`` or
    pickling state, every field initialised, compared, hashed and shown."""
    if any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:]) or any(n in cls.__dict__ for n in _OURS):
        return False
    for value in cls.__dict__.values():
        if isinstance(value, dataclasses.Field) and not (value.compare and value.repr and value.hash is None
                                                         and value.init):
            return False
    return True


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an instance's fields, as the standard methods build it."""
    if len(names) >= 2:
        return attrgetter(*names)
    if not names:
        return lambda _self: ()
    one = attrgetter(names[0])
    return lambda self: (one(self),)


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def _frozen_setattr(cls: type, names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    owner: Any = cls

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    return __setattr__


def _frozen_delattr(cls: type, names: frozenset[str]) -> Callable[[Any, str], None]:
    owner: Any = cls

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    return __delattr__


def _getstate(names: tuple[str, ...]) -> Callable[[Any], list[Any]]:
    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, n) for n in names]

    return __getstate__


def _setstate(names: tuple[str, ...]) -> Callable[[Any, list[Any]], None]:
    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            object.__setattr__(self, name, value)

    return __setstate__
