"""The game layer's costs: a move at ply 4 and at ply 400 through the library's resume path, and random rounds.

1. A stateless server answers each move on a record.  Replaying the record costs more with every ply; the
   resume path (``TableCache.get`` by the record digest, ``Table.play``, ``TableCache.put``) should cost the
   same at ply 400 as at ply 4 (target: within 1.5x).  Measured side by side (ply 4 and ply 400 batches
   interleaved, CPU time, best of ``--runs``), with the replay path as the anchor, and the O(n) parts a
   caller may add beside it: writing the record (``Table.record()``), and the digest of a record received
   as a dict (``record_digest``).
2. Random 4-player menos rounds played to their end (``game.simulate.play_round``): rounds/s and plies/s.

Run: ``python benchmarks/bench_game.py [--runs 7] [--batch 100] [--rounds 20]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from loba_dsl.game import Table, TableCache, record_digest
from loba_dsl.game.moves import Move
from loba_dsl.game.record import dumps, loads
from loba_dsl.game.replay import from_record
from loba_dsl.game.simulate import play_round
from loba_dsl.rules.loading import load

PLAYERS = ["Ana", "Beto", "Carla", "Dora"]


def long_round(min_plies: int) -> Table:
    """A random 4-player menos round of at least ``min_plies`` moves."""
    rs = load("menos")
    for seed in range(1_000):
        t = Table.deal(rs, PLAYERS, "Dora", seed)
        play_round(t, random.Random(seed), max_plies=5_000)
        if len(t.rounds[0].moves) > min_plies:
            return t
    raise SystemExit("no round that long")


def prefix(full: Table, plies: int) -> tuple[Table, Move]:
    """The table after the first ``plies`` moves of ``full`` (a replay of its record cut there), and the next."""
    rec = full.record()
    rnd = rec["rounds"][0]
    rnd["moves"] = rnd["moves"][:plies]
    for key in ("result", "standings"):
        rnd.pop(key, None)
    rec.pop("winner", None)
    t = from_record(loads(dumps(rec), ruleset=full.rs))
    return t, full.rounds[0].moves[plies]


def best_cpu(fn: Callable[[], None], batch: int) -> float:
    start = time.process_time()
    for _ in range(batch):
        fn()
    return (time.process_time() - start) / batch


def bench_resume(runs: int, batch: int) -> None:
    full = long_round(420)
    rs = full.rs
    cases: dict[int, dict[str, Callable[[], None]]] = {}
    for ply in (4, 400):
        t, move = prefix(full, ply)
        cache = TableCache(size=8)
        key = cache.put(t)
        record = t.record()

        def resume_play(cache: TableCache = cache, key: str = key, move: Move = move) -> None:
            table = cache.get(key, rs)
            assert table is not None
            table.play(move)
            cache.put(table)

        def resume_play_record(cache: TableCache = cache, key: str = key, move: Move = move) -> None:
            table = cache.get(key, rs)
            assert table is not None
            table.play(move)
            cache.put(table)
            table.record()

        def digest(record: dict[str, object] = record) -> None:
            record_digest(record)

        text = dumps(record)

        def replay_play(text: str = text, move: Move = move) -> None:
            table = from_record(loads(text, ruleset=rs))
            table.play(move)

        cases[ply] = {"resume + play + keep": resume_play, "... + record()": resume_play_record,
                      "record_digest(record dict)": digest, "anchor: replay the record + play": replay_play}
    results: dict[tuple[int, str], float] = {}
    for _ in range(runs):
        for name in cases[4]:
            for ply in (4, 400):  # interleaved: the same load on both
                n = batch if not name.startswith("anchor") else max(1, batch // 20)
                got = best_cpu(cases[ply][name], n)
                results[ply, name] = min(results.get((ply, name), got), got)
    print(f"a move on a 4-player menos record (CPU time, best of {runs} interleaved runs of {batch}):")
    print(f"  {'path':38} {'ply 4':>10} {'ply 400':>10}  ratio")
    for name in cases[4]:
        a, b = results[4, name], results[400, name]
        print(f"  {name:38} {a * 1e6:8.0f} us {b * 1e6:8.0f} us  {b / a:5.2f}x")


def bench_rounds(rounds: int) -> None:
    rs = load("menos")
    plies = 0
    start = time.process_time()
    for seed in range(rounds):
        t = Table.deal(rs, PLAYERS, PLAYERS[seed % 4], seed)
        plies += play_round(t, random.Random(seed), max_plies=5_000)
    took = time.process_time() - start
    print(f"random 4-player menos rounds to their end: {rounds / took:.2f} rounds/s ({plies / took:,.0f} plies/s, "
          f"{plies / rounds:.0f} plies a round; CPU time, {rounds} rounds)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    bench_resume(args.runs, args.batch)
    bench_rounds(args.rounds)


if __name__ == "__main__":
    main()
