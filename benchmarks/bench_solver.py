"""The exact solver on one core (issue 4 targets), in the main venv with no extra dependencies.

Run: ``python benchmarks/bench_solver.py [--n 20000] [--n-large 1000] [--n-40 100] [--seed 1] [--wall]``.

Three workloads, each with one :class:`Solver` per ruleset built before the
clock starts (its caches start empty and fill during the timed run: they are
part of the design):

- ``menos``: random 10-card hands from the full 108-card deck (target: at
  least 10,000 hands/s);
- ``gin``: random 10-card hands from the 52-card deck (compare with RLCard in
  ``bench_gin.py``, which needs the optional benchmark venv);
- ``mas-pagat``: random 25-card and 40-card hands from the 108-card deck, 2s
  and Jokers wild (issue 11 targets: p99 at most 50 ms and 2 s).

The 10-card workloads are timed twice, each with a fresh Solver: the score
only (``best_score``), then the whole arrangement (``arrange``).  Times are CPU
time unless ``--wall``.

Each line prints hands/s over the whole list (a pass with no clock read per
hand), then the median, 99th percentile and maximum of the per-hand times (a
second pass, with fresh caches too), and a checksum of the scores
(so a change in results shows even when the speed does not).  The slowest
``mas-pagat`` hand is printed in full, so it can be rerun with ``loba arrange``.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable, Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.api import Solver

CPU = True
"""Time by CPU time (the process's own, unmoved by other work on a shared machine), unless ``--wall``."""


def full_deck(rs: Ruleset) -> list[Card]:
    """Every physical card of the ruleset's deck (copies and Jokers included)."""
    d = rs.deck
    return [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers


def random_hands(rs: Ruleset, size: int, n: int, rng: random.Random) -> list[tuple[Card, ...]]:
    pool = full_deck(rs)
    return [tuple(rng.sample(pool, size)) for _ in range(n)]


def run(label: str, make_solver: Callable[[], Solver], hands: Sequence[tuple[Card, ...]], *,
        numbers_only: bool = False) -> tuple[list[float], int]:
    """Times ``arrange`` (or ``best_score``: ``numbers_only``) on every hand; prints one line of figures.

    Two passes, each with a fresh Solver from ``make_solver`` (its caches empty): the hands/s from one
    with no clock read per hand (a read of the CPU clock costs ~0.7 us, a tenth of a 10-card hand), then
    the median, 99th percentile and maximum from one that times each hand.
    """
    clock = time.process_time if CPU else time.perf_counter
    solver = make_solver()
    arrange, best_score = solver.arrange, solver.best_score
    start = clock()
    checksum = sum(map(best_score, hands)) if numbers_only else sum(arrange(h).score for h in hands)
    elapsed = clock() - start
    solver = make_solver()
    times: list[float] = []
    timed = 0
    for hand in hands:
        t0 = clock()
        timed += solver.best_score(hand) if numbers_only else solver.arrange(hand).score
        times.append(clock() - t0)
    assert timed == checksum, "the two passes disagree"
    p99 = statistics.quantiles(times, n=100, method="inclusive")[98] if len(times) >= 2 else times[0]
    print(f"  {label:<34} {len(hands) / elapsed:>9,.0f} hands/s   median {statistics.median(times) * 1e3:7.3f} ms"
          f"   p99 {p99 * 1e3:7.3f} ms   max {max(times) * 1e3:8.3f} ms   (checksum {checksum})")
    return times, checksum


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="10-card hands per ruleset (menos, gin)")
    parser.add_argument("--n-large", type=int, default=1_000, help="25-card mas-pagat hands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--n-40", type=int, default=100, help="40-card mas-pagat hands (0: none)")
    parser.add_argument("--budget", type=float, default=120, help="seconds one hand may take (a budget)")
    parser.add_argument("--wall", action="store_true", help="time by the wall clock instead of CPU time")
    args = parser.parse_args()
    global CPU
    CPU = not args.wall
    print(f"seed {args.seed}, one core, one Solver per ruleset (caches start empty)")
    # The solver imports HiGHS (for the LP bound) the first time a hand is large enough to need it:
    # a one-time cost of the process, like building the Solver, measured here and not in any hand.
    t0 = time.perf_counter()
    import highspy  # noqa: F401

    print(f"  (HiGHS and NumPy imported in {(time.perf_counter() - t0) * 1e3:.1f} ms, not included)")

    workloads = [
        ("menos", 10, args.n, "menos, 10 cards of 108"),
        ("gin", 10, args.n, "gin, 10 cards of 52"),
        ("mas-pagat", 25, args.n_large, "mas-pagat, 25 cards of 108"),
        ("mas-pagat", 40, args.n_40, "mas-pagat, 40 cards of 108"),
    ]
    for name, size, n, label in workloads:
        if not n:
            continue
        rs = load(name)
        hands = random_hands(rs, size, n, random.Random(args.seed))
        if size == 10:  # the number only (best_score), then the whole arrangement, each with fresh caches
            run(label + ", best_score", functools.partial(Solver, rs), hands, numbers_only=True)
        t0 = time.perf_counter()
        Solver(rs, budget=args.budget)
        built = time.perf_counter() - t0
        times, _ = run(label + (", arrange" if size == 10 else ""),
                       functools.partial(Solver, rs, budget=args.budget), hands)
        print(f"  {'':<34} (Solver built in {built * 1e3:.1f} ms, not included)")
        if size > 10:
            slowest = max(range(len(times)), key=times.__getitem__)
            shown = " ".join(rs.deck.names_of(sorted(hands[slowest])))
            print(f"  slowest {name} hand ({times[slowest] * 1e3:.1f} ms): {shown}")
    print("targets (issue 11): menos best_score >= 50,000 hands/s, arrange >= 25,000/s; gin >= 3x RLCard"
          " (bench_gin.py); mas-pagat 25 cards p99 <= 50 ms, 40 cards p99 <= 2 s")


if __name__ == "__main__":
    main()
