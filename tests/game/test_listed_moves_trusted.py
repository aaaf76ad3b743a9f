"""Moves from ``Table.legal()`` are taken as listed; anything else is read and judged (issue 22, item 1).

A table vouches for the very move objects its listing of the current state gave (their cards are codes of
its deck), and for nothing else: an equal move made by the caller, or a listed move played after the state
moved on, goes through the referee as any move does (docs/rules.md §2: a turn is a draw, then melds and
lay-offs, then a discard).
"""

from __future__ import annotations

import random

import pytest

from loba_dsl.game import Table
from loba_dsl.game.moves import Discard, Draw, move_from_dict
from loba_dsl.game.referee import IllegalMove
from loba_dsl.game.simulate import play_round
from loba_dsl.rules.loading import load

PLAYERS = ["Ana", "Beto", "Carla", "Dora"]


def test_listed_moves_and_equal_moves_made_elsewhere_make_the_same_game() -> None:
    rs = load("menos")
    listed = Table.deal(rs, PLAYERS, "Dora", seed=11)
    play_round(listed, random.Random(11), max_plies=400)
    moves = listed.rounds[0].moves
    assert len(moves) > 50  # a round long enough to meet every kind of move random play makes
    rebuilt = Table.deal(rs, PLAYERS, "Dora", seed=11)
    for entry in listed.record()["rounds"][0]["moves"]:
        rebuilt.play(move_from_dict(rs, entry, PLAYERS))  # new objects, each read and judged
    assert rebuilt.state == listed.state
    assert rebuilt.digest == listed.digest
    assert rebuilt.record() == listed.record()


def test_a_listed_move_played_after_its_state_is_judged_again() -> None:
    t = Table.deal(load("menos"), PLAYERS, "Dora", seed=5)
    draws = [m for m in t.legal() if isinstance(m, Draw)]
    assert draws  # the first player must draw first (docs/rules.md §2)
    t.play(draws[0])
    with pytest.raises(IllegalMove) as refused:
        t.play(draws[0])  # listed, but in the state before: a second draw in one turn is refused
    assert refused.value.rule == "turn.order"


def test_a_move_given_by_name_after_a_listing_is_read_as_any_move() -> None:
    t = Table.deal(load("menos"), PLAYERS, "Dora", seed=5)
    list(t.legal())
    player = t.to_move
    assert player is not None
    t.play(Draw(player, "stock"))
    card = t.state.hands[t.state.turn][0]
    named = t.rs.deck.name(card)
    events = t.play(Discard(player, named))  # type: ignore[arg-type]  # a name, not a code: read, then judged
    assert events[0].kind == "discarded"
    assert t.state.pile[0] == card  # the card named is the one put on the pile
