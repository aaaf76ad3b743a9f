"""The generated legal moves are exactly the moves the referee accepts.

``Table.legal()`` generates moves (loba_dsl/game/legal.py) instead of judging candidates.  Here every move
a player could submit in a state is judged by the referee (:func:`loba_dsl.game.referee.judge`), by brute
force over every sub-multiset of the hand, and the accepted ones must be exactly the listed ones (melds
and lay-offs as listed: cards sorted, no ``as``); the listed moves with an ``as`` are accepted too.
States come from random play under every shipped ruleset and the house rulesets of tests/house_rulesets.py
(many wilds, lay-offs onto any meld, Joker replacement, wild moves, the whole pile taken, contrato with
``requirements.contracts.at_once`` and ``before_other_melds`` flipped).

Two cases from the rules themselves: a lay-off of several cards at both ends of an escalera (rules.md §1,
lay-off: "extend an escalera at either end"), and an escalera with four wilds under mas-pagat (rules.md §3:
"any number of wilds, but never all Jokers"), where Menos allows one (rules.md §1: "at most 1").
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from house_rulesets import (
    CONTRACT_IN_PARTS,
    CONTRACT_LOOSE,
    OPEN_TABLE,
    OTHERS_FIRST,
    THREE_WILD_CLASSES,
    WHOLE_PILE_OPENING,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referee_play import after_draw, codes, play

from loba_dsl.budget import Budget
from loba_dsl.cards.deck import Card
from loba_dsl.errors import BudgetExceeded, LobaError
from loba_dsl.game import Discard, Draw, LayOff, Meld, MoveWild, ReplaceJoker, Table
from loba_dsl.game.legal import TooManyMoves, generate
from loba_dsl.game.moves import Move
from loba_dsl.game.referee import judge
from loba_dsl.game.simulate import PUT_DOWN
from loba_dsl.game.state import Phase, RoundState
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset

NAMES = ("Ana", "Beto", "Carla", "Dora")
HOUSE = {"three-wild-classes": THREE_WILD_CLASSES, "open-table": OPEN_TABLE, "whole-pile-opening": WHOLE_PILE_OPENING,
         # contrato with each contract setting flipped, and both (docs/rules.md §4)
         "contract-in-parts": CONTRACT_IN_PARTS, "others-first": OTHERS_FIRST, "contract-loose": CONTRACT_LOOSE,
         # the pile card put down first, where it can go down at all (docs/rules.md §1), with bazas's minimum
         "bazas-pile-card": "extends: bazas\nname: h-bazas-pile-card\nturn: {use_pile_card: true}\n"}
RULESETS = (*shipped_names(), *HOUSE)
BRUTE_HAND = 11
"""Hands of at most this many cards are brute-forced (every sub-multiset judged as a meld and a lay-off)."""


def ruleset(name: str) -> Ruleset:
    return loads(HOUSE[name], source=f"<{name}>") if name in HOUSE else load(name)


def submultisets(hand: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
    items = sorted(Counter(hand).items())

    def rec(i: int) -> Iterator[tuple[Card, ...]]:
        if i == len(items):
            yield ()
            return
        code, n = items[i]
        for rest in rec(i + 1):
            for take in range(n + 1):
                yield (code,) * take + rest

    for sub in rec(0):
        if sub:
            yield tuple(sorted(sub))


def accepted(rs: Ruleset, s: RoundState, t: Table | None = None) -> set[Move]:
    """Every move of the player to move that the referee accepts (melds and lay-offs without ``as``); with a
    table, as its ``check`` says (a stock draw from an empty stock is the dealer's reshuffle first)."""
    player = s.players[s.turn]
    if s.phase is Phase.DRAW:
        tries: list[Move] = [Draw(player, "stock"), Draw(player, "discard")]
    else:
        hand = s.hands[s.turn]
        subs = list(submultisets(hand))
        tries = [Meld(player, sub) for sub in subs]
        for m in s.melds:
            tries.extend(LayOff(player, m.number, sub) for sub in subs)
            tries.extend(ReplaceJoker(player, m.number, c) for c in set(hand))
            tries.extend(MoveWild(player, m.number, to) for to in ("low", "high"))
        tries.extend(Discard(player, c) for c in set(hand))
    if t is not None:
        return {mv for mv in tries if t.check(mv).ok}
    return {mv for mv in tries if not judge(rs, s, mv)[0]}


def plain(move: Move) -> bool:
    return not isinstance(move, (Meld, LayOff)) or move.as_ is None


def compare(rs: Ruleset, t: Table) -> list[Move]:
    """Listed == accepted in the table's state; the listed moves."""
    listed = list(t.legal())
    assert len(listed) == len(set(listed)), "a move is listed twice"
    for mv in listed:
        if not plain(mv):
            assert t.check(mv).ok, mv
    want = accepted(rs, t.state, t)
    got = {mv for mv in listed if plain(mv)}
    assert got == want, (f"listed but refused: {sorted(map(repr, got - want))}; "
                         f"accepted but not listed: {sorted(map(repr, want - got))}")
    return listed


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_listed_moves_are_exactly_the_accepted_ones(name: str, seed: int) -> None:
    rs = ruleset(name)
    n = max(rs.players.min, min(4, rs.players.max))
    t = Table.deal(rs, NAMES[:n], NAMES[0], seed)
    rng = random.Random(seed)
    tabu: set[Move] = set()
    for _ in range(160):
        if t.outcome() is not None:
            break
        brute = len(t.state.hands[t.state.turn]) <= BRUTE_HAND and rng.random() < 0.35
        listed = compare(rs, t) if brute else list(t.legal())
        moves = [m for m in listed if m not in tabu]
        if not moves:
            tabu.add(t.undo())
            continue
        puts = [m for m in moves if m.op in PUT_DOWN]
        move = rng.choice(puts) if puts and rng.random() < 0.8 else rng.choice(moves)
        turn = t.state.turn
        t.play(move)
        if t.state.turn != turn:
            tabu.clear()


# ---------------------------------------------------------------- from the rules


def test_a_lay_off_of_several_cards_at_both_ends_of_an_escalera_is_listed() -> None:
    # rules.md §1, lay-off: after your first meld, onto your own melds, "extend an escalera at either end".
    rs = load("menos")
    drawn = after_draw(rs, codes(rs, "4♠ 5♠ 6♠ 7♠ 8♠ 9♠ K♥ K♦ Q♣ 3♦"), opened=False)
    s, reasons = play(rs, drawn, [Meld("Beto", codes(rs, "5♠ 6♠ 7♠"))])
    assert s is not None, reasons
    listed = set(generate(rs, s))
    for cards in ("8♠ 9♠", "4♠ 8♠", "4♠ 8♠ 9♠", "4♠"):
        assert LayOff("Beto", 1, tuple(sorted(codes(rs, cards)))) in listed, cards
    # a card that does not touch an end cannot be laid off, alone or with others (9♠ needs 8♠)
    assert LayOff("Beto", 1, codes(rs, "9♠")) not in listed
    assert LayOff("Beto", 1, tuple(sorted(codes(rs, "4♠ 9♠")))) not in listed


def test_an_escalera_of_four_wilds_is_listed_where_the_ruleset_allows_any_number() -> None:
    # rules.md §3 (mas-pagat): an escalera takes any number of wilds (Jokers and 2s), never all Jokers.
    rs = load("mas-pagat")
    hand = codes(rs, "5♥ 2♣ 2♦ JOKER JOKER K♠ K♦ 9♣ 8♦ 4♠ 3♣")
    s = after_draw(rs, hand, opened=False)
    listed = set(generate(rs, s))
    four_wilds = tuple(sorted(codes(rs, "5♥ 2♣ 2♦ JOKER JOKER")))
    assert Meld("Beto", four_wilds) in listed
    assert not judge(rs, s, Meld("Beto", four_wilds))[0]
    # rules.md §1 (menos): at most one wild per escalera: 5♥ with two Jokers is no meld there.
    menos = load("menos")
    s = after_draw(menos, codes(menos, "5♥ 6♥ JOKER JOKER K♠ K♦ 9♣ 8♦ 4♠ 3♣"), opened=False)
    listed = set(generate(menos, s))
    assert Meld("Beto", tuple(sorted(codes(menos, "5♥ 6♥ JOKER")))) in listed
    assert Meld("Beto", tuple(sorted(codes(menos, "5♥ 6♥ JOKER JOKER")))) not in listed


# ---------------------------------------------------------------- bounded


def big_hand_state() -> tuple[Ruleset, RoundState]:
    """A 40-card hand under a ruleset where Jokers, 2s and 3s are wild (eight Jokers): a huge listing."""
    rs = ruleset("three-wild-classes")
    deck = [c for c in rs.deck.all_codes() for _ in range(rs.deck.limit(c))]
    random.Random(3).shuffle(deck)
    wild = [c for c in deck if rs.deck.is_joker(c) or rs.deck.rank_of(c) in (1, 2)]
    rest = [c for c in deck if c not in wild]
    hand = tuple(wild[:16] + rest[:24])
    s = after_draw(rs, hand, opened=False)
    return rs, s


def test_a_huge_listing_stops_at_its_limits_with_a_loba_error() -> None:
    rs, s = big_hand_state()
    assert len(s.hands[s.turn]) == 40
    with pytest.raises(TooManyMoves):
        for _ in generate(rs, s, budget=Budget(seconds=60), limit=500):
            pass
    with pytest.raises(BudgetExceeded):
        for _ in generate(rs, s, budget=Budget(steps=300), limit=10**9):
            pass
    assert issubclass(TooManyMoves, LobaError)


def test_the_first_moves_of_a_huge_hand_come_before_the_whole_listing() -> None:
    # lazy: a few moves cost a few steps, where the whole listing runs past the same budget
    rs, s = big_hand_state()
    budget = Budget(steps=2_000)
    moves = generate(rs, s, budget=budget, limit=10**9)
    first = [next(moves) for _ in range(3)]
    assert all(not judge(rs, s, mv)[0] for mv in first)
    with pytest.raises(BudgetExceeded):
        for _ in generate(rs, s, budget=budget, limit=10**9):
            pass


def wilds_in(rs: Ruleset, cards: tuple[Card, ...]) -> int:
    return sum(1 for c in cards if rs.deck.is_joker(c) or c in rs.wilds.cards)


def test_random_play_meets_multi_card_lay_offs_and_melds_of_more_than_two_wilds() -> None:
    # The property above is not vacuous: random mas-pagat play (Jokers and 2s wild, any number to an
    # escalera, rules.md §3) lists lay-offs of several cards and melds holding three or more wild-capable
    # cards, and the table accepts every one of them.
    rs = load("mas-pagat")
    multi = wild3 = None
    for seed in range(40):
        t = Table.deal(rs, NAMES, NAMES[0], seed)
        rng = random.Random(seed)
        while t.outcome() is None and (multi is None or wild3 is None) and t.ply < 400:
            listed = list(t.legal())
            for mv in listed:
                if isinstance(mv, LayOff) and len(mv.cards) > 1 and multi is None:
                    assert t.check(mv).ok
                    multi = mv
                if isinstance(mv, Meld) and wilds_in(rs, mv.cards) > 2 and wild3 is None:
                    assert t.check(mv).ok
                    wild3 = mv
            puts = [m for m in listed if m.op in PUT_DOWN]
            t.play(rng.choice(puts) if puts and rng.random() < 0.8 else rng.choice(listed))
        if multi is not None and wild3 is not None:
            break
    assert multi is not None and wild3 is not None, (multi, wild3)
