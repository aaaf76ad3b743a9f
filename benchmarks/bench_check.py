"""Meld checking in-process: melds per second on one core (issue 2 target: 50,000/s under menos).

Run: ``python benchmarks/bench_check.py [--n 100000] [--ruleset menos]``.  Prints
three figures: random 3-7-card melds from the whole deck (the issue's
measure; nearly all are not legal, so the reasons are built too), legal-rich
melds (near-runs and near-sets), and the same from text (card parsing
included).
"""

from __future__ import annotations

import argparse
import random
import time

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


def rate(label: str, work: list[tuple[Card, ...]], fn: object) -> None:
    assert callable(fn)
    start = time.perf_counter()
    valid = sum(1 for cards in work if fn(cards))
    elapsed = time.perf_counter() - start
    print(f"  {label:<44} {len(work) / elapsed:>10,.0f} melds/s   ({valid / len(work):.1%} legal)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--ruleset", default="menos")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rs = load(args.ruleset)
    rng = random.Random(args.seed)
    matcher = matcher_for(rs)
    notation = rs.notation()
    print(f"ruleset {rs.name}, {args.n:,} melds each, seed {args.seed}, one core")
    uniform = random_melds(rs, args.n, rng)
    rich = rich_melds(rs, args.n, rng)
    rate("random 3-7 cards: verdict", uniform, lambda c: matcher.match(c).valid)
    rate("random 3-7 cards: verdict + reasons in words", uniform, lambda c: check_cards(c, rs).reasons() == [])
    rate("meld-rich: verdict + reading + points", rich, lambda c: check_cards(c, rs).valid)
    texts = [notation.format(c) for c in uniform]
    start = time.perf_counter()
    for text in texts:
        _ = check_cards(notation.parse_codes(text), rs).valid
    elapsed = time.perf_counter() - start
    print(f"  {'random 3-7 cards from text (parse + check)':<44} {len(texts) / elapsed:>10,.0f} melds/s")


if __name__ == "__main__":
    main()
