"""``loba play`` stops a round that no player can ever go out of and tells the person why (docs/rules.md §7).

The deal of tests/game/test_match_stalemate.py (seed 2025, deal 44, two greedy players under menos) reaches a
table where both hands are too small for a new meld (a meld needs 3 cards and a turn owes a discard: rules.md §1)
and no card still to be drawn fits a meld its holder may lay off onto.  The terminal's own loop, every seat a bot
and the person watching, stops there between two turns, the round unscored.
"""

from __future__ import annotations

from loba_cli.sim_commands import Terminal, _play_match
from loba_dsl.bots.greedy import GreedyBot
from loba_dsl.game.stalemate import never_ends
from loba_dsl.game.state import Phase
from loba_dsl.game.table import Table
from loba_dsl.rules.loading import load
from loba_dsl.simulation.games import game_seed

MENOS = load("menos")


def test_loba_play_tells_the_person_and_stops_there() -> None:
    t = Table.deal(MENOS, ["Ana", "Beto"], "Beto", game_seed(2025, 44))
    said: list[str] = []

    def ask(prompt: str) -> str:
        raise AssertionError(f"the person was asked {prompt!r}, but plays no seat")

    _play_match(t, Terminal(t, "Zoe", "en", ask, said.append), {"Ana": GreedyBot(), "Beto": GreedyBot()})
    assert said[-1].startswith("round 1 can never end") and "docs/rules.md §7" in said[-1]
    s = t.state
    assert s.phase is Phase.DRAW and all(len(h) <= 2 for h in s.hands) and never_ends(MENOS, s)
    assert t.outcome() is None and not t.results
