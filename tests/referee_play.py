"""Driving the referee through its own moves, for tests that ask it what a player may do with a hand.

Shared by tests/game/test_contract_turn.py and tests/solver/test_can_go_out_rules.py: Ana, Beto and Carla sit at
the table, Beto plays first (whichever way ``deal.first_player`` and ``deal.direction`` turn), and
every move is the referee's own (:func:`loba_dsl.game.referee.verify` then ``apply``).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

from loba_dsl.cards.deck import Card
from loba_dsl.game.moves import Discard, Draw, Meld, Move
from loba_dsl.game.referee import Reason, apply, deck_cards, first_seat, start, verify
from loba_dsl.game.state import RoundState
from loba_dsl.melds.matcher import matcher_for
from loba_dsl.rules.model import Ruleset

PLAYERS = ("Ana", "Beto", "Carla")
BETO = 1


def codes(rs: Ruleset, text: str) -> tuple[Card, ...]:
    return rs.notation().parse_codes(text)


def dealt(rs: Ruleset, beto: str | Sequence[Card], drawn: str | Sequence[Card], round_number: int = 1
          ) -> RoundState:
    """Beto holds ``beto`` and the stock's top is ``drawn`` (in order); Ana and Carla get 9 high cards each."""
    hand = list(codes(rs, beto) if isinstance(beto, str) else beto)
    top = list(codes(rs, drawn) if isinstance(drawn, str) else drawn)
    rest = Counter(deck_cards(rs))
    rest.subtract(hand + top)
    assert all(v >= 0 for v in rest.values())
    pool = sorted((c for c in rest.elements() if not rs.deck.is_joker(c)), reverse=True)
    others = [pool[:9], pool[9:18]]
    rest.subtract(others[0] + others[1])
    upcard = pool[18]
    rest[upcard] -= 1
    hands = [others[0], hand, others[1]]
    dealer = next(d for d in range(len(PLAYERS)) if first_seat(rs, d, len(PLAYERS)) == BETO)
    s = start(rs, PLAYERS, dealer, hands, upcard, top + sorted(rest.elements()), round_number)
    assert s.turn == BETO
    return s


def opened_before(s: RoundState, seat: int = BETO) -> RoundState:
    """``s`` with ``seat`` having put melds down in an earlier turn of the round (the state records both)."""
    return replace(s, opened=s.opened | {seat}, laid_before=s.laid_before | {seat})


def play(rs: Ruleset, s: RoundState, moves: Sequence[Move]) -> tuple[RoundState | None, list[Reason]]:
    """Play the moves in turn: the state after them, or the first refusal's reasons."""
    for move in moves:
        reasons = verify(rs, s, move)
        if reasons:
            return None, reasons
        s, _ = apply(rs, s, move)
    return s, []


def lay_downs(rs: Ruleset, cards: Sequence[Card]) -> Iterator[list[tuple[Card, ...]]]:
    """Every partition of ``cards`` into legal melds (the matcher judges each, as `loba check` does)."""
    m = matcher_for(rs)
    if not cards:
        yield []
        return
    first, rest = cards[0], list(cards[1:])
    for mask in range(1, 1 << len(rest)):
        block = (first, *(c for i, c in enumerate(rest) if mask >> i & 1))
        if len(block) < 3 or m.match(block).best is None:
            continue
        left = [c for i, c in enumerate(rest) if not mask >> i & 1]
        for p in lay_downs(rs, left):
            yield [block, *p]


def packings(rs: Ruleset, cards: Sequence[Card]) -> Iterator[tuple[list[tuple[Card, ...]], list[Card]]]:
    """Every set of disjoint legal melds within ``cards`` (any cards may stay out), with the cards left."""
    legal = functools.cache(lambda meld: matcher_for(rs).match(meld).best is not None)

    def walk(cards: Sequence[Card]) -> Iterator[tuple[list[tuple[Card, ...]], list[Card]]]:
        if not cards:
            yield [], []
            return
        first, rest = cards[0], list(cards[1:])
        for melds, left in walk(rest):  # the first card stays out of every meld
            yield melds, [first, *left]
        for mask in range(1, 1 << len(rest)):
            block = (first, *(c for i, c in enumerate(rest) if mask >> i & 1))
            if len(block) < 3 or not legal(tuple(sorted(block))):
                continue
            for melds, left in walk([c for i, c in enumerate(rest) if not mask >> i & 1]):
                yield [block, *melds], left

    yield from walk(list(cards))


def referee_goes_out(rs: Ruleset, s: RoundState, player: str = "Beto") -> bool:
    """After the draw: does some play of the referee's own moves go out this turn?

    Every set of legal melds the hand holds is put down, then every distinct card left is tried as the
    discard (and, where nothing is left, no discard at all); the referee alone says which ends go out.
    """
    seat = s.players.index(player)
    for melds, left in packings(rs, s.hands[seat]):
        ends: list[list[Move]] = [[Discard(player, c)] for c in dict.fromkeys(left)] if left else [[]]
        for end in ends:
            done, _ = play(rs, s, [*(Meld(player, m) for m in melds), *end])
            if done is not None and done.went_out == seat:
                return True
    return False


def after_draw(rs: Ruleset, hand: Sequence[Card], *, opened: bool, round_number: int = 1) -> RoundState:
    """Beto, first to play, has drawn the last card of ``hand`` from the stock (and opened before, if ``opened``)."""
    s = dealt(rs, hand[:-1], hand[-1:], round_number)
    if opened:
        s = opened_before(s)
    got, reasons = play(rs, s, [Draw("Beto", "stock")])
    assert got is not None, reasons
    return got
