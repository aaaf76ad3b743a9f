"""A round that no player can ever go out of is proved so from the rules (loba_dsl.game.stalemate), and nothing else.

From docs/rules.md §1 (menos): two decks and 4 Jokers, so two copies of each card; a turn draws one card (the stock or
the pile's top card) and ends with a discard, which going out needs too, so a hand at rest never grows; when the
stock runs out the pile is reshuffled into it, so the stock never ends the round; a meld holds at least 3 cards; a
pierna at most 4, one per suit; an escalera is ace low only and holds at most one wild (a Joker); lay-offs only onto
one's own melds, only after one's first meld; no Joker replacement, no wild moves.  So two hands of 2 cards can put
no new meld down (2 + 1 drawn = 3 cards, one of them owed to the discard) and go out only by laying off.
"""

from __future__ import annotations

import loba_dsl
from loba_dsl.game.moves import UNKNOWN
from loba_dsl.game.stalemate import never_ends, put_down_at_most
from loba_dsl.game.state import RoundState, TableMeld
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset

MENOS = load("menos")
FOUR_SUIT_PIERNAS = [(1, "pierna", "5♠ 5♥ 5♦ 5♣", ""), (1, "pierna", "8♠ 8♥ 8♦ 8♣", "")]
"""Beto's melds that take no card: piernas of all four suits."""


def _state(hands: tuple[int, int], melds: list[tuple[int, str, str, str]], rs: Ruleset = MENOS) -> RoundState:
    """Ana's and Beto's hands of those sizes (cards nobody needs to know) and the melds: (owner, kind, cards, what a
    Joker stands for, if one is in it)."""
    parse = rs.notation().parse_codes
    table = []
    for i, (owner, kind, cards, joker_as) in enumerate(melds, start=1):
        cs = tuple(parse(cards))
        stands = tuple(parse(cards.replace("JOKER", joker_as))) if joker_as else cs
        table.append(TableMeld(i, owner, kind, cs, stands, tuple(c != st for c, st in zip(cs, stands, strict=True)),
                               kind == "escalera"))
    return RoundState(("Ana", "Beto"), 0, 1, tuple((UNKNOWN,) * n for n in hands), (UNKNOWN,) * 40, (UNKNOWN,),
                      tuple(table), turn=0, laid_before=frozenset({0, 1}))


def house(settings: str) -> Ruleset:
    return loba_dsl.loads(f"name: stalemate-house\nextends: menos\nturn: {{{settings}}}\n", cached=False)


def test_two_hands_of_two_and_melds_that_take_no_card_never_end() -> None:
    assert never_ends(MENOS, _state((2, 2), FOUR_SUIT_PIERNAS))
    # a full escalera A..K of hearts takes nothing either (ace low only: nothing below A, nothing above K)
    full = (0, "escalera", "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥", "")
    assert never_ends(MENOS, _state((1, 2), [*FOUR_SUIT_PIERNAS, full]))


def test_a_hand_of_three_may_still_meld() -> None:
    # three cards and the draw: a meld of three and the discard
    assert put_down_at_most(MENOS, 3) == 3
    assert not never_ends(MENOS, _state((2, 3), FOUR_SUIT_PIERNAS))
    assert not never_ends(MENOS, _state((3, 2), FOUR_SUIT_PIERNAS))


def test_a_card_still_to_be_drawn_that_lays_off_keeps_the_round_alive() -> None:
    # Ana's pierna of three takes 5♣ (the fourth suit), and both 5♣ may still be drawn
    assert not never_ends(MENOS, _state((2, 2), [*FOUR_SUIT_PIERNAS[1:], (0, "pierna", "5♠ 5♥ 5♦", "")]))
    # an escalera open at its top: 8♥ may be laid off
    assert not never_ends(MENOS, _state((2, 2), [*FOUR_SUIT_PIERNAS, (0, "escalera", "5♥ 6♥ 7♥", "")]))


def test_a_card_whose_every_copy_is_in_a_meld_is_never_drawn_again() -> None:
    # Beto's pierna of three would take 9♣, but both copies of 9♣ are in Ana's escaleras, which run A to K (full:
    # at most 13 cards, ace low only)
    melds = [(1, "pierna", "9♠ 9♥ 9♦", ""),
             (0, "escalera", "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣", ""),
             (0, "escalera", "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣", "")]
    assert never_ends(MENOS, _state((2, 2), melds))
    assert not never_ends(MENOS, _state((2, 2), melds[:2]))  # one 9♣ may still be drawn


def test_a_joker_laid_off_as_the_missing_end_keeps_the_round_alive() -> None:
    # A♥..Q♥ takes K♥ at its top (ace low: nothing below A); both K♥ are in Ana's four-suit piernas of kings,
    # so only a Joker standing for K♥ could be laid off: one wild per escalera, so it can while it has none
    kings = [(0, "pierna", "K♠ K♥ K♦ K♣", ""), (0, "pierna", "K♠ K♥ K♦ K♣", "")]
    natural = (1, "escalera", "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥", "")
    with_joker = (1, "escalera", "A♥ 2♥ JOKER 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥", "3♥")
    assert not never_ends(MENOS, _state((2, 2), [*kings, natural]))
    assert never_ends(MENOS, _state((2, 2), [*kings, with_joker]))
    # where the owner may replace the Joker (turn.joker_replacement), the table may change: nothing proved
    assert not never_ends(house("joker_replacement: true"), _state((2, 2), [*kings, with_joker]))


def test_rules_that_end_the_round_or_let_a_hand_grow_prove_nothing() -> None:
    stuck = _state((2, 2), FOUR_SUIT_PIERNAS)
    # the round ends when the stock runs out (rules.md §3's rule)
    assert not never_ends(house("stock_exhausted: end_round"), stuck)
    # the whole pile may be taken: a hand may grow
    assert not never_ends(house("discard_pile_take: whole_pile"), stuck)
    # going out without a discard: 2 cards and the draw may all go down as a meld of three
    optional = house("going_out: discard_optional")
    assert put_down_at_most(optional, 2) == 3
    assert not never_ends(optional, stuck)
    assert never_ends(optional, _state((1, 1), FOUR_SUIT_PIERNAS))
