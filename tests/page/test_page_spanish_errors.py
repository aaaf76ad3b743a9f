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
