"""Input errors in Spanish as well as English (the page speaks both; its checker, sheet, arranger and house rules
views show these messages).

Which inputs are wrong follows docs/rules.md §5 (a card is a rank and a suit, or a Joker; Loba de Menos plays two
52-card decks and four Jokers, so a third 7♠ is one too many) and the ruleset schema (loba_dsl/rulesets/schema.json).
The Spanish words are ours (the catalogue in loba_dsl.error_words), so these tests check that every template
the code can say has them with the same fields, and that they are said in place of the English ones with the
user's own text, the line and the column untouched.
"""

from __future__ import annotations

import ast
import pickle
import string
from pathlib import Path
from typing import Any, cast

import pytest
import yaml

import loba_dsl
from loba_dsl import LobaError, check, load, loads
from loba_dsl.error_words import LITERALS, TEMPLATES
from loba_dsl.errors import Said, said

ROOT = Path(loba_dsl.__file__).resolve().parent.parent


def said_templates() -> dict[str, str]:
    """Every template written in a ``said("...")`` call of the library and the service, with where it is."""
    found: dict[str, str] = {}
    for package in ("loba_dsl", "loba_service", "loba_cli"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "said"
                        and node.args and isinstance(node.args[0], ast.Constant)
                        and isinstance(node.args[0].value, str)):
                    found.setdefault(node.args[0].value, f"{path.relative_to(ROOT)}:{node.lineno}")
    assert len(found) >= 60, "the said() calls changed shape: update this reader"
    return found


def problems(err: LobaError, lang: str = "en") -> list[dict[str, Any]]:
    return cast(list[dict[str, Any]], err.to_dict(lang)["errors"])


def fields(template: str) -> list[str]:
    return sorted(f"{name}:{spec}" for _, name, spec, _ in string.Formatter().parse(template) if name is not None)


def test_every_template_the_code_says_has_spanish_words() -> None:
    missing = {t: where for t, where in said_templates().items() if t not in TEMPLATES["es"]}
    assert not missing


def test_spanish_templates_keep_the_same_fields() -> None:
    """A translation that drops, adds or renames a field would raise or lose a value when it is said."""
    for english, spanish in TEMPLATES["es"].items():
        assert fields(english) == fields(spanish), english


def test_no_spanish_words_for_a_template_the_code_no_longer_says() -> None:
    assert not set(TEMPLATES["es"]) - set(said_templates())


def test_pyyaml_texts_with_words_are_pyyamls_own() -> None:
    """A literal is matched by its exact text: each one must be a text PyYAML's scanner or parser writes."""
    source = "".join(Path(m.__file__).read_text(encoding="utf-8")  # type: ignore[arg-type]
                     for m in (yaml.scanner, yaml.parser))
    for text in LITERALS["es"]:
        plain = text.replace("'\\t'", "%r")  # the scanner writes the tab with %r
        assert plain in source or plain.split(" %r")[0] in source, text


def test_an_unknown_card_and_its_hint_in_spanish() -> None:
    # rules.md §5: a card is a rank followed by a suit; 'Z' is no rank, and '1h' means the ace of hearts.
    with pytest.raises(LobaError) as caught:
        load("menos").notation().parse("7♠ Z♠ 1h", source="<cards>")
    english, spanish = problems(caught.value), problems(caught.value, "es")
    assert [e["message"] for e in english] == ["unknown card 'Z♠'", "unknown card '1h'"]
    assert [e["message"] for e in spanish] == ["carta desconocida 'Z♠'", "carta desconocida '1h'"]
    assert spanish[1]["hint"] == "¿quisiste decir 'A♥'?"
    assert spanish[0]["hint"].startswith("una carta es un número (A 2 3 4 5 6 7 8 9 10 J Q K) seguido de un palo")
    where = ("file", "line", "column", "length")
    assert [[e[k] for k in where] for e in spanish] == [[e[k] for k in where] for e in english]
    assert [[e[k] for k in where] for e in spanish] == [["<cards>", 1, 4, 2], ["<cards>", 1, 7, 2]]


def test_too_many_copies_in_spanish() -> None:
    # rules.md §5: menos is two 52-card decks, so a card has two copies; a third 7♠ is one too many.
    rs = load("menos")
    parsed = rs.notation().parse("7♠ 7♠ 7♠")
    with pytest.raises(LobaError) as caught:
        loba_dsl.check_copies(parsed, rs.deck, ruleset="menos")
    assert caught.value.message == "7♠ appears 3 times but the deck of 'menos' holds 2 copies"
    assert caught.value.message_in("es") == "7♠ aparece 3 veces, pero la baraja de 'menos' tiene 2 copias"


def test_no_cards_in_spanish() -> None:
    with pytest.raises(LobaError) as caught:
        check("", load("menos"))
    assert caught.value.message_in("es") == "no hay ninguna carta"
    assert caught.value.message_in("en") == "no cards given"


HOUSE = "name: casa\nextends: menos\n"


def spanish_problems(text: str) -> list[tuple[str, str | None, int | None, int | None]]:
    with pytest.raises(LobaError) as caught:
        loads(text, source="house.yaml", resolver=loba_dsl.SHIPPED_ONLY, cached=False)
    return [(e["message"], e["hint"], e["line"], e["column"]) for e in problems(caught.value, "es")]


def test_a_yaml_slip_in_spanish_keeps_its_line_and_column() -> None:
    # A key written without its ':' (line 3): PyYAML finds the missing ':' where the next key starts.
    problems = spanish_problems(HOUSE + "melds\n  escalera:\n    shape: run 3..13\n")
    assert problems == [("falta el ':' esperado", "al leer una clave, que empezó en la línea 3", 4, 11)]


def test_a_badly_indented_key_in_spanish() -> None:
    problems = spanish_problems(HOUSE + "melds:\n  escalera:\n    shape: run 3..13\n   wilds: 2\n")
    assert problems == [("se esperaba <fin de bloque>, pero se encontró '<inicio de mapeo>'",
                         "al leer un mapeo, que empezó en la línea 4", 6, 4)]


def test_a_misspelt_key_in_spanish() -> None:
    # loba_dsl/rulesets/schema.json: the top-level keys include 'melds'.
    assert spanish_problems(HOUSE + "meldz: {}\n") == [
        ("clave desconocida 'meldz' en el nivel superior", "¿quisiste decir 'melds'?", 3, 1)]


def test_a_dsl_typo_in_spanish() -> None:
    # A shape's settings are separated by commas: "andd" cannot follow "run 3..13".
    problems = spanish_problems(HOUSE + "melds:\n  escalera:\n    shape: run 3..13 andd wilds <= 2\n")
    assert problems == [("'andd' inesperado", "se esperaba ','", 5, 22)]


def test_a_wrong_type_in_spanish() -> None:
    # deck.jokers is a number of Jokers.
    assert spanish_problems(HOUSE + "deck:\n  jokers: many\n") == [
        ("deck.jokers: 'many' no es del tipo 'integer'", None, 4, 11)]


def test_an_ace_clause_on_a_set_in_spanish() -> None:
    # rules.md §1: the ace's place (low only) is a rule of escaleras (runs); a pierna (set) has no ace clause.
    assert spanish_problems(HOUSE + "melds:\n  pierna:\n    shape: set 3..4, ace low\n") == [
        ("esta condición vale solo para escaleras (run)", None, 5, 22)]


def test_a_misspelt_kind_in_a_contract_in_spanish() -> None:
    # menos has two meld kinds, pierna and escalera (rules.md §1); 'piernna' is neither.
    problems = spanish_problems(HOUSE + 'requirements:\n  contracts:\n    rounds: ["2 piernna"]\n')
    assert problems == [("clase de combinación desconocida 'piernna'", "¿quisiste decir 'pierna'?", 5, 17)]


def test_an_unknown_value_table_in_spanish() -> None:
    # menos.yaml has one value table, 'penalty' (the cards' values of rules.md §1's table).
    assert spanish_problems(HOUSE + "scoring:\n  meld_points: penalti\n") == [
        ("tabla de valores desconocida 'penalti'", "¿quisiste decir 'penalty'?", 4, 16)]


def test_english_is_the_text_itself() -> None:
    words = said("unknown card '{token}'", token="Z♠")
    assert words == "unknown card 'Z♠'" and words.say("en") == "unknown card 'Z♠'"
    assert Said.literal("found '{'").say("es") == "found '{'"  # no words for it: English, braces intact


def test_said_words_survive_a_trip_to_a_solver_process() -> None:
    words = said("the deck{of} has no {card}", of=said(" of '{ruleset}'", ruleset="casa"), card="JOKER")
    back = pickle.loads(pickle.dumps(words))
    assert back == words and back.say("es") == "la baraja de 'casa' no tiene JOKER"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="en or es"):
        said("no cards given").say("fr")
