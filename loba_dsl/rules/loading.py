"""Loading rulesets: by shipped name or file path, compiled once, then cached.

The in-process cache is keyed by the file's path, mtime and size; the disk
cache by the content of every file in the ``extends`` chain.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from pathlib import Path as FilePath

from loba_dsl.defaults import CACHE_VERSION
from loba_dsl.errors import RulesetError
from loba_dsl.rules.model import Ruleset


def load_ruleset(spec: str) -> Ruleset:
    """Load a ruleset by shipped name or file path; compiled once, then cached.

    >>> from loba_dsl.defaults import DEFAULT_RULESET
    >>> load_ruleset(DEFAULT_RULESET).name == DEFAULT_RULESET
    True
    """
    from loba_dsl.rules.documents import locate

    path, _ = locate(spec)
    try:
        stat = path.stat()
    except OSError as e:
        raise RulesetError(f"cannot read ruleset file '{spec}': {e.strerror}", code="unreadable") from None
    return _load_cached(spec, str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=64)
def _load_cached(spec: str, _path: str, _mtime: int, _size: int) -> Ruleset:
    cached = _disk_get(spec)
    if cached is not None:
        return cached
    ruleset = compile_ruleset(spec)
    _disk_put(spec, ruleset)
    return ruleset


def _cache_dir() -> FilePath | None:
    if os.environ.get("LOBA_NO_CACHE"):
        return None
    base = os.environ.get("LOBA_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    root = FilePath(base) if base else FilePath.home() / ".cache"
    return root / "loba-dsl" if not os.environ.get("LOBA_CACHE_DIR") else root


def _fingerprint(files: tuple[str, ...]) -> str | None:
    digest = hashlib.sha256(CACHE_VERSION.encode())
    for name in files:
        try:
            digest.update(FilePath(name).read_bytes())
        except OSError:
            return None
    return digest.hexdigest()


def _cache_key(spec: str) -> str:
    from loba_dsl.rules.documents import locate

    path, _ = locate(spec)
    return hashlib.sha256(f"{CACHE_VERSION}\0{path.resolve()}".encode()).hexdigest()[:32]


def _disk_get(spec: str) -> Ruleset | None:
    folder = _cache_dir()
    if folder is None:
        return None
    entry = folder / f"{_cache_key(spec)}.pickle"
    try:
        with entry.open("rb") as f:
            files, fingerprint, ruleset = pickle.load(f)
    except Exception:  # a missing, stale or unreadable cache entry is only a miss
        return None
    if not isinstance(ruleset, Ruleset) or _fingerprint(files) != fingerprint:
        return None
    return ruleset


def _disk_put(spec: str, ruleset: Ruleset) -> None:
    folder = _cache_dir()
    if folder is None:
        return
    fingerprint = _fingerprint(ruleset.files)
    if fingerprint is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        entry = folder / f"{_cache_key(spec)}.pickle"
        tmp = entry.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as f:
            pickle.dump((ruleset.files, fingerprint, ruleset), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, entry)
    except OSError:
        pass  # a read-only home only costs speed


def compile_ruleset(spec: str) -> Ruleset:
    """Read, validate, merge and compile a ruleset (no caches)."""
    from loba_dsl.rules.compiler import compile_resolved
    from loba_dsl.rules.documents import fill_defaults, read

    resolved = read(spec)
    fill_defaults(resolved)
    return compile_resolved(resolved)
