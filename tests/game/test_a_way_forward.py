"""A legal move never leaves a round with no legal move.

docs/rules.md bazas (an opening minimum of 50, everything put down in the first turn) and contrato (the
round's contract): a first lay-down is judged when the turn ends, and one that falls short goes back to the
player's hand with the discard (the referee's decision, as Canasta takes back an insufficient meld), so a
player who put down too little can always end the turn.  The property: in random play (no take-backs by
``undo``: a sealed game has none) under every shipped ruleset and some house rulesets, ``legal()`` is never
empty while the round is on.
"""

from __future__ import annotations

import random

import pytest
from house_rulesets import (
    CONTRACT_IN_PARTS,
    CONTRACT_LOOSE,
    OPEN_TABLE,
    OTHERS_FIRST,
    THREE_WILD_CLASSES,
    WHOLE_PILE_OPENING,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_deals import cards, deal

from loba_dsl.game import Discard, Draw, Meld, Table
from loba_dsl.game.simulate import PUT_DOWN
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset

NAMES = ("Ana", "Beto", "Carla", "Dora", "Eva")

HOUSES = {
    "open-table": OPEN_TABLE,
    "three-wild-classes": THREE_WILD_CLASSES,
    # bazas taking the whole pile, going out with one card left, no reshuffle
    "bazas-whole-pile": "extends: bazas\nname: h-bazas-pile\nturn: {discard_pile_take: whole_pile, "
                        "going_out: one_card_left, stock_exhausted: end_round}\n",
    # contrato with other melds beside the contract, anyone's melds open to lay-offs
    "contrato-open": "extends: contrato\nname: h-contrato-open\nrequirements:\n  contracts: "
                     "{other_melds_same_turn: true}\nturn: {lay_off: any_melds}\n",
    # contrato over several turns, other melds and lay-offs before the contract (rules.md §4)
    "contract-in-parts": CONTRACT_IN_PARTS,
    "others-first": OTHERS_FIRST,
    "contract-loose": CONTRACT_LOOSE,
    # the card taken from the pile put down that turn (turn.use_pile_card), with bazas's minimum (the whole
    # pile taken, or its top card) or contrato's contract, and without a requirement
    "whole-pile-opening": WHOLE_PILE_OPENING,
    "bazas-pile-card": "extends: bazas\nname: h-bazas-pile-card\nturn: {use_pile_card: true}\n",
    "contrato-pile-card": "extends: contrato\nname: h-contrato-pile-card\nturn: {use_pile_card: true}\n",
    "menos-pile-card": "extends: menos\nname: h-menos-pile-card\nturn: {use_pile_card: true}\n",
}


def rulesets() -> list[tuple[str, Ruleset]]:
    out = [(name, load(name)) for name in shipped_names()]
    out.extend((name, loads(text, source=f"{name}.yaml")) for name, text in HOUSES.items())
    return out


RULESETS = rulesets()


def test_a_short_first_lay_down_can_still_end_the_turn() -> None:
    # docs/rules.md bazas: the first lay-down must be worth 50; A♠ A♥ A♦ is worth 45 (an ace 15, §1).  After
    # it Beto may still discard: the discard is listed, accepted, and takes the three aces back to his hand.
    rs = load("bazas")
    t = deal(rs, {"Beto": "A♠ A♥ A♦ 4♣ 9♦"}, upcard="2♣", stock_top="6♥")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(rs, "A♠ A♥ A♦")))
    discard = Discard("Beto", cards(rs, "9♦")[0])
    assert discard in list(t.legal())
    events = t.play(discard)
    back = [e for e in events if e.kind == "took_back"]
    assert back and "requirements.opening" in back[0].why
    assert t.state.melds == () and sorted(cards(rs, "A♠ A♥ A♦")) == sorted(
        c for c in t.state.hands[1] if c in cards(rs, "A♠ A♥ A♦"))
    assert t.state.to_move == "Ana"
    from loba_dsl.game.notation import format_event

    assert format_event(back[0], rs) == "Beto took A♠ A♥ A♦ back: the first lay-down fell short"
    assert format_event(back[0], rs, "es").startswith("Beto levantó")


@pytest.mark.parametrize(("name", "rs"), RULESETS, ids=[n for n, _ in RULESETS])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(2, 5))
def test_legal_is_never_empty_while_the_round_is_on(name: str, rs: Ruleset, seed: int, n: int) -> None:
    n = max(rs.players.min, min(n, rs.players.max))
    t = Table.deal(rs, NAMES[:n], NAMES[seed % n], seed)
    rng = random.Random(seed)
    for _ in range(250):
        if t.outcome() is not None:
            return
        moves = list(t.legal())
        assert moves, f"{t.state.to_move} has no legal move at ply {t.state.ply} (seed {seed})"
        puts = [m for m in moves if m.op in PUT_DOWN]
        t.play(rng.choice(puts) if puts and rng.random() < 0.9 else rng.choice(moves))


PILE_CARD = "extends: {base}\nname: h-{base}-pile-card\nturn: {{use_pile_card: true}}\n"
"""A house over ``base`` where the card taken from the discard pile must be put down that turn (rules.md §1)."""


def test_the_pile_is_taken_only_where_its_card_can_go_down() -> None:
    # rules.md §1 (turn.use_pile_card): the card taken from the pile must be put down that turn, so taking it
    # where no meld or lay-off could hold it would leave the turn no end: that draw is refused (and not
    # listed); with two 7s in hand the 7♦ can go down, and the draw is listed and accepted.
    rs = loads(PILE_CARD.format(base="menos"), source="<menos-pile-card>")
    t = deal(rs, {"Beto": "7♠ 2♦"}, upcard="7♦")  # the rest of the hand: high cards, no other 7, no diamond run
    take = Draw("Beto", "discard")
    assert take not in list(t.legal())
    assert not t.check(take).ok and t.check(take).reasons[0].rule == "turn.use_pile_card"
    t = deal(rs, {"Beto": "7♠ 7♥ 2♦"}, upcard="7♦")
    assert take in list(t.legal())
    t.play(take)


def test_a_short_lay_down_holding_the_pile_card_can_still_end_the_turn() -> None:
    # docs/rules.md bazas with the pile card put down that turn: Beto takes 7♦ and must put it down before
    # anything else (the meld of his kings first is refused); 7♠ 7♥ 7♦ is worth 21, short of the minimum of
    # 50 (§1's values), so the discard takes it back to his hand, and the turn ends: the pile card was put
    # down, the lay-down went back (before, the discard was refused for the pile card and nothing was legal).
    rs = loads(PILE_CARD.format(base="bazas"), source="<bazas-pile-card>")
    t = deal(rs, {"Beto": "7♠ 7♥ K♠ K♥ K♦ 2♦"}, upcard="7♦")
    t.play(Draw("Beto", "discard"))
    kings = Meld("Beto", cards(rs, "K♠ K♥ K♦"))
    assert kings not in list(t.legal())
    assert t.check(kings).reasons[0].rule == "turn.use_pile_card"
    t.play(Meld("Beto", cards(rs, "7♠ 7♥ 7♦")))
    discard = Discard("Beto", cards(rs, "2♦")[0])
    assert list(t.legal()) and discard in list(t.legal())
    events = t.play(discard)
    assert any(e.kind == "took_back" for e in events) and t.state.melds == ()
    assert t.state.to_move == "Ana"
