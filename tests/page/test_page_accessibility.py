"""Accessibility, checked by axe-core (vendored: tests/page/vendor) on every view, with its content drawn
(a verdict with reasons, a sheet with an elimination and an offer, the house rules' errors and their diff,
an arrangement), at phone (360 px) and laptop width: no violation of the serious or critical kinds.  Also
the keyboard: every control is reached by Tab with a visible focus ring."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright")

import page_browser
from page_fixtures import open_page
from page_views import VIEWS, go
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # a browser and the real service: `make test` runs them, `make test-fast` does not

WIDTHS = {"phone": page_browser.PHONE, "laptop": page_browser.LAPTOP}


@pytest.fixture(params=list(WIDTHS))
def sized(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    yield from open_page(browser, server, request, viewport=WIDTHS[request.param])


def violations(page: Any, axe_source: str) -> list[dict[str, Any]]:
    page.evaluate(axe_source)  # by the DevTools protocol: the page's CSP (scripts from its own origin) allows it
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations.map(v => ({
             id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(" "))}))""")
    return found


@pytest.mark.parametrize("view", list(VIEWS))
def test_no_serious_or_critical_violation(sized: Any, server: str, axe_source: str, view: str) -> None:
    VIEWS[view](sized, server)
    serious = [v for v in violations(sized, axe_source) if v["impact"] in ("serious", "critical")]
    assert not serious, serious


def test_spanish_view_has_no_serious_violation(spanish: Any, server: str, axe_source: str) -> None:
    go(spanish, server, "check")
    spanish.get_by_role("textbox", name="Cartas").fill("7♠ 7♥ JOKER")
    expect(spanish.get_by_role("status").first).to_contain_text("no es una combinación válida")
    serious = [v for v in violations(spanish, axe_source) if v["impact"] in ("serious", "critical")]
    assert not serious, serious


def test_tab_reaches_every_control_with_a_visible_focus(page: Any, server: str) -> None:
    go(page, server, "check")
    seen: list[str] = []
    for _ in range(13):
        page.keyboard.press("Tab")
        info = page.evaluate("""() => { const e = document.activeElement; const s = getComputedStyle(e);
            return {name: e.getAttribute('aria-label') || e.textContent.trim() || e.id, tag: e.tagName,
                    outline: s.outlineStyle, width: parseFloat(s.outlineWidth)}; }""")
        seen.append(info["name"])
        assert info["outline"] != "none" and info["width"] >= 2, info  # the focus ring shows
    # Skip link, language, the five views, the ruleset, one stop for the picker, the cards and their buttons.
    nav = ["Check", "Score sheet", "House rules", "Arrange", "Play"]
    assert seen[:7] == ["Skip to the content", "Español", *nav], seen
    assert "A♠ spades" in seen and "Remove last" in seen and "Clear" in seen, seen
    assert seen.index("A♠ spades") < seen.index("check-cards") < seen.index("Remove last"), seen


def test_axe_finds_a_planted_violation(page: Any, server: str, axe_source: str) -> None:
    """The check above can fail: a button with no name, planted in the page, is a critical violation."""
    go(page, server, "check")
    page.evaluate("() => document.getElementById('check-h').after(document.createElement('button'))")
    found = {v["id"]: v["impact"] for v in violations(page, axe_source)}
    assert found.get("button-name") == "critical", found
