"""The page's views drawn with content, as a user would draw them: for the accessibility tests (every view,
phone and laptop), ``make screenshots`` (docs/make_screenshots.py) and the browser tests' shared steps.

Each preparation opens a view of the service at ``base`` in ``page`` (a Playwright page) and leaves it with
what a person would see there mid-use: a verdict with its reasons, a match with an elimination and a re-entry
offer, house rules with an error or with their diff, an arrangement.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import page_tables
from playwright.sync_api import expect

expect.set_options(timeout=15_000)  # a loaded machine (CI, 2 cores) answers the solver's calls slowly

Prepare = Callable[[Any, str], None]

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]

TYPO = "name: casa\nextends: menos\nmelds:\n  escalera:\n    shape: run 3..13, ace lo, wilds <= 2\n"
"""A house rule, two Jokers in an escalera, with a typo on line 5 ("lo" for "low")."""
FIXED = TYPO.replace("ace lo,", "ace low,")
SLIP = "name: casa\nextends: menos\nmelds\n  escalera:\n    shape: run 3..13, ace low, wilds <= 2\n"
"""The same house rule with a YAML slip: 'melds' on line 3 without its ':' (PyYAML finds it missing on line 4)."""


def go(page: Any, base: str, view: str = "check") -> None:
    """Open the page at a view and wait until every view answers."""
    page.goto(f"{base}/#{view}")
    page.wait_for_selector("body[data-ready]")


def start(page: Any, base: str, players: list[str] = PLAYERS) -> None:
    """A new match on the score sheet, under the default ruleset."""
    go(page, base, "sheet")
    for i, name in enumerate(players):
        if i >= 4:
            page.get_by_role("button", name="Add a player").click()
        page.get_by_role("textbox", name=f"Player {i + 1}").fill(name)
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("table")).to_be_visible()


def enter_round(page: Any, points: dict[str, int | str]) -> None:
    """One round in points, "out" for who went out, once the form for it is there; returns when the sheet is
    drawn again with the service's answer."""
    save = page.get_by_role("button", name=re.compile(r"^(Add|Save) round \d+$"))
    expect(save).to_be_enabled()
    for name, value in points.items():
        if value == "out":
            page.get_by_role("checkbox", name=f"{name} went out").check()
        else:
            page.get_by_role("textbox", name=name, exact=True).fill(str(value))
    save.click()
    expect(page.locator("#sheet-form fieldset[disabled]")).to_have_count(0)


def check_view(page: Any, base: str) -> None:
    go(page, base, "check")
    page.get_by_role("textbox", name="Cards").fill("7♠ 7♥ JOKER")
    expect(page.get_by_role("status").first).to_contain_text("not a legal meld")


def sheet_setup(page: Any, base: str) -> None:
    go(page, base, "sheet")
    expect(page.get_by_role("button", name="Start the match")).to_be_visible()


def sheet_view(page: Any, base: str) -> None:
    start(page, base)
    enter_round(page, {"Ana": "out", "Beto": 34, "Carla": 57, "Dani": 20})
    enter_round(page, {"Ana": 10, "Beto": "out", "Carla": 50, "Dani": 12})
    expect(page.get_by_role("button", name="Re-enter Carla at 34")).to_be_visible()


def sheet_exported(page: Any, base: str) -> None:
    sheet_view(page, base)
    page.get_by_role("button", name="Export the match file").click()
    page.get_by_text("The match file", exact=True).click()


def sheet_cards(page: Any, base: str) -> None:
    start(page, base, ["Ana", "Beto"])
    page.get_by_role("radio", name="cards left in hand").check()


def house_errors(page: Any, base: str) -> None:
    go(page, base, "house")
    page.get_by_role("textbox", name="Ruleset YAML").fill(TYPO)
    expect(page.locator("#house-status").get_by_role("listitem")).to_have_count(1)


def house_errors_es(page: Any, base: str) -> None:
    """The house rules view of a Spanish page (locale es) with a YAML slip: its error in Spanish, at its line."""
    go(page, base, "house")
    page.get_by_role("textbox", name="YAML de las reglas").fill(SLIP)
    expect(page.locator("#house-status").get_by_role("listitem")).to_contain_text("falta el ':' esperado")


def house_diff(page: Any, base: str) -> None:
    go(page, base, "house")
    page.get_by_role("textbox", name="Ruleset YAML").fill(FIXED)
    region = page.get_by_role("region", name="What changes from menos")
    expect(region.get_by_role("button", name="Check it").first).to_be_visible()


def arrange_view(page: Any, base: str) -> None:
    go(page, base, "arrange")
    page.get_by_role("textbox", name="Hand").fill("A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠")
    page.get_by_role("button", name="Arrange", exact=True).click()
    expect(page.locator("#arrange-result")).to_contain_text("Left in hand")


def play_setup(page: Any, base: str) -> None:
    go(page, base, "play")
    for i, name in enumerate(page_tables.PLAYERS):
        page.get_by_role("textbox", name=f"Player {i + 1}").fill(name)


def play_links(page: Any, base: str) -> None:
    play_setup(page, base)
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_role("img", name="QR code of Carla's link")).to_be_visible()


def open_seat(page: Any, base: str, moves: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A seeded table (tests/page_tables.py) after ``moves`` scripted moves, opened at the seat to move (at
    Ana's once it is over): that seat's view and the table."""
    table = page_tables.new_table(base)
    public = page_tables.advance(base, table, moves)
    seat = public["to_move"] or "Ana"
    page.goto(table["seats"][seat]["url"])
    page.wait_for_selector("body[data-ready]")
    expect(page.locator(f'#play-body .seat[data-ply="{public["ply"]}"]')).to_be_visible()
    return page_tables.view(base, table, seat), table


def play_seat(page: Any, base: str) -> None:
    """Beto's turn, melds on the table, the cards of his next meld selected."""
    v, _ = open_seat(page, base, 10)
    move = page_tables.scripted(v)
    for card in move.get("cards", []):
        page.locator(f'.hand-cards button[data-card="{card}"][aria-pressed="false"]').first.click()


def play_refused(page: Any, base: str) -> None:
    """A meld the referee refuses, its reasons shown."""
    v, _ = open_seat(page, base, 3)
    page.locator(f'.hand-cards button[data-card="{v["hand"][0]}"]').first.click()
    page.locator("#play-body .moves button").first.click()
    expect(page.get_by_role("alert").get_by_role("listitem").first).to_be_visible()


def play_over(page: Any, base: str) -> None:
    """The round is over: the scores, the record to download."""
    open_seat(page, base, 34)
    expect(page.locator("table.scores")).to_be_visible()


VIEWS: dict[str, Prepare] = {"check": check_view, "sheet-setup": sheet_setup, "sheet": sheet_exported,
                             "sheet-cards": sheet_cards, "house-errors": house_errors, "house-diff": house_diff,
                             "arrange": arrange_view, "play-setup": play_setup, "play-links": play_links,
                             "play-seat": play_seat, "play-refused": play_refused, "play-over": play_over}
"""Every view, in each of its states worth a look."""
