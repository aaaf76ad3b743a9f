"""House rules, as a table writes them: a ruleset with a typo shows the error at its line as it is typed;
fixed, it shows what changes from the ruleset it extends, with the hands that show it, and is used in the
checker and the score sheet, and downloaded.

The house rule: two Jokers in an escalera (research: "escaleras of four or more, at most two Jokers" is a
written Loba variant).  Under menos an escalera holds at most one Joker (docs/rules.md §1, menos.yaml's
``wilds <= 1``), so ``5♠ JOKER JOKER`` is a meld only under the house rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from page_views import FIXED, TYPO, go
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # a browser and the real service: `make test` runs them, `make test-fast` does not



def test_house_rules_error_fix_diff_and_use(page: Any, server: str, tmp_path: Path) -> None:
    go(page, server, "house")
    yaml = page.get_by_role("textbox", name="Ruleset YAML")
    yaml.fill("")
    yaml.press_sequentially(TYPO, delay=0)  # typed, as a person would
    errors = page.locator("#house-status").get_by_role("listitem")
    expect(errors).to_have_count(1)
    expect(errors.first).to_contain_text("line 5")
    expect(errors.first).to_contain_text("unexpected 'lo'")
    # The error's place is a button: it selects the bad word in the editor.
    errors.first.get_by_role("button", name="line 5, column 27").click()
    expect(yaml).to_be_focused()
    assert yaml.evaluate("e => e.value.slice(e.selectionStart, e.selectionEnd)") == "lo"

    page.keyboard.type("low")  # the typo fixed where the button put the selection
    expect(yaml).to_have_value(FIXED)
    status = page.locator("#house-status")
    expect(status).to_contain_text("Valid: casa, built on menos")
    expect(errors).to_have_count(0)

    diff = page.get_by_role("region", name="What changes from menos")
    expect(diff).to_contain_text("escalera: wilds <= 1 → wilds <= 2")
    witnesses = diff.get_by_role("list").last.get_by_role("listitem")
    expect(witnesses.first).to_contain_text("Under menos: not a meld")
    expect(witnesses.filter(has_text="JOKER JOKER").first).to_contain_text("Under casa: escalera")

    # Download: the file is the YAML as written.
    with page.expect_download() as info:
        page.get_by_role("button", name="Download casa.yaml").click()
    assert info.value.suggested_filename == "casa.yaml"
    info.value.save_as(tmp_path / "casa.yaml")
    assert (tmp_path / "casa.yaml").read_text(encoding="utf-8") == FIXED

    # Used in the checker: two Jokers in an escalera are a meld under casa, not under menos.
    page.get_by_role("button", name="Use in the checker").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check a meld")
    ruleset = page.get_by_role("combobox", name="Ruleset")
    expect(ruleset.locator("option:checked")).to_have_text("casa (house rules)")
    page.get_by_role("textbox", name="Cards").fill("5♠ JOKER JOKER")
    verdict = page.get_by_role("status").first
    expect(verdict).to_contain_text("This is a legal meld: escalera")
    ruleset.select_option("menos")
    expect(verdict).to_contain_text("not a legal meld")

    # And in the score sheet: a new match under the house rules.
    page.get_by_role("link", name="House rules").click()
    page.get_by_role("button", name="Use in the score sheet").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Score sheet")
    expect(page.get_by_role("combobox", name="Ruleset").locator("option:checked")).to_have_text("casa (house rules)")


def test_house_rules_survive_a_reload(page: Any, server: str) -> None:
    go(page, server, "house")
    page.get_by_role("textbox", name="Ruleset YAML").fill(FIXED)
    expect(page.locator("#house-status")).to_contain_text("Valid: casa")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.get_by_role("textbox", name="Ruleset YAML")).to_have_value(FIXED)
    expect(page.locator("#house-status")).to_contain_text("Valid: casa")
