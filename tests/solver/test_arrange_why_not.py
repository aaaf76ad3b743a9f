"""`loba arrange` says why a hand cannot go out (the opening minimum, the round's contract, the cards left),
and, when it can, what going out scores and whether it wins the match outright.

Expected values from /work/shared/rules.md: §1 (menos: the player who went out scores 0; a discard is required;
pierna 3-4 of a rank in distinct suits, escalera 3+ in suit, ace low, one Joker), §2 (mas: meld points by the
§1 values, +5 per meld for going out), §4 (bazas: a first lay-down worth at least 50; contrato round 1: 2
piernas; chinchón: closing with all seven melded -10, a seven-card run wins the match).
"""

from __future__ import annotations

import functools
import json

from cli_runner import run

import loba_dsl as loba


@functools.cache
def solver(name: str) -> loba.Solver:
    return loba.Solver(loba.load(name))


def test_bazas_below_the_opening_minimum_says_so() -> None:
    # §4 bazas: 7♠ 7♥ 7♦ is worth 21 < 50, the only meld; 2♣ and 3♦ fit no meld, and only one card may be
    # discarded.
    hand = loba.arrange_hand(solver("bazas"), "7♠ 7♥ 7♦ 2♣ 3♦")
    assert not hand.can_go_out
    assert hand.note.why_not == (
        "no lay-down of this hand reaches the opening minimum of 50 (requirements.opening)",
        "at best 2 cards stay unmelded (2♣ 3♦); going out melds every card but the one discarded",
    )
    out = run("arrange", "-r", "bazas", "7♠ 7♥ 7♦ 2♣ 3♦")
    assert "    - no lay-down of this hand reaches the opening minimum of 50 (requirements.opening)" in out.stdout


def test_contrato_without_the_rounds_contract_says_so() -> None:
    # §4 contrato, round 1: 2 piernas; the hand holds one pierna (7♠ 7♥ 7♦).
    hand = loba.arrange_hand(solver("contrato"), "A♣ 2♣ 3♣ 4♣ 7♠ 7♥ 7♦ 9♠ K♥ Q♦", round_number=1)
    assert not hand.can_go_out
    assert hand.note.why_not[0] == "the hand does not hold round 1's contract, 2 piernas (requirements.contracts)"
    # 9♠ K♥ Q♦ fit no meld: three cards stay unmelded where one (the discard) may.
    assert hand.note.why_not[1].startswith("at best 3 cards stay unmelded (9♠ Q♦ K♥)")


def test_menos_cards_left_say_why_and_going_out_scores_zero() -> None:
    # §1: A♣ 2♣ 3♣ + JOKER and 7♠ 7♥ 7♦ meld; K♠ and Q♥ both stay, and only one card is discarded.
    hand = loba.arrange_hand(solver("menos"), "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠ Q♥")
    assert not hand.can_go_out
    assert hand.note.why_not == (
        "at best 2 cards stay unmelded (Q♥ K♠); going out melds every card but the one discarded",)
    # Without Q♥: discard K♠ and go out, which scores 0 (§1).
    hand = loba.arrange_hand(solver("menos"), "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠")
    assert hand.can_go_out and hand.note.why_not == () and (hand.note.score, hand.note.wins) == (0, False)
    doc = json.loads(run("arrange", "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠", "--json").stdout)
    assert doc["why_not"] == [] and doc["going_out"] == {"score": 0, "wins_match": False}


def test_mas_going_out_scores_its_melds_and_the_bonus() -> None:
    # §2: 7♠ 7♥ 7♦ = 21, A♣ 2♣ 3♣ JOKER(4♣) = 15 + 2 + 3 + 25 = 45, +5 for each of the two melds: 76.
    hand = loba.arrange_hand(solver("mas"), "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠")
    assert hand.can_go_out and hand.note.score == 76 and not hand.note.wins


def test_chinchon_closing_scores_minus_ten_and_a_seven_card_run_wins() -> None:
    # §4 chinchón: after the draw (8 cards), discard the rey and close with 1-7 of oros, a seven-card run.
    hand = loba.arrange_hand(solver("chinchon"), "1o 2o 3o 4o 5o 6o 7o Rb")
    assert hand.can_go_out and (hand.note.score, hand.note.wins) == (-10, True)
    out = run("arrange", "-r", "chinchon", "1o 2o 3o 4o 5o 6o 7o Rb").stdout
    assert "can go out: yes; going out scores -10 and wins the match (match.instant_win)" in out
    # Seven cards melded as a grupo and a four-card run: -10, but no chinchón.
    hand = loba.arrange_hand(solver("chinchon"), "1o 1c 1e 4o 5o 6o 7o Rb")
    assert hand.can_go_out and (hand.note.score, hand.note.wins) == (-10, False)
    # Spanish words, spaced (rules.md §5 names the suits): the same hand as the first.
    spaced = loba.arrange_hand(solver("chinchon"), "1 oros 2 oros 3 oros 4 oros 5 oros 6 oros 7 oros rey bastos")
    assert spaced.note == loba.arrange_hand(solver("chinchon"), "1o 2o 3o 4o 5o 6o 7o Rb").note
