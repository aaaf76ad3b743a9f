"""Bots never read hidden cards: given a view of a world whose hidden cards were all dealt again, a bot plays
the same moves.

At every decision of the bot under test, the other hands and the stock of the real table are gathered and
dealt again at random (every hand keeping its size, the stock its size): a different world that the seat
cannot tell from the real one.  Its view (built by the same code as :meth:`Table.view`) must equal the real
view (the view holds no hidden card), and a twin of the bot (the same generator, fed only the re-dealt
worlds' views all along) must choose the same move.  The test can fail: a view that carried any hidden card
would differ between the worlds, and a bot that reached past its view to the table would see the real
cards, not the twin's.  The bots package also imports nothing that holds the hidden cards (the table, the
match, records).
"""

from __future__ import annotations

import ast
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

import loba_dsl.bots
from loba_dsl.bots import make_bot
from loba_dsl.game.match import Match
from loba_dsl.game.moves import Move
from loba_dsl.game.players import Player
from loba_dsl.game.standings import ReentryOffer
from loba_dsl.game.state import RoundState
from loba_dsl.game.table import Table
from loba_dsl.game.view import PlayerView, build, turn_moves
from loba_dsl.rules.loading import load


def redealt(state: RoundState, seat: int, rng: random.Random) -> RoundState:
    """``state`` with every card ``seat`` cannot see (the other hands, the stock) dealt again."""
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


OPTIONS: dict[str, dict[str, int]] = {"search": {"samples": 3, "horizon": 3, "endgame": 0},
                                      "search-endgame": {"endgame": 7}}
"""Each search's options: a small budget of play-outs (the endgame lookahead off), and the endgame lookahead."""


class Twin:
    """The bot under test at the real table, with its twin shown only re-dealt worlds; both must agree."""

    def __init__(self, kind: str, table: Table, seed: int) -> None:
        self.real = make_bot(kind.split("-")[0], random.Random(seed), **OPTIONS.get(kind, {}))
        self.twin = make_bot(kind.split("-")[0], random.Random(seed), **OPTIONS.get(kind, {}))
        self.table = table
        self.rng = random.Random(seed + 1)
        self.decisions = 0
        self.worlds_differed = 0

    def move(self, view: PlayerView, legal: Sequence[Move]) -> Move:
        t = self.table
        s = t.state
        seat = s.players.index(view.player or "")
        other = redealt(s, seat, self.rng)
        if other.hands != s.hands or other.stock != s.stock:
            self.worlds_differed += 1
        log = t.rounds[-1]
        seen = build(t.rs, other, turn_moves(log.moves, log.states), view.player, t.round_number,
                     t.standings() if t.results else None, t.outcome())
        assert seen == view, "the view changed with the hidden cards"
        mine = self.real.move(view, legal)
        theirs = self.twin.move(seen, legal)
        assert mine == theirs, f"ply {view.ply}: {mine!r} at the real table, {theirs!r} in a re-dealt world"
        self.decisions += 1
        return mine

    def reenter(self, offer: ReentryOffer) -> bool:
        assert self.real.reenter(offer) == self.twin.reenter(offer)
        return True


@pytest.mark.parametrize("kind", ["random", "greedy", "search", "search-endgame"])
def test_a_bot_plays_the_same_moves_whatever_the_hidden_cards(kind: str) -> None:
    rs = load("menos")
    seats = ["Ana", "Beto", "Carla"]
    players: dict[str, Player] = {s: make_bot("greedy") for s in seats}
    m = Match.deal(rs, players, "Carla", seed=11)
    twin = Twin(kind, m.table, 7)
    m.players["Beto"] = twin
    m.play_round(max_plies=2_000)
    assert twin.decisions > 10 and twin.worlds_differed == twin.decisions


def test_the_hidden_cards_are_actually_dealt_again() -> None:
    # the re-deal keeps the seat's own hand and every size, and the deck's cards (a 108-card deck: rules.md §1)
    rs = load("menos")
    t = Table.deal(rs, ["Ana", "Beto", "Carla"], "Carla", seed=3)
    s = t.state
    other = redealt(s, 1, random.Random(1))
    assert other.hands[1] == s.hands[1]
    assert [len(h) for h in other.hands] == [len(h) for h in s.hands] and len(other.stock) == len(s.stock)
    assert Counter(other.all_cards()) == Counter(s.all_cards()) and sum(Counter(s.all_cards()).values()) == 108
    assert other.hands[0] != s.hands[0]


HOLDERS = {"loba_dsl.game.table", "loba_dsl.game.match", "loba_dsl.game.record", "loba_dsl.game.replay",
           "loba_dsl.game.resume", "loba_dsl.game.partial"}
"""The modules that hold a game's hidden cards (the table, its record)."""


def test_the_bots_import_nothing_that_holds_hidden_cards() -> None:
    found = []
    for path in Path(loba_dsl.bots.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name} imports {n}" for n in names if n in HOLDERS]
    assert found == []
