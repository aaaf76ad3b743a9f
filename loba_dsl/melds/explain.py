"""A meld's failure in words: the reason, the rule it broke and where the ruleset says it."""

from __future__ import annotations

from loba_dsl.melds.matcher import HEAD, Failure
from loba_dsl.rules.model import Ruleset

__all__ = ["explain"]


def explain(ruleset: Ruleset, failure: Failure) -> str:
    """One reason in words, naming the rule and where the ruleset says it."""
    around = ruleset.memo("explain-rules", _rule_words, ruleset)
    before, after = around[failure.kind_index][failure.clause]
    return before + failure.message(ruleset.deck.names) + after


def _rule_words(ruleset: Ruleset) -> tuple[dict[int, tuple[str, str]], ...]:
    """Per kind, per clause (``HEAD`` for the head): the words before and after a failure's message."""
    out = []
    for kind in ruleset.kinds:
        words = {HEAD: (f"{kind.name}: ", f" (rule '{kind.head_text}' at {kind.where})")}
        for i, (text, where) in enumerate(zip(kind.clause_text, kind.clause_where, strict=True)):
            words[i] = (f"{kind.name}: ", f" (rule '{text}' at {where})")
        out.append(words)
    return tuple(out)
