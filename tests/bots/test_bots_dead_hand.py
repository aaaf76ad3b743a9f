"""The search bot knows a hand that can never go out under menos (rules.md §1), and does not count on it.

rules.md §1: a turn draws one card and discards one, so a hand never grows; a meld has at least 3 cards and going
out needs a discard, so a hand of 2 cards after its discard can go out only by laying off all but one card of
its next draw's 3; lay-offs go only onto one's own melds; a pierna holds at most four cards, one per suit; an
escalera runs A to K at most (ace low only).  A hand of 2 whose own melds are four-suit piernas can never go out.
"""

from __future__ import annotations

from loba_dsl.bots.greedy import Greedy
from loba_dsl.bots.search import dead
from loba_dsl.game.moves import UNKNOWN
from loba_dsl.game.state import RoundState, TableMeld
from loba_dsl.rules.loading import load


def _state(hand: str, melds: list[tuple[str, str, bool]], elsewhere: list[str] | None = None) -> RoundState:
    rs = load("menos")
    parse = rs.notation().parse_codes
    table = []
    for i, (kind, cards, run) in enumerate(melds, start=1):
        cs = tuple(parse(cards))
        table.append(TableMeld(i, 1, kind, cs, cs, (False,) * len(cs), run))
    for j, cards in enumerate(elsewhere or [], start=len(table) + 1):  # Ana's escaleras
        cs = tuple(parse(cards))
        table.append(TableMeld(j, 0, "escalera", cs, cs, (False,) * len(cs), True))
    return RoundState(("Ana", "Beto"), 0, 1, ((UNKNOWN,) * 5, tuple(parse(hand))), (UNKNOWN,) * 40, (), tuple(table),
                      turn=0, laid_before=frozenset({0, 1}))


def test_two_cards_and_only_four_suit_piernas_is_a_dead_hand() -> None:
    policy = Greedy.of(load("menos"))
    s = _state("2♦ 2♠", [("pierna", "5♠ 5♥ 5♦ 5♣", False), ("pierna", "8♠ 8♥ 8♦ 8♣", False)])
    assert dead(policy, s, 1)


def test_a_pierna_of_three_or_an_open_escalera_keeps_the_hand_alive() -> None:
    policy = Greedy.of(load("menos"))
    assert not dead(policy, _state("2♦ 2♠", [("pierna", "5♠ 5♥ 5♦", False)]), 1)  # 5♣ may be laid off
    assert not dead(policy, _state("2♦ 2♠", [("escalera", "4♥ 5♥ 6♥", True)]), 1)  # 3♥ or 7♥
    # three cards: the next draw makes four, a meld of three and a discard
    assert not dead(policy, _state("2♦ 2♠ 9♣", [("pierna", "5♠ 5♥ 5♦ 5♣", False)]), 1)


def test_a_card_whose_every_copy_is_in_a_meld_is_never_drawn_again() -> None:
    # the deck holds two of each card (rules.md §1: 2 x 52 + 4 Jokers); both 5♣ are in Ana's escaleras
    policy = Greedy.of(load("menos"))
    s = _state("2♦ 2♠", [("pierna", "5♠ 5♥ 5♦", False)], elsewhere=["5♣ 6♣ 7♣", "3♣ 4♣ 5♣"])
    assert dead(policy, s, 1)
    assert not dead(policy, _state("2♦ 2♠", [("pierna", "5♠ 5♥ 5♦", False)], elsewhere=["5♣ 6♣ 7♣"]), 1)
