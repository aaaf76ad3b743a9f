"""Match files over HTTP: ``/v1/sheets/match/write`` turns a match's rounds (the ``rounds`` that
``/v1/score/match`` takes) into the match file ``loba match`` reads, and ``/v1/sheets/match/read`` reads a match
file back into those rounds, so a sheet kept by a client (the page) is exported and imported as the command
line's file.  Reading and writing only: what the rounds mean (who may go out, re-enter...) is
``/v1/score/match``'s to judge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from msgspec import Meta, Struct
from starlette.requests import Request
from starlette.responses import Response

from loba_dsl import DEFAULT_RULESET, MatchRound, PlayerPoints, Reentry, Ruleset
from loba_service.bodies import Lang, MatchRoundIn, Messages, Name, RulesetRef, SheetText

__all__ = ["TYPES", "paths", "read_rounds", "routes"]


class MatchFileWriteRequest(Struct, forbid_unknown_fields=True):
    """A match's rounds (as ``/v1/score/match`` takes them) to write as a match file."""

    rounds: Annotated[list[MatchRoundIn], Meta(max_length=200)]
    ruleset: RulesetRef = DEFAULT_RULESET
    lang: Lang | None = None
    players: Annotated[list[Name], Meta(max_length=20)] | None = None
    target: Annotated[int, Meta(ge=1, le=100_000)] | None = None
    messages: Messages = "en"


class MatchFileOut(Struct):
    """The match file: ``loba match FILE`` reads it (with ``--ruleset`` as its first line says)."""

    sheet: str


class MatchFileReadRequest(Struct, forbid_unknown_fields=True):
    """A match file's text, to read into rounds."""

    sheet: SheetText
    ruleset: RulesetRef = DEFAULT_RULESET
    lang: Lang | None = None
    messages: Messages = "en"


class PlayerRoundOut(Struct):
    """A player's round given by cards: the melds on the table and the cards left in hand, as written."""

    name: str
    melds: list[str]
    hand: str
    went_out: bool
    all_at_once: bool


class PointsOut(Struct):
    name: str
    points: int
    went_out: bool


class MatchRoundRead(Struct):
    """A round as ``/v1/score/match`` takes it (``players`` or ``points``) and who re-enters after it."""

    number: int | None
    stock_out: bool
    reenter: list[str]
    players: list[PlayerRoundOut] | None = None
    points: list[PointsOut] | None = None


class MatchFileRead(Struct):
    """What a match file says: its players and target when it names them, its rounds."""

    players: list[str] | None
    target: int | None
    rounds: list[MatchRoundRead]


TYPES: list[Any] = [MatchFileWriteRequest, MatchFileOut, MatchFileReadRequest, MatchFileRead]


def _json(obj: Any) -> Response:
    return Response(msgspec.json.encode(obj), media_type="application/json")


def _header(ref: RulesetRef, rs: Ruleset) -> str:
    if isinstance(ref, str):
        return f"loba match FILE --ruleset {rs.name}"
    return f"loba match FILE --ruleset {ref.file or rs.name + '.yaml'} (the house ruleset '{rs.name}')"


async def write(svc: Any, request: Request) -> Response:
    """Rounds in, the match file out."""
    from loba_dsl import write_match
    from loba_service.engine import _events
    from loba_service.problems import speaks

    req = svc.decode(MatchFileWriteRequest, await svc.body(request))
    speaks(request, req)
    rs: Ruleset = await svc.ruleset(req.ruleset)
    events = _events(rs, req.rounds, req.lang, svc.limits)
    text = write_match(rs, events, players=req.players, target=req.target, comments=[_header(req.ruleset, rs)])
    return _json({"sheet": text})


async def read(svc: Any, request: Request) -> Response:
    """A match file in, its rounds out."""
    from loba_dsl import play_match_sheet, read_match
    from loba_service.problems import speaks

    req = svc.decode(MatchFileReadRequest, await svc.body(request))
    speaks(request, req)
    rs: Ruleset = await svc.ruleset(req.ruleset)
    sheet = read_match(req.sheet, rs, source="<sheet>", lang=req.lang)
    if sheet.events and isinstance(sheet.events[0], Reentry):
        play_match_sheet(sheet, rs)  # a re-entry before any round: the match's own error, at its line
    return _json({"players": list(sheet.players) if sheet.players is not None else None, "target": sheet.target,
                  "rounds": read_rounds(rs, sheet.events)})


def read_rounds(rs: Ruleset, events: Any) -> list[dict[str, Any]]:
    """Match events as the ``rounds`` of ``/v1/score/match``: each re-entry goes with the round before it (the
    events must begin with a round)."""
    names = rs.deck.names
    out: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, Reentry):
            out[-1]["reenter"].append(event.name)
            continue
        assert isinstance(event, MatchRound)
        r: dict[str, Any] = {"number": event.number, "stock_out": event.stock_out, "reenter": []}
        if event.points_only:
            r["points"] = [{"name": p.name, "points": p.points, "went_out": p.went_out} for p in event.players
                           if isinstance(p, PlayerPoints)]
        else:
            r["players"] = [{"name": p.name, "melds": [" ".join(names[c] for c in m) for m in p.melds],
                             "hand": " ".join(names[c] for c in p.hand), "went_out": p.went_out,
                             "all_at_once": p.all_at_once} for p in event.players if not isinstance(p, PlayerPoints)]
        out.append(r)
    return out


def routes() -> list[tuple[str, Callable[..., Any], str]]:
    return [("/v1/sheets/match/write", write, "POST"), ("/v1/sheets/match/read", read, "POST")]


def paths(op: Callable[..., Any], post: tuple[int, ...]) -> dict[str, Any]:
    return {
        "/v1/sheets/match/write": {"post": op(
            "Write a match file", "A match's `rounds` (as `/v1/score/match` takes them) as the match file `loba "
            "match` reads: `players:`, `target:`, each round in points or in cards (written in the ruleset's "
            "notation), `reenter` lines; its first line is a comment giving the command that scores it.  The "
            "file is read back before it is answered: a name the format cannot hold is a 422 naming it.  What "
            "the rounds mean is not judged here (`/v1/score/match` does).",
            MatchFileOut, request=MatchFileWriteRequest, errors=post, tag="scoring", op_id="sheetsMatchWrite")},
        "/v1/sheets/match/read": {"post": op(
            "Read a match file", "A match file's text (as `loba match` reads it) as the `players`, `target` and "
            "`rounds` that `/v1/score/match` takes, each re-entry with the round before it.  A file that does not "
            "read is a 422 with every problem at its line and column.",
            MatchFileRead, request=MatchFileReadRequest, errors=post, tag="scoring", op_id="sheetsMatchRead")},
    }
