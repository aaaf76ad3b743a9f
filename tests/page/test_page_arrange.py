"""The best arrangement of a hand, as a player asks for it: the melds, what is left and what it counts,
whether the hand can go out now.  Expected from the rules (seed 004, docs/rules.md §1): K counts 10 in
hand; a pierna is three of a rank in different suits; a Joker may extend an escalera."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")

from page_views import go
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # a browser and the real service: `make test` runs them, `make test-fast` does not


def test_arrange_a_hand(page: Any, server: str) -> None:
    go(page, server, "arrange")
    page.get_by_role("textbox", name="Hand").fill("A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦")
    page.get_by_role("group", name="Card picker").get_by_role("button", name="K♠").click()
    expect(page.get_by_role("textbox", name="Hand")).to_have_value("A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠")
    page.get_by_role("button", name="Arrange", exact=True).click()
    result = page.locator("#arrange-result")
    expect(result).to_contain_text("pierna: 7♠ 7♥ 7♦")
    expect(result).to_contain_text("escalera: A♣ 2♣ 3♣ JOKER")
    expect(result).to_contain_text("Left in hand: K♠ (10 points)")
    expect(result).to_contain_text("You can go out now.")  # one card left, to discard (turn.going_out)
