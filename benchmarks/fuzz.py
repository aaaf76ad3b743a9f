"""The long fuzz run (``make fuzz``): a plain loop over generated and mutated inputs (issue 9's
acceptance: ">= 1,000,000 inputs; [...] the count tried, the exceptions found (must be none outside
LobaError), the slowest input and the peak memory").

Inputs and what runs them are tests/fuzz_inputs.py's (shared with the Hypothesis fuzz tests) and
tests/fuzz_public_api.py's (shared with the fast fuzz test of CI): the public API as a program calls it,
under the shipped rulesets and random house rulesets (melds, hands, rounds, lay-downs, matches, moves
and their notation, whole games played on a Table with bogus moves mixed in, their records replayed and
mutated). The cheap generators (card text, DSL texts, round and match files, melds and moves) take most
of the count; rulesets (mutated from the shipped ones, or house rulesets drawn from the schema's
choices) are fewer, being a thousand times dearer.

    python benchmarks/fuzz.py --count 1000000 --seconds 3600 --seed 1

Prints, at the end (and every ``--report`` seconds): inputs tried per generator, exceptions outside
``LobaError`` by type and place (with the first input that raised each), the inputs that took more than
``--hang`` seconds of CPU (CPU, not wall-clock time: the run shares a loaded machine; an input still
running after ``--abort`` seconds of wall-clock time is stopped and is a finding), the slowest input and
its time, and the peak memory (``resource.getrusage``). Exit status 1 if anything was found (an
exception outside ``LobaError``, a stopped input, or an input over ``--hang``).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
os.environ.setdefault("LOBA_NO_CACHE", "1")

import fuzz_inputs as F
import fuzz_public_api as P

from loba_dsl.errors import LobaError
from loba_dsl.rules.loading import load


class Hang(Exception):
    """An input ran past the per-input time limit."""


Job = tuple[str, Callable[[], None], Any]


def _cards(rnd: random.Random) -> Job:
    text = F.card_text(rnd)
    rs = load(rnd.choice(["menos", "menos", "sin-jokers", "chinchon", "mas-pagat"]))
    return "cards", lambda: F.run_cards(text, rs), text


def _notation(rnd: random.Random) -> Job:
    text = F.card_text(rnd)
    name, lang = rnd.choice([("menos", None), ("menos", "de"), ("menos", "nl"), ("chinchon", "es")])
    notation = load(name).notation(lang)
    return "notation", lambda: (notation.parse_codes(text), None)[1], text


def _dsl(rnd: random.Random) -> Job:
    start, text = F.dsl_text(rnd)
    return "dsl", lambda: F.run_dsl(start, text), (start, text)


def _round(rnd: random.Random) -> Job:
    text = F.sheet_text(rnd, match=False)
    return "round file", lambda: F.run_sheet(text, False), text


def _match(rnd: random.Random) -> Job:
    text = F.sheet_text(rnd, match=True)
    return "match file", lambda: F.run_sheet(text, True), text


def _yaml(rnd: random.Random) -> Job:
    text = F.yaml_mutation(rnd)
    return "ruleset text", lambda: F.run_ruleset(text, deep=False), text


def _structure(rnd: random.Random) -> Job:
    text = F.structural_mutation(rnd)
    return "ruleset structure", lambda: F.run_ruleset(text, deep=False), text


def _deep(rnd: random.Random) -> Job:
    text = F.yaml_mutation(rnd) if rnd.random() < 0.5 else F.structural_mutation(rnd)
    return "ruleset used", lambda: F.run_ruleset(text), text


def _formula(rnd: random.Random) -> Job:
    import json

    doc = json.loads(json.dumps(F.shipped_document("menos")))
    doc["scoring"]["round"] = F.formula_text(rnd, rnd.randrange(1, 5))
    text = json.dumps(doc, ensure_ascii=False)
    return "menos formula", lambda: F.run_ruleset(text), doc["scoring"]["round"]


# Shares of the count, per ten thousand inputs: the cheap parsers take most of it.
MIX: list[tuple[int, Callable[[random.Random], Job]]] = [
    (2000, _cards), (2200, _notation), (2800, _dsl), (400, _round), (400, _match),
    (40, _yaml), (30, _structure), (15, _deep), (15, _formula),
]


def public_api_mix(pool: P.Pool) -> list[tuple[int, Callable[[random.Random], Job]]]:
    """tests/fuzz_public_api.py's jobs over one pool of rulesets, with their shares."""
    def bound(maker: Callable[[random.Random, P.Pool], Job]) -> Callable[[random.Random], Job]:
        def make(rnd: random.Random) -> Job:
            return maker(rnd, pool)

        make.__name__ = maker.__name__
        return make

    return [(weight, bound(maker)) for weight, maker in P.MAKERS]


@dataclass
class Tally:
    tried: Counter[str] = field(default_factory=Counter)
    loba_errors: int = 0
    found: dict[tuple[str, str], tuple[int, str, str]] = field(default_factory=dict)
    """(type, place) -> (times, generator, first input)."""
    slow: dict[str, tuple[int, float, str]] = field(default_factory=dict)
    """generator -> (inputs over the CPU limit, the most CPU seconds, that input)."""
    slowest: tuple[float, str, str] = (0.0, "", "")
    slowest_cpu: tuple[float, str, str] = (0.0, "", "")
    start: float = field(default_factory=time.perf_counter)
    cpu_start: float = field(default_factory=time.process_time)

    @property
    def total(self) -> int:
        return sum(self.tried.values())

    def report(self, hang: float, out: Any = sys.stdout) -> None:
        elapsed = time.perf_counter() - self.start
        cpu = time.process_time() - self.cpu_start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KB on Linux
        print(f"tried {self.total:,} inputs in {elapsed:,.0f} s ({cpu:,.0f} s of CPU; "
              f"{self.total / max(elapsed, 1e-9):,.0f}/s); {self.loba_errors:,} ended in a LobaError (expected)",
              file=out)
        for name, n in sorted(self.tried.items(), key=lambda kv: -kv[1]):
            print(f"  {name:<18} {n:>10,}", file=out)
        if self.found:
            print(f"exceptions outside LobaError: {sum(t for t, _, _ in self.found.values()):,}", file=out)
            for (kind, where), (times, gen, first) in sorted(self.found.items()):
                print(f"  {kind} at {where}: {times:,} times ({gen}); first input {first[:300]}", file=out)
        else:
            print("exceptions outside LobaError: none", file=out)
        over = sum(n for n, _, _ in self.slow.values())
        print(f"inputs over {hang:g} s of CPU: {over:,}", file=out)
        for gen, (n, seconds, text) in sorted(self.slow.items()):
            print(f"  {gen}: {n:,}, the slowest {seconds:.2f} s of CPU: {text[:300]}", file=out)
        seconds, gen, text = self.slowest_cpu
        print(f"slowest input by CPU: {seconds:.3f} s ({gen}): {text[:300]}", file=out)
        seconds, gen, text = self.slowest
        print(f"slowest input by wall-clock time: {seconds:.3f} s ({gen}): {text[:300]}", file=out)
        print(f"peak memory: {peak / 1024:,.0f} MB (ru_maxrss)", file=out)
        out.flush()


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def run(count: int, seconds: float, seed: int, hang: float, abort: float, every: float) -> Tally:
    rnd = random.Random(seed)
    mix = MIX + public_api_mix(P.Pool())
    weights = [w for w, _ in mix]
    makers = [m for _, m in mix]
    tally = Tally()
    deadline = tally.start + seconds
    next_report = tally.start + every
    signal.signal(signal.SIGALRM, _alarm)
    load("menos")  # compile once, outside the timings
    while tally.total < count:
        maker = rnd.choices(makers, weights)[0]
        name, shown = maker.__name__.strip("_") + " (generating)", "?"
        signal.setitimer(signal.ITIMER_REAL, abort)
        began, began_cpu = time.perf_counter(), time.process_time()
        try:  # making the input is under the same watch: a bug of the harness is a finding too
            name, job, shown = maker(rnd)
            job()
        except LobaError:
            tally.loba_errors += 1
        except Exception as e:  # anything else is a finding
            frames = traceback.extract_tb(e.__traceback__)
            last = frames[-1] if frames else None
            where = f"{Path(last.filename).name}:{last.lineno} ({last.name})" if last else "?"
            key = (type(e).__name__, where)
            times, gen, first = tally.found.get(key, (0, name, repr(shown)))
            tally.found[key] = (times + 1, gen, first)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        took, took_cpu = time.perf_counter() - began, time.process_time() - began_cpu
        tally.tried[name] += 1
        if took > tally.slowest[0]:
            tally.slowest = (took, name, repr(shown))
        if took_cpu > tally.slowest_cpu[0]:
            tally.slowest_cpu = (took_cpu, name, repr(shown))
        if took_cpu > hang:
            n, worst, text = tally.slow.get(name, (0, 0.0, ""))
            tally.slow[name] = (n + 1, max(worst, took_cpu), repr(shown) if took_cpu > worst else text)
        now = time.perf_counter()
        if now > deadline:
            print(f"stopped at the time limit ({seconds:,.0f} s)")
            break
        if now > next_report:
            tally.report(hang)
            next_report = now + every
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1_000_000, help="inputs to try (default 1,000,000)")
    ap.add_argument("--seconds", type=float, default=3600.0, help="time limit (default 3600)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hang", type=float, default=2.0, help="CPU seconds past which an input is a hang (default 2)")
    ap.add_argument("--abort", type=float, default=60.0,
                    help="wall-clock seconds after which an input is stopped, a finding (default 60)")
    ap.add_argument("--report", type=float, default=120.0, help="seconds between progress reports")
    args = ap.parse_args()
    tally = run(args.count, args.seconds, args.seed, args.hang, args.abort, args.report)
    print("---- final")
    tally.report(args.hang)
    return 1 if tally.found or tally.slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
