"""`loba arrange`'s "can go out" is the referee's answer, for every `turn.going_out` and the going-out keys.

rules.md rows read here:

- §1 going out: "discard your last card (a discard is required)", `turn.going_out: discard_required`
  (004:35); a meld may not empty the hand, so the last card is the discard;
- §1 discarding a Joker, `turn.discard_joker: true` (a house sets it false: a Joker is never the
  discard); §1 going out on the turn of your first lay-down, `turn.go_out_on_first_lay_down: true` (a
  house sets it false: not in the turn of the first lay-down; once a player has put cards down in an
  earlier turn, the key no longer bites);
- §3 going out: "put down all cards, or all but one and discard it", `turn.going_out: discard_optional`
  (003:28);
- §4 chinchon, closing: "a player may close keeping one unmatched card, which is counted",
  `turn.going_out: one_card_left`; the close is a discard (§4 chinchon's turn: draw, meld, discard), so
  everything is melded but the discard, or but the discard and one card kept.

Melds (§1): a pierna is 3 or 4 cards of one rank in distinct suits, never a wild; an escalera 3+ in suit,
ace low, at most one Joker.  §3 (mas-pagat): piernas of exactly three suits, no wilds; escaleras with any
number of wilds (Jokers and 2s) but at least one natural.  §4 chinchon: grupos of 3-4 of one rank, runs
of 3+ in suit (ranks 1-7 S C R), no wilds.  bazas (§4): an opening of 50 by the penalty table.

Houses are YAML files in tmp_path extending a shipped ruleset, loaded as `loba arrange -r house.yaml`
loads them (loba_dsl.rules.loading.load_file).  The agreement tests drive the referee through its own
moves (tests/referee_play.py): after Beto's draw, every set of legal melds, then every discard (or
none); arrange must say "yes" exactly when one of those goes out.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee_play import after_draw, codes, play, referee_goes_out

from loba_dsl.cards.deck import Card
from loba_dsl.game.moves import Discard, Meld, Move
from loba_dsl.rules.loading import load, load_file, loads
from loba_dsl.rules.model import GoingOut, Ruleset
from loba_dsl.scoring.requirements import opening_rule
from loba_dsl.solver.advice import arrange_hand
from loba_dsl.solver.api import Solver
from loba_dsl.solver.going_out import go_out_meeting

NO_JOKER_DISCARD = "turn: {discard_joker: false}\n"
LATER = "turn: {go_out_on_first_lay_down: false}\n"
CLOSING = "turn: {going_out: one_card_left}\n"


def house(tmp_path: Path, base: str, turn: str) -> Ruleset:
    """A house ruleset written as a file, as a family would: ``extends: base`` and its ``turn`` keys."""
    path = tmp_path / f"house-{base}.yaml"
    path.write_text(f"name: house\nextends: {base}\n{turn}", encoding="utf-8")
    return load_file(path)


@functools.cache
def solver(rs: Ruleset) -> Solver:
    return Solver(rs)


def says(rs: Ruleset, hand: str, *, opened: bool = False) -> bool:
    """What `loba arrange` prints after "can go out:" (with `--opened` if ``opened``)."""
    return arrange_hand(solver(rs), hand, opened=opened).can_go_out


def referee(rs: Ruleset, hand: str, *, opened: bool = False) -> bool:
    """Does the referee let Beto go out this turn with ``hand`` (its last card the one he drew)?"""
    return referee_goes_out(rs, after_draw(rs, codes(rs, hand), opened=opened))


# ---------------------------------------------------------------- discard_required (§1, menos)


@pytest.mark.parametrize(("hand", "expected"), [
    # Discard 4♥; 7♠ 7♥ 7♦ and K♠ K♥ K♦ are piernas.
    ("7♠ 7♥ 7♦ K♠ K♥ K♦ 4♥", True),
    # Two piernas and nothing to discard: the last meld may not empty the hand, and after any discard
    # five cards cannot be two melds of three.
    ("7♠ 7♥ 7♦ K♠ K♥ K♦", False),
    # The Joker is the discard (discard_joker: true); it fits no escalera here anyway.
    ("JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦", True),
    # Two cards no meld holds (4♥, 9♣): one discard cannot take both.
    ("7♠ 7♥ 7♦ K♠ K♥ K♦ 4♥ 9♣", False),
])
def test_menos_discard_required(hand: str, expected: bool) -> None:
    rs = load("menos")
    assert rs.turn.going_out is GoingOut.DISCARD_REQUIRED
    assert says(rs, hand) is expected
    assert says(rs, hand, opened=True) is expected
    assert referee(rs, "7♠ 7♥ 7♦ K♠ K♥ K♦ 4♥") is True


def test_menos_house_where_a_joker_may_not_be_discarded(tmp_path: Path) -> None:
    rs = house(tmp_path, "menos", NO_JOKER_DISCARD)
    # The Joker must be melded, and a Joker goes only into an escalera (§1): none here.  Before, arrange
    # said yes (discard the Joker) and the referee refused the discard.
    assert says(rs, "JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦") is False
    assert says(rs, "JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦", opened=True) is False
    assert referee(rs, "JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦", opened=True) is False
    # With the Joker in an escalera (7♠ 8♠ JOKER), the K♦ goes: yes.
    assert says(rs, "JOKER 7♠ 8♠ K♠ K♥ K♣ K♦ 4♥", opened=True) is True
    out = solver(rs).can_go_out("JOKER 7♠ 8♠ K♠ K♥ K♣ K♦ 4♥", opened=True)
    assert out.possible and out.discard == codes(rs, "4♥")[0]
    # arrange --discard never shows the Joker as the discard while another card may go (4♥, then the
    # 9♦ no meld holds).
    shown = arrange_hand(solver(rs), "JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦ 9♦", opened=True, discard=True)
    assert shown.discard is not None and not rs.deck.is_joker(shown.discard)


def test_the_best_discard_is_never_a_joker_where_a_joker_may_not_be_discarded(tmp_path: Path) -> None:
    # §1: a Joker goes only into an escalera (3+ in suit), and in "JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦ 9♣" no two
    # cards of a suit lie close enough for one, so it melds nowhere; the penalty in hand is Joker 25,
    # 9♣ 9 (§1 "penalty in hand").  With Jokers discardable (the default) the best discard is the Joker
    # and 9♣ is left (9); a house with discard_joker: false must discard the 9♣ instead (breaking a
    # pierna only leaves more), and keeps the Joker (25).
    hand = "JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦ 9♣"
    rs = load("menos")
    card, arrangement = solver(rs).best_discard(hand)
    assert rs.deck.is_joker(card) and arrangement.score == 9
    assert solver(rs).best_discard_score(codes(rs, hand)) == 9
    rs = house(tmp_path, "menos", NO_JOKER_DISCARD)
    card, arrangement = solver(rs).best_discard(hand)
    assert card == codes(rs, "9♣")[0] and arrangement.score == 25
    assert solver(rs).best_discard_score(codes(rs, hand)) == 25


def test_menos_house_no_going_out_in_the_first_lay_downs_turn(tmp_path: Path) -> None:
    rs = house(tmp_path, "menos", LATER)
    hand = "7♠ 7♥ 7♦ K♠ K♥ K♦ 4♥"
    # Not opened (arrange's default): this turn's lay-down would be the first, so no going out this
    # turn; the referee refuses it.  Once cards went down in an earlier turn (--opened): yes.
    assert says(rs, hand) is False
    assert referee(rs, hand) is False
    assert says(rs, hand, opened=True) is True
    assert referee(rs, hand, opened=True) is True
    assert solver(rs).can_go_out(hand).possible is False
    assert solver(rs).can_go_out(hand, opened=True).possible is True


# ---------------------------------------------------------------- discard_optional (§3, mas-pagat)


@pytest.mark.parametrize(("hand", "expected"), [
    # Everything down, no discard: two piernas of three suits.
    ("7♠ 7♥ 7♦ K♠ K♥ K♦", True),
    # All but one, discarded: 4♥.
    ("7♠ 7♥ 7♦ K♠ K♥ K♦ 4♥", True),
    # The Joker fits no escalera here (no two naturals in suit with it): it is the discard.
    ("JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦", True),
    # Two cards no meld holds.
    ("7♠ 7♥ 7♦ K♠ K♥ K♦ 4♥ 9♣", False),
])
def test_mas_pagat_discard_optional(hand: str, expected: bool) -> None:
    rs = load("mas-pagat")
    assert rs.turn.going_out is GoingOut.DISCARD_OPTIONAL
    assert says(rs, hand, opened=True) is expected


def test_mas_pagat_house_where_a_joker_may_not_be_discarded(tmp_path: Path) -> None:
    rs = house(tmp_path, "mas-pagat", NO_JOKER_DISCARD)
    # The Joker fits no escalera (no naturals in suit with it) and may not be the discard.
    assert says(rs, "JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦", opened=True) is False
    assert referee(rs, "JOKER 7♠ 7♥ 7♦ K♠ K♥ K♦", opened=True) is False
    # JOKER 7♠ 8♠ is an escalera (any number of wilds, one natural at least): everything down.
    assert says(rs, "JOKER 7♠ 8♠ K♠ K♥ K♦", opened=True) is True
    assert referee(rs, "JOKER 7♠ 8♠ K♠ K♥ K♦", opened=True) is True


# ---------------------------------------------------------------- one_card_left (§4 chinchon, closing)


@pytest.mark.parametrize(("hand", "expected"), [
    # 1o 2o 3o is a run, 5c 5e 5b a grupo; discard one of Rc (rey de copas) and Sb (sota de bastos) and
    # keep the other, counted.  Before, arrange said no (it allowed at most one card unmelded in all).
    ("1o 2o 3o 5c 5e 5b Rc Sb", True),
    # Discard Rc, everything else melded: the close with all cards down.
    ("1o 2o 3o 5c 5e 5b Rc", True),
    # Two melds of three and nothing to discard: a meld may not empty the hand, and after a discard two
    # cards would stay.  Before, arrange said yes.
    ("1o 2o 3o 5c 5e 5b", False),
    # Three unmatched cards: discard one, two would stay.
    ("1o 2o 3o 5c 5e 5b Rc Sb 7o", False),
    # Discard 4o (or 5o) and meld 1o 2o 3o and the 5s: a meld of four can give a card to the discard.
    ("1o 2o 3o 4o 5c 5e 5b 5o", True),
])
def test_chinchon_closing_keeps_at_most_one_card(hand: str, expected: bool) -> None:
    rs = load("chinchon")
    assert rs.turn.going_out is GoingOut.ONE_CARD_LEFT
    assert says(rs, hand) is expected
    assert says(rs, hand, opened=True) is expected
    assert referee(rs, hand) is expected


def test_chinchon_close_shows_the_discard_and_the_card_kept() -> None:
    rs = load("chinchon")
    out = solver(rs).can_go_out("1o 2o 3o 5c 5e 5b Rc Sb")
    assert out.possible and out.discard in codes(rs, "Rc Sb")
    assert out.arrangement is not None
    assert len(out.arrangement.left) == 1 and out.arrangement.left[0] in codes(rs, "Rc Sb")
    assert out.arrangement.left[0] != out.discard
    assert sorted(len(m.cards) for m in out.arrangement.melds) == [3, 3]


def test_bazas_house_closing_with_one_card_kept_before_opening(tmp_path: Path) -> None:
    # bazas (§4): an opening of 50; a house closes as chinchon does.  K♠ K♥ K♦ + Q♠ Q♥ Q♦ = 60 >= 50,
    # then discard 4♥ and keep 5♣ (or the other way).  Before: no.
    rs = house(tmp_path, "bazas", CLOSING)
    assert says(rs, "K♠ K♥ K♦ Q♠ Q♥ Q♦ 4♥ 5♣") is True
    assert referee(rs, "K♠ K♥ K♦ Q♠ Q♥ Q♦ 4♥ 5♣") is True
    way = go_out_meeting(solver(rs), codes(rs, "K♠ K♥ K♦ Q♠ Q♥ Q♦ 4♥ 5♣"), opening_rule(rs))
    assert way is not None and way.aside is not None and way.kept is not None
    assert {way.aside, way.kept} == set(codes(rs, "4♥ 5♣"))
    # Everything melded and nothing to discard: refused (before: yes).
    assert says(rs, "K♠ K♥ K♦ Q♠ Q♥ Q♦") is False
    assert referee(rs, "K♠ K♥ K♦ Q♠ Q♥ Q♦") is False


# ---------------------------------------------------------------- agreement with the referee


def small_hands(rs: Ruleset, names: str) -> st.SearchStrategy[tuple[Card, ...]]:
    pool = codes(rs, names)

    def fits(hand: list[Card]) -> bool:
        return all(n <= (rs.deck.jokers if rs.deck.is_joker(c) else rs.deck.copies) for c, n in Counter(hand).items())

    return st.lists(st.sampled_from(pool), min_size=1, max_size=8).filter(fits).map(tuple)


MENOS_POOL = "5♠ 6♠ 7♠ 8♠ 5♥ 6♥ 5♦ 5♣ JOKER K♠ K♥ K♦"
PAGAT_POOL = "5♠ 6♠ 7♠ 5♥ 5♦ 2♣ 2♥ JOKER K♠ K♥ K♦ A♠"
CHINCHON_POOL = "1o 2o 3o 4o 1c 1e 1b 2c 3c Rb Sb"
BAZAS_POOL = "10♠ J♠ Q♠ K♠ K♥ K♦ Q♥ Q♦ JOKER A♠ 4♥"

CASES = [
    # (base, house turn keys or "", pool, opened)
    ("menos", "", MENOS_POOL, True),
    ("menos", NO_JOKER_DISCARD, MENOS_POOL, True),
    ("menos", LATER, MENOS_POOL, False),
    ("menos", LATER, MENOS_POOL, True),
    ("menos", "turn: {going_out: one_card_left, discard_joker: false}\n", MENOS_POOL, True),
    ("mas-pagat", "", PAGAT_POOL, True),
    ("mas-pagat", NO_JOKER_DISCARD, PAGAT_POOL, True),
    ("chinchon", "", CHINCHON_POOL, False),
    ("bazas", CLOSING, BAZAS_POOL, False),
    ("bazas", "turn: {discard_joker: false, going_out: discard_optional}\n", BAZAS_POOL, False),
]


@functools.cache
def case_ruleset(base: str, turn: str) -> Ruleset:
    return loads(f"name: house\nextends: {base}\n{turn}") if turn else load(base)


def ways_shown(rs: Ruleset, hand: tuple[Card, ...], opened: bool) -> list[Move] | None:
    """The moves of the way out arrange's search found (None: it says the hand cannot go out)."""
    if rs.requirements.opening is None or opened:
        got = solver(rs).can_go_out(hand, opened=opened)
        if not got.possible:
            return None
        assert got.arrangement is not None
        melds = [m.cards for m in got.arrangement.melds]
        discard = got.discard
    else:
        way = go_out_meeting(solver(rs), hand, opening_rule(rs))
        if way is None:
            return None
        melds, discard = list(way.melds), way.aside
    return [*(Meld("Beto", m) for m in melds), *([Discard("Beto", discard)] if discard is not None else [])]


@pytest.mark.parametrize(("base", "turn", "pool", "opened"), CASES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_arrange_says_yes_exactly_when_the_referee_lets_the_hand_go_out(
        base: str, turn: str, pool: str, opened: bool, data: st.DataObject) -> None:
    rs = case_ruleset(base, turn)
    hand = data.draw(small_hands(rs, pool))
    discard = data.draw(st.booleans())
    text = " ".join(rs.deck.names_of(hand))
    said = arrange_hand(solver(rs), text, opened=opened, discard=discard).can_go_out
    s = after_draw(rs, hand, opened=opened)
    assert said is referee_goes_out(rs, s)
    # And the way it found, played as the referee's moves, goes out.
    moves = ways_shown(rs, hand, opened)
    assert (moves is not None) is said
    if moves is not None:
        end, reasons = play(rs, s, moves)
        assert end is not None, [r.text() for r in reasons]
        assert end.went_out == 1
