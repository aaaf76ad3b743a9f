"""The move notation: one line of text per move, in the players' own words, English or Spanish.

>>> from loba_dsl.rules.loading import load
>>> rs = load("menos")
>>> move = parse_move("Beto melds 7♠ 7♥ 7♦", rs, players=["Ana", "Beto"])
>>> move
Meld('Beto', ('7♠', '7♥', '7♦'))
>>> format_move(move, rs, "es")
'Beto baja 7♠ 7♥ 7♦'
>>> parse_move("Beto baja 7♠ 7♥ 7♦", rs) == move
True

=================  ==========================================  ==============================================
move               English                                     Spanish
=================  ==========================================  ==============================================
stock draw         ``Ana draws stock`` (``: 7♦`` the card,     ``Ana roba del mazo`` (``: 7♦``)
                   where a hand-dealt record states it)
discard pile       ``Ana takes the discard``                   ``Ana toma el descarte``
meld               ``Beto melds 4♣ JOKER 6♣ as 5♣``            ``Beto baja 4♣ JOKER 6♣ como 5♣``
lay-off            ``Carla lays off 5♣ on 2``                  ``Carla agrega 5♣ a la 2``
Joker replacement  ``Ana replaces the wild on 2 with 5♣``      ``Ana reemplaza el comodín de la 2 con 5♣``
moving a wild      ``Ana moves the wild on 2 to the high end`` ``Ana mueve el comodín de la 2 al extremo alto``
discard            ``Ana discards K♦``                         ``Ana descarta K♦``
reshuffle          ``the dealer reshuffles: 9♦ 3♣ …``          ``el repartidor mezcla: 9♦ 3♣ …``
=================  ==========================================  ==============================================

``as``/``como`` (in lower case: ``As`` is the ace of spades) names what each wild-capable card
stands for, in order (as a record's ``as``); a
meld is named by its number on the table (from 1, in the order melds were put down).  A reshuffle
without cards is one whose new order is not known (a hand-dealt game).  Cards are written as the
ruleset's notation reads them (``7♠``, ``7s``; Spanish suit words with ``es``); the printed form is
the deck's own (``7♠``).  A player's name may hold spaces: given the players, the longest name that
starts the line is taken.  A line that is no move is an :class:`~loba_dsl.game.moves.InvalidMove`
saying which forms exist.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from loba_dsl.cards.deck import Card
from loba_dsl.errors import InputError, Location
from loba_dsl.game.moves import (
    HIDDEN,
    UNKNOWN,
    Discard,
    Draw,
    InvalidMove,
    LayOff,
    Meld,
    Move,
    MoveWild,
    ReplaceJoker,
    Reshuffle,
)

if TYPE_CHECKING:
    from dataclasses import dataclass

    from loba_dsl.game.referee import Event
    from loba_dsl.rules.model import Ruleset
else:
    from loba_dsl.frozen import dataclass  # built without importing dataclasses (issue 22)

LANGUAGES = ("en", "es")
MAX_LINE = 2_000
"""The longest line read (a reshuffle of a whole deck is about 500 characters)."""


@dataclass(frozen=True)
class _Words:
    """One language's phrases: each move's pattern (after the player's name) and its printed form."""

    draw_stock: str
    draw_discard: str
    meld: str
    lay_off: str
    replace: str
    move_wild: str
    discard: str
    reshuffle: str
    as_: str
    on: str
    low: str
    high: str


_EN = _Words(draw_stock="draws stock", draw_discard="takes the discard", meld="melds", lay_off="lays off",
             replace="replaces the wild on {meld} with", move_wild="moves the wild on {meld} to the {end} end",
             discard="discards", reshuffle="the dealer reshuffles", as_="as", on="on", low="low", high="high")
_ES = _Words(draw_stock="roba del mazo", draw_discard="toma el descarte", meld="baja", lay_off="agrega",
             replace="reemplaza el comodín de la {meld} con",
             move_wild="mueve el comodín de la {meld} al extremo {end}", discard="descarta",
             reshuffle="el repartidor mezcla", as_="como", on="a la", low="bajo", high="alto")
WORDS = {"en": _EN, "es": _ES}

_CARDS = r"(?P<cards>\S+(?:\s+\S+)*?)"
_AS = r"(?:\s+(?-i:{as_})\s+(?P<as_>\S+(?:\s+\S+)*))?"
_N = r"(?P<meld>\d{1,4})"
_I = "(?i)"
_PATTERNS: dict[str, list[tuple[str, re.Pattern[str]]]] = {
    "en": [
        ("draw_stock", re.compile(_I + r"draws\s+(?:from\s+)?(?:the\s+)?stock(?:\s*:\s*(?P<card>\S+))?")),
        ("draw_discard", re.compile(_I + r"(?:takes|draws)\s+(?:from\s+)?the\s+(?:discard|pile)(?:\s+pile)?")),
        ("meld", re.compile(_I + rf"melds\s+{_CARDS}{_AS.format(as_='as')}")),
        ("lay_off", re.compile(_I + rf"lays\s+off\s+{_CARDS}\s+on\s+(?:meld\s+)?{_N}{_AS.format(as_='as')}")),
        ("replace", re.compile(_I + rf"replaces\s+the\s+(?:wild|joker)\s+(?:on|in)\s+(?:meld\s+)?{_N}\s+with\s+"
                               r"(?P<card>\S+)")),
        ("move_wild", re.compile(_I + rf"moves\s+the\s+(?:wild|joker)\s+(?:on|in)\s+(?:meld\s+)?{_N}\s+to\s+the\s+"
                                 r"(?P<end>low|high)(?:\s+end)?")),
        ("discard", re.compile(_I + r"discards\s+(?P<card>\S+)")),
    ],
    "es": [
        ("draw_stock", re.compile(_I + r"roba\s+del\s+mazo(?:\s*:\s*(?P<card>\S+))?")),
        ("draw_discard", re.compile(_I + r"(?:toma|levanta|roba)\s+(?:el\s+descarte|el\s+pozo|del\s+pozo)")),
        ("meld", re.compile(_I + rf"baja\s+{_CARDS}{_AS.format(as_='como')}")),
        ("lay_off", re.compile(_I + rf"agrega\s+{_CARDS}\s+(?:a|en)\s+la\s+{_N}{_AS.format(as_='como')}")),
        ("replace", re.compile(_I + rf"reemplaza\s+el\s+comod[ií]n\s+de\s+la\s+{_N}\s+(?:con|por)\s+(?P<card>\S+)")),
        ("move_wild", re.compile(_I + rf"mueve\s+el\s+comod[ií]n\s+de\s+la\s+{_N}\s+al\s+extremo\s+"
                                 r"(?P<end>bajo|alto)")),
        ("discard", re.compile(_I + r"descarta\s+(?P<card>\S+)")),
    ],
}
_RESHUFFLE = {"en": re.compile(r"(?:the\s+)?dealer\s+reshuffles(?:\s*:\s*(?P<cards>.*))?", re.IGNORECASE),
              "es": re.compile(r"el\s+repartidor\s+mezcla(?:\s*:\s*(?P<cards>.*))?", re.IGNORECASE)}
_VERBS = re.compile(r"\s(?=(?:draws|takes|melds|lays\s+off|replaces|moves|discards|roba|toma|levanta|baja|agrega|"
                    r"reemplaza|mueve|descarta)\b)", re.IGNORECASE)
_FORMS = {
    "en": "'NAME draws stock', 'NAME takes the discard', 'NAME melds CARDS [as CARDS]', 'NAME lays off CARDS on N "
          "[as CARDS]', 'NAME replaces the wild on N with CARD', 'NAME moves the wild on N to the low|high end', "
          "'NAME discards CARD', 'the dealer reshuffles[: CARDS]'",
    "es": "'NOMBRE roba del mazo', 'NOMBRE toma el descarte', 'NOMBRE baja CARTAS [como CARTAS]', 'NOMBRE agrega "
          "CARTAS a la N [como CARTAS]', 'NOMBRE reemplaza el comodín de la N con CARTA', 'NOMBRE mueve el comodín "
          "de la N al extremo bajo|alto', 'NOMBRE descarta CARTA', 'el repartidor mezcla[: CARTAS]'",
}


# ---------------------------------------------------------------- printing


def _names(rs: Ruleset, cards: Sequence[Card]) -> str:
    names = rs.deck.names
    return " ".join(HIDDEN if c == UNKNOWN else names[c] for c in cards)


def format_move(move: Move, rs: Ruleset, lang: str = "en") -> str:
    """One move as a line of the notation (``Carla lays off 5♣ on 2``; ``lang`` ``en`` or ``es``)."""
    w = _words(lang)
    if isinstance(move, Reshuffle):
        return w.reshuffle if move.stock is None else f"{w.reshuffle}: {_names(rs, move.stock)}"
    who = move.player
    if isinstance(move, Draw):
        if move.source == "discard":
            return f"{who} {w.draw_discard}"
        return f"{who} {w.draw_stock}" + (f": {_names(rs, (move.card,))}" if move.card is not None else "")
    if isinstance(move, Meld):
        as_ = f" {w.as_} {_names(rs, move.as_)}" if move.as_ is not None else ""
        return f"{who} {w.meld} {_names(rs, move.cards)}{as_}"
    if isinstance(move, LayOff):
        as_ = f" {w.as_} {_names(rs, move.as_)}" if move.as_ is not None else ""
        return f"{who} {w.lay_off} {_names(rs, move.cards)} {w.on} {move.meld}{as_}"
    if isinstance(move, ReplaceJoker):
        return f"{who} {w.replace.format(meld=move.meld)} {_names(rs, (move.card,))}"
    if isinstance(move, MoveWild):
        return f"{who} {w.move_wild.format(meld=move.meld, end=w.low if move.to == 'low' else w.high)}"
    return f"{who} {w.discard} {_names(rs, (move.card,))}"


def _words(lang: str) -> _Words:
    w = WORDS.get(lang)
    if w is None:
        raise InputError(f"the move notation is written in {' or '.join(LANGUAGES)}, not '{lang}'")
    return w


# ---------------------------------------------------------------- reading


def parse_move(text: str | Ruleset, ruleset: Ruleset | str | None = None, *, players: Sequence[str] | None = None,
               lang: str | None = None) -> Move:
    """The move a line of the notation names (cards as codes of the ruleset's deck).  The ruleset may come
    first (the facade's one order, :mod:`loba_dsl.argorder`) or second.

    ``players``: the table's players, so that a name with spaces is read whole (without them the name is
    everything before the verb).  ``lang``: ``en`` or ``es``; by default either is read.  A line that is no
    move, or names a card that is not of the deck, raises :class:`~loba_dsl.game.moves.InvalidMove`.
    """
    from loba_dsl.rules.model import Ruleset

    if isinstance(text, Ruleset):
        text, ruleset = ruleset, text  # type: ignore[assignment]
    if not isinstance(ruleset, Ruleset):
        raise TypeError("parse_move() takes a line of the notation and a Ruleset")
    rs = ruleset
    if not isinstance(text, str):
        raise InvalidMove(f"a move is a line of text, not {text!r}")
    line = " ".join(text.split()) if len(text) <= MAX_LINE else ""
    if not line:
        what = "empty" if len(text) <= MAX_LINE else f"over {MAX_LINE:,} characters"
        raise InvalidMove(f"the move is {what}")
    langs = LANGUAGES if lang is None else (_lang(lang),)
    for lg in langs:
        m = _RESHUFFLE[lg].fullmatch(line)
        if m:
            raw = m.group("cards")
            return Reshuffle(None if raw is None else _cards(rs, raw, lg, line), deck=rs.deck)
    who, rest = _split(line, players)
    for lg in langs:
        for op, pattern in _PATTERNS[lg]:
            m = pattern.fullmatch(rest)
            if m is not None:
                return _build(op, m, who, rs, lg, line)
    forms = "; ".join(_FORMS[lg] for lg in langs)
    raise InvalidMove(f"'{line}' is not a move: {who} does what? The moves are written {forms}",
                      location=Location("<move>", 1, len(who) + 2, line, max(1, len(rest))))


def _lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise InputError(f"the move notation is written in {' or '.join(LANGUAGES)}, not '{lang}'")
    return lang


def _split(line: str, players: Sequence[str] | None) -> tuple[str, str]:
    """The player's name and the rest of the line."""
    if players is not None:
        for name in sorted(players, key=len, reverse=True):
            if line.startswith(name + " "):
                return name, line[len(name) + 1:]
        head = line.split(" ", 1)[0]
        raise InvalidMove(f"'{line}' does not start with a player's name ({', '.join(players)})",
                          location=Location("<move>", 1, 1, line, len(head)))
    m = _VERBS.search(line)
    if m is None or m.start() == 0:
        raise InvalidMove(f"'{line}' is not a move: it has no verb (draws, takes, melds, lays off, replaces, moves, "
                          "discards; roba, toma, baja, agrega, reemplaza, mueve, descarta)")
    return line[:m.start()], line[m.end():]


def _cards(rs: Ruleset, text: str, lang: str, line: str) -> tuple[Card, ...]:
    notation = rs.notation(lang if lang in rs.deck.languages else None)
    try:
        cards = notation.parse(text, source="<move>").cards
    except InputError as e:
        raise InvalidMove(f"'{line}': {e.message}") from None
    if not cards:
        raise InvalidMove(f"'{line}': no cards where cards were expected")
    return cards


def _card(rs: Ruleset, text: str, lang: str, line: str) -> Card:
    cards = _cards(rs, text, lang, line)
    if len(cards) != 1:
        raise InvalidMove(f"'{line}': '{text}' is not one card")
    return cards[0]


def _build(op: str, m: re.Match[str], who: str, rs: Ruleset, lang: str, line: str) -> Move:
    g = m.groupdict()
    deck = rs.deck
    as_ = _cards(rs, g["as_"], lang, line) if g.get("as_") else None
    if op == "draw_stock":
        return Draw(who, "stock", _card(rs, g["card"], lang, line) if g.get("card") else None, deck=deck)
    if op == "draw_discard":
        return Draw(who, "discard", deck=deck)
    if op == "meld":
        return Meld(who, _cards(rs, g["cards"], lang, line), as_, deck=deck)
    if op == "lay_off":
        return LayOff(who, int(g["meld"]), _cards(rs, g["cards"], lang, line), as_, deck=deck)
    if op == "replace":
        return ReplaceJoker(who, int(g["meld"]), _card(rs, g["card"], lang, line), deck=deck)
    if op == "move_wild":
        return MoveWild(who, int(g["meld"]), "low" if g["end"].lower() in ("low", "bajo") else "high", deck=deck)
    return Discard(who, _card(rs, g["card"], lang, line), deck=deck)


# ---------------------------------------------------------------- events

_EVENTS = {
    "en": {"drew": "{p} drew {c}", "drew_hidden": "{p} drew from the stock", "took_pile": "{p} took {c}",
           "melded": "{p} melded {c} (meld {m})", "laid_off": "{p} laid off {c} on {m}",
           "replaced": "{p} put {c} in the wild's place on {m}", "moved_wild": "{p} moved the wild on {m}",
           "discarded": "{p} discarded {c}", "went_out": "{p} went out", "round_over": "the round is over",
           "stock_out": "the stock ran out", "reshuffle": "the dealer reshuffled the discard pile into the stock",
           "took_back": "{p} took {c} back: the first lay-down fell short"},
    "es": {"drew": "{p} robó {c}", "drew_hidden": "{p} robó del mazo", "took_pile": "{p} tomó {c}",
           "melded": "{p} bajó {c} (la {m})", "laid_off": "{p} agregó {c} a la {m}",
           "replaced": "{p} puso {c} en lugar del comodín de la {m}", "moved_wild": "{p} movió el comodín de la {m}",
           "discarded": "{p} descartó {c}", "went_out": "{p} cortó", "round_over": "terminó la ronda",
           "stock_out": "se acabó el mazo", "reshuffle": "el repartidor mezcló el descarte como mazo nuevo",
           "took_back": "{p} levantó {c}: la primera bajada no alcanzó"},
}


def format_event(event: Event, rs: Ruleset, lang: str = "en") -> str:
    """What a move made happen, in words (``Ana went out``); a stock draw whose card is not shown says so."""
    _words(lang)
    table = _EVENTS[lang]
    kind = event.kind
    if kind == "drew" and not event.cards:
        kind = "drew_hidden"
    if kind == "replaced" and event.cards:
        cards: Sequence[Card] = event.cards[:1]
    else:
        cards = event.cards
    template = table.get(kind, kind)
    return template.format(p=event.player or "", c=_names(rs, cards), m=event.meld)
