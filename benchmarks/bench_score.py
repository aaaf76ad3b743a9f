"""Scoring whole rounds in-process (issue 3 target: 20,000 rounds/s under menos).

Run: ``python benchmarks/bench_score.py [--n 100000]``.  Each round has 4
players holding 9-11 cards; some of each player's cards are melds drawn from
legal ones (runs and sets, sometimes with a wild), one player went out, and
every meld is checked as legal before it is scored, as ``loba score`` does.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from loba_dsl.cards.deck import Card
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.rounds import score_player


@dataclass(frozen=True)
class Seat:
    melds: tuple[tuple[Card, ...], ...]
    hand: tuple[Card, ...]
    went_out: bool


def _take(deck: list[Card], wanted: list[Card]) -> bool:
    for c in wanted:
        if wanted.count(c) > deck.count(c):
            return False
    for c in wanted:
        deck.remove(c)
    return True


def random_round(rs: Ruleset, rng: random.Random) -> list[Seat]:
    d = rs.deck
    deck = [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers
    rng.shuffle(deck)
    out_seat = rng.randrange(4)
    seats = []
    for seat in range(4):
        size = rng.randint(9, 11)
        melds: list[tuple[Card, ...]] = []
        used = 0
        for _ in range(rng.randint(0, 3)):
            if rng.random() < 0.5:
                n = rng.randint(3, 4)
                start = rng.randrange(0, d.n_ranks - n)
                cards = [d.code(start + i, rng.randrange(d.n_suits)) for i in range(1)]
                suit = d.suit_of(cards[0])
                cards = [d.code(start + i, suit) for i in range(n)]
                if d.jokers and rng.random() < 0.3:
                    cards[rng.randrange(1, n - 1)] = d.joker_code
            else:
                rank = rng.randrange(d.n_ranks)
                cards = [d.code(rank, s) for s in rng.sample(range(d.n_suits), 3)]
            if used + len(cards) <= size and _take(deck, cards):
                melds.append(tuple(cards))
                used += len(cards)
        went_out = seat == out_seat
        hand = () if went_out else tuple(deck.pop() for _ in range(size - used))
        seats.append(Seat(tuple(melds), hand, went_out))
    return seats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in ("menos", "mas-pagat"):
        rs = load(name)
        rng = random.Random(args.seed)
        rounds = [random_round(rs, rng) for _ in range(args.n)]
        start = time.perf_counter()
        total = 0
        for seats in rounds:
            for i, s in enumerate(seats):
                total += score_player(rs, name=f"p{i}", melds=s.melds, hand=s.hand, went_out=s.went_out,
                                      players=4).score
        elapsed = time.perf_counter() - start
        melds = sum(len(s.melds) for r in rounds for s in r)
        print(f"{name:<10} {args.n / elapsed:>9,.0f} rounds/s  ({melds / args.n:.1f} melds per round checked "
              f"and scored, 4 players, 9-11 cards; checksum {total})")


if __name__ == "__main__":
    main()
