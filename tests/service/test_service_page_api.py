"""What the card-table page needs from the service, through Starlette's TestClient: the page and its files
(served from the package, nothing from another host), the decks of shipped and house rulesets, the ruleset a
house one extends, re-entry offers, and the match file written and read (`loba match` reads what is written).

Expected values from the rules: seed 004 (two French decks and four Jokers, 108 cards; eliminated at 101,
re-entry at the highest total still in), docs/rules.md §4 (chinchon's 40-card Spanish deck; picos' wild 2s).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

pytest.importorskip("starlette")

from cli_runner import run
from sheets import ACCEPTANCE
from starlette.testclient import TestClient

from loba_service import Limits, create_app
from loba_service.pages import CSP, STATIC


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(solvers=1))) as c:
        yield c


STATIC_DIR = resources.files("loba_service").joinpath("static")


# ---------------------------------------------------------------- the page and its files


def test_page_at_root_with_its_policy(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["content-security-policy"] == CSP
    assert "default-src 'none'" in CSP and "connect-src 'self'" in CSP and "script-src 'self'" in CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert '<script type="module" src="/static/app.js">' in r.text
    again = client.get("/", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.head("/").status_code == 200


def test_every_static_file_is_served_and_no_other(client: TestClient) -> None:
    on_disk = {p.name for p in STATIC_DIR.iterdir() if p.is_file()}
    assert on_disk == set(STATIC) | {"index.html"}
    for name, media in STATIC.items():
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and r.headers["content-type"] == media, name
    for bad in ("index.htm", "..%2fapp.py", "app.py", "..%2F..%2Fpyproject.toml"):
        r = client.get(f"/static/{bad}")
        assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json"), bad


def test_the_page_loads_nothing_from_elsewhere_and_is_small() -> None:
    total = 0
    for p in STATIC_DIR.iterdir():
        text = p.read_text(encoding="utf-8")
        total += len(text.encode("utf-8"))
        # no absolute URL to another host (http://, https://, protocol-relative //host) in any file
        text = text.replace("http://www.w3.org/2000/svg", "")  # the SVG namespace: a name, never fetched
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text), p.name
        for imported in re.findall(r'from "\./([a-z]+\.js)"', text):  # every module the scripts import is served
            assert imported in STATIC, (p.name, imported)
    assert total < 200_000  # the page weight (uncompressed), every file of the page together


def test_docs_page_still_served(client: TestClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200 and "openapi.json" in r.text


# ---------------------------------------------------------------- decks, house rulesets


def test_shipped_decks_for_the_picker(client: TestClient) -> None:
    menos = client.get("/v1/rulesets/menos").json()["deck"]
    # seed 004: two 52-card decks plus 4 Jokers; ranks A..K; Jokers are the wild cards.
    assert menos["size"] == 108 and menos["copies"] == 2 and menos["jokers"] == 4 and menos["joker"] == "JOKER"
    assert menos["ranks"] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert [s["symbol"] for s in menos["suits"]] == ["♠", "♥", "♦", "♣"]
    assert menos["suits"][0]["cards"][:3] == ["A♠", "2♠", "3♠"] and menos["suits"][0]["words"] == {"es": ["picas"]}
    assert menos["wilds"] == ["JOKER"]
    chinchon = client.get("/v1/rulesets/chinchon").json()["deck"]
    # docs/rules.md §4: 40 Spanish cards, 1-7 sota caballo rey, no Jokers.
    assert chinchon["size"] == 40 and chinchon["jokers"] == 0 and chinchon["wilds"] == []
    assert [s["key"] for s in chinchon["suits"]] == ["oros", "copas", "espadas", "bastos"]
    assert sum(len(s["cards"]) for s in chinchon["suits"]) == 40
    picos = client.get("/v1/rulesets/picos").json()["deck"]
    assert set(picos["wilds"]) == {"JOKER", "2♠", "2♥", "2♦", "2♣"}  # rules.md §4: 2s wild beside Jokers


def test_validate_says_what_a_house_ruleset_extends_and_its_deck(client: TestClient) -> None:
    ok = client.post("/v1/rulesets/validate", json={"yaml": "name: casa\nextends: sin-jokers\n"}).json()
    assert ok["valid"] and ok["extends"] == "sin-jokers"
    assert ok["deck"]["jokers"] == 0 and ok["deck"]["size"] == 104  # sin-jokers: menos without its 4 Jokers
    alone = client.post("/v1/rulesets/validate", json={"yaml": "name: casa\nextends: mas\n"}).json()
    assert alone["extends"] == "mas"  # the ruleset named, not the one at the end of its chain (menos)
    bad = client.post("/v1/rulesets/validate", json={"yaml": "name: casa\nextends: menos\nmeldz: 3\n"}).json()
    assert not bad["valid"] and bad["extends"] is None and bad["deck"] is None
    assert bad["errors"][0]["location"]["line"] == 3


# ---------------------------------------------------------------- re-entry offers


def test_match_rounds_carry_the_reentry_offers(client: TestClient) -> None:
    rounds = [{"points": [{"name": "Ana", "went_out": True}, {"name": "Beto", "points": 34},
                          {"name": "Carla", "points": 57}, {"name": "Dani", "points": 20}]},
              {"points": [{"name": "Ana", "points": 10}, {"name": "Beto", "went_out": True},
                          {"name": "Carla", "points": 50}, {"name": "Dani", "points": 12}]}]
    doc = client.post("/v1/score/match", json={"rounds": rounds}).json()
    # Carla 107 >= 101; still in: Ana 10, Beto 34, Dani 32 -> back at 34.
    assert doc["rounds"][1]["offers"] == [{"name": "Carla", "score": 34}] and doc["rounds"][0]["offers"] == []


# ---------------------------------------------------------------- match files


ROUNDS: list[dict[str, Any]] = [
    {"points": [{"name": "Ana", "went_out": True}, {"name": "Beto", "points": 34}, {"name": "Carla", "points": 57},
                {"name": "Dani", "points": 20}]},
    {"points": [{"name": "Ana", "went_out": True}, {"name": "Beto", "points": 40}, {"name": "Carla", "points": 50},
                {"name": "Dani", "points": 12}], "reenter": ["Carla"]},
    {"players": [{"name": "Ana", "melds": ["4c 5c 6c", "7♠ 7♥ 7♦"], "went_out": True},
                 {"name": "Beto", "hand": "JOKER A♠ K♦ 7♣"}, {"name": "Carla", "hand": "2s"},
                 {"name": "Dani", "hand": "K♦ Q♦"}]},
]


def test_written_match_file_is_what_loba_match_scores(client: TestClient, tmp_path: Any) -> None:
    r = client.post("/v1/sheets/match/write", json={"rounds": ROUNDS, "players": ["Ana", "Beto", "Carla", "Dani"]})
    assert r.status_code == 200, r.text
    text = r.json()["sheet"]
    assert text.startswith("# loba match FILE --ruleset menos\n")
    assert "    table: 4♣ 5♣ 6♣ | 7♠ 7♥ 7♦\n" in text  # the CLI's letters written as the ruleset writes cards
    path = tmp_path / "match.txt"
    path.write_text(text, encoding="utf-8")
    cli = run("match", str(path), "--ruleset", "menos", "--json")
    assert cli.exit_code == 0, cli.stderr
    served = client.post("/v1/score/match", json={"rounds": ROUNDS, "players": ["Ana", "Beto", "Carla", "Dani"]})
    assert json.loads(cli.stdout) == served.json()
    # round 3: Beto JOKER 25 + A 15 + K 10 + 7 = 57 (seed 004's hand values) on top of 74
    assert served.json()["standings"][1]["total"] == 74 + 57


def test_read_gives_the_rounds_back(client: TestClient) -> None:
    read = client.post("/v1/sheets/match/read", json={"sheet": ACCEPTANCE})
    assert read.status_code == 200, read.text
    doc = read.json()
    assert doc["players"] == ["Ana", "Beto", "Carla", "Dani"] and doc["target"] is None
    assert [r["reenter"] for r in doc["rounds"]] == [[], ["Carla"]]
    assert doc["rounds"][0]["points"][1] == {"name": "Beto", "points": 34, "went_out": False}
    # the rounds read are the rounds /v1/score/match takes: the same match as the file
    by_rounds = client.post("/v1/score/match", json={"rounds": doc["rounds"], "players": doc["players"]}).json()
    assert by_rounds == client.post("/v1/score/match", json={"sheet": ACCEPTANCE}).json()
    players = ["Ana", "Beto", "Carla", "Dani"]
    written = client.post("/v1/sheets/match/write", json={"rounds": ROUNDS, "players": players})
    cards = client.post("/v1/sheets/match/read", json={"sheet": written.json()["sheet"]}).json()["rounds"][2]
    assert cards["players"][0] == {"name": "Ana", "melds": ["4♣ 5♣ 6♣", "7♠ 7♥ 7♦"], "hand": "", "went_out": True,
                                   "all_at_once": False}


def test_match_file_errors_are_located_words(client: TestClient) -> None:
    r = client.post("/v1/sheets/match/read", json={"sheet": "players: Ana, Beto\nround 1\n  Ana: x3\n"})
    assert r.status_code == 422
    err = r.json()["errors"][0]
    assert err["location"]["line"] == 3 and err["location"]["column"] == 8 and "x3" in err["message"]
    r = client.post("/v1/sheets/match/read", json={"sheet": "players: Ana, Beto\nreenter Ana\nround 1\n  Ana: 3\n"})
    assert r.status_code == 422 and r.json()["errors"][0]["location"]["line"] == 2
    assert "before any round" in r.json()["detail"]
    r = client.post("/v1/sheets/match/write", json={"rounds": [{"points": [{"name": "round", "points": 3},
                                                                          {"name": "Bo", "went_out": True}]}]})
    assert r.status_code == 422 and "'round' cannot be written" in r.json()["detail"]
    r = client.post("/v1/sheets/match/write", json={"rounds": [{"players": [{"name": "Ana", "hand": "ZZ"}]}]})
    assert r.status_code == 422 and r.json()["errors"][0]["location"]["file"] == "<rounds[0].players[0].hand>"


def test_openapi_documents_what_the_page_uses(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert {"/v1/sheets/match/write", "/v1/sheets/match/read"} <= set(doc["paths"])
    schemas = doc["components"]["schemas"]
    assert "offers" in schemas["MatchRoundOut"]["required"]
    assert "deck" in schemas["RulesetShow"]["properties"] and "extends" in schemas["ValidateOut"]["properties"]
