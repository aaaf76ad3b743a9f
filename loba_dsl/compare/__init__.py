"""How two variants differ: their rules, the smallest examples that behave differently, play figures.

>>> from loba_dsl.defaults import DEFAULT_RULESET
>>> from loba_dsl.rules.loading import load, load_file
>>> rs = load(DEFAULT_RULESET)
>>> diff(rs, rs).same
True

Data flows one way, and no module here imports one to its right:

- :mod:`~loba_dsl.compare.records`: the plain records (changes, witnesses, the search budget);
- :mod:`~loba_dsl.compare.rules`: the rules differ (records in, :class:`RulesDiff` out);
- :mod:`~loba_dsl.compare.witness_search`, then :mod:`~loba_dsl.compare.witness`: the witness searches
  (a :class:`RulesDiff` in, :class:`Witness` records out);
- :mod:`~loba_dsl.compare.stats`: play statistics, dealt hands through the solver;
- :mod:`~loba_dsl.compare.report`: the report, as data;
- :func:`diff`, here, runs them in that order.

Text for people is :func:`loba_dsl.render.diff_text`.
"""

from __future__ import annotations

from collections.abc import Callable

from loba_dsl.budget import Budget as SearchBudget
from loba_dsl.compare.records import AREAS, Budget, Change, Detail, Key, RulesDiff, Witness, WitnessBudget
from loba_dsl.compare.report import DiffReport, StatsHook
from loba_dsl.compare.rules import diff_rules
from loba_dsl.compare.stats import MAX_DEALS, Figure, PlayStats, play_stats
from loba_dsl.compare.witness import WitnessSearch, find_witnesses
from loba_dsl.errors import InputError
from loba_dsl.rules.model import Ruleset

__all__ = [
    "AREAS",
    "Budget",
    "Change",
    "Detail",
    "DiffReport",
    "Figure",
    "Key",
    "PlayStats",
    "RulesDiff",
    "StatsHook",
    "Witness",
    "WitnessBudget",
    "diff",
    "diff_rules",
    "find_witnesses",
    "play_stats",
]


def diff(a: Ruleset, b: Ruleset, *, witnesses: bool = True,
         budget: WitnessBudget | SearchBudget | float | None = None,
         deals: int | None = None, seed: int = 1, workers: int | None = None,
         progress: Callable[[int], None] | None = None, stats: StatsHook | None = None) -> DiffReport:
    """Compare two loaded rulesets: the rules that differ, witnesses of each, and play statistics.

    - ``witnesses``: search for the smallest examples that behave differently, within ``budget``: the
      library's :class:`loba_dsl.Budget` (``seconds`` bound the searches' time, ``steps`` the examples
      tried), a number of seconds, or a :class:`WitnessBudget` for every bound; ``None``: the default.
    - ``deals``: also deal and solve that many hands under each ruleset (seeded by ``seed``, over
      ``workers`` processes, calling ``progress`` with each batch's size); ``None`` or 0 for none.
    - ``stats``: another source of play statistics instead of ``deals`` (see :class:`StatsHook`).

    Rulesets only: load a name with ``load(name)`` first.
    """
    for side, rs in (("first", a), ("second", b)):
        if not isinstance(rs, Ruleset):
            raise InputError(f"diff compares loaded rulesets; the {side} is a {type(rs).__name__}",
                             hint="load it first, e.g. load(name)")
    if deals is not None and not 0 <= deals <= MAX_DEALS:
        raise InputError(f"the number of deals is 0 to {MAX_DEALS:,}, not {deals:,}")
    if deals and stats is not None:
        raise InputError("give either deals or a stats hook, not both")
    rules = diff_rules(a, b)
    found: tuple[Witness, ...] = ()
    tried: dict[str, int] = {}
    stopped: dict[str, str] = {}
    if witnesses and not rules.same:
        search = WitnessSearch(a, b, rules, witness_budget(budget))
        found = tuple(search.run())
        tried = search.tried
        stopped = search.stopped
    figures = None
    if stats is not None:
        figures = dict(stats(a, b))
    elif deals:
        figures = play_stats(a, b, deals=deals, seed=seed, workers=workers, progress=progress).to_dict()
    return DiffReport(rules, found, figures, dict(tried), dict(stopped))


def witness_budget(budget: WitnessBudget | SearchBudget | float | None) -> WitnessBudget:
    """The witness search's bounds from what ``diff(budget=)`` was given (see :func:`diff`).

    >>> witness_budget(SearchBudget(seconds=2.5, steps=1_000)).max_seconds, witness_budget(3).max_examples
    (2.5, 200000)
    """
    default = WitnessBudget()
    if budget is None:
        return default
    if isinstance(budget, WitnessBudget):
        return budget
    if isinstance(budget, SearchBudget):
        return WitnessBudget(per_change=default.per_change, max_meld_cards=default.max_meld_cards,
                             max_examples=default.max_examples if budget.steps is None else budget.steps,
                             max_seconds=budget.seconds)
    if isinstance(budget, int | float) and not isinstance(budget, bool):
        return WitnessBudget(max_seconds=SearchBudget(seconds=float(budget)).seconds)
    raise InputError(f"budget must be a loba_dsl.Budget, a number of seconds or a WitnessBudget, not "
                     f"{type(budget).__name__}")
