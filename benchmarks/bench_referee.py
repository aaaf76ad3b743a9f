"""The referee's speed (issue 13 targets).

1. Validating recorded moves in-process: ``referee.verify`` on every (state, move) of random
   4-player menos rounds (target: at least 20,000 moves/s).
2. Replaying a whole 4-player menos round record through the CLI, ``loba replay FILE``, against the
   start-up of ``loba check "A♣ 2♣ JOKER"`` (target: at most 2x).
3. Random legal play of whole rounds (``game.simulate.play_round``): rounds/s.

Run: ``python benchmarks/bench_referee.py [--rounds 20] [--runs 15]``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from loba_dsl.game import Table, referee
from loba_dsl.game.record import dumps, loads
from loba_dsl.game.replay import replay
from loba_dsl.game.simulate import play_round
from loba_dsl.rules.loading import load

PLAYERS = ["Ana", "Beto", "Carla", "Dora"]


def finished_rounds(n: int) -> list[Table]:
    rs = load("menos")
    out: list[Table] = []
    seed = 0
    while len(out) < n:
        t = Table.deal(rs, PLAYERS, PLAYERS[seed % 4], seed)
        play_round(t, random.Random(seed), max_plies=3000)
        if t.outcome() is not None:
            out.append(t)
        seed += 1
    return out


def bench_validate(tables: list[Table]) -> None:
    rs = tables[0].rs
    pairs = [(log.states[i], m) for t in tables for log in t.rounds for i, m in enumerate(log.moves)]
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        for s, m in pairs:
            if referee.verify(rs, s, m):
                raise AssertionError("a recorded move was rejected")
        best = max(best, len(pairs) / (time.perf_counter() - start))
    ops: dict[str, int] = {}
    for _, m in pairs:
        ops[m.op] = ops.get(m.op, 0) + 1
    print(f"validate recorded moves (menos, 4 players): {best:,.0f} moves/s over {len(pairs)} moves "
          f"({', '.join(f'{k} {v}' for k, v in sorted(ops.items()))})")
    puts = [(s, m) for s, m in pairs if m.op in ("meld", "lay_off")]
    start = time.perf_counter()
    for _ in range(5):
        for s, m in puts:
            referee.verify(rs, s, m)
    print(f"  of which melds and lay-offs alone: {5 * len(puts) / (time.perf_counter() - start):,.0f} moves/s")
    texts = [dumps(t.record()) for t in tables]
    start = time.perf_counter()
    for text in texts:
        result = replay(loads(text, ruleset=rs))
        assert result.valid
    took = time.perf_counter() - start
    print(f"replay whole records in-process (read JSON + apply): {len(pairs) / took:,.0f} moves/s, "
          f"{took / len(texts) * 1000:.1f} ms per round")


def bench_cli(table: Table, runs: int) -> None:
    loba = shutil.which("loba") or str(Path(sys.executable).with_name("loba"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "round.json"
        path.write_text(dumps(table.record()), encoding="utf-8")
        moves = len(table.rounds[0].moves)
        commands = {"check": [loba, "check", "A♣ 2♣ JOKER"], "replay": [loba, "replay", str(path)]}
        for cmd in commands.values():
            subprocess.run(cmd, check=True, capture_output=True)  # warm the ruleset cache
        medians = {}
        for name, cmd in commands.items():
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True)
                times.append((time.perf_counter() - start) * 1000)
            medians[name] = statistics.median(times)
    ratio = medians["replay"] / medians["check"]
    print(f"loba replay (4-player menos round, {moves} moves): median {medians['replay']:.0f} ms; "
          f"loba check: {medians['check']:.0f} ms; ratio {ratio:.2f} (target <= 2)")


def bench_play(rounds: int) -> None:
    rs = load("menos")
    start = time.perf_counter()
    plies = done = 0
    for seed in range(rounds):
        t = Table.deal(rs, PLAYERS, PLAYERS[seed % 4], 1000 + seed)
        plies += play_round(t, random.Random(seed), max_plies=3000)
        done += t.outcome() is not None
    took = time.perf_counter() - start
    print(f"random legal play (menos, 4 players): {rounds / took:.2f} rounds/s, {plies / took:,.0f} moves/s "
          f"({done}/{rounds} rounds ended, {plies / rounds:.0f} moves per round)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    tables = finished_rounds(args.rounds)
    bench_validate(tables)
    bench_cli(tables[0], args.runs)
    bench_play(args.rounds)


if __name__ == "__main__":
    main()
