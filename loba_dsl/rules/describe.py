"""Rulesets as JSON, one shape for every surface: ``loba rulesets/show/validate --json`` and the service's
``/v1/rulesets``, ``/v1/rulesets/{name}`` and ``/v1/rulesets/validate`` print these same objects.

>>> from loba_dsl.rules.loading import load
>>> d = validation_dict("menos.yaml", load("menos"))
>>> d["valid"], d["name"], d["kinds"], d["errors"], d["extends"]
(True, 'menos', ['pierna', 'escalera'], [], None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from loba_dsl.errors import LobaError, LobaErrors, Location, clean_line
from loba_dsl.rules.model import Ruleset, RuleWarning

__all__ = ["catalogue_dict", "deck_dict", "error_item", "extends_name", "show_dict", "validation_dict"]


def deck_dict(rs: Ruleset) -> dict[str, Any]:
    """The ruleset's deck as a card picker shows it: every card written as the ruleset writes it."""
    d = rs.deck
    return {
        "ranks": [r.key for r in d.ranks],
        "suits": [{"key": s.key, "symbol": s.symbol, "words": {k: list(v) for k, v in s.lang.items()},
                   "cards": [d.name(d.code(r, i)) for r in range(d.n_ranks)]} for i, s in enumerate(d.suits)],
        "copies": d.copies,
        "jokers": d.jokers,
        "joker": d.joker_symbol,
        "wilds": d.names_of(sorted(rs.wilds.cards)),
        "size": d.size,
    }


def extends_name(rs: Ruleset) -> str | None:
    """The shipped ruleset a house ruleset's ``extends`` names (the next file of its chain), or ``None``."""
    from loba_dsl.rules.loading import shipped_names

    if len(rs.files) < 2:
        return None
    parent = Path(rs.files[1]).stem
    return parent if parent in shipped_names() else None


def catalogue_dict(rulesets: Iterable[Ruleset], default: str) -> dict[str, Any]:
    """``loba rulesets --json`` and ``GET /v1/rulesets``: each ruleset's name and one-line description."""
    return {"default": default, "rulesets": [{"name": rs.name, "description": rs.description,
                                              "default": rs.name == default} for rs in rulesets]}


def show_dict(rs: Ruleset, *, origins: bool = True) -> dict[str, Any]:
    """``loba show --json [--origin]`` and ``GET /v1/rulesets/{name}``: the ruleset as resolved, the files of its
    ``extends`` chain, its deck, and (``origins``) the ``file:line`` of every value a file set."""
    out: dict[str, Any] = {"name": rs.name, "ruleset": _plain(rs.document), "files": [Path(f).name for f in rs.files],
                           "deck": deck_dict(rs)}
    if origins:
        out["origins"] = {".".join(str(p) for p in path): where for path, where in rs.origins.items()}
    return out


def _plain(value: Any) -> Any:
    """A resolved document as plain JSON data (it is read-only inside the ruleset)."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _location(loc: Location | None) -> dict[str, Any] | None:
    if loc is None:
        return None
    return {"file": clean_line(loc.source), "line": loc.line, "column": loc.column, "length": max(1, loc.length)}


def error_item(e: LobaError | RuleWarning, lang: str = "en") -> dict[str, Any]:
    """One problem (or warning), in both of the forms the surfaces have printed: ``location`` as an object
    (``{"file", "line", "column", "length"}``) and the same four fields flat, with ``code``, ``message``,
    ``hint``, ``rule`` (the ruleset rule it broke, if one) and ``path`` (a place in a JSON body, if one).
    ``lang``: the language of an error's message and hint (a warning is said in English)."""
    where = _location(e.location)
    rule = getattr(e, "rule", None)
    return {
        "code": e.code if isinstance(e, LobaError) else "warning",
        "message": e.message_in(lang) if isinstance(e, LobaError) else e.message,
        "hint": e.hint_in(lang) if isinstance(e, LobaError) else e.hint,
        "rule": rule if isinstance(rule, str) else None,
        "location": where,
        "path": None,
        "file": None if where is None else where["file"],
        "source": None if where is None else where["file"],
        "line": None if where is None else where["line"],
        "column": None if where is None else where["column"],
        "length": None if where is None else where["length"],
    }


def validation_dict(file: str, result: Ruleset | LobaError, lang: str = "en") -> dict[str, Any]:
    """``loba validate --json`` and ``POST /v1/rulesets/validate``: a house ruleset is valid (its name, meld
    kinds, warnings, the shipped ruleset it extends, its deck) or every problem, located; ``error`` is the
    first problem (the CLI's error convention).  ``lang``: the language of the problems' words."""
    if isinstance(result, LobaError):
        errors = [error_item(x, lang) for x in (result.errors if isinstance(result, LobaErrors) else (result,))]
        return {"file": file, "valid": False, "name": None, "kinds": [], "warnings": [], "error": errors[0],
                "errors": errors, "extends": None, "deck": None}
    return {"file": file, "valid": True, "name": result.name, "kinds": [k.name for k in result.kinds],
            "warnings": [error_item(w) for w in result.warnings], "error": None, "errors": [],
            "extends": extends_name(result), "deck": deck_dict(result)}
