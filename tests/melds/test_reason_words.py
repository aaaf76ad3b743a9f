"""A meld's reasons in Spanish as well as English (the page speaks both; its checker shows these reasons).

Expected verdicts follow /work/shared/rules.md §1 (Loba de Menos: a pierna takes no wilds, an escalera's ace
is low only, 3 or more cards) as docs/rules.md restates them; the Spanish words are ours (this module's
catalogue), so a test here checks that every reason the engine can give has them and that they read in
place of the English ones, card and rule names untouched.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import loba_dsl.melds
from loba_dsl import check, load
from loba_dsl.melds.reason_words import LANGUAGES, words


def engine_templates() -> set[str]:
    """Every template the matcher builds a Failure with, read from the sources of its modules."""
    folder = Path(loba_dsl.melds.__file__).parent
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py")))
    found = set(re.findall(r'Failure\(\s*k\.name,\s*k\.index,\s*[\w.]+,\s*"([^"]+)"', source))
    assert len(found) >= 10, "the matcher's Failure calls changed shape: update this reader"
    return found


def test_every_reason_the_engine_gives_has_spanish_words() -> None:
    missing = engine_templates() - set(words("es").templates)
    assert not missing


def test_spanish_templates_keep_the_same_fields() -> None:
    """A translation that drops or adds a field would raise or lose a value when formatted."""
    field = re.compile(r"\{(\w*)\}")
    for english, spanish in words("es").templates.items():
        assert sorted(field.findall(english)) == sorted(field.findall(spanish)), english


def test_a_pierna_with_a_joker_in_spanish() -> None:
    # rules.md §1: under menos the wild cards (Jokers) go in escaleras only, never in a pierna.
    result = check("7♠ 7♥ JOKER", load("menos"))
    assert not result.valid
    english = result.reasons()
    spanish = result.reasons("es")
    assert len(spanish) == len(english)
    pierna = next(r for r in spanish if r.startswith("pierna: "))
    assert "no admite comodines, pero JOKER haría de comodín" in pierna
    assert "(regla '" in pierna and " en rulesets/menos.yaml:" in pierna
    assert not any("allows no wild cards" in r for r in spanish)


def test_ace_high_in_spanish_names_the_ace_rule() -> None:
    # rules.md §1: the ace is low only in a menos escalera (Q-K-A is illegal).
    result = check("Q♥ K♥ A♥", load("menos"))
    assert not result.valid
    escalera = next(r for r in result.reasons("es") if r.startswith("escalera: "))
    assert "no es una escalera con el as solo abajo: Q♥ K♥ A♥" in escalera


def test_too_few_cards_in_spanish() -> None:
    # rules.md §1: a meld has 3 or more cards.
    reasons = check("7♠ 7♥", load("menos")).reasons("es")
    assert any("necesita al menos 3 cartas, pero tiene 2" in r for r in reasons)


def test_json_of_a_check_in_spanish_changes_only_the_reasons() -> None:
    result = check("7♠ 7♥ JOKER", load("menos"))
    english, spanish = result.to_dict(), result.to_dict("es")
    assert {k: v for k, v in english.items() if k != "reasons"} == {k: v for k, v in spanish.items() if k != "reasons"}
    assert english["reasons"] != spanish["reasons"]


def test_an_unknown_language_is_refused() -> None:
    assert LANGUAGES == ("en", "es")
    with pytest.raises(ValueError, match="en or es"):
        check("7♠ 7♥ JOKER", load("menos")).reasons("fr")
