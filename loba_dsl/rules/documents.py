"""Find, read, validate and merge ruleset files (``extends``), keeping provenance.

A ruleset is named either by a shipped name (``menos``) or by a file path.
``extends`` names a shipped ruleset or a sibling file of the one that says it;
nothing else is ever read.  Each file is checked against the JSON Schema on its
own (so a partial file that only overrides a few keys is fine); the merged
result records, for every value, the file and path it came from.

Merging: mappings merge key by key, lists and scalars replace, and ``null``
under ``melds`` or ``values`` removes an inherited entry.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any

from loba_dsl.errors import LobaError, Location, RulesetError, raise_all, suggest

if TYPE_CHECKING:
    from loba_dsl.rules.yamlsafe import Document, Path

MAX_EXTENDS = 8
"""Longest chain of ``extends``."""
REMOVABLE = ("melds", "values")
"""Sections whose entries a child can remove with ``null``."""
REQUIRED = ("deck", "melds", "values", "scoring")
"""Sections a resolved ruleset must have (from itself or a parent)."""


def shipped_dir() -> FilePath:
    """The folder of shipped rulesets inside the installed package."""
    return FilePath(str(resources.files("loba_dsl").joinpath("rulesets")))


def shipped_names() -> list[str]:
    """Names of the shipped rulesets, sorted."""
    return sorted(p.stem for p in shipped_dir().glob("*.yaml"))


@functools.cache
def schema() -> dict[str, Any]:
    text = resources.files("loba_dsl").joinpath("rulesets/schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def locate(spec: str) -> tuple[FilePath, str]:
    """Resolve a ruleset name or file path to ``(file, display name)``.

    A name without ``/`` and without a ``.yaml``/``.yml`` ending is a shipped
    ruleset; anything else is a file.
    """
    if "/" not in spec and "\\" not in spec and not spec.endswith((".yaml", ".yml")):
        path = shipped_dir() / f"{spec}.yaml"
        if not path.is_file() or spec.startswith("."):
            names = shipped_names()
            raise RulesetError(
                f"unknown ruleset '{spec}' (shipped: {', '.join(names)})",
                hint=suggest(spec, names) or "or give the path of a .yaml file",
                code="unknown-ruleset",
            )
        return path, f"rulesets/{spec}.yaml"
    path = FilePath(spec)
    return path, spec


@dataclass
class Resolved:
    """A merged ruleset document with the origin of every value."""

    data: dict[str, Any]
    origins: dict[tuple[str | int, ...], Document]
    chain: tuple[Document, ...]
    """The files read, the asked-for one first."""
    files: tuple[str, ...] = ()
    """Absolute paths of those files, in the same order."""

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


def read(spec: str) -> Resolved:
    """Read a ruleset and everything it extends; validate each file; merge."""
    path, display = locate(spec)
    return _resolve(path, display, ())


def _resolve(path: FilePath, display: str, seen: tuple[str, ...]) -> Resolved:
    from loba_dsl.rules import yamlsafe

    key = str(path.resolve()) if path.exists() else str(path)
    if key in seen:
        chain = " -> ".join([*seen, key])
        raise RulesetError(f"'extends' makes a cycle: {chain}", code="extends-cycle")
    if len(seen) >= MAX_EXTENDS:
        raise RulesetError(f"'extends' chain is longer than {MAX_EXTENDS} files", code="extends-depth")
    doc = yamlsafe.load_file(path, display)
    if doc.data is None:
        raise RulesetError("the ruleset is empty", location=Location(display, 1, 1), code="empty")
    if not isinstance(doc.data, dict):
        raise RulesetError("a ruleset must be a mapping of keys to values", location=doc.location(()))
    validate(doc)
    data: dict[str, Any] = doc.data
    parent_spec = data.get("extends")
    base = Resolved({}, {}, ()) if parent_spec is None else _resolve_parent(doc, path, str(parent_spec), (*seen, key))
    merged = _merge(base, doc)
    merged.files = (str(path.resolve()), *base.files)
    return merged


def _resolve_parent(doc: Document, path: FilePath, spec: str, seen: tuple[str, ...]) -> Resolved:
    try:
        if spec.endswith((".yaml", ".yml")):
            parent = path.parent / spec
            display = str(FilePath(doc.source).parent / spec)
            if not parent.is_file():
                raise RulesetError(f"'extends' names '{spec}', which is not a file beside this one")
            return _resolve(parent, display, seen)
        parent_path, display = locate(spec)
        return _resolve(parent_path, display, seen)
    except LobaError as e:
        if e.location is None:
            e.location = doc.location(("extends",))
        raise


def _merge(base: Resolved, doc: Document) -> Resolved:
    data = _copy(base.data)
    origins = dict(base.origins)
    child: dict[str, Any] = dict(doc.data) if isinstance(doc.data, dict) else {}
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


def validate(doc: Document) -> None:
    """Check one file against the schema; report every error at its line."""
    from jsonschema import Draft7Validator

    validator = Draft7Validator(schema())
    errors: list[LobaError] = []
    for err in sorted(validator.iter_errors(doc.data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(err.absolute_path)
        errors.append(_schema_error(doc, path, err.validator, err.instance, err.message, err.schema))
    raise_all(errors)


def _schema_error(doc: Document, path: Path, kind: Any, instance: Any, message: str, sub: Any) -> RulesetError:
    dotted = ".".join(str(p) for p in path) or "the top level"
    if kind in ("additionalProperties", "patternProperties") and isinstance(instance, dict):
        allowed = set(sub.get("properties", {})) if isinstance(sub, dict) else set()
        extra = [k for k in instance if k not in allowed]
        if extra and allowed:
            key = extra[0]
            return RulesetError(
                f"unknown key '{key}' in {dotted}",
                location=doc.key_location((*path, key)),
                hint=suggest(key, allowed),
                code="schema",
            )
    if kind == "enum" and isinstance(sub, dict):
        options = ", ".join(str(o) for o in sub.get("enum", []))
        return RulesetError(
            f"{dotted} must be one of: {options}",
            location=doc.location(path),
            hint=suggest(str(instance), [str(o) for o in sub.get("enum", [])]),
            code="schema",
        )
    if path == ("extends",) and kind == "pattern":
        return RulesetError(
            f"'extends' must name a shipped ruleset (such as menos) or a .yaml file in the same folder, "
            f"not '{instance}'", location=doc.location(path), code="schema")
    if kind == "pattern" and isinstance(sub, dict):
        what = str(sub.get("description", "")).split(".")[0]
        return RulesetError(f"{dotted}: '{instance}' is not allowed here" + (f" ({what})" if what else ""),
                            location=doc.location(path), code="schema")
    return RulesetError(f"{dotted}: {message}", location=doc.location(path), code="schema")


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
        top = resolved.chain[0]
        raise RulesetError(
            f"the ruleset has no {', '.join(missing)} (give them here or 'extends' a ruleset that has them)",
            location=top.location(()),
            code="incomplete",
        )
