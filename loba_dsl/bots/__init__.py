"""Bots: players that see only their :class:`~loba_dsl.game.view.PlayerView`, for any ruleset.

Each bot is a :class:`~loba_dsl.game.players.Player` (``move(view, legal)``, ``reenter(offer)``), so it
sits wherever a person or a client could: :class:`~loba_dsl.game.match.Match`, the simulations of
:mod:`loba_dsl.simulation`, a live table.  A bot is given nothing but its view and the legal moves:
the cards it cannot see never reach it (:mod:`loba_dsl.bots.knowledge`).

- ``random``: a random legal move, putting cards down when it can with probability 0.8
  (:class:`~loba_dsl.game.players.RandomPlayer`; a uniform choice among all moves hardly ever
  ends a round where the stock is reshuffled);
- ``greedy``: the exact solver's turn (:mod:`loba_dsl.bots.greedy`);
- ``search``: determinised search with greedy play-outs, or where lower scores are better an endgame
  lookahead over the next stock card (:mod:`loba_dsl.bots.search`).

>>> sorted(BOTS)
['greedy', 'random', 'search']
"""

from __future__ import annotations

import random
from typing import Any

from loba_dsl.errors import InputError
from loba_dsl.game.players import Player, RandomPlayer

__all__ = ["BOTS", "bot_names", "make_bot"]

BOTS: dict[str, str] = {
    "random": "a random legal move, putting cards down when it can (4 times in 5)",
    "greedy": "the exact solver's best turn: draws, melds, lays off and discards to keep the best hand",
    "search": "determinised search: samples the unseen cards, plays each sample out with greedy, "
              "takes the move with the best average; where lower scores are better, greedy's turns until 7 "
              "cards are left, then the best mean over every next stock card of greedy's next turn",
}
"""The bots by name, with what each does."""


def bot_names(text: str) -> list[str]:
    """Bot names from ``greedy,greedy,search``; an unknown name is an :class:`~loba_dsl.errors.InputError`."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise InputError(f"no bot named in '{text}': name them, e.g. greedy,greedy,search")
    for n in names:
        if n not in BOTS:
            raise InputError(f"no bot is called '{n}': the bots are {', '.join(BOTS)}")
    return names


def make_bot(name: str, rng: random.Random | None = None, **options: Any) -> Player:
    """A fresh bot of that name (``rng``: its generator; ``options``: ``samples``/``seconds`` for search)."""
    rng = rng if rng is not None else random.Random()
    if name == "random":
        return RandomPlayer(rng)
    if name == "greedy":
        from loba_dsl.bots.greedy import GreedyBot

        return GreedyBot()
    if name == "search":
        from loba_dsl.bots.search import SearchBot

        return SearchBot(rng, **options)
    raise InputError(f"no bot is called '{name}': the bots are {', '.join(BOTS)}")
