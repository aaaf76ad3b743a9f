"""The bodies of the game endpoints (``/v1/games/*``): requests, answers, and the record as a client holds it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from loba_dsl import DEFAULT_RULESET
from loba_service.bodies import Messages, Name, RulesetRef

__all__ = ["MAX_LEGAL", "TYPES", "CheckOut", "EventOut", "GameDealRequest", "GameLegalRequest", "GameMoveRequest",
           "GameReplayRequest", "GameState", "GameStateRequest", "LegalOut", "MoveIn", "ReasonOut", "Record",
           "ReplayOut"]

MAX_LEGAL = 1_000
Token = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.=-]+$",
                            description="A state token from an earlier answer (`state`).")]
IncludeRecord = Annotated[bool, Meta(description="false: the answer carries no `record` (the events, the view, "
                                                 "`ply` and the new `state` token only).")]


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
    """A new game (round 1), or with ``record`` or ``state`` (whose last round is over) the next round of that
    game.  Without ``seed`` the server deals from a secret seed and seals the record; with ``seed`` the record
    is open (anyone can deal it again)."""

    ruleset: Annotated[RulesetRef | None, Meta(description=f"The ruleset (left out: {DEFAULT_RULESET}, or the "
                                                            "state token's).")] = None
    players: Annotated[list[Name], Meta(min_length=2, max_length=12)] | None = None
    dealer: Name | None = None
    seed: Annotated[int, Meta(ge=0, le=2**63 - 1)] | None = None
    record: Record | None = None
    state: Token | None = None
    include_record: IncludeRecord = True


class GameMoveRequest(Struct, forbid_unknown_fields=True):
    """A record (or the ``state`` token of one) and a move.  ``ruleset`` carries the house ruleset a record
    names (shipped names need nothing); ``ply``: the ply the move was chosen at (409 when the record is
    elsewhere); ``messages``: the language of the referee's reasons (``check``'s, an illegal move's)."""

    move: MoveIn
    record: Record | None = None
    state: Token | None = None
    ply: Annotated[int, Meta(ge=0, le=100_000)] | None = None
    ruleset: RulesetRef | None = None
    include_record: IncludeRecord = True
    messages: Messages = "en"


class GameLegalRequest(Struct, forbid_unknown_fields=True):
    """A record (or the ``state`` token of one): which moves may the player to move make?  At most ``limit``
    are listed."""

    record: Record | None = None
    state: Token | None = None
    limit: Annotated[int, Meta(ge=1, le=MAX_LEGAL)] = 200
    ruleset: RulesetRef | None = None


class GameStateRequest(Struct, forbid_unknown_fields=True):
    """A state token (or a record): the game it stands for, its record included."""

    record: Record | None = None
    state: Token | None = None
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
    """Where the game is: the view of the player to move, the state token to send next, the record to keep
    (sealed or open; left out when the request said ``"include_record": false``)."""

    view: dict[str, Any] | None
    to_move: str | None
    phase: str
    ply: int
    round: int
    outcome: dict[str, Any] | None
    state: Annotated[str, Meta(description="A token for this state, kept by this server process: send it "
                                           "instead of the record.")]
    events: list[EventOut] = []
    record: dict[str, Any] | UnsetType = UNSET


class CheckOut(Struct):
    """A dry run: legal, or every reason (rule key, words, ruleset file:line).  Nothing changes."""

    ok: bool
    reasons: list[ReasonOut]
    to_move: str | None
    ply: int
    state: str


class LegalOut(Struct):
    to_move: str | None
    phase: str
    ply: int
    moves: list[dict[str, Any]]
    truncated: bool


TYPES: list[Any] = [Record, MoveIn, GameDealRequest, GameMoveRequest, GameLegalRequest, GameStateRequest,
                    GameState, CheckOut, LegalOut, GameReplayRequest, ReplayOut]
