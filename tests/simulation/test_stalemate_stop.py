"""Simulations stop a round that no player can ever go out of as soon as it is proved (a simulation setting).

Seed 2025, deal 44, two greedy players under menos: the round reaches a table on which both hands hold 2 cards and
no card still to be drawn fits a meld (docs/rules.md §1: a hand never grows, a meld needs 3 cards, lay-offs only
onto one's own melds), so nobody ever goes out.  Played on, it runs to the simulation's move cap; stopped, it ends
sooner, unfinished and unscored all the same.  A round that ends is played exactly as before.
"""

from __future__ import annotations

from loba_dsl.bots.greedy import GreedyBot
from loba_dsl.game.stalemate import never_ends
from loba_dsl.game.state import Phase
from loba_dsl.game.table import Table
from loba_dsl.rules.loading import load
from loba_dsl.simulation.games import MAX_PLIES, LegalList, game_seed, play_game

MENOS = load("menos")
SEED, STUCK = 2025, 44


def test_a_round_nobody_can_go_out_of_is_stopped_when_proved() -> None:
    stopped = play_game(MENOS, ["greedy", "greedy"], SEED, STUCK, match=False)
    played_on = play_game(MENOS, ["greedy", "greedy"], SEED, STUCK, match=False, stop_stalemates=False)
    r, on = stopped.rounds[0], played_on.rounds[0]
    assert r.stalemate and not stopped.finished and r.scores == (None, None) and r.went_out is None
    assert not on.stalemate and not played_on.finished and on.plies == MAX_PLIES and on.went_out is None
    assert r.plies < on.plies


def test_rounds_that_end_are_played_as_before() -> None:
    for i in range(STUCK - 4, STUCK):
        a = play_game(MENOS, ["greedy", "greedy"], SEED, i, match=False)
        b = play_game(MENOS, ["greedy", "greedy"], SEED, i, match=False, stop_stalemates=False)
        assert a == b and a.finished, i


def test_the_proof_stays_true_for_the_rest_of_the_round() -> None:
    # once proved, the round never ends: every later table of the round played on is proved again
    t = Table.deal(MENOS, ["Ana", "Beto"], "Beto", game_seed(SEED, STUCK))
    bots = {"Ana": GreedyBot(), "Beto": GreedyBot()}
    proved_at = None
    for ply in range(1_200):
        s = t.state
        if s.phase is Phase.DRAW and never_ends(MENOS, s):
            proved_at = ply if proved_at is None else proved_at
        elif proved_at is not None and s.phase is Phase.DRAW:
            raise AssertionError(f"proved at ply {proved_at}, not at ply {ply}")
        who = t.to_move
        assert who is not None and s.phase is not Phase.OVER
        t.play(bots[who].move(t.view(who), LegalList(t, set())))
    assert proved_at is not None
