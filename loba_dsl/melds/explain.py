"""A meld's failure in words: the reason, the rule it broke and where the ruleset says it."""

from __future__ import annotations

from loba_dsl.melds.matcher import HEAD, Failure
from loba_dsl.melds.reason_words import ReasonWords, words
from loba_dsl.rules.model import Ruleset

__all__ = ["explain"]


def explain(ruleset: Ruleset, failure: Failure, lang: str = "en") -> str:
    """One reason in words, naming the rule and where the ruleset says it; ``lang``: ``en`` or ``es``
    (card names, kind names and the rule's text stay the ruleset's own)."""
    if lang == "en":
        around = ruleset.memo("explain-rules", _rule_words, ruleset, words("en"))
        before, after = around[failure.kind_index][failure.clause]
        return before + failure.message(ruleset.deck.names) + after
    language = words(lang)
    around = ruleset.memo(f"explain-rules-{lang}", _rule_words, ruleset, language)
    before, after = around[failure.kind_index][failure.clause]
    return before + failure.message(ruleset.deck.names, language) + after


def _rule_words(ruleset: Ruleset, language: ReasonWords) -> tuple[dict[int, tuple[str, str]], ...]:
    """Per kind, per clause (``HEAD`` for the head): the words before and after a failure's message."""
    out = []
    for kind in ruleset.kinds:
        words_of = {HEAD: (f"{kind.name}: ", language.rule.format(text=kind.head_text, where=kind.where))}
        for i, (text, where) in enumerate(zip(kind.clause_text, kind.clause_where, strict=True)):
            words_of[i] = (f"{kind.name}: ", language.rule.format(text=text, where=where))
        out.append(words_of)
    return tuple(out)
