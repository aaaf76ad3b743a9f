"""Minimum gin deadwood: our solver against OpenSpiel and RLCard, on the same hands, in one run (issue 4).

Needs the optional benchmark venv (OpenSpiel, RLCard: the ``bench`` extra)::

    bash benchmarks/setup_bench_venv.sh
    benchmarks/.venv-bench/bin/python benchmarks/bench_gin.py [--n 10000] [--seed 1] [--show 5]

10-card hands (``--n`` uniformly random and ``--n`` meld-rich, fixed seed):
minimum deadwood by

- ours: ``Solver(load("gin")).best_score(cards)`` (the number only, like the other two; the
  round formula of ``gin`` is the deadwood), and, for reference, ``arrange(cards)`` which also builds
  the whole arrangement;
- OpenSpiel: ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood(cards)``;
- RLCard: ``melding.get_best_meld_clusters(hand)`` then ``utils.get_deadwood_count(hand,
  cluster)`` on the first best cluster (no cluster: every card is deadwood).

Every disagreement is printed (there must be none).  Each engine is timed on
its own over the whole list, with the hands already in its own card format.

11-card hands (a hand that has just drawn): OpenSpiel's ``min_deadwood`` on
``hand_size + 1`` cards means "deadwood after the best discard" (its source:
"If we have just drawn a card, we can discard the one worth the most points"),
but it computes it by taking one best meld group of all 11 cards and dropping
that group's highest deadwood card, which is not always the best discard.
Ours: ``Solver.best_discard_score(cards)``, the deadwood of the 10 kept cards
after the best discard (exact: every discard is tried); ``best_discard`` gives
the arrangement shown for differences.  RLCard has no
11-card function; its 10-card deadwood taken over every discard is a third
opinion.  The first ``--show`` differences print the hand, both figures,
OpenSpiel's meld group and dropped card, and our arrangement; every difference
is re-checked by a brute force over all discards and all partitions (written
here, independent of all three engines).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from typing import Any, TypeVar

import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from rlcard.games.gin_rummy.utils import melding  # type: ignore[import-not-found, import-untyped, unused-ignore]
from rlcard.games.gin_rummy.utils import utils as rl_utils  # type: ignore[import-not-found, import-untyped, unused-ignore]

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.rules.loading import load
from loba_dsl.solver.api import Arrangement, Solver

Hand = tuple[Card, ...]
T = TypeVar("T")

RANK_CHARS = "A23456789TJQK"
"""Rank letters of OpenSpiel's and RLCard's card strings, in our rank order A..K."""
SUIT_CHARS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
"""Our suit symbols to OpenSpiel's suit letters (RLCard: the same, upper case)."""


# ------------------------------------------------------------------ hands


def uniform_hands(size: int, n: int, rng: random.Random) -> list[Hand]:
    return [tuple(rng.sample(range(52), size)) for _ in range(n)]


def meld_rich_hands(deck: Deck, size: int, n: int, rng: random.Random) -> list[Hand]:
    """One to three runs (3-5 cards) or sets (3-4 cards) where they fit, then random fill; no duplicates."""
    out: list[Hand] = []
    for _ in range(n):
        free = set(range(52))
        hand: list[Card] = []
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.5:
                length, suit = rng.randint(3, 5), rng.randrange(4)
                start = rng.randrange(0, 13 - length + 1)
                cards = [deck.code(start + i, suit) for i in range(length)]
            else:
                rank = rng.randrange(13)
                cards = [deck.code(rank, s) for s in rng.sample(range(4), rng.randint(3, 4))]
            if len(hand) + len(cards) <= size and free.issuperset(cards):
                hand += cards
                free -= set(cards)
        hand += rng.sample(sorted(free), size - len(hand))
        rng.shuffle(hand)
        assert len(set(hand)) == size
        out.append(tuple(hand))
    return out


def crossing_hands(deck: Deck, size: int, n: int, rng: random.Random) -> list[Hand]:
    """Three ranks in a row times three suits, less one card, plus random fill.

    The block melds as sets or as runs with the same melded value but different
    cards left over: the ties where the choice of meld group decides the best
    discard.
    """
    out: list[Hand] = []
    for _ in range(n):
        low, suits = rng.randrange(11), rng.sample(range(4), 3)
        block = [deck.code(low + i, s) for i in range(3) for s in suits]
        block.remove(rng.choice(block))
        free = sorted(set(range(52)) - set(block))
        hand = block + rng.sample(free, size - len(block))
        rng.shuffle(hand)
        out.append(tuple(hand))
    return out


# ------------------------------------------------------------------ the outside engines


class OpenSpiel:
    """OpenSpiel's gin utilities, with our codes mapped through its own card strings."""

    def __init__(self, deck: Deck) -> None:
        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        self.index: list[int] = []
        for code in range(52):
            text = RANK_CHARS[deck.rank_of(code)] + SUIT_CHARS[deck.suits[deck.suit_of(code)].symbol]
            i = int(self.utils.card_int(text))
            assert self.utils.card_string(i) == text, (text, i)
            self.index.append(i)
        assert sorted(self.index) == list(range(52))
        self.code = {i: c for c, i in enumerate(self.index)}

    def native(self, hand: Hand) -> list[int]:
        return [self.index[c] for c in hand]

    def min_deadwood(self, cards: list[int]) -> int:
        return int(self.utils.min_deadwood(cards))

    def explain(self, hand: Hand, deck: Deck) -> str:
        """OpenSpiel's own meld group for ``hand``, its deadwood and the card its 11-card rule drops."""
        group = [[self.code[int(i)] for i in meld] for meld in self.utils.best_meld_group(self.native(hand))]
        melded = {c for meld in group for c in meld}
        dead = sorted((c for c in hand if c not in melded), key=lambda c: (deck.rank_of(c), self.index[c]))
        melds = "  ".join("[" + " ".join(deck.names_of(sorted(m))) + "]" for m in group) or "(none)"
        dropped = deck.name(dead[-1]) if dead else "nothing"
        return f"melds {melds}; deadwood {' '.join(deck.names_of(dead)) or '(none)'}; drops {dropped}"


class RLCard:
    """RLCard's gin utilities, with our codes mapped to its shared deck's Card objects."""

    def __init__(self, deck: Deck) -> None:
        self.cards: list[Any] = []
        for code in range(52):
            text = RANK_CHARS[deck.rank_of(code)] + SUIT_CHARS[deck.suits[deck.suit_of(code)].symbol].upper()
            card = rl_utils.get_card(rl_utils.get_card_id(rl_utils.card_from_text(text)))
            assert str(card) == text, (card, text)
            self.cards.append(card)

    def native(self, hand: Hand) -> list[Any]:
        return [self.cards[c] for c in hand]

    @staticmethod
    def min_deadwood(hand: list[Any]) -> int:
        clusters = melding.get_best_meld_clusters(hand)
        return int(rl_utils.get_deadwood_count(hand, clusters[0] if clusters else []))

    @classmethod
    def best_discard(cls, hand: list[Any]) -> int:
        """Its 10-card deadwood after each possible discard, least of all."""
        return min(cls.min_deadwood(hand[:i] + hand[i + 1:]) for i in range(len(hand)))


# ------------------------------------------------------------------ brute force (independent of all engines)


def gin_value(deck: Deck, c: Card) -> int:
    return min(deck.rank_of(c) + 1, 10)


def is_gin_meld(deck: Deck, cards: Sequence[Card]) -> bool:
    """A set (3-4 cards of one rank) or a run (3+ cards of one suit in sequence, ace low)."""
    if len(cards) < 3:
        return False
    ranks = sorted(deck.rank_of(c) for c in cards)
    suits = {deck.suit_of(c) for c in cards}
    if len(set(ranks)) == 1:
        return len(cards) <= 4 and len(suits) == len(cards)
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def brute_min_deadwood(deck: Deck, hand: Hand) -> int:
    """Least deadwood over every partition of ``hand`` into legal melds and deadwood cards."""

    @cache
    def best(rest: frozenset[Card]) -> int:
        if not rest:
            return 0
        c = min(rest)
        others = rest - {c}
        value = gin_value(deck, c) + best(others)  # c is deadwood
        # c in a meld: every other card of that meld shares c's rank or c's suit.
        near = sorted(x for x in others if deck.rank_of(x) == deck.rank_of(c) or deck.suit_of(x) == deck.suit_of(c))
        for k in range(2, len(near) + 1):
            for combo in combinations(near, k):
                if is_gin_meld(deck, (c, *combo)):
                    value = min(value, best(others - set(combo)))
        return value

    return best(frozenset(hand))


def brute_best_discard(deck: Deck, hand: Hand) -> int:
    return min(brute_min_deadwood(deck, hand[:i] + hand[i + 1:]) for i in range(len(hand)))


# ------------------------------------------------------------------ running


def timed(fn: Callable[[T], int], inputs: Sequence[T]) -> tuple[list[int], float]:
    clock = time.perf_counter
    start = clock()
    out = [fn(x) for x in inputs]
    return out, clock() - start


def show_arrangement(deck: Deck, arr: Arrangement, discard: Card | None = None) -> str:
    melds = "  ".join("[" + " ".join(deck.names_of(m.cards)) + "]" for m in arr.melds) or "(none)"
    left = sorted(arr.left, key=lambda c: (deck.suit_of(c), deck.rank_of(c)))
    dead = " ".join(f"{deck.name(c)}={gin_value(deck, c)}" for c in left) or "(none)"
    head = f"discard {deck.name(discard)}; " if discard is not None else ""
    return f"{head}melds {melds}; deadwood {dead} (total {arr.left_value})"


def names(deck: Deck, hand: Hand) -> str:
    return " ".join(deck.names_of(sorted(hand, key=lambda c: (deck.suit_of(c), deck.rank_of(c)))))


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>10,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10_000, help="hands of each kind (uniform, meld-rich)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5, help="11-card differences to print in full")
    parser.add_argument("--no-rlcard-11", action="store_true", help="skip RLCard over every discard on 11 cards")
    args = parser.parse_args()

    rs = load("gin")
    deck = rs.deck
    solver = Solver(rs)
    ospiel = OpenSpiel(deck)
    rlcard = RLCard(deck)
    rng = random.Random(args.seed)
    families: list[tuple[str, Callable[[int], list[Hand]]]] = [
        ("uniform", lambda size: uniform_hands(size, args.n, rng)),
        ("meld-rich", lambda size: meld_rich_hands(deck, size, args.n, rng)),
        ("crossing", lambda size: crossing_hands(deck, size, args.n, rng)),
    ]
    sets10 = [(label, make(10)) for label, make in families]
    sets11 = [(label, make(11)) for label, make in families]
    print(f"gin, seed {args.seed}, one core; {args.n:,} hands of each family (uniform, meld-rich, crossing)"
          " of 10 and of 11 cards; each engine timed alone over each whole list, inputs already in its own"
          " format; one Solver for the whole run (its caches start empty; 'again' = a second pass, warm)")

    # ---- 10 cards
    print("\n10 cards: minimum deadwood   ours/s  ours again/s  OpenSpiel/s   RLCard/s  disagree  mean dw    gin"
          "  ours, full arrangement/s")
    for label, hands in sets10:
        os_in = [ospiel.native(h) for h in hands]
        rl_in = [rlcard.native(h) for h in hands]
        ours, t_ours = timed(solver.best_score, hands)
        again, t_again = timed(solver.best_score, hands)
        full, t_full = timed(lambda h: solver.arrange(h).left_value or 0, hands)
        assert again == ours == full
        theirs_os, t_os = timed(ospiel.min_deadwood, os_in)
        theirs_rl, t_rl = timed(RLCard.min_deadwood, rl_in)
        bad = [i for i in range(len(hands)) if not ours[i] == theirs_os[i] == theirs_rl[i]]
        gins = sum(1 for v in ours if v == 0)
        print(f"  {label:<24} {rate(len(hands), t_ours)} {rate(len(hands), t_again):>13}"
              f" {rate(len(hands), t_os):>12} {rate(len(hands), t_rl)} {len(bad):>9}"
              f" {sum(ours) / len(ours):8.1f} {gins / len(ours):6.1%} {rate(len(hands), t_full):>12}")
        for i in bad:
            truth = brute_min_deadwood(deck, hands[i])
            print(f"    DISAGREE {names(deck, hands[i])}: ours {ours[i]}, OpenSpiel {theirs_os[i]},"
                  f" RLCard {theirs_rl[i]}, brute force {truth}")
            print(f"      ours: {show_arrangement(deck, solver.arrange(hands[i]))}")
        # The brute force itself, checked against all three on the first hands.
        sample = min(200, len(hands))
        brute_bad = sum(1 for i in range(sample) if brute_min_deadwood(deck, hands[i]) != ours[i])
        print(f"    (brute force agrees with all three on {sample - brute_bad} of the first {sample} {label} hands)")

    # ---- 11 cards
    print("\n11 cards: deadwood after the best discard")
    shown = 0
    for label, hands in sets11:
        os_in = [ospiel.native(h) for h in hands]
        clock = time.perf_counter
        t0 = clock()
        ours = [solver.best_discard_score(h) for h in hands]
        t_ours = clock() - t0
        theirs_os, t_os = timed(ospiel.min_deadwood, os_in)
        rl_line = ""
        rl_diff: list[int] = []
        if not args.no_rlcard_11:
            rl_in = [rlcard.native(h) for h in hands]
            theirs_rl, t_rl = timed(RLCard.best_discard, rl_in)
            rl_diff = [i for i in range(len(hands)) if ours[i] != theirs_rl[i]]
            rl_line = f"; RLCard over all 11 discards {rate(len(hands), t_rl).strip()} hands/s, differs {len(rl_diff)}"
        lower = [i for i in range(len(hands)) if ours[i] < theirs_os[i]]
        higher = [i for i in range(len(hands)) if ours[i] > theirs_os[i]]
        print(f"  {label}: ours (best_discard_score) {rate(len(hands), t_ours).strip()} hands/s,"
              f" OpenSpiel min_deadwood(11) {rate(len(hands), t_os).strip()} hands/s{rl_line}")
        print(f"    ours differs from OpenSpiel on {len(lower) + len(higher)} of {len(hands):,}"
              f" ({(len(lower) + len(higher)) / len(hands):.2%}): ours lower on {len(lower)}, higher on {len(higher)}")
        checked = sorted({*lower, *higher, *rl_diff})
        brute_ok = 0
        for i in checked:
            truth = brute_best_discard(deck, hands[i])
            brute_ok += truth == ours[i]
            if truth != ours[i] or i in higher or i in rl_diff or shown < args.show:
                shown += 1
                discard, arr = solver.best_discard(hands[i])
                print(f"    {names(deck, hands[i])}")
                print(f"      OpenSpiel {theirs_os[i]}: {ospiel.explain(hands[i], deck)}")
                print(f"      ours {ours[i]}: {show_arrangement(deck, arr, discard)}")
                print(f"      brute force over all discards and partitions: {truth}")
        print(f"    brute force confirms ours on {brute_ok} of the {len(checked)} hands where an engine differs")


if __name__ == "__main__":
    main()
