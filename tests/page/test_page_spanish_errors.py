"""The Spanish page shows a user's input errors in Spanish: a typo'd card in the checker and the arranger, a
YAML slip in the house rules (still at its line: the contract's `línea N`); switched to English, the same
errors are said in English.

Which inputs are wrong: docs/rules.md §5 (a card is a rank and a suit: 'Zz' is neither); the YAML slip is a
key written without its ':' (YAML 1.1, a mapping's key ends with ':').  The Spanish words are the catalogue's
(loba_dsl.error_words).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")

from page_views import SLIP, go
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # a browser and the real service: `make test` runs them, `make test-fast` does not


def test_a_typo_d_card_in_spanish_then_in_english(spanish: Any, server: str) -> None:
    go(spanish, server)
    spanish.get_by_role("textbox", name="Cartas").fill("7♠ Zz")
    status = spanish.get_by_role("status").first
    expect(status).to_contain_text("carta desconocida 'Zz'")
    expect(status).not_to_contain_text("unknown card")
    spanish.get_by_role("button", name="English").click()
    expect(status).to_contain_text("unknown card 'Zz'")


def test_a_typo_d_card_in_the_arranger_in_spanish(spanish: Any, server: str) -> None:
    go(spanish, server, "arrange")
    spanish.get_by_role("textbox", name="Mano").fill("A♣ 2♣ 3♣ 7x")
    spanish.get_by_role("button", name="Acomodar", exact=True).click()
    result = spanish.locator("#arrange-result")
    expect(result).to_contain_text("carta desconocida '7x'")
    expect(result).to_contain_text("'x' no es un palo")


def test_a_yaml_slip_in_spanish_at_its_line_then_in_english(spanish: Any, server: str) -> None:
    go(spanish, server, "house")
    spanish.get_by_role("textbox", name="YAML de las reglas").fill(SLIP)
    errors = spanish.locator("#house-status").get_by_role("listitem")
    expect(errors).to_have_count(1)
    expect(errors.first).to_contain_text("línea 4")
    expect(errors.first).to_contain_text("falta el ':' esperado")
    expect(errors.first).to_contain_text("al leer una clave, que empezó en la línea 3")
    spanish.get_by_role("button", name="English").click()
    expect(errors.first).to_contain_text("line 4")
    expect(errors.first).to_contain_text("could not find expected ':'")


def test_a_typo_d_card_on_the_score_sheet_in_spanish_then_in_english(spanish: Any, server: str) -> None:
    go(spanish, server, "sheet")
    for i, name in enumerate(["Ana", "Beto"]):
        spanish.get_by_role("textbox", name=f"Jugador {i + 1}").fill(name)
    spanish.get_by_role("button", name="Empezar la partida").click()
    spanish.get_by_role("radio", name="cartas que quedaron en la mano").check()
    spanish.get_by_role("group", name="Ana", exact=True).get_by_role("checkbox", name="Ana cortó", exact=True).check()
    beto = spanish.get_by_role("group", name="Beto", exact=True)
    beto.get_by_role("textbox", name="Beto: cartas que quedaron en la mano").fill("K♠ 7x")
    spanish.get_by_role("button", name="Agregar la ronda 1").click()
    problem = spanish.get_by_role("alert")
    expect(problem).to_contain_text("carta desconocida '7x'")
    expect(problem).to_contain_text("'x' no es un palo")
    spanish.get_by_role("button", name="English").click()
    expect(problem).to_contain_text("unknown card '7x'")
