"""The solver's C packing kernels against the pure-Python ones, side by side in one run (issue 11, item 6).

1. The kernels alone, on the searches the solver itself asks for: every plain search and bitmask
   search it runs on random 10-card menos hands and 25-card mas-pagat hands is recorded, then
   replayed through the C kernel and through the Python kernel.
2. End to end: ``Solver.best_score`` and ``Solver.arrange`` on random hands, with the C kernels and
   with the Python ones (``packing.NATIVE`` switched in the same process; a fresh Solver each run, so
   the caches start empty).

CPU time (time.process_time), the two sides interleaved, best of ``--repeat``.

    python benchmarks/bench_native.py [--n 20000] [--n-large 200] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench_solver import random_hands

from loba_dsl.budget import Budget, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.rules.loading import load
from loba_dsl.solver import packing
from loba_dsl.solver.api import Solver

PlainCall = tuple[int, int, Sequence[Sequence[tuple[int, int, int]]]]
BitmaskCall = tuple[int, Sequence[Sequence[tuple[int, int]]], list[int]]


def collect(hands_of: Sequence[tuple[str, list[tuple[Card, ...]]]]) -> tuple[list[PlainCall], list[BitmaskCall]]:
    """The kernel calls the solver makes on these hands (best_score and arrange, one Solver per ruleset)."""
    plain: list[PlainCall] = []
    bitmask: list[BitmaskCall] = []
    real_plain, real_bitmask = packing.plain_search, packing.bitmask_search

    def record_plain(key: int, bits: int, by_first: Any, clock: Any = None) -> tuple[int, list[int]]:
        plain.append((key, bits, by_first))
        return real_plain(key, bits, by_first, clock)

    def record_bitmask(n: int, by_low: Any, clock: Any = None) -> Callable[[int], int]:
        frees: list[int] = []
        bitmask.append((n, by_low, frees))
        solve = real_bitmask(n, by_low, clock)

        def recorded(free: int) -> int:
            frees.append(free)
            return solve(free)

        return recorded

    packing.plain_search, packing.bitmask_search = record_plain, record_bitmask
    try:
        for name, hands in hands_of:
            solver = Solver(load(name))
            for hand in hands:
                solver.best_score(hand)
                solver.arrange(hand)
    finally:
        packing.plain_search, packing.bitmask_search = real_plain, real_bitmask
    return plain, bitmask


def replay(plain: list[PlainCall], bitmask: list[BitmaskCall], native: bool) -> int:
    """Every recorded search through one kernel; the checksum of the answers."""
    # The C side goes through packing's switch (NATIVE is on): as the solver calls it, fallbacks and all.
    plain_search = packing.plain_search if native else packing.pure_plain_search
    bitmask_search = packing.bitmask_search if native else packing.pure_bitmask_search
    total = 0
    for key, bits, by_first in plain:
        total += plain_search(key, bits, by_first)[0]
    for n, by_low, frees in bitmask:
        solve = bitmask_search(n, by_low)
        for free in frees:
            total += solve(free)
    return total


class Counter(Clock):
    __slots__ = ("counted",)

    def __init__(self, budget: Budget, what: str) -> None:
        super().__init__(budget, what)
        self.counted = 0

    def tick(self, n: int = 1) -> None:
        self.counted += n


def count_states(plain: list[PlainCall], bitmask: list[BitmaskCall]) -> int:
    clock = Counter(Budget(), "counting")
    for key, bits, by_first in plain:
        packing.pure_plain_search(key, bits, by_first, clock)
    for n, by_low, frees in bitmask:
        solve = packing.pure_bitmask_search(n, by_low, clock)
        for free in frees:
            solve(free)
    return clock.counted


def best_of(repeat: int, sides: dict[str, Callable[[], int]]) -> dict[str, tuple[float, int]]:
    """CPU seconds (best of ``repeat``, the sides interleaved) and each side's checksum."""
    best = {name: float("inf") for name in sides}
    sums: dict[str, int] = {}
    for _ in range(repeat):
        for name, run in sides.items():
            t0 = time.process_time()
            sums[name] = run()
            best[name] = min(best[name], time.process_time() - t0)
    return {name: (best[name], sums[name]) for name in sides}


def end_to_end(name: str, hands: list[tuple[Card, ...]], method: str, native: bool) -> int:
    saved = packing.NATIVE
    packing.NATIVE = native
    try:
        solver = Solver(load(name))
        if method == "best_score":
            return sum(solver.best_score(h) for h in hands)
        return sum(solver.arrange(h).score for h in hands)
    finally:
        packing.NATIVE = saved


def side(name: str, hands: list[tuple[Card, ...]], method: str, native: bool) -> Callable[[], int]:
    return lambda: end_to_end(name, hands, method, native)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="10-card hands per ruleset (menos, gin)")
    parser.add_argument("--n-large", type=int, default=200, help="25-card mas-pagat hands")
    parser.add_argument("--n-kernel", type=int, default=2_000, help="10-card menos hands whose searches are replayed")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not packing.NATIVE:
        raise SystemExit("the C kernels are not in use (not built, or LOBA_DSL_PURE=1): run `make native`")
    import highspy  # noqa: F401  (the LP bound's import, a one-time cost of the process: not in any figure)

    print(f"seed {args.seed}, CPU time, C and Python interleaved, best of {args.repeat}")
    rng = random.Random(args.seed)
    menos = random_hands(load("menos"), 10, args.n_kernel, rng)
    pagat = random_hands(load("mas-pagat"), 25, max(1, args.n_large // 4), rng)
    plain, bitmask = collect([("menos", menos), ("mas-pagat", pagat)])
    states = count_states(plain, bitmask)
    print(f"kernels alone: {len(plain):,} plain searches and {len(bitmask):,} bitmask searches"
          f" ({states:,} search states) from {len(menos):,} menos and {len(pagat):,} mas-pagat hands")
    got = best_of(args.repeat, {"C": lambda: replay(plain, bitmask, True),
                                "Python": lambda: replay(plain, bitmask, False)})
    assert got["C"][1] == got["Python"][1], "the kernels disagree"
    (c, _), (py, _) = got["C"], got["Python"]
    print(f"  {'replayed searches':<36} C {c * 1e3:9.1f} ms   Python {py * 1e3:9.1f} ms   Python/C {py / c:6.1f}x")

    print("end to end (a fresh Solver per run):")
    workloads = [("menos", 10, args.n), ("gin", 10, args.n), ("mas-pagat", 25, args.n_large)]
    for name, size, n in workloads:
        hands = random_hands(load(name), size, n, random.Random(args.seed))
        for method in ("best_score", "arrange"):
            got = best_of(args.repeat, {"C": side(name, hands, method, True),
                                        "Python": side(name, hands, method, False)})
            assert got["C"][1] == got["Python"][1], f"{name} {method}: the kernels disagree"
            (c, _), (py, _) = got["C"], got["Python"]
            label = f"{name} {size} cards x {n:,}, {method}"
            print(f"  {label:<36} C {n / c:9,.0f} hands/s   Python {n / py:9,.0f} hands/s   Python/C {py / c:5.2f}x")


if __name__ == "__main__":
    main()
