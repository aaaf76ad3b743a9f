"""A player that chooses without a view (the random player, a ``BlindPlayer``) is asked without one, and plays
exactly the moves it plays when given its view: the table's drivers (``Match``, the simulations' ``play_game``)
build no view for it, and a game plays the same either way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from loba_dsl.bots import make_bot
from loba_dsl.game.match import Match
from loba_dsl.game.moves import Move
from loba_dsl.game.players import BlindPlayer, Player, RandomPlayer, blind
from loba_dsl.game.standings import ReentryOffer
from loba_dsl.game.table import Table
from loba_dsl.game.view import PlayerView
from loba_dsl.rules.loading import load
from loba_dsl.simulation import games
from loba_dsl.simulation.games import play_game

MENOS = load("menos")
NAMES = ["Ana", "Beto", "Carla", "Dora"]


class Sighted:
    """A player given its view: only ``move(view, legal)`` and ``reenter`` (no ``choose``), reading the view."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.views = 0

    def move(self, view: PlayerView, legal: Sequence[Move]) -> Move:
        assert view.my_turn and len(view.hand) > 0  # the view read, and it is this player's
        self.views += 1
        return self.inner.move(view, legal)

    def reenter(self, offer: ReentryOffer) -> bool:
        return self.inner.reenter(offer)


def test_the_random_player_is_blind_and_a_sighted_one_is_not() -> None:
    assert blind(RandomPlayer()) is not None and isinstance(make_bot("random"), BlindPlayer)
    assert blind(Sighted(RandomPlayer())) is None and blind(make_bot("greedy")) is None


def test_a_match_asks_a_blind_player_without_a_view_and_it_plays_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    sighted = {n: Sighted(RandomPlayer(random.Random(i))) for i, n in enumerate(NAMES)}
    with_views = Match.deal(MENOS, sighted, "Dora", seed=5)
    with_views.play_round()
    assert all(p.views > 10 for p in sighted.values())

    def no_view(self: Table, player: str | None) -> PlayerView:
        raise AssertionError(f"a view of {player} was built for a blind player")

    monkeypatch.setattr(Table, "view", no_view)
    blind_match = Match.deal(MENOS, {n: RandomPlayer(random.Random(i)) for i, n in enumerate(NAMES)}, "Dora", seed=5)
    blind_match.play_round()
    assert blind_match.table.outcome() is not None
    assert blind_match.table.record() == with_views.table.record()


def test_a_simulated_game_plays_the_same_with_blind_or_sighted_players(monkeypatch: pytest.MonkeyPatch) -> None:
    blind_games = [play_game(MENOS, ["random"] * 4, 9, i, match=i == 0) for i in range(3)]
    monkeypatch.setattr(games, "make_bot", lambda *a, **k: Sighted(make_bot(*a, **k)))
    sighted_games = [play_game(MENOS, ["random"] * 4, 9, i, match=i == 0) for i in range(3)]
    assert sighted_games == blind_games
    assert all(g.finished for g in blind_games)
