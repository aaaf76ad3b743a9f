"""Match files written from a match's events: the text ``loba match`` reads (``grammar/sheet.lark``), so a
sheet kept elsewhere (the page's, through the service) can be scored by the command line.

>>> from loba_dsl.rules.loading import load
>>> from loba_dsl.scoring.model import MatchRound, PlayerPoints, Reentry
>>> rs = load("menos")
>>> print(write_match(rs, [MatchRound((PlayerPoints("Ana", 0, True), PlayerPoints("Beto", 34)))],
...                   players=["Ana", "Beto"]))
players: Ana, Beto
round 1
  Ana: out
  Beto: 34
<BLANKLINE>

What is written is read back before it is given (:func:`~loba_dsl.scoring.score_sheets.read_match`): a name
the format cannot hold (a comma, a colon, a leading digit, a keyword) is refused with an
:class:`~loba_dsl.errors.InputError` naming it, never written into a file that reads otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from loba_dsl.errors import InputError
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.model import MatchEvent, MatchRound, PlayerPoints, PlayerRound, Reentry

__all__ = ["write_match"]

_NAME = re.compile(r"[^\W\d][\w'.\-]*(?: [^\W\d][\w'.\-]*)*")
"""A player's name a match file can hold: words of letters, digits and ``_ ' . -`` (not starting with a
digit), one space between them (``grammar/sheet.lark``'s ``name``)."""


def write_match(ruleset: Ruleset, events: Iterable[MatchEvent], *, players: Sequence[str] | None = None,
                target: int | None = None, comments: Sequence[str] = ()) -> str:
    """The match file of ``events`` (rounds in points or in cards, and re-entries), with its ``players:`` and
    ``target:`` lines when given and ``comments`` (one ``#`` line each) on top; cards are written in the
    ruleset's own notation.  A round without a number is written with the number the match gives it."""
    events = tuple(events)
    names = list(players or ())
    for event in events:
        for name in _names_of(event):
            if name not in names:
                names.append(name)
    for name in names:
        _check_name(name)
    lines = [f"# {c}" if c else "#" for c in (line for comment in comments for line in comment.splitlines())]
    if players is not None and len(players) >= 2:
        lines.append("players: " + ", ".join(players))
    if target is not None:
        lines.append(f"target: {target}")
    played = 0
    numbered: list[MatchEvent] = []
    for event in events:
        if isinstance(event, Reentry):
            lines.append(f"reenter {event.name}")
            numbered.append(event)
            continue
        played += 1
        number = event.number if event.number is not None else played
        numbered.append(MatchRound(event.players, number, event.stock_out))
        lines.append(f"round {number}")
        if event.stock_out:
            lines.append("  stock ran out")
        lines.extend(_round_lines(ruleset, event))
    text = "\n".join(lines) + "\n"
    _read_back(ruleset, text, numbered, players, target)
    return text


def _names_of(event: MatchEvent) -> list[str]:
    return [event.name] if isinstance(event, Reentry) else [p.name for p in event.players]


def _check_name(name: str) -> None:
    if not _NAME.fullmatch(name):
        raise InputError(f"the name '{name[:40]}' cannot be written in a match file",
                         hint="a name is words of letters and digits (and _ ' . -), not starting with a digit, "
                              "one space between words")


def _round_lines(ruleset: Ruleset, event: MatchRound) -> list[str]:
    from loba_dsl.scoring.score_sheets import going_out_scores

    names = ruleset.deck.names
    out: list[str] = []
    for p in event.players:
        if isinstance(p, PlayerPoints):
            if p.went_out:  # the points too where going out scores points of its own (read_match asks for them)
                shown = p.points or going_out_scores(ruleset) is not None
                out.append(f"  {p.name}: out" + (f" {p.points}" if shown else ""))
            else:
                out.append(f"  {p.name}: {p.points}")
            continue
        status = ": went out all at once" if p.all_at_once else ": went out" if p.went_out else ""
        out.append(f"  player {p.name}{status}")
        if p.melds:
            out.append("    table: " + " | ".join(" ".join(names[c] for c in meld) for meld in p.melds))
        if p.hand:
            out.append("    hand: " + " ".join(names[c] for c in p.hand))
    return out


def _read_back(ruleset: Ruleset, text: str, events: list[MatchEvent], players: Sequence[str] | None,
               target: int | None) -> None:
    """The file must read as the events it was written from; a name that reads otherwise is named."""
    from loba_dsl.errors import LobaError
    from loba_dsl.scoring.score_sheets import read_match

    try:
        sheet = read_match(text, ruleset, source="<written>")
    except LobaError:
        sheet = None
    wanted_players = tuple(players) if players is not None and len(players) >= 2 else None
    if sheet is not None and list(sheet.events) == events and sheet.players == wanted_players \
            and sheet.target == target:
        return
    for event in events:  # which name breaks the format (a keyword, or a word that ends a name)
        for name in _names_of(event):
            if not _reads_as_itself(ruleset, name):
                raise InputError(f"the name '{name[:40]}' cannot be written in a match file: it reads as "
                                 "something else there", hint="change a word of the name (a keyword such as "
                                                              "'round', 'player' or 'reenter' cannot be one)")
    for name in players or ():
        if not _reads_as_itself(ruleset, name):
            raise InputError(f"the name '{name[:40]}' cannot be written in a match file: it reads as "
                             "something else there", hint="change a word of the name")
    raise InputError("the match cannot be written as a match file that reads back the same")  # pragma: no cover


def _reads_as_itself(ruleset: Ruleset, name: str) -> bool:
    from loba_dsl.errors import LobaError
    from loba_dsl.scoring.score_sheets import read_match

    other = "Yy" if name == "Zz" else "Zz"
    probe = [MatchRound((PlayerPoints(name, 1), PlayerPoints(other, 0, True)), 1), Reentry(name)]
    text = f"players: {name}, {other}\nround 1\n  {name}: 1\n  {other}: out 0\nround 2\n" \
           f"  player {name}: went out\nreenter {name}\n"
    try:
        sheet = read_match(text, ruleset, source="<name>")
    except LobaError:
        return False
    return (sheet.players == (name, other) and list(sheet.events)[:1] == probe[:1]
            and isinstance(sheet.events[1], MatchRound) and isinstance(sheet.events[1].players[0], PlayerRound)
            and sheet.events[1].players[0].name == name and sheet.events[1].players[0].went_out
            and sheet.events[2] == probe[1])
