"""Random 4-player menos play in one or more checkouts, interleaved in one run (issue 22 item 1, issue 25).

Each run plays the same seeded rounds (``game.simulate.play_round``: listing, choice, ``Table.play``) in a
fresh interpreter per tree (the tree first on ``PYTHONPATH``), one tree after the other, so a busy machine
slows all of them alike; the figures are CPU time, best of ``--runs``.  Beside a move's whole cost it
prints the share of the listing (``list(table.legal())``) and of ``Table.play``, each timed around its
call inside the same loop.  Give ``--tree`` twice (e.g. a checkout of an older commit, then this one) to
compare them; the anchor printed first is the first tree.

``--rev REV`` times a commit of this repository as the first tree (the anchor): its files are written to a
temporary directory (``git archive``) with this checkout's built C twins copied in where their sources are the
same at that commit (else built there).  The timed rounds are seeds ``0..rounds-1``, the warm-up and the
part-by-part pass other seeds.  The load average is printed with the figures (a shared machine: read the ratio).

Run: ``python benchmarks/bench_play.py [--runs 5] [--rounds 20] [--rev REV] [--tree PATH ...]``, e.g.
``--rev 304f790`` for the anchor of this session (issue 22: a move at most 30 us, at least 140 rounds/s).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

TARGET_MOVE_US = 30.0
TARGET_ROUNDS = 140.0

_CHILD = r"""
import json, random, sys, time
from loba_dsl.game import Table
from loba_dsl.game.simulate import play_round
from loba_dsl.rules.loading import load

rs = load("menos")
players = ["Ana", "Beto", "Carla", "Dora"]
clock = time.process_time
spent = {"legal": 0.0, "play": 0.0}
legal, play = Table.legal, Table.play


def timed_legal(self, *args, **kwargs):
    start = clock()
    moves = list(legal(self, *args, **kwargs))
    spent["legal"] += clock() - start
    return moves


def timed_play(self, *args, **kwargs):
    start = clock()
    try:
        return play(self, *args, **kwargs)
    finally:
        spent["play"] += clock() - start


def rounds(seeds):
    plies = 0
    for seed in seeds:
        t = Table.deal(rs, players, players[seed % 4], seed)
        plies += play_round(t, random.Random(seed), max_plies=5_000)
    return plies


n = int(sys.argv[1])
rounds(range(10_000, 10_002))  # warm: the ruleset's generator and matcher built (seeds of no timed round)
start = clock()
plies = rounds(range(n))
whole = clock() - start
Table.legal, Table.play = timed_legal, timed_play  # a second pass, timed part by part, on rounds of other seeds
parts = rounds(range(n, 2 * n))
print(json.dumps({"whole": whole, "plies": plies, "part_plies": parts, **spent}))
"""


def checkout(rev: str, into: str) -> str:
    """Commit ``rev`` of this repository written to ``into`` (the C twins as built here where the same)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    archive = subprocess.run(["git", "-C", here, "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    same = subprocess.run(["git", "-C", here, "diff", "--quiet", rev, "--", "loba_dsl/solver/"]).returncode == 0
    built = glob.glob(os.path.join(here, "loba_dsl", "solver", "native_*.so"))
    if same and built:
        for path in built:
            shutil.copy(path, os.path.join(into, "loba_dsl", "solver"))
    else:
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=into, check=True,
                       capture_output=True)
    return into


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--tree", action="append", default=None, help="a checkout to time (repeatable)")
    ap.add_argument("--rev", help="a commit of this repository to time first, as the anchor")
    args = ap.parse_args()
    trees = args.tree or [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    scratch = None
    if args.rev:
        scratch = tempfile.mkdtemp(prefix="bench-play-")
        trees = [checkout(args.rev, scratch), *trees]
        print(f"anchor: {args.rev} in {scratch}")
    try:
        report(trees, args.runs, args.rounds)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def report(trees: list[str], runs: int, rounds: int) -> None:
    best: dict[str, dict[str, float]] = {}
    before = os.getloadavg()[0]
    for _ in range(runs):
        for tree in trees:
            env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
            out = subprocess.run([sys.executable, "-c", _CHILD, str(rounds)], env=env, cwd=tree, check=True,
                                 capture_output=True, text=True).stdout
            got = json.loads(out.splitlines()[-1])
            kept = best.setdefault(tree, dict(got))
            for key in ("whole", "legal", "play"):  # the same seeds every run: the same moves
                kept[key] = min(kept[key], got[key])
    print(f"load average: {before:.1f} before, {os.getloadavg()[0]:.1f} after ({os.cpu_count()} cores)")
    print(f"random 4-player menos rounds, {rounds} seeds (CPU time, best of {runs} interleaved runs; "
          f"issue 22's targets: a move at most {TARGET_MOVE_US:.0f} us, at least {TARGET_ROUNDS:.0f} rounds/s):")
    anchor = best[trees[0]]["whole"] / best[trees[0]]["plies"]
    for tree in trees:
        b = best[tree]
        move = b["whole"] / b["plies"]
        print(f"  {tree}: {move * 1e6:5.1f} us a move ({anchor / move:.2f}x the first), "
              f"{rounds / b['whole']:6.1f} rounds/s, {b['plies'] / rounds:.0f} moves a round; "
              f"of a move: listing {b['legal'] / b['part_plies'] * 1e6:.1f} us, "
              f"Table.play {b['play'] / b['part_plies'] * 1e6:.1f} us")


if __name__ == "__main__":
    main()
