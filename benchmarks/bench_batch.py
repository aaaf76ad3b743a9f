"""Batch mode stays linear and flat in memory (issue 11): ``loba check --file -`` and ``loba arrange --file -``.

Run: ``python benchmarks/bench_batch.py [--check 1000,10000,100000] [--arrange 500,2000] [--tree PATH]``.

Each size is one whole ``loba`` process fed that many lines on stdin; the
script prints the seconds, the cost per line (µs) and the process's peak
memory (MiB, from ``wait4``'s rusage).  Linear means the per-line cost is
flat as the sizes grow; bounded means the peak memory is flat too.

For ``arrange`` it also samples the process's resident memory (``VmRSS``) as
the answers come out, every 1/40 of the hands, and prints how much it grew
over the last half of them (issue 22: within 1 MiB over the last half of
20,000 25-card hands): the most it held in the last half, less what it held
at the half-way answer.

The lines are fixed texts cycled (melds for ``check``, 25-card ``mas-pagat``
hands for ``arrange``), so the script imports nothing from the library and
``--tree`` (put first on ``PYTHONPATH``) can time another checkout the same way.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

MELDS = [
    "A♣ 2♣ JOKER", "7♠ 7♥ 7♦", "3♥ 4♥ 5♥ 6♥", "K♠ K♥ K♦ K♣", "9♦ 10♦ J♦ Q♦", "5♠ JOKER 7♠",
    "Q♣ Q♥ Q♠", "2♦ 3♦ 4♦", "8♥ 9♥ 10♥ J♥ Q♥", "6♣ 6♦ 6♠", "A♥ 2♥ 3♥", "4♠ 5♠ 6♠ JOKER",
    "7♠ 7♥ JOKER", "3♣ 5♣ 6♣", "10♠ J♠ Q♠ K♠", "2♥ 2♠ 2♦",
]
"""Legal and illegal menos melds (a refused one makes the CLI explain it, as in real batches)."""

SUITS = "♠♥♦♣"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def hands(n: int, size: int, seed: int = 11) -> list[str]:
    """``n`` random ``size``-card hands from two French decks and four Jokers (the mas-pagat deck)."""
    pack = [f"{r}{s}" for r in RANKS for s in SUITS] * 2 + ["JOKER"] * 4
    rng = random.Random(seed)
    return [" ".join(rng.sample(pack, size)) for _ in range(n)]


def run(args: list[str], lines: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds and peak MiB of one ``loba`` process reading ``lines`` on stdin."""
    data = ("\n".join(lines) + "\n").encode()
    cmd = [sys.executable, "-c", "from loba_cli.main import main; main()", *args]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env)
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1, 2):
        raise SystemExit(f"{' '.join(args)} failed with exit {proc.returncode}")
    return seconds, usage.ru_maxrss / 1024


def rss_kib(pid: int) -> int:
    """The resident memory of ``pid`` now, in KiB (``0`` once it has gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_sampled(args: list[str], lines: list[str], env: dict[str, str],
                parts: int = 40) -> tuple[float, float, list[tuple[int, int]]]:
    """Seconds, peak MiB and ``(answers so far, VmRSS KiB)`` samples of one ``loba arrange --file -`` process
    (an answer is counted at its first line, the one that does not start with a space)."""
    import threading

    data = ("\n".join(lines) + "\n").encode()
    cmd = [sys.executable, "-c", "from loba_cli.main import main; main()", *args]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin

    def feed() -> None:
        stdin.write(data)
        stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    every = max(1, len(lines) // parts)
    samples: list[tuple[int, int]] = []
    answers = 0
    for raw in proc.stdout:
        if raw[:1] not in (b" ", b"\n"):
            answers += 1
            if answers % every == 0:
                samples.append((answers, rss_kib(proc.pid)))
    writer.join()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1, 2):
        raise SystemExit(f"{' '.join(args)} failed with exit {proc.returncode}")
    return seconds, usage.ru_maxrss / 1024, samples


def last_half_growth(samples: list[tuple[int, int]], n: int) -> str:
    """What the RSS samples say of the last half of ``n`` answers: at the half, the most after it, the growth."""
    half = [kib for done, kib in samples if done >= n // 2]
    if len(half) < 2:
        return "too few samples"
    at_half, most = half[0], max(half)
    quarter = [kib for done, kib in samples if done >= 3 * n // 4]
    return (f"RSS at the half {at_half / 1024:.1f} MiB, at the end {half[-1] / 1024:.1f} MiB, most in the last half "
            f"{most / 1024:.1f} MiB: grew {(most - at_half) / 1024:+.2f} MiB over the last half "
            f"({(max(quarter) - quarter[0]) / 1024:+.2f} MiB over the last quarter; target within 1 MiB)")


def sizes(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", default="1000,10000,50000,200000", help="line counts for `loba check --file -`")
    parser.add_argument("--arrange", default="250,1000,4000", help="hand counts for `loba arrange --file -`")
    parser.add_argument("--hand-size", type=int, default=25)
    parser.add_argument("--ruleset", default="mas-pagat", help="the ruleset of the arranged hands")
    parser.add_argument("--time-limit", type=float, default=None, help="pass --time-limit to arrange (new trees)")
    parser.add_argument("--tree", default=None, help="a checkout to time instead of the installed one")
    parser.add_argument("--samples", action="store_true", help="print every RSS sample of the arrange runs")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.tree:
        env["PYTHONPATH"] = os.path.abspath(args.tree)
    print(f"python {sys.version.split()[0]}; tree {env.get('PYTHONPATH', '(installed)')}")
    sys.stdout.flush()
    start = min(run(["check", "--file", "-"], [], env)[0] for _ in range(3))
    print(f"start-up (no lines): {start:.3f} s; per-line costs below are net of it")
    for n in sizes(args.check):
        lines = [MELDS[i % len(MELDS)] for i in range(n)]
        seconds, mib = run(["check", "--file", "-"], lines, env)
        print(f"check   --file -  {n:>7} lines: {seconds:8.2f} s  {(seconds - start) / n * 1e6:7.1f} µs/line  "
              f"peak {mib:6.1f} MiB", flush=True)
    pool = hands(max(sizes(args.arrange), default=0), args.hand_size)
    for n in sizes(args.arrange):
        extra = ["--time-limit", str(args.time_limit)] if args.time_limit else []
        seconds, mib, samples = run_sampled(["arrange", "-r", args.ruleset, "--file", "-", *extra], pool[:n], env)
        print(f"arrange --file -  {n:>7} hands ({args.hand_size} cards, {args.ruleset}): {seconds:8.2f} s  "
              f"{(seconds - start) / n * 1e3:7.2f} ms/hand  peak {mib:6.1f} MiB", flush=True)
        print(f"  {last_half_growth(samples, n)}", flush=True)
        if args.samples:
            print("  RSS MiB by answers: " + ", ".join(f"{done}: {kib / 1024:.1f}" for done, kib in samples),
                  flush=True)


if __name__ == "__main__":
    main()
