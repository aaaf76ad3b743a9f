"""``loba check "A♣ 2♣ JOKER"`` start-up against a bare ``python -c pass``, interleaved in one run (issue 11),
and ``loba replay`` of a whole round against that ``loba check`` (issue 22: at most 1.5x).

Run: ``python benchmarks/bench_startup.py [--runs 30] [--tree PATH ...] [--no-replay]``.

The round replayed is a four-player Menos round played to its end by random players (seed 7, written to
a temporary record by the first tree's library): every move refereed again, then scored.

Each round runs the bare interpreter, then the command once per tree (each
tree put first on ``PYTHONPATH``), so a busy machine slows all of them alike;
the script prints the median and the minimum of each and their ratio to the
bare start (issue 11's target: at most 8x), in wall time and in CPU time (the
child's user + system time, which a machine shared with other work disturbs
less).  Byte-code caching is on (as for
an installed package), in a private folder (``PYTHONPYCACHEPREFIX``), even when
the caller's environment sets ``PYTHONDONTWRITEBYTECODE``: without it every
start compiles every module from source, which is not what users see.  The
commands run in an empty folder: ``python -c`` puts the current folder first on
``sys.path``, so run from inside a checkout every tree would time that checkout.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

COMMAND = ["check", "A♣ 2♣ JOKER"]


def timed(cmd: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """Wall and CPU milliseconds of one run of ``cmd``."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped above
    return (time.perf_counter() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def report(label: str, runs: list[tuple[float, float]], bare: list[tuple[float, float]] | None) -> str:
    parts = []
    for i, clock in enumerate(("wall", "CPU")):
        values = [r[i] for r in runs]
        med, low = statistics.median(values), min(values)
        if bare is None:
            parts.append(f"{clock} median {med:.1f} ms, min {low:.1f} ms")
        else:
            b_med, b_min = statistics.median(r[i] for r in bare), min(r[i] for r in bare)
            parts.append(f"{clock} median {med:.1f} ms ({med / b_med:.1f}x), min {low:.1f} ms ({low / b_min:.1f}x)")
    return f"{label}: " + "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--tree", action="append", default=None, help="a checkout to time (repeatable)")
    parser.add_argument("--no-replay", action="store_true", help="time loba check only")
    args = parser.parse_args()
    trees = args.tree or [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    cache = tempfile.mkdtemp(prefix="loba-pyc-")
    here = os.path.join(cache, "cwd")  # empty: see the module docstring
    os.mkdir(here)
    envs: dict[str, dict[str, str]] = {}
    for tree in trees:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPATH"] = os.path.abspath(tree)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(cache, str(len(envs)))
        envs[tree] = env
    loba = [sys.executable, "-c", "from loba_cli.main import main; main()", *COMMAND]
    record = os.path.join(cache, "round.json")
    replay = [sys.executable, "-c", "from loba_cli.main import main; main()", "replay", record]
    if not args.no_replay:
        write_round(record, envs[trees[0]], here)
    bare_env = dict(envs[trees[0]])
    for env in envs.values():  # warm: byte code written, ruleset cache filled
        subprocess.run(loba, check=False, capture_output=True, env=env, cwd=here)
        if not args.no_replay:
            subprocess.run(replay, check=False, capture_output=True, env=env, cwd=here)
    bare: list[tuple[float, float]] = []
    times: dict[str, list[tuple[float, float]]] = {t: [] for t in trees}
    replays: dict[str, list[tuple[float, float]]] = {t: [] for t in trees}
    for _ in range(args.runs):
        bare.append(timed([sys.executable, "-c", "pass"], bare_env, here))
        for tree in trees:
            times[tree].append(timed(loba, envs[tree], here))
            if not args.no_replay:
                replays[tree].append(timed(replay, envs[tree], here))
    print(report(f"bare `python -c pass` ({args.runs} runs)", bare, None))
    for tree in trees:
        print(report(f"loba check (tree {tree})", times[tree], bare))
        if not args.no_replay:
            print(report(f"loba replay of a whole round (tree {tree}), against loba check", replays[tree],
                         times[tree]))


_WRITE_ROUND = """
import sys
import loba_dsl as loba
rs = loba.load("menos")
names = ["Ana", "Beto", "Carla", "Dani"]
match = loba.Match.deal(rs, {n: loba.RandomPlayer(__import__("random").Random(i)) for i, n in enumerate(names)},
                        "Dani", 7)
plies = match.play_round()
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write(loba.dump_record(match.table.record()) + "\\n")
print(plies)
"""


def write_round(path: str, env: dict[str, str], cwd: str) -> None:
    """A record of one whole four-player Menos round, played by random players (seed 7)."""
    done = subprocess.run([sys.executable, "-c", _WRITE_ROUND, path], check=False, capture_output=True, text=True,
                          env=env, cwd=cwd)
    if done.returncode != 0:
        raise SystemExit(f"the round could not be played: {done.stderr}")
    checked = subprocess.run([sys.executable, "-c", "from loba_cli.main import main; main()", "replay", path],
                             check=False, capture_output=True, text=True, env=env, cwd=cwd)
    if checked.returncode != 0:
        raise SystemExit(f"the round's record does not replay: {checked.stdout}{checked.stderr}")
    print(f"the round replayed: four players, {done.stdout.strip()} moves, {os.path.getsize(path):,} bytes")


if __name__ == "__main__":
    main()
