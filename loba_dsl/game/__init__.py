"""The referee: whole rounds and matches as validated moves, players and their views, the move notation,
and the ``loba-record/1`` game record.

The names are imported on first use (PEP 562), as the ``loba_dsl`` facade's are: ``loba replay`` needs the
table, the referee and the record, not the players, the views or the snapshot cache (issue 22: start-up).
"""

from __future__ import annotations

import sys

_EXPORTS: dict[str, str] = {
    "Match": "loba_dsl.game.match",
    "RoundNeverEnds": "loba_dsl.game.stalemate",
    "Discard": "loba_dsl.game.moves",
    "Draw": "loba_dsl.game.moves",
    "InvalidMove": "loba_dsl.game.moves",
    "LayOff": "loba_dsl.game.moves",
    "Meld": "loba_dsl.game.moves",
    "Move": "loba_dsl.game.moves",
    "MoveWild": "loba_dsl.game.moves",
    "RecordError": "loba_dsl.game.moves",
    "ReplaceJoker": "loba_dsl.game.moves",
    "Reshuffle": "loba_dsl.game.moves",
    "UNKNOWN": "loba_dsl.game.moves",
    "format_event": "loba_dsl.game.notation",
    "format_move": "loba_dsl.game.notation",
    "parse_move": "loba_dsl.game.notation",
    "RoundResult": "loba_dsl.game.outcome",
    "Player": "loba_dsl.game.players",
    "RandomPlayer": "loba_dsl.game.players",
    "Scripted": "loba_dsl.game.players",
    "GameRecord": "loba_dsl.game.record",
    "dumps": "loba_dsl.game.record",
    "load": "loba_dsl.game.record",
    "loads": "loba_dsl.game.record",
    "record_digest": "loba_dsl.game.record",
    "Event": "loba_dsl.game.referee",
    "IllegalMove": "loba_dsl.game.referee",
    "Reason": "loba_dsl.game.referee",
    "TableCache": "loba_dsl.game.resume",
    "TableSnapshot": "loba_dsl.game.resume",
    "ReentryOffer": "loba_dsl.game.standings",
    "Standings": "loba_dsl.game.standings",
    "Phase": "loba_dsl.game.state",
    "RoundState": "loba_dsl.game.state",
    "TableMeld": "loba_dsl.game.state",
    "Check": "loba_dsl.game.table",
    "DealRejected": "loba_dsl.game.table",
    "MatchRefused": "loba_dsl.game.table",
    "Table": "loba_dsl.game.table",
    "UndoRefused": "loba_dsl.game.table",
    "MeldView": "loba_dsl.game.view",
    "PlayerView": "loba_dsl.game.view",
}


__all__ = [
           "UNKNOWN",
           "Check",
           "DealRejected",
           "Discard",
           "Draw",
           "Event",
           "GameRecord",
           "IllegalMove",
           "InvalidMove",
           "LayOff",
           "Match",
           "MatchRefused",
           "Meld",
           "MeldView",
           "Move",
           "MoveWild",
           "Phase",
           "Player",
           "PlayerView",
           "RandomPlayer",
           "Reason",
           "RecordError",
           "ReentryOffer",
           "ReplaceJoker",
           "Reshuffle",
           "RoundNeverEnds",
           "RoundResult",
           "RoundState",
           "Scripted",
           "Standings",
           "Table",
           "TableCache",
           "TableMeld",
           "TableSnapshot",
           "UndoRefused",
           "dumps",
           "format_event",
           "format_move",
           "load",
           "loads",
           "parse_move",
           "record_digest",
]


TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if not TYPE_CHECKING:  # type checkers see the imports below

    def __getattr__(name: str) -> Any:
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'loba_dsl.game' has no attribute {name!r}")
        __import__(module)  # importlib.import_module, without importing importlib (it brings warnings)
        value = getattr(sys.modules[module], name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})


if TYPE_CHECKING:
    from typing import Any

    from loba_dsl.game.match import Match as Match
    from loba_dsl.game.moves import UNKNOWN as UNKNOWN
    from loba_dsl.game.moves import Discard as Discard
    from loba_dsl.game.moves import Draw as Draw
    from loba_dsl.game.moves import InvalidMove as InvalidMove
    from loba_dsl.game.moves import LayOff as LayOff
    from loba_dsl.game.moves import Meld as Meld
    from loba_dsl.game.moves import Move as Move
    from loba_dsl.game.moves import MoveWild as MoveWild
    from loba_dsl.game.moves import RecordError as RecordError
    from loba_dsl.game.moves import ReplaceJoker as ReplaceJoker
    from loba_dsl.game.moves import Reshuffle as Reshuffle
    from loba_dsl.game.notation import format_event as format_event
    from loba_dsl.game.notation import format_move as format_move
    from loba_dsl.game.notation import parse_move as parse_move
    from loba_dsl.game.outcome import RoundResult as RoundResult
    from loba_dsl.game.players import Player as Player
    from loba_dsl.game.players import RandomPlayer as RandomPlayer
    from loba_dsl.game.players import Scripted as Scripted
    from loba_dsl.game.record import GameRecord as GameRecord
    from loba_dsl.game.record import dumps as dumps
    from loba_dsl.game.record import load as load
    from loba_dsl.game.record import loads as loads
    from loba_dsl.game.record import record_digest as record_digest
    from loba_dsl.game.referee import Event as Event
    from loba_dsl.game.referee import IllegalMove as IllegalMove
    from loba_dsl.game.referee import Reason as Reason
    from loba_dsl.game.resume import TableCache as TableCache
    from loba_dsl.game.resume import TableSnapshot as TableSnapshot
    from loba_dsl.game.stalemate import RoundNeverEnds as RoundNeverEnds
    from loba_dsl.game.standings import ReentryOffer as ReentryOffer
    from loba_dsl.game.standings import Standings as Standings
    from loba_dsl.game.state import Phase as Phase
    from loba_dsl.game.state import RoundState as RoundState
    from loba_dsl.game.state import TableMeld as TableMeld
    from loba_dsl.game.table import Check as Check
    from loba_dsl.game.table import DealRejected as DealRejected
    from loba_dsl.game.table import MatchRefused as MatchRefused
    from loba_dsl.game.table import Table as Table
    from loba_dsl.game.table import UndoRefused as UndoRefused
    from loba_dsl.game.view import MeldView as MeldView
    from loba_dsl.game.view import PlayerView as PlayerView
