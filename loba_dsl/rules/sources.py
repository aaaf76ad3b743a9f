"""Where ruleset text comes from, and what an ``extends`` may reach (the part of loading that a
cached start-up needs: no YAML, no JSON Schema).

A :class:`Source` is one ruleset text with the name errors give it.  A :class:`Resolver` decides
what ``extends`` may name: :class:`ShippedOnly` (text from anyone: shipped rulesets only) or
:class:`Siblings` (a file's folder: shipped rulesets and regular ``.yaml``/``.yml`` files beside
it, symlinks resolved, never outside).  Every file is read by :func:`read_regular`: a regular file,
opened without following a final symlink and without blocking, at most
:data:`~loba_dsl.rules.yamlsafe.MAX_BYTES` long.

>>> from loba_dsl.defaults import DEFAULT_RULESET
>>> ShippedOnly().resolve(DEFAULT_RULESET).display == f"rulesets/{DEFAULT_RULESET}.yaml"
True
>>> ShippedOnly().resolve("house.yaml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
loba_dsl.errors.RulesetError: error: 'extends' may name only a shipped ruleset here, not the file 'house.yaml' ...
"""

from __future__ import annotations

import errno
import functools
import os
import stat

from loba_dsl.errors import Location, RulesetError, said, suggest

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from hashlib import sha256
    from pathlib import Path as FilePath
    from typing import Protocol
else:
    from loba_dsl.frozen import dataclass  # cheaper at import (issue 11)

    Protocol = object  # at run time a plain base class: a protocol is read by type checkers only

    # The interpreter's own SHA-256 (the same digest): hashlib loads OpenSSL first, a few ms of every
    # ``loba check`` start-up (issue 11).  ``_sha256`` up to Python 3.11, ``_sha2`` from 3.12 on.
    try:
        from _sha256 import sha256
    except ImportError:
        try:
            from _sha2 import sha256
        except ImportError:  # an interpreter built without them
            from hashlib import sha256


__all__ = [
    "SHIPPED_ONLY",
    "Resolver",
    "ShippedOnly",
    "Siblings",
    "Source",
    "file_source",
    "read_regular",
    "sha256",
    "sha256_hex",
    "shipped_dir",
    "shipped_names",
    "shipped_source",
]

_SHIPPED_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
_SIBLING_NAME = r"[^./\\:\x00-\x1f][^/\\:\x00-\x1f]{0,250}\.ya?ml"  # compiled when first used (issue 22)


def _shipped_name(name: str) -> bool:
    """Whether ``name`` may name a shipped ruleset: ``[a-z0-9][a-z0-9-]{0,63}``, checked without compiling a
    regular expression at start-up (issue 22).

    >>> [_shipped_name(n) for n in ("menos", "mas-pagat", "-x", "Menos", "a" * 64, "a" * 65, "")]
    [True, True, False, False, True, False, False]
    """
    return 0 < len(name) <= 64 and name[0] != "-" and _SHIPPED_CHARACTERS.issuperset(name)


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hex, as ``hashlib.sha256(data).hexdigest()`` (without importing hashlib)."""
    return sha256(data).hexdigest()


def shipped_dir() -> FilePath:
    """The folder of shipped rulesets inside the installed package (a folder of files: the wheel
    installs them so; read from the package's own location, which costs no import at start-up)."""
    from pathlib import Path  # not on the start-up path, which uses the folder's name (issue 11)

    return Path(_shipped_folder())


@functools.cache
def _shipped_folder() -> str:
    """:func:`shipped_dir` as a string (``Path.resolve`` is ``os.path.realpath``)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "rulesets")


@functools.cache
def _shipped() -> tuple[str, ...]:
    return tuple(sorted(n.removesuffix(".yaml") for n in os.listdir(_shipped_folder()) if n.endswith(".yaml")))


def shipped_names() -> list[str]:
    """Names of the shipped rulesets, sorted."""
    return list(_shipped())


# ---------------------------------------------------------------- sources and resolvers


@dataclass(frozen=True)
class Source:
    """One ruleset text: its content, the name errors give it and what it is."""

    text: str | bytes
    display: str
    """The name in ``file:line:col`` (``rulesets/menos.yaml``, the path as given, ``<string>``)."""
    identity: str
    """What it is, for cycles and cache keys: the file's real path, or ``display`` for text."""
    shipped: bool = False
    """Whether it is one of the package's rulesets (which extend shipped rulesets only)."""

    @property
    def digest(self) -> str:
        """SHA-256 of the content."""
        data = self.text if isinstance(self.text, bytes) else self.text.encode("utf-8", "surrogatepass")
        return sha256_hex(data)


class Resolver(Protocol):
    """Decides what an ``extends`` may reach, and reads it."""

    @property
    def key(self) -> str:
        """What this resolver can reach, in a cache key (two resolvers with one key resolve alike)."""
        ...

    @property
    def reach(self) -> str:
        """What ``extends`` may name, in words: ``'extends' must name <reach>``."""
        ...

    def resolve(self, name: str) -> Source:
        """The ruleset ``extends: name`` names; a located-later :class:`RulesetError` if it may not."""
        ...


def _unknown(name: str, hint: str | None = None) -> RulesetError:
    names = _shipped()
    return RulesetError(
        said("unknown ruleset '{name}' (shipped: {names})", name=name, names=", ".join(names)),
        hint=suggest(name, names) or hint,
        code="unknown-ruleset",
    )


def shipped_source(name: str) -> Source:
    """The shipped ruleset called ``name``; anything else (a path, a ``.yaml`` name) is unknown.

    Only the names in :func:`shipped_names` are ever opened, so no string can make it read a file
    outside the package.
    """
    if name not in _shipped():
        raise _unknown(name, "a ruleset file is loaded with load_file(path)")
    path = os.path.join(_shipped_folder(), f"{name}.yaml")
    return Source(read_regular(path, f"rulesets/{name}.yaml"), f"rulesets/{name}.yaml", path, shipped=True)


@dataclass(frozen=True)
class ShippedOnly:
    """``extends`` may name shipped rulesets only (for text from anyone, such as an upload)."""

    @property
    def key(self) -> str:
        return "shipped"

    @property
    def reach(self) -> str:
        return "a shipped ruleset (such as menos)"

    def resolve(self, name: str) -> Source:
        if name not in _shipped() and (name.endswith((".yaml", ".yml")) or "/" in name or "\\" in name):
            raise RulesetError(
                f"'extends' may name only a shipped ruleset here, not the file '{name}' "
                f"(shipped: {', '.join(_shipped())})",
                code="extends-not-allowed",
            )
        return shipped_source(name)


SHIPPED_ONLY = ShippedOnly()
"""The resolver for text from anyone: ``extends`` reaches shipped rulesets only."""


@dataclass(frozen=True)
class Siblings:
    """``extends`` may name shipped rulesets and regular ``.yaml``/``.yml`` files in ``folder``.

    A sibling is looked at after resolving symlinks: it must be a regular file in the same folder
    (a link to ``/etc/passwd``, a FIFO, a device or a folder is refused without reading it), at most
    :data:`~loba_dsl.rules.yamlsafe.MAX_BYTES` long.
    """

    folder: str

    @property
    def key(self) -> str:
        return f"siblings:{os.path.realpath(self.folder)}"

    @property
    def reach(self) -> str:
        return "a shipped ruleset (such as menos) or a .yaml file in the same folder"

    def resolve(self, name: str) -> Source:
        if _shipped_name(name):
            return shipped_source(name)
        import re  # not at the top (issue 22: start-up)

        if not re.fullmatch(_SIBLING_NAME, name):
            raise RulesetError(f"'extends' must name {self.reach}, not '{name}'", code="extends-outside")
        folder = os.path.realpath(self.folder)
        given = os.path.join(self.folder, name)
        real = os.path.realpath(given)
        if os.path.dirname(real) != folder:
            raise RulesetError(
                f"'extends' names '{name}', which links to a file outside this folder; it is not read",
                code="extends-outside",
            )
        data = read_regular(real, given, what=f"'extends' names '{name}', which")
        return Source(data, given, real)


_SMALL = 64 * 1024
"""Files up to this size are read without asking ``yamlsafe`` for its cap (which would import PyYAML
on the cached start-up path); it must not exceed :data:`~loba_dsl.rules.yamlsafe.MAX_BYTES`."""


def _max_bytes() -> int:
    from loba_dsl.rules.yamlsafe import MAX_BYTES

    return MAX_BYTES


def read_regular(path: str | os.PathLike[str], display: str, *, what: str | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file (no final symlink followed) of at most
    :data:`~loba_dsl.rules.yamlsafe.MAX_BYTES`.

    It is opened without blocking (a FIFO is refused, never waited on) and checked after opening, so a
    file swapped for something else in between is refused too.  ``what`` starts the error sentences
    for a file an ``extends`` names (the error then has no location: the caller places it at the
    ``extends``); by default they say ``the ruleset file`` and point at ``display``.
    """
    subject = what or "the ruleset file"
    location = None if what else Location(display, 1, 1)

    def fail(reason: str, code: str = "unreadable") -> RulesetError:
        return RulesetError(f"{subject} {reason}", location=location, code=code)

    def too_big(size: int) -> RulesetError:
        return fail(f"is {size:,} bytes, over the {_max_bytes():,}-byte limit (MAX_BYTES)", "too-big")

    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise fail("is a symbolic link; it is not followed") from None
        if e.errno == errno.ENOENT and what:
            raise fail("is not a file beside this one") from None
        if e.errno == errno.ENOENT:
            raise RulesetError(f"cannot read the ruleset file: {e.strerror}", location=location,
                               code="unreadable") from None
        raise fail(f"cannot be read: {e.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise fail("is not a regular file; it is not read")
        limit = _SMALL if info.st_size <= _SMALL else _max_bytes()
        if info.st_size > limit:
            raise too_big(info.st_size)
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew after fstat()
                if limit == _SMALL and size <= _max_bytes():
                    limit = _max_bytes()
                    continue
                raise too_big(size)
    except OSError as e:
        raise fail(f"cannot be read: {e.strerror}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def file_source(path: str | os.PathLike[str]) -> Source:
    """A ruleset file named by a user (symlinks followed to a regular file, no FIFO, no device)."""
    display = os.fspath(path)
    real = os.path.realpath(display)
    if os.path.isdir(real):
        raise RulesetError("the ruleset file is a folder, not a file", location=Location(display, 1, 1),
                           code="unreadable")
    return Source(read_regular(real, display), display, real)


