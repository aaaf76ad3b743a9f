"""The stateless referee: ``/v1/games/deal``, ``/legal``, ``/check`` and ``/play``.

Each call takes a ``loba-record/1`` record (and a move), rebuilds the table by replaying it with the
referee (:mod:`loba_dsl.game`), and answers with the events, the new record and the view of the player to
move.  The server keeps no game: any worker answers any call.

Two kinds of record:

- **open**: every card is written in it (a physical game being checked, or a deal from a given ``seed``).
  The answers give the whole record back.
- **hand-dealt**: an open record that leaves cards unknown (``"stock": null``, hidden cards ``"??"``), as an app
  at a real table records it; the referee checks what it can (``loba_dsl.game.partial``).
- **sealed**: dealt by the server from a secret seed.  The record a client holds shows every hidden card
  (other hands, the stock, reshuffles) as ``"??"`` and carries ``"seal"``: the whole record encrypted and
  authenticated with the service key (:mod:`loba_service.seal`).  The seal is the truth; a record whose seal
  does not open, or that was sealed for another ruleset, is refused (422).  The view of the player to move
  shows that player's hand and what is public, nothing else.

A move is stale (409) when the request's ``ply`` is not the ply the record has reached: it was chosen on a
state that has moved on.  When the stock is empty and the ruleset reshuffles, the table reshuffles the
discard pile itself before the draw, from a secure random source the server gives it (``Table.rng``).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType
from starlette.requests import Request
from starlette.responses import Response

from loba_dsl import DEFAULT_RULESET, Ruleset
from loba_service.bodies import HouseRuleset, Name, RulesetRef
from loba_service.problems import ErrorItem, ErrorLocation, ServiceError
from loba_service.rulesets import spec_of
from loba_service.seal import Sealer, service_key

__all__ = ["TYPES", "WORK", "Games", "paths", "play_sync", "process_games", "public", "routes"]

HIDDEN = "??"
MAX_LEGAL = 1_000


# ---------------------------------------------------------------- bodies


class Record(Struct):
    """A ``loba-record/1`` game record (see the README): players in seating order, each round's deal and
    moves.  A sealed record (dealt by the server) shows hidden cards as ``"??"`` and carries ``seal``."""

    format: Literal["loba-record/1"]
    ruleset: Annotated[str, Meta(min_length=1, max_length=64)]
    players: Annotated[list[Name], Meta(min_length=2, max_length=12)]
    dealer: Name
    rounds: Annotated[list[dict[str, Any]], Meta(max_length=100)]
    seal: Annotated[str, Meta(max_length=400_000)] | UnsetType = UNSET
    seed: int | UnsetType = UNSET


class MoveIn(Struct, forbid_unknown_fields=True):
    """One move, as in a record's ``moves``: ``draw`` (``from``), ``meld`` (``cards``, ``as``), ``lay_off``
    (``meld``, ``cards``, ``as``), ``replace_joker`` (``meld``, ``card``), ``move_wild`` (``meld``, ``to``),
    ``discard`` (``card``)."""

    op: Literal["draw", "meld", "lay_off", "replace_joker", "move_wild", "discard"]
    player: Name
    from_: Literal["stock", "discard"] | UnsetType = msgspec.field(default=UNSET, name="from")
    cards: Annotated[list[Annotated[str, Meta(max_length=16)]], Meta(max_length=108)] | UnsetType = UNSET
    as_: Annotated[list[Annotated[str, Meta(max_length=16)]], Meta(max_length=108)] | UnsetType = \
        msgspec.field(default=UNSET, name="as")
    meld: Annotated[int, Meta(ge=1, le=1_000)] | UnsetType = UNSET
    card: Annotated[str, Meta(max_length=16)] | UnsetType = UNSET
    to: Literal["low", "high"] | UnsetType = UNSET


class GameDealRequest(Struct, forbid_unknown_fields=True):
    """A new game (round 1), or with ``record`` (whose last round is over) the next round of that game.
    Without ``seed`` the server deals from a secret seed and seals the record; with ``seed`` the record is
    open (anyone can deal it again)."""

    ruleset: RulesetRef = DEFAULT_RULESET
    players: Annotated[list[Name], Meta(min_length=2, max_length=12)] | None = None
    dealer: Name | None = None
    seed: Annotated[int, Meta(ge=0, le=2**63 - 1)] | None = None
    record: Record | None = None


class GameMoveRequest(Struct, forbid_unknown_fields=True):
    """A record and a move.  ``ruleset`` carries the house ruleset a record names (shipped names need
    nothing); ``ply``: the ply the move was chosen at (409 when the record is elsewhere)."""

    record: Record
    move: MoveIn
    ply: Annotated[int, Meta(ge=0, le=100_000)] | None = None
    ruleset: RulesetRef | None = None


class GameLegalRequest(Struct, forbid_unknown_fields=True):
    """A record: which moves may the player to move make?  At most ``limit`` are listed."""

    record: Record
    limit: Annotated[int, Meta(ge=1, le=MAX_LEGAL)] = 200
    ruleset: RulesetRef | None = None


class GameReplayRequest(Struct, forbid_unknown_fields=True):
    """An open record to check move by move, as ``loba replay`` does (a sealed record is not replayed: its
    hidden cards stay hidden).  ``ruleset`` carries the house ruleset the record names."""

    record: Record
    ruleset: RulesetRef | None = None


class ReplayOut(Struct):
    """The object ``loba replay --json`` prints: valid, or the first illegal move (``error``), each round's
    scores, the totals, the match so far and what a hand-dealt record left unchecked."""

    valid: bool
    error: dict[str, Any] | None
    rounds: list[dict[str, Any]]
    totals: dict[str, int]
    in_progress: bool
    match: dict[str, Any] | None
    unchecked: list[Any]
    unscored: Any | UnsetType = UNSET


class ReasonOut(Struct):
    rule: str
    message: str
    where: str


class EventOut(Struct):
    kind: str
    player: str | None
    cards: list[str]
    meld: int | None


class GameState(Struct):
    """Where the game is: the record to keep (sealed or open), the view of the player to move."""

    record: dict[str, Any]
    view: dict[str, Any] | None
    to_move: str | None
    phase: str
    ply: int
    round: int
    outcome: dict[str, Any] | None
    events: list[EventOut] = []


class CheckOut(Struct):
    """A dry run: legal, or every reason (rule key, words, ruleset file:line).  Nothing changes."""

    ok: bool
    reasons: list[ReasonOut]
    to_move: str | None
    ply: int


class LegalOut(Struct):
    to_move: str | None
    phase: str
    ply: int
    moves: list[dict[str, Any]]
    truncated: bool


TYPES: list[Any] = [Record, MoveIn, GameDealRequest, GameMoveRequest, GameLegalRequest, GameState, CheckOut,
                    LegalOut, GameReplayRequest, ReplayOut]


# ---------------------------------------------------------------- records and tables


class Games:
    """What the game endpoints keep: the sealer, and the tables they answered last (by record digest), so a
    call on a record they have seen resumes its table instead of replaying it."""

    def __init__(self, sealer: Sealer, key: bytes = b"", cache_size: int = 256) -> None:
        from loba_dsl import TableCache

        self.sealer = sealer
        self.key = key
        """The sealing key (sent with a house ruleset's game work to the solver processes)."""
        self.cache = TableCache(cache_size)

    def ruleset_key(self, rs: Ruleset, ref: RulesetRef | None) -> str:
        """What a seal binds the ruleset by: the shipped name, or the house ruleset's content."""
        spec = spec_of(ref) if ref is not None else ("shipped", rs.name, "")
        return hashlib.sha256("\0".join(spec).encode("utf-8", "surrogatepass")).hexdigest()

    def full(self, rec: Record, rs: Ruleset, ref: RulesetRef | None) -> dict[str, Any]:
        """The whole record: opened from its seal, or as given (an open record must show every card)."""
        if rec.seal is UNSET:  # every card it knows is written in it ("??": a hand-dealt game's unknown card)
            return dict(msgspec.to_builtins(rec))
        opened = self.sealer.open(rec.seal)
        if not isinstance(opened, dict) or not isinstance(opened.get("record"), dict):
            raise ServiceError(422, "bad-seal", "The record's seal is not valid",
                               "the seal does not open with this service's key (altered, or from another server)",
                               [ErrorItem(code="bad-seal", message="the seal is not one of this service's seals",
                                          path="$.record.seal")])
        if opened.get("ruleset_key") != self.ruleset_key(rs, ref):
            raise _bad_record("the record was sealed under another ruleset")
        full: dict[str, Any] = opened["record"]
        return full

    def table(self, full: dict[str, Any], rs: Ruleset) -> Any:
        """The table that has played ``full``: resumed from the last answer on that record when there is one,
        else replayed.  The dealer's reshuffles come from a secure random source, never from anything a
        client knows."""
        return self.cache.resume(full, rs, rng=random.SystemRandom())

    def keep(self, table: Any) -> None:
        """Keep ``table`` for the next call on its record (the client's next move starts from it)."""
        self.cache.put(table)

    def client_record(self, table: Any, rs: Ruleset, ref: RulesetRef | None, sealed: bool) -> dict[str, Any]:
        full: dict[str, Any] = table.record()
        if not sealed:
            return full
        out = public(full)
        out["seal"] = self.sealer.seal({"record": full, "ruleset_key": self.ruleset_key(rs, ref)})
        return out


_PROCESS_GAMES: dict[bytes, Games] = {}


def process_games(key: bytes) -> Games:
    """The :class:`Games` of a solver process, for the server's key (a house ruleset's game work runs there)."""
    g = _PROCESS_GAMES.get(key)
    if g is None:
        _PROCESS_GAMES.clear()
        g = _PROCESS_GAMES[key] = Games(Sealer(key), key)
    return g


def public(full: dict[str, Any]) -> dict[str, Any]:
    """The record with every hidden card as ``??``: other hands, the stock, reshuffled stocks, the seed (the
    library's one hiding rule, :func:`loba_dsl.game.record.view_of`, for someone at no seat)."""
    from loba_dsl import record_view

    return record_view(full, None)


def _bad_record(message: str) -> ServiceError:
    return ServiceError(422, "bad-record", "The record cannot be used", message,
                        [ErrorItem(code="bad-record", message=message, path="$.record")])


def _location(where: str) -> ErrorLocation:
    file, _, line = where.rpartition(":")
    if file and line.isdigit():
        return ErrorLocation(file, int(line), 1, 1)
    return ErrorLocation(where or None)


def reason_items(reasons: Any) -> list[ErrorItem]:
    return [ErrorItem(code="illegal-move", message=r.text(), rule=r.rule, location=_location(r.where))
            for r in reasons]


def _event(e: Any, rs: Ruleset, viewer: str | None) -> dict[str, Any]:
    cards = rs.deck.names_of(e.cards)
    if e.kind == "drew" and e.player != viewer:
        cards = [HIDDEN] * len(cards)
    return {"kind": e.kind, "player": e.player, "cards": cards, "meld": e.meld}


def _state(table: Any, record: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    outcome = table.outcome()
    to_move = table.to_move
    return {"record": record, "view": table.view(to_move).to_dict() if to_move is not None else None,
            "to_move": to_move,
            "phase": table.phase, "ply": table.ply, "round": table.round_number,
            "outcome": outcome.to_dict() if outcome is not None else None, "events": events}


def _move(rs: Ruleset, table: Any, m: MoveIn) -> Any:
    from loba_dsl import move_from_dict

    d = {k: v for k, v in msgspec.to_builtins(m).items()}
    return move_from_dict(rs, d, table.players, "move")


def _stale(table: Any, ply: int | None) -> None:
    if ply is not None and ply != table.ply:
        message = f"the move was chosen at ply {ply}, but the record is at ply {table.ply}"
        raise ServiceError(409, "stale", "The record has moved on", message,
                           [ErrorItem(code="stale", message=message, rule="turn.order", path="$.ply")])


# ---------------------------------------------------------------- endpoints


def routes() -> list[tuple[str, Callable[..., Any], str]]:
    return [("/v1/games/deal", deal, "POST"), ("/v1/games/legal", legal, "POST"),
            ("/v1/games/check", check, "POST"), ("/v1/games/play", play, "POST"),
            ("/v1/games/replay", replay, "POST")]


def _games(svc: Any) -> Games:
    g = getattr(svc, "games", None)
    if g is None:
        key = service_key()
        g = svc.games = Games(Sealer(key), key)
    assert isinstance(g, Games)
    return g


def _json(obj: Any) -> Response:
    return Response(msgspec.json.encode(obj), media_type="application/json")


async def _run(svc: Any, request: Request, name: str, ref: RulesetRef, req: Any, *,
               process: bool = False) -> Response:
    """Run ``WORK[name]``: under a house ruleset (or ``process``) in a solver process, else in a worker thread."""
    if process or isinstance(ref, HouseRuleset):
        g = _games(svc)
        return _json(await svc.in_process(request, "game", (name, spec_of(ref), g.key, req)))
    rs: Ruleset = await svc.ruleset(ref)
    g = _games(svc)

    def work(deadline: Any) -> dict[str, Any]:
        return WORK[name](g, rs, req)

    return _json(await svc.in_thread(request, work))


def deal_sync(g: Games, rs: Ruleset, req: GameDealRequest) -> dict[str, Any]:
    """The work of ``/v1/games/deal``: a new game, or the next round of a finished record."""
    from loba_dsl import Table

    sealed = req.seed is None
    seed = req.seed if req.seed is not None else secrets.randbits(63)
    if req.record is not None:
        if req.players is not None or req.dealer is not None:
            raise _bad_record("give either a record (for its next round) or players and a dealer")
        full = g.full(req.record, rs, req.ruleset)
        table = g.table(full, rs)
        if table.outcome() is None:
            raise _bad_record(f"round {table.round_number} of the record has not ended")
        table.deal_next(seed)
        keep_sealed = req.record.seal is not UNSET or sealed
    else:
        if req.players is None:
            raise _bad_record("give the players (in seating order) or a record")
        if not rs.players.allows(len(req.players)):
            raise _bad_record(f"{rs.name} is played by {rs.players.min} to {rs.players.max} players, "
                              f"not {len(req.players)}")
        dealer = req.dealer if req.dealer is not None else req.players[-1]
        table = Table.deal(rs, req.players, dealer, seed)
        keep_sealed = sealed
    out = _state(table, g.client_record(table, rs, req.ruleset, keep_sealed), [])
    g.keep(table)
    return out


async def deal(svc: Any, request: Request) -> Response:
    """A new game, or the next round of a finished one."""
    req = svc.decode(GameDealRequest, await svc.body(request))
    return await _run(svc, request, "deal", req.ruleset, req)


def legal_sync(g: Games, rs: Ruleset, req: GameLegalRequest) -> dict[str, Any]:
    """The work of ``/v1/games/legal``: the moves of the player to move, at most ``limit``."""
    table = g.table(g.full(req.record, rs, req.ruleset), rs)
    moves: list[dict[str, Any]] = []
    truncated = False
    for m in table.legal():  # with the table's generator, a stock draw that needs a reshuffle is listed
        if len(moves) >= req.limit:
            truncated = True
            break
        moves.append(m.to_dict(rs))
    return {"to_move": table.to_move, "phase": table.phase, "ply": table.ply, "moves": moves,
            "truncated": truncated}


async def legal(svc: Any, request: Request) -> Response:
    """The legal moves of the player to move (at most ``limit``): listing them may take long (a large hand), so
    it runs in a solver process, under its budget."""
    req = svc.decode(GameLegalRequest, await svc.body(request))
    return await _run(svc, request, "legal", _ref(req.record, req.ruleset), req, process=True)


def check_sync(g: Games, rs: Ruleset, req: GameMoveRequest) -> dict[str, Any]:
    """The work of ``/v1/games/check``: a dry run of a move."""
    table = g.table(g.full(req.record, rs, req.ruleset), rs)
    _stale(table, req.ply)
    move = _move(rs, table, req.move)
    verdict = table.check(move)
    return {"ok": verdict.ok, "reasons": [r.to_dict() for r in verdict.reasons], "to_move": table.to_move,
            "ply": table.ply}


async def check(svc: Any, request: Request) -> Response:
    """A dry run of a move: legal, or why not; nothing changes."""
    req = svc.decode(GameMoveRequest, await svc.body(request))
    return await _run(svc, request, "check", _ref(req.record, req.ruleset), req)


def play_sync(g: Games, rs: Ruleset, req: GameMoveRequest) -> dict[str, Any]:
    """The work of ``/v1/games/play`` (off the event loop): resume (or replay), validate, apply, seal again."""
    from loba_dsl import IllegalMove

    full = g.full(req.record, rs, req.ruleset)
    table = g.table(full, rs)
    _stale(table, req.ply)
    move = _move(rs, table, req.move)
    events: list[Any] = []
    try:
        events += table.play(move)  # reshuffles first where the stock is empty (the table's generator)
    except IllegalMove as e:
        raise ServiceError(422, "illegal-move", "The move is illegal", e.message, reason_items(e.reasons)) from None
    record = g.client_record(table, rs, req.ruleset, req.record.seal is not UNSET)
    out = _state(table, record, [_event(e, rs, req.move.player) for e in events])
    g.keep(table)
    return out


async def play(svc: Any, request: Request) -> Response:
    """Play a move: the events, the new record, the view of the player to move."""
    req = svc.decode(GameMoveRequest, await svc.body(request))
    return await _run(svc, request, "play", _ref(req.record, req.ruleset), req)


def _ref(rec: Record, ref: RulesetRef | None) -> RulesetRef:
    return ref if ref is not None else rec.ruleset


def replay_sync(g: Games, rs: Ruleset, req: GameReplayRequest) -> dict[str, Any]:
    """The work of ``/v1/games/replay``: ``loba replay --json`` of an open record."""
    from loba_dsl import record_from_dict, replay

    if req.record.seal is not UNSET:
        raise _bad_record("a sealed record is not replayed (its hidden cards stay hidden): replay an open record")
    rec = record_from_dict(msgspec.to_builtins(req.record), ruleset=rs)
    out: dict[str, Any] = replay(rec).to_dict()
    return out


async def replay(svc: Any, request: Request) -> Response:
    """Check a whole record move by move: the same object as ``loba replay --json``."""
    req = svc.decode(GameReplayRequest, await svc.body(request))
    return await _run(svc, request, "replay", _ref(req.record, req.ruleset), req)


WORK: dict[str, Callable[..., dict[str, Any]]] = {"deal": deal_sync, "legal": legal_sync, "check": check_sync,
                                                   "play": play_sync, "replay": replay_sync}
"""Each endpoint's work, ``(games, ruleset, request) -> answer``: in a worker thread, or a solver process."""


# ---------------------------------------------------------------- OpenAPI


def paths(op: Callable[..., Any], ref: Callable[[Any], Any], post: tuple[int, ...]) -> dict[str, Any]:
    moves = (413, 409, 422)
    return {
        "/v1/games/deal": {"post": op(
            "Deal a game", "A new game (round 1) from `players` (seating order) and `dealer` (default: the last "
            "player), or the next round of a finished `record`.  Without `seed` the record is sealed: hidden "
            "cards are `??` and `seal` carries them encrypted.", GameState, request=GameDealRequest,
            errors=post, tag="games", op_id="gamesDeal")},
        "/v1/games/legal": {"post": op(
            "List legal moves", "The legal moves of the player to move, at most `limit`.", LegalOut,
            request=GameLegalRequest, errors=post, tag="games", op_id="gamesLegal")},
        "/v1/games/check": {"post": op(
            "Check a move (dry run)", "Legal, or every reason with its rule and ruleset file:line; the record "
            "does not change.", CheckOut, request=GameMoveRequest, errors=moves, tag="games", op_id="gamesCheck")},
        "/v1/games/play": {"post": op(
            "Play a move", "The events the move caused, the new record (sealed again if it was), and the view of "
            "the player to move.  An illegal move is a 422 naming the rule; a move chosen at another `ply` "
            "than the record's is a 409.", GameState, request=GameMoveRequest, errors=moves, tag="games",
            op_id="gamesPlay")},
        "/v1/games/replay": {"post": op(
            "Replay a record", "Check an open record move by move: the same object as `loba replay --json` (valid, "
            "or the first illegal move; each round's scores, the totals, the match).  A sealed record is refused.",
            ReplayOut, request=GameReplayRequest, errors=post, tag="games", op_id="gamesReplay")},
    }
