"""The page's contract (issue 23), checked as a user's browser sees it: the navigation and its links, the
language switch, the checker's controls and verdict, the house rules' text box, by accessible name and
role, in English and in Spanish."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")

from page_views import go
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # a browser and the real service: `make test` runs them, `make test-fast` does not

NAV = {"en": ["Check", "Score sheet", "House rules", "Arrange", "Play"],
       "es": ["Comprobar", "Planilla", "Reglas de la casa", "Acomodar", "Jugar"]}


def test_english_names(page: Any, server: str) -> None:
    go(page, server)
    nav = page.get_by_role("navigation")
    for name in NAV["en"]:
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Español", exact=True)).to_be_visible()
    expect(page.get_by_role("textbox", name="Cards", exact=True)).to_be_visible()
    expect(page.get_by_role("combobox", name="Ruleset", exact=True)).to_be_visible()
    nav.get_by_role("link", name="House rules").click()
    expect(page.get_by_role("textbox", name="Ruleset YAML", exact=True)).to_be_visible()


def test_browser_language_spanish_and_the_switch(spanish: Any, server: str) -> None:
    page = spanish
    go(page, server)
    expect(page.locator("html")).to_have_attribute("lang", "es")
    nav = page.get_by_role("navigation")
    for name in NAV["es"]:
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    page.get_by_role("textbox", name="Cartas", exact=True).fill("7♠ 7♥ JOKER")
    expect(page.get_by_role("combobox", name="Reglas", exact=True)).to_have_value("menos")
    status = page.get_by_role("status").first
    expect(status).to_contain_text("no es una combinación válida")
    page.get_by_role("textbox", name="Cartas").fill("A♣ 2♣ JOKER")
    expect(status).to_contain_text("legal")
    expect(status).not_to_contain_text("no es una combinación válida")
    nav.get_by_role("link", name="Reglas de la casa").click()
    expect(page.get_by_role("textbox", name="YAML de las reglas", exact=True)).to_be_visible()

    # The switch: English at once, every text, and still English after a reload (remembered).
    page.get_by_role("button", name="English", exact=True).click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    for name in NAV["en"]:
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("textbox", name="Ruleset YAML", exact=True)).to_be_visible()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.get_by_role("button", name="Español", exact=True)).to_be_visible()
    page.get_by_role("link", name="Check").click()
    expect(page.get_by_role("status").first).to_contain_text("This is a legal meld")


def test_views_by_link_and_focus(page: Any, server: str) -> None:
    go(page, server)
    for link, heading in [("Score sheet", "Score sheet"), ("House rules", "House rules"),
                          ("Arrange", "Best arrangement"), ("Play", "Play with friends"), ("Check", "Check a meld")]:
        page.get_by_role("navigation").get_by_role("link", name=link).click()
        h1 = page.get_by_role("heading", level=1)
        expect(h1).to_have_text(heading)
        expect(h1).to_be_focused()  # a screen reader hears the new view's title
        expect(page.get_by_role("link", name=link)).to_have_attribute("aria-current", "page")
