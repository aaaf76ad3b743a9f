"""A match stops a round that no player can ever go out of, as the simulations do (docs/rules.md §7).

docs/rules.md §1 (menos): a turn draws one card and owes a discard, going out too, so a hand at rest never grows; a
meld holds at least 3 cards, so a hand of 2 or fewer can put no new meld down; when the stock runs out the pile is
reshuffled into it, so only going out ends a round.  §7: a round that reaches a table where no card still to be
drawn fits a meld its holder may lay off onto has no end and no score, and we add no rule for it.  Seed 2025, deal
44, two greedy players (tests/simulation/test_stalemate_stop.py) reach such a table.  ``Match.play_round`` stops
it as soon as it is proved, between two turns, unscored: the match cannot go on (no rule deals a round after one
that never ended), and says so; without the stop the round plays on to the move cap.  A round that ends is played
exactly as before.
"""

from __future__ import annotations

import pytest

from loba_dsl.bots.greedy import GreedyBot
from loba_dsl.errors import LobaError
from loba_dsl.game.match import Match, RoundNeverEnds, random_match
from loba_dsl.game.stalemate import never_ends
from loba_dsl.game.state import Phase
from loba_dsl.rules.loading import load
from loba_dsl.simulation.games import game_seed, play_game

MENOS = load("menos")
SEED, STUCK = 2025, 44


def stuck_match() -> Match:
    """The simulation's game (seed 2025, deal 44) at a person-facing table: Beto deals (the last seat, as there)."""
    return Match.deal(MENOS, {"Ana": GreedyBot(), "Beto": GreedyBot()}, "Beto", game_seed(SEED, STUCK))


def test_a_round_proved_never_to_end_is_stopped_unscored_and_said_so() -> None:
    m = stuck_match()
    with pytest.raises(RoundNeverEnds) as caught:
        m.play_round()
    t, e = m.table, caught.value
    s = t.state
    # between two turns, every hand too small for a new meld (a meld needs 3 cards and a discard is owed)
    assert s.phase is Phase.DRAW and all(len(h) <= 2 for h in s.hands)
    assert never_ends(MENOS, s)
    assert t.outcome() is None and not t.results  # unscored: the rules give the round no score
    assert e.code == "round-never-ends" and e.round_number == 1 and e.ply == s.ply
    assert e.sizes == {"Ana": len(s.hands[0]), "Beto": len(s.hands[1])}
    assert "round 1 can never end" in e.message and "docs/rules.md §7" in e.message
    # the same round the simulation stops: as many moves played (a reshuffle is the dealer's, not a move)
    sim = play_game(MENOS, ["greedy", "greedy"], SEED, STUCK, match=False).rounds[0]
    assert sim.stalemate and sum(m.op != "reshuffle" for m in t.rounds[-1].moves) == sim.plies


def test_the_match_goes_no_further_than_the_round_that_never_ends() -> None:
    m = stuck_match()
    with pytest.raises(RoundNeverEnds):
        m.play()
    assert m.table.round_number == 1
    with pytest.raises(LobaError, match="has not ended"):
        m.table.next_round()


def test_without_the_stop_the_round_plays_on_to_the_move_cap() -> None:
    m = stuck_match()
    with pytest.raises(LobaError) as caught:
        m.play_round(max_plies=600, stop_stalemates=False)
    assert not isinstance(caught.value, RoundNeverEnds)
    assert "has not ended after 600 moves" in caught.value.message


def test_rounds_that_end_are_played_as_before() -> None:
    names = ["Ana", "Beto", "Carla", "Dora"]
    for seed in range(3):
        stopped, played_on = random_match(MENOS, names, seed), random_match(MENOS, names, seed)
        stopped.play_round()
        played_on.play_round(stop_stalemates=False)
        assert stopped.table.outcome() is not None
        assert stopped.table.record() == played_on.table.record()

