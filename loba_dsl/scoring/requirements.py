"""Requirements on a lay-down: an opening minimum (bazas) and a round's contract (contrato).

Both read their settings from ``requirements`` in the ruleset:

- ``opening``: ``minimum``, ``scope`` (``first_turn``: everything put down in
  the first turn counts together; ``meld``: one meld must reach it alone),
  ``table`` (the value table), ``wild_value`` (``own``: a wild counts its own
  value, a Joker 25; ``represented``: the value of the card it stands for);
- ``contracts``: one contract per round, e.g. ``2 pierna + escalera``; a
  lay-down fulfils it when its melds are exactly those kinds in those numbers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loba_dsl.cards.deck import Card
from loba_dsl.errors import InputError
from loba_dsl.melds.matcher import matcher_for
from loba_dsl.rules.model import Ruleset


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

    def to_dict(self, ruleset: Ruleset) -> dict[str, Any]:
        names = ruleset.deck.names
        return {
            "ruleset": ruleset.name,
            "ok": self.ok,
            "value": self.value,
            "needed": self.needed,
            "summary": self.summary,
            "melds": [{"cards": [names[c] for c in m.cards], "kinds": list(m.kinds), "value": m.value}
                      for m in self.melds],
        }


def legal_kinds(ruleset: Ruleset, cards: Sequence[Card]) -> tuple[str, ...]:
    """Every meld kind ``cards`` are legal as."""
    m = matcher_for(ruleset)
    return tuple(k.name for k in ruleset.kinds if m.match_kind(cards, k.name) is not None)


def opening(ruleset: Ruleset, melds: Sequence[Sequence[Card]]) -> Verdict:
    """Does this first lay-down reach the ruleset's opening minimum?"""
    spec = ruleset.requirements.opening
    if spec is None:
        raise InputError(f"{ruleset.name} has no opening minimum (requirements.opening)")
    values = ruleset.hand_values[spec.table]
    verdicts = []
    for cards in melds:
        best = matcher_for(ruleset).match(cards).best
        if best is None:
            verdicts.append(MeldVerdict(tuple(cards), ()))
            continue
        if spec.wild_value == "represented":
            value = sum(values[best.stands[q]] for q in range(len(best.stands)))
        else:
            value = sum(values[c] for c in cards)
        verdicts.append(MeldVerdict(tuple(cards), (best.kind,), value))
    illegal = [v for v in verdicts if not v.kinds]
    if illegal:
        shown = " ".join(ruleset.deck.names_of(illegal[0].cards))
        return Verdict(False, tuple(verdicts), f"'{shown}' is not a legal meld", None, spec.minimum)
    counted = [v.value or 0 for v in verdicts]
    total = sum(counted) if spec.scope == "first_turn" else max(counted, default=0)
    how = "together" if spec.scope == "first_turn" else "in its best single meld"
    ok = total >= spec.minimum
    word = "reaches" if ok else "does not reach"
    return Verdict(ok, tuple(verdicts), f"worth {total} {how}: {word} the minimum of {spec.minimum}", total,
                   spec.minimum)


def contract(ruleset: Ruleset, round_number: int, melds: Sequence[Sequence[Card]]) -> Verdict:
    """Does this lay-down fulfil round ``round_number``'s contract (1-based)?"""
    spec = ruleset.requirements.contracts
    if spec is None:
        raise InputError(f"{ruleset.name} has no contracts (requirements.contracts)")
    if not 1 <= round_number <= len(spec.rounds):
        raise InputError(f"{ruleset.name} has contracts for rounds 1 to {len(spec.rounds)}, not {round_number}")
    wanted: dict[str, int] = {}
    for term in spec.rounds[round_number - 1].terms:
        wanted[term.kind.text] = wanted.get(term.kind.text, 0) + term.count
    text = spec.texts[round_number - 1]
    verdicts = tuple(MeldVerdict(tuple(c), legal_kinds(ruleset, c)) for c in melds)
    illegal = [v for v in verdicts if not v.kinds]
    if illegal:
        shown = " ".join(ruleset.deck.names_of(illegal[0].cards))
        return Verdict(False, verdicts, f"'{shown}' is not a legal meld")
    # Each meld may be legal as several kinds: look for one assignment that gives exactly the contract.
    for choice in itertools.product(*(v.kinds for v in verdicts)):
        counts: dict[str, int] = {}
        for kind in choice:
            counts[kind] = counts.get(kind, 0) + 1
        if counts == wanted:
            return Verdict(True, verdicts, f"fulfils round {round_number}'s contract: {text}")
    return Verdict(False, verdicts, f"does not fulfil round {round_number}'s contract: {text}")
