"""Players: whatever chooses moves at a table (a bot, a person at a terminal, a service client, a test).

A :class:`Player` is given its :class:`~loba_dsl.game.view.PlayerView` (only what its seat may see) and
the legal moves, and returns one of them; after a round that eliminated it, it is offered a re-entry
(:class:`~loba_dsl.game.standings.ReentryOffer`) and accepts or refuses.  :class:`~loba_dsl.game.match.Match`
asks its players so, round after round.

:class:`RandomPlayer` plays a random legal move, preferring to put cards down (the referee's own tests and
benchmarks play with it); :class:`Scripted` plays given lines of the move notation (tests, replays of a
game told move by move).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from loba_dsl.errors import LobaError
from loba_dsl.game.moves import Move
from loba_dsl.game.standings import ReentryOffer
from loba_dsl.game.view import PlayerView

PUT_DOWN = frozenset({"meld", "lay_off", "replace_joker", "move_wild"})
"""The operations that put cards on the table."""


@runtime_checkable
class Player(Protocol):
    """Chooses a move from ``legal`` seeing only ``view``; decides a re-entry offer."""

    def move(self, view: PlayerView, legal: Sequence[Move]) -> Move:
        """One of ``legal`` (never empty), for the seat ``view.player``."""
        ...

    def reenter(self, offer: ReentryOffer) -> bool:
        """Whether to re-enter the match at ``offer.score`` (``match.reentry``)."""
        ...


@runtime_checkable
class BlindPlayer(Protocol):
    """A player whose choice reads no view (a random player): a table's driver may ask :meth:`choose` of it with
    the legal moves alone, and build no :class:`~loba_dsl.game.view.PlayerView` for it.  Its ``move(view,
    legal)`` must be ``choose(legal)``."""

    def choose(self, legal: Sequence[Move]) -> Move:
        """One of ``legal`` (never empty)."""
        ...


def blind(player: Player) -> BlindPlayer | None:
    """``player`` where it chooses without a view (:class:`BlindPlayer`), else ``None`` (ask it once per round:
    the check is a protocol's)."""
    return player if isinstance(player, BlindPlayer) else None


class RandomPlayer:
    """A random legal move, a put-down with probability ``eager`` where there is one; re-enters with
    probability ``reenter_odds``.  It reads no view (a :class:`BlindPlayer`)."""

    def __init__(self, rng: random.Random | None = None, eager: float = 0.8, reenter_odds: float = 1.0) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.eager = eager
        self.reenter_odds = reenter_odds

    def move(self, view: PlayerView, legal: Sequence[Move]) -> Move:
        return self.choose(legal)

    def choose(self, legal: Sequence[Move]) -> Move:
        puts = [m for m in legal if m.op in PUT_DOWN]
        return self.rng.choice(puts) if puts and self.rng.random() < self.eager else self.rng.choice(legal)

    def reenter(self, offer: ReentryOffer) -> bool:
        return self.rng.random() < self.reenter_odds


class Scripted:
    """Plays the given lines of the move notation in order (``Beto melds 7♠ 7♥ 7♦``), and answers re-entry
    offers from ``reentries`` (player: accept; refused where not given)."""

    def __init__(self, lines: Iterable[str], reentries: dict[str, bool] | None = None, lang: str | None = None
                 ) -> None:
        self.lines = list(lines)
        self.reentries = dict(reentries or {})
        self.lang = lang

    def move(self, view: PlayerView, legal: Sequence[Move]) -> Move:
        from loba_dsl.game.notation import parse_move

        if not self.lines:
            raise LobaError(f"the script of {view.player} has no move left (round {view.round}, ply {view.ply})")
        return parse_move(self.lines.pop(0), view.ruleset, players=view.players, lang=self.lang)

    def reenter(self, offer: ReentryOffer) -> bool:
        return self.reentries.get(offer.player, False)
