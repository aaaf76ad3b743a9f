r"""One error family for everything a user can get wrong.

Every error a user can cause (a bad card, a broken ruleset, a DSL typo) is a
:class:`LobaError`.  It carries a short machine code, a full-sentence message,
an optional :class:`Location` and an optional hint, and renders in the
``file:line:col: error: message`` form followed by the source line and a caret:

>>> loc = Location("house.yaml", 14, 12, "  opening: escalara + pierna", 8)
>>> print(LobaError("unknown meld kind 'escalara'", location=loc,
...                 hint="did you mean 'escalera'?").render())
house.yaml:14:12: error: unknown meld kind 'escalara' (did you mean 'escalera'?)
   14 |   opening: escalara + pierna
      |            ^^^^^^^^

Control characters never reach a terminal or a JSON reader (issue 9): an ESC
in a message is dropped, one in a source line becomes U+FFFD, so the caret
stays under its column:

>>> LobaError("unknown ruleset 'men\x1b[2Jos'").headline()
"error: unknown ruleset 'men[2Jos'"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from typing import Any
else:
    from loba_dsl.frozen import dataclass  # cheaper at import (issue 11)


# C0 controls except tab and newline, DEL, C1 controls, and lone surrogates (which cannot be encoded).
_CONTROL = "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]"
# On one line (a source line, a file name) a newline or a carriage return is out of place too.
_CONTROL_IN_LINE = "[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]"
# Patterns, compiled (by re's own cache) when first used rather than at import: a start-up that shows no
# message compiles neither (issue 22).


def clean(text: str) -> str:
    r"""``text`` without control characters (tab and newline stay), for messages and hints.

    >>> clean("bad\x1b[31m name\x07")
    'bad[31m name'
    """
    import re  # not at the top: a start-up that shows no message needs no regular expression (issue 22)

    return re.sub(_CONTROL, "", text)


def clean_line(text: str) -> str:
    r"""One line of ``text`` for display: each control character (newline too) becomes U+FFFD.

    One character stays one character, so a caret under a column stays in place.

    >>> clean_line("a\x1bb\rc") == "a\ufffdb\ufffdc"
    True
    """
    import re

    return re.sub(_CONTROL_IN_LINE, "\ufffd", text)


class Said(str):
    """Words of a message or hint that can be said in another language: the English text itself (so it is a
    ``str`` wherever a message was one), and the template and named fields it was made from.

    The template is the English sentence with its fields (``unknown card '{token}'``); it is also the key
    of its other languages' words (:mod:`loba_dsl.error_words`).  A field may itself be :class:`Said`
    (``did you mean '...'?`` inside a hint), and is said in the same language.

    >>> s = said("unknown card '{token}'", token="Z♠")
    >>> s, s.say("es")
    ("unknown card 'Z♠'", "carta desconocida 'Z♠'")
    >>> said("{some} or {last}", some="es", last=said("copies")).say("es")
    'es o copias'
    """

    template: str
    fields: Mapping[str, Any]
    args: tuple[Any, ...]
    given: Mapping[str, str]
    """Words already said in other languages (:meth:`in_languages`), by language."""

    def __new__(cls, template: str, args: tuple[Any, ...] = (), fields: Mapping[str, Any] | None = None) -> Said:
        fields = fields or {}
        self = super().__new__(cls, template.format(*args, **fields))  # a Said field is its English text
        self.template = template
        self.args = args
        self.fields = fields
        self.given = {}
        return self

    def say(self, lang: str) -> str:
        """These words in ``lang`` (``en``: the English text itself; a template without words in ``lang``
        is said in English)."""
        if lang == "en":
            return str.__str__(self)
        if lang in self.given:
            return self.given[lang]
        from loba_dsl.error_words import literal_in, template_in  # only when another language is asked for

        template = template_in(self.template, lang)
        if template is None and not self.args and not self.fields:  # someone else's words, a value in them
            return literal_in(str.__str__(self), lang)
        args = [v.say(lang) if isinstance(v, Said) else v for v in self.args]
        fields = {k: v.say(lang) if isinstance(v, Said) else v for k, v in self.fields.items()}
        return (template or self.template).format(*args, **fields)

    def __reduce__(self) -> tuple[Any, ...]:  # a solver process sends its errors to the server
        if self.given:
            return (Said.in_languages, ({"en": str.__str__(self), **self.given},))
        return (Said, (self.template, self.args, dict(self.fields)))

    @classmethod
    def in_languages(cls, words: Mapping[str, str]) -> Said:
        """Words already said in each language (``en`` among them), such as a meld's reasons
        (:mod:`loba_dsl.melds.reason_words`) inside an error.

        >>> Said.in_languages({"en": "too few cards", "es": "muy pocas cartas"}).say("es")
        'muy pocas cartas'
        """
        self = cls.literal(words["en"])
        self.given = {lang: text for lang, text in words.items() if lang != "en"}
        return self

    @classmethod
    def literal(cls, text: str) -> Said:
        """Someone else's words (PyYAML's, jsonschema's): the text is the template, so the catalogue may
        have words for it (or for its pattern) in another language."""
        return cls(text.replace("{", "{{").replace("}", "}}"))


def said(template: str, *args: Any, **fields: Any) -> Said:
    """A message or hint as :class:`Said` words: ``template`` (English) with its fields filled in."""
    return Said(template, args, fields)


def say(text: str | None, lang: str) -> str | None:
    """``text`` in ``lang`` when it is :class:`Said` words; any other text as it is."""
    return text.say(lang) if isinstance(text, Said) else text


@dataclass(frozen=True, slots=True)
class Location:
    """Where something is: a source name, a 1-based line and a 1-based column."""

    source: str
    line: int
    column: int
    text: str | None = None
    """The whole source line, for the caret display."""
    length: int = 1
    """How many characters the caret underlines."""

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"

    @property
    def short(self) -> str:
        """``file:line``, the form used when a rule is cited."""
        return f"{self.source}:{self.line}"


QUOTE_WIDTH = 80
"""How much of a long source line an error quotes: about this many characters around the column."""


def _window(text: str, column: int) -> tuple[str, int]:
    """``text`` cut to :data:`QUOTE_WIDTH` characters around ``column`` (with ``…`` where cut), and the
    column within the cut line."""
    if len(text) <= QUOTE_WIDTH + 20:
        return text, column
    start = max(0, min(column - 1 - QUOTE_WIDTH // 2, len(text) - QUOTE_WIDTH))
    cut = text[start:start + QUOTE_WIDTH]
    head = "…" if start > 0 else ""
    tail = "…" if start + QUOTE_WIDTH < len(text) else ""
    return head + cut + tail, column - start + len(head)


class LobaError(Exception):
    """Base of every error that a user's input or ruleset can cause."""

    code = "error"

    def __init__(
        self,
        message: str,
        *,
        location: Location | None = None,
        hint: str | None = None,
        code: str | None = None,
    ) -> None:
        self.said = message if isinstance(message, Said) else None
        """The message as words in other languages too (``None``: English only)."""
        self.hint_said = hint if isinstance(hint, Said) else None
        message = clean(message)
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = None if hint is None else clean(hint)
        if code is not None:
            self.code = code

    def message_in(self, lang: str = "en") -> str:
        """The message in ``lang`` (``en`` or ``es``; English where it has no words in ``lang`` yet)."""
        return self.message if lang == "en" or self.said is None else clean(self.said.say(lang))

    def hint_in(self, lang: str = "en") -> str | None:
        """The hint in ``lang``, as :meth:`message_in`."""
        return self.hint if lang == "en" or self.hint_said is None else clean(self.hint_said.say(lang))

    def headline(self) -> str:
        """One line: ``where: error: message (hint)``."""
        where = f"{clean_line(str(self.location))}: " if self.location is not None else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}error: {self.message}{hint}"

    def render(self) -> str:
        """The headline plus, when the source line is known, the line and a caret."""
        out = [self.headline()]
        loc = self.location
        if loc is not None and loc.text is not None:
            number = f"{loc.line:>5}"
            text, column = _window(clean_line(loc.text.rstrip()), loc.column)
            out.append(f"{number} | {text}")
            out.append(f"{'':>5} | {' ' * (column - 1)}{'^' * max(1, min(loc.length, QUOTE_WIDTH))}")
        return "\n".join(out)

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        """A JSON-ready form: what, and where (``file``, ``line``, ``column``, ``length``), so a page
        can underline it.  ``errors`` lists every problem (here just this one); ``lang``: the language of
        the messages and hints.

        >>> loc = Location("house.yaml", 3, 5, "  x: escalara", 8)
        >>> d = LobaError("unknown meld kind", location=loc, code="dsl").to_dict()
        >>> [d[k] for k in ("code", "file", "line", "column", "length")], len(d["errors"])
        (['dsl', 'house.yaml', 3, 5, 8], 1)
        """
        return {**self.problem(lang), "errors": [self.problem(lang)]}

    def problem(self, lang: str = "en") -> dict[str, object]:
        """This one error as a JSON-ready dict, without the ``errors`` list (its words in ``lang``)."""
        loc = self.location
        return {
            "code": self.code,
            "message": self.message_in(lang),
            "hint": self.hint_in(lang),
            "file": clean_line(loc.source) if loc else None,
            "source": clean_line(loc.source) if loc else None,
            "line": loc.line if loc else None,
            "column": loc.column if loc else None,
            "length": max(1, loc.length) if loc else None,
        }

    def __str__(self) -> str:
        return self.headline()


class InputError(LobaError):
    """Bad input from a user: a malformed card, more copies than the deck holds."""

    code = "input"


class RulesetError(LobaError):
    """A ruleset that cannot be used: unreadable, invalid YAML, schema or DSL error."""

    code = "ruleset"


class DSLError(RulesetError):
    """A syntax or meaning error inside a DSL expression of a ruleset."""

    code = "dsl"


class BudgetExceeded(LobaError):
    """A search ran out of its budget (time or steps) before it could give an exact answer.

    Raised instead of a guess: nothing partial is returned as if it were exact
    (:mod:`loba_dsl.budget`).  The CLI exits 2 with it, as for any bad input.
    """

    code = "budget"


class LobaErrors(LobaError):
    """Several errors found in one pass (every bad card of a line, every schema error)."""

    def __init__(self, errors: Sequence[LobaError]) -> None:
        if not errors:
            raise ValueError("LobaErrors needs at least one error")
        self.errors: tuple[LobaError, ...] = tuple(errors)
        first = self.errors[0]
        super().__init__(first.said or first.message, location=first.location, hint=first.hint_said or first.hint,
                         code=first.code)

    def headline(self) -> str:
        return "\n".join(e.headline() for e in self.errors)

    def render(self) -> str:
        return "\n".join(e.render() for e in self.errors)

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        """The first error's fields (as :meth:`LobaError.to_dict`), and ``errors``: every one of them.

        >>> both = LobaErrors([InputError("bad card 'X'", location=Location("<cards>", 1, 1, "X Y")),
        ...                    InputError("bad card 'Y'", location=Location("<cards>", 1, 3, "X Y"))])
        >>> [(e["message"], e["column"], e["length"]) for e in both.to_dict()["errors"]]
        [("bad card 'X'", 1, 1), ("bad card 'Y'", 3, 1)]
        """
        return {**self.errors[0].problem(lang), "errors": [e.problem(lang) for e in self.errors]}

    @property
    def is_input_error(self) -> bool:
        return all(isinstance(e, InputError) for e in self.errors)


_LINE_BREAK = "\r\n|\r|\n"


def decode_utf8(data: bytes, source: str, *, error: type[LobaError] = InputError, offset: int = 0,
                first_line: int = 1, hint: str | None = None) -> str:
    r"""``data`` as text (a UTF-8 byte-order mark at its start dropped), or the one error every command and
    endpoint gives for text that is not UTF-8: where the bad byte is (``source:line:column``), which byte,
    and its offset.  ``data`` may be a piece of a longer text: its first byte at byte ``offset``, on line
    ``first_line``.

    >>> decode_utf8(b"\xef\xbb\xbfA\xe2\x99\xa3", "<cards>")
    'A♣'
    >>> decode_utf8(b"A\xe2\x99\xa3\n7\xff", "hand.txt")
    Traceback (most recent call last):
    ...
    loba_dsl.errors.InputError: hand.txt:2:2: error: not UTF-8 text (bad byte 0xff at byte offset 6) (save it as UTF-8)
    """
    bom = 3 if offset == 0 and data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[bom:].decode("utf-8")
    except UnicodeDecodeError as exc:
        import re

        at = bom + exc.start
        before = re.split(_LINE_BREAK, data[bom:at].decode("utf-8"))
        after = re.split(_LINE_BREAK, data[at:].decode("utf-8", "replace"), maxsplit=1)[0]
        location = Location(source, first_line + len(before) - 1, len(before[-1]) + 1, text=before[-1] + after)
        raise error(said("not UTF-8 text (bad byte 0x{byte:02x} at byte offset {offset})", byte=data[at],
                         offset=offset + at), location=location,
                    hint=said("save it as UTF-8") if hint is None else hint) from None


def raise_all(errors: Sequence[LobaError]) -> None:
    """Raise nothing, the one error, or all of them together."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise LobaErrors(errors)


def suggest(word: str, candidates: Iterable[str]) -> Said | None:
    """A ``did you mean`` hint for ``word`` among ``candidates``, or ``None``.

    >>> suggest("escalara", ["pierna", "escalera"])
    "did you mean 'escalera'?"
    """
    import difflib  # only when something is wrong (issue 11: start-up)

    pool = list(dict.fromkeys(candidates))
    matches = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not matches:
        lowered = {c.lower(): c for c in pool}
        matches = [lowered[m] for m in difflib.get_close_matches(word.lower(), list(lowered), n=1)]
    return said("did you mean '{word}'?", word=matches[0]) if matches else None
