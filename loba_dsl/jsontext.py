"""JSON read and written by the interpreter's own C accelerator, without importing :mod:`json` (issue 22).

:mod:`json` compiles regular expressions when it is imported, and so brings :mod:`re` (and
:mod:`enum`'s users with it): a large share of what a cached ``loba check`` or ``loba replay`` imports,
for one entry of the disk cache or one record read.  :func:`loads` and :func:`dumps` give exactly what
:func:`json.loads` and ``json.dumps(..., ensure_ascii=False)`` give, through the same C functions
(``_json.make_scanner``, ``_json.make_encoder``) that :mod:`json` itself calls for these arguments; any
text they do not read (an error, an encoding other than UTF-8) goes to :mod:`json`, which raises its own
error with its own message.  Without the accelerator (another interpreter), :mod:`json` does it all.

>>> loads(' {"a": [1, 2.5, "\\u00e9", null, true]} ')
{'a': [1, 2.5, 'é', None, True]}
>>> dumps({"a": [1, 2.5, "é", None]}, separators=(",", ":"))
'{"a":[1,2.5,"é",null]}'
>>> dumps({"a": float("nan")}, allow_nan=False)
Traceback (most recent call last):
...
ValueError: Out of range float values are not JSON compliant
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's flag, without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["dumps", "loads"]

try:
    import _json
except ImportError:  # no accelerator: json does everything
    _json = None  # type: ignore[assignment]
_C: Any = _json

_WHITESPACE = " \t\n\r"  # what json skips around a document
_NOT_UTF8 = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")  # byte-order marks: json.detect_encoding's business


class _Decoding:
    """What ``_json.make_scanner`` reads of a :class:`json.JSONDecoder` made with no argument."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__
    memo: dict[Any, Any] = {}  # noqa: RUF012  (read by the scanner, which keeps its own)


_scan: Callable[[str, int], tuple[Any, int]] | None = None if _C is None else _C.make_scanner(_Decoding())


def loads(text: str | bytes) -> Any:
    """:func:`json.loads` of ``text`` (a ``str``, or UTF-8 ``bytes``)."""
    if _scan is not None:
        if isinstance(text, bytes):
            if b"\x00" in text[:4] or text.startswith(_NOT_UTF8):
                return _json_loads(text)
            text = text.decode("utf-8", "surrogatepass")  # as json.loads decodes UTF-8 bytes
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = _scan(text, start)
        except Exception:  # json says what is wrong, in its own words
            return _json_loads(text)
        if text[end:].strip(_WHITESPACE):
            return _json_loads(text)  # extra data
        return value
    return _json_loads(text)


def dumps(value: Any, *, separators: tuple[str, str] = (", ", ": "), allow_nan: bool = True) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=separators, allow_nan=allow_nan)``."""
    if _C is None:
        import json

        return json.dumps(value, ensure_ascii=False, separators=separators, allow_nan=allow_nan)
    item_separator, key_separator = separators
    # A new encoder each time, as json makes one (with a fresh dict for circular references) per call.
    encode = _C.make_encoder({}, _unserialisable, _C.encode_basestring, None, key_separator, item_separator, False,
                             False, allow_nan)
    return "".join(encode(value, 0))


def _unserialisable(value: Any) -> Any:
    """:meth:`json.JSONEncoder.default`."""
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def _json_loads(text: str | bytes) -> Any:
    import json

    return json.loads(text)
