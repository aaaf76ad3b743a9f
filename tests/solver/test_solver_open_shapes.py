"""A meld shape without an upper size ("set 3+") under the solver: its tables are built for the wilds a hand
can hold (no more than the deck has), not for the million its open size stands for.  Found by the public
API's fuzz run: a five-card hand under such a house ruleset cost seconds and hundreds of MB before its
search began, past every budget, because one table per count of wilds was built up to that million.
"""

from __future__ import annotations

import loba_dsl as loba
from loba_dsl.solver.candidates import CandidateGenerator

# Menos (rules.md §1: two decks and four Jokers, the Jokers wild) with piernas of any size and any wilds.
OPEN_SETS = "name: h\nextends: menos\nmelds:\n  pierna:\n    description: any size\n    shape: set 3+\n"


def test_an_open_shape_allows_as_many_wilds_as_the_deck_has() -> None:
    rs = loba.loads(OPEN_SETS, source="h.yaml")
    gen = loba.Solver(rs).candidates
    assert isinstance(gen, CandidateGenerator)
    pierna = next(k.index for k in gen.shapes if not k.run)
    assert gen.wild_limit[pierna] == 4  # four Jokers, the only wild cards (rules.md §1)


def test_an_open_shape_still_melds_its_wilds() -> None:
    # 7♠ 7♥ JOKER JOKER is one pierna of four under the house rule: nothing is left in hand, so the round
    # scores 0 (rules.md §1: the penalty of the cards left); K♦ left beside it costs 10.
    rs = loba.loads(OPEN_SETS, source="h.yaml")
    solver = loba.Solver(rs)
    names = rs.deck.names
    assert solver.arrange([names.index(c) for c in ("7♠", "7♥", "JOKER", "JOKER")]).score == 0
    assert solver.arrange([names.index(c) for c in ("7♠", "7♥", "JOKER", "JOKER", "K♦")]).score == 10
