"""The solver's C twins against its pure-Python code, side by side in one run (issue 11, item 6).

The solver has three optional C extension modules, each the twin of Python code that stays as
the reference and the fallback (``LOBA_DSL_PURE=1`` turns them all off):

- ``native_live``: the live cards of a hand, their key and their parts (``CandidateGenerator.live``,
  ``live_shape``, ``split``): every hand's first step;
- ``native_candidates``: a hand's candidate melds (``CandidateGenerator.hand_candidates``);
- ``native_packing``: the packing searches (``packing.plain_search``, ``bitmask_search``) and the
  fields of a plain search (``Searches.plain_search``).

Each workload runs with every twin ("C"), with none ("Python"), and with ``--each``, with every
twin but one, so each line says what that twin buys.  A fresh Solver per run (the caches start
empty, as in ``bench_solver.py``), the sides interleaved, CPU time (``time.process_time``), best of
``--repeat``.  The checksums of the scores must agree, or the run stops.

    python benchmarks/bench_native.py [--n 20000] [--n-large 200] [--repeat 3] [--each]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from bench_solver import random_hands

from loba_dsl.cards.deck import Card
from loba_dsl.rules.loading import load
from loba_dsl.solver import candidates, packing
from loba_dsl.solver.api import Solver

TWINS = ("native_live", "native_candidates", "native_packing")


@contextmanager
def twins(on: Sequence[str]) -> Iterator[None]:
    """The C twins named in ``on`` in use, the others off, for the Solvers built inside."""
    saved = (candidates.NATIVE_LIVE, candidates.NATIVE_CANDIDATES, packing.NATIVE)
    candidates.NATIVE_LIVE = saved[0] and "native_live" in on
    candidates.NATIVE_CANDIDATES = saved[1] and "native_candidates" in on
    packing.NATIVE = saved[2] and "native_packing" in on
    try:
        yield
    finally:
        candidates.NATIVE_LIVE, candidates.NATIVE_CANDIDATES, packing.NATIVE = saved


def run(name: str, hands: Sequence[tuple[Card, ...]], method: str, on: Sequence[str]) -> int:
    with twins(on):
        solver = Solver(load(name))
        if method == "best_score":
            return sum(solver.best_score(h) for h in hands)
        return sum(solver.arrange(h).score for h in hands)


def side(name: str, hands: Sequence[tuple[Card, ...]], method: str, on: Sequence[str]) -> Callable[[], int]:
    return lambda: run(name, hands, method, on)


def best_of(repeat: int, sides: dict[str, Callable[[], int]]) -> dict[str, tuple[float, int]]:
    """CPU seconds (best of ``repeat``, the sides interleaved) and each side's checksum."""
    best = {name: float("inf") for name in sides}
    sums: dict[str, int] = {}
    for _ in range(repeat):
        for name, side in sides.items():
            t0 = time.process_time()
            sums[name] = side()
            best[name] = min(best[name], time.process_time() - t0)
    return {name: (best[name], sums[name]) for name in sides}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="10-card hands per ruleset (menos, gin)")
    parser.add_argument("--n-large", type=int, default=200, help="25-card mas-pagat hands")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--each", action="store_true", help="also every twin but one")
    args = parser.parse_args()
    missing = [t for t, flag in zip(TWINS, (candidates.NATIVE_LIVE, candidates.NATIVE_CANDIDATES, packing.NATIVE),
                                    strict=True) if not flag]
    if missing:
        raise SystemExit(f"C twins not in use (not built, or LOBA_DSL_PURE=1): {', '.join(missing)}; run `make native`")
    import highspy  # noqa: F401  (the LP bound's import, a one-time cost of the process: not in any figure)

    print(f"seed {args.seed}, CPU time, the sides interleaved, best of {args.repeat}; a fresh Solver per run")
    workloads = [("menos", 10, args.n), ("gin", 10, args.n), ("mas-pagat", 25, args.n_large)]
    for name, size, n in workloads:
        hands = random_hands(load(name), size, n, random.Random(args.seed))
        for method in ("best_score", "arrange"):
            sides = {"C": side(name, hands, method, TWINS), "Python": side(name, hands, method, ())}
            if args.each:
                for t in TWINS:
                    sides[f"no {t}"] = side(name, hands, method, tuple(x for x in TWINS if x != t))
            got = best_of(args.repeat, sides)
            sums = {s for _, s in got.values()}
            assert len(sums) == 1, f"{name} {method}: the sides disagree: {got}"
            c, py = got["C"][0], got["Python"][0]
            label = f"{name} {size} cards x {n:,}, {method}"
            print(f"  {label:<36} C {n / c:9,.0f} hands/s   Python {n / py:9,.0f} hands/s   Python/C {py / c:5.2f}x"
                  f"   (checksum {sums.pop()})")
            for t in TWINS if args.each else ():
                other = got[f"no {t}"][0]
                print(f"  {'':<36} without {t:<18} {n / other:9,.0f} hands/s   it buys {other / c:5.2f}x")


if __name__ == "__main__":
    main()
