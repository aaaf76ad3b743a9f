"""The solver without its caches against the anchors, side by side in one run (issue 22, item 4).

Two workloads of 10-card hands, each timed against an anchor that knows its one ruleset by heart:

- ``gin``, minimum deadwood (``Solver(load("gin")).best_score``) against OpenSpiel's C++
  (``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood``, the hands already in its card ints);
- ``menos``, the least penalty left (``Solver(load("menos")).best_score``) against
  ``benchmarks/menos_search.c``, the same exact search written in plain C for that ruleset alone
  (built here with the system ``cc -O2``; it times itself, reading its input untimed).

Our solver is measured three ways, each over the same ``--n`` hands (uniformly dealt, fixed seed):

- **cold**: a fresh ``Solver`` built before the clock (its caches empty), then every hand once; the
  caches fill as the hands go, as they do in a bot's first match;
- **no reuse**: one ``Solver`` built before the clock, and ``solver.clear_caches()`` before each hand,
  inside the clock: nothing a hand worked out (meld readings and gains, best gains of live cards)
  is there for the next.  What the Solver compiled from the ruleset stays: its value tables, meld
  kinds and their run windows, the C twins' tables, and the tables keyed by one suit's ranks held
  (skeletons and live ranks, filled as patterns appear and bounded by ``TABLE_LIMIT``);
- **warm**: the cold pass again with the same Solver (every answer cached: for reference).

Cold and no reuse are run twice: as a Solver is built, and after ``solver.compile_meld_table()``
(every candidate meld of the deck judged once, a table of the ruleset that ``clear_caches`` keeps).
The construction of a Solver and the table's compilation are timed apart, and so is a fresh Solver
for every hand (the literal "nothing reused": construction included) over ``--n-fresh`` hands.

CPU time (``time.process_time``; the C anchor's own ``clock()``), best of ``--repeat``, the sides
interleaved.  Every answer of every side is compared with the anchor's on every hand; a
disagreement is printed and the run exits 1.  Needs the benchmark venv for OpenSpiel (without it
the gin lines are skipped)::

    bash benchmarks/setup_bench_venv.sh
    benchmarks/.venv-bench/bin/python benchmarks/bench_cold.py [--n 3000] [--repeat 5] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.api import Solver

Hand = tuple[Card, ...]
HERE = Path(__file__).resolve().parent
RANK_CHARS = "A23456789TJQK"
"""OpenSpiel's rank letters, in our rank order A..K."""
SUIT_CHARS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
"""Our suit symbols to OpenSpiel's suit letters."""
WAYS = ("cold", "no reuse", "cold, table", "no reuse, table", "warm")
"""Our ways of running the hands, as printed."""


def full_deck(rs: Ruleset) -> list[Card]:
    d = rs.deck
    return [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers


def deal(rs: Ruleset, size: int, n: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    pool = full_deck(rs)
    return [tuple(rng.sample(pool, size)) for _ in range(n)]


def cpu_best(repeat: int, run: Callable[[], list[int]]) -> tuple[float, list[int]]:
    best, out = float("inf"), []
    for _ in range(repeat):
        t0 = time.process_time()
        out = run()
        best = min(best, time.process_time() - t0)
    return best, out


class Ours:
    """Our solver's three ways of running a list of hands (see the module's text)."""

    def __init__(self, rs: Ruleset, hands: Sequence[Hand]) -> None:
        self.rs, self.hands = rs, hands
        self.times: dict[str, float] = {name: float("inf") for name in (*WAYS, "build", "table")}
        self.answers: dict[str, list[int]] = {}
        self.searched = 0
        """Live-card keys the cold pass searched (its misses: hands whose live cards were new to the Solver)."""

    def once(self) -> None:
        """One pass of each way (the caller interleaves passes with the anchor's)."""
        clock = time.process_time
        t0 = clock()
        solver = Solver(self.rs)
        t1 = clock()
        best_score = solver.best_score
        cold = [best_score(h) for h in self.hands]
        t2 = clock()
        self.searched = len(solver.scores._live_gains)
        warm = [best_score(h) for h in self.hands]
        t3 = clock()
        solver = Solver(self.rs)
        best_score, clear = solver.best_score, solver.clear_caches
        t4 = clock()
        bare = []
        for h in self.hands:
            clear()
            bare.append(best_score(h))
        t5 = clock()
        solver = Solver(self.rs)
        t6 = clock()
        solver.compile_meld_table()
        t7 = clock()
        best_score = solver.best_score
        cold_table = [best_score(h) for h in self.hands]
        t8 = clock()
        solver = Solver(self.rs)
        solver.compile_meld_table()
        best_score, clear = solver.best_score, solver.clear_caches
        t9 = clock()
        bare_table = []
        for h in self.hands:
            clear()
            bare_table.append(best_score(h))
        t10 = clock()
        for name, t in (("build", t1 - t0), ("cold", t2 - t1), ("warm", t3 - t2), ("no reuse", t5 - t4),
                        ("table", t7 - t6), ("cold, table", t8 - t7), ("no reuse, table", t10 - t9)):
            self.times[name] = min(self.times[name], t)
        self.answers.update({"cold": cold, "warm": warm, "no reuse": bare, "cold, table": cold_table,
                             "no reuse, table": bare_table})

    def fresh_per_hand(self, n: int) -> tuple[float, list[int]]:
        """A new Solver for each of the first ``n`` hands (construction included)."""
        rs = self.rs
        return cpu_best(1, lambda: [Solver(rs).best_score(h) for h in self.hands[:n]])


def report(label: str, ours: Ours, anchor: str, anchor_time: float, anchor_answers: Sequence[int],
           fresh: tuple[float, list[int]]) -> int:
    """Print one workload's lines; the number of answers that differ from the anchor's."""
    n = len(ours.hands)
    us = 1e6 / n
    a = anchor_time * us
    print(f"\n{label}: {n:,} hands; {anchor} {a:.2f} us a hand ({n / anchor_time:,.0f} hands/s)")
    print(f"  Solver built in {ours.times['build'] * 1e3:.2f} ms ({ours.times['build'] * us:.2f} us a hand over the"
          f" {n:,} if it were counted); its meld table compiled in {ours.times['table'] * 1e3:.2f} ms"
          f" ({ours.times['table'] * us:.2f} us a hand); the cold pass searched {ours.searched:,} hands (live cards"
          " not met before; the others' were known, or none could meld)")
    bad = 0
    for name in WAYS:
        t = ours.times[name] * us
        wrong = [i for i, (x, y) in enumerate(zip(ours.answers[name], anchor_answers, strict=True)) if x != y]
        bad += len(wrong)
        print(f"  ours {name:<16} {t:8.2f} us a hand  {t / a:6.2f}x the anchor's time"
              f" (its speed {a / t:5.2f}x)  differs on {len(wrong)}")
        for i in wrong[:5]:
            print(f"    DIFFERS {ours.hands[i]}: ours {ours.answers[name][i]}, {anchor} {anchor_answers[i]}")
    k = len(fresh[1])
    t = fresh[0] / k * 1e6
    wrong_fresh = sum(1 for x, y in zip(fresh[1], anchor_answers, strict=False) if x != y)
    bad += wrong_fresh
    print(f"  ours, a fresh Solver a hand ({k} hands) {t:8.1f} us a hand  {t / a:6.0f}x  differs on {wrong_fresh}")
    return bad


# ------------------------------------------------------------------ gin against OpenSpiel


def gin(n: int, repeat: int, seed: int, n_fresh: int) -> int:
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        print("\ngin: skipped (no pyspiel here: run in the benchmark venv, benchmarks/setup_bench_venv.sh)")
        return 0
    rs = load("gin")
    deck = rs.deck
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    index = [int(utils.card_int(RANK_CHARS[deck.rank_of(c)] + SUIT_CHARS[deck.suits[deck.suit_of(c)].symbol]))
             for c in range(52)]
    assert sorted(index) == list(range(52))
    hands = deal(rs, 10, n, seed)
    theirs_in = [[index[c] for c in h] for h in hands]
    min_deadwood = utils.min_deadwood
    ours = Ours(rs, hands)
    t_os = float("inf")
    theirs: list[int] = []
    for _ in range(repeat):
        ours.once()
        t, theirs = cpu_best(1, lambda: [int(min_deadwood(h)) for h in theirs_in])
        t_os = min(t_os, t)
    return report("gin, minimum deadwood", ours, "OpenSpiel", t_os, theirs, ours.fresh_per_hand(n_fresh))


# ------------------------------------------------------------------ menos against the C program


def c_card(deck: Deck, c: Card) -> int:
    """menos_search.c's card number: suit * 13 + rank, 52 for a Joker."""
    return 52 if c == deck.joker_code else deck.suit_of(c) * 13 + deck.rank_of(c)


def run_c(binary: Path, deck: Deck, hands: Sequence[Hand], repeat: int) -> tuple[float, list[int]]:
    lines = [f"{len(hands)} {repeat}"] + [" ".join(map(str, (len(h), *(c_card(deck, c) for c in h)))) for h in hands]
    done = subprocess.run([str(binary)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    out = done.stdout.split("\n")
    scores = [int(x) for x in out[:len(hands)]]
    tag, seconds = out[len(hands)].split()
    assert tag == "cpu_seconds", out[len(hands)]
    return float(seconds), scores


def menos(n: int, repeat: int, seed: int, n_fresh: int, workdir: Path) -> int:
    cc = shutil.which("cc")
    if cc is None:
        print("\nmenos: skipped (no C compiler `cc` on PATH)")
        return 0
    binary = workdir / "menos_search"
    subprocess.run([cc, "-O2", "-std=c99", "-o", str(binary), str(HERE / "menos_search.c")], check=True)
    rs = load("menos")
    assert rs.deck.n_ranks == 13 and rs.deck.n_suits == 4
    hands = deal(rs, 10, n, seed)
    ours = Ours(rs, hands)
    t_c = float("inf")
    theirs: list[int] = []
    for _ in range(repeat):
        ours.once()
        t, theirs = run_c(binary, rs.deck, hands, 1)
        t_c = min(t_c, t)
    return report("menos, best_score (least penalty left)", ours, "menos_search.c", t_c, theirs,
                  ours.fresh_per_hand(n_fresh))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=3_000, help="10-card hands per workload")
    parser.add_argument("--n-fresh", type=int, default=200, help="hands with a fresh Solver each")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"seed {args.seed}, one core, CPU time, best of {args.repeat}, the sides interleaved;"
          f" load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        bad = gin(args.n, args.repeat, args.seed, args.n_fresh)
        bad += menos(args.n, args.repeat, args.seed, args.n_fresh, Path(tmp))
    print(f"\nload average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if bad:
        print(f"{bad} answers differ from the anchors'", file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()
