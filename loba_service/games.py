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

**State tokens** (:mod:`loba_service.game_states`): every answer of ``deal``, ``play``, ``check`` and ``state``
carries ``"state"``, a token for the record it describes that this server process keeps (a bounded store).  A
request may send ``"state"`` instead of ``"record"`` (exactly one of them), and ``"include_record": false`` to
get no record back: then nothing in the call grows with the ply.  A token that is gone (dropped from the
store, a restart, another worker process) is a 410 ``state-gone``: send the record instead.

A move is stale (409) when the request's ``ply`` is not the ply the record (or state) has reached: it was
chosen on a state that has moved on.  When the stock is empty and the ruleset reshuffles, the table reshuffles the
discard pile itself before the draw, from a secure random source the server gives it (``Table.rng``).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import UNSET
from starlette.requests import Request
from starlette.responses import Response

from loba_dsl import DEFAULT_RULESET, IllegalMove, Ruleset, move_from_dict
from loba_service.bodies import HouseRuleset, RulesetRef
from loba_service.game_bodies import (
    TYPES,
    CheckOut,
    GameDealRequest,
    GameLegalRequest,
    GameMoveRequest,
    GameReplayRequest,
    GameState,
    GameStateRequest,
    LegalOut,
    MoveIn,
    Record,
    ReplayOut,
)
from loba_service.game_states import GameStates, Held
from loba_service.problems import LANGUAGES, ErrorItem, ErrorLocation, ServiceError, speaks
from loba_service.rulesets import spec_of
from loba_service.seal import Sealer, service_key

__all__ = ["TYPES", "WORK", "Games", "paths", "play_sync", "process_games", "public", "routes", "state_sync"]

HIDDEN = "??"
INLINE_CARDS = 24
"""A move by state token under a shipped ruleset naming at most this many cards, answered without the record,
is worked out on the event loop (one judgement and one view: bounded, about 0.1 ms, like a short meld check);
everything else in a worker thread."""


# ---------------------------------------------------------------- records and tables


class Games:
    """What the game endpoints keep: the sealer, and the states they answered (:class:`GameStates`, by token),
    so a call on a record or a token they have seen resumes its table instead of replaying it."""

    def __init__(self, sealer: Sealer, key: bytes = b"", count: int = 4_096, max_bytes: int = 256 * 1_048_576, *,
                 remote: bool = False) -> None:
        self.sealer = sealer
        self.key = key
        """The sealing key (sent with a house ruleset's game work to the solver processes)."""
        self.states = GameStates(key, count, max_bytes)
        self.remote = remote
        """True in a solver process: an answer hands the state to keep to the server process (``_keep``), which
        gives its token; the process's own store only saves replays."""

    @staticmethod
    def ruleset_key(rs: Ruleset | None, ref: RulesetRef | None) -> str:
        """What a seal (and a state token) binds the ruleset by: the shipped name, or the house ruleset's content."""
        if ref is None:
            assert rs is not None
            spec: tuple[str, str, str] = ("shipped", rs.name, "")
        else:
            spec = spec_of(ref)
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

    def table(self, full: dict[str, Any], rs: Ruleset, sealed: bool, rkey: str, ref: RulesetRef) -> Any:
        """The table that has played ``full``: resumed from the state kept for it when there is one, else
        replayed (and kept).  The dealer's reshuffles come from a secure random source, never from anything a
        client knows."""
        from loba_dsl import record_digest, record_from_dict
        from loba_dsl import table_from_record as from_record

        held = self.states.get(self.states.token(rkey, sealed, record_digest(full)))
        if held is not None and held.table is not None:
            return self.resume(held, rs)
        table = from_record(record_from_dict(dict(full), ruleset=rs), rng=random.SystemRandom())
        self.states.put(Held(table.copy(), None, sealed, rkey, ref, table.ply), table.digest)
        return table

    def resume(self, held: Held, rs: Ruleset) -> Any:
        """A table to play on, in the state ``held`` keeps (which stays as it is)."""
        if held.table is None:
            assert held.full is not None
            return self.table(held.full, rs, held.sealed, held.ruleset_key, held.ref)
        table = held.table.copy()
        table.rng = random.SystemRandom()
        return table

    def keep(self, out: dict[str, Any], table: Any, sealed: bool, rkey: str, ref: RulesetRef) -> None:
        """Keep ``table`` (never played on again) for the next call, its token in ``out["state"]`` (in a solver
        process: the state to keep in ``out["_keep"]``, for the server process to keep and name)."""
        if self.remote:
            out["_keep"] = {"full": table.record(), "digest": table.digest, "sealed": sealed, "ruleset_key": rkey}
            self.states.put(Held(table, None, sealed, rkey, ref, table.ply), table.digest)
            return
        out["state"] = self.states.put(Held(table, None, sealed, rkey, ref, table.ply), table.digest)

    def client_record(self, table: Any, rs: Ruleset, ref: RulesetRef | None, sealed: bool,
                      rkey: str | None = None) -> dict[str, Any]:
        """The record a client keeps: open, or public and sealed (under ``rkey``, else the key of ``ref``)."""
        full: dict[str, Any] = table.record()
        if not sealed:
            return full
        out = public(full)
        out["seal"] = self.sealer.seal({"record": full, "ruleset_key": rkey or self.ruleset_key(rs, ref)})
        return out


_PROCESS_GAMES: dict[bytes, Games] = {}


def process_games(key: bytes) -> Games:
    """The :class:`Games` of a solver process, for the server's key (a house ruleset's game work runs there)."""
    g = _PROCESS_GAMES.get(key)
    if g is None:
        _PROCESS_GAMES.clear()
        g = _PROCESS_GAMES[key] = Games(Sealer(key), key, count=256, max_bytes=64 * 1_048_576, remote=True)
    return g


def public(full: dict[str, Any]) -> dict[str, Any]:
    """The record with every hidden card as ``??``: other hands, the stock, reshuffled stocks, the seed (the
    library's one hiding rule, :func:`loba_dsl.game.record.view_of`, for someone at no seat)."""
    from loba_dsl import record_view

    return record_view(full, None)


def _bad_record(message: str) -> ServiceError:
    return ServiceError(422, "bad-record", "The record cannot be used", message,
                        [ErrorItem(code="bad-record", message=message, path="$.record")])


def _bad_state(message: str) -> ServiceError:
    return ServiceError(422, "bad-state", "The state token cannot be used", message,
                        [ErrorItem(code="bad-state", message=message, path="$.state")])


def _gone() -> ServiceError:
    message = ("this server process does not hold that state (never made here, dropped from its bounded store, "
               "lost in a restart, or kept by another worker process)")
    return ServiceError(410, "state-gone", "The game state is gone", message,
                        [ErrorItem(code="state-gone", message=message, path="$.state",
                                   hint="send the record instead of the state token")])


def _location(where: str) -> ErrorLocation:
    file, _, line = where.rpartition(":")
    if file and line.isdigit():
        return ErrorLocation(file, int(line), 1, 1)
    return ErrorLocation(where or None)


def reason_items(reasons: Any, lang: str = "en") -> list[ErrorItem]:
    return [ErrorItem(code="illegal-move", message=r.text(lang), rule=r.rule, location=_location(r.where))
            for r in reasons]


def illegal(e: Any) -> ServiceError:
    """A 422 for the referee's refusal ``e`` (an ``IllegalMove``), its reasons in every language they are said in
    (``spoken``: the request's ``"messages"`` picks one)."""
    spoken = {lang: (e.message_in(lang), reason_items(e.reasons, lang)) for lang in LANGUAGES if lang != "en"}
    return ServiceError(422, "illegal-move", "The move is illegal", e.message, reason_items(e.reasons), spoken=spoken)


def _event(e: Any, rs: Ruleset, viewer: str | None) -> dict[str, Any]:
    cards = rs.deck.names_of(e.cards)
    if e.kind == "drew" and e.player != viewer:
        cards = [HIDDEN] * len(cards)
    return {"kind": e.kind, "player": e.player, "cards": cards, "meld": e.meld}


def _state(table: Any, record: dict[str, Any] | None, events: list[dict[str, Any]]) -> dict[str, Any]:
    outcome = table.outcome()
    to_move = table.to_move
    out: dict[str, Any] = {"view": table.view(to_move).to_dict() if to_move is not None else None,
                           "to_move": to_move, "phase": table.phase, "ply": table.ply, "round": table.round_number,
                           "outcome": outcome.to_dict() if outcome is not None else None, "events": events}
    if record is not None:
        out = {"record": record, **out}
    return out


def _move(rs: Ruleset, table: Any, m: MoveIn) -> Any:
    return move_from_dict(rs, msgspec.to_builtins(m), table.players, "move")  # a new dict, the library's to read


def _stale(table: Any, ply: int | None, by_state: bool = False) -> None:
    if ply is not None and ply != table.ply:
        message = f"the move was chosen at ply {ply}, but the {'state' if by_state else 'record'} is at ply {table.ply}"
        raise ServiceError(409, "stale", "The record has moved on", message,
                           [ErrorItem(code="stale", message=message, rule="turn.order", path="$.ply")])


Request_ = GameDealRequest | GameMoveRequest | GameLegalRequest | GameStateRequest


def _open(g: Games, rs: Ruleset, req: Request_, held: Held | None) -> tuple[Any, bool, str, RulesetRef]:
    """The table a request names (its ``record``, or its ``state``: then ``held``), whether its game is sealed,
    the key its ruleset is bound by, and the ruleset as named."""
    if held is not None:
        return g.resume(held, rs), held.sealed, held.ruleset_key, held.ref
    assert req.record is not None
    ref = _ref(req.record, req.ruleset)
    rkey = g.ruleset_key(rs, req.ruleset)
    sealed = req.record.seal is not UNSET
    return g.table(g.full(req.record, rs, req.ruleset), rs, sealed, rkey, ref), sealed, rkey, ref


def _named(g: Games, req: Request_) -> Held | None:
    """The kept state a request names by its ``state`` token (``None``: it sends a record): 410 when it is gone,
    422 when the request also sends a record or names another ruleset."""
    if req.state is None:
        return None
    if req.record is not None:
        raise _bad_state("give either the record or a state token, not both")
    held = g.states.get(req.state)
    if held is None:
        raise _gone()
    if req.ruleset is not None and g.ruleset_key(None, req.ruleset) != held.ruleset_key:
        raise _bad_state("the state token was made under another ruleset")
    return held


# ---------------------------------------------------------------- endpoints


def routes() -> list[tuple[str, Callable[..., Any], str]]:
    return [("/v1/games/deal", deal, "POST"), ("/v1/games/legal", legal, "POST"),
            ("/v1/games/check", check, "POST"), ("/v1/games/play", play, "POST"),
            ("/v1/games/state", state, "POST"), ("/v1/games/replay", replay, "POST")]


def _games(svc: Any) -> Games:
    g = getattr(svc, "games", None)
    if g is None:
        key = service_key()
        limits = getattr(svc, "limits", None)
        count = getattr(limits, "game_states", 4_096)
        mb = getattr(limits, "game_states_mb", 256)
        g = svc.games = Games(Sealer(key), key, count, mb * 1_048_576)
    assert isinstance(g, Games)
    return g


def _json(obj: Any) -> Response:
    return Response(msgspec.json.encode(obj), media_type="application/json")


async def _run(svc: Any, request: Request, name: str, ref: RulesetRef, req: Any, held: Held | None = None, *,
               process: bool = False, inline: bool = False) -> Response:
    """Run ``WORK[name]``: under a house ruleset (or ``process``) in a solver process, else in a worker thread
    (or, ``inline``, small bounded work, on the event loop)."""
    g = _games(svc)
    if process or isinstance(ref, HouseRuleset):
        sent = None
        if held is not None:  # the whole record of the kept state (written off the event loop: it grows with the ply)
            full = held.full if held.full is not None else await svc.in_thread(request, lambda _: held.record())
            sent = Held(None, full, held.sealed, held.ruleset_key, held.ref, held.ply)
        out = await svc.in_process(request, "game", (name, spec_of(ref), g.key, req, sent))
        keep = out.pop("_keep", None)
        if keep is not None:
            out["state"] = g.states.put(Held(None, keep["full"], keep["sealed"], keep["ruleset_key"], ref),
                                        keep["digest"])
        return _json(out)
    rs: Ruleset = await svc.ruleset(ref)
    if inline:
        return _json(WORK[name](g, rs, req, held))

    def work(deadline: Any) -> dict[str, Any]:
        return WORK[name](g, rs, req, held)

    return _json(await svc.in_thread(request, work))


def _source(svc: Any, req: Request_) -> tuple[Held | None, RulesetRef]:
    """The kept state a request names (or ``None``: it sends a record) and the ruleset to play it under."""
    if req.state is None and req.record is None:
        raise _bad_record("give the record, or the state token of an earlier answer")
    held = _named(_games(svc), req)
    if held is not None:
        return held, held.ref
    assert req.record is not None
    return None, _ref(req.record, req.ruleset)


def deal_sync(g: Games, rs: Ruleset, req: GameDealRequest, held: Held | None = None) -> dict[str, Any]:
    """The work of ``/v1/games/deal``: a new game, or the next round of a finished record."""
    from loba_dsl import Table

    sealed = req.seed is None
    seed = req.seed if req.seed is not None else secrets.randbits(63)
    ref: RulesetRef = req.ruleset if req.ruleset is not None else DEFAULT_RULESET
    if req.record is not None or held is not None:
        if req.players is not None or req.dealer is not None:
            raise _bad_record("give either a record (for its next round) or players and a dealer")
        if held is not None:
            table, was_sealed, rkey, ref = _open(g, rs, req, held)
        else:
            assert req.record is not None
            rkey = g.ruleset_key(rs, ref)
            was_sealed = req.record.seal is not UNSET
            table = g.table(g.full(req.record, rs, ref), rs, was_sealed, rkey, ref)
        if table.outcome() is None:
            raise _bad_record(f"round {table.round_number} of the record has not ended")
        table.deal_next(seed)
        keep_sealed = was_sealed or sealed
    else:
        if req.players is None:
            raise _bad_record("give the players (in seating order) or a record")
        if not rs.players.allows(len(req.players)):
            raise _bad_record(f"{rs.name} is played by {rs.players.min} to {rs.players.max} players, "
                              f"not {len(req.players)}")
        dealer = req.dealer if req.dealer is not None else req.players[-1]
        table = Table.deal(rs, req.players, dealer, seed)
        rkey = g.ruleset_key(rs, ref)
        keep_sealed = sealed
    record = g.client_record(table, rs, ref, keep_sealed, rkey) if req.include_record else None
    out = _state(table, record, [])
    g.keep(out, table, keep_sealed, rkey, ref)
    return out


async def deal(svc: Any, request: Request) -> Response:
    """A new game, or the next round of a finished one."""
    req = svc.decode(GameDealRequest, await svc.body(request))
    held = _named(_games(svc), req)
    ref = held.ref if held is not None else (req.ruleset if req.ruleset is not None else DEFAULT_RULESET)
    return await _run(svc, request, "deal", ref, req, held)


def legal_sync(g: Games, rs: Ruleset, req: GameLegalRequest, held: Held | None = None) -> dict[str, Any]:
    """The work of ``/v1/games/legal``: the moves of the player to move, at most ``limit``."""
    table = _open(g, rs, req, held)[0]
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
    held, ref = _source(svc, req)
    return await _run(svc, request, "legal", ref, req, held, process=True)


def check_sync(g: Games, rs: Ruleset, req: GameMoveRequest, held: Held | None = None) -> dict[str, Any]:
    """The work of ``/v1/games/check``: a dry run of a move."""
    table, sealed, rkey, ref = _open(g, rs, req, held)
    _stale(table, req.ply, held is not None)
    move = _move(rs, table, req.move)
    verdict = table.check(move)
    out = {"ok": verdict.ok, "reasons": [r.to_dict(req.messages) for r in verdict.reasons], "to_move": table.to_move,
           "ply": table.ply}
    g.keep(out, table, sealed, rkey, ref)
    return out


async def check(svc: Any, request: Request) -> Response:
    """A dry run of a move: legal, or why not; nothing changes."""
    req = svc.decode(GameMoveRequest, await svc.body(request))
    speaks(request, req)
    held, ref = _source(svc, req)
    return await _run(svc, request, "check", ref, req, held, inline=_small(req, held))


def play_sync(g: Games, rs: Ruleset, req: GameMoveRequest, held: Held | None = None) -> dict[str, Any]:
    """The work of ``/v1/games/play`` (off the event loop): resume (or replay), validate, apply, seal again."""
    table, sealed, rkey, ref = _open(g, rs, req, held)
    _stale(table, req.ply, held is not None)
    move = _move(rs, table, req.move)
    events: list[Any] = []
    try:
        events += table.play(move)  # reshuffles first where the stock is empty (the table's generator)
    except IllegalMove as e:
        raise illegal(e) from None
    record = g.client_record(table, rs, ref, sealed, rkey) if req.include_record else None
    out = _state(table, record, [_event(e, rs, req.move.player) for e in events])
    g.keep(out, table, sealed, rkey, ref)
    return out


async def play(svc: Any, request: Request) -> Response:
    """Play a move: the events, the new record, the view of the player to move."""
    req = svc.decode(GameMoveRequest, await svc.body(request))
    speaks(request, req)  # an illegal move's reasons in the language the body asks for
    held, ref = _source(svc, req)
    return await _run(svc, request, "play", ref, req, held, inline=_small(req, held) and not req.include_record)


def _small(req: GameMoveRequest, held: Held | None) -> bool:
    """Whether a move is small enough for the event loop: sent by a state token kept here, few cards."""
    if held is None or held.table is None:
        return False
    m = req.move
    return len(m.cards or ()) + len(m.as_ or ()) <= INLINE_CARDS


def state_sync(g: Games, rs: Ruleset, req: GameStateRequest, held: Held | None = None) -> dict[str, Any]:
    """The work of ``/v1/games/state``: the game a token (or a record) stands for, its record included."""
    table, sealed, rkey, ref = _open(g, rs, req, held)
    out = _state(table, g.client_record(table, rs, ref, sealed, rkey), [])
    g.keep(out, table, sealed, rkey, ref)
    return out


async def state(svc: Any, request: Request) -> Response:
    """The game a state token stands for (its record, sealed again if it was), or a record's state token."""
    req = svc.decode(GameStateRequest, await svc.body(request))
    held, ref = _source(svc, req)
    return await _run(svc, request, "state", ref, req, held)


def _ref(rec: Record, ref: RulesetRef | None) -> RulesetRef:
    return ref if ref is not None else rec.ruleset


def replay_sync(g: Games, rs: Ruleset, req: GameReplayRequest, held: Held | None = None) -> dict[str, Any]:
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
                                                   "play": play_sync, "state": state_sync, "replay": replay_sync}
"""Each endpoint's work, ``(games, ruleset, request, held) -> answer``: in a worker thread, or a solver process
(``held``: the kept state the request names by its token, or ``None``)."""


# ---------------------------------------------------------------- OpenAPI


_STATE_WORDS = (
    "  Instead of `record`, a request may send `state`: the token an earlier answer gave (exactly one of the "
    "two; `ruleset` may then be left out).  The server keeps the states it answered in a bounded store, per "
    "process: a token it no longer holds (dropped, a restart, or, with `loba serve --workers N`, another worker "
    "process) is a 410 `state-gone`, and the client sends the record instead.  A token is an HMAC under the "
    "service key: it cannot be guessed, shows no card, and is refused under another ruleset (422 `bad-state`).")


def paths(op: Callable[..., Any], ref: Callable[[Any], Any], post: tuple[int, ...]) -> dict[str, Any]:
    moves = (413, 409, 410, 422)
    named = (*post, 410)
    return {
        "/v1/games/deal": {"post": op(
            "Deal a game", "A new game (round 1) from `players` (seating order) and `dealer` (default: the last "
            "player), or the next round of a finished `record` (or `state`).  Without `seed` the record is "
            "sealed: hidden cards are `??` and `seal` carries them encrypted.  The answer's `state` is a token "
            "for the new game; `\"include_record\": false` leaves the record out." + _STATE_WORDS, GameState,
            request=GameDealRequest, errors=named, tag="games", op_id="gamesDeal")},
        "/v1/games/legal": {"post": op(
            "List legal moves", "The legal moves of the player to move, at most `limit`." + _STATE_WORDS, LegalOut,
            request=GameLegalRequest, errors=named, tag="games", op_id="gamesLegal")},
        "/v1/games/check": {"post": op(
            "Check a move (dry run)", "Legal, or every reason with its rule and ruleset file:line; the record "
            "does not change (`state`: the token of the record checked)." + _STATE_WORDS, CheckOut,
            request=GameMoveRequest, errors=moves, tag="games", op_id="gamesCheck")},
        "/v1/games/play": {"post": op(
            "Play a move", "The events the move caused, the new record (sealed again if it was), the view of "
            "the player to move, and `state`, the token of the new record: send it with the next move instead "
            "of the record, with `\"include_record\": false` to get no record back (then nothing in the call "
            "grows with the game).  An illegal move is a 422 naming the rule; a move chosen at another `ply` "
            "than the record's (or the state's) is a 409.  A token still stands for its state after a move "
            "was played from it, as an earlier record does." + _STATE_WORDS, GameState, request=GameMoveRequest,
            errors=moves, tag="games", op_id="gamesPlay")},
        "/v1/games/state": {"post": op(
            "A game by its state token", "The game a `state` token stands for: its record (sealed again if it "
            "was: the client sees no more than the record it would hold), the view of the player to move, its "
            "ply.  Sent a `record`, the same answer with the record's `state` token." + _STATE_WORDS, GameState,
            request=GameStateRequest, errors=named, tag="games", op_id="gamesState")},
        "/v1/games/replay": {"post": op(
            "Replay a record", "Check an open record move by move: the same object as `loba replay --json` (valid, "
            "or the first illegal move; each round's scores, the totals, the match).  A sealed record is refused.",
            ReplayOut, request=GameReplayRequest, errors=post, tag="games", op_id="gamesReplay")},
    }
