"""``dataclass`` without importing :mod:`dataclasses` (issues 11 and 22: start-up).

The standard module brings :mod:`inspect` (and with it ``ast``, ``dis``, ``tokenize``), ``copy`` and
``re``: a large share of a ``loba check`` start-up, before a single class is decorated; then it compiles
several small functions per class.  :func:`dataclass` here builds the same class for the options this
package uses (``frozen``, ``slots``, ``eq``, ``repr``; fields with ``default``, ``default_factory``,
``init``, ``repr``, ``compare``, ``hash``, ``kw_only``, ``metadata``; ``__post_init__``) and imports
nothing:

- ``__eq__``, ``__hash__``, ``__repr__``, the frozen ``__setattr__``/``__delattr__`` and (frozen, with
  slots) the pickling state are closures over the field names, computing what the standard ones compute,
  and set where the standard decorator would set them (never over a method the class writes itself);
- ``__init__`` is written the first time it is used (an instance made, or ``Class.__init__`` read, as
  :func:`inspect.signature` does): a class never instantiated in a run never gets one.  It is a code
  object compiled once per number of parameters from a fixed template (the text holds no name of any
  class or field), then given the class's parameter and field names with :meth:`types.CodeType.replace`:
  no field name, let alone input, is ever parsed.  With slots it sets each slot through the slot's own
  descriptor, found once (``object.__setattr__`` would look it up by name at every call);
- ``__dataclass_fields__`` and ``__dataclass_params__`` are the standard module's own objects, made the
  first time something asks (``dataclasses.fields``, ``replace``, ``asdict``, ``is_dataclass``, a
  dataclass subclass): only then is :mod:`dataclasses` imported.  :func:`init_fields`,
  :func:`field_names` and :func:`replace` answer this package's own questions without it.

Anything else (``order``, ``unsafe_hash``, ``init``, ``kw_only`` or ``match_args`` options, a
``ClassVar``, ``InitVar`` or ``KW_ONLY`` annotation, annotations that are not strings, a dataclass base,
a ``__setattr__`` of the class's or a base's own, a metaclass, a mutable default, a misordered default)
goes to :func:`dataclasses.dataclass` unchanged, which builds it or says what is wrong.

Modules import it as ``dataclass`` (and ``field``) at run time only; type checkers see the standard ones::

    if TYPE_CHECKING:
        from dataclasses import dataclass, field
    else:
        from loba_dsl.frozen import dataclass, field

>>> @dataclass(frozen=True, slots=True)
... class P:
...     x: int
...     y: int = 2
...     z: tuple[int, ...] = field(default_factory=tuple, kw_only=True)
>>> P(1), P(1) == P(1, 2), P(1) != P(2), hash(P(1)) == hash((1, 2, ())), P.__doc__
(P(x=1, y=2, z=()), True, True, True, "P(x: 'int', y: 'int' = 2, *, z: 'tuple[int, ...]' = <factory>)")
>>> P(1).x = 3
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

import sys
from operator import attrgetter
from types import CellType, CodeType, FunctionType

TYPE_CHECKING = False  # typing's own flag, without importing typing (mypy and ruff read the name)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, TypeVar

    T = TypeVar("T")

__all__ = ["dataclass", "field", "field_names", "init_fields", "replace"]

_FAST_OPTIONS = frozenset(["frozen", "slots", "eq", "repr"])
_NOT_OURS = ("ClassVar", "InitVar", "KW_ONLY")  # annotations only the standard decorator reads
_SET, _HOOK = "__loba_set__", "__loba_hook__"  # the template's free variables (__loba_set__0, ... with slots)
_CLOSURES = ("_repr.", "_eq.", "_hash.", "_frozen_setattr.", "_frozen_delattr.", "_getstate.", "_setstate.")


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<missing>"


class _Factory:
    """The default of a parameter whose field has a ``default_factory`` (the standard one's ``<factory>``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


MISSING: Any = _Missing()
FACTORY: Any = _Factory()


class Field:
    """What :func:`field` was given, until the class is built."""

    __slots__ = ("compare", "default", "default_factory", "hash", "init", "kw_only", "metadata", "repr")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool,
                 hash: bool | None, compare: bool, metadata: Mapping[Any, Any] | None, kw_only: Any) -> None:
        self.default, self.default_factory, self.init, self.repr = default, default_factory, init, repr
        self.hash, self.compare, self.metadata, self.kw_only = hash, compare, metadata, kw_only


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True, repr: bool = True,
          hash: bool | None = None, compare: bool = True, metadata: Mapping[Any, Any] | None = None,
          kw_only: Any = MISSING) -> Any:
    """:func:`dataclasses.field`, for classes built by :func:`dataclass` (and by the standard decorator)."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


class _Spec:
    """One field of a class built here."""

    __slots__ = ("annotation", "compare", "default", "factory", "hash", "init", "kw_only", "metadata", "name",
                 "repr")

    def __init__(self, name: str, annotation: str, given: Any) -> None:
        self.name, self.annotation = name, annotation
        self.default, self.factory, self.init, self.repr = given, MISSING, True, True
        self.hash: bool | None = None
        self.compare, self.metadata, self.kw_only = True, None, False
        if isinstance(given, Field):
            self.default, self.factory, self.init, self.repr = (given.default, given.default_factory, given.init,
                                                                given.repr)
            self.hash, self.compare, self.metadata = given.hash, given.compare, given.metadata
            self.kw_only = given.kw_only is True

    def hashed(self) -> bool:
        return self.compare if self.hash is None else self.hash


class _Layout:
    """A class's fields, options and ``__init__``'s shape: what its methods and the standard objects are made of."""

    __slots__ = ("factories", "fields", "hooked", "init_names", "keyword", "options", "positional", "post_init",
                 "self_name")

    def __init__(self, fields: list[_Spec], options: dict[str, Any], post_init: bool) -> None:
        self.fields, self.options, self.post_init = fields, options, post_init
        slots = bool(options.get("slots"))
        taken = [f for f in fields if f.init]
        self.positional = [f for f in taken if not f.kw_only]
        self.keyword = [f for f in taken if f.kw_only]
        self.init_names = tuple(f.name for f in self.positional + self.keyword)
        self.self_name = "__dataclass_self__" if any(f.name == "self" for f in fields) else "self"
        # Set once the parameters are: the fields with a factory, and those __init__ does not take that have a
        # default (with slots only: otherwise the class attribute holds it, as with the standard decorator).
        self.factories = [f for f in fields
                          if f.factory is not MISSING or (slots and not f.init and f.default is not MISSING)]
        self.hooked = bool(self.factories) or post_init


_STANDARD_CLASSES: dict[type, _Layout] = {}


def dataclass(cls: type | None = None, /, **options: Any) -> Any:
    """:func:`dataclasses.dataclass`, without importing it for ``frozen=True`` classes (see the module)."""

    def wrap(c: type) -> type:
        built = _build(c, options)
        return _standard(c, options) if built is None else built

    return wrap if cls is None else wrap(cls)


def init_fields(cls: type) -> tuple[tuple[str, ...], bool] | None:
    """For a class built here: the fields its ``__init__`` takes, and whether setting them is all it does
    (no factory, no field left out of ``__init__``, no ``__post_init__``); None for any other class."""
    layout = _layout(cls)
    if layout is None:
        return None
    return layout.init_names, not layout.hooked and len(layout.init_names) == len(layout.fields)


def field_names(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields, in order (``[f.name for f in dataclasses.fields(cls)]``), answered
    without importing :mod:`dataclasses` for a class built here."""
    layout = _layout(cls)
    if layout is not None:
        return tuple(f.name for f in layout.fields)
    import dataclasses

    return tuple(f.name for f in dataclasses.fields(cls))


def replace(obj: T, /, **changes: Any) -> T:
    """:func:`dataclasses.replace`, without importing it for an instance of a class built here."""
    layout = _layout(type(obj))
    if layout is None:
        import dataclasses

        replaced: T = dataclasses.replace(obj, **changes)  # type: ignore[type-var]
        return replaced
    for f in layout.fields:
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    new: T = obj.__class__(**changes)
    return new


def _layout(cls: type) -> _Layout | None:
    for klass in cls.__mro__:
        layout = _STANDARD_CLASSES.get(klass)
        if layout is not None:
            return layout
    return None


def _standard(cls: type, options: dict[str, Any]) -> type:
    """The standard decorator, with any :func:`field` of ours turned into its own."""
    import dataclasses

    for name, value in list(cls.__dict__.items()):
        if isinstance(value, Field):
            kw_only = dataclasses.MISSING if value.kw_only is MISSING else value.kw_only
            setattr(cls, name, dataclasses.field(
                default=_theirs(value.default), default_factory=_theirs(value.default_factory), init=value.init,
                repr=value.repr, hash=value.hash, compare=value.compare, metadata=value.metadata, kw_only=kw_only))
    built: type = dataclasses.dataclass(cls, **options)
    return built


def _theirs(value: Any) -> Any:
    if value is MISSING:
        import dataclasses

        return dataclasses.MISSING
    return value


def _build(cls: type, options: dict[str, Any]) -> type | None:
    """``cls`` built as the standard decorator builds it, or None where that is its business (see the module)."""
    if not _FAST_OPTIONS.issuperset(options) or type(cls) is not type:
        return None
    frozen, slots = bool(options.get("frozen", False)), bool(options.get("slots", False))
    eq, show = bool(options.get("eq", True)), bool(options.get("repr", True))
    if any("__dataclass_fields__" in vars(base) or base in _STANDARD_CLASSES for base in cls.__mro__[1:]):
        return None
    if (slots and cls.__bases__ != (object,)) or "__slots__" in cls.__dict__:
        return None
    if any(name in cls.__dict__ for name in ("__setattr__", "__delattr__", "__init__", "__new__")):
        return None  # refused for a frozen class, or a signature (and docstring) of the class's own making
    if any("__setattr__" in vars(c) for c in cls.__mro__[1:-1]):
        return None  # ``__init__`` sets the fields with ``object.__setattr__``: only where that is what ``=`` does
    fields = _fields(cls)
    if fields is None:
        return None
    layout = _Layout(fields, options, hasattr(cls, "__post_init__"))
    if any(f.name.startswith("__loba_") for f in fields):
        return None
    seen_default = False
    for f in layout.positional:
        defaulted = f.default is not MISSING or f.factory is not MISSING
        if seen_default and not defaulted:
            return None  # "non-default argument follows default argument": the standard decorator says so
        seen_default = seen_default or defaulted
    for f in fields:
        if isinstance(cls.__dict__.get(f.name), Field) or _is_standard_field(cls.__dict__.get(f.name)):
            if f.default is MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    own = cls.__dict__
    names = tuple(f.name for f in fields)
    methods: dict[str, Any] = {}
    if "__init__" not in own:
        methods["__init__"] = _LazyInit()
    if show and "__repr__" not in own:
        methods["__repr__"] = _repr(tuple(f.name for f in fields if f.repr))
    if eq:
        compared = tuple(f.name for f in fields if f.compare)
        if "__eq__" not in own:
            methods["__eq__"] = _eq(_key(compared))
        class_hash = own.get("__hash__", MISSING)
        if class_hash is MISSING or (class_hash is None and "__eq__" in own):  # no hash of its own
            methods["__hash__"] = _hash(_key(tuple(f.name for f in fields if f.hashed()))) if frozen else None
    if "__match_args__" not in own:
        methods["__match_args__"] = tuple(f.name for f in layout.positional)
    if sys.version_info >= (3, 13) and "__replace__" not in own:
        methods["__replace__"] = _replace
    if not own.get("__doc__"):
        methods["__doc__"] = cls.__name__ + _signature_text(layout)
    for name, value in methods.items():
        setattr(cls, name, value)
    if slots:
        body = dict(cls.__dict__)
        body["__slots__"] = names
        for name in (*names, "__dict__", "__weakref__"):
            body.pop(name, None)
        qualname = cls.__qualname__
        cls = type(cls.__name__, cls.__bases__, body)
        cls.__qualname__ = qualname
    if frozen:
        cls.__setattr__ = _frozen_setattr(cls, frozenset(names))  # type: ignore[method-assign,assignment]
        cls.__delattr__ = _frozen_delattr(cls, frozenset(names))  # type: ignore[method-assign,assignment]
    if frozen and slots:  # as the standard decorator does for a frozen class with slots, so that copy and pickle work
        for name, value in (("__getstate__", _getstate(names)), ("__setstate__", _setstate(names))):
            if name not in cls.__dict__:
                setattr(cls, name, value)
    for name, value in cls.__dict__.items():
        if isinstance(value, FunctionType) and value.__qualname__.startswith(_CLOSURES):  # ours: named for the class
            value.__name__, value.__qualname__, value.__module__ = name, f"{cls.__qualname__}.{name}", cls.__module__
    cls.__dataclass_fields__ = _Standard("__dataclass_fields__")  # type: ignore[attr-defined]
    cls.__dataclass_params__ = _Standard("__dataclass_params__")  # type: ignore[attr-defined]
    _STANDARD_CLASSES[cls] = layout
    return cls


def _fields(cls: type) -> list[_Spec] | None:
    """The fields of ``cls``'s own annotations, or None where the standard decorator should read them."""
    own = cls.__dict__
    annotations = own.get("__annotations__")
    if annotations is None:
        return None if "__annotate__" in own else []  # Python 3.14's lazy annotations: its business
    fields = []
    for name, annotation in annotations.items():
        if not isinstance(annotation, str) or any(word in annotation for word in _NOT_OURS):
            return None
        value = own.get(name, MISSING)
        if _is_standard_field(value):
            value = _from_standard(value)
        spec = _Spec(name, annotation, value)
        if spec.default is not MISSING and type(spec.default).__hash__ is None:
            return None  # a mutable default: the standard decorator refuses it
        fields.append(spec)
    return fields


def _is_standard_field(value: Any) -> bool:
    standard = sys.modules.get("dataclasses")
    return standard is not None and isinstance(value, standard.Field)


def _from_standard(value: Any) -> Field:
    import dataclasses

    def ours(v: Any) -> Any:
        return MISSING if v is dataclasses.MISSING else v

    return Field(ours(value.default), ours(value.default_factory), value.init, value.repr, value.hash, value.compare,
                 dict(value.metadata) or None, ours(value.kw_only))


def _signature_text(layout: _Layout) -> str:
    """``str(inspect.signature(cls))`` without ``-> None``: the docstring the standard decorator writes."""

    def shown(f: _Spec) -> str:
        default = " = <factory>" if f.factory is not MISSING else "" if f.default is MISSING else f" = {f.default!r}"
        return f"{f.name}: {f.annotation!r}{default}"

    parts = [shown(f) for f in layout.positional]
    if layout.keyword:
        parts += ["*", *(shown(f) for f in layout.keyword)]
    return f"({', '.join(parts)})"


class _Standard:
    """``__dataclass_fields__`` or ``__dataclass_params__``: the standard module's objects for the class,
    made the first time they are read (from a twin the standard decorator builds), then kept on it."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        cls = next(c for c in (owner or type(instance)).__mro__ if c in _STANDARD_CLASSES)
        twin = _twin(cls)
        for name in ("__dataclass_fields__", "__dataclass_params__"):
            setattr(cls, name, getattr(twin, name))
        return getattr(cls, self.name)


def _twin(cls: type) -> type:
    """A class the standard decorator builds from the same fields and options."""
    import dataclasses

    layout = _STANDARD_CLASSES[cls]
    body: dict[str, Any] = {"__annotations__": {f.name: f.annotation for f in layout.fields},
                            "__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__}
    for f in layout.fields:
        body[f.name] = dataclasses.field(
            default=_theirs(f.default), default_factory=_theirs(f.factory), init=f.init, repr=f.repr, hash=f.hash,
            compare=f.compare, metadata=f.metadata, kw_only=f.kw_only)
    twin: type = dataclasses.dataclass(type(cls.__name__, (), body), **layout.options)
    return twin


def _replace(self: Any, /, **changes: Any) -> Any:
    """``copy.replace`` (Python 3.13): :func:`dataclasses.replace`."""
    import dataclasses

    return dataclasses.replace(self, **changes)


# ---------------------------------------------------------------- __init__, written on first use


class _LazyInit:
    """A class's ``__init__`` until it is first used (an instance made, or ``Class.__init__`` read): then the
    ``__init__`` the standard decorator would write replaces it, so every later instance is made as fast."""

    __slots__ = ()

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        cls = next(c for c in (owner or type(instance)).__mro__ if c in _STANDARD_CLASSES)
        init = cls.__dict__["__init__"]
        if isinstance(init, _LazyInit):
            init = _init(cls, _STANDARD_CLASSES[cls])
            cls.__init__ = init  # type: ignore[misc]
        return init if instance is None else init.__get__(instance, owner)


_TEMPLATES: dict[tuple[int, bool, bool], CodeType] = {}


def _template(count: int, hooked: bool, by_slot: bool) -> CodeType:
    """The code of an ``__init__`` taking ``count`` values, each set on the instance (``by_slot``: by its
    slot's own descriptor, found once, rather than by ``object.__setattr__`` finding it by name per call),
    then (``hooked``) one call with the instance: compiled once per shape, from a text made of numbers only."""
    key = (count, hooked, by_slot)
    code = _TEMPLATES.get(key)
    if code is None:
        params = "".join(f", a{i}" for i in range(count))
        setters = [f"{_SET}{i}" for i in range(count)] if by_slot else [_SET]
        lines = [f"        {_SET}{i}(self, a{i})\n" if by_slot else f"        {_SET}(self, 'f{i}', a{i})\n"
                 for i in range(count)]
        if hooked:
            lines.append(f"        {_HOOK}(self)\n")
        text = (f"def outer({', '.join([*setters, _HOOK])}):\n    def __init__(self{params}):\n"
                + ("".join(lines) or "        pass\n") + "    return __init__\n")
        module = compile(text, "<loba_dsl.frozen template>", "exec")
        outer = next(c for c in module.co_consts if isinstance(c, CodeType))
        code = next(c for c in outer.co_consts if isinstance(c, CodeType))
        _TEMPLATES[key] = code
    return code


def _init(cls: type, layout: _Layout) -> Any:
    """``cls``'s ``__init__``: the template given its parameter and field names, defaults and hook."""
    params = layout.positional + layout.keyword
    by_slot = bool(layout.options.get("slots"))
    code = _template(len(params), layout.hooked, by_slot)
    names = {f"f{i}": f.name for i, f in enumerate(params)}
    qualname = f"{cls.__qualname__}.__init__"
    code = code.replace(
        co_varnames=(layout.self_name, *names.values(), *code.co_varnames[len(params) + 1:]),
        co_consts=tuple(names.get(c, c) if isinstance(c, str) else c for c in code.co_consts),
        co_argcount=1 + len(layout.positional), co_kwonlyargcount=len(layout.keyword), co_qualname=qualname)
    cells = {_SET: CellType(object.__setattr__), _HOOK: CellType(_hook(layout) if layout.hooked else None)}
    if by_slot:
        cells.update((f"{_SET}{i}", CellType(cls.__dict__[f.name].__set__)) for i, f in enumerate(params))
    module = sys.modules.get(cls.__module__)
    init = FunctionType(code, module.__dict__ if module is not None else {"__name__": cls.__module__}, "__init__",
                        tuple(_default(f) for f in layout.positional if _defaulted(f)) or None,
                        tuple(cells[name] for name in code.co_freevars))
    init.__kwdefaults__ = {f.name: _default(f) for f in layout.keyword if _defaulted(f)} or None
    init.__annotations__ = {**{f.name: f.annotation for f in params}, "return": None}
    init.__qualname__ = qualname
    return init


def _defaulted(f: _Spec) -> bool:
    return f.default is not MISSING or f.factory is not MISSING


def _default(f: _Spec) -> Any:
    return FACTORY if f.factory is not MISSING else f.default


def _hook(layout: _Layout) -> Callable[[Any], None]:
    """What ``__init__`` does once the values given are set: the factories' values, the fields it does not
    take, then ``__post_init__``."""
    setting = object.__setattr__
    made = [(f.name, f.init, f.factory, f.default) for f in layout.factories]
    post_init = layout.post_init

    def after(self: Any) -> None:
        for name, given, factory, default in made:
            if not given:
                setting(self, name, default if factory is MISSING else factory())
            elif getattr(self, name) is FACTORY:
                setting(self, name, factory())
        if post_init:
            self.__post_init__()

    return after


# ---------------------------------------------------------------- the other methods, closures


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


def _frozen_error(message: str) -> Exception:
    import dataclasses  # only when someone tries: the error is the standard one

    return dataclasses.FrozenInstanceError(message)


def _frozen_setattr(cls: type, names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    owner: Any = cls

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    return __setattr__


def _frozen_delattr(cls: type, names: frozenset[str]) -> Callable[[Any, str], None]:
    owner: Any = cls

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot delete field {name!r}")
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

