"""How much stronger one bot is than another: duplicate deals, the stronger bot rotated through every seat.

Deal ``i`` (seed ``(SEED, i)``, :func:`loba_dsl.simulation.game_seed`) is played once per seat: the bot under
test in that seat, the baseline in all others (bots rotate with the game's index, so the rotation is done by
listing the bots in every rotation).  The deal's *edge* is the baseline's mean round score less the tested
bot's, averaged over the seatings (in the scoring's "better" direction: positive means the tested bot did
better).  Printed: the mean edge a round, its standard error, a 95% interval, Student's t, the share of
rounds the tested bot went out, and the CPU time per round.

Run: ``python benchmarks/bench_search_strength.py --deals 40 [--players 2] [--bot search] [--base greedy]
[--opt samples=8] [--workers 2] [--seed 2025]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Better
from loba_dsl.simulation.games import play_game


def deal(args: tuple[str, str, str, int, int, int, dict[str, Any]]) -> tuple[float, int, int, float, int]:
    """One deal in every seating: (edge, rounds the tested bot went out, rounds, CPU seconds, rounds unfinished).

    A round nobody could end (every hand left can never go out: stopped when proved, or at the move limit) scores
    nothing for anyone: its edge is 0."""
    ruleset, bot, base, players, seed, i, options = args
    rs = load(ruleset)
    sign = -1 if rs.scoring.better is Better.LOWER else 1
    t = time.process_time()
    edge = 0.0
    out = unfinished = 0
    for k in range(players):
        bots = [base] * players
        bots[(k - i) % players] = bot  # seated in rotation by the game's index: bot sits in seat k
        game = play_game(rs, bots, seed, i, match=False, options=options)
        r = game.rounds[0]
        if not game.finished:
            unfinished += 1
            continue
        seat = game.bots.index(bot)
        mine = r.scores[seat] or 0
        others = [s or 0 for j, s in enumerate(r.scores) if j != seat]
        edge += sign * (mine - statistics.mean(others))
        out += r.went_out == seat
    return edge / players, out, players, time.process_time() - t, unfinished


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ruleset", default="menos")
    ap.add_argument("--bot", default="search")
    ap.add_argument("--base", default="greedy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--start", type=int, default=0, help="the first deal's index")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--opt", action="append", default=[], help="a bot option, e.g. samples=16")
    args = ap.parse_args()
    options: dict[str, Any] = {}
    for o in args.opt:
        k, v = o.split("=", 1)
        options[k] = float(v) if "." in v else int(v)
    jobs = [(args.ruleset, args.bot, args.base, args.players, args.seed, i, options)
            for i in range(args.start, args.start + args.deals)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(deal, jobs))
    else:
        results = [deal(j) for j in jobs]
    edges = [r[0] for r in results]
    n = len(edges)
    mean = statistics.mean(edges)
    se = statistics.stdev(edges) / math.sqrt(n) if n > 1 else math.inf
    out = sum(r[1] for r in results)
    rounds = sum(r[2] for r in results)
    cpu = sum(r[3] for r in results)
    unfinished = sum(r[4] for r in results)
    print(f"{args.bot} vs {args.base}, {args.ruleset}, {args.players} players, {n} duplicate deals "
          f"(seed {args.seed}, from {args.start}), options {options}")
    print(f"edge a round: {mean:+.2f} ± {se:.2f} (SE), 95% [{mean - 1.96 * se:+.2f}, {mean + 1.96 * se:+.2f}], "
          f"t = {mean / se:.2f}, sd of a deal's edge {statistics.stdev(edges):.2f}")
    print(f"{args.bot} went out in {out}/{rounds} rounds ({100 * out / rounds:.0f}%, "
          f"chance {100 / args.players:.0f}%); CPU {cpu / rounds:.2f} s a round; "
          f"{unfinished} round(s) unfinished (nobody could go out: no score)")


if __name__ == "__main__":
    main()
