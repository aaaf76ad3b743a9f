"""The turn referee (issue 13): every turn, deal and requirement setting read from the ruleset.

Each test cites its source: rules.md §1 (Loba de Menos, seed 004), §3 (the pagat Loba de Mas, seed
003), §4 (bazas, contrato, chinchón); the settings a house may flip are written as house rulesets in
the test (``extends`` a shipped one), so every setting is tried in both of its values.  Expected
scores are worked out by hand from the value tables of rules.md, never taken from the code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from table_deals import cards, deal

from loba_dsl.game import Discard, Draw, IllegalMove, LayOff, Meld, MoveWild, ReplaceJoker, Reshuffle, Table
from loba_dsl.game.referee import deck_cards
from loba_dsl.game.table import DealRejected, UndoRefused
from loba_dsl.rules.loading import load, load_file, loads
from loba_dsl.rules.model import Ruleset

PLAYERS = ("Ana", "Beto", "Carla")


@pytest.fixture
def house(tmp_path: Path) -> Callable[[str], Ruleset]:
    """A house ruleset written in the test: ``extends`` plus the settings it flips."""
    count = iter(range(1000))

    def make(text: str) -> Ruleset:
        path = tmp_path / f"house{next(count)}.yaml"
        path.write_text(f"name: house\n{text}", encoding="utf-8")
        return load_file(path, cached=False)

    return make


def rejected(t: Table, move: object) -> str:
    """Play an illegal move: it raises, names a rule, cites a file:line, and changes nothing."""
    before = t.state
    check = t.check(move)  # type: ignore[arg-type]
    assert not check.ok
    with pytest.raises(IllegalMove) as e:
        t.play(move)  # type: ignore[arg-type]
    assert t.state is before
    assert e.value.reasons == check.reasons
    assert e.value.reasons[0].where
    return e.value.rule


@pytest.fixture(scope="module")
def menos() -> Ruleset:
    return load("menos")


@pytest.fixture(scope="module")
def pagat() -> Ruleset:
    return load("mas-pagat")


# ---------------------------------------------------------------- the deal and turn order


def test_menos_deal_counterclockwise_dealer_right_first(menos: Ruleset) -> None:
    # rules.md §1: 9 cards each, counter-clockwise, up-card, dealer's right plays first.  Players are
    # listed clockwise, so the dealer's right is the previous in the list: Carla deals, Beto starts,
    # and play passes to the previous player, Ana, then Carla.
    t = Table.deal(menos, PLAYERS, "Carla", seed=1)
    s = t.state
    assert [len(h) for h in s.hands] == [9, 9, 9]
    assert len(s.pile) == 1 and len(s.stock) == 108 - 27 - 1
    order = []
    for _ in range(3):
        who = t.to_move
        assert who is not None
        order.append(who)
        t.play(Draw(who, "stock"))
        t.play(Discard(who, t.state.hands[t.state.turn][-1]))
    assert order == ["Beto", "Ana", "Carla"]


def test_pagat_deal_clockwise_dealer_left_first_no_upcard(pagat: Ruleset) -> None:
    # rules.md §3: 11 cards each, clockwise, the player to the dealer's left starts, no up-card.
    t = Table.deal(pagat, PLAYERS, "Carla", seed=1)
    s = t.state
    assert [len(h) for h in s.hands] == [11, 11, 11] and s.pile == ()
    assert t.to_move == "Ana"
    assert rejected(t, Draw("Ana", "discard")) == "turn.discard_pile_take"  # the pile is empty
    t.play(Draw("Ana", "stock"))
    t.play(Discard("Ana", t.state.hands[0][0]))
    assert t.to_move == "Beto"


def test_deal_validation(menos: Ruleset, pagat: Ruleset) -> None:
    # The record's deal (issue 13): hands of exactly deal.cards, an up-card iff deal.upcard, and
    # hands + up-card + stock exactly the deck (rules.md §1: 2 x 52 + 4 Jokers).
    full = sorted(deck_cards(menos))
    hands = [full[0:9], full[9:18], full[18:27]]
    Table.from_deal(menos, PLAYERS, "Carla", hands, full[27], full[28:])
    with pytest.raises(DealRejected) as e:
        Table.from_deal(menos, PLAYERS, "Carla", [full[0:8], full[9:18], full[18:27]], full[27], full[28:])
    assert e.value.reasons[0].rule == "deal.cards"
    with pytest.raises(DealRejected) as e:
        Table.from_deal(menos, PLAYERS, "Carla", hands, None, full[27:])
    assert e.value.reasons[0].rule == "deal.upcard"
    with pytest.raises(DealRejected) as e:  # a third copy of a card, one card missing
        Table.from_deal(menos, PLAYERS, "Carla", hands, full[27], [full[0], *full[29:]])
    assert e.value.reasons[0].rule == "deck"
    pfull = sorted(deck_cards(pagat))
    with pytest.raises(DealRejected) as e:  # rules.md §3: no up-card
        Table.from_deal(pagat, PLAYERS, "Carla", [pfull[0:11], pfull[11:22], pfull[22:33]], pfull[33], pfull[34:])
    assert e.value.reasons[0].rule == "deal.upcard"


def test_turn_order_and_phases(menos: Ruleset) -> None:
    # rules.md §1: a turn is draw, then optionally meld and lay off, then discard.
    t = deal(menos, {"Beto": "7♠ 7♥ 7♦"}, upcard="K♣", stock_top="2♦")
    assert rejected(t, Draw("Ana", "stock")) == "turn.order"  # Beto's turn
    assert rejected(t, Discard("Beto", cards(menos, "7♠")[0])) == "turn.order"  # must draw first
    assert rejected(t, Meld("Beto", cards(menos, "7♠ 7♥ 7♦"))) == "turn.order"
    t.play(Draw("Beto", "stock"))
    assert rejected(t, Draw("Beto", "stock")) == "turn.order"  # drew already
    assert rejected(t, Meld("Beto", cards(menos, "8♠ 8♥ 8♦"))) == "cards.in_hand"
    assert rejected(t, Discard("Beto", cards(menos, "3♦")[0])) == "cards.in_hand"


def test_check_cites_the_ruleset_line(menos: Ruleset) -> None:
    # Each rejection names its key and the ruleset file:line (issue 13); menos sets lay_off at its line.
    t = deal(menos, {"Ana": "7♣ 8♣ 9♣", "Beto": "4♣ 5♣ 6♣ 3♣"}, upcard="K♣")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(menos, "4♣ 5♣ 6♣")))
    t.play(Discard("Beto", t.state.hands[1][-1]))
    t.play(Draw("Ana", "stock"))
    check = t.check(LayOff("Ana", 1, cards(menos, "7♣")))
    assert [r.rule for r in check.reasons] == ["turn.lay_off"]
    text = (Path(menos.files[0])).read_text(encoding="utf-8").splitlines()
    line = next(i for i, x in enumerate(text, 1) if x.strip().startswith("lay_off:"))
    assert check.reasons[0].where == f"rulesets/menos.yaml:{line}"


# ---------------------------------------------------------------- a whole menos round


def test_full_menos_round_with_scores(menos: Ruleset) -> None:
    # rules.md §1: Carla deals, Beto (her right) plays first, counter-clockwise; a meld may not take the
    # last card (a discard is required); the one who goes out scores 0, the others their hand's
    # penalty: Joker 25, Ace 15, J Q K 10, 2-10 face.
    t = deal(menos, {
        "Ana": "K♠ Q♥ J♦ A♣ 2♠ 3♥ 4♦ 5♠ JOKER",    # 10+10+10+15+2+3+4+5+25 = 84
        "Beto": "7♠ 7♥ 7♦ 4♣ 5♣ 6♣ 9♠ 9♥ 2♦",
        "Carla": "8♠ 8♥ 10♦ 10♣ 6♠ 6♥ 2♥ 3♦ A♠",   # 8+8+10+10+6+6+2+3+15 = 68
    }, upcard="K♣", stock_top="9♦ Q♣ J♣ 3♣")

    def c(text: str) -> tuple[int, ...]:
        return cards(menos, text)

    t.play(Draw("Beto", "stock"))                     # 9♦
    t.play(Meld("Beto", c("7♠ 7♥ 7♦")))
    t.play(Meld("Beto", c("4♣ 5♣ 6♣")))
    t.play(Discard("Beto", c("2♦")[0]))
    t.play(Draw("Ana", "stock"))                      # Q♣
    t.play(Discard("Ana", c("Q♣")[0]))
    t.play(Draw("Carla", "stock"))                    # J♣
    t.play(Discard("Carla", c("J♣")[0]))
    t.play(Draw("Beto", "stock"))                     # 3♣: hand 9♠ 9♥ 9♦ 3♣
    t.play(LayOff("Beto", 2, c("3♣")))                # 3♣ 4♣ 5♣ 6♣
    assert rejected(t, Meld("Beto", c("9♠ 9♥ 9♦"))) == "turn.going_out"  # nothing left to discard
    t.undo()                                          # a lay-off showed no hidden card
    assert t.state.melds[1].cards == c("4♣ 5♣ 6♣")
    t.play(Meld("Beto", c("9♠ 9♥ 9♦")))
    assert t.outcome() is None
    t.play(Discard("Beto", c("3♣")[0]))
    out = t.outcome()
    assert out is not None and out.went_out == "Beto" and not out.stock_out
    assert out.scores == {"Ana": 84, "Beto": 0, "Carla": 68}
    assert t.phase == "over"
    assert rejected(t, Draw("Ana", "stock")) == "turn.order"
    # rules.md §1: the next dealer is the player who went out; the dealer's right then starts.
    assert t.players[t.next_dealer()] == "Beto"
    with pytest.raises(UndoRefused):
        Table.deal(menos, PLAYERS, "Carla", seed=2).undo()


def test_undo_refused_after_a_stock_draw(menos: Ruleset) -> None:
    # issue 13: undo is refused past a card that revealed information (a stock draw).
    t = deal(menos, {}, upcard="K♣")
    t.play(Draw("Beto", "stock"))
    with pytest.raises(UndoRefused):
        t.undo()
    before = t.state
    t.play(Discard("Beto", t.state.hands[1][0]))
    t.undo()
    assert t.state == before


# ---------------------------------------------------------------- turn.discard_pile_take, rediscard_single


def test_discard_pile_top_card_or_whole_pile(menos: Ruleset, house: Callable[[str], Ruleset]) -> None:
    # rules.md §1: only the top card of the pile; §3: the whole pile (the pozo).
    for rs, taken in ((menos, 1), (house("extends: menos\nturn: {discard_pile_take: whole_pile}\n"), 3)):
        t = deal(rs, {}, upcard="K♣")
        for who in ("Beto", "Ana"):
            t.play(Draw(who, "stock"))
            t.play(Discard(who, t.state.hands[t.state.turn][0]))
        pile = t.state.pile
        assert len(pile) == 3
        t.play(Draw("Carla", "discard"))
        assert len(t.state.hands[2]) == 9 + taken
        assert Counter(t.state.hands[2]) - Counter(deal(rs, {}, upcard="K♣").state.hands[2]) == Counter(pile[:taken])
        assert t.state.pile == pile[taken:]


def test_rediscard_single(menos: Ruleset, house: Callable[[str], Ruleset]) -> None:
    # rules.md §3: a player who took a one-card pile may not discard that card (the other copy is fine);
    # Loba de Menos is silent, so it is allowed there (schema default).
    t = deal(menos, {}, upcard="K♣")
    t.play(Draw("Beto", "discard"))
    t.play(Discard("Beto", cards(menos, "K♣")[0]))
    strict = house("extends: menos\nturn: {rediscard_single: forbidden}\n")
    t = deal(strict, {}, upcard="4♣")
    t.play(Draw("Beto", "discard"))
    assert rejected(t, Discard("Beto", cards(strict, "4♣")[0])) == "turn.rediscard_single"
    t2 = deal(strict, {"Beto": "4♣"}, upcard="4♣")  # Beto holds the other copy
    t2.play(Draw("Beto", "discard"))
    t2.play(Discard("Beto", cards(strict, "4♣")[0]))


# ---------------------------------------------------------------- turn.lay_off, lay_off_after_first_meld


def _two_melds(rs: Ruleset, who_lays: str = "Ana") -> Table:
    """Beto melds 4♣ 5♣ 6♣ on turn 1; then Ana (who holds 7♣ and maybe a pierna) is to play."""
    t = deal(rs, {"Beto": "4♣ 5♣ 6♣", "Ana": "7♣ 8♠ 8♥ 8♦"}, upcard="K♣")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(rs, "4♣ 5♣ 6♣")))
    t.play(Discard("Beto", t.state.hands[1][0]))
    t.play(Draw(who_lays, "stock"))
    return t


def test_lay_off_own_any_none(menos: Ruleset, house: Callable[[str], Ruleset]) -> None:
    # rules.md §1: lay-offs only onto your own melds; §6 (pagat's Menos): onto anyone's; chinchón: none.
    t = _two_melds(menos)
    t.play(Meld("Ana", cards(menos, "8♠ 8♥ 8♦")))
    assert rejected(t, LayOff("Ana", 1, cards(menos, "7♣"))) == "turn.lay_off"
    anyone = house("extends: menos\nturn: {lay_off: any_melds}\n")
    t = _two_melds(anyone)
    t.play(Meld("Ana", cards(anyone, "8♠ 8♥ 8♦")))
    t.play(LayOff("Ana", 1, cards(anyone, "7♣")))
    assert t.state.melds[0].cards == cards(anyone, "4♣ 5♣ 6♣ 7♣") and t.state.melds[0].owner == 1
    never = house("extends: menos\nturn: {lay_off: none}\n")
    t = _two_melds(never)
    assert rejected(t, LayOff("Ana", 1, cards(never, "7♣"))) == "turn.lay_off"


def test_lay_off_after_first_meld(house: Callable[[str], Ruleset]) -> None:
    # rules.md §1: lay off only after your first meld; a house may drop that (with anyone's melds).
    after = house("extends: menos\nturn: {lay_off: any_melds, lay_off_after_first_meld: true}\n")
    t = _two_melds(after)
    assert rejected(t, LayOff("Ana", 1, cards(after, "7♣"))) == "turn.lay_off_after_first_meld"
    free = house("extends: menos\nturn: {lay_off: any_melds, lay_off_after_first_meld: false}\n")
    t = _two_melds(free)
    t.play(LayOff("Ana", 1, cards(free, "7♣")))


def test_lay_off_never_moves_a_wild(menos: Ruleset) -> None:
    # issue 13 / rules.md §1 (joker_replacement off, no wild moves): 4♣ JOKER 6♣ reads the Joker as 5♣;
    # laying off 5♣ would push it to 3♣ or 7♣, which is illegal; 7♣ extends the run with the Joker kept.
    t = deal(menos, {"Beto": "4♣ JOKER 6♣ 5♣ 7♣"}, upcard="K♣")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(menos, "4♣ JOKER 6♣")))
    m = t.state.melds[0]
    assert m.stands == cards(menos, "4♣ 5♣ 6♣") and m.wild == (False, True, False)
    assert rejected(t, LayOff("Beto", 1, cards(menos, "5♣"))) == "turn.wild_move"
    t.play(LayOff("Beto", 1, cards(menos, "7♣")))
    assert t.state.melds[0].stands == cards(menos, "4♣ 5♣ 6♣ 7♣")


def test_meld_as_names_the_wild(menos: Ruleset) -> None:
    # issue 13: "as" says what each wild stands for; 5♣ 6♣ JOKER may be 4♣-6♣ or 5♣-7♣ (ace low, rules.md §1).
    t = deal(menos, {"Beto": "5♣ 6♣ JOKER"}, upcard="K♣")
    t.play(Draw("Beto", "stock"))
    assert rejected(t, Meld("Beto", cards(menos, "5♣ 6♣ JOKER"), cards(menos, "9♣"))) == "melds.escalera"
    assert rejected(t, Meld("Beto", cards(menos, "5♣ 6♣ JOKER"), cards(menos, "4♣ 7♣"))) == "wilds.cards"
    t.play(Meld("Beto", cards(menos, "5♣ 6♣ JOKER"), cards(menos, "4♣")))
    assert t.state.melds[0].stands == cards(menos, "4♣ 5♣ 6♣")


def test_illegal_meld_names_the_shape(menos: Ruleset) -> None:
    # rules.md §1: a pierna never takes a wild; an escalera is one suit in sequence.
    t = deal(menos, {"Beto": "7♠ 7♥ JOKER 4♣ 5♥ 6♣"}, upcard="K♣")
    t.play(Draw("Beto", "stock"))
    assert rejected(t, Meld("Beto", cards(menos, "7♠ 7♥ JOKER"))).startswith("melds.")
    assert rejected(t, Meld("Beto", cards(menos, "4♣ 5♥ 6♣"))).startswith("melds.")


# ---------------------------------------------------------------- joker_replacement, wild_move


def test_joker_replacement_off_and_on(menos: Ruleset, house: Callable[[str], Ruleset]) -> None:
    # rules.md §1: an optional house rule, off by default: the owner replaces the Joker with the natural
    # card it stands for and the Joker goes to hand.
    for rs, allowed in ((menos, False), (house("extends: menos\nturn: {joker_replacement: true}\n"), True)):
        t = deal(rs, {"Beto": "4♣ JOKER 6♣ 5♣"}, upcard="K♣")
        t.play(Draw("Beto", "stock"))
        t.play(Meld("Beto", cards(rs, "4♣ JOKER 6♣")))
        move = ReplaceJoker("Beto", 1, cards(rs, "5♣")[0])
        if not allowed:
            assert rejected(t, move) == "turn.joker_replacement"
            continue
        assert rejected(t, ReplaceJoker("Beto", 1, cards(rs, "K♠")[0])) in ("cards.in_hand", "turn.joker_replacement")
        t.play(move)
        assert t.state.melds[0].cards == cards(rs, "4♣ 5♣ 6♣") and not any(t.state.melds[0].wild)
        assert rs.deck.joker_code in t.state.hands[1]


def test_use_replaced_joker(house: Callable[[str], Ruleset]) -> None:
    # New setting (schema turn.use_replaced_joker): the Joker taken back must be put down that turn.
    for flag in (False, True):
        rs = house(f"extends: menos\nturn: {{joker_replacement: true, use_replaced_joker: {str(flag).lower()}}}\n")
        t = deal(rs, {"Beto": "4♣ JOKER 6♣ 5♣ 8♥ 9♥"}, upcard="K♣", stock_top="2♦")
        t.play(Draw("Beto", "stock"))
        t.play(Meld("Beto", cards(rs, "4♣ JOKER 6♣")))
        t.play(ReplaceJoker("Beto", 1, cards(rs, "5♣")[0]))
        discard = Discard("Beto", cards(rs, "2♦")[0])
        if flag:
            assert rejected(t, discard) == "turn.use_replaced_joker"
            t.play(Meld("Beto", cards(rs, "8♥ 9♥ JOKER")))
        t.play(discard)


def test_wild_move_ends(pagat: Ruleset, menos: Ruleset) -> None:
    # rules.md §3: a wild at an end of an escalera may move to the other end; one in the middle is fixed.
    # Loba de Menos moves no wild (wild_move: none).
    t = deal(pagat, {"Ana": "JOKER 5♣ 6♣ 4♣ 8♥ 9♥ JOKER 10♥"})
    t.play(Draw("Ana", "stock"))
    t.play(Meld("Ana", cards(pagat, "JOKER 5♣ 6♣"), cards(pagat, "4♣")))
    assert rejected(t, LayOff("Ana", 1, cards(pagat, "4♣"))) == "turn.wild_move"
    assert rejected(t, MoveWild("Ana", 1, "low")) == "turn.wild_move"  # no wild at the high end
    t.play(MoveWild("Ana", 1, "high"))
    assert t.state.melds[0].stands == cards(pagat, "5♣ 6♣ 7♣")
    t.play(LayOff("Ana", 1, cards(pagat, "4♣")))
    assert t.state.melds[0].stands == cards(pagat, "4♣ 5♣ 6♣ 7♣")
    t.play(Meld("Ana", cards(pagat, "8♥ JOKER 10♥")))
    assert rejected(t, MoveWild("Ana", 2, "high")) == "turn.wild_move"  # a wild in the middle is fixed
    m = deal(menos, {"Beto": "JOKER 5♣ 6♣"}, upcard="K♣")
    m.play(Draw("Beto", "stock"))
    m.play(Meld("Beto", cards(menos, "JOKER 5♣ 6♣"), cards(menos, "4♣")))
    assert rejected(m, MoveWild("Beto", 1, "high")) == "turn.wild_move"


def test_pagat_round_whole_pozo_and_wild_moved(pagat: Ruleset) -> None:
    # rules.md §3: Carla deals, Ana (her left) starts, clockwise; Carla takes the whole pozo; she melds
    # an escalera with a wild at its low end and moves it to the high end.
    t = deal(pagat, {"Carla": "JOKER 5♣ 6♣ 4♣"}, stock_top="9♦ 8♦")
    t.play(Draw("Ana", "stock"))
    t.play(Discard("Ana", cards(pagat, "9♦")[0]))
    t.play(Draw("Beto", "stock"))
    t.play(Discard("Beto", cards(pagat, "8♦")[0]))
    t.play(Draw("Carla", "discard"))
    assert len(t.state.hands[2]) == 13 and t.state.pile == ()
    assert Counter(cards(pagat, "9♦ 8♦")) <= Counter(t.state.hands[2])
    t.play(Meld("Carla", cards(pagat, "JOKER 5♣ 6♣"), cards(pagat, "4♣")))
    t.play(MoveWild("Carla", 1, "high"))
    t.play(LayOff("Carla", 1, cards(pagat, "4♣")))
    assert t.state.melds[0].stands == cards(pagat, "4♣ 5♣ 6♣ 7♣")
    t.play(Discard("Carla", cards(pagat, "9♦")[0]))
    assert t.to_move == "Ana"


# ---------------------------------------------------------------- going out


def test_going_out_discard_optional_all_at_once(pagat: Ruleset, house: Callable[[str], Ruleset]) -> None:
    # rules.md §3: go out by putting everything down (no discard needed); all at once, having put nothing
    # down before: +5 x players instead of +5.  Meld points (seed 003 table): natural K Q J 10 9 8 = 2,
    # 7..3 = 1, an ace in a pierna 3.
    hand = "K♠ Q♠ J♠ 3♥ 4♥ 5♥ A♠ A♥ A♦ 7♦ 8♦"
    t = deal(pagat, {"Ana": hand}, stock_top="9♦")
    t.play(Draw("Ana", "stock"))
    for meld in ("K♠ Q♠ J♠", "3♥ 4♥ 5♥", "A♠ A♥ A♦"):
        t.play(Meld("Ana", cards(pagat, meld)))
    t.play(Meld("Ana", cards(pagat, "7♦ 8♦ 9♦")))
    out = t.outcome()
    assert out is not None and out.went_out == "Ana"
    # K Q J: 6; 3 4 5: 3; A A A in a pierna: 9; 7 8 9: 1+2+2 = 5 -> 23; +5 x 3 players = 38.
    assert out.scores["Ana"] == 23 + 15
    late = house("extends: mas-pagat\nturn: {go_out_on_first_lay_down: false}\n")
    t = deal(late, {"Ana": hand}, stock_top="9♦")
    t.play(Draw("Ana", "stock"))
    for meld in ("K♠ Q♠ J♠", "3♥ 4♥ 5♥", "A♠ A♥ A♦"):
        t.play(Meld("Ana", cards(late, meld)))
    assert rejected(t, Meld("Ana", cards(late, "7♦ 8♦ 9♦"))) == "turn.go_out_on_first_lay_down"


def test_going_out_one_card_left(menos: Ruleset, house: Callable[[str], Ruleset]) -> None:
    # rules.md §4 (chinchón): a player may close keeping one unmatched card, which is counted; Loba de
    # Menos needs the hand empty after the final discard (rules.md §1).
    hand = {"Beto": "7♠ 7♥ 7♦ 7♣ 3♦ 4♦ 5♦ 6♦ K♠"}
    for rs, out in ((menos, False), (house("extends: menos\nturn: {going_out: one_card_left}\n"), True)):
        t = deal(rs, hand, upcard="K♣", stock_top="2♥")
        t.play(Draw("Beto", "stock"))
        for meld in ("7♠ 7♥ 7♦ 7♣", "3♦ 4♦ 5♦ 6♦"):
            t.play(Meld("Beto", cards(rs, meld)))
        t.play(Discard("Beto", cards(rs, "2♥")[0]))  # keeps K♠
        result = t.outcome()
        if not out:
            assert result is None and t.to_move == "Ana"
            continue
        assert result is not None and result.went_out == "Beto"
        assert result.scores["Beto"] == 0  # menos's formula: went_out ? 0 : penalty(hand)


# ---------------------------------------------------------------- the stock running out


def _run_stock_down(t: Table) -> None:
    while t.state.stock:
        who = t.to_move
        assert who is not None
        t.play(Draw(who, "stock"))
        t.play(Discard(who, t.state.hands[t.state.turn][-1]))
        if t.outcome() is not None:
            return


def test_stock_exhausted_reshuffle(menos: Ruleset) -> None:
    # rules.md §1 (our decision): reshuffle the discard pile except its top card into a new stock; the
    # record states the new stock as a reshuffle entry before the next stock draw.
    t = deal(menos, {}, upcard="K♣")
    _run_stock_down(t)
    assert t.outcome() is None and not t.state.stock
    who = t.to_move
    assert who is not None
    assert rejected(t, Draw(who, "stock")) == "turn.stock_exhausted"
    pile = t.state.pile
    assert rejected(t, Reshuffle(pile)) == "turn.stock_exhausted"  # the top card stays
    t.play(Reshuffle(tuple(reversed(pile[1:]))))
    assert t.state.pile == pile[:1] and len(t.state.stock) == len(pile) - 1
    t.play(Draw(who, "stock"))
    # A seeded table does the dealer's part itself, and its record says so.
    s = Table.deal(menos, PLAYERS, "Carla", seed=5)
    _run_stock_down(s)
    who = s.to_move
    assert who is not None
    s.play(Draw(who, "stock"))
    assert [m["op"] for m in s.record()["rounds"][0]["moves"][-2:]] == ["reshuffle", "draw"]


def test_stock_exhausted_end_round(pagat: Ruleset) -> None:
    # rules.md §3: the round ends when the player who took the last stock card discards; nobody gets
    # the going-out bonus.  Hand points (subtracted): A 3, K-8 2, 7-3 1.
    t = deal(pagat, {"Ana": "K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠",     # 6 x 2 + 5 x 1 = 17
                     "Beto": "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥",    # 3 + 12 + 4 = 19
                     "Carla": "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦"})  # 19
    _run_stock_down(t)
    out = t.outcome()
    assert out is not None and out.stock_out and out.went_out is None
    assert out.scores == {"Ana": -17, "Beto": -19, "Carla": -19}


# ---------------------------------------------------------------- requirements


def test_bazas_opening_under_and_over_50() -> None:
    # rules.md §4 bazas: the first lay-down (everything put down that first turn) must be worth 50,
    # counted with §1's values: 7 7 7 = 21 is short; with K K K (30) it is 51.
    rs = load("bazas")
    t = deal(rs, {"Beto": "7♠ 7♥ 7♦ K♠ K♥ K♦"}, upcard="2♣")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(rs, "7♠ 7♥ 7♦")))
    t.play(Meld("Beto", cards(rs, "K♠ K♥ K♦")))
    t.play(Discard("Beto", t.state.hands[1][0]))
    assert 1 in t.state.opened
    # Short of 50, the discard takes the lay-down back to the hand (the referee's decision, docs/rules.md
    # bazas, as Canasta takes back an insufficient meld): Beto has not opened and holds 9 cards again.
    short = deal(rs, {"Beto": "7♠ 7♥ 7♦ K♠ K♥ K♦"}, upcard="2♣")
    short.play(Draw("Beto", "stock"))
    short.play(Meld("Beto", cards(rs, "7♠ 7♥ 7♦")))
    events = short.play(Discard("Beto", short.state.hands[1][0]))
    back = [e for e in events if e.kind == "took_back"]
    assert back and sorted(back[0].cards) == sorted(cards(rs, "7♠ 7♥ 7♦")) and "requirements.opening" in back[0].why
    assert short.state.melds == () and 1 not in short.state.opened and len(short.state.hands[1]) == 9


def test_contrato_round_one_two_piernas() -> None:
    # rules.md §4 contrato: round 1's contract is 2 piernas, put down complete, at once, before any other.
    rs = load("contrato")
    t = deal(rs, {"Beto": "7♠ 7♥ 7♦ K♠ K♥ K♦ 4♣ 5♣ 6♣"}, upcard="2♣")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(rs, "7♠ 7♥ 7♦")))
    t.play(Meld("Beto", cards(rs, "4♣ 5♣ 6♣")))
    t.undo()
    t.play(Meld("Beto", cards(rs, "K♠ K♥ K♦")))
    t.play(Discard("Beto", cards(rs, "4♣")[0]))
    assert 1 in t.state.opened and len(t.state.melds) == 2
    # pierna + escalera is not "2 pierna": the discard takes the lay-down back (docs/rules.md contrato).
    short = deal(rs, {"Beto": "7♠ 7♥ 7♦ K♠ K♥ K♦ 4♣ 5♣ 6♣"}, upcard="2♣")
    short.play(Draw("Beto", "stock"))
    short.play(Meld("Beto", cards(rs, "7♠ 7♥ 7♦")))
    short.play(Meld("Beto", cards(rs, "4♣ 5♣ 6♣")))
    events = short.play(Discard("Beto", cards(rs, "K♠")[0]))
    assert any(e.kind == "took_back" and "requirements.contracts" in e.why for e in events)
    assert short.state.melds == () and 1 not in short.state.opened


# ---------------------------------------------------------------- the new settings


def test_use_pile_card(menos: Ruleset, house: Callable[[str], Ruleset]) -> None:
    # New setting (schema turn.use_pile_card, bellaonline's rummy rules): the card taken from the pile
    # must go into a meld or lay-off that turn.  Off in menos (rules.md §1 is silent).
    for rs, strict in ((menos, False), (house("extends: menos\nturn: {use_pile_card: true}\n"), True)):
        t = deal(rs, {"Beto": "7♠ 7♥ 2♦"}, upcard="7♦")
        t.play(Draw("Beto", "discard"))
        discard = Discard("Beto", cards(rs, "2♦")[0])
        if strict:
            assert rejected(t, discard) == "turn.use_pile_card"
            t.play(Meld("Beto", cards(rs, "7♠ 7♥ 7♦")))
        t.play(discard)


def test_discard_joker(menos: Ruleset, house: Callable[[str], Ruleset]) -> None:
    # New setting (schema turn.discard_joker): a house may forbid discarding a Joker; the seeds never do.
    for rs, allowed in ((menos, True), (house("extends: menos\nturn: {discard_joker: false}\n"), False)):
        t = deal(rs, {"Beto": "JOKER"}, upcard="K♣")
        t.play(Draw("Beto", "stock"))
        move = Discard("Beto", rs.deck.joker_code)
        if allowed:
            t.play(move)
        else:
            assert rejected(t, move) == "turn.discard_joker"


def test_go_out_on_first_lay_down_menos(menos: Ruleset, house: Callable[[str], Ruleset]) -> None:
    # New setting (schema turn.go_out_on_first_lay_down): default allowed (rules.md §1 does not forbid it).
    hand = {"Beto": "7♠ 7♥ 7♦ 4♣ 5♣ 6♣ 9♠ 9♥ 9♦"}
    for rs, allowed in ((menos, True), (house("extends: menos\nturn: {go_out_on_first_lay_down: false}\n"), False)):
        t = deal(rs, hand, upcard="K♣", stock_top="2♦")
        t.play(Draw("Beto", "stock"))
        for meld in ("7♠ 7♥ 7♦", "4♣ 5♣ 6♣"):
            t.play(Meld("Beto", cards(rs, meld)))
        last = Meld("Beto", cards(rs, "9♠ 9♥ 9♦"))  # leaves 2♦, whose discard would go out
        if allowed:
            t.play(last)
            t.play(Discard("Beto", cards(rs, "2♦")[0]))
            out = t.outcome()
            assert out is not None and out.went_out == "Beto"
        else:  # refused where the turn could then only end by going out (rules.md §1)
            assert rejected(t, last) == "turn.go_out_on_first_lay_down"


# ---------------------------------------------------------------- next dealer, two rounds


def test_next_dealer_went_out_or_rotate(menos: Ruleset, pagat: Ruleset) -> None:
    # rules.md §1: the player who went out deals next; the pagat form rotates the deal (clockwise: the
    # next in the list).
    t = deal(menos, {"Ana": "7♠ 7♥ 7♦ 4♣ 5♣ 6♣ 9♠ 9♥ 9♦"}, upcard="K♣", stock_top="2♦ 3♦ 2♠", dealer="Beto")
    # Beto deals, his right (Ana) starts.
    t.play(Draw("Ana", "stock"))
    for meld in ("7♠ 7♥ 7♦", "4♣ 5♣ 6♣", "9♠ 9♥ 9♦"):
        t.play(Meld("Ana", cards(menos, meld)))
    t.play(Discard("Ana", cards(menos, "2♦")[0]))
    assert t.players[t.next_dealer()] == "Ana"
    p = deal(pagat, {}, dealer="Carla")
    _run_stock_down(p)
    assert p.outcome() is not None and p.players[p.next_dealer()] == "Ana"


def test_meld_reading_is_the_one_check_shows(pagat: Ruleset) -> None:
    # issue 13: without "as" a meld reads as `loba check` shows it.  Seed 003 scores a meld by its best
    # reading: A♣ 2♣ JOKER is worth most as Q♣ K♣ A♣ (three cards worth 3 each, rules.md §3), with the
    # 2♣ wild.  Laying off J♣ keeps those roles; 3♣ would need the 2♣ to turn natural (a wild moved).
    from loba_dsl.melds.check import check

    t = deal(pagat, {"Ana": "A♣ 2♣ JOKER J♣ 3♣"})
    t.play(Draw("Ana", "stock"))
    t.play(Meld("Ana", cards(pagat, "A♣ 2♣ JOKER")))
    shown = check("A♣ 2♣ JOKER", pagat).reading_names()
    assert shown == ["Q♣", "K♣", "A♣"]
    assert pagat.deck.names_of(t.state.melds[0].stands) == shown
    assert rejected(t, LayOff("Ana", 1, cards(pagat, "3♣"))) == "turn.wild_move"
    t.play(LayOff("Ana", 1, cards(pagat, "J♣")))
    assert pagat.deck.names_of(t.state.melds[0].stands) == ["J♣", "Q♣", "K♣", "A♣"]


def test_lay_off_before_the_opening(house: Callable[[str], Ruleset]) -> None:
    # rules.md §4 bazas: the first lay-down must reach 50; a house that lets anyone lay off anywhere
    # still counts a lay-off onto another's meld as putting down before the opening: refused.
    rs = house("extends: bazas\nturn: {lay_off: any_melds, lay_off_after_first_meld: false}\n")
    t = deal(rs, {"Beto": "K♠ K♥ K♦ Q♠ Q♥ Q♦", "Ana": "K♣"}, upcard="2♣", stock_top="3♦ 4♦")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(rs, "K♠ K♥ K♦")))
    t.play(Meld("Beto", cards(rs, "Q♠ Q♥ Q♦")))  # 30 + 30 = 60: reaches 50
    t.play(Discard("Beto", cards(rs, "3♦")[0]))
    t.play(Draw("Ana", "stock"))
    assert rejected(t, LayOff("Ana", 1, cards(rs, "K♣"))) == "requirements.opening"
    free = house("extends: menos\nturn: {lay_off: any_melds, lay_off_after_first_meld: false}\n")
    t = deal(free, {"Beto": "K♠ K♥ K♦", "Ana": "K♣"}, upcard="2♣", stock_top="3♦ 4♦")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(free, "K♠ K♥ K♦")))
    t.play(Discard("Beto", cards(free, "3♦")[0]))
    t.play(Draw("Ana", "stock"))
    t.play(LayOff("Ana", 1, cards(free, "K♣")))  # no opening minimum: allowed


def test_too_few_players(menos: Ruleset) -> None:
    # rules.md §1: 2 to 5 players.
    with pytest.raises(DealRejected) as e:
        Table.deal(menos, ("Ana",), "Ana", seed=1)
    assert e.value.reasons[0].rule == "players.count"


def test_contrato_round_to_its_end() -> None:
    # rules.md §4 contrato (scored as Menos, rules.md §1): round 1's contract is 2 piernas; once it is
    # down, other melds follow.  Penalties: Joker 25, A 15, J Q K 10, 2-10 face.
    rs = load("contrato")
    t = deal(rs, {"Ana": "A♠ A♥ 2♣ 3♣ 9♦ 10♦ J♠ Q♠ JOKER",      # 15+15+2+3+9+10+10+10+25 = 99
                  "Beto": "7♠ 7♥ 7♦ K♠ K♥ K♦ 4♣ 5♣ 6♣",
                  "Carla": "2♠ 3♠ 4♠ 8♥ 9♥ 10♥ 5♦ 6♦ 8♣"},    # 2+3+4+8+9+10+5+6+8 = 55
             upcard="2♥", stock_top="2♦ Q♣ J♣ 3♦")
    c = rs.notation().parse_codes
    assert rejected(t, Draw("Ana", "stock")) == "turn.order"
    t.play(Draw("Beto", "stock"))
    assert rejected(t, Meld("Beto", c("4♣ 5♣ 6♣ 2♦"))).startswith("melds.")
    t.play(Meld("Beto", c("7♠ 7♥ 7♦")))
    t.play(Meld("Beto", c("K♠ K♥ K♦")))
    t.play(Discard("Beto", c("2♦")[0]))
    for who, card in (("Ana", "Q♣"), ("Carla", "J♣")):
        t.play(Draw(who, "stock"))
        t.play(Discard(who, c(card)[0]))
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", c("4♣ 5♣ 6♣")))  # the contract is down: an escalera may follow
    t.play(Discard("Beto", c("3♦")[0]))
    out = t.outcome()
    assert out is not None and out.went_out == "Beto"
    assert out.scores == {"Ana": 99, "Beto": 0, "Carla": 55}


def test_a_deck_too_small_for_the_deal_is_a_rejected_deal_not_a_crash() -> None:
    # Chinchón's Spanish deck is 40 cards (rules.md §4); a house that seats up to eight and deals seven each
    # cannot deal six players: 6 x 7 + the up-card = 43 cards.  Said as a rejected deal, naming deal.cards.
    rs = loads("name: h\nextends: chinchon\nplayers: {max: 8}\ndeal: {cards: 7}\n", source="h.yaml")
    with pytest.raises(DealRejected) as caught:
        Table.deal(rs, ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede"], "Fede", seed=1)
    assert "need 43 cards, but the deck has 40" in caught.value.message
    assert "deal.cards" in caught.value.message
