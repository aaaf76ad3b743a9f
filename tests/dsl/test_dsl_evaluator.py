"""Agreement: every formula evaluates the same on every path.

The paths: the one evaluator (:mod:`loba_dsl.dsl.evaluate`) on the tree and on its printed-and-parsed
text; the canonical form (:func:`loba_dsl.dsl.canon.evaluate_canonical`); and, where the formula is a
sum of per-meld and per-card terms under the round's facts, the solver objective's linearisation
(:mod:`loba_dsl.solver.objective`).  Random well-typed formulas over the vocabulary, and the shipped
rulesets' own round formulas and instant wins on random rounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from dsl_strategies import TABLES, Meld, Round, exprs, rounds, separable
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loba_dsl.dsl import ast as A
from loba_dsl.dsl.canon import canonical, evaluate_canonical
from loba_dsl.dsl.evaluate import compile_filter, compile_formula, evaluate
from loba_dsl.dsl.parser import parse_formula
from loba_dsl.dsl.printer import print_formula
from loba_dsl.dsl.typecheck import check_expr, round_scope
from loba_dsl.rules.loading import load
from loba_dsl.solver.objective import NotSeparable, Objective, objective

SOME = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHIPPED = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "rulesets").glob("*.yaml"))


def linearised(obj: Objective, env: Round) -> int:
    """The objective's linear part on a round, wrapped as the score."""
    total = obj.linear.const
    for (kind, table, where), coeff in obj.linear.terms.items():
        keep = compile_filter(where) if isinstance(where, A.Expr) else None
        chosen = [m for m in env.melds if keep is None or keep(env, m)]
        if kind == "hand":
            value = sum(env.card_value(table, c) for c in env.hand)
        elif kind == "hand_count":
            value = len(env.hand)
        elif kind == "count":
            value = len(chosen)
        else:
            value = sum(env.meld_value(table, m) for m in chosen)
        total += coeff * value
    return obj.score(total)


def agree(tree: A.Expr, samples: list[Round], *, numeric: bool) -> int:
    """Check every path on every sample; how many samples the objective could check."""
    again = parse_formula(print_formula(tree))
    run, run_again = compile_formula(tree), compile_formula(again)
    form = canonical(tree)
    linear_checked = 0
    for env in samples:
        value = run(env)
        assert run_again(env) == value
        assert evaluate(tree, env) == value
        assert evaluate_canonical(form, env) == value
        if numeric:
            try:
                obj = objective(tree, "lower", env.facts)
            except NotSeparable:
                continue
            assert linearised(obj, env) == value
            linear_checked += 1
    return linear_checked


@SOME
@given(exprs("int", 3), st.lists(rounds(), min_size=1, max_size=5))
def test_every_number_formula_evaluates_alike_on_every_path(tree: A.Expr, samples: list[Round]) -> None:
    assert check_expr(tree, round_scope(("pierna", "escalera"), TABLES), "int") == "int"
    agree(tree, samples, numeric=True)


@SOME
@given(st.sampled_from(["count", *TABLES]), exprs("bool", 2, True), st.lists(rounds(), min_size=1, max_size=5))
def test_every_meld_filter_evaluates_alike_on_every_path(function: str, where: A.Expr, samples: list[Round]) -> None:
    tree = A.Call(function, (A.Arg(A.Var("melds", A.NOPOS), where),), A.NOPOS)
    assert check_expr(tree, round_scope(("pierna", "escalera"), TABLES), "int") == "int"
    assert agree(tree, samples, numeric=True) == len(samples)


@SOME
@given(separable(3), st.lists(rounds(), min_size=3, max_size=5))
def test_separable_formulas_evaluate_alike_on_the_objective_too(tree: A.Expr, samples: list[Round]) -> None:
    assert check_expr(tree, round_scope(("pierna", "escalera"), TABLES), "int") == "int"
    assert agree(tree, samples, numeric=True) == len(samples)  # every sample reaches the objective


@SOME
@given(exprs("bool", 3), st.lists(rounds(), min_size=1, max_size=5))
def test_every_condition_evaluates_alike_on_every_path(tree: A.Expr, samples: list[Round]) -> None:
    assert check_expr(tree, round_scope(("pierna", "escalera"), TABLES), "bool") == "bool"
    agree(tree, samples, numeric=False)


def test_separable_formulas_reach_the_objective() -> None:
    # The objective's path is exercised: a formula of per-card and per-meld terms linearises.
    tree = parse_formula("went_out ? 0 : max(0, pen(hand) - 10 * count(melds where pierna and suits == 4))")
    env = Round({"went_out": False, "all_at_once": False, "stock_out": False, "players": 4, "round": 1},
                (3, 4), (Meld("pierna", "set", 4, 4, 0, 4),))
    # rules.md-style reading of the formula: pen is c % 7 + 3 per card (dsl_strategies.Round): 6 + 7 = 13,
    # one four-suit pierna takes 10 off: 3.
    assert compile_formula(tree)(env) == 3
    assert agree(tree, [env], numeric=True) == 1


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_formulas_evaluate_alike_on_random_rounds(name: str) -> None:
    rs = load(name)
    kinds = tuple((k.name, k.shape.kind) for k in rs.kinds)
    strategy = st.lists(rounds(rs.deck.n_codes, kinds, dict(rs.hand_values)), min_size=20, max_size=20)
    checked = 0

    @settings(max_examples=10, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(strategy)
    def run(samples: list[Round]) -> None:
        nonlocal checked
        checked += agree(rs.scoring.round, samples, numeric=True)
        if rs.match.instant_win is not None:
            agree(rs.match.instant_win, samples, numeric=False)

    run()
    if name in ("menos", "mas", "mas-pagat", "pierna-de-cuatro"):
        assert checked > 0  # these formulas are sums of per-card and per-meld terms (the solver's premise)
