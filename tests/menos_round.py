"""One 3-player menos round played to its end, shared by the tests of records (tests/game/test_game_record.py,
test_hand_dealt_records.py).

rules.md §1: Carla deals; her right, Beto, plays first.  Beto draws 9♦, puts down 7♠ 7♥ 7♦ and 4♣ 5♣ 6♣,
discards 2♦; Ana draws Q♣ and discards it; Carla draws J♣ and discards it; Beto draws 3♣, puts down 9♠ 9♥ 9♦
and goes out discarding 3♣.  Ana ends with 84 in hand, Carla with 68 (worked out in test_game_referee).
Not a test module itself: ``from menos_round import played_round``.
"""

from __future__ import annotations

from collections import Counter

from loba_dsl.game import Discard, Draw, LayOff, Meld, Table
from loba_dsl.game.referee import deck_cards
from loba_dsl.rules.model import Ruleset

PLAYERS = ("Ana", "Beto", "Carla")
HANDS = {
    "Ana": "K♠ Q♥ J♦ A♣ 2♠ 3♥ 4♦ 5♠ JOKER",
    "Beto": "7♠ 7♥ 7♦ 4♣ 5♣ 6♣ 9♠ 9♥ 2♦",
    "Carla": "8♠ 8♥ 10♦ 10♣ 6♠ 6♥ 2♥ 3♦ A♠",
}


def deal_of(rs: Ruleset, hands: dict[str, str], upcard: str, top: str) -> tuple[list[list[int]], int, list[int]]:
    """The hands, the up-card and the stock (``top`` first, then the rest of the deck in code order)."""
    parse = rs.notation().parse_codes
    hs = [list(parse(hands[p])) for p in PLAYERS]
    up = parse(upcard)[0]
    first = list(parse(top))
    rest = Counter(deck_cards(rs))
    rest.subtract(Counter(c for h in hs for c in h))
    rest.subtract(first)
    rest[up] -= 1
    return hs, up, first + sorted(rest.elements())


def played_round(rs: Ruleset) -> Table:
    """rules.md §1: Carla deals, Beto plays first; Beto goes out on his second turn."""
    hs, up, stock = deal_of(rs, HANDS, "K♣", "9♦ Q♣ J♣ 3♣")
    t = Table.from_deal(rs, PLAYERS, "Carla", hs, up, stock)
    c = rs.notation().parse_codes
    for move in (Draw("Beto", "stock"), Meld("Beto", c("7♠ 7♥ 7♦")), Meld("Beto", c("4♣ 5♣ 6♣")),
                 Discard("Beto", c("2♦")[0]), Draw("Ana", "stock"), Discard("Ana", c("Q♣")[0]),
                 Draw("Carla", "stock"), Discard("Carla", c("J♣")[0]), Draw("Beto", "stock"),
                 LayOff("Beto", 2, c("3♣"))):
        t.play(move)
    t.undo()  # take back the lay-off: melding the 9s must leave a card to discard (rules.md §1)
    t.play(Meld("Beto", c("9♠ 9♥ 9♦")))
    t.play(Discard("Beto", c("3♣")[0]))
    return t
