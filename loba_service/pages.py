"""The ``/docs`` page: the OpenAPI document rendered by a few lines of plain JavaScript, no CDN."""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["docs_page"]


@functools.cache
def docs_page() -> str:
    return resources.files("loba_service").joinpath("docs.html").read_text(encoding="utf-8")
