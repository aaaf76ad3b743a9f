"""The referee: whole rounds and matches as validated moves, players and their views, the move notation,
and the ``loba-record/1`` game record."""

from loba_dsl.game.match import Match
from loba_dsl.game.moves import (
    UNKNOWN,
    Discard,
    Draw,
    InvalidMove,
    LayOff,
    Meld,
    Move,
    MoveWild,
    RecordError,
    ReplaceJoker,
    Reshuffle,
)
from loba_dsl.game.notation import format_event, format_move, parse_move
from loba_dsl.game.outcome import RoundResult
from loba_dsl.game.players import Player, RandomPlayer, Scripted
from loba_dsl.game.record import GameRecord, dumps, load, loads, record_digest
from loba_dsl.game.referee import Event, IllegalMove, Reason
from loba_dsl.game.resume import TableCache, TableSnapshot
from loba_dsl.game.standings import ReentryOffer, Standings
from loba_dsl.game.state import Phase, RoundState, TableMeld
from loba_dsl.game.table import Check, DealRejected, MatchRefused, Table, UndoRefused
from loba_dsl.game.view import MeldView, PlayerView

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
