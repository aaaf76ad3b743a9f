"""``loba diff menos uruguay --deals 10000 --seed 1`` as a whole process (issue 5: within a minute, and the
same figures twice in a row), and the witness search of each acceptance pair in-process.

Run: ``python benchmarks/bench_diff.py [--deals 10000] [--seed 1] [--runs 2] [--repeat 3]``.  Runs the
installed ``loba`` next to ``sys.executable`` ``--runs`` times in a row, prints each wall time, whether
the outputs are byte-identical, and the play-statistics table; then, for menos/uruguay,
menos/sin-jokers, mas/mas-pagat and menos/picos, the best of ``--repeat`` timings of the rules diff and
of the witness search (rulesets loaded beforehand), with how many witnesses and examples tried.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from loba_dsl.compare import Budget
from loba_dsl.compare.rules import diff_rules
from loba_dsl.compare.witness import WitnessSearch
from loba_dsl.rules.loading import load

PAIRS = (("menos", "uruguay"), ("menos", "sin-jokers"), ("mas", "mas-pagat"), ("menos", "picos"))
"""Issue 5's acceptance pairs."""


def whole_process(left: str, right: str, deals: int, seed: int, runs: int) -> None:
    loba = str(Path(sys.executable).with_name("loba"))
    cmd = [loba, "diff", left, right, "--deals", str(deals), "--seed", str(seed)]
    print(f"$ {' '.join(['loba', *cmd[1:]])}   ({os.cpu_count()} cores)")
    outputs: list[bytes] = []
    for i in range(runs):
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode not in (0, 1):  # 0 same, 1 different; 2 is bad input
            sys.exit(f"loba diff exited {done.returncode}:\n{done.stderr.decode(errors='replace')}")
        outputs.append(done.stdout)
        print(f"  run {i + 1}: {elapsed:6.2f} s wall (exit {done.returncode})")
    same = all(o == outputs[0] for o in outputs)
    print(f"  outputs byte-identical over {runs} runs: {'yes' if same else 'NO'}")
    lines = outputs[0].decode().splitlines()
    if "Play statistics" in lines:
        print("  figures:")
        for line in lines[lines.index("Play statistics") + 1 :]:
            print(f"  {line}")


def witness_search(repeat: int) -> None:
    print(f"witness search in-process (best of {repeat}; rulesets loaded beforehand):")
    print(f"  {'pair':<20} {'rules diff':>11} {'search':>10} {'witnesses':>9} {'tried':>8}")
    for left, right in PAIRS:
        a, b = load(left), load(right)
        rules_best = search_best = float("inf")
        found = tried = 0
        for _ in range(repeat):
            start = time.perf_counter()
            rules = diff_rules(a, b)
            rules_best = min(rules_best, time.perf_counter() - start)
            start = time.perf_counter()
            search = WitnessSearch(a, b, rules, Budget())
            witnesses = search.run()
            search_best = min(search_best, time.perf_counter() - start)
            found, tried = len(witnesses), sum(search.tried.values())
        print(f"  {left + '/' + right:<20} {rules_best * 1000:8.1f} ms {search_best * 1000:7.1f} ms "
              f"{found:>9} {tried:>8,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    whole_process("menos", "uruguay", args.deals, args.seed, args.runs)
    print()
    witness_search(args.repeat)


if __name__ == "__main__":
    main()
