"""The live tables' bodies and messages as msgspec ``Struct``s: they decode each request and WebSocket
message, and they are the schemas of the OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from loba_dsl import DEFAULT_RULESET
from loba_service.bodies import Messages, Name, RulesetRef

Token = Annotated[str, Meta(min_length=1, max_length=200)]
CardName = Annotated[str, Meta(max_length=16)]
CardList = Annotated[list[CardName], Meta(max_length=108)]
Ply = Annotated[int, Meta(ge=0, le=10_000_000)]


class CreateTable(Struct, forbid_unknown_fields=True):
    """A new table dealt by the server.  ``players`` in seating order; ``dealer`` (default the last player);
    ``seed``: deal what ``loba deal --seed`` deals (anyone who knows the seed knows every card; without it
    the server deals from a secret seed); ``match``: play round after round until the match ends; ``bots``:
    the seats the server's bots play."""

    players: Annotated[list[Name], Meta(min_length=2, max_length=12)]
    ruleset: RulesetRef = DEFAULT_RULESET
    dealer: Name | None = None
    seed: Annotated[int, Meta(ge=0, le=2**63 - 1)] | None = None
    match: bool = False
    bots: Annotated[dict[Name, Annotated[str, Meta(max_length=40)]], Meta(max_length=11)] = msgspec.field(
        default_factory=dict)
    """Seats the server plays (``{"Carla": "greedy"}``; the bots: ``random``, ``greedy``, ``search``): each
    bot sees only its seat's view and plays through the same path as a person (stored, sent to every
    connection).  A bot's seat gets no token."""


class TableMove(Struct, forbid_unknown_fields=True):
    """An action: a move as in ``loba-record/1`` (``draw`` with ``from``, ``meld`` with ``cards`` and ``as``,
    ``lay_off`` with ``meld``, ``cards`` and ``as``, ``replace_joker`` with ``meld`` and ``card``,
    ``move_wild`` with ``meld`` and ``to``, ``discard`` with ``card``), a re-entry decision (``reenter``
    with ``accepted``), or ``undo`` (offered in ``legal`` only to a player left with no legal move).
    ``player``, where given, must be the seat's own."""

    op: Literal["draw", "meld", "lay_off", "replace_joker", "move_wild", "discard", "reenter", "undo"]
    player: Name | UnsetType = UNSET
    from_: Literal["stock", "discard"] | UnsetType = msgspec.field(default=UNSET, name="from")
    cards: CardList | UnsetType = UNSET
    as_: CardList | UnsetType = msgspec.field(default=UNSET, name="as")
    meld: Annotated[int, Meta(ge=1, le=1_000)] | UnsetType = UNSET
    card: CardName | UnsetType = UNSET
    to: Literal["low", "high"] | UnsetType = UNSET
    accepted: bool | UnsetType = UNSET


class MoveRequest(Struct, forbid_unknown_fields=True):
    """A seat's action, chosen at ``ply`` (409 when the table has moved on since); ``messages``: the language
    of a refusal's reasons."""

    move: TableMove
    ply: Ply
    messages: Messages = "en"


class SeatOut(Struct):
    """A person's seat (a bot's seat is not listed)."""

    token: str
    """The seat's capability: whoever holds it plays this seat (send it as ``Authorization: Bearer``)."""
    url: str
    """The page's link for this seat (the token in the fragment, which browsers never send to a server)."""


class TableView(Struct):
    """What one seat (or a spectator, ``seat`` null) sees: the library's ``PlayerView`` as JSON (``hand``:
    the seat's own cards, ``hand_counts``, ``stock_count``, ``pile`` top first, ``melds``, ``standings``,
    ``to_move``...), the table's ``ply`` (every action since the deal, across rounds), and ``legal``: the
    seat's actions now (moves as in ``loba-record/1``; empty when it is not their turn)."""

    table: str
    seat: str | None
    ply: int
    round: int
    round_ply: int
    to_move: str | None
    phase: str
    hand: list[str]
    legal: list[dict[str, Any]]
    over: bool
    match: bool
    players: list[str]
    hand_counts: dict[str, int]
    stock_count: int
    pile: list[str]
    melds: list[dict[str, Any]]
    standings: list[dict[str, Any]]
    offers: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    previous: dict[str, Any] | None
    winners: list[str]


class TableCreated(Struct):
    table: str
    seats: dict[str, SeatOut]
    host_token: str
    """The host's capability: the whole record (``GET .../record``), and nothing to play with."""
    watch_url: str
    view: TableView


class TableEvent(Struct):
    kind: str
    player: str | None
    cards: list[str]
    meld: int | None


class MoveResult(Struct):
    events: list[TableEvent]
    view: TableView


class WsAuth(Struct, tag="auth", tag_field="type", forbid_unknown_fields=True):
    """First message only, where the URL gave no ``token``: sit at that seat."""

    token: Token


class WsMove(Struct, tag="move", tag_field="type", forbid_unknown_fields=True):
    """A seat's action, as ``POST .../moves`` takes it (``messages``: the language of an ``illegal`` answer's
    reasons)."""

    move: TableMove
    ply: Ply
    messages: Messages = "en"


class WsPing(Struct, tag="ping", tag_field="type", forbid_unknown_fields=True):
    """Keeps an otherwise quiet connection open (answered ``{"type": "pong"}``)."""


WsIn = WsAuth | WsMove | WsPing

TYPES: list[Any] = [CreateTable, TableMove, MoveRequest, SeatOut, TableView, TableCreated, TableEvent, MoveResult]
