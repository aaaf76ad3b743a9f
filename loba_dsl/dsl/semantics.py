"""The meaning of the DSL, gathered under its former name (kept so that callers keep working).

The jobs this module used to do live in their own modules now:

- :mod:`loba_dsl.dsl.vocabulary`: the names of the language, their types and docs;
- :mod:`loba_dsl.dsl.names`: what a ruleset's own words mean (ranks, suits, meld kinds, tables);
- :mod:`loba_dsl.dsl.typecheck`: type checks of formulas at load;
- :mod:`loba_dsl.dsl.predicates`: card predicates and value tables;
- :mod:`loba_dsl.dsl.evaluate`: the one evaluator of formulas.

New code imports from those modules.
"""

from __future__ import annotations

from loba_dsl.dsl.evaluate import Env, EvalError, compare, compile_filter, compile_formula, evaluate
from loba_dsl.dsl.names import Names
from loba_dsl.dsl.predicates import IN_HAND, CardRole, CompiledPred, Table, TableRule, compile_pred, eval_pred
from loba_dsl.dsl.typecheck import (
    CARD_VARIABLES,
    MELD_ATTRIBUTES,
    ROUND_VARIABLES,
    Scope,
    article,
    check_expr,
    free_names,
)
from loba_dsl.dsl.vocabulary import FUNCTIONS, MeldFacts, Type, Value

__all__ = [
    "CARD_VARIABLES", "FUNCTIONS", "IN_HAND", "MELD_ATTRIBUTES", "ROUND_VARIABLES", "CardRole", "CompiledPred",
    "Env", "EvalError", "MeldFacts", "Names", "Scope", "Table", "TableRule", "Type", "Value", "article",
    "check_expr", "compare", "compile_filter", "compile_formula", "compile_pred", "eval_pred", "evaluate",
    "free_names",
]
