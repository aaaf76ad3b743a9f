"""Round and match files ("score sheets"): text in, the engine's domain objects out, locations on the side.

The grammar is ``grammar/sheet.lark``; cards inside it are read with the
ruleset's own card notation, so they are spelt as in ``loba check`` and every
error keeps its ``file:line:col``.  A file that is nothing but cards is one
hand.

:func:`read_round` and :func:`read_match` give the round (or the match's events)
as :mod:`loba_dsl.scoring.model` objects plus a side map from each
:class:`~loba_dsl.scoring.model.Part` (a player, a meld, a card) to where it was
written.  Meaning (legal melds, the deck's copies, who went out, who may
re-enter) is checked by the engine (:mod:`loba_dsl.scoring.rounds`,
:mod:`loba_dsl.scoring.match_play`), which names the part; :func:`score_round_sheet`
and :func:`play_match_sheet` run it and put each error back at its
``file:line:col``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, TypeVar

from loba_dsl.cards.deck import Card
from loba_dsl.cards.notation import ParsedCards, Span
from loba_dsl.errors import InputError, LobaError, LobaErrors, Location, Said, raise_all, said
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.match_play import MatchResult, play_match
from loba_dsl.scoring.model import (
    MatchEvent,
    MatchRound,
    Part,
    PartError,
    PlayerPoints,
    PlayerRound,
    Reentry,
    RoundFacts,
)
from loba_dsl.scoring.rounds import RoundScore, score_round

T = TypeVar("T")

if TYPE_CHECKING:
    from dataclasses import dataclass, field

    from lark import Lark, Token, Tree
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)

__all__ = ["MAX_PLAYERS_NUMBER", "MAX_POINTS", "MAX_ROUND_NUMBER", "MAX_SHEET", "TERMINAL_WORDS", "MatchSheet",
           "RoundSheet", "is_bare_hand", "place", "play_match_sheet", "read_match", "read_round", "score_round_sheet"]

MAX_SHEET = 1_000_000
"""Largest sheet accepted, in characters."""
MAX_POINTS = 1_000_000
"""Largest points a sheet may give a player in a round, either sign, and largest target."""
MAX_ROUND_NUMBER = 10_000
"""Largest round number a sheet may write."""
MAX_PLAYERS_NUMBER = 100
"""Largest ``players:`` count a sheet may write (the ruleset's own limits are checked by the engine)."""

_KEYWORD_LINE = re.compile(r"^\s*(players|player|stock|table|hand|round|target|reenter"
                           r"|jugadores|jugador|mesa|mano|ronda|reenganche)\b"
                           r"|^\s*[^\W\d][\w'.\-]*(?:[\t ]+[^\W\d][\w'.\-]*)*\s*:",
                           re.UNICODE)


@dataclass(frozen=True)
class RoundSheet:
    """A parsed round file: the round as the engine takes it, and where each part of it was written."""

    players: tuple[PlayerRound, ...]
    facts: RoundFacts
    places: Mapping[Part, Location]
    """Where each player, meld and card was written (see :func:`place`)."""
    bare: bool = False
    """The file was nothing but the cards of one hand."""


@dataclass(frozen=True)
class MatchSheet:
    """A parsed match file: its players and target if it names them, its events, and where each was written."""

    players: tuple[str, ...] | None
    target: int | None
    events: tuple[MatchEvent, ...]
    places: Mapping[Part, Location]


def place(error: LobaError, places: Mapping[Part, Location]) -> LobaError:
    """``error`` (one or several) with each :class:`PartError` at the place its part was written.

    A part that was not written down itself (a card of a hand read as a whole)
    is placed where the part holding it was.
    """
    errors = error.errors if isinstance(error, LobaErrors) else (error,)
    placed: list[LobaError] = []
    for e in errors:
        if isinstance(e, PartError) and e.location is None:
            part: Part | None = e.part
            while part is not None and part not in places:
                part = part.broader()
            e = e.placed(places[part] if part is not None else None)
        placed.append(e)
    return placed[0] if len(placed) == 1 else LobaErrors(placed)


def score_round_sheet(sheet: RoundSheet | Ruleset, ruleset: Ruleset | RoundSheet | None = None) -> RoundScore:
    """Score a parsed round file; an error is raised at its ``file:line:col``.  The ruleset may come first
    (the facade's one order, :mod:`loba_dsl.argorder`) or second."""
    rs, read = _ruleset_and(sheet, ruleset, "score_round_sheet", RoundSheet)
    try:
        return score_round(rs, read.players, read.facts)
    except LobaError as e:
        raise place(e, read.places) from None


def play_match_sheet(sheet: MatchSheet | Ruleset, ruleset: Ruleset | MatchSheet | None = None, *,
                     target: int | None = None) -> MatchResult:
    """Play a parsed match file; ``target`` overrides the file's ``target:`` line, which overrides the ruleset's.
    The ruleset may come first (the facade's one order, :mod:`loba_dsl.argorder`) or second."""
    rs, read = _ruleset_and(sheet, ruleset, "play_match_sheet", MatchSheet)
    try:
        return play_match(rs, read.events, players=read.players,
                          target=target if target is not None else read.target)
    except LobaError as e:
        raise place(e, read.places) from None


# ---------------------------------------------------------------- parsing


@dataclass(frozen=True)
class _Meld:
    """A meld as written on a player's table line."""

    cards: tuple[Card, ...]
    spans: tuple[Span, ...]
    where: Location


@dataclass
class _Entry:
    """One player's part of a round as it is read: melds on the table, cards in hand, going out."""

    name: str
    where: Location
    melds: list[_Meld] = field(default_factory=list)
    hand: tuple[Card, ...] = ()
    hand_spans: tuple[Span, ...] = ()
    went_out: bool = False
    all_at_once: bool = False
    points: int | None = None
    """Set in a points-only round: the round score as written."""


@dataclass
class _Draft:
    """One round as it is read."""

    where: Location
    players: list[_Entry] = field(default_factory=list)
    n_players: int | None = None
    stock_out: bool = False
    number: int | None = None
    points_only: bool = False


@functools.cache
def _parser() -> Lark:
    from importlib import resources  # package data; imported only when read

    from lark import Lark

    text = resources.files("loba_dsl").joinpath("grammar/sheet.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", lexer="contextual", start=["round", "match"], propagate_positions=True)


def _ruleset_and(first: object, second: object, what: str, kind: type[T]) -> tuple[Ruleset, T]:
    """The ruleset and the other argument, given in either order (:func:`loba_dsl.argorder.ruleset_first`)."""
    from loba_dsl.argorder import ruleset_first

    rs, other = ruleset_first(first, second, None, what)
    if rs is None or not isinstance(other, kind):
        raise TypeError(f"{what}() takes a ruleset and a {kind.__name__}")
    return rs, other


def going_out_scores(ruleset: Ruleset) -> tuple[str, int] | None:
    """Why a match file must give the points of a player who went out (``Ana: out 45``), with an example of such
    points, or ``None`` where going out always scores 0 (rules.md §1: Menos), so that ``Ana: out`` says it all."""
    return ruleset.memo("going out scores", _going_out_scores, ruleset)


def _going_out_scores(ruleset: Ruleset) -> tuple[str, int] | None:
    from loba_dsl.rules.model import GoingOut
    from loba_dsl.scoring.rounds import score_player

    if ruleset.scoring.meld_points is not None:
        return "a player who went out scores their melds (scoring.meld_points)", 45
    nothing_left = score_player(ruleset, went_out=True).score
    if nothing_left != 0:
        return f"a player who went out with every card melded scores {nothing_left} (scoring.round)", nothing_left
    if ruleset.turn.going_out is GoingOut.ONE_CARD_LEFT:
        card = next(c for c in range(ruleset.deck.size) if ruleset.deck.limit(c) > 0)
        kept = score_player(ruleset, hand=(card,), went_out=True).score
        if kept != 0:
            return (f"a player who went out keeps a card that counts (turn.going_out: one_card_left; "
                    f"{ruleset.deck.name(card)} scores {kept})", kept)
    return None


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
        self.ruleset = ruleset
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
            hint = _expected(e.expected)
            if tok.type == "$END":
                raise InputError(said("the file ends too early"), location=self.at(len(self.lines), 1),
                                 hint=hint) from None
            line, column = tok.line or 1, tok.column or 1
            word = str(tok).strip()
            if not word:  # the end of a line
                raise InputError(said("the line ends too early"), location=self.at(line, column), hint=hint) from None
            raise InputError(said("unexpected '{token}'", token=_shorten(word)),
                             location=self.at(line, column, len(word)), hint=hint) from None
        except UnexpectedCharacters as e:
            raise InputError(said("unexpected text"), location=self.at(e.line, e.column),
                             hint=_expected(e.allowed or ())) from None
        except UnexpectedEOF as e:
            raise InputError(said("the file ends too early"), location=self.at(len(self.lines), 1),
                             hint=_expected(e.expected)) from None
        except UnexpectedInput as e:  # pragma: no cover - other Lark input errors
            raise InputError(str(e).splitlines()[0], location=self.at(1, 1)) from None

    def number(self, tok: Token | Tree[Token], what: str, top: int) -> int:
        """The number ``tok`` says, if it is at most ``top`` in size; otherwise an error, and ``0``."""
        from lark import Token

        assert isinstance(tok, Token)
        text = str(tok)
        digits = text.lstrip("+-").lstrip("0")
        if len(digits) <= len(str(top)) and abs(value := int(text)) <= top:
            return value
        self.errors.append(InputError(f"{what} {_shorten(text)} is too large", hint=f"at most {top:,}",
                                      location=self.at(tok.line or 1, tok.column or 1, len(text))))
        return 0

    def span(self, span: Span) -> Location:
        """Where a card was written."""
        return self.at(span.line, span.column, span.length)

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



def read_round(text: str | Ruleset, ruleset: Ruleset | str | None = None, *, source: str = "<round>",
               lang: str | None = None) -> RoundSheet:
    """Parse a round file (or a bare hand) into a :class:`RoundSheet`; the ruleset may come first (the
    facade's one order, :mod:`loba_dsl.argorder`) or second."""
    rs, given = _ruleset_and(text, ruleset, "read_round", str)
    reader = _Reader(given, source, rs, lang)
    if is_bare_hand(given):
        # Blank out comments, keeping every column where it is.
        bare = "\n".join(line.split("#", 1)[0].ljust(len(line)) for line in given.split("\n"))
        parsed = reader.notation.parse(bare, source=source)
        draft = _Draft(reader.at(1, 1), [_Entry("hand", reader.at(1, 1), hand=parsed.cards, hand_spans=parsed.spans)])
        places: dict[Part, Location] = {}
        players = _players(reader, draft, None, places)
        # One hand: at least as many players as the ruleset's minimum.
        return RoundSheet(players, RoundFacts(max(1, rs.players.min)), places, bare=True)
    tree = reader.parse("round")
    draft = _Draft(reader.at(1, 1))
    for item in tree.children:
        _round_item(reader, draft, item)
    raise_all(reader.errors)
    _finish_round(reader, draft)
    raise_all(reader.errors)
    places = {}
    players = _players(reader, draft, None, places)
    n = draft.n_players or len(players)
    if draft.n_players is None:
        # Not said: the players listed, and at least as many as the ruleset's minimum.
        n = max(n, rs.players.min)
    return RoundSheet(players, RoundFacts(n, draft.number or 1, draft.stock_out), places)


def read_match(text: str | Ruleset, ruleset: Ruleset | str | None = None, *, source: str = "<match>",
               lang: str | None = None) -> MatchSheet:
    """Parse a match file into a :class:`MatchSheet`; the ruleset may come first (the facade's one order,
    :mod:`loba_dsl.argorder`) or second."""
    rs, given = _ruleset_and(text, ruleset, "read_match", str)
    from lark import Tree

    reader = _Reader(given, source, rs, lang)
    tree = reader.parse("match")
    names: list[str] | None = None
    target: int | None = None
    events: list[_Draft | tuple[str, Location]] = []
    current: _Draft | None = None
    for item in tree.children:
        assert isinstance(item, Tree)
        kind = item.data
        loc = reader.at(item.meta.line, item.meta.column)
        if kind == "players_list":
            names = [_name(t) for t in item.children]
            dupes = {n for n in names if names.count(n) > 1}
            if dupes:
                reader.errors.append(InputError(said("player '{name}' is listed twice", name=sorted(dupes)[0]),
                                                location=loc))
        elif kind == "target":
            target = reader.number(item.children[0], "the target", MAX_POINTS)
        elif kind == "round_start":
            if current is not None:
                _finish_round(reader, current)
            number = _round_number(reader, item.children[0], loc) if item.children else None
            current = _Draft(loc, number=number)
            events.append(current)
        elif kind == "reenter":
            if current is not None:
                _finish_round(reader, current)
                current = None
            events.append((_name(item.children[0]), loc))
        else:
            if current is None:
                current = _Draft(loc)
                events.append(current)
            _round_item(reader, current, item)
    if current is not None:
        _finish_round(reader, current)
    raise_all(reader.errors)
    places: dict[Part, Location] = {}
    out: list[MatchEvent] = []
    for i, event in enumerate(events):
        if isinstance(event, _Draft):
            places[Part(i)] = event.where
            players: tuple[PlayerRound, ...] | tuple[PlayerPoints, ...]
            if event.points_only:
                players = tuple(PlayerPoints(p.name, p.points or 0, p.went_out) for p in event.players)
                places.update({Part(i, j): p.where for j, p in enumerate(event.players)})
            else:
                players = _players(reader, event, i, places)
            out.append(MatchRound(players, event.number, event.stock_out))
        else:
            name, where = event
            places[Part(i)] = where
            out.append(Reentry(name))
    return MatchSheet(tuple(names) if names is not None else None, target, tuple(out), places)


def _players(reader: _Reader, draft: _Draft, event: int | None, places: dict[Part, Location]) -> tuple[
        PlayerRound, ...]:
    """The players of a round read from cards, noting where each part was written in ``places``."""
    places[Part(event)] = draft.where
    out = []
    for j, p in enumerate(draft.players):
        places[Part(event, j)] = p.where
        for k, m in enumerate(p.melds):
            places[Part(event, j, k)] = m.where
            for c, span in enumerate(m.spans):
                places[Part(event, j, k, c)] = reader.span(span)
        for c, span in enumerate(p.hand_spans):
            places[Part(event, j, None, c)] = reader.span(span)
        out.append(PlayerRound(p.name, tuple(m.cards for m in p.melds), p.hand, p.went_out, p.all_at_once))
    return tuple(out)


def _round_item(reader: _Reader, sheet: _Draft, item: Tree[Token] | Token) -> None:
    from lark import Token, Tree

    assert isinstance(item, Tree)
    kind = item.data
    loc = reader.at(item.meta.line, item.meta.column)
    last = sheet.players[-1] if sheet.players else None
    if kind == "players_count":
        sheet.n_players = reader.number(item.children[0], "players:", MAX_PLAYERS_NUMBER)
    elif kind == "stock_out":
        sheet.stock_out = True
    elif kind == "round_number":
        if sheet.number is not None:
            reader.errors.append(InputError(said("the round's number is given twice"), location=loc,
                                            hint=said("a round file is one round")))
        sheet.number = _round_number(reader, item.children[0], loc)
    elif kind == "player":
        name = _name(item.children[0])
        entry = _Entry(name, loc)
        for status in item.children[1:]:
            if isinstance(status, Tree):
                if status.data == "went_out":
                    entry.went_out = True
                else:
                    entry.all_at_once = entry.went_out = True
        _add_player(reader, sheet, entry)
    elif kind == "points":
        name = _name(item.children[0])
        entry = _Entry(name, loc)
        for child in item.children[1:]:
            if isinstance(child, Tree):  # gone: "out", "went out", "fuera"
                entry.went_out = True
            else:
                entry.points = reader.number(child, "points", MAX_POINTS)
        if entry.points is None:
            why = going_out_scores(reader.ruleset)
            if why is not None:  # "Ana: out" would read as 0 points, which is not what going out scored
                reader.errors.append(InputError(
                    f"{name}: out gives no points, but under {reader.ruleset.name} {why[0]}",
                    location=loc, hint=f"write the points going out scored after 'out', e.g. '{name}: out {why[1]}'"))
            entry.points = 0
        sheet.points_only = True
        _add_player(reader, sheet, entry)
    elif kind in ("table", "hand"):
        if last is None:
            reader.errors.append(InputError(said("'{kind}:' comes before any 'player' line", kind=kind), location=loc))
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
                last.melds.append(_Meld(parsed.cards, parsed.spans, where))
    else:  # pragma: no cover - grammar and code agree
        reader.errors.append(InputError(f"unexpected {kind}", location=loc))


TERMINAL_WORDS: Mapping[str, str] = {
    "COLON": "':'",
    "COMMA": "','",
    "VBAR": "'|'",
    "SIGNED": said("a number of points"),
    "INT": said("a number"),
    "NAME": said("a player's name"),
    "CARDS": said("cards"),
    "WENT": "'went out'",
    "OUT": "'out'",
    "ALL": "'all at once'",
    "AT": "'at once'",
    "ONCE": "'once'",
    "RAN": "'ran out'",
    "PLAYERS": "'players:'",
    "PLAYER": "'player'",
    "TABLE": "'table:'",
    "HAND": "'hand:'",
    "STOCK": "'stock ran out'",
    "ROUND": "'round'",
    "TARGET": "'target:'",
    "REENTER": "'reenter'",
    # The Spanish keywords are said as their English twins (one word for both in a hint).
    "FUERA": "'out'",
    "JUGADORES": "'players:'",
    "JUGADOR": "'player'",
    "MESA": "'table:'",
    "MANO": "'hand:'",
    "RONDA": "'round'",
    "REENGANCHE": "'reenter'",
    "_NL": said("the end of the line"),
    "$END": said("the end of the line"),
}
"""What each terminal of ``grammar/sheet.lark`` is called in an error's "expected ..." hint (in this order)."""


def _expected(terminals: Iterable[object]) -> Said | None:
    """The hint "expected X, Y or Z" for the terminals Lark expected, in words (:data:`TERMINAL_WORDS`)."""
    order = list(TERMINAL_WORDS)
    names = sorted({str(getattr(t, "name", t)) for t in terminals},
                   key=lambda n: (order.index(n) if n in order else len(order) - 2, n))
    words: list[str] = []
    for name in names:
        if name not in TERMINAL_WORDS and name.startswith("_"):  # pragma: no cover - all are in the table
            continue
        word = TERMINAL_WORDS.get(name, f"'{name.lower()}'")
        if word not in words:
            words.append(word)
    if not words:
        return None
    items = words[0] if len(words) == 1 else \
        said("{some} or {last}", some=Said(", ".join("{}" for _ in words[:-1]), tuple(words[:-1])), last=words[-1])
    return said("expected {items}", items=items)


def _round_number(reader: _Reader, tok: Tree[Token] | Token, where: Location) -> int:
    """A round's number as written: from 1 up to :data:`MAX_ROUND_NUMBER`."""
    errors = len(reader.errors)
    number = reader.number(tok, "round", MAX_ROUND_NUMBER)
    if number == 0 and len(reader.errors) == errors:  # (too large is already an error)
        from lark import Token

        assert isinstance(tok, Token)
        reader.errors.append(InputError(said("round numbers start at 1"), location=reader.at(
            tok.line or where.line, tok.column or where.column, len(str(tok)))))
    return number or 1


def _name(tree: Tree[Token] | Token) -> str:
    """A player's name as written, its words joined by one space (``María  Luz`` is ``María Luz``)."""
    from lark import Tree

    assert isinstance(tree, Tree) and tree.data == "name"
    return " ".join(str(word) for word in tree.children)


def _shorten(text: str) -> str:
    return text if len(text) <= 12 else f"{text[:6]}…{text[-3:]} ({len(text.lstrip('+-'))} digits)"


def _add_player(reader: _Reader, sheet: _Draft, entry: _Entry) -> None:
    if any(p.name == entry.name for p in sheet.players):
        reader.errors.append(InputError(said("player '{name}' appears twice in this round", name=entry.name),
                                        location=entry.where))
        return
    sheet.players.append(entry)


def _finish_round(reader: _Reader, sheet: _Draft) -> None:
    """What the file format asks of a round (who may go out is the engine's to check: round_checks)."""
    rich = [p for p in sheet.players if p.points is None]
    if sheet.points_only and rich:
        reader.errors.append(InputError(
            said("a round gives either each player's points or their cards, not both"),
            location=rich[0].where))
    if not sheet.players:
        reader.errors.append(InputError(said("a round needs at least one player"), location=sheet.where))
