"""The meld checker, as a user works it: tapping cards on the picker and typing them; the verdict (role
``status``) says whether the cards are a legal meld, which kind, what each Joker stands for, or every reason
it is not.  Expected values from the rules: seed 004 (/work/shared/seeds/004, docs/rules.md §1) for menos,
docs/rules.md §4 for chinchon's Spanish deck.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")

from page_views import go
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # a browser and the real service: `make test` runs them, `make test-fast` does not


def tap(page: Any, *cards: str) -> None:
    for card in cards:
        page.get_by_role("group", name="Card picker").get_by_role("button", name=card).first.click()


def verdict(page: Any) -> Any:
    return page.get_by_role("status").filter(has_text="meld")


def test_tapping_a_legal_and_an_illegal_meld(page: Any, server: str) -> None:
    go(page, server)
    tap(page, "A♣", "2♣", "JOKER")
    expect(page.get_by_role("textbox", name="Cards")).to_have_value("A♣ 2♣ JOKER")
    status = page.get_by_role("status").first
    # seed 004: an escalera is three or more of one suit in sequence, ace low; a Joker may fill a gap.
    expect(status).to_contain_text("This is a legal meld: escalera")
    expect(status).to_contain_text("JOKER stands for 3♣")
    page.get_by_role("button", name="Clear").click()
    tap(page, "7♠", "7♥", "JOKER")
    # seed 004: "A Joker cannot appear in a pierna; piernas must be natural."
    expect(status).to_contain_text("not a legal meld")
    expect(status.get_by_role("listitem").filter(has_text="pierna")).to_contain_text("no wild cards")


def test_typing_a_legal_and_an_illegal_meld(page: Any, server: str) -> None:
    go(page, server)
    cards = page.get_by_role("textbox", name="Cards")
    status = page.get_by_role("status").first
    cards.fill("4c 5c 6c")  # the CLI's letters for suits: 4♣ 5♣ 6♣
    expect(status).to_contain_text("legal meld: escalera")
    expect(status).not_to_contain_text("not a legal meld")
    cards.fill("7♠ 7♥ 8♦")  # seed 004: a pierna is one rank; an escalera one suit
    expect(status).to_contain_text("not a legal meld")
    expect(status.get_by_role("listitem").filter(has_text="pierna")).to_have_count(1)
    expect(status.get_by_role("listitem").filter(has_text="escalera").first).to_contain_text("one suit")
    # Removing the last card by the button leaves two cards: too few for either kind.
    page.get_by_role("button", name="Remove last").click()
    expect(cards).to_have_value("7♠ 7♥")
    expect(status).to_contain_text("not a legal meld")


def test_reasons_follow_the_page_language(page: Any, server: str) -> None:
    go(page, server)
    cards = page.get_by_role("textbox", name="Cards")
    status = page.get_by_role("status").first
    cards.fill("7♠ 7♥ JOKER")  # seed 004: "A Joker cannot appear in a pierna; piernas must be natural."
    expect(status.get_by_role("listitem").filter(has_text="pierna")).to_contain_text("no wild cards")
    page.get_by_role("button", name="Español").click()
    expect(status.get_by_role("listitem").filter(has_text="pierna")).to_contain_text("no admite comodines")


def test_unreadable_cards_are_explained_in_words(page: Any, server: str) -> None:
    go(page, server)
    page.get_by_role("textbox", name="Cards").fill("7♠ XX")
    status = page.get_by_role("status").first
    expect(status).to_contain_text("cannot be read")
    expect(status).to_contain_text("unknown card 'XX'")
    assert "{" not in status.inner_text()  # the service's words, never its JSON


def test_chinchon_picker_is_the_spanish_deck(page: Any, server: str) -> None:
    go(page, server)
    page.get_by_role("combobox", name="Ruleset").select_option("chinchon")
    picker = page.get_by_role("group", name="Card picker")
    # docs/rules.md §4: the Spanish 40-card deck, oros copas espadas bastos, 1-7 sota caballo rey, no Jokers.
    expect(picker.get_by_role("button")).to_have_count(40)
    expect(picker.get_by_role("button", name="JOKER")).to_have_count(0)
    expect(picker.get_by_role("group", name="oros")).to_be_visible()
    tap(page, "1o", "2o", "3o")
    expect(page.get_by_role("status").first).to_contain_text("legal meld: escalera")


def test_keyboard_picks_cards(page: Any, server: str) -> None:
    go(page, server)
    page.get_by_role("combobox", name="Ruleset").focus()
    page.keyboard.press("Tab")  # one tab stop for the whole picker: its first card
    first = page.get_by_role("group", name="Card picker").get_by_role("button").first
    expect(first).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.get_by_role("textbox", name="Cards")).to_have_value("A♠ 2♠ 3♠")
    expect(page.get_by_role("status").first).to_contain_text("legal meld: escalera")
    page.keyboard.press("Tab")  # out of the picker, to the cards
    expect(page.get_by_role("textbox", name="Cards")).to_be_focused()
