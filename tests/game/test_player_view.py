"""What a seat may see (``PlayerView``): its own hand, the others' hand sizes, the table, the pile, the stock's size.

A view never holds another seat's card: changing the cards hidden from a player (the other hands and the
stock, shuffled among themselves) changes nothing in that player's view.  rules.md §1: menos deals 9 cards
to each player and turns one up; the rest is the stock (108 - 4 x 9 - 1 = 71 at a table of four).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loba_dsl.game import Draw, PlayerView, Table
from loba_dsl.game.simulate import play_round
from loba_dsl.game.state import RoundState
from loba_dsl.game.view import build, turn_moves
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load

PLAYERS = ("Ana", "Beto", "Carla", "Dora")


def test_a_fresh_deal_seen_by_each_seat() -> None:
    rs = load("menos")
    t = Table.deal(rs, PLAYERS, "Dora", seed=11)
    for seat, p in enumerate(PLAYERS):
        v = t.view(p)
        assert isinstance(v, PlayerView) and v.player == p
        assert v.hand == t.state.hands[seat] and v.hand_sizes == (9, 9, 9, 9)  # rules.md §1: 9 each
        assert v.stock_size == 108 - 4 * 9 - 1 and len(v.pile) == 1  # the up-card starts the pile
        assert v.to_move == "Carla" and v.dealer == "Dora"  # the dealer's right plays first
        d = v.to_dict()
        assert d["hand_counts"] == dict.fromkeys(PLAYERS, 9) and d["stock_count"] == 71
    spectator = t.view(None)
    assert spectator.hand == () and spectator.player is None


def test_the_turn_so_far_hides_another_players_stock_card() -> None:
    rs = load("menos")
    t = Table.deal(rs, PLAYERS, "Dora", seed=11)
    card = t.state.stock[0]
    t.play(Draw("Carla", "stock", card))  # as a hand-dealt record states it
    assert t.view("Carla").turn == (Draw("Carla", "stock", card),)
    assert t.view("Ana").turn == (Draw("Carla", "stock"),)
    assert rs.deck.name(card) not in str(t.view("Ana").to_dict()["turn"])


def hide_and_shuffle(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """``state`` with every card hidden from ``seat`` (other hands, the stock) dealt again at random."""
    hidden = [c for i, h in enumerate(state.hands) if i != seat for c in h] + list(state.stock)
    rng.shuffle(hidden)
    hands, pos = [], 0
    for i, h in enumerate(state.hands):
        if i == seat:
            hands.append(h)
        else:
            hands.append(tuple(hidden[pos:pos + len(h)]))
            pos += len(h)
    return replace(state, hands=tuple(hands), stock=tuple(hidden[pos:]))


def views_ignore_hidden_cards(name: str, seed: int, plies: int) -> None:
    rs = load(name)
    n = max(rs.players.min, min(4, rs.players.max))
    t = Table.deal(rs, PLAYERS[:n], PLAYERS[n - 1], seed)
    play_round(t, random.Random(seed), max_plies=plies)
    log = t.rounds[-1]
    moves = turn_moves(log.moves, log.states)
    rng = random.Random(seed)
    for seat, p in enumerate(t.state.players):
        seen = build(rs, t.state, moves, p, 1)
        other = build(rs, hide_and_shuffle(t.state, seat, rng), moves, p, 1)
        assert seen == other and seen.to_dict() == other.to_dict()
        assert seen.hand == t.state.hands[seat]


@pytest.mark.parametrize("name", ["menos", "mas-pagat", "chinchon"])
def test_a_view_never_holds_another_seats_card(name: str) -> None:
    for seed in range(2):
        views_ignore_hidden_cards(name, seed, 30 + 30 * seed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(shipped_names()), seed=st.integers(0, 10**6), plies=st.integers(0, 120))
def test_a_view_never_holds_another_seats_card_property(name: str, seed: int, plies: int) -> None:
    views_ignore_hidden_cards(name, seed, plies)


def test_the_melds_on_the_table_as_json_each_view_its_own() -> None:
    """Every seat's view shows the same melds (rules.md §1: melds are laid face up), each card by its name and what
    it stands for; the JSON of one view is its own: changing it changes no other view's (the names are looked up
    once per tuple of melds, shared by the views)."""
    rs = load("menos")
    for seed in range(40):
        t = Table.deal(rs, PLAYERS, "Dora", seed)
        play_round(t, random.Random(seed), max_plies=120)
        if t.state.melds:
            break
    else:
        pytest.fail("no meld laid in 40 random rounds")
    first, second = t.view("Ana"), t.view("Beto")
    assert first.melds is second.melds  # shared: the case the names' cache serves
    for v in (first, second):
        got = v.to_dict()["melds"]
        assert got == [{"meld": m.number, "owner": m.owner, "kind": m.kind,
                        "cards": [rs.deck.name(c) for c in m.cards], "stands": [rs.deck.name(c) for c in m.stands],
                        "wild": list(m.wild)} for m in v.melds]
    mine = first.to_dict()["melds"]
    mine[0]["cards"].append("X")
    mine[0]["wild"].append(True)
    assert second.to_dict()["melds"][0]["cards"] == [rs.deck.name(c) for c in second.melds[0].cards]
    assert first.to_dict()["melds"][0]["wild"] == list(first.melds[0].wild)
