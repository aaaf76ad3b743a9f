"""Requirements on a lay-down: an opening minimum (bazas) and a round's contract (contrato).

Both are defined here once, as :class:`OpeningRule` and :class:`ContractRule`
built from ``requirements`` in the ruleset (rules.md §4), and read both by
``loba check --opening/--contract`` (:func:`opening`, :func:`contract`) and
by the solver (``Solver.best_opening``, ``Solver.contract``):

- ``opening``: ``minimum``, ``scope`` (``first_turn``: everything put down in
  the first turn counts together; ``meld``: one meld must reach it alone),
  ``table`` (the value table), ``wild_value`` (``own``: a wild counts its own
  value, a Joker 25; ``represented``: the value of the card it stands for);
- ``contracts``: one contract per round, e.g. ``2 pierna + escalera``; a
  lay-down fulfils it when its melds are exactly those kinds in those numbers
  (``other_melds_same_turn: true``, or ``before_other_melds: false`` where other melds may come
  first: at least those, other legal melds beside them); melds that are part of it and no more are
  ``partial`` (a contract put down over several turns, ``at_once: false``).
  A round number outside the list is an :class:`~loba_dsl.errors.InputError`.

:func:`parse_lay_down` reads a lay-down written as melds separated by ``|``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from loba_dsl.budget import BudgetLike, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.cards.notation import ParsedCards, check_copies
from loba_dsl.errors import InputError, said
from loba_dsl.melds.matcher import Matcher, Reading, matcher_for
from loba_dsl.rules.model import Ruleset

if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    from loba_dsl.frozen import dataclass  # built without importing dataclasses (issue 22)

__all__ = ["ContractRule", "MeldVerdict", "OpeningRule", "Verdict", "contract", "contract_rule", "legal_kinds",
           "opening", "opening_rule", "parse_lay_down"]


@dataclass(frozen=True)
class OpeningRule:
    """What a first lay-down must be worth (``requirements.opening``, rules.md §4 bazas)."""

    minimum: int
    first_turn: bool
    """``scope: first_turn``: the melds count together; otherwise (``meld``) the best single meld counts."""
    values: tuple[int, ...]
    """Per card code, its value in the opening's table."""
    represented: bool
    """``wild_value: represented``: a wild counts the card it stands for, not its own value."""

    def worth(self, cards: Sequence[Card], reading: Reading | None = None) -> int:
        """What one legal meld (``cards``, read as ``reading``) counts towards the minimum.

        The reading is needed only where a wild counts the card it stands for (``represented``).
        """
        values = self.values
        if self.represented:
            assert reading is not None, "a wild counts what it stands for: give the meld's reading"
            return sum(values[c] for c in reading.stands)
        return sum(values[c] for c in cards)

    def layout(self, matcher: Matcher, cards: Sequence[Card], *,
               budget: BudgetLike | Clock = None) -> tuple[tuple[Card, ...], int]:
        """One legal meld laid out the way that makes it worth the most towards the minimum, and that worth.

        A wild's own value (``wild_value: own``) is the same whatever the layout:
        ``cards`` as given.  Under ``represented`` a wild is worth the card it stands
        for, and the order the cards are laid out in says which (``JOKER 2♠ 3♠ 4♠``:
        the A; ``2♠ 3♠ 4♠ JOKER``: the 5): each reading a layout can give
        (:meth:`~loba_dsl.melds.matcher.Matcher.layout_readings`) is laid out in its
        own order and read again, as the referee reads a meld put down, and the
        layout worth the most is kept (the first of equal worth).
        """
        cards = tuple(cards)
        if not self.represented:
            return cards, self.worth(cards)
        best: tuple[tuple[Card, ...], int] | None = None
        for reading in matcher.layout_readings(cards, budget=budget):
            laid = tuple(cards[i] for i in reading.order)
            read = matcher.match(laid, reasons=False, budget=budget).best
            assert read is not None, "a layout of a legal meld is legal"
            worth = self.worth(laid, read)
            if best is None or worth > best[1]:
                best = (laid, worth)
        assert best is not None, "give a legal meld"
        return best

    def reached(self, so_far: int, worth: int) -> int:
        """The value reached after one more meld worth ``worth``."""
        return so_far + worth if self.first_turn else max(so_far, worth)

    def total(self, worths: Iterable[int]) -> int:
        """The value a lay-down of melds of these worths reaches."""
        total = 0
        for w in worths:
            total = self.reached(total, w)
        return total


@dataclass(frozen=True)
class ContractRule:
    """One round's contract (``requirements.contracts``, rules.md §4 contrato)."""

    round_number: int
    """1-based."""
    text: str
    """As the ruleset writes it, e.g. ``2 pierna + escalera``."""
    wanted: Mapping[str, int]
    """How many melds of each kind the lay-down must hold, exactly (with ``others``, at least)."""
    others: bool = False
    """``requirements.contracts.other_melds_same_turn``: other melds may go down beside the contract."""

    @property
    def in_words(self) -> str:
        """The contract as players say it: ``2 piernas + escalera`` (a kind's name takes an ``s`` for several)."""
        return " + ".join(f"{n} {kind}s" if n > 1 else kind for kind, n in self.wanted.items())

    def fulfilled_by(self, kinds: Iterable[str], *, others: bool | None = None) -> bool:
        """Do melds of these kinds (one kind per meld) make up exactly the contract?

        ``others`` (default: the rule's own ``others``): the contract among other melds is enough.
        """
        counts: dict[str, int] = {}
        for kind in kinds:
            counts[kind] = counts.get(kind, 0) + 1
        if self.others if others is None else others:
            return all(counts.get(kind, 0) >= n for kind, n in self.wanted.items())
        return counts == dict(self.wanted)

    def part_of(self, kinds: Iterable[str]) -> bool:
        """Are melds of these kinds (one kind per meld) part of the contract, none beyond it (a contract put
        down over several turns, ``requirements.contracts.at_once: false``)?"""
        counts: dict[str, int] = {}
        for kind in kinds:
            counts[kind] = counts.get(kind, 0) + 1
        return all(n <= self.wanted.get(kind, 0) for kind, n in counts.items())


def opening_rule(ruleset: Ruleset) -> OpeningRule:
    """The ruleset's opening minimum (an :class:`InputError` if it has none)."""
    spec = ruleset.requirements.opening
    if spec is None:
        raise InputError(f"{ruleset.name} has no opening minimum (requirements.opening)")
    return OpeningRule(spec.minimum, spec.scope == "first_turn", tuple(ruleset.hand_values[spec.table]),
                       spec.wild_value == "represented")


def contract_rule(ruleset: Ruleset, round_number: int) -> ContractRule:
    """Round ``round_number``'s contract (1-based); an :class:`InputError` for a round outside the list."""
    spec = ruleset.requirements.contracts
    if spec is None:
        raise InputError(f"{ruleset.name} has no contracts (requirements.contracts)")
    if not spec.rounds:
        raise InputError(f"{ruleset.name} lists no contracts (requirements.contracts.rounds is empty)")
    if not 1 <= round_number <= len(spec.rounds):
        raise InputError(f"{ruleset.name} has contracts for rounds 1 to {len(spec.rounds)}, not {round_number}")
    wanted: dict[str, int] = {}
    for term in spec.rounds[round_number - 1].terms:
        wanted[term.kind.text] = wanted.get(term.kind.text, 0) + term.count
    # Other melds may come before the contract (before_other_melds: false), so also beside it (rules.md §4).
    others = spec.other_melds_same_turn or not spec.before_other_melds
    return ContractRule(round_number, spec.texts[round_number - 1], wanted, others)


def parse_lay_down(ruleset: Ruleset, text: str, lang: str | None = None, *,
                   source: str = "<cards>") -> tuple[tuple[Card, ...], ...]:
    """The melds of a lay-down written as melds separated by ``|``: ``A♣ 2♣ JOKER | 7♠ 7♥ 7♦``.

    Each card keeps its column in ``text`` (errors point at it), empty parts are
    skipped, and copies are checked across all the melds (rules.md §5: no more
    copies of a card than the deck holds).
    """
    melds = ruleset.notation(lang).parse_melds(text, source=source)
    every = ParsedCards(tuple(c for m in melds for c in m.cards), tuple(s for m in melds for s in m.spans))
    check_copies(every, ruleset.deck, source=source, text=text, ruleset=ruleset.name)
    return tuple(m.cards for m in melds)


@dataclass(frozen=True)
class MeldVerdict:
    cards: tuple[Card, ...]
    kinds: tuple[str, ...]
    """Every kind this meld is legal as (empty: not legal)."""
    value: int | None = None


@dataclass(frozen=True)
class Verdict:
    """Whether a lay-down meets a requirement, with the figures behind it."""

    ok: bool
    melds: tuple[MeldVerdict, ...]
    summary: str
    value: int | None = None
    needed: int | None = None
    partial: bool = False
    """Not the contract, but part of it: more melds may complete it (``at_once: false``)."""

    def to_dict(self, ruleset: Ruleset) -> dict[str, Any]:
        names = ruleset.deck.names
        return {
            "ruleset": ruleset.name,
            "valid": self.ok,
            "ok": self.ok,
            "value": self.value,
            "needed": self.needed,
            "summary": str(self.summary),  # the English words (Said words are no JSON of their own)
            "melds": [{"cards": [names[c] for c in m.cards], "kinds": list(m.kinds), "value": m.value}
                      for m in self.melds],
        }


def legal_kinds(ruleset: Ruleset, cards: Sequence[Card]) -> tuple[str, ...]:
    """Every meld kind ``cards`` are legal as."""
    m = matcher_for(ruleset)
    return tuple(k.name for k in ruleset.kinds if m.match_kind(cards, k.name) is not None)


def opening(ruleset: Ruleset, melds: Sequence[Sequence[Card]]) -> Verdict:
    """Does this first lay-down reach the ruleset's opening minimum?"""
    rule = opening_rule(ruleset)
    matcher = matcher_for(ruleset)
    verdicts = []
    for cards in melds:
        best = matcher.match(cards).best
        if best is None:
            verdicts.append(MeldVerdict(tuple(cards), ()))
            continue
        verdicts.append(MeldVerdict(tuple(cards), (best.kind,), rule.worth(cards, best)))
    illegal = [v for v in verdicts if not v.kinds]
    if illegal:
        shown = " ".join(ruleset.deck.names_of(illegal[0].cards))
        return Verdict(False, tuple(verdicts), said("'{meld}' is not a legal meld", meld=shown), None, rule.minimum)
    total = rule.total(v.value or 0 for v in verdicts)
    how = said("together") if rule.first_turn else said("in its best single meld")
    ok = total >= rule.minimum
    word = said("reaches") if ok else said("does not reach")
    return Verdict(ok, tuple(verdicts), said("worth {total} {how}: {word} the minimum of {minimum}", total=total,
                                             how=how, word=word, minimum=rule.minimum), total, rule.minimum)


def contract(ruleset: Ruleset, round_number: int, melds: Sequence[Sequence[Card]]) -> Verdict:
    """Does this lay-down fulfil round ``round_number``'s contract (1-based)?"""
    rule = contract_rule(ruleset, round_number)
    verdicts = tuple(MeldVerdict(tuple(c), legal_kinds(ruleset, c)) for c in melds)
    illegal = [v for v in verdicts if not v.kinds]
    if illegal:
        shown = " ".join(ruleset.deck.names_of(illegal[0].cards))
        return Verdict(False, verdicts, said("'{meld}' is not a legal meld", meld=shown))
    # Each meld may be legal as several kinds: look for one assignment that gives exactly the contract.
    choices = list(itertools.product(*(v.kinds for v in verdicts)))
    if any(rule.fulfilled_by(choice) for choice in choices):
        return Verdict(True, verdicts, said("fulfils round {number}'s contract: {contract}", number=round_number,
                                            contract=rule.in_words))
    if any(rule.part_of(choice) for choice in choices):
        return Verdict(False, verdicts, said("does not fulfil round {number}'s contract: {contract} (it is part of "
                                             "it)", number=round_number, contract=rule.in_words), partial=True)
    if not rule.others and any(rule.fulfilled_by(choice, others=True) for choice in choices):
        return Verdict(False, verdicts, said(
            "holds round {number}'s contract ({contract}) and other melds: the contract goes down alone in its "
            "turn, other melds from the next (requirements.contracts.other_melds_same_turn: false)",
            number=round_number, contract=rule.in_words))
    return Verdict(False, verdicts, said("does not fulfil round {number}'s contract: {contract}", number=round_number,
                                         contract=rule.in_words))
