"""A strict, safe YAML loader for untrusted rulesets that remembers where every value is.

Only a small, predictable part of YAML is accepted, and every problem is a located
:class:`RulesetError`: mappings, sequences, strings, numbers, booleans and null only (no tags,
anchors, aliases or ``<<`` merges); booleans are ``true``/``false`` (``yes``/``no``/``on``/``off``
stay strings) and numbers plain decimals (``0x1F``, ``017``, ``1_000``, dates stay strings);
keys are scalars, converted to ``str``, never repeated; one document at most :data:`MAX_BYTES`
bytes, :data:`MAX_DEPTH` levels, :data:`MAX_NODES` nodes and :data:`MAX_SCALAR` characters
a scalar.  The data is built straight from the pure-Python parser's events (iterative), never
by PyYAML's recursive composer, so a ``[[[[...`` bomb stops at the depth cap.

>>> doc = load("melds:\\n  - kind: escalera\\n    wild: yes\\n", "house.yaml")
>>> doc.data
{'melds': [{'kind': 'escalera', 'wild': 'yes'}]}
>>> str(doc.location(("melds", 0, "kind"))), doc.location(("melds", 0, "kind")).length
('house.yaml:2:11', 8)
>>> str(doc.text_location(("melds", 0, "kind"), 1, 4))
'house.yaml:2:14'
"""

from __future__ import annotations

import math
import pathlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, TypeVar

import yaml

from loba_dsl.errors import Location, RulesetError, Said, decode_utf8, said

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_NODES", "MAX_SCALAR", "Document", "Path", "load", "load_file"]

MAX_BYTES = 256 * 1024
MAX_DEPTH = 32
MAX_NODES = 20_000
MAX_SCALAR = 10_000

Path = tuple[str | int, ...]
_Node = yaml.ScalarEvent | yaml.SequenceStartEvent | yaml.MappingStartEvent
_Container = dict[str, object] | list[object]

_T = TypeVar("_T")
# The line breaks PyYAML counts (a lone \r, \n, \r\n, NEL, LS and PS), so our lines match its marks.
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
# Surrogates: "\ud83c\udccf" escapes in a double-quoted string are a pair (one character, joined);
# one alone is not a character at all and cannot be printed or written as UTF-8.
_SURROGATE = re.compile("[\ud800-\udfff]")
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
# A subset of PyYAML's YAML 1.1 floats, so that whatever yaml.safe_dump writes plain stays a str.
_FLOAT = re.compile(r"[-+]?[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?|\.[0-9]+(?:[eE][-+][0-9]+)?")
_CONSTANTS: dict[str, object] = {
    **dict.fromkeys(["", "~", "null", "Null", "NULL"]),
    **dict.fromkeys(["true", "True", "TRUE"], True),
    **dict.fromkeys(["false", "False", "FALSE"], False),
    **{f"{sign}.{inf}": float(f"{sign}inf") for sign in ("", "+", "-") for inf in ("inf", "Inf", "INF")},
    **dict.fromkeys([".nan", ".NaN", ".NAN"], math.nan),
}


class _Mark(Protocol):
    """What we use of PyYAML's marks (pure-Python or C): 0-based line and column."""

    line: int
    column: int


class _Span(NamedTuple):
    """Where a node is, from PyYAML's marks (0-based lines and columns, character indexes)."""

    line: int
    column: int
    offset: int
    end_line: int
    end_column: int
    end_offset: int
    kind: str  # "plain", "'", '"', "|", ">", "seq" or "map"
    value: str = ""

    @property
    def width(self) -> int:
        """Its width in characters when on one line, else 0."""
        return self.end_column - self.column if self.end_line == self.line else 0


def _span(event: yaml.Event) -> _Span:
    start, end = event.start_mark, event.end_mark
    assert start is not None and end is not None
    if isinstance(event, yaml.ScalarEvent):
        kind, value = event.style or "plain", event.value
    else:
        kind, value = ("seq" if isinstance(event, yaml.SequenceStartEvent) else "map"), ""
    return _Span(start.line, start.column, start.index, end.line, end.column, end.index, kind, value)


def _locate(source: str, lines: list[str], line: int, column: int, length: int) -> Location:
    """A :class:`Location` from a 0-based line and column, the caret capped to the rest of the line."""
    text = lines[line] if 0 <= line < len(lines) else ""
    return Location(source, line + 1, column + 1, text=text, length=max(1, min(length, len(text) - column)))


@dataclass(frozen=True)
class Document:
    """A loaded ruleset: plain Python ``data`` plus the position of every value in ``text``."""

    data: object
    source: str
    text: str
    _spans: dict[Path, _Span] = field(default_factory=dict, repr=False, compare=False)
    _keys: dict[Path, _Span] = field(default_factory=dict, repr=False, compare=False)
    _lines: list[str] = field(default_factory=list, repr=False, compare=False)

    def has(self, path: Path) -> bool:
        """Whether the document has a value at ``path``."""
        return path in self._spans

    def location(self, path: Path) -> Location:
        """Where the value at ``path`` starts (or its nearest existing ancestor, or line 1)."""
        while path not in self._spans and path:
            path = path[:-1]
        span = self._spans.get(path)
        return self._at(span) if span is not None else _locate(self.source, self._lines, 0, 0, 1)

    def key_location(self, path: Path) -> Location:
        """Where the key of the last element of ``path`` is; :meth:`location` when there is none."""
        span = self._keys.get(path)
        return self._at(span) if span is not None else self.location(path)

    def text_location(self, path: Path, line: int, column: int, length: int = 1) -> Location:
        """Map a 1-based ``(line, column)`` inside the string at ``path`` to the file position.

        Exact for single-line plain and quoted scalars without escapes and for literal
        block scalars (``|``); anything else falls back to the start of the scalar.
        """
        span = self._spans.get(path)
        if span is None or line < 1 or column < 1:
            return self.location(path)
        if span.kind in ("plain", "'", '"') and span.line == span.end_line and line == 1:
            quote = 0 if span.kind == "plain" else 1
            raw = self.text[span.offset + quote : span.end_offset - quote]
            escaped = (span.kind == "'" and "''" in raw) or (span.kind == '"' and "\\" in raw)
            if not escaped and column <= len(raw) + 1:
                return _locate(self.source, self._lines, span.line, span.column + quote + column - 1, length)
        elif span.kind == "|" and "\u2028" not in span.value and "\u2029" not in span.value:
            # A literal scalar keeps every line break, so its row n is the n-th line after the header.
            rows = span.value.split("\n")
            row = rows[line - 1] if line <= len(rows) else None
            file_line = span.line + line
            if row is not None and column <= len(row) + 1 and file_line < len(self._lines):
                text = self._lines[file_line]
                indent = len(text) - len(row)
                if indent >= 0 and text.endswith(row) and text[:indent] == " " * indent:
                    return _locate(self.source, self._lines, file_line, indent + column - 1, length)
        return self._at(span)

    def _at(self, span: _Span) -> Location:
        width = span.width
        if not width and span.kind not in ("seq", "map"):  # a multi-line scalar: the rest of its first line
            width = len(self._lines[span.line].rstrip()) - span.column if span.line < len(self._lines) else 1
        return _locate(self.source, self._lines, span.line, span.column, width)


class _Frame:
    """An open mapping or sequence while the event stream is being read."""

    __slots__ = ("container", "key", "path", "seen")

    def __init__(self, container: _Container, path: Path) -> None:
        self.container = container
        self.path = path
        self.key: str | None = None  # the key awaiting its value; None while a key is expected
        self.seen: dict[str, int] = {}  # key -> 1-based line of its first definition

    def next(self) -> str | int:
        """The path element of the value that comes next."""
        return len(self.container) if isinstance(self.container, list) else self.key or ""


class _Builder:
    """Builds the data and the position tables from PyYAML events, enforcing every rule."""

    def __init__(self, text: str, source: str, lines: list[str]) -> None:
        self.text, self.source, self.lines = text, source, lines
        self.spans: dict[Path, _Span] = {}
        self.keys: dict[Path, _Span] = {}
        self.stack: list[_Frame] = []
        self.root: object = None
        self.nodes = 0
        self.documents = 0

    def error(self, msg: str, event: yaml.Event, length: int = 1, hint: str | None = None) -> RulesetError:
        """An error located where ``event`` starts."""
        return RulesetError(msg, location=self.at(event.start_mark, length), hint=hint)

    def at(self, mark: _Mark | None, length: int = 1) -> Location:
        """The location of a PyYAML mark (line 1, column 1 when there is none)."""
        line, column = (mark.line, mark.column) if mark is not None else (0, 0)
        return _locate(self.source, self.lines, line, column, length)

    def quote_hint(self, line: int) -> Said | None:
        """For ``key: a ? b : c`` (a formula's ``? :``, or any text holding ``': '``): say to quote the value."""
        text = self.lines[line] if line < len(self.lines) else ""
        found = re.match(r"\s*(-\s+)?([^\s:#][^:#]*?):\s+(.*?)\s*(#.*)?$", text)
        if found is None or ": " not in found.group(3) or found.group(3)[:1] in "\"'|>":
            return None
        key, value = found.group(2), found.group(3)
        quoted = value.replace("\\", "\\\\").replace('"', '\\"')
        what = said("a formula's '? :'") if "?" in value else "': '"
        return said('a value holding {what} must be quoted: {key}: "{quoted}"', what=what, key=key, quoted=quoted)

    def token(self, event: yaml.Event) -> str:
        """The source text of the token (anchor, tag, ``---``...) where ``event`` starts."""
        mark = event.start_mark
        line = self.lines[mark.line] if mark is not None and mark.line < len(self.lines) else ""
        found = re.match(r"[^\s,\[\]{}]+", line[mark.column :]) if mark is not None else None
        return found.group() if found else ""

    def run(self) -> object:
        loader = self.guard(None, lambda: yaml.SafeLoader(self.text))
        try:
            while self.guard(loader, loader.check_event):
                self.handle(self.guard(loader, loader.get_event))
        finally:
            loader.dispose()
        return self.root

    def guard(self, loader: yaml.SafeLoader | None, step: Callable[[], _T]) -> _T:
        """Run one step of PyYAML, turning anything it raises into a located RulesetError."""
        try:
            return step()
        except yaml.MarkedYAMLError as exc:
            hint: Said | None = None
            if exc.context and exc.context_mark is not None:
                hint = said("{context}, which started on line {line}", context=Said.literal(exc.context),
                            line=exc.context_mark.line + 1)
            if exc.problem and "'\\t'" in exc.problem:
                hint = said("indent with spaces: YAML does not allow tabs there")
            if exc.problem == "mapping values are not allowed here" and exc.problem_mark is not None:
                hint = self.quote_hint(exc.problem_mark.line) or hint
            location = self.at(exc.problem_mark or exc.context_mark)
            problem = Said.literal(exc.problem) if exc.problem else said("invalid YAML")
            raise RulesetError(problem, location=location, hint=hint) from exc
        except yaml.reader.ReaderError as exc:
            before = _BREAK.split(self.text[: exc.position])
            char = exc.character if isinstance(exc.character, int) else ord(exc.character)
            location = _locate(self.source, self.lines, len(before) - 1, len(before[-1]), 1)
            message = f"unacceptable character #x{char:04x}: {exc.reason}"
            raise RulesetError(message, location=location) from exc
        except Exception as exc:  # PyYAML can leak ValueError/OverflowError (e.g. "\UFFFFFFFF")
            location = self.at(loader.get_mark() if loader is not None else None)
            raise RulesetError(f"the YAML cannot be read here: {exc}", location=location) from exc

    def handle(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.error(said("a ruleset must be a single YAML document, but a second one starts here"),
                                 event, len(self.token(event)), hint=said("remove the second document"))
        elif isinstance(event, yaml.AliasEvent):
            raise self.error(said("aliases are not allowed in rulesets (found '{found}')", found=f"*{event.anchor}"),
                             event, len(self.token(event)), hint=said("write the value out in full"))
        elif isinstance(event, _Node):
            self.node(event)
        elif isinstance(event, yaml.CollectionEndEvent) and event.end_mark is not None:
            path, end = self.stack.pop().path, event.end_mark
            self.spans[path] = self.spans[path]._replace(end_line=end.line, end_column=end.column)

    def node(self, event: _Node) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.error(f"the ruleset has more than {MAX_NODES:,} YAML nodes (MAX_NODES)", event)
        if event.anchor is not None or event.tag is not None:
            found = self.token(event)
            if found.startswith("&"):
                raise self.error(said("anchors are not allowed in rulesets (found '{found}')", found=found), event,
                                 len(found), hint=said("write the value out in full"))
            raise self.error(said("tags are not allowed in rulesets (found '{found}')", found=found), event, len(found),
                             hint=said("only mappings, lists, strings, numbers, booleans and null are allowed"))
        if isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_SCALAR:
            raise self.error(f"a scalar of {len(event.value):,} characters is longer than the "
                             f"{MAX_SCALAR:,}-character limit (MAX_SCALAR)", event, 1)
        if isinstance(event, yaml.ScalarEvent) and _SURROGATE.search(event.value):
            event.value = self.characters(event)
        frame = self.stack[-1] if self.stack else None
        if frame is not None and isinstance(frame.container, dict) and frame.key is None:
            self.key(frame, event)
            return
        path: Path = () if frame is None else (*frame.path, frame.next())
        span = self.spans[path] = _span(event)
        value: object
        if isinstance(event, yaml.ScalarEvent):
            value = self.scalar(event, span)
        elif len(self.stack) >= MAX_DEPTH:
            raise self.error(f"the ruleset nests deeper than {MAX_DEPTH} levels (MAX_DEPTH)", event)
        else:
            container: _Container = {} if isinstance(event, yaml.MappingStartEvent) else []
            self.stack.append(_Frame(container, path))
            value = container
        if frame is None:
            self.root = value
        elif isinstance(frame.container, list):
            frame.container.append(value)
        else:
            assert frame.key is not None
            frame.container[frame.key] = value
            frame.key = None

    def characters(self, event: yaml.ScalarEvent) -> str:
        """The scalar with each escaped surrogate pair joined into its character; a lone one is an error."""
        value = _PAIR.sub(lambda m: m.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le"), event.value)
        lone = _SURROGATE.search(value)
        if lone is not None:
            raise self.error(f"the string has a lone surrogate \\u{ord(lone.group()):04x}, which is not a character",
                             event, _span(event).width,
                             hint="write the character itself, or one 8-digit escape such as \\U0001F0CF")
        return value

    def key(self, frame: _Frame, event: _Node) -> None:
        if not isinstance(event, yaml.ScalarEvent):
            kind = "sequence" if isinstance(event, yaml.SequenceStartEvent) else "mapping"
            raise self.error(said("a mapping key must be a string or number, not a sequence") if kind == "sequence"
                             else said("a mapping key must be a string or number, not a mapping"), event)
        span, key = _span(event), event.value
        if key == "<<" and event.style is None:
            raise self.error("merge keys ('<<') are not allowed in rulesets", event, 2,
                             hint="write the merged keys out in full")
        if key in frame.seen:
            first = frame.seen[key]
            raise self.error(said("duplicate key {key!r} (first defined on line {first})", key=key, first=first),
                             event, span.width)
        frame.seen[key] = span.line + 1
        frame.key = key
        self.keys[(*frame.path, key)] = span

    def scalar(self, event: yaml.ScalarEvent, span: _Span) -> object:
        value = event.value
        if event.style is not None:
            return value
        if value in _CONSTANTS:
            return _CONSTANTS[value]
        if _INT.fullmatch(value):
            try:
                return int(value)
            except ValueError:  # over Python's int-string conversion limit
                raise self.error(f"the integer {value[:20]}... has {len(value):,} digits, too many to read",
                                 event, span.width) from None
        if _FLOAT.fullmatch(value):
            return float(value)
        return value


def _too_big(size: int, source: str) -> RulesetError:
    message = f"the ruleset is {size:,} bytes, over the {MAX_BYTES:,}-byte limit (MAX_BYTES)"
    return RulesetError(message, location=Location(source, 1, 1))


def _decode(data: bytes, source: str) -> str:
    """UTF-8 text from ``data`` (a BOM is dropped); invalid UTF-8 names its byte offset."""
    return decode_utf8(data, source, error=RulesetError)


def load(text: str | bytes, source: str) -> Document:
    """Load one ruleset document from ``text`` (``str``, or UTF-8 ``bytes``), named ``source``."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise _too_big(len(text), source)
        text = _decode(text, source)
    elif len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise _too_big(len(text.encode("utf-8", "surrogatepass")), source)
    text = text.removeprefix("\ufeff")
    builder = _Builder(text, source, _BREAK.split(text))
    data = builder.run()
    return Document(data, source, text, builder.spans, builder.keys, builder.lines)


def load_file(path: pathlib.Path | str, source: str | None = None) -> Document:
    """Read and :func:`load` a ruleset file; ``source`` names it in errors (default: the path)."""
    path = pathlib.Path(path)
    source = str(path) if source is None else source
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise _too_big(size, source)
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RulesetError(f"cannot read the ruleset file: {reason}", location=Location(source, 1, 1),
                           code="unreadable") from exc
    if len(data) > MAX_BYTES:  # it grew after stat()
        raise _too_big(len(data), source)
    return load(data, source)
