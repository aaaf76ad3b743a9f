"""The referee: whole rounds as validated moves, and the ``loba-record/1`` game record."""

from loba_dsl.game.moves import Discard, Draw, LayOff, Meld, Move, MoveWild, RecordError, ReplaceJoker, Reshuffle
from loba_dsl.game.outcome import RoundResult
from loba_dsl.game.referee import Event, IllegalMove, Reason
from loba_dsl.game.state import Phase, RoundState, TableMeld
from loba_dsl.game.table import Check, DealRejected, Table, UndoRefused

__all__ = [
           "Check",
           "DealRejected",
           "Discard",
           "Draw",
           "Event",
           "IllegalMove",
           "LayOff",
           "Meld",
           "Move",
           "MoveWild",
           "Phase",
           "Reason",
           "RecordError",
           "ReplaceJoker",
           "Reshuffle",
           "RoundResult",
           "RoundState",
           "Table",
           "TableMeld",
           "UndoRefused",
]
