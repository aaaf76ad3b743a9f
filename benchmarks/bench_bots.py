"""The bots' and the simulation's speed (issue 25 targets), CPU time where one process works.

1. Random-legal 4-player menos rounds per CPU second, through the simulation's game driver (target: at least
   100 per core), beside the referee's own random play (``game.simulate.play_round``, the anchor).
2. Greedy 4-player menos rounds per CPU second (target: at least 25 per core).
3. Search's CPU time per searched decision (one search seat among three greedy, 4-player menos): the default
   play-outs (``endgame=0``), and the default, the endgame lookahead (``endgame=7``).
4. All cores: the same seeded greedy rounds through ``simulate`` with 1 and 2 worker processes (wall time;
   target: a speed-up of at least 1.8x), and on a Dask ``LocalCluster`` of 2 worker processes against the
   2-process pool (target: Dask's overhead under 10%), the pool's and Dask's runs interleaved.  The figures of
   all three must be identical.

Each measure is the best of ``--runs``; the machine's load average is printed with them (a shared machine
makes wall-time ratios noisy: read them with it).

``--rev REV`` also times measure 1 (the game driver and its anchor) at a commit of this repository, in a fresh
interpreter per tree, the commit's and this checkout's runs interleaved (as ``bench_play.py --rev``), and prints
them side by side; ``--random-only`` stops after measure 1.

Run: ``python benchmarks/bench_bots.py [--rounds 40] [--runs 3] [--parallel 120] [--no-dask] [--rev REV]
[--random-only]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import time

from loba_dsl.bots.search import SearchBot
from loba_dsl.game import Table
from loba_dsl.game.simulate import play_round
from loba_dsl.rules.loading import load
from loba_dsl.simulation import simulate
from loba_dsl.simulation.games import play_game

PLAYERS = ["Ana", "Beto", "Carla", "Dora"]


def cpu_rounds(bots: list[str], rounds: int, runs: int) -> float:
    rs = load("menos")
    best = 0.0
    for run in range(runs):
        t = time.process_time()
        for i in range(rounds):
            play_game(rs, bots, 1000 + run, i, match=False)
        best = max(best, rounds / (time.process_time() - t))
    return best


def anchor_rounds(rounds: int, runs: int) -> float:
    rs = load("menos")
    best = 0.0
    for run in range(runs):
        t = time.process_time()
        for i in range(rounds):
            table = Table.deal(rs, PLAYERS, PLAYERS[-1], 1000 * run + i)
            play_round(table, random.Random(i), max_plies=3000)
        best = max(best, rounds / (time.process_time() - t))
    return best


_RANDOM_CHILD = r"""
import json, random, sys, time
from loba_dsl.game import Table
from loba_dsl.game.simulate import play_round
from loba_dsl.rules.loading import load
from loba_dsl.simulation.games import play_game

rs = load("menos")
players = ["Ana", "Beto", "Carla", "Dora"]
rounds, run = int(sys.argv[1]), int(sys.argv[2])
play_game(rs, ["random"] * 4, 999, 0, match=False)  # warm: a game of a seed no timed round has
t = time.process_time()
for i in range(rounds):
    play_game(rs, ["random"] * 4, 1000 + run, i, match=False)
driver = rounds / (time.process_time() - t)
t = time.process_time()
for i in range(rounds):
    play_round(Table.deal(rs, players, players[-1], 1000 * run + i), random.Random(i), max_plies=3000)
anchor = rounds / (time.process_time() - t)
print(json.dumps({"driver": driver, "anchor": anchor}))
"""


def random_side_by_side(rev: str, rounds: int, runs: int) -> None:
    """Measure 1 at commit ``rev`` and in this checkout, interleaved, each in a fresh interpreter."""
    import shutil
    import subprocess
    import sys
    import tempfile

    from bench_play import checkout

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    scratch = tempfile.mkdtemp(prefix="bench-bots-")
    try:
        trees = {rev: checkout(rev, scratch), "this checkout": here}
        best: dict[str, dict[str, float]] = {}
        for run in range(runs):
            for name, tree in trees.items():
                out = subprocess.run([sys.executable, "-c", _RANDOM_CHILD, str(rounds), str(run)], cwd=tree,
                                     env={**os.environ, "PYTHONPATH": tree}, check=True, capture_output=True,
                                     text=True).stdout
                got = json.loads(out.splitlines()[-1])
                kept = best.setdefault(name, got)
                for key in got:
                    kept[key] = max(kept[key], got[key])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    first = best[rev]["driver"]
    for name, b in best.items():
        print(f"  {name:>14}: game driver {b['driver']:7.1f} rounds/CPU-s ({b['driver'] / first:.2f}x {rev}; "
              f"target >= 100), anchor play_round {b['anchor']:7.1f}")


def search_decision(rounds: int, **options: int) -> tuple[float, int]:
    """CPU seconds per searched decision of one search seat (its default settings, or ``options``) among three
    greedy seats."""
    from collections.abc import Sequence

    from loba_dsl.bots.greedy import GreedyBot
    from loba_dsl.game.match import Match
    from loba_dsl.game.moves import Move
    from loba_dsl.game.standings import ReentryOffer
    from loba_dsl.game.view import PlayerView

    class Timed:
        def __init__(self, bot: SearchBot) -> None:
            self.bot, self.spent = bot, 0.0

        def move(self, view: PlayerView, legal: Sequence[Move]) -> Move:
            before, t = self.bot.decisions, time.process_time()
            mv = self.bot.move(view, legal)
            if self.bot.decisions > before:
                self.spent += time.process_time() - t
            return mv

        def reenter(self, offer: ReentryOffer) -> bool:
            return True

    rs = load("menos")
    spent, decisions = 0.0, 0
    for i in range(rounds):
        timed = Timed(SearchBot(random.Random(i), **options))
        players = {"Ana": timed, **{p: GreedyBot() for p in PLAYERS[1:]}}
        Match(Table.deal(rs, PLAYERS, PLAYERS[-1], 500 + i), players).play_round()  # type: ignore[arg-type]
        spent += timed.spent
        decisions += timed.bot.decisions
    return spent / max(1, decisions), decisions


def wall(fn: object, runs: int) -> tuple[float, str]:
    best = float("inf")
    digest = ""
    for _ in range(runs):
        t = time.perf_counter()
        report = fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t)
        digest = json.dumps(report.to_dict(), sort_keys=True)
    return best, digest


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--parallel", type=int, default=120, help="greedy rounds in the all-cores runs")
    ap.add_argument("--search-rounds", type=int, default=2)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--rev", help="a commit of this repository whose random-legal figures to print beside these")
    ap.add_argument("--random-only", action="store_true", help="the random-legal figures only")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    play_game(load("menos"), ["random"] * 4, 999, 0, match=False)  # warm: a game of a seed no timed round has
    print(f"random-legal 4p menos, game driver : {cpu_rounds(['random'] * 4, args.rounds // 4 or 1, args.runs):7.1f} "
          "rounds/CPU-s (target >= 100)")
    print(f"random-legal 4p menos, anchor      : {anchor_rounds(args.rounds // 4 or 1, args.runs):7.1f} rounds/CPU-s "
          "(game.simulate.play_round)")
    if args.rev:
        print(f"random-legal 4p menos, {args.rounds // 4 or 1} rounds, best of {args.runs} interleaved runs "
              "(CPU time, a fresh interpreter each):")
        random_side_by_side(args.rev, args.rounds // 4 or 1, args.runs)
    if args.random_only:
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        return
    print(f"greedy 4p menos                    : {cpu_rounds(['greedy'] * 4, args.rounds, args.runs):7.1f} "
          "rounds/CPU-s (target >= 25)")
    per, n = search_decision(args.search_rounds, endgame=0)
    print(f"search play-outs (1 of 4 seats)    : {per * 1000:7.0f} ms CPU per searched decision ({n} decisions)")
    per, n = search_decision(args.search_rounds)
    print(f"search default, endgame=7 (1 of 4) : {per * 1000:7.0f} ms CPU per searched decision ({n} decisions)")
    rs = load("menos")
    bots = ["greedy"] * 4

    def run(workers: int) -> object:
        return simulate(rs, games=args.parallel, bots=bots, seed=5, match=False, workers=workers)

    one, d1 = wall(lambda: run(1), args.runs)
    if args.no_dask:
        two, d2 = wall(lambda: run(2), args.runs)
    else:
        from distributed import LocalCluster

        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,  # type: ignore[no-untyped-call]
                          host="127.0.0.1") as cluster:
            addr = cluster.scheduler_address
            simulate(rs, games=8, bots=bots, seed=6, match=False, executor="dask", address=addr)  # warm the workers

            def on_dask() -> object:
                return simulate(rs, games=args.parallel, bots=bots, seed=5, match=False, executor="dask",
                                address=addr)

            two, dask = float("inf"), float("inf")
            for _ in range(args.runs):  # interleaved, so that a change in the machine's load hits both alike
                t, d2 = wall(lambda: run(2), 1)
                two = min(two, t)
                t, dd = wall(on_dask, 1)
                dask = min(dask, t)
        assert dd == d1, "Dask gave different figures"
    print(f"greedy rounds, 1 worker            : {args.parallel / one:7.1f} rounds/s wall")
    print(f"greedy rounds, 2 workers           : {args.parallel / two:7.1f} rounds/s wall, speed-up {one / two:.2f}x "
          "(target >= 1.8x)")
    assert d1 == d2, "1 and 2 workers gave different figures"
    if not args.no_dask:
        print(f"greedy rounds, Dask 2 workers      : {args.parallel / dask:7.1f} rounds/s wall, overhead "
              f"{(dask / two - 1) * 100:+.1f}% against the 2-process pool, interleaved (target < 10%)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
