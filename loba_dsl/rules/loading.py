"""Loading rulesets: by shipped name, from a file or from text; compiled once, then cached.

Three ways in, and no string that means "a name or maybe a path":

- :func:`load` takes a shipped name only (``menos``); it never opens anything else.
- :func:`load_file` reads a file; its ``extends`` may reach shipped rulesets and regular
  ``.yaml`` files beside it (:class:`Siblings`).
- :func:`loads` reads text (an upload); by default its ``extends`` may reach shipped
  rulesets only (:data:`SHIPPED_ONLY`).

>>> rs = loads("name: house\\nextends: menos\\n", source="house.yaml")
>>> rs.name, rs.where("name"), rs.where("melds", "pierna", "shape").startswith("rulesets/menos.yaml:")
('house', 'house.yaml:1', True)
>>> loads("name: house\\nextends: secret.yaml\\n", source="house.yaml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
loba_dsl.errors.RulesetError: house.yaml:2:10: error: 'extends' may name only a shipped ruleset here, ...

Caches.  In the process, compiled rulesets are kept (LRU, :data:`MEMORY_ENTRIES`) under the
SHA-256 of every file in the ``extends`` chain, of the code and grammar that compile them and of
what the resolver may reach.  On disk, only when the command line turns it on
(:func:`enable_disk_cache`): JSON of plain data, decoded, never executed (no pickle, no marshal),
in a folder of the user's own with mode 0700, written atomically without following symlinks; any
entry that is stale, foreign, corrupt or not ours is ignored and rebuilt (:mod:`.disk_cache`).
``LOBA_NO_CACHE=1`` turns it off; ``LOBA_CACHE_DIR`` names the folder
(default ``$XDG_CACHE_HOME/loba-dsl`` or ``~/.cache/loba-dsl``).
"""

from __future__ import annotations

import functools
import os
from _thread import allocate_lock  # threading.Lock itself, without importing threading
from collections import OrderedDict

from loba_dsl.defaults import CACHE_VERSION
from loba_dsl.errors import RulesetError
from loba_dsl.rules.model import Ruleset
from loba_dsl.rules.sources import (
    SHIPPED_ONLY,
    Resolver,
    ShippedOnly,
    Siblings,
    Source,
    file_source,
    read_regular,
    sha256,
    sha256_hex,
    shipped_names,
    shipped_source,
)

__all__ = [
    "MEMORY_ENTRIES",
    "SHIPPED_ONLY",
    "Resolver",
    "ShippedOnly",
    "Siblings",
    "Source",
    "clear_cache",
    "enable_disk_cache",
    "load",
    "load_file",
    "load_named",
    "loads",
    "shipped_names",
]

MEMORY_ENTRIES = 64
"""How many compiled rulesets the in-process cache keeps (least recently used go first)."""


def load(name: str, *, cached: bool = True) -> Ruleset:
    """The shipped ruleset ``name``; a path or a ``.yaml`` name is an unknown ruleset (nothing is read).

    >>> from loba_dsl.defaults import DEFAULT_RULESET
    >>> load(DEFAULT_RULESET).name == DEFAULT_RULESET
    True
    >>> load("/etc/os-release")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    loba_dsl.errors.RulesetError: error: unknown ruleset '/etc/os-release' (shipped: bazas, ...
    """
    return _load(shipped_source(name), SHIPPED_ONLY, cached)


def load_file(path: str | os.PathLike[str], *, cached: bool = True) -> Ruleset:
    """The ruleset in the file ``path`` (errors name it as given); its ``extends`` may reach shipped
    rulesets and regular ``.yaml``/``.yml`` files in its folder."""
    return _load(file_source(path), Siblings(os.path.dirname(os.fspath(path)) or "."), cached)


def loads(text: str | bytes, *, source: str = "<string>", resolver: Resolver = SHIPPED_ONLY,
          cached: bool = True) -> Ruleset:
    """The ruleset in ``text`` (errors name it ``source``); ``resolver`` decides what its ``extends``
    may reach (by default shipped rulesets only: safe for text from anyone)."""
    return _load(Source(text, source, source), resolver, cached)


def load_named(name: str, *, resolver: Resolver = SHIPPED_ONLY, cached: bool = True) -> Ruleset:
    """The ruleset that ``name`` names as an ``extends`` would: a shipped name, or what ``resolver``
    lets it reach (with :class:`Siblings`, a regular ``.yaml`` file of that folder, never a path).

    A game record names its ruleset this way, so a record from anyone reads no file but a sibling.
    """
    return _load(resolver.resolve(name), resolver, cached)


def clear_cache() -> None:
    """Forget every ruleset compiled in this process."""
    with _lock:
        _memory.clear()


def _load(source: Source, resolver: Resolver, cached: bool) -> Ruleset:
    if not cached:
        return _compile(source, resolver)[1]
    key = _key(source, resolver)
    with _lock:
        hit = _memory.get(key)
        if hit is not None:
            _memory.move_to_end(key)
    if hit is not None and _chain_unchanged(hit[0]):
        return hit[1]
    ruleset: Ruleset | None = None
    digests: tuple[tuple[str, str], ...] = ()
    disk = _disk_on(source)
    if disk:
        found = _disk_get(key)
        if found is not None:
            digests, ruleset = found
    if ruleset is None:
        digests, ruleset = _compile(source, resolver)
        if disk:
            _disk_put(key, digests, ruleset)
    with _lock:
        _memory[key] = (digests, ruleset)
        _memory.move_to_end(key)
        while len(_memory) > MEMORY_ENTRIES:
            _memory.popitem(last=False)
    return ruleset


def _compile(source: Source, resolver: Resolver) -> tuple[tuple[tuple[str, str], ...], Ruleset]:
    from loba_dsl.rules.compiler import compile_resolved
    from loba_dsl.rules.documents import fill_defaults, resolve

    resolved = resolve(source, resolver)
    fill_defaults(resolved)
    return resolved.digests, compile_resolved(resolved)


# ---------------------------------------------------------------- keys


_COMPILING = (".", "cards", "dsl", "grammar", "rules", "rulesets")
"""The folders whose code, grammar and schema make a compiled ruleset (see :func:`_salt`)."""


@functools.cache
def _salt() -> str:
    """What else a compiled ruleset depends on: the cache layout (``CACHE_VERSION``) and the bytes of the
    code that compiles it, its grammar and its schema (each file's content, not its size and modification
    time, which an edit may keep: issue 26), so that no entry compiled by other code or rules of the
    language is ever used.  Reading and hashing those ~30 files costs about a millisecond of each start."""
    return code_digest(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))  # os.path: issue 11


def code_digest(root: str) -> str:
    """The SHA-256 of ``CACHE_VERSION`` and the content of the compiling files under ``root`` (the
    package's folder): its modules, grammars and schema in :data:`_COMPILING`, by name and bytes."""
    digest = sha256(f"{CACHE_VERSION}\0".encode())
    for folder in _COMPILING:
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if name.endswith((".py", ".lark")) or name == "schema.json":
                fd = os.open(os.path.join(root, folder, name), os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
                try:
                    chunks = []
                    while chunk := os.read(fd, 1 << 20):
                        chunks.append(chunk)
                finally:
                    os.close(fd)
                data = b"".join(chunks)
                digest.update(f"{folder}/{name}\0{len(data)}\0".encode())
                digest.update(data)
    return str(digest.hexdigest())


def _key(source: Source, resolver: Resolver) -> str:
    parts = (_salt(), resolver.key, source.display, source.identity, source.digest)
    return sha256_hex("\0".join(parts).encode("utf-8", "surrogatepass"))


def _chain_unchanged(digests: tuple[tuple[str, str], ...]) -> bool:
    """Whether every parent file still has the content it had (the asked-for one is in the key)."""
    for identity, digest in digests[1:]:
        try:
            data = read_regular(identity, identity)
        except RulesetError:
            return False
        if sha256_hex(data) != digest:
            return False
    return True


_lock = allocate_lock()
_memory: OrderedDict[str, tuple[tuple[tuple[str, str], ...], Ruleset]] = OrderedDict()


# ---------------------------------------------------------------- the disk cache (command line only)

_disk_enabled = False
_disk_shipped_only = False


def enable_disk_cache(enabled: bool = True, *, shipped_only: bool = False) -> None:
    """Let this process keep compiled rulesets on disk (the ``loba`` command does, to start fast).

    ``shipped_only``: keep the shipped rulesets only (the service does: a house ruleset a client sends is
    never written to the disk of the server).  The library never reads or writes the disk cache unless
    this was called; ``LOBA_NO_CACHE=1`` keeps it off even then.  See :mod:`loba_dsl.rules.disk_cache`.
    """
    global _disk_enabled, _disk_shipped_only
    _disk_enabled = enabled
    _disk_shipped_only = shipped_only


def _disk_on(source: Source | None = None) -> bool:
    if not _disk_enabled or os.environ.get("LOBA_NO_CACHE"):
        return False
    return not _disk_shipped_only or (source is not None and source.shipped)


def _disk_get(key: str) -> tuple[tuple[tuple[str, str], ...], Ruleset] | None:
    from loba_dsl.rules import disk_cache

    return disk_cache.get(key, _salt(), _chain_unchanged)


def _disk_put(key: str, digests: tuple[tuple[str, str], ...], ruleset: Ruleset) -> None:
    from loba_dsl.rules import disk_cache

    disk_cache.put(key, _salt(), digests, ruleset)
