"""``check``: is a card list one legal meld under a ruleset, and why (not)?

>>> result = check("A♣ 2♣ JOKER")
>>> result.valid, result.kind, result.reading_names()
(True, 'escalera', ['A♣', '2♣', '3♣'])
>>> check("7♠ 7♥ JOKER").reasons()[0]
"pierna: allows no wild cards, but JOKER would be wild (rule 'no wilds' at rulesets/menos.yaml:54)"
>>> check("7♠ 7♥ JOKER").reasons("es")[0]
"pierna: no admite comodines, pero JOKER haría de comodín (regla 'no wilds' en rulesets/menos.yaml:54)"
"""

from __future__ import annotations

from collections.abc import Iterator

from loba_dsl.cards.deck import Card
from loba_dsl.cards.notation import ParsedCards, check_copies
from loba_dsl.defaults import DEFAULT_RULESET
from loba_dsl.errors import InputError, said
from loba_dsl.melds.explain import explain
from loba_dsl.melds.matcher import Outcome, Reading, matcher_for
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
    from typing import Any, overload
else:
    from loba_dsl.frozen import dataclass

__all__ = ["CheckResult", "check", "check_cards", "check_lines", "explain", "kind_verdicts", "matcher_for",
           "no_cards"]


@dataclass(frozen=True)
class CheckResult:
    """The verdict on one card list, with everything needed to explain it."""

    input: str
    ruleset: Ruleset
    cards: tuple[Card, ...]
    outcome: Outcome

    @property
    def valid(self) -> bool:
        return self.outcome.valid

    @property
    def best(self) -> Reading | None:
        return self.outcome.best

    @property
    def kind(self) -> str | None:
        return self.best.kind if self.best else None

    @property
    def points(self) -> int | None:
        return self.best.points if self.best else None

    def card_names(self) -> list[str]:
        return self.ruleset.deck.names_of(self.cards)

    def reading_names(self) -> list[str]:
        return self.ruleset.deck.names_of(self.best.stands) if self.best else []

    def wilds(self) -> list[dict[str, str]]:
        """What each wild stands for, in meld order."""
        best = self.best
        if best is None:
            return []
        names = self.ruleset.deck.names
        return [
            {"card": names[self.cards[i]], "stands_for": names[best.stands[q]]}
            for q, i in enumerate(best.order)
            if best.wild[q]
        ]

    def reasons(self, messages: str = "en") -> list[str]:
        """Why the cards are not a meld, one reason per failed clause; ``messages``: the language of the
        words, ``en`` or ``es`` (card, kind and rule names stay the ruleset's own)."""
        return [explain(self.ruleset, f, messages) for f in self.outcome.failures]

    def to_dict(self, messages: str = "en") -> dict[str, Any]:
        best = self.best
        return {
            "input": self.input,
            "ruleset": self.ruleset.name,
            "valid": self.valid,
            "kind": self.kind,
            "cards": self.card_names(),
            "reading": self.reading_names() if best else None,
            "wilds": self.wilds(),
            "points": self.points,
            "reasons": self.reasons(messages),
        }


def check_cards(cards: tuple[Card, ...], ruleset: Ruleset, text: str = "") -> CheckResult:
    """Check already-parsed cards (the in-process hot path)."""
    return CheckResult(text, ruleset, cards, matcher_for(ruleset).match(cards))


if TYPE_CHECKING:  # the overloads are for type checkers (typing is not on the start-up path, issue 22)
    @overload
    def check(text: Ruleset, ruleset: str | ParsedCards, *, lang: str | None = None, source: str = "<input>",
              line: int = 1) -> CheckResult: ...

    @overload
    def check(text: str | ParsedCards, ruleset: Ruleset | None = None, *, lang: str | None = None,
              source: str = "<input>", line: int = 1) -> CheckResult: ...


def check(
    text: str | ParsedCards | Ruleset,
    ruleset: Ruleset | str | ParsedCards | None = None,
    *,
    lang: str | None = None,
    source: str = "<input>",
    line: int = 1,
) -> CheckResult:
    """Parse ``text`` as cards and check it as one meld under ``ruleset`` (default: the shipped
    :data:`~loba_dsl.defaults.DEFAULT_RULESET`; load others with ``load``/``load_file``/``loads``).

    Bad cards, more copies of a card than the deck holds, and no cards at all raise
    :class:`~loba_dsl.errors.InputError` (or several in a ``LobaErrors``): the same "no cards given" that
    ``loba check ""`` and ``POST /v1/check`` answer.  The ruleset may come first (the facade's one order,
    :mod:`loba_dsl.argorder`): ``check(rs, "A♣ 2♣ JOKER")``.
    """
    if isinstance(text, Ruleset):  # the ruleset first
        text, ruleset = ruleset, text  # type: ignore[assignment]
    if isinstance(ruleset, str | ParsedCards) or not isinstance(text, str | ParsedCards):
        raise TypeError("check() takes the cards and a Ruleset: use load(name), load_file(path) or loads(text)")
    rs = load(DEFAULT_RULESET) if ruleset is None else ruleset
    if isinstance(text, ParsedCards):  # cards already read (with the ruleset's notation)
        check_copies(text, rs.deck, source=source, ruleset=rs.name)
        if not text.cards:
            raise no_cards()
        return check_cards(text.cards, rs, " ".join(rs.deck.names_of(text.cards)))
    notation = rs.notation(lang)
    quick = notation.quick_codes(text)
    if quick is not None and quick and _within_copies(quick, rs):  # nothing to locate or explain
        return check_cards(quick, rs, text)
    parsed = notation.parse(text, source=source, first_line=line)
    # Spans count lines from ``line``: the text is that line (no padding, so a batch stays linear).
    check_copies(parsed, rs.deck, source=source, text=text, ruleset=rs.name, first_line=line)
    if not parsed.cards:
        raise no_cards()
    return check_cards(parsed.cards, rs, text)


def kind_verdicts(ruleset: Ruleset, cards: tuple[Card, ...], messages: str = "en") -> list[dict[str, Any]]:
    """For each meld kind of the ruleset: are ``cards`` a meld of that kind, and if not, every reason (in the
    language ``messages``: ``en`` or ``es``)."""
    m = matcher_for(ruleset)
    out = []
    for spec in m.specs:
        o = m.match(cards, (spec,))
        out.append({"kind": spec.name, "valid": o.valid,
                    "reasons": [explain(ruleset, f, messages) for f in o.failures]})
    return out


def no_cards() -> InputError:
    """The error of a meld given as no cards at all (an empty text, or only separators)."""
    return InputError(said("no cards given"), hint=said("a meld is written as its cards, e.g. {example}",
                                                         example='"A♣ 2♣ JOKER"'))


def _within_copies(cards: tuple[Card, ...], rs: Ruleset) -> bool:
    """No card more often than the deck holds (the check that :func:`check_copies` explains)."""
    deck = rs.deck
    if len(set(cards)) == len(cards):
        return all(deck.limit(c) >= 1 for c in cards)
    counts: dict[Card, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return all(deck.limit(c) >= n for c, n in counts.items())


def check_lines(
    lines: Iterator[str] | list[str] | Ruleset, ruleset: Ruleset | Iterator[str] | list[str] | None = None, *,
    lang: str | None = None, source: str = "<input>"
) -> Iterator[CheckResult | Exception]:
    """Check one meld per line; blank lines and ``#`` comments are skipped.  The ruleset may come first (the
    facade's one order, :mod:`loba_dsl.argorder`) or second.

    Yields a result, or the input error of that line, so a batch reports
    every line.
    """
    from loba_dsl.argorder import ruleset_first
    from loba_dsl.errors import LobaError

    rs, given = ruleset_first(lines, ruleset, None, "check_lines")
    for number, raw in enumerate(given, start=1):
        text = raw.rstrip("\n")
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        try:
            yield check(text, rs, lang=lang, source=source, line=number)
        except LobaError as e:
            yield e
