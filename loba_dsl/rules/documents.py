"""Find, read, validate and merge ruleset files (``extends``), keeping provenance.

A ruleset comes from a shipped name (``menos``), a file, or text in memory,
each a :class:`~loba_dsl.rules.sources.Source`; what its ``extends`` may reach
is decided by a :class:`~loba_dsl.rules.sources.Resolver` (``ShippedOnly`` or
``Siblings``, in :mod:`loba_dsl.rules.sources`).  Nothing else is ever read.
Each file is checked against the JSON Schema on its own (so a partial file
that only overrides a few keys is fine); the merged result records, for every value, the file and path it came from.

Merging: mappings merge key by key, lists and scalars replace, and ``null``
under ``melds`` or ``values`` removes an inherited entry.

"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from loba_dsl.errors import LobaError, Location, RulesetError, Said, raise_all, said, suggest
from loba_dsl.rules.sources import (
    SHIPPED_ONLY,
    Resolver,
    ShippedOnly,
    Siblings,
    Source,
    file_source,
    read_regular,
    shipped_dir,
    shipped_names,
    shipped_source,
)

if TYPE_CHECKING:
    from loba_dsl.rules.yamlsafe import Document, Path

MAX_EXTENDS = 8
"""Longest chain of ``extends``."""
REMOVABLE = ("melds", "values")
"""Sections whose entries a child can remove with ``null``."""
REQUIRED = ("deck", "melds", "values", "scoring")
"""Sections a resolved ruleset must have (from itself or a parent)."""

__all__ = [
    "MAX_EXTENDS",
    "REMOVABLE",
    "REQUIRED",
    "SHIPPED_ONLY",
    "Resolved",
    "Resolver",
    "ShippedOnly",
    "Siblings",
    "Source",
    "file_source",
    "fill_defaults",
    "read_regular",
    "resolve",
    "schema",
    "shipped_dir",
    "shipped_names",
    "shipped_source",
    "validate",
]

@functools.cache
def schema() -> dict[str, Any]:
    from importlib import resources  # package data; imported only when read

    text = resources.files("loba_dsl").joinpath("rulesets/schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


# ---------------------------------------------------------------- reading and merging


@dataclass
class Resolved:
    """A merged ruleset document with the origin of every value."""

    data: dict[str, Any]
    origins: dict[tuple[str | int, ...], Document]
    chain: tuple[Document, ...]
    """The files read, the asked-for one first."""
    files: tuple[str, ...] = ()
    """What those files are (their real paths; text given in memory: its name), in the same order."""
    digests: tuple[tuple[str, str], ...] = field(default=())
    """``(identity, sha256 of the content)`` of every file read, the asked-for one first."""
    problems: list[LobaError] = field(default_factory=list)
    """Schema errors found while reading the chain: the values they name were left out, so the rest
    can still be compiled and every mistake reported in one pass (issue 10)."""
    left_out: list[Path] = field(default_factory=list)
    """The paths of those values."""

    def origin(self, path: Path) -> Document | None:
        while path:
            doc = self.origins.get(tuple(path))
            if doc is not None:
                return doc
            path = path[:-1]
        return None

    def location(self, path: Path) -> Location | None:
        doc = self.origin(path)
        if doc is None:
            return None
        return doc.location(path) if doc.has(path) else doc.location(())

    def where(self, path: Path) -> str:
        """``file:line`` of a value, or ``(default)``."""
        doc = self.origins.get(tuple(path))
        if doc is None or not doc.has(path):
            return "(default)"
        return doc.location(path).short


def resolve(source: Source, resolver: Resolver) -> Resolved:
    """Read ``source`` and everything it extends (through ``resolver``); validate each file; merge."""
    return _resolve(source, resolver, ())


def _parse(source: Source, reached: bool) -> Document:
    """The YAML document of ``source``.

    When a file that an ``extends`` ``reached`` is not a ruleset at all, its error shows only the
    offending token, not its lines (issue 9: such a file may be anything).  The file that was asked
    for is the asker's own, and its error shows the line as usual.
    """
    from loba_dsl.rules import yamlsafe

    try:
        doc = yamlsafe.load(source.text, source.display)
    except LobaError as e:
        if reached:
            _redact(e)
        raise
    if doc.data is None:
        raise RulesetError(said("the ruleset is empty"), location=Location(source.display, 1, 1), code="empty")
    if not isinstance(doc.data, dict):
        loc = doc.location(())
        if reached:
            loc = Location(loc.source, loc.line, loc.column)
        raise RulesetError(said("a ruleset must be a mapping of keys to values"), location=loc, code="not-a-mapping")
    return doc


def _redact(error: LobaError) -> None:
    """Keep, of the source line an error shows, only the token under the caret (issue 9: a file that
    is not YAML may be anything, and its content is not echoed)."""
    for e in getattr(error, "errors", None) or (error,):
        loc = e.location
        if loc is not None and loc.text is not None:
            start = max(0, loc.column - 1)
            token = loc.text[start : start + max(1, min(loc.length, 40))]
            e.location = Location(loc.source, loc.line, loc.column, " " * start + token, len(token) or 1)
        if e.hint is not None and "must be quoted" in e.hint:  # it quotes the line, which is not echoed
            e.hint = None


def _resolve(source: Source, resolver: Resolver, seen: tuple[str, ...]) -> Resolved:
    key = source.identity
    if key in seen:
        chain = " -> ".join((*seen, key))
        raise RulesetError(f"'extends' makes a cycle: {chain}", code="extends-cycle")
    if len(seen) >= MAX_EXTENDS:
        raise RulesetError(f"'extends' chain is longer than {MAX_EXTENDS} files", code="extends-depth")
    doc = _parse(source, reached=bool(seen))
    problems, bad = _schema_problems(doc, (SHIPPED_ONLY if source.shipped else resolver).reach)
    data: dict[str, Any] = _pruned(doc.data, bad)
    parent_name = data.get("extends")
    if parent_name is None:
        base = Resolved({}, {}, ())
    else:
        try:
            base = _resolve_parent(doc, str(parent_name), resolver, source, (*seen, key))
        except LobaError as e:  # the file's own mistakes and its parent's, together; nothing to compile
            raise_all([*problems, *getattr(e, "errors", (e,))])
    merged = _merge(base, doc, data)
    merged.files = (key, *base.files)
    merged.digests = ((key, source.digest), *base.digests)
    merged.problems = [*problems, *base.problems]
    merged.left_out = [*bad, *base.left_out]
    return merged


def _resolve_parent(doc: Document, name: str, resolver: Resolver, child: Source, seen: tuple[str, ...]) -> Resolved:
    try:
        # A shipped file extends shipped files only, whoever asked for it.
        parent = SHIPPED_ONLY.resolve(name) if child.shipped else resolver.resolve(name)
        return _resolve(parent, SHIPPED_ONLY if parent.shipped else resolver, seen)
    except LobaError as e:
        if e.location is None:
            e.location = doc.location(("extends",))
        raise


def _pruned(data: Any, paths: list[Path]) -> Any:
    """``data`` without the values at ``paths`` (a path into a list drops the whole list)."""
    if not paths:
        return data
    out = _copy(data)
    for path in paths:
        cut = list(path)
        for i, part in enumerate(cut):
            if isinstance(part, int):
                cut = cut[:i]
                break
        target = out
        for part in cut[:-1]:
            target = target.get(part) if isinstance(target, dict) else None
        if cut and isinstance(target, dict):
            target.pop(cut[-1], None)
    return out


def _merge(base: Resolved, doc: Document, data_of_doc: Mapping[str, Any] | None = None) -> Resolved:
    data = _copy(base.data)
    origins = dict(base.origins)
    own = doc.data if data_of_doc is None else data_of_doc
    child: dict[str, Any] = dict(own) if isinstance(own, dict) else {}
    child.pop("extends", None)

    def drop(prefix: tuple[str | int, ...]) -> None:
        for p in [p for p in origins if p[: len(prefix)] == prefix]:
            del origins[p]

    def mark(prefix: tuple[str | int, ...], value: Any) -> None:
        origins[prefix] = doc
        if isinstance(value, dict):
            for k, v in value.items():
                mark((*prefix, k), v)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                mark((*prefix, i), v)

    def into(target: dict[str, Any], src: Mapping[str, Any], prefix: tuple[str | int, ...]) -> None:
        for k, v in src.items():
            path = (*prefix, k)
            if v is None and len(prefix) == 1 and prefix[0] in REMOVABLE:
                target.pop(k, None)
                drop(path)
                origins[path] = doc
                continue
            if isinstance(v, dict) and isinstance(target.get(k), dict):
                origins[path] = doc
                into(target[k], v, path)
                continue
            drop(path)
            target[k] = _copy(v)
            mark(path, v)

    into(data, child, ())
    return Resolved(data, origins, (doc, *base.chain))


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


# ---------------------------------------------------------------- schema


def validate(doc: Document, *, extends_reach: str | None = None) -> None:
    """Check one file against the schema; report every error at its line.

    ``extends_reach`` says in words what ``extends`` may name (see :attr:`Resolver.reach`).
    """
    raise_all(_schema_problems(doc, extends_reach or Siblings(".").reach)[0])


def _schema_problems(doc: Document, extends_reach: str) -> tuple[list[LobaError], list[Path]]:
    """Every schema error of one file, and the paths of the values to leave out so the rest can load."""
    from jsonschema import Draft7Validator

    validator = Draft7Validator(schema())
    errors: list[LobaError] = []
    bad: list[Path] = []
    for err in sorted(validator.iter_errors(doc.data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(err.absolute_path)
        errors.append(_schema_error(doc, path, err.validator, err.instance, err.message, err.schema, extends_reach))
        sub = err.schema if isinstance(err.schema, dict) else {}
        if err.validator in ("additionalProperties", "patternProperties") and isinstance(err.instance, dict):
            allowed, patterns = set(sub.get("properties", {})), list(sub.get("patternProperties", {}))
            extra = [k for k in err.instance if k not in allowed and not _matches_any(str(k), patterns)]
            bad.extend((*path, k) for k in extra)
        elif err.validator == "required" and not path and isinstance(err.instance, dict):
            # A key missing at the top level leaves out nothing but itself: the rest still compiles, and its
            # DSL mistakes are still reported (a missing name must neither hide them nor let them through).
            bad.extend((*path, k) for k in sub.get("required", ()) if k not in err.instance)
        else:
            bad.append(path)
    return errors, bad


def _matches_any(key: str, patterns: list[str]) -> bool:
    return any(re.search(p, key) for p in patterns)


def _schema_error(doc: Document, path: Path, kind: Any, instance: Any, message: str, sub: Any,
                  extends_reach: str) -> RulesetError:
    dotted = ".".join(str(p) for p in path) or said("the top level")
    if kind in ("additionalProperties", "patternProperties") and isinstance(instance, dict):
        allowed = set(sub.get("properties", {})) if isinstance(sub, dict) else set()
        extra = [k for k in instance if k not in allowed]
        if extra and allowed:
            key = extra[0]
            return RulesetError(
                said("unknown key '{key}' in {where}", key=key, where=dotted),
                location=doc.key_location((*path, key)),
                hint=suggest(key, allowed),
                code="schema",
            )
    if kind == "enum" and isinstance(sub, dict):
        options = ", ".join(str(o) for o in sub.get("enum", []))
        return RulesetError(
            said("{where} must be one of: {options}", where=dotted, options=options),
            location=doc.location(path),
            hint=suggest(str(instance), [str(o) for o in sub.get("enum", [])]),
            code="schema",
        )
    if kind == "type" and isinstance(instance, str) and isinstance(sub, dict) and path:
        # ``escalera: run 3..13``: the text of the one setting a block of settings holds, written in its place.
        props = sub.get("properties", {})
        texts = [k for k, v in props.items() if isinstance(v, dict) and v.get("type") == "string"
                 and k != "description"]
        if len(texts) == 1:
            key, name = texts[0], path[-1]
            return RulesetError(f"{dotted} is a block of settings, not the text '{instance}'",
                                location=doc.location(path), code="schema",
                                hint=f"write it under '{key}:', on the next line and indented, or on one line as "
                                     f"'{name}: {{{key}: {instance}}}'")
    if path == ("extends",) and kind == "pattern":
        return RulesetError(f"'extends' must name {extends_reach}, not '{instance}'",
                            location=doc.location(path), code="schema")
    if kind == "pattern" and isinstance(sub, dict):
        words = PATTERN_WORDS.get(str(sub.get("pattern")))
        what = str(sub.get("description", "")).split(". ")[0]
        return RulesetError(said("{where}: '{value}' is not allowed here", where=dotted, value=instance),
                            location=doc.location(path), hint=words or what or None, code="schema")
    if kind == "additionalProperties" and isinstance(sub, dict) and isinstance(instance, dict):
        patterns = [str(p) for p in sub.get("patternProperties", {})]
        extra = [k for k in instance if not _matches_any(str(k), patterns)]
        words = next((PATTERN_WORDS[p] for p in patterns if p in PATTERN_WORDS), None)
        if extra and patterns:
            return RulesetError(said("'{name}' is not a name allowed in {where}", name=extra[0], where=dotted),
                                location=doc.key_location((*path, extra[0])), hint=words, code="schema")
    return RulesetError(said("{where}: {message}", where=dotted, message=Said.literal(message)),
                        location=doc.location(path), code="schema")


PATTERN_WORDS: dict[str, str] = {
    "^[a-z0-9][a-z0-9-]{0,63}$(?!\\n)":
        said("use lower-case letters, digits and hyphens, at most 64, e.g. casa-garcia"),
    "^[a-z][a-z0-9_]*$(?!\\n)": said("use lower-case letters, digits and _, starting with a letter, e.g. spades"),
    "^[a-z]{2}$(?!\\n)": said("use a two-letter language code in lower case, e.g. es"),
    "^[1-9][0-9]?$": said("use a number of players from 1 to 99, written as text, e.g. \"2\""),
    "^[A-Za-z_][A-Za-z0-9_]*$(?!\\n)": said("use letters, digits and _, starting with a letter or _, e.g. escalera"),
}
"""The schema's name patterns in words (issue 10: a hint a player can follow, not a regular expression)."""


def fill_defaults(resolved: Resolved) -> None:
    """Give every setting the schema's default where no file in the chain set it."""

    def fill(target: dict[str, Any], sch: Mapping[str, Any]) -> None:
        for key, sub in sch.get("properties", {}).items():
            if key not in target:
                if "default" in sub:
                    target[key] = _copy(sub["default"])
                    if isinstance(target[key], dict) and "properties" in sub:
                        fill(target[key], sub)
                elif sub.get("type") == "object" and "properties" in sub:
                    target[key] = {}
                    fill(target[key], sub)
            elif isinstance(target[key], dict) and "properties" in sub:
                fill(target[key], sub)
            elif isinstance(target[key], dict) and isinstance(sub.get("anyOf") or sub.get("oneOf"), list):
                for option in sub.get("anyOf") or sub.get("oneOf"):
                    if isinstance(option, dict) and "properties" in option:
                        fill(target[key], option)

    fill(resolved.data, schema())
    missing = [k for k in REQUIRED if not resolved.data.get(k)]
    if missing:
        raise_all(resolved.problems)  # a section the schema rejected is missing because it was left out
        top = resolved.chain[0]
        raise RulesetError(
            f"the ruleset has no {', '.join(missing)} (give them here or 'extends' a ruleset that has them)",
            location=top.location(()),
            code="incomplete",
        )
