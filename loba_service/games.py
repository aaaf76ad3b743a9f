"""The referee endpoints (``/v1/games/*``): built in step 2."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TYPES: list[Any] = []


def routes() -> list[Any]:
    return []


def paths(op: Callable[..., Any], ref: Callable[[Any], Any], post: tuple[int, ...]) -> dict[str, Any]:
    return {}
