"""The referee and `loba arrange` read the contract's turn the same way (rules.md §4 contrato).

rules.md §4: "the contract must be down before any other meld or lay-off"
(`requirements.contracts.before_other_melds: true`), "put down complete, in one turn"
(`at_once: true`), and the decision "the contract alone in its turn"
(`requirements.contracts.other_melds_same_turn: false`): a player who has not opened puts down exactly
the round's contract that turn, other melds from the next.  A house may set it `true` (`SAME_TURN`
below): the contract and then other melds in the same turn.

Before this setting the referee read the rule one way and `loba arrange` the other, so a family could be
told "can go out: yes" and then be refused.  Here both readers are asked about the same hands under both
values: the referee through its own moves (`referee.start`, `verify`, `apply`: draw, meld, discard), over
*every* way of putting the hand down as legal melds, and `arrange_hand` (what `loba arrange` prints).

Hands are dealt to Beto, who plays first (rules.md §1: the dealer Carla's right; 9 cards each), and draws
the top of the stock.  Round numbers name contrato's list (rulesets/contrato.yaml, rules.md §4): 1 is
"2 pierna", 3 "2 escalera", 5 "2 pierna + escalera".  Melds (rules.md §1): a pierna is 3 or 4 cards of one
rank in distinct suits, never a wild; an escalera 3 or more in suit; a discard is required to go out.
"""

from __future__ import annotations

import functools

import pytest
from referee_play import BETO, codes, dealt, lay_downs, play

from loba_dsl.game.moves import Discard, Draw, Meld, Move
from loba_dsl.game.referee import apply
from loba_dsl.game.state import RoundState
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.advice import arrange_hand
from loba_dsl.solver.api import ArrangedHand, Solver

SAME_TURN = "name: house\nextends: contrato\nrequirements:\n  contracts: {other_melds_same_turn: true}\n"
HOUSES = {
    # other melds may come before the contract, so also beside it (rules.md §4, before_other_melds: false)
    "others-first": "name: others-first\nextends: contrato\nrequirements:\n  contracts: {before_other_melds: false}\n",
    # the contract over several turns (rules.md §4, at_once: false): going out in one turn is as contrato's
    "in-parts": "name: in-parts\nextends: contrato\nrequirements:\n  contracts: {at_once: false}\n",
}


@functools.cache
def ruleset(same_turn: bool | str) -> Ruleset:
    if isinstance(same_turn, str):
        return loads(HOUSES[same_turn])
    return loads(SAME_TURN) if same_turn else load("contrato")


@functools.cache
def solver(rs: Ruleset) -> Solver:
    return Solver(rs)


def referee_lets_go_out(rs: Ruleset, beto: str, drawn: str, round_number: int) -> bool:
    """Does the referee accept some first-turn lay-down of the whole hand but a discard that goes out?"""
    s0 = dealt(rs, beto, drawn, round_number)
    s, reasons = play(rs, s0, [Draw("Beto", "stock")])
    assert s is not None, reasons
    hand = s.hands[BETO]
    for discard in dict.fromkeys(hand):
        rest = list(hand)
        rest.remove(discard)
        for melds in lay_downs(rs, rest):
            end, _ = play(rs, s, [*(Meld("Beto", m) for m in melds), Discard("Beto", discard)])
            if end is not None and end.went_out == BETO:  # else the discard took a short lay-down back
                return True
    return False


def taken_back(rs: Ruleset, s: RoundState, moves: list[Move], discard: Discard) -> str:
    """Play ``moves`` then ``discard``: a lay-down short of the contract goes back to the hand (the referee's
    decision, docs/rules.md contrato); why, as the ``took_back`` event says it."""
    before, reasons = play(rs, s, moves)
    assert before is not None, [r.text() for r in reasons]
    after, events = apply(rs, before, discard)
    assert after.went_out is None and not after.melds and BETO not in after.opened
    return next(e.why for e in events if e.kind == "took_back")


def arrange(rs: Ruleset, beto: str, drawn: str, round_number: int, discard: bool = False) -> ArrangedHand:
    return arrange_hand(solver(rs), f"{beto} {drawn}", round_number=round_number, discard=discard)


HANDS = [
    # (Beto's 9 cards, the card drawn, round, goes out under false, goes out under true)
    # Round 1, "2 pierna": 7♠ 7♥ 7♦ and 8♠ 8♥ 8♦ are the contract; the clubs A♣ 2♣ 3♣ 4♣ are an escalera,
    # a third meld: only beside the contract (true; discard A♣ or 4♣).  Alone, the piernas leave three
    # clubs whatever the discard (false).
    ("A♣ 2♣ 3♣ 7♠ 7♥ 7♦ 8♠ 8♥ 8♦", "4♣", 1, False, True),
    # Round 1: three piernas (5s, 6s, 9s), one more than the contract: only with other melds (true).
    ("5♠ 5♥ 5♦ 5♣ 6♠ 6♥ 6♣ 9♦ 9♣", "9♥", 1, False, True),
    # Round 5, "2 pierna + escalera": exactly the contract, 5s 6s and 2♣ 3♣ 4♣, discard K♦: both.
    ("5♠ 5♥ 5♦ 6♠ 6♥ 6♦ 2♣ 3♣ 4♣", "K♦", 5, True, True),
    # Round 3, "2 escalera": one run of clubs only, whatever else: neither.
    ("A♣ 2♣ 3♣ 4♣ 7♠ 7♥ 7♦ 8♠ 8♥", "8♦", 3, False, False),
]


@pytest.mark.parametrize(("same_turn", "with_others"), [(False, False), (True, True), ("others-first", True),
                                                      ("in-parts", False)],
                         ids=["contrato", "same-turn-house", "others-first-house", "in-parts-house"])
@pytest.mark.parametrize(("beto", "drawn", "round_number", "out_alone", "out_with_others"), HANDS)
def test_referee_and_arrange_agree_on_going_out(same_turn: bool | str, with_others: bool, beto: str, drawn: str,
                                               round_number: int, out_alone: bool, out_with_others: bool) -> None:
    rs = ruleset(same_turn)
    assert rs.requirements.contracts is not None
    if isinstance(same_turn, bool):
        assert rs.requirements.contracts.other_melds_same_turn is same_turn
    expected = out_with_others if with_others else out_alone
    assert referee_lets_go_out(rs, beto, drawn, round_number) is expected
    assert arrange(rs, beto, drawn, round_number).can_go_out is expected


@pytest.mark.parametrize("same_turn", [False, True], ids=["contrato", "same-turn-house"])
@pytest.mark.parametrize(("beto", "drawn", "round_number", "out_alone", "out_with_others"), HANDS)
def test_what_arrange_shows_the_referee_accepts(same_turn: bool, beto: str, drawn: str, round_number: int,
                                               out_alone: bool, out_with_others: bool) -> None:
    # `loba arrange --discard` on the hand after the draw: its melds and its discard, played as moves,
    # are accepted, and go out exactly when it says the hand can go out.
    rs = ruleset(same_turn)
    shown = arrange(rs, beto, drawn, round_number, discard=True)
    assert shown.discard is not None
    s, reasons = play(rs, dealt(rs, beto, drawn, round_number),
                      [Draw("Beto", "stock"), *(Meld("Beto", m.cards) for m in shown.arrangement.melds),
                       Discard("Beto", shown.discard)])
    assert s is not None, [r.text() for r in reasons]
    assert (s.went_out == BETO) is shown.can_go_out is (out_with_others if same_turn else out_alone)


def test_round_one_other_melds_refused_then_accepted_in_a_later_turn() -> None:
    # rules.md §4, other_melds_same_turn: false: the two piernas and an escalera in the contract's turn
    # are refused, naming the key; the piernas alone are accepted, and the escalera goes down next turn.
    rs = ruleset(False)
    s = dealt(rs, "A♣ 2♣ 3♣ 7♠ 7♥ 7♦ 8♠ 8♥ 8♦", "K♠ Q♦ J♦ 4♣", 1)
    piernas = [Meld("Beto", codes(rs, "7♠ 7♥ 7♦")), Meld("Beto", codes(rs, "8♠ 8♥ 8♦"))]
    escalera = Meld("Beto", codes(rs, "A♣ 2♣ 3♣"))
    why = taken_back(rs, s, [Draw("Beto", "stock"), *piernas, escalera], Discard("Beto", codes(rs, "K♠")[0]))
    assert "requirements.contracts" in why
    assert "requirements.contracts.other_melds_same_turn: false" in why
    assert "contrato.yaml" in why
    later, reasons = play(rs, s, [Draw("Beto", "stock"), *piernas, Discard("Beto", codes(rs, "K♠")[0]),
                                  Draw("Ana", "stock"), Discard("Ana", codes(rs, "Q♦")[0]),
                                  Draw("Carla", "stock"), Discard("Carla", codes(rs, "J♦")[0]),
                                  Draw("Beto", "stock"), escalera, Discard("Beto", codes(rs, "4♣")[0])])
    assert later is not None, [r.text() for r in reasons]
    # Nine cards melded across two turns, the last discarded: Beto went out in his second turn.
    assert later.went_out == BETO


def test_the_contract_must_be_among_the_melds_even_with_others_allowed() -> None:
    # other_melds_same_turn: true lets other melds follow the contract, not replace it: one pierna and an
    # escalera are not round 1's "2 pierna" (rules.md §4, before_other_melds: true).
    rs = ruleset(True)
    s = dealt(rs, "A♣ 2♣ 3♣ 7♠ 7♥ 7♦ K♠ K♥ Q♦", "4♣", 1)
    why = taken_back(rs, s, [Draw("Beto", "stock"), Meld("Beto", codes(rs, "7♠ 7♥ 7♦")),
                             Meld("Beto", codes(rs, "A♣ 2♣ 3♣ 4♣"))], Discard("Beto", codes(rs, "Q♦")[0]))
    assert "requirements.contracts" in why and "does not fulfil round 1's contract" in why
    shown = arrange(rs, "A♣ 2♣ 3♣ 7♠ 7♥ 7♦ K♠ K♥ Q♦", "4♣", 1)
    assert shown.arrangement.melds == () and shown.can_go_out is False


def test_the_setting_defaults_to_the_contract_alone() -> None:
    # schema.json's default is contrato's decision (rules.md §4): a house that adds contracts to menos
    # without the key plays the contract alone in its turn.
    rs = loads("name: house\nextends: menos\nrequirements:\n  contracts: {rounds: [2 pierna]}\n")
    assert rs.requirements.contracts is not None
    assert rs.requirements.contracts.other_melds_same_turn is False
    house = ruleset(True).requirements.contracts
    assert house is not None and house.other_melds_same_turn is True
