"""The Play view: a live table played through the page, as people at a table would.

Three browser contexts, one per seat (Ana on a 360 px phone, Beto on a phone in Spanish, Carla on a laptop),
each opened from its seat's link, play a whole menos round to its end by tapping cards and the move buttons.
The deal is seeded (seed 16, dealer Carla) and each seat plays the scripted player of tests/page_tables.py,
34 moves with melds, lay-offs (one with a choice of melds), a discard taken and stock draws on the way.
Along the way: a meld the referee refuses (its reasons in words), a stale screen (409) said in words and
redrawn, a WebSocket dropped and reconnected.  At the end the record downloaded from the page is replayed
by `loba replay` and gives the scores every page shows.

Expected values: rules.md §1 (menos: 9 cards each, the dealer's right plays first; a meld is at least three
cards), the scores from `loba replay` of the downloaded record (the library, not the page).
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

import numpy as np
import page_browser
import zxingcpp
from cli_runner import run
from page_fixtures import open_page
from page_tables import PLAYERS, call, new_table, scripted, view
from page_views import FIXED, go
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # a browser and the real service: `make test` runs them, `make test-fast` does not

WORDS = {
    "en": {"draw": "Draw from stock", "take": "Take the discard", "meld": "Meld", "lay_off": "Lay off",
           "discard": "Discard", "deselect": "Clear the selection", "hand": "Your hand", "over": "The round is over.",
           "record": "Download the record", "illegal": "The referee does not allow that move",
           "stale": "The table moved on before your move arrived", "live": "Live",
           "one_card": "needs at least 3 cards, but has 1"},
    "es": {"draw": "Robar del mazo", "take": "Tomar el descarte", "meld": "Bajar", "lay_off": "Agregar",
           "discard": "Descartar", "deselect": "Deseleccionar", "hand": "Tu mano", "over": "Terminó la ronda.",
           "record": "Descargar el registro", "illegal": "El árbitro no permite esa jugada",
           "stale": "La mesa siguió antes de que llegara tu jugada", "live": "En vivo",
           "one_card": "necesita al menos 3 cartas, pero tiene 1"},
}
SEATS = {"Ana": (page_browser.PHONE, "en-US"), "Beto": (page_browser.PHONE, "es-AR"),
         "Carla": (page_browser.LAPTOP, "en-US")}


class Phone:
    """One seat's page, its language's words, and its WebSocket (routed through the test: it can be held
    back or dropped)."""

    def __init__(self, page: Any, lang: str) -> None:
        self.page = page
        self.words = WORDS[lang]
        self.sockets: list[Any] = []
        self.frozen = False
        page.route_web_socket(re.compile(r".*/v1/tables/[^/]+/ws$"), self.route)

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: None if self.frozen else ws.send(message))
        self.sockets.append(ws)

    @property
    def seat(self) -> Any:
        return self.page.locator("#play-body .seat")

    def at(self, ply: int) -> None:
        expect(self.seat).to_have_attribute("data-ply", str(ply))

    def button(self, what: str) -> Any:
        return self.page.get_by_role("button", name=self.words[what], exact=True)

    def hand(self) -> list[str]:
        names: list[str] = self.page.locator(".hand-cards button").evaluate_all("bs => bs.map(b => b.dataset.card)")
        return names

    def select(self, cards: list[str]) -> None:
        group = self.page.get_by_role("group", name=re.compile("^" + self.words["hand"]))
        for card in cards:
            group.get_by_role("button", name=re.compile(rf"^{re.escape(card)}(\s|$)"), pressed=False).first.click()

    def play(self, move: dict[str, Any], ply: int) -> None:
        """The move through the page: the cards tapped, then its button (and the first choice offered, which is
        the first legal move taking those cards: the scripted one)."""
        op = move["op"]
        if op == "draw":
            self.button("draw" if move["from"] == "stock" else "take").click()
        else:
            self.select(move["cards"] if op in ("meld", "lay_off") else [move["card"]])
            self.button(op).click()
            done = self.page.locator(f'#play-body .seat[data-ply="{ply + 1}"], #play-body .chooser')
            expect(done.first).to_be_visible()
            chooser = self.page.locator("#play-body .chooser")
            if chooser.count():
                chooser.get_by_role("button").first.click()


def seat_page(browser: Any, server: str, request: pytest.FixtureRequest,
              name: str) -> contextlib.AbstractContextManager[Any]:
    """A fresh browser context for one seat, watched as every page test's is (no 5xx, no script error, nothing
    from elsewhere; a screenshot if the test fails)."""
    viewport, locale = SEATS[name]
    return contextlib.contextmanager(open_page)(browser, server, request, viewport=viewport, locale=locale)


def deck_order(server: str) -> Any:
    """A card's place in menos's deck as GET /v1/rulesets/menos lists it: suit after suit, each from its lowest
    rank; the Jokers last."""
    deck = call(server, "GET", "/v1/rulesets/menos")[1]["deck"]
    place = {card: (s, r) for s, suit in enumerate(deck["suits"]) for r, card in enumerate(suit["cards"])}
    return lambda card: place.get(card, (len(deck["suits"]), 0))


def scores_shown(page: Any) -> dict[str, tuple[int, int]]:
    """The page's scores table: {player: (this round, total)}."""
    rows = page.locator("table.scores tbody tr").evaluate_all(
        "rs => rs.map(r => [...r.querySelectorAll('th, td')].map(c => c.textContent))")
    return {r[0]: (int(r[1]), int(r[2])) for r in rows}


def test_three_phones_play_a_round_to_its_end(browser: Any, server: str, request: pytest.FixtureRequest,
                                              tmp_path: Path) -> None:
    table = new_table(server)
    tid = table["table"]
    order = deck_order(server)
    with contextlib.ExitStack() as stack:
        phones: dict[str, Phone] = {}
        for name in PLAYERS:
            page = stack.enter_context(seat_page(browser, server, request, name))
            phones[name] = Phone(page, "es" if SEATS[name][1].startswith("es") else "en")
            page.goto(table["seats"][name]["url"])
            phones[name].at(0)
            token = table["seats"][name]["token"]
            assert token not in page.url and page.url.endswith(f"?table={tid}#play")  # the token left the address
            assert len(phones[name].hand()) == 9  # rules.md §1: 9 cards each
        # rules.md §1: the dealer's right (Beto, before the dealer Carla) moves first; only he is offered a draw
        expect(phones["Beto"].button("draw")).to_be_visible()
        expect(phones["Ana"].button("draw")).to_have_count(0)

        refused = stale = dropped = False
        for _ in range(80):
            public = call(server, "GET", f"/v1/tables/{tid}")[1]
            if public["over"]:
                break
            name = public["to_move"]
            v = view(server, table, name)
            ply, move = v["ply"], scripted(v)
            for other in PLAYERS:  # every page is at this ply and shows its own seat's hand, and no other
                phones[other].at(ply)
                assert sorted(phones[other].hand()) == sorted(view(server, table, other)["hand"]), other
            me = phones[name]
            assert me.hand() == sorted(v["hand"], key=order)  # sorted: suit by suit as the deck lists them
            if not refused and v["phase"] == "play":
                # one card is no meld (a meld is at least three cards): the referee's reasons, in words
                me.select([v["hand"][0]])
                me.button("meld").click()
                alert = me.page.get_by_role("alert")
                expect(alert).to_contain_text(me.words["illegal"])
                expect(alert.get_by_role("listitem").first).to_contain_text(me.words["one_card"])  # the page's language
                me.at(ply)
                me.button("deselect").click()
                refused = True
            if not stale and name == "Ana" and move["op"] == "draw" and ply > 0:
                # Ana's screen is held back while another tab of her seat draws: her tap meets a 409
                me.frozen = True
                status, _ = call(server, "POST", f"/v1/tables/{tid}/moves", {"move": move, "ply": ply},
                                 table["seats"][name]["token"])
                assert status == 200
                me.button("draw").click()
                expect(me.page.get_by_role("alert")).to_contain_text(me.words["stale"])
                me.at(ply + 1)  # redrawn as the table is now
                me.frozen = False
                stale = True
                continue
            if not dropped and name == "Carla" and ply > 10:
                phones["Beto"].sockets[-1].close()  # Beto's connection drops: the page reconnects by itself
                dropped = True
            me.play(move, ply)
        else:
            raise AssertionError("the round did not end")
        assert refused and stale and dropped
        assert len(phones["Beto"].sockets) >= 2  # reconnected
        expect(phones["Beto"].page.locator("#play-conn")).to_have_text(WORDS["es"]["live"])

        end = call(server, "GET", f"/v1/tables/{tid}")[1]
        for phone in phones.values():
            phone.at(end["ply"])
            expect(phone.page.get_by_role("status").filter(has_text=phone.words["over"]).first).to_be_visible()
            expect(phone.button("draw")).to_have_count(0)

        # the record, downloaded from Ana's page, replayed by the library
        ana = phones["Ana"].page
        with ana.expect_download() as got:
            phones["Ana"].button("record").click()
        path = tmp_path / "record.json"
        got.value.save_as(path)
        record = json.loads(path.read_text(encoding="utf-8"))
        assert "??" not in json.dumps(record)  # the game is over: the whole record, every card
        replay = run("replay", "--json", str(path))
        assert replay.exit_code == 0, replay.output
        replayed = json.loads(replay.output)
        assert replayed["valid"]
        want = {p: (replayed["rounds"][0]["scores"][p], replayed["totals"][p]) for p in PLAYERS}
        for phone in phones.values():
            assert scores_shown(phone.page) == want


def decode_qr(svg_path: str) -> str:
    """The text of a QR code drawn by the page (its SVG path of 1×1 modules), read by zxing-cpp."""
    cells = [(int(x), int(y)) for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", svg_path)]
    assert cells
    n = max(max(x, y) for x, y in cells) + 5
    image = np.full((n, n), 255, dtype=np.uint8)
    for x, y in cells:
        image[y, x] = 0
    found = zxingcpp.read_barcodes(np.kron(image, np.ones((4, 4), dtype=np.uint8)))
    assert len(found) == 1, found
    text: str = found[0].text
    return text


def test_a_new_table_shares_each_seat_by_link_and_qr_code(phone: Any, server: str) -> None:
    page = phone
    go(page, server, "play")
    for i, name in enumerate(PLAYERS):
        page.get_by_role("textbox", name=f"Player {i + 1}").fill(name)
    page.get_by_role("button", name="Start the table").click()
    heading = page.get_by_role("heading", name="Send each player their link")
    expect(heading).to_be_focused()
    links = {}
    for name in PLAYERS:
        url = page.get_by_role("textbox", name=f"{name}'s link").input_value()
        assert re.search(r"\?table=[A-Za-z0-9_-]+#token=[A-Za-z0-9_-]{32,}$", url), url
        links[name] = url
        qr = page.get_by_role("img", name=f"QR code of {name}'s link")
        assert decode_qr(qr.locator("path").get_attribute("d") or "") == url
        expect(page.get_by_role("link", name=f"Play here as {name}")).to_have_attribute("href", url)
    assert len(set(links.values())) == 3
    page.get_by_role("link", name="Play here as Beto").click()
    expect(page.get_by_text("You are Beto.")).to_be_visible()
    expect(page.locator(".hand-cards button")).to_have_count(9)  # rules.md §1
    assert "token" not in page.url
    expect(page.get_by_role("button", name="Draw from stock")).to_be_visible()  # Beto is at the dealer's right


def test_a_watcher_sees_no_hand_and_a_bad_link_is_said_in_words(page: Any, server: str) -> None:
    table = new_table(server)
    page.goto(table["watch_url"])
    expect(page.get_by_text("You are watching this table: no hand is shown.")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Beto is playing.")).to_be_visible()  # rules.md §1
    expect(page.locator(".hand-cards button")).to_have_count(0)
    expect(page.get_by_role("button", name="Draw from stock")).to_have_count(0)
    status, _ = call(server, "POST", f"/v1/tables/{table['table']}/moves",
                     {"move": {"op": "draw", "from": "stock"}, "ply": 0}, table["seats"]["Beto"]["token"])
    assert status == 200
    # live: the watcher hears of the draw, not of the card drawn
    expect(page.locator('#play-body .seat[data-ply="1"]')).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Beto drew from the stock.")).to_be_visible()
    page.goto(f"{server}/?table={table['table']}#token=not-a-seat-of-this-table")
    expect(page.get_by_role("status").filter(has_text="This link is not a seat of this table.")).to_be_visible()
    page.goto(f"{server}/?table=no-such-table#play")
    expect(page.get_by_role("status").filter(has_text="There is no such table")).to_be_visible()


def tab_to(page: Any, accept: str, presses: int = 60) -> dict[str, str]:
    """Press Tab until the focused element matches the JS predicate ``accept`` (on ``e``); what it is."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        got: dict[str, str] | None = page.evaluate(f"""() => {{ const e = document.activeElement;
            return ({accept}) ? {{text: e.textContent.trim(), card: e.dataset.card || ''}} : null; }}""")
        if got is not None:
            return got
    raise AssertionError(f"Tab never reached {accept}")


def test_a_seat_is_played_with_the_keyboard_alone(page: Any, server: str) -> None:
    table = new_table(server)
    order = deck_order(server)
    page.goto(table["seats"]["Beto"]["url"])
    expect(page.locator('#play-body .seat[data-ply="0"]')).to_be_visible()
    tab_to(page, "e.textContent.trim() === 'Draw from stock'")
    page.keyboard.press("Enter")
    expect(page.locator('#play-body .seat[data-ply="1"]')).to_be_visible()
    hand = sorted(view(server, table, "Beto")["hand"], key=order)
    assert len(hand) == 10  # rules.md §1: 9 dealt, one drawn
    # the hand is one stop: the arrow keys move between its cards, Space selects one
    first = tab_to(page, "e.dataset.card !== undefined")
    assert first["card"] == hand[0]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(page.get_by_role("button", pressed=True)).to_have_count(1)
    assert page.evaluate("() => document.activeElement.dataset.card") == hand[2]
    tab_to(page, "e.textContent.trim() === 'Discard'")
    page.keyboard.press("Enter")
    expect(page.locator('#play-body .seat[data-ply="2"]')).to_be_visible()
    record = call(server, "GET", f"/v1/tables/{table['table']}/record", token=table["host_token"])[1]
    assert record["rounds"][0]["moves"][-1] == {"player": "Beto", "op": "discard", "card": hand[2]}
    expect(page.get_by_role("status").filter(has_text="Ana is playing.")).to_be_visible()


def test_a_table_under_the_house_rules(page: Any, server: str) -> None:
    go(page, server, "house")
    page.get_by_role("textbox", name="Ruleset YAML").fill(FIXED)
    expect(page.locator("#house-status")).to_contain_text("Valid: casa")
    page.get_by_role("navigation").get_by_role("link", name="Play").click()
    page.get_by_role("combobox", name="Ruleset").select_option(label="casa (house rules)")
    for i, name in enumerate(PLAYERS):
        page.get_by_role("textbox", name=f"Player {i + 1}").fill(name)
    page.get_by_role("button", name="Start the table").click()
    url = page.get_by_role("textbox", name="Ana's link").input_value()
    tid = re.search(r"\?table=([A-Za-z0-9_-]+)#", url)
    assert tid is not None
    assert call(server, "GET", f"/v1/tables/{tid.group(1)}")[1]["ruleset"] == "casa"


def test_a_socket_that_stops_answering_is_made_again(page: Any, server: str) -> None:
    table = new_table(server)
    phone = Phone(page, "en")
    page.goto(table["seats"]["Ana"]["url"])
    conn = page.locator("#play-conn")
    expect(conn).to_have_text("Live")
    phone.frozen = True  # the server's messages stop reaching the page, as on a phone that slept
    page.evaluate("() => window.dispatchEvent(new Event('online'))")  # the page checks its socket with a ping
    expect(conn).to_have_text("Connection lost: reconnecting…", timeout=20_000)  # no pong in 10 s
    phone.frozen = False
    expect(conn).to_have_text("Live")
    assert len(phone.sockets) == 2
    # and the new socket follows the table
    status, _ = call(server, "POST", f"/v1/tables/{table['table']}/moves",
                     {"move": {"op": "draw", "from": "stock"}, "ply": 0}, table["seats"]["Beto"]["token"])
    assert status == 200
    phone.at(1)
