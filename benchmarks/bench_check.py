"""Meld checking in-process: melds per second on one core (issue 2 target: 50,000/s under menos).

Run: ``python benchmarks/bench_check.py [--n 100000] [--ruleset menos] [--repeat 3]``.  Prints
the figures: random 3-7-card melds from the whole deck (the issue's
measure; nearly all are not legal): the verdict alone, then with the reasons
in words; legal-rich melds (near-runs and near-sets); and the random melds
from text (card parsing included).  The clock is CPU time (``time.process_time``:
the machine may be shared), the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from loba_dsl.cards.deck import Card
from loba_dsl.melds.check import check_cards, matcher_for
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset


def random_melds(rs: Ruleset, n: int, rng: random.Random) -> list[tuple[Card, ...]]:
    deck = rs.deck
    pool = [c for c in range(deck.joker_code) for _ in range(deck.copies)] + [deck.joker_code] * deck.jokers
    return [tuple(rng.sample(pool, rng.randint(3, 7))) for _ in range(n)]


def rich_melds(rs: Ruleset, n: int, rng: random.Random) -> list[tuple[Card, ...]]:
    """Runs and sets with a card sometimes swapped for a Joker or a random card."""
    deck = rs.deck
    out: list[tuple[Card, ...]] = []
    for _ in range(n):
        size = rng.randint(3, 7)
        if rng.random() < 0.5:
            suit = rng.randrange(deck.n_suits)
            start = rng.randrange(0, deck.n_ranks - size + 1)
            cards = [deck.code(start + i, suit) for i in range(size)]
        else:
            rank = rng.randrange(deck.n_ranks)
            cards = [deck.code(rank, s) for s in rng.sample(range(deck.n_suits), min(size, deck.n_suits))]
        if rng.random() < 0.3 and deck.jokers:
            cards[rng.randrange(len(cards))] = deck.joker_code
        if rng.random() < 0.2:
            cards[rng.randrange(len(cards))] = rng.randrange(deck.joker_code)
        rng.shuffle(cards)
        out.append(tuple(cards))
    return out


def rate(label: str, work: list[Any], fn: object, repeat: int = 3) -> None:
    assert callable(fn)
    elapsed = float("inf")
    valid = 0
    for _ in range(max(1, repeat)):
        start = time.process_time()
        valid = sum(1 for cards in work if fn(cards))
        elapsed = min(elapsed, time.process_time() - start)
    print(f"  {label:<44} {len(work) / elapsed:>10,.0f} melds/s   ({valid / len(work):.1%} legal)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--ruleset", default="menos")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs of each figure")
    args = parser.parse_args()
    k = args.repeat
    rs = load(args.ruleset)
    rng = random.Random(args.seed)
    matcher = matcher_for(rs)
    notation = rs.notation()
    print(f"ruleset {rs.name}, {args.n:,} melds each, seed {args.seed}, one core, CPU time, best of {k}")
    uniform = random_melds(rs, args.n, rng)
    rich = rich_melds(rs, args.n, rng)
    rate("random 3-7 cards: verdict", uniform, lambda c: matcher.match(c).valid, k)
    rate("random 3-7 cards: verdict + reasons in words", uniform, lambda c: check_cards(c, rs).reasons() == [], k)
    rate("meld-rich: verdict + reading + points", rich, lambda c: check_cards(c, rs).valid, k)
    texts = [notation.format(c) for c in uniform]
    rate("random 3-7 cards from text (parse + check)", texts,
         lambda t: check_cards(notation.parse_codes(t), rs).valid, k)


if __name__ == "__main__":
    main()
