"""One argument order for the facade: the ruleset first, as ``score_round(ruleset, ...)``, ``play_match``,
``Solver``, ``Table.deal``, ``diff`` and ``simulate`` take it, and ``ruleset=`` as a keyword everywhere.

The functions that took their text first (``check(text, ruleset)``, ``read_round``, ``read_match``,
``score_round_sheet``, ``play_match_sheet``, ``check_lines``, ``parse_move``) keep that order working too:
a :class:`~loba_dsl.rules.model.Ruleset` is never a text, a sheet or a list of lines, so which of the two
leading arguments is the ruleset is plain to see.

>>> from loba_dsl.rules.loading import load
>>> rs = load("menos")
>>> ruleset_first(rs, "A♣ 2♣ JOKER", None, "check")[1], ruleset_first("A♣ 2♣ JOKER", rs, None, "check")[1]
('A♣ 2♣ JOKER', 'A♣ 2♣ JOKER')
>>> ruleset_first("A♣ 2♣ JOKER", None, rs, "check")[0] is rs
True
"""

from __future__ import annotations

from typing import Any

from loba_dsl.rules.model import Ruleset

__all__ = ["ruleset_first"]


def ruleset_first(first: Any, second: Any, keyword: Ruleset | None, what: str) -> tuple[Ruleset | None, Any]:
    """``(ruleset, the other argument)`` from a facade function's two leading arguments, in either order, and
    its ``ruleset=`` keyword (a :class:`TypeError` when the ruleset is given twice or the other is missing)."""
    if isinstance(first, Ruleset):
        ruleset, other = first, second
    else:
        ruleset, other = second, first
    if keyword is not None:
        if ruleset is not None:
            raise TypeError(f"{what}() got the ruleset twice: positionally and as ruleset=")
        ruleset = keyword
    if other is None or isinstance(other, Ruleset):
        raise TypeError(f"{what}() takes a ruleset and what to read under it")
    return ruleset, other
