"""Plain-text rendering of results for people (JSON comes from ``to_dict``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from loba_dsl.check import CheckResult
    from loba_dsl.ruleset import Ruleset


def check_text(result: CheckResult) -> str:
    """A verdict a person can check against the rules.

    ``A♣ 2♣ JOKER: legal escalera under menos`` then the reading, the wilds,
    the points; or every reason it is not legal.
    """
    cards = " ".join(result.card_names())
    rs = result.ruleset.name
    if not result.valid:
        lines = [f"{cards}: not a legal meld under {rs}"]
        lines += [f"  - {reason}" for reason in result.reasons()]
        return "\n".join(lines)
    lines = [f"{cards}: legal {result.kind} under {rs}"]
    lines.append(f"  reading: {' '.join(result.reading_names())}")
    for w in result.wilds():
        lines.append(f"  {w['card']} stands for {w['stands_for']}")
    if result.points is not None:
        lines.append(f"  points: {result.points}")
    return "\n".join(lines)


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    plain = text and text.strip() == text and not any(c in text for c in ":#{}[],&*!|>'\"%@`") and text.lower() not in (
        "null", "true", "false", "yes", "no", "on", "off", "~") and not text[0].isdigit() and not text.startswith("-")
    return text if plain else json.dumps(text, ensure_ascii=False)


def ruleset_text(rs: Ruleset, *, origin: bool = False) -> str:
    """The resolved ruleset as YAML; with ``origin``, each value's ``file:line`` as a comment."""
    out: list[str] = [f"# {rs.name}: resolved from {' <- '.join(Path(f).name for f in rs.files)}"]

    def note(path: tuple[str | int, ...]) -> str:
        return f"  # {rs.where(*path)}" if origin else ""

    def emit(value: Any, path: tuple[str | int, ...], indent: int) -> None:
        pad = " " * indent
        if isinstance(value, dict):
            for k, v in value.items():
                p = (*path, k)
                if (isinstance(v, dict) and v) or (isinstance(v, list) and v):
                    out.append(f"{pad}{k}:{note(p)}")
                    emit(v, p, indent + 2)
                elif isinstance(v, str) and "\n" in v.strip("\n"):
                    out.append(f"{pad}{k}: |{note(p)}")
                    out.extend(f"{pad}  {line}" for line in v.rstrip("\n").split("\n"))
                else:
                    shown = "{}" if isinstance(v, dict) else "[]" if isinstance(v, list) else _scalar(v)
                    out.append(f"{pad}{k}: {shown}{note(p)}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                p = (*path, i)
                if isinstance(v, dict):
                    inner = json.dumps(v, ensure_ascii=False)
                    out.append(f"{pad}- {inner}{note(p)}")
                else:
                    out.append(f"{pad}- {_scalar(v)}{note(p)}")

    emit(rs.settings, (), 0)
    return "\n".join(out) + "\n"
