"""A meld's reasons in the players' languages: the words of every failure template, English and Spanish.

The engine builds its reasons in English (:class:`~loba_dsl.melds.matcher.Failure` keeps a template and its
values); this module gives the same reason in another language, template by template.  Card names, meld kind
names and the rule's own text stay as the ruleset writes them (they are the ruleset's words, not ours).

>>> words("es").template("needs at least {0} cards, but has {1}")
'necesita al menos {0} cartas, pero tiene {1}'
"""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    from loba_dsl.frozen import dataclass

__all__ = ["LANGUAGES", "ReasonWords", "words"]

_ES_TEMPLATES: Mapping[str, str] = {
    "allows no wild cards, but {cards} would be wild": "no admite comodines, pero {cards} haría de comodín",
    "needs cards of one suit, but has {cards}": "necesita cartas de un solo palo, pero tiene {cards}",
    "cannot hold one rank twice ({cards})": "no puede tener dos cartas del mismo número ({cards})",
    "needs every suit different, but {cards} share a suit": "necesita palos todos distintos, pero {cards} "
                                                            "comparten palo",
    "needs cards of one rank, but has {cards}": "necesita cartas de un mismo número, pero tiene {cards}",
    "has {0} cards but only {1} suits": "tiene {0} cartas, pero solo hay {1} palos",
    "would need two wild cards side by side": "necesitaría dos comodines seguidos",
    "is not a sequence": "no es una escalera",
    "needs suits {0} {1}, but has {2} suit(s)": "necesita palos {0} {1}, pero tiene {2} palo(s)",
    "needs {0} {1} {2}, but has {3}": "necesita {0} {1} {2}, pero tiene {3}",
    "needs at least {0} cards, but has {1}": "necesita al menos {0} cartas, pero tiene {1}",
    "has at most {0} cards, but has {1}": "admite a lo sumo {0} cartas, pero tiene {1}",
    "is not a sequence with the ace {0}: {cards}": "no es una escalera con el as {0}: {cards}",
    "is not a sequence of {0} consecutive ranks: {cards}": "no es una escalera de {0} números seguidos: {cards}",
}

_ES_VALUES: Mapping[str, str] = {
    # the ace's place in a run (_ACE_WORDS in melds/runs.py)
    "low only": "solo abajo",
    "high only": "solo arriba",
    "high or low, never both": "arriba o abajo, nunca en las dos puntas",
    "round the corner": "dando la vuelta",
    # what a meld's limit counts (the DSL's counters)
    "wilds": "comodines",
    "naturals": "cartas naturales",
    "size": "cartas",
}


@dataclass(frozen=True)
class ReasonWords:
    """One language's words for a meld's reasons: the failure templates, the values they name, and the words
    around the rule a reason cites."""

    lang: str
    templates: Mapping[str, str]
    values: Mapping[str, str]
    rule: str
    """Around the rule: ``{text}`` is the rule as the ruleset writes it, ``{where}`` its file and line."""

    def template(self, english: str) -> str:
        """The template in this language (the English one where a template has no translation yet)."""
        return self.templates.get(english, english)

    def value(self, value: object) -> object:
        """A template's value in this language: the words the engine puts in (numbers and operators stay)."""
        return self.values.get(value, value) if isinstance(value, str) else value


_WORDS: Mapping[str, ReasonWords] = {
    "en": ReasonWords("en", {}, {}, " (rule '{text}' at {where})"),
    "es": ReasonWords("es", _ES_TEMPLATES, _ES_VALUES, " (regla '{text}' en {where})"),
}

LANGUAGES: tuple[str, ...] = tuple(_WORDS)
"""The languages a meld's reasons can be given in."""


def words(lang: str) -> ReasonWords:
    """The reason words of ``lang`` (``en`` or ``es``); another language is a :class:`ValueError`."""
    try:
        return _WORDS[lang]
    except KeyError:
        raise ValueError(f"reasons are given in {' or '.join(LANGUAGES)}, not {lang!r}") from None
