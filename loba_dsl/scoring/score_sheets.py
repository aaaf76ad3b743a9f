"""Round and match files ("score sheets"): parsing into plain data.

The grammar is ``grammar/sheet.lark``; cards inside it are read with the
ruleset's own card notation, so they are spelt as in ``loba check`` and every
error keeps its ``file:line:col``.  A file that is nothing but cards is one
hand.  Meaning (legal melds, the deck's copies, who may re-enter) is checked
by :mod:`loba_dsl.scoring.rounds` and :mod:`loba_dsl.scoring.match_play`, which know the rules.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING

from loba_dsl.cards.deck import Card
from loba_dsl.cards.notation import ParsedCards, Span
from loba_dsl.errors import InputError, LobaError, LobaErrors, Location, raise_all

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

    from loba_dsl.rules.model import Ruleset

MAX_SHEET = 1_000_000
"""Largest sheet accepted, in characters."""

_KEYWORD_LINE = re.compile(r"^\s*(players|player|stock|table|hand|round|target|reenter)\b|^\s*[^\W\d][\w'.\-]*\s*:",
                           re.UNICODE)


@dataclass(frozen=True)
class SheetMeld:
    """A meld as written on a player's table line."""

    cards: tuple[Card, ...]
    spans: tuple[Span, ...]
    where: Location


@dataclass
class PlayerEntry:
    """One player's part of a round: melds on the table, cards in hand, going out."""

    name: str
    where: Location
    melds: list[SheetMeld] = field(default_factory=list)
    hand: tuple[Card, ...] = ()
    hand_spans: tuple[Span, ...] = ()
    went_out: bool = False
    all_at_once: bool = False
    points: int | None = None
    """Set in a points-only round: the round score as written."""


@dataclass
class RoundSheet:
    """One round: its players and the round-wide facts."""

    where: Location
    players: list[PlayerEntry] = field(default_factory=list)
    n_players: int | None = None
    stock_out: bool = False
    number: int | None = None
    points_only: bool = False
    text: str = ""
    """The whole file, for error displays."""
    bare: bool = False
    """The file was nothing but the cards of one hand."""


@dataclass(frozen=True)
class Reentry:
    name: str
    where: Location


@dataclass
class MatchSheet:
    players: list[str] | None = None
    target: int | None = None
    events: list[RoundSheet | Reentry] = field(default_factory=list)


@functools.cache
def _parser() -> Lark:
    from lark import Lark

    text = resources.files("loba_dsl").joinpath("grammar/sheet.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer="contextual", start=["round", "match"], propagate_positions=True)


def is_bare_hand(text: str) -> bool:
    """A sheet with no keyword line at all is just the cards of one hand."""
    for line in text.split("\n"):
        stripped = line.split("#", 1)[0].strip()
        if stripped and _KEYWORD_LINE.match(stripped):
            return False
    return True


class _Reader:
    def __init__(self, text: str, source: str, ruleset: Ruleset, lang: str | None) -> None:
        if len(text) > MAX_SHEET:
            raise InputError(f"the file is larger than {MAX_SHEET:,} characters", location=Location(source, 1, 1))
        self.text = text
        self.lines = text.split("\n")
        self.source = source
        self.notation = ruleset.notation(lang)
        self.errors: list[LobaError] = []

    def at(self, line: int, column: int, length: int = 1) -> Location:
        src = self.lines[line - 1] if 0 < line <= len(self.lines) else None
        return Location(self.source, line, column, src, length)

    def parse(self, start: str) -> Tree[Token]:
        from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

        try:
            return _parser().parse(self.text + "\n", start=start)
        except UnexpectedToken as e:
            tok = e.token
            expected = sorted(str(x).strip("\"'") for x in e.expected if not str(x).startswith("_"))
            if tok.type == "$END":
                raise InputError("the file ends too early", location=self.at(len(self.lines), 1)) from None
            word = str(tok).strip() or "end of line"
            hint = "expected " + ", ".join(expected[:8]) if expected else None
            raise InputError(f"unexpected '{word}'", location=self.at(tok.line or 1, tok.column or 1, len(word)),
                             hint=hint) from None
        except UnexpectedCharacters as e:
            raise InputError("unexpected text", location=self.at(e.line, e.column)) from None
        except UnexpectedEOF:
            raise InputError("the file ends too early", location=self.at(len(self.lines), 1)) from None
        except UnexpectedInput as e:  # pragma: no cover - other Lark input errors
            raise InputError(str(e).splitlines()[0], location=self.at(1, 1)) from None

    def cards(self, tok: Token) -> ParsedCards:
        """Read a CARDS token with the deck's notation, keeping file columns."""
        line, column = tok.line or 1, tok.column or 1
        padded = " " * (column - 1) + str(tok)
        try:
            return self.notation.parse(padded, source=self.source, first_line=line)
        except LobaError as e:
            for err in e.errors if isinstance(e, LobaErrors) else (e,):
                if err.location is not None:
                    loc = err.location
                    err.location = self.at(loc.line, loc.column, loc.length)
            self.errors.append(e)
            return ParsedCards((), ())


def read_round(text: str, ruleset: Ruleset, *, source: str = "<round>", lang: str | None = None) -> RoundSheet:
    """Parse a round file (or a bare hand) into a :class:`RoundSheet`."""
    reader = _Reader(text, source, ruleset, lang)
    if is_bare_hand(text):
        # Blank out comments, keeping every column where it is.
        bare = "\n".join(line.split("#", 1)[0].ljust(len(line)) for line in text.split("\n"))
        parsed = reader.notation.parse(bare, source=source)
        player = PlayerEntry("hand", reader.at(1, 1), hand=parsed.cards, hand_spans=parsed.spans)
        return RoundSheet(reader.at(1, 1), [player], n_players=None, text=text, bare=True)
    tree = reader.parse("round")
    sheet = RoundSheet(reader.at(1, 1), text=text)
    for item in tree.children:
        _round_item(reader, sheet, item)
    raise_all(reader.errors)
    _finish_round(reader, sheet)
    raise_all(reader.errors)
    return sheet


def read_match(text: str, ruleset: Ruleset, *, source: str = "<match>", lang: str | None = None) -> MatchSheet:
    """Parse a match file into a :class:`MatchSheet`."""
    from lark import Tree

    reader = _Reader(text, source, ruleset, lang)
    tree = reader.parse("match")
    sheet = MatchSheet()
    current: RoundSheet | None = None
    for item in tree.children:
        assert isinstance(item, Tree)
        kind = item.data
        loc = reader.at(item.meta.line, item.meta.column)
        if kind == "players_list":
            sheet.players = [str(t) for t in item.children]
            dupes = {n for n in sheet.players if sheet.players.count(n) > 1}
            if dupes:
                reader.errors.append(InputError(f"player '{sorted(dupes)[0]}' is listed twice", location=loc))
        elif kind == "target":
            sheet.target = int(str(item.children[0]))
        elif kind == "round_start":
            if current is not None:
                _finish_round(reader, current)
            number = int(str(item.children[0])) if item.children else None
            current = RoundSheet(loc, number=number, text=text)
            sheet.events.append(current)
        elif kind == "reenter":
            if current is not None:
                _finish_round(reader, current)
                current = None
            sheet.events.append(Reentry(str(item.children[0]), loc))
        else:
            if current is None:
                current = RoundSheet(loc, text=text)
                sheet.events.append(current)
            _round_item(reader, current, item)
    if current is not None:
        _finish_round(reader, current)
    raise_all(reader.errors)
    return sheet


def _round_item(reader: _Reader, sheet: RoundSheet, item: Tree[Token] | Token) -> None:
    from lark import Token, Tree

    assert isinstance(item, Tree)
    kind = item.data
    loc = reader.at(item.meta.line, item.meta.column)
    last = sheet.players[-1] if sheet.players else None
    if kind == "players_count":
        sheet.n_players = int(str(item.children[0]))
    elif kind == "stock_out":
        sheet.stock_out = True
    elif kind == "player":
        name = str(item.children[0])
        entry = PlayerEntry(name, loc)
        for status in item.children[1:]:
            if isinstance(status, Tree):
                if status.data == "went_out":
                    entry.went_out = True
                else:
                    entry.all_at_once = entry.went_out = True
        _add_player(reader, sheet, entry)
    elif kind == "points":
        name = str(item.children[0])
        entry = PlayerEntry(name, loc)
        for child in item.children[1:]:
            assert isinstance(child, Token)
            if child.type == "OUT":
                entry.went_out = True
            else:
                entry.points = int(str(child))
        if entry.points is None:
            entry.points = 0
        sheet.points_only = True
        _add_player(reader, sheet, entry)
    elif kind in ("table", "hand"):
        if last is None:
            reader.errors.append(InputError(f"'{kind}:' comes before any 'player' line", location=loc))
            return
        for tok in item.children:
            assert isinstance(tok, Token)
            parsed = reader.cards(tok)
            if kind == "hand":
                last.hand += parsed.cards
                last.hand_spans += parsed.spans
            elif parsed.cards:
                where = reader.at(tok.line or 1, (tok.column or 1) + len(str(tok)) - len(str(tok).lstrip()),
                                  len(str(tok).strip()))
                last.melds.append(SheetMeld(parsed.cards, parsed.spans, where))
    else:  # pragma: no cover - grammar and code agree
        reader.errors.append(InputError(f"unexpected {kind}", location=loc))


def _add_player(reader: _Reader, sheet: RoundSheet, entry: PlayerEntry) -> None:
    if any(p.name == entry.name for p in sheet.players):
        reader.errors.append(InputError(f"player '{entry.name}' appears twice in this round", location=entry.where))
        return
    sheet.players.append(entry)


def _finish_round(reader: _Reader, sheet: RoundSheet) -> None:
    rich = [p for p in sheet.players if p.points is None]
    if sheet.points_only and rich:
        reader.errors.append(InputError(
            "a round gives either each player's points or their cards, not both",
            location=rich[0].where))
    out = [p for p in sheet.players if p.went_out]
    if len(out) > 1:
        reader.errors.append(InputError(
            f"only one player can go out in a round, but {', '.join(p.name for p in out)} did",
            location=out[1].where))
    if sheet.stock_out and out:
        reader.errors.append(InputError(
            f"the stock ran out, so nobody went out, but {out[0].name} did", location=out[0].where))
    if not sheet.players:
        reader.errors.append(InputError("a round needs at least one player", location=sheet.where))
