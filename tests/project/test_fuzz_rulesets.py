"""Fuzzing rulesets (issue 9, "A fuzz suite [...] over cards, the DSL, rulesets (mutated from the shipped
ones)"): only :class:`~loba_dsl.errors.LobaError` escapes loading, and a ruleset that loads can be
printed, checked against, scored with and diffed against Menos, its text and JSON encodable as UTF-8.

Inputs come from tests/fuzz_inputs.py (shared with ``make fuzz``), driven by Hypothesis's random
source, plus DSL texts (formulas, shapes, value tables) put in Menos's own document.
"""

from __future__ import annotations

import json
import random

import fuzz_inputs as F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SMALL = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                 derandomize=True)
SHALLOW = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                   derandomize=True)


@given(st.randoms(use_true_random=False))
@SHALLOW
def test_a_shipped_ruleset_with_random_edits_loads_or_is_a_loba_error(rnd: random.Random) -> None:
    F.run_ruleset(F.yaml_mutation(rnd), deep=False)


@given(st.randoms(use_true_random=False))
@SMALL
def test_a_shipped_ruleset_with_random_edits_that_loads_is_usable(rnd: random.Random) -> None:
    F.run_ruleset(F.yaml_mutation(rnd))


@given(st.randoms(use_true_random=False))
@SHALLOW
def test_a_resolved_document_with_random_leaves_loads_or_is_a_loba_error(rnd: random.Random) -> None:
    F.run_ruleset(F.structural_mutation(rnd), deep=False)


@given(st.randoms(use_true_random=False))
@SMALL
def test_a_resolved_document_with_random_leaves_that_loads_is_usable(rnd: random.Random) -> None:
    F.run_ruleset(F.structural_mutation(rnd))


def menos_with(path: tuple[str, ...], value: object) -> str:
    doc = json.loads(json.dumps(F.shipped_document("menos")))
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return json.dumps(doc, ensure_ascii=False)


@given(st.randoms(use_true_random=False))
@SMALL
def test_menos_with_a_random_round_formula_diffs_within_its_budget(rnd: random.Random) -> None:
    """The diff compares formulas by canonical form (bounded: MAX_CANON_WORK) and searches witnesses
    (bounded: Budget): any formula the compiler accepts goes through both."""
    F.run_ruleset(menos_with(("scoring", "round"), F.formula_text(rnd, rnd.randrange(1, 5))))


@given(st.sampled_from(F.SHAPES), st.sampled_from(["pierna", "escalera"]))
@settings(max_examples=20, deadline=None, derandomize=True)
def test_menos_with_another_shape_diffs_within_its_budget(shape: str, kind: str) -> None:
    F.run_ruleset(menos_with(("melds", kind, "shape"), shape))


@given(st.sampled_from(F.TABLES), st.randoms(use_true_random=False))
@settings(max_examples=20, deadline=None, derandomize=True)
def test_menos_with_another_value_table_diffs_within_its_budget(table: str, rnd: random.Random) -> None:
    F.run_ruleset(menos_with(("values", "penalty"), F.mutate_text(rnd, table, rnd.choice([0, 0, 1]))))
