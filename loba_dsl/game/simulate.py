"""Random legal play: whole rounds played by a referee-checked random player (tests, benchmarks, bots).

The player picks among :meth:`Table.legal` moves, preferring to put cards down; a lay-down that turns
out short of a requirement (an opening minimum, a contract) is taken back with ``undo`` and not tried
again that turn.  Every move goes through :meth:`Table.play`, so it is refereed like any other.  The same
play as :class:`~loba_dsl.game.match.Match` with :class:`~loba_dsl.game.players.RandomPlayer` at every
seat, without views (a round at a time, as fast as the referee goes).
"""

from __future__ import annotations

import random

from loba_dsl.game.moves import Move
from loba_dsl.game.players import PUT_DOWN
from loba_dsl.game.state import Phase
from loba_dsl.game.table import Table, UndoRefused

__all__ = ["PUT_DOWN", "play_round"]


def play_round(table: Table, rng: random.Random, max_plies: int = 600, eager: float = 0.8) -> int:
    """Play the current round on until it ends or ``max_plies`` moves were played; the moves played."""
    tabu: set[Move] = set()
    plies = 0
    while table.state.phase is not Phase.OVER and plies < max_plies:
        moves = [m for m in table.legal() if m not in tabu] if tabu else list(table.legal())
        if not moves:
            try:
                tabu.add(table.undo())
            except UndoRefused:
                break
            plies -= 1
            continue
        puts = [m for m in moves if m.op in PUT_DOWN]
        move = rng.choice(puts) if puts and rng.random() < eager else rng.choice(moves)
        turn = table.state.turn
        table.play(move)
        plies += 1
        if table.state.turn != turn:
            tabu.clear()
    return plies
