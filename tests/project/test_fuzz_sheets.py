"""Fuzzing cards, the DSL and score sheets (issue 9's fuzz suite): only our own error family escapes,
and what would be printed encodes as UTF-8. Inputs from tests/fuzz_inputs.py (shared with ``make fuzz``)
and from Hypothesis's own text strategies; numbers of every size go into the sheets' number slots."""

from __future__ import annotations

import random

import fuzz_inputs as F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


@given(st.randoms(use_true_random=False))
@FAST
def test_cards(rnd: random.Random) -> None:
    F.run_cards(F.card_text(rnd))


@given(st.text(max_size=60))
@FAST
def test_cards_any_text(text: str) -> None:
    F.run_cards(text)


@given(st.randoms(use_true_random=False))
@FAST
def test_the_dsl(rnd: random.Random) -> None:
    F.run_dsl(*F.dsl_text(rnd))


@given(st.randoms(use_true_random=False))
@FAST
def test_round_files(rnd: random.Random) -> None:
    F.run_sheet(F.sheet_text(rnd, match=False), match=False)


@given(st.randoms(use_true_random=False))
@FAST
def test_match_files(rnd: random.Random) -> None:
    F.run_sheet(F.sheet_text(rnd, match=True), match=True)


@given(st.sampled_from(["players: {n}\nplayer Ana: went out\n  table: A♠ 2♠ 3♠\nplayer Beto\n  hand: 5♥",
                        "round {n}\n  Ana: out\n  Beto: {n}", "target: {n}\nround 1\n  Ana: out\n  Beto: 3",
                        "round 1\n  Ana: out {n}\n  Beto: -{n}"]),
       st.one_of(st.integers(min_value=0).map(str), st.integers(0, 10**6 + 2).map(str),
                 st.integers(1, 6000).map(lambda k: "9" * k), st.integers(1, 30).map(lambda k: "0" * k + "7")),
       st.booleans())
@settings(max_examples=60, deadline=None, derandomize=True)
def test_every_number_slot_takes_any_number(template: str, n: str, match: bool) -> None:
    """Python's int() has a 4,300-digit limit: every number a sheet can give is bounded before that."""
    F.run_sheet(template.replace("{n}", n), match=match or not template.startswith("players"))
