"""The seats a bot plays at a live table: what the bot is asked, from its own view alone.

A bot seat is played through the same path as a person's: :meth:`Tables.play` takes the bot's action
(refereed, stored, broadcast), so a bot's move is in the record like anyone's.  The bot is given only
its :class:`~loba_dsl.PlayerView` and its legal moves; :func:`next_turn` takes them on the event loop and
returns a job that chooses (run in a thread: the greedy bot calls the solver).

Seeded play: a bot's generator is seeded from the table's seed, the seat and the table's ply before each
decision, so a table dealt from a seed with the same people's moves plays the same bot moves (the greedy
bot uses no generator).  The one bot object per seat keeps what it remembers within its turn; a bot
rebuilt after a restart in the middle of its own turn judges from its view alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from loba_dsl import BOTS, LobaError, make_bot
from loba_service.tables.live import LISTING_BUDGET, LiveTable

__all__ = ["Job", "fallback", "new_bots", "next_turn", "unknown_bots"]

Job = Callable[[], dict[str, Any]]


def unknown_bots(bots: dict[str, str], players: list[str]) -> str | None:
    """What is wrong with ``bots`` for these players (``None``: nothing)."""
    for seat, name in bots.items():
        if seat not in players:
            return f"the bot seat {seat!r} is not one of the players"
        if name not in BOTS:
            return f"no bot is called {name!r} (at seat {seat!r}): the bots are {', '.join(BOTS)}"
    if len(bots) == len(players):
        return "every seat is a bot's: a live table needs at least one person (use loba simulate for bots alone)"
    return None


def new_bots(live: LiveTable) -> dict[str, Any]:
    """A fresh bot for each bot seat of the table."""
    return {seat: make_bot(name, random.Random()) for seat, name in live.spec.bots.items()}


def _seed(live: LiveTable, seat: str) -> str:
    return f"{live.spec.seed}/{seat}/{live.ply}"


def next_turn(live: LiveTable, bots: dict[str, Any]) -> tuple[str, int, Job] | None:
    """The bot seat to act now, the table's ply, and the job choosing its action; ``None``: no bot's turn."""
    if live.finished or not bots:
        return None
    t = live.table
    if t.state.phase.value == "over":
        asked_now = live.offer_asked()  # offers are answered in seating order, a bot's too
        offer = next((o for o in t.reentry_offers() if o.player == asked_now and o.player in bots), None)
        if offer is None:
            return None
        asked, bot = offer.player, bots[offer.player]
        _reseed(bot, live, asked)
        return asked, live.ply, lambda: {"op": "reenter", "player": asked, "accepted": bool(bot.reenter(offer))}
    seat = t.to_move
    if seat is None or seat not in bots:
        return None
    bot = bots[seat]
    legal: list[Any] = []
    try:
        legal.extend(t.legal(budget=LISTING_BUDGET))  # (on the event loop: bounded as a seat's view is)
    except LobaError:
        if not legal:
            raise
    else:
        if not legal:  # its own moves this turn left it no legal move: the table offers undo
            return seat, live.ply, lambda: {"op": "undo", "player": seat}
    view = t.view(seat)
    rs = live.rs
    _reseed(bot, live, seat)

    def job() -> dict[str, Any]:
        out: dict[str, Any] = bot.move(view, legal).to_dict(rs)
        return out

    return seat, live.ply, job


def fallback(live: LiveTable, seat: str) -> dict[str, Any] | None:
    """A legal action for a bot that took too long: the first the seat's view lists."""
    legal = live.legal_for(seat)
    return dict(legal[0]) if legal else None


def _reseed(bot: Any, live: LiveTable, seat: str) -> None:
    rng = getattr(bot, "rng", None)
    if isinstance(rng, random.Random):
        rng.seed(_seed(live, seat))
