"""The disk cache of compiled rulesets, for the command line's start-up only (issue 9: it runs no code).

An entry is JSON of plain data: this package's dataclasses and enums (by ``module:Name``, looked up
only inside ``loba_dsl`` and only if they are dataclasses or enums), tuples, lists, dicts, sets and
scalars.  It is decoded, never executed: no pickle, no marshal.  The folder must be a real folder
of this user that nobody else may write (it is created with mode 0700; otherwise the cache is not
used).  Entries are written to a new temporary file (``O_CREAT | O_EXCL | O_NOFOLLOW``, a random
name) and renamed into place, so concurrent writers all succeed and no planted link is followed.
An entry is named by a hash of the asked-for file's content, what its ``extends`` may reach, the
package's compiling code, grammar and schema (their bytes); it also lists every parent file's hash,
checked before use, and carries a digest of its whole content (:func:`seal`), recomputed before use.
Anything stale, edited, foreign, corrupt or not ours is a miss and is rebuilt.

>>> from loba_dsl.dsl.ast import Pos
>>> encode((Pos(1, 2, 3), frozenset([4])))
[{'dc': 'loba_dsl.dsl.ast:Pos', 'f': {'line': 1, 'column': 2, 'length': 3}}, {'frozenset': [4]}]
>>> decode(encode((Pos(1, 2, 3), frozenset([4])))) == (Pos(1, 2, 3), frozenset([4]))
True
>>> decode({"dc": "os:system", "f": {}})
Traceback (most recent call last):
...
loba_dsl.rules.disk_cache.CacheEntryError: not a class of this package
"""

from __future__ import annotations

import enum
import functools
import math
import os
import stat
import sys
from types import MappingProxyType

from loba_dsl import jsontext
from loba_dsl.frozen import init_fields
from loba_dsl.rules.model import Ruleset

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path as FilePath
    from typing import Any

__all__ = ["CacheEntryError", "cache_dir", "decode", "encode", "get", "put", "seal"]

FORMAT = "loba-dsl-ruleset-json-2"
"""The layout of an entry; an entry of another layout is a miss."""
MAX_ENTRY_BYTES = 16 * 1024 * 1024
"""A larger entry is not read."""

Digests = tuple[tuple[str, str], ...]


def cache_dir() -> FilePath:
    """Where the cache lives: ``$LOBA_CACHE_DIR``, else ``$XDG_CACHE_HOME/loba-dsl``, else
    ``~/.cache/loba-dsl``."""
    from pathlib import Path  # not on the start-up path, which uses the folder's name (issue 11)

    return Path(_cache_folder())


def _cache_folder() -> str:
    """:func:`cache_dir` as a string: ``str(cache_dir())``, without importing pathlib."""
    named = os.environ.get("LOBA_CACHE_DIR")
    if named:
        return _as_path(named)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        base = os.path.expanduser("~")
        if base[:1] == "~":  # as Path.home()
            raise RuntimeError("Could not determine home directory.")
        base = os.path.join(base, ".cache")
    return _as_path(os.path.join(base, "loba-dsl"))


def _as_path(name: str) -> str:
    """``str(pathlib.Path(name))``: ``name`` itself when it has no empty or ``.`` part to drop (the usual
    case, answered without importing pathlib), else what pathlib makes of it."""
    if os.sep == "/" and os.altsep is None and name and name != "/" and "//" not in name and "/./" not in name \
            and not name.startswith("./") and not name.endswith(("/", "/.")):
        return name
    from pathlib import Path

    return str(Path(name))


def own_folder(create: bool) -> str | None:
    """The cache folder if it is a real folder of this user that nobody else may write, else None."""
    folder = _cache_folder()
    try:
        if create and not os.path.lexists(folder):
            from pathlib import Path  # only when the folder is made

            Path(folder).parent.mkdir(parents=True, exist_ok=True)
            os.mkdir(folder, 0o700)
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o077:
        return None
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return None
    return folder


def get(key: str, salt: str, unchanged: Callable[[Digests], bool]) -> tuple[Digests, Ruleset] | None:
    """The entry ``key`` if it is ours, of this ``salt``, and its parent files are ``unchanged``."""
    folder = own_folder(create=False)
    if folder is None:
        return None
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(os.path.join(folder, f"{key}.json"), flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            return None
        chunks = []
        while chunk := os.read(fd, MAX_ENTRY_BYTES + 1):
            chunks.append(chunk)
        raw = b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        entry = jsontext.loads(raw)
        if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != key:
            return None
        if entry.get("salt") != salt:
            return None
        if entry.get("digest") != seal(key, salt, entry["files"], entry["ruleset"]):
            return None  # edited or damaged since it was written: every byte of it is checked before use
        digests = tuple((str(i), str(d)) for i, d in entry["files"])
        if not unchanged(digests):
            return None
        ruleset = decode(entry["ruleset"])
    except Exception:  # a corrupt, foreign or old entry is only a miss; it is rebuilt
        return None
    return (digests, ruleset) if isinstance(ruleset, Ruleset) else None


def seal(key: str, salt: str, files: Any, body: Any) -> str:
    """The SHA-256 of an entry's content (its key, salt, parent files and encoded ruleset, as one canonical
    JSON text), which :func:`get` recomputes before it uses the entry: an entry edited by hand or damaged
    on disk is a miss, never a ruleset that answers wrongly."""
    from loba_dsl.rules.sources import sha256_hex

    text = jsontext.dumps([key, salt, files, body], separators=(",", ":"), allow_nan=False)
    return sha256_hex(text.encode("utf-8", "surrogatepass"))


def temp_name(key: str) -> str:
    """A fresh name for the file an entry is written to before it is renamed into place."""
    import secrets

    return f".{key}.{os.getpid()}.{secrets.token_hex(8)}.tmp"


def put(key: str, salt: str, digests: Digests, ruleset: Ruleset) -> None:
    """Write the entry ``key`` atomically; any problem only means it is not kept."""
    files = [list(d) for d in digests]
    try:
        body = encode(ruleset)
        digest = seal(key, salt, files, body)
    except (Unencodable, RecursionError, ValueError):
        return  # a ruleset that is not plain data is simply not kept on disk
    folder = own_folder(create=True)
    if folder is None:
        return
    entry = {"format": FORMAT, "key": key, "salt": salt, "files": files, "ruleset": body, "digest": digest}
    data = jsontext.dumps(entry, separators=(",", ":")).encode("utf-8", "surrogatepass")
    tmp = os.path.join(folder, temp_name(key))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(tmp, flags, 0o600)
    except OSError:
        return  # something is already there (perhaps planted): leave it alone
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(folder, f"{key}.json"))
    except OSError:
        import contextlib  # only here: not on the start-up path (issue 22)

        with contextlib.suppress(OSError):
            os.unlink(tmp)


# ---------------------------------------------------------------- plain data <-> JSON


class Unencodable(Exception):
    """A value that is not plain data of this package."""


class CacheEntryError(Exception):
    """A cache entry that does not decode to plain data of this package."""


def encode(value: Any) -> Any:
    """``value`` (dataclasses and enums of ``loba_dsl``, tuples, lists, dicts, sets, scalars) as JSON data."""
    if isinstance(value, enum.Enum):  # before str: a StrEnum is a str too, and must come back an enum
        return {"enum": _class_name(type(value)), "v": encode(value.value)}
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    if isinstance(value, list):
        return {"list": [encode(v) for v in value]}
    if isinstance(value, frozenset | set):
        return {"frozenset" if isinstance(value, frozenset) else "set": [encode(v) for v in value]}
    if isinstance(value, dict | MappingProxyType):
        pairs = [[encode(k), encode(v)] for k, v in value.items()]
        return {"dict" if isinstance(value, dict) else "mappingproxy": pairs}
    names = _init_names(type(value))
    if names is not None:
        return {"dc": _class_name(type(value)), "f": {name: encode(getattr(value, name)) for name in names}}
    raise Unencodable(type(value).__qualname__)


def _init_names(cls: type) -> tuple[str, ...] | None:
    """The fields ``__init__`` takes, for a dataclass (None for any other class)."""
    ours = init_fields(cls)  # a class of loba_dsl.frozen: answered without importing dataclasses
    if ours is not None:
        return ours[0]
    if not hasattr(cls, "__dataclass_fields__"):
        return None
    import dataclasses

    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


def decode(data: Any) -> Any:
    """The value :func:`encode` gave ``data`` for; only this package's dataclasses and enums are built."""
    kind = type(data)
    if kind is list:
        return tuple([decode(v) for v in data])
    if kind is not dict:
        if kind in _SCALARS:
            return data
        raise CacheEntryError("not an encoded value")
    if "dc" in data:
        cls, names, plain = _dataclass(data["dc"])
        fields = data["f"]
        if type(fields) is not dict or not names.issuperset(fields):
            raise CacheEntryError("bad fields")
        values = {k: decode(v) for k, v in fields.items()}
        if plain and len(values) == len(names):
            # What its ``__init__`` would do (every field given, nothing computed): set the fields, so a
            # class first seen here compiles no ``__init__`` (see loba_dsl.frozen); unpickling does the same.
            obj: Any = object.__new__(cls)
            for k, v in values.items():
                object.__setattr__(obj, k, v)
            return obj
        return cls(**values)
    if "enum" in data:
        return _enum(data["enum"])(decode(data["v"]))
    if len(data) != 1:
        raise CacheEntryError("not an encoded value")
    ((tag, body),) = data.items()
    if tag == "float" and body in ("inf", "-inf", "nan"):
        return float(body)
    if type(body) is not list:
        raise CacheEntryError("bad container")
    if tag == "dict":
        return {decode(k): decode(v) for k, v in body}
    if tag == "frozenset":
        return frozenset([decode(v) for v in body])
    if tag == "list":
        return [decode(v) for v in body]
    if tag == "set":
        return {decode(v) for v in body}
    if tag == "mappingproxy":
        return MappingProxyType({decode(k): decode(v) for k, v in body})
    raise CacheEntryError(f"unknown tag {tag!r}")


_SCALARS = frozenset([type(None), bool, int, float, str])


def _class_name(cls: type) -> str:
    if not cls.__module__.startswith("loba_dsl.") or "." in cls.__qualname__:
        raise Unencodable(cls.__qualname__)
    return f"{cls.__module__}:{cls.__qualname__}"


@functools.cache
def _dataclass(name: str) -> tuple[type, frozenset[str], bool]:
    """The dataclass, its ``__init__``'s fields, and whether setting those is all its ``__init__`` does."""
    cls = _class(name)
    ours = init_fields(cls)  # a class of loba_dsl.frozen: answered without importing dataclasses
    if ours is not None:
        return cls, frozenset(ours[0]), ours[1]
    if not hasattr(cls, "__dataclass_fields__"):
        raise CacheEntryError("not a dataclass")
    import dataclasses

    fields = dataclasses.fields(cls)
    plain = all(f.init for f in fields) and not hasattr(cls, "__post_init__")
    return cls, frozenset(f.name for f in fields if f.init), plain


@functools.cache
def _enum(name: str) -> type[enum.Enum]:
    cls = _class(name)
    if not issubclass(cls, enum.Enum):
        raise CacheEntryError("not an enum")
    return cls


def _class(name: Any) -> type:
    """The dataclass or enum ``module:Name`` of this package (nothing else is ever looked up)."""
    if not isinstance(name, str) or name.count(":") != 1:
        raise CacheEntryError("bad class name")
    module, qualname = name.split(":")
    if not module.startswith("loba_dsl.") or not qualname.isidentifier() or not all(
        part.isidentifier() for part in module.split(".")
    ):
        raise CacheEntryError("not a class of this package")
    __import__(module)  # importlib.import_module, without importing importlib (issue 22: start-up)
    cls = getattr(sys.modules[module], qualname, None)
    if not isinstance(cls, type) or cls.__module__ != module:
        raise CacheEntryError("not a class of this package")
    if not (issubclass(cls, enum.Enum) or init_fields(cls) is not None or hasattr(cls, "__dataclass_fields__")):
        raise CacheEntryError("neither a dataclass nor an enum")
    return cls
