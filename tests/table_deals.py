"""Tables dealt as a test writes them: the hands it names, short hands filled with high natural cards.

Shared by the referee's tests (tests/game/): ``deal(rs, {"Beto": "4♣ JOKER 6♣"}, upcard="K♣")``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from loba_dsl.game import Table
from loba_dsl.game.referee import deck_cards
from loba_dsl.rules.model import Ruleset

PLAYERS = ("Ana", "Beto", "Carla")


def cards(rs: Ruleset, text: str) -> tuple[int, ...]:
    return rs.notation().parse_codes(text)


def deal(rs: Ruleset, hands: Mapping[str, str], upcard: str | None = None, stock_top: str = "",
         dealer: str = "Carla", players: tuple[str, ...] = PLAYERS) -> Table:
    """A table dealt as given; short hands are filled with high natural cards, the rest is the stock."""
    hs = [list(cards(rs, hands.get(p, ""))) for p in players]
    up = cards(rs, upcard)[0] if upcard else None
    top = list(cards(rs, stock_top))
    rest = Counter(deck_cards(rs))
    rest.subtract(Counter(c for h in hs for c in h))
    rest.subtract(top)
    if up is not None:
        rest[up] -= 1
    assert all(v >= 0 for v in rest.values()), "the test's deal uses a card too often"
    pool = sorted((c for c in rest.elements() if not rs.deck.is_joker(c)), reverse=True)
    for h in hs:
        while len(h) < rs.deal.cards:
            c = pool.pop(0)
            rest[c] -= 1
            h.append(c)
    stock = top + sorted(rest.elements())
    return Table.from_deal(rs, players, dealer, hs, up, stock)
