"""One error body everywhere: ``application/problem+json`` (RFC 9457) with every problem located.

``{"type", "title", "status", "detail", "errors": [{"code", "message", "hint", "rule",
"location": {"file", "line", "column", "length"}, "path"}]}``.  ``rule`` names the ruleset rule a move or
meld broke (``turn.lay_off``), ``path`` the place in the JSON body (``$.cards``) when the body itself is
wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import msgspec

from loba_dsl import LobaError, LobaErrors
from loba_dsl import clean_text as clean

LANGUAGES: tuple[str, ...] = ("en", "es")
"""The languages of the service's words: the reasons of a meld and the messages of a user's input errors
(``"messages"`` in a request body)."""

__all__ = [
    "PROBLEM_TYPE",
    "ErrorItem",
    "ErrorLocation",
    "Problem",
    "ServiceError",
    "body_error",
    "error_items",
    "from_loba_error",
    "job_error",
    "speaks",
    "spoken_language",
]

PROBLEM_TYPE = "urn:loba-dsl:problem:"
"""Prefix of every problem's ``type``; the rest is a short slug (``bad-input``, ``too-large``...)."""


class ErrorLocation(msgspec.Struct, omit_defaults=False):
    """Where a problem is: a file (``<cards>``, ``<body>``, a ruleset file), 1-based line and column, and
    how many characters to underline."""

    file: str | None = None
    line: int | None = None
    column: int | None = None
    length: int | None = None


class ErrorItem(msgspec.Struct, omit_defaults=False):
    """One problem."""

    code: str
    message: str
    hint: str | None = None
    rule: str | None = None
    location: ErrorLocation = msgspec.field(default_factory=ErrorLocation)
    path: str | None = None


class Problem(msgspec.Struct, omit_defaults=False):
    """The error body of every non-2xx answer."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[ErrorItem] = msgspec.field(default_factory=list)


Spoken = dict[str, tuple[str, list[ErrorItem]]]
"""A problem's ``detail`` and ``errors`` in other languages than English, by language."""


class ServiceError(Exception):
    """An answer other than 2xx, raised anywhere in a handler and turned into a :class:`Problem`.

    ``spoken``: the detail and errors in other languages (a user's input error carries its words in every
    language of :data:`LANGUAGES`; the request's ``"messages"`` picks one)."""

    def __init__(self, status: int, slug: str, title: str, detail: str,
                 errors: Sequence[ErrorItem] = (), headers: dict[str, str] | None = None,
                 spoken: Spoken | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.slug = slug
        self.title = title
        self.detail = clean(detail)
        self.errors = list(errors)
        self.headers = headers or {}
        self.spoken = spoken or {}

    def problem(self, lang: str = "en") -> Problem:
        detail, errors = self.spoken.get(lang, (self.detail, self.errors))
        errors = errors or [ErrorItem(code=self.slug, message=detail)]
        return Problem(PROBLEM_TYPE + self.slug, self.title, self.status, detail, errors)


def _item(e: LobaError, lang: str = "en") -> ErrorItem:
    p = e.problem(lang)
    rule = getattr(e, "rule", None)
    return ErrorItem(
        code=str(p["code"]),
        message=str(p["message"]),
        hint=None if p["hint"] is None else str(p["hint"]),
        rule=rule if isinstance(rule, str) else None,
        location=ErrorLocation(_opt_str(p["file"]), _opt_int(p["line"]), _opt_int(p["column"]),
                               _opt_int(p["length"])),
    )


def _opt_str(v: object) -> str | None:
    return None if v is None else str(v)


def _opt_int(v: object) -> int | None:
    return v if isinstance(v, int) else None


def error_items(e: LobaError, lang: str = "en") -> list[ErrorItem]:
    """Every problem of a library error, located, its words in ``lang``."""
    errors = e.errors if isinstance(e, LobaErrors) else (e,)
    return [_item(x, lang) for x in errors]


def detail_of(items: Sequence[ErrorItem], lang: str = "en") -> str:
    """One line for a problem's ``detail``: the first message, and how many there are."""
    if len(items) == 1:
        return items[0].message
    problems = "problemas" if lang == "es" else "problems"
    return f"{len(items)} {problems}: {items[0].message}"


def spoken_items(e: LobaError) -> Spoken:
    """A library error's detail and problems in every language but English."""
    out: Spoken = {}
    for lang in LANGUAGES[1:]:
        items = error_items(e, lang)
        out[lang] = (detail_of(items, lang), items)
    return out


def job_error(e: LobaError) -> dict[str, Any]:
    """A library error as the plain data a solver process sends the server: its detail and problems in English,
    and ``spoken``, the same in every other language."""
    items = error_items(e)
    return {"detail": detail_of(items), "errors": plain(items),
            "spoken": {lang: {"detail": detail, "errors": plain(said)} for lang, (detail, said) in
                       spoken_items(e).items()}}


def from_loba_error(e: LobaError, *, status: int = 422, slug: str = "bad-input",
                    title: str = "The request cannot be processed") -> ServiceError:
    """A library error (bad cards, a broken ruleset, an illegal round) as a 422, in every language."""
    items = error_items(e)
    return ServiceError(status, slug, title, detail_of(items), items, spoken=spoken_items(e))


_BYTE = re.compile(r"\(byte (\d+)\)")
_PATH = re.compile(r" - at `(\$[^`]*)`$")


def body_error(e: msgspec.MsgspecError, body: bytes, *, media: str = "JSON") -> ServiceError:
    """A body that is not the JSON the endpoint takes: where (line and column of the body, or the JSON
    path) and why, as a 422."""
    message = clean(str(e))
    location = ErrorLocation(file="<body>")
    path = None
    m = _BYTE.search(message)
    if m:
        offset = min(int(m.group(1)), len(body))
        before = body[:offset]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        location = ErrorLocation("<body>", line, column, 1)
    elif "truncated" in message:  # the body ended too soon: point at its end
        line = body.count(b"\n") + 1
        column = len(body[body.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        location = ErrorLocation("<body>", line, column, 1)
    m2 = _PATH.search(message)
    if m2:
        path = m2.group(1)
    code = "malformed" if isinstance(e, msgspec.DecodeError) and not isinstance(e, msgspec.ValidationError) \
        else "invalid"
    title = f"The body is not valid {media}" if code == "malformed" else "The body does not match the schema"
    item = ErrorItem(code=code, message=message, location=location, path=path)
    return ServiceError(422, "bad-body", title, message, [item])


def speaks(request: Any, req: Any) -> None:
    """The language a request asks its error messages in (its body's ``"messages"``): the problem body of a
    failure after this point is said in it (``request``: Starlette's)."""
    request.state.messages = getattr(req, "messages", "en")


def spoken_language(request: Any) -> str:
    """The language :func:`speaks` set for ``request`` (``en`` before its body is read)."""
    return str(getattr(request.state, "messages", "en"))


def encode_problem(err: ServiceError, lang: str = "en") -> bytes:
    return msgspec.json.encode(err.problem(lang))


def plain(obj: Any) -> Any:
    """``obj`` as plain JSON data (for tests and the worker processes)."""
    return msgspec.to_builtins(obj)
