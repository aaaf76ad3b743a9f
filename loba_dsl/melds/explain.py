"""A meld's failure in words: the reason, the rule it broke and where the ruleset says it."""

from __future__ import annotations

from loba_dsl.melds.matcher import HEAD, Failure
from loba_dsl.rules.model import Ruleset

__all__ = ["explain"]


def explain(ruleset: Ruleset, failure: Failure) -> str:
    """One reason in words, naming the rule and where the ruleset says it."""
    kind = ruleset.kinds[failure.kind_index]
    if failure.clause == HEAD:
        text, where = kind.head_text, kind.where
    else:
        text, where = kind.clause_text[failure.clause], kind.clause_where[failure.clause]
    return f"{kind.name}: {failure.message(ruleset.deck.names)} (rule '{text}' at {where})"
