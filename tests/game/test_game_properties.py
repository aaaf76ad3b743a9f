"""Properties of the referee, under every shipped ruleset and the house rulesets of tests/house_rulesets.py,
from random seeded deals.

- no card is lost or duplicated: hands + pile + stock + table = the deck (rules.md §1: 2 x 52 + 4
  Jokers; each ruleset's own deck);
- every move ``legal()`` lists is accepted by ``play`` (multi-card lay-offs and melds of any number of wilds
  among them: tests/game/test_legal_moves_generated.py checks the listing against every move judged), and
  ``in legal()`` agrees with ``check``;
- a rejected move leaves the state unchanged;
- replaying a game's record reproduces the same states and scores;
- no view holds a card hidden from its player.

Bounded for CI (few examples, capped plies).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from house_rulesets import OPEN_TABLE, THREE_WILD_CLASSES, WHOLE_PILE_OPENING
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from loba_dsl.game import Discard, Draw, IllegalMove, LayOff, Meld, MoveWild, ReplaceJoker, Table
from loba_dsl.game.moves import Move
from loba_dsl.game.record import HIDDEN, dumps, loads
from loba_dsl.game.referee import deck_cards
from loba_dsl.game.replay import replay
from loba_dsl.game.simulate import PUT_DOWN
from loba_dsl.game.table import UndoRefused
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load
from loba_dsl.rules.loading import loads as load_text
from loba_dsl.rules.model import Ruleset

NAMES = ("Ana", "Beto", "Carla", "Dora", "Eva")
HOUSE = {"three-wild-classes": THREE_WILD_CLASSES, "open-table": OPEN_TABLE, "whole-pile-opening": WHOLE_PILE_OPENING}
RULESETS = (*shipped_names(), *HOUSE)
SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def table_for(rs: Ruleset, seed: int, n: int) -> Table:
    n = max(rs.players.min, min(n, rs.players.max))
    players = NAMES[:n]
    return Table.deal(rs, players, players[seed % n], seed)


def random_move(rs: Ruleset, t: Table, rng: random.Random) -> Move:
    """A move of any shape, mostly illegal: wrong player, cards not held, melds that are none."""
    player = rng.choice(t.players)
    codes = list(rs.deck.all_codes())
    some = tuple(rng.choice(codes) for _ in range(rng.randint(1, 4)))
    n = rng.randint(0, len(t.state.melds) + 1)
    options: list[Move] = [
        Draw(player, rng.choice(["stock", "discard"])), Meld(player, some), LayOff(player, n, some[:1]),
        ReplaceJoker(player, n, some[0]), MoveWild(player, n, rng.choice(["low", "high"])),
        Discard(player, some[0]),
    ]
    return rng.choice(options)


def play_checked(rs: Ruleset, t: Table, rng: random.Random, max_plies: int) -> None:
    """Random legal play, checking the properties after every move."""
    deck = Counter(deck_cards(rs))
    tabu: set[Move] = set()
    plies = 0
    while t.outcome() is None and plies < max_plies:
        legal = [m for m in t.legal() if m not in tabu]
        # A rejected move changes nothing.
        probe = random_move(rs, t, rng)
        before = t.state
        if not t.check(probe).ok:
            with pytest.raises(IllegalMove):
                t.play(probe)
            assert t.state is before
            assert probe not in t.legal()
        if not legal:
            try:
                tabu.add(t.undo())
            except UndoRefused:
                break
            continue
        puts = [m for m in legal if m.op in PUT_DOWN]
        move = rng.choice(puts) if puts and rng.random() < 0.8 else rng.choice(legal)
        assert move in t.legal() and t.check(move).ok
        turn = t.state.turn
        t.play(move)  # every listed move is accepted
        plies += 1
        if t.state.turn != turn:
            tabu.clear()
        assert Counter(t.state.all_cards()) == deck
        if rng.random() < 0.1:
            check_views(rs, t)


def check_views(rs: Ruleset, t: Table) -> None:
    s = t.state
    names = rs.deck.names
    for seat, p in enumerate(t.players):
        v = t.view(p).to_dict()
        assert v["hand"] == [names[c] for c in s.hands[seat]]
        assert set(v) >= {"round", "player", "to_move", "phase", "ply", "dealer", "hand", "hand_counts",
                          "stock_count", "pile", "melds", "opened", "outcome"}
        rv = t.record(view=p)
        for rnd in rv["rounds"]:
            for other, hand in rnd["deal"]["hands"].items():
                assert other == p or set(hand) <= {HIDDEN}
            assert set(rnd["deal"]["stock"]) <= {HIDDEN}
            for m in rnd["moves"]:
                if m["op"] == "reshuffle":
                    assert set(m["stock"]) <= {HIDDEN}
                if m["op"] == "draw" and m["player"] != p:
                    assert "card" not in m
        assert "seed" not in rv


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 10**6), n=st.integers(2, 5))
@example(seed=1, n=5)  # chinchón, 5 players: an empty stock mid-turn (found by Hypothesis)
def test_random_legal_play(name: str, seed: int, n: int) -> None:
    rs = load_text(HOUSE[name], source=f"<{name}>") if name in HOUSE else load(name)
    t = table_for(rs, seed, n)
    play_checked(rs, t, random.Random(seed), max_plies=150)
    # Replaying the record reproduces every state and the scores.
    rec = loads(dumps(t.record()), ruleset=rs)
    again = replay(rec)
    assert again.valid, again.error
    assert again.table is not None
    assert again.table.rounds[-1].states == t.rounds[-1].states
    assert [r.scores for r in again.rounds] == [r.scores for r in t.results]


@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_two_seeded_rounds_replay(seed: int) -> None:
    # rules.md §1: the player who went out deals the next round.
    rs = load("menos")
    t = table_for(rs, seed, 3)
    from loba_dsl.game.simulate import play_round

    rng = random.Random(seed)
    play_round(t, rng, max_plies=2000)
    out = t.outcome()
    if out is None:
        return
    if out.went_out is not None:
        assert t.players[t.next_dealer()] == out.went_out
    t.next_round()
    play_round(t, rng, max_plies=100)
    again = replay(loads(dumps(t.record()), ruleset=rs))
    assert again.valid and again.table is not None
    assert [r.states for r in again.table.rounds] == [r.states for r in t.rounds]
