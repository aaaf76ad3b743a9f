"""Every bot plays only legal moves, under every shipped ruleset and three house rulesets.

Each round is played through :class:`loba_dsl.game.match.Match`, the path a person's moves take: every move
a bot returns must be one of the legal moves it was offered (the Player contract), and the table referees
it again (:meth:`Table.play` raises :class:`IllegalMove` on a move the rules forbid).  Seats hold
greedy, search (a small budget: legality, not strength, is tested here) and random; the round must end
(someone goes out or the stock rule ends it), so the bots do finish the rounds they play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import house_rulesets
import pytest

from loba_dsl.bots import make_bot
from loba_dsl.game.match import Match
from loba_dsl.game.moves import Move
from loba_dsl.game.players import Player
from loba_dsl.game.standings import ReentryOffer
from loba_dsl.game.view import PlayerView
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.rules.sources import shipped_names

HOUSES = {"three-wild-classes": house_rulesets.THREE_WILD_CLASSES, "open-table": house_rulesets.OPEN_TABLE,
          "whole-pile-opening": house_rulesets.WHOLE_PILE_OPENING}
FAST = {"menos", "open-table"}
"""In the fast suite; the rest are slow (a contract round of three bots takes seconds)."""


class Checked:
    """A bot whose every move is checked against the legal moves it was offered."""

    def __init__(self, bot: Player) -> None:
        self.bot = bot
        self.moves = 0

    def move(self, view: PlayerView, legal: Sequence[Move]) -> Move:
        assert legal, f"{view.player} was offered no move"
        mv = self.bot.move(view, legal)
        assert mv in legal, f"{view.player} ({type(self.bot).__name__}) played {mv!r}, not among the legal moves"
        self.moves += 1
        return mv

    def reenter(self, offer: ReentryOffer) -> bool:
        return self.bot.reenter(offer)


def _ruleset(name: str) -> Ruleset:
    return loads(HOUSES[name]) if name in HOUSES else load(name)


def _cases() -> list[object]:
    names = [*shipped_names(), *HOUSES]
    return [pytest.param(n, marks=() if n in FAST else pytest.mark.slow) for n in names]


@pytest.mark.parametrize("name", _cases())
def test_every_bot_plays_only_legal_moves(name: str) -> None:
    rs = _ruleset(name)
    kinds = ["greedy", "search", "random"]
    n = max(rs.players.min, min(len(kinds), rs.players.max))
    seats = ["Ana", "Beto", "Carla"][:n]
    for deal in range(1 if name in FAST else 2):
        small = {"samples": 2, "horizon": 2, "endgame": 0}  # the play-outs (the endgame lookahead: below)
        players = {s: Checked(make_bot(kinds[(i + deal) % len(kinds)], random.Random(100 * deal + i),
                                       **(small if kinds[(i + deal) % len(kinds)] == "search" else {})))
                   for i, s in enumerate(seats)}
        m = Match.deal(rs, players, seats[-1], seed=deal + 1)
        m.play_round(max_plies=2_000)
        assert m.table.outcome() is not None, f"{name}: round {deal + 1} did not end"
        assert all(p.moves > 0 for p in players.values())


@pytest.mark.slow
def test_a_whole_match_of_bots_reaches_its_winner() -> None:
    # menos: the last player standing wins (rules.md §1, match.end: last_standing)
    rs = load("menos")
    players: dict[str, Player] = {s: Checked(make_bot("greedy")) for s in ("Ana", "Beto", "Carla")}
    standings = Match.deal(rs, players, "Carla", seed=5).play()
    assert standings.over and len(standings.winners) == 1


@pytest.mark.parametrize("name", sorted(FAST))
def test_the_search_endgame_lookahead_plays_only_legal_moves(name: str) -> None:
    # search with endgame=7 (its lookahead from 7 cards in hand) against greedy and random: every move offered
    rs = _ruleset(name)
    kinds = ["search", "greedy", "random"]
    seats = ["Ana", "Beto", "Carla"]
    players = {s: Checked(make_bot(k, random.Random(i), **({"endgame": 7} if k == "search" else {})))
               for i, (s, k) in enumerate(zip(seats, kinds, strict=True))}
    m = Match.deal(rs, players, seats[-1], seed=3)
    m.play_round(max_plies=2_000)
    assert m.table.outcome() is not None, f"{name}: the round did not end"
    assert all(p.moves > 0 for p in players.values())
