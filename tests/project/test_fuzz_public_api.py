"""The public API under random input, in the fast suite (issue 9, "One error family, always"; issue 21:
"Random house rulesets through the public API (a fuzz test in CI, not only in the slow suite) must find no
exception outside LobaError").

One fixed seed and a bounded time: the same inputs in the same order on every run, as many of them as
the time allows (``make fuzz`` runs the same jobs, with the other generators, a million times).  The jobs
are tests/fuzz_public_api.py's: random house rulesets, and under them and the shipped ones, melds, hands
arranged, rounds and lay-downs scored, matches, moves in the notation, games played on a Table with
bogus moves mixed in, and their records replayed and mutated.
"""

from __future__ import annotations

import random
import time
import traceback

import fuzz_public_api as P

import loba_dsl as loba

SEED = 20_261_202
SECONDS = 25.0
"""Wall-clock time for the whole run (a few tens of seconds in CI's fast suite)."""


def test_the_public_api_raises_only_loba_errors() -> None:
    rnd = random.Random(SEED)
    pool = P.Pool()
    makers = [m for _, m in P.MAKERS]
    weights = [w for w, _ in P.MAKERS]
    found: dict[tuple[str, str], str] = {}
    tried = 0
    deadline = time.perf_counter() + SECONDS
    while time.perf_counter() < deadline:
        maker = rnd.choices(makers, weights)[0]
        shown: object = "?"
        try:
            _, job, shown = maker(rnd, pool)
            job()
        except loba.LobaError:
            pass
        except Exception as e:  # anything else escaped the error family
            last = traceback.extract_tb(e.__traceback__)[-1]
            key = (f"{type(e).__name__}: {e}"[:200], f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}")
            found.setdefault(key, f"{maker.__name__}: {shown!r}"[:600])
        tried += 1
    assert tried > 0
    assert not found, "\n".join(f"{kind} at {where}\n    input {first}" for (kind, where), first in found.items())
