"""``loba check "A♣ 2♣ JOKER"`` as a whole process (issue 2 target: median at most 150 ms).

Run: ``python benchmarks/bench_cli.py [--runs 30]``.  Warms the compiled-ruleset
cache once, then times whole processes and prints the median, and the top of
``python -X importtime`` for the same command (what dominates start-up).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

PROBE = """import sys
sys.argv = ["loba", "check", "A♣ 2♣ JOKER"]
from loba_cli.main import main
try:
    main()
except SystemExit:
    pass
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    loba = shutil.which("loba") or str(Path(sys.executable).with_name("loba"))
    cmd = [loba, "check", "A♣ 2♣ JOKER"]
    subprocess.run(cmd, check=True, capture_output=True)  # warm the ruleset cache
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append((time.perf_counter() - start) * 1000)
    base = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        base.append((time.perf_counter() - start) * 1000)
    print(f"loba check \"A♣ 2♣ JOKER\": median {statistics.median(times):.0f} ms, "
          f"min {min(times):.0f} ms, max {max(times):.0f} ms over {args.runs} runs")
    print(f"bare interpreter start:    median {statistics.median(base):.0f} ms")
    probe = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", PROBE],
        capture_output=True, text=True, check=False,
    )
    rows = []
    for line in probe.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if m and len(m.group(3)) <= 3:
            rows.append((int(m.group(2)), m.group(4)))
    print("largest top-level imports (cumulative, ms):")
    for micros, name in sorted(rows, reverse=True)[:8]:
        print(f"  {micros / 1000:6.1f}  {name}")


if __name__ == "__main__":
    main()
