"""The pages the service serves to a person: ``/`` (the card-table page: check a meld, keep the match sheet,
write the house rules, arrange a hand, play at a live table) and ``/docs`` (the OpenAPI document rendered),
with the page's scripts and styles at ``/static/NAME``.

Everything is package data (``loba_service/static/``), read once, served from memory with an ETag; the page
loads nothing from another host (its Content-Security-Policy allows this origin only) and talks to the
service through the same ``/v1`` API as any other client.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import resources

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

__all__ = ["CSP", "STATIC", "docs_page", "routes"]

STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "api.js": "text/javascript; charset=utf-8",
    "i18n.js": "text/javascript; charset=utf-8",
    "picker.js": "text/javascript; charset=utf-8",
    "check.js": "text/javascript; charset=utf-8",
    "sheet.js": "text/javascript; charset=utf-8",
    "house.js": "text/javascript; charset=utf-8",
    "arrange.js": "text/javascript; charset=utf-8",
    "rulesets.js": "text/javascript; charset=utf-8",
    "play.js": "text/javascript; charset=utf-8",
    "players.js": "text/javascript; charset=utf-8",
    "qr.js": "text/javascript; charset=utf-8",
    "seat.js": "text/javascript; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
"""The files under ``/static/``, with their media types: nothing else is served from there."""

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""The page's Content-Security-Policy: scripts, styles, images and requests from this origin only."""

_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-cache"}


@functools.cache
def docs_page() -> str:
    return resources.files("loba_service").joinpath("docs.html").read_text(encoding="utf-8")


@functools.cache
def _file(name: str) -> tuple[bytes, str]:
    """A static file's bytes and its ETag."""
    data = resources.files("loba_service").joinpath("static", name).read_bytes()
    return data, '"' + hashlib.sha256(data).hexdigest()[:20] + '"'


def _send(request: Request, name: str, media_type: str) -> Response:
    data, etag = _file(name)
    headers = {**_HEADERS, "ETag": etag}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(b"" if request.method == "HEAD" else data, media_type=media_type, headers=headers)


async def index(request: Request) -> Response:
    """The card-table page."""
    return _send(request, "index.html", "text/html; charset=utf-8")


async def static(request: Request) -> Response:
    """One of the page's files (``STATIC``); any other name is a 404."""
    name = request.path_params["name"]
    media_type = STATIC.get(name)
    if media_type is None:
        from starlette.exceptions import HTTPException

        raise HTTPException(404, f"no static file is called {name[:64]!r}")
    return _send(request, name, media_type)


async def docs(request: Request) -> Response:
    return HTMLResponse(docs_page())


def routes() -> list[Route]:
    """``/``, ``/static/NAME`` and ``/docs``."""
    return [Route("/", index, methods=["GET", "HEAD"]),
            Route("/static/{name}", static, methods=["GET", "HEAD"]),
            Route("/docs", docs, methods=["GET"])]
