"""A user's input errors in the language the request asks for (``"messages": "es"``), on every endpoint the page
sends a user's input to: a typo'd card in the checker, the score sheet and the arranger, a YAML slip in the house
rules (validated, and compared in /v1/diff).  English stays the default, word for word.

Which inputs are wrong follows docs/rules.md §5 (a card is a rank and a suit; menos plays two decks, so a card has
two copies); the Spanish words are the catalogue's (loba_dsl.error_words), tested in tests/cards/test_error_words.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from loba_service import Limits, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(solvers=1))) as c:
        yield c


def problem(response: Any) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    return body


def messages(body: dict[str, Any]) -> list[str]:
    return [e["message"] for e in body["errors"]]


def where(body: dict[str, Any]) -> list[tuple[int, int]]:
    return [(e["location"]["line"], e["location"]["column"]) for e in body["errors"]]


SLIP = "name: casa\nextends: menos\nmelds\n  escalera:\n    shape: run 3..13\n"
"""A key written without its ':' on line 3: PyYAML finds the missing ':' on line 4, column 11."""


def test_a_typo_in_the_checker_in_spanish_and_in_english(client: TestClient) -> None:
    body = {"cards": "7♠ 7♥ Z♦", "ruleset": "menos"}
    english = problem(client.post("/v1/check", json=body))
    spanish = problem(client.post("/v1/check", json={**body, "messages": "es"}))
    assert messages(english) == ["unknown card 'Z♦'"]
    assert messages(spanish) == ["carta desconocida 'Z♦'"]
    assert spanish["detail"] == "carta desconocida 'Z♦'"
    assert where(spanish) == where(english) == [(1, 7)]
    assert spanish["errors"][0]["hint"].startswith("una carta es un número")


def test_every_bad_card_in_spanish_and_the_count_in_the_detail(client: TestClient) -> None:
    spanish = problem(client.post("/v1/check", json={"cards": "7♠ 1h Z♦", "messages": "es"}))
    assert messages(spanish) == ["carta desconocida '1h'", "carta desconocida 'Z♦'"]
    assert spanish["errors"][0]["hint"] == "¿quisiste decir 'A♥'?"
    assert spanish["detail"] == "2 problemas: carta desconocida '1h'"


def test_a_typo_under_a_house_ruleset_is_said_in_spanish_by_the_solver_process(client: TestClient) -> None:
    house = {"yaml": "name: casa\nextends: menos\n", "file": "casa.yaml"}
    spanish = problem(client.post("/v1/check", json={"cards": "7♠ 7♥ Z♦", "ruleset": house, "messages": "es"}))
    assert messages(spanish) == ["carta desconocida 'Z♦'"]


def test_too_many_copies_in_the_arranger_in_spanish(client: TestClient) -> None:
    # rules.md §5: menos has two copies of each card, so three 7♠ cannot be in one hand.
    body = {"cards": "7♠ 7♠ 7♠ 8♠", "ruleset": "menos", "messages": "es"}
    spanish = problem(client.post("/v1/arrange", json=body))
    assert messages(spanish) == ["7♠ aparece 3 veces, pero la baraja de 'menos' tiene 2 copias"]
    assert where(spanish) == [(1, 7)]


def test_no_cards_to_arrange_in_spanish(client: TestClient) -> None:
    spanish = problem(client.post("/v1/arrange", json={"cards": " ", "messages": "es"}))
    assert messages(spanish) == ["no hay ninguna carta"]


def test_a_typo_in_a_hand_of_the_score_sheet_in_spanish(client: TestClient) -> None:
    rounds = [{"players": [{"name": "Ana", "went_out": True}, {"name": "Beto", "hand": "K♠ Q♠ 7x"}]}]
    body = {"ruleset": "menos", "players": ["Ana", "Beto"], "rounds": rounds, "messages": "es"}
    spanish = problem(client.post("/v1/score/match", json=body))
    assert messages(spanish) == ["carta desconocida '7x'"]
    assert spanish["errors"][0]["hint"] == "'x' no es un palo; los palos son ♠ ♥ ♦ ♣"
    english = problem(client.post("/v1/score/match", json={**body, "messages": "en"}))
    assert messages(english) == ["unknown card '7x'"]


def test_a_yaml_slip_validated_in_spanish_keeps_its_line(client: TestClient) -> None:
    english = client.post("/v1/rulesets/validate", json={"yaml": SLIP, "file": "house.yaml"}).json()
    spanish = client.post("/v1/rulesets/validate", json={"yaml": SLIP, "file": "house.yaml", "messages": "es"}).json()
    assert english["valid"] is False and spanish["valid"] is False
    assert [e["message"] for e in english["errors"]] == ["could not find expected ':'"]
    assert [e["message"] for e in spanish["errors"]] == ["falta el ':' esperado"]
    assert spanish["errors"][0]["hint"] == "al leer una clave, que empezó en la línea 3"
    assert [(e["line"], e["column"]) for e in spanish["errors"]] == [(4, 11)]
    assert spanish["error"] == spanish["errors"][0]


def test_a_schema_error_validated_in_spanish(client: TestClient) -> None:
    yaml = "name: casa\nextends: menos\nmeldz: {}\n"
    spanish = client.post("/v1/rulesets/validate", json={"yaml": yaml, "messages": "es"}).json()
    assert [(e["message"], e["hint"], e["line"]) for e in spanish["errors"]] == [
        ("clave desconocida 'meldz' en el nivel superior", "¿quisiste decir 'melds'?", 3)]


def test_a_broken_house_ruleset_in_a_diff_in_spanish(client: TestClient) -> None:
    body = {"left": "menos", "right": {"yaml": SLIP, "file": "house.yaml"}, "messages": "es"}
    spanish = problem(client.post("/v1/diff", json=body))
    assert messages(spanish) == ["falta el ':' esperado"]
    assert where(spanish) == [(4, 11)]


def test_a_card_of_a_match_file_read_in_spanish(client: TestClient) -> None:
    sheet = "players: Ana, Beto\nround 1\nplayer Ana: went out\nplayer Beto\n  hand: K♠ Zz\n"
    spanish = problem(client.post("/v1/sheets/match/read", json={"sheet": sheet, "messages": "es"}))
    assert "carta desconocida 'Zz'" in messages(spanish)


def test_another_language_is_refused(client: TestClient) -> None:
    refused = problem(client.post("/v1/rulesets/validate", json={"yaml": SLIP, "messages": "fr"}))
    assert refused["errors"][0]["path"] == "$.messages"


def test_the_score_sheets_checks_of_a_round_in_spanish(client: TestClient) -> None:
    # rules.md §1 (seed 004:39): one player went out and scores 0; two cannot both go out in one round.
    points = [{"name": "Ana", "points": 0, "went_out": True}, {"name": "Beto", "points": 0, "went_out": True}]
    body = {"ruleset": "menos", "players": ["Ana", "Beto"], "rounds": [{"points": points}]}
    english = problem(client.post("/v1/score/match", json=body))
    spanish = problem(client.post("/v1/score/match", json={**body, "messages": "es"}))
    assert messages(english) == ["only one player can go out in a round, but Ana, Beto did"]
    assert messages(spanish) == ["solo un jugador puede cortar en una ronda, pero cortaron Ana, Beto"]


def test_a_re_entry_refused_in_spanish(client: TestClient) -> None:
    # rules.md §1 (seed 004): only a player eliminated (past 100) may re-enter; Beto, at 10, is still in.
    points = [{"name": "Ana", "points": 0, "went_out": True}, {"name": "Beto", "points": 10}]
    body = {"ruleset": "menos", "players": ["Ana", "Beto"], "rounds": [{"points": points, "reenter": ["Beto"]}],
            "messages": "es"}
    spanish = problem(client.post("/v1/score/match", json=body))
    assert messages(spanish) == ["después de la ronda 1: Beto no quedó afuera, así que no puede reengancharse"]


def test_a_match_file_that_does_not_read_in_spanish(client: TestClient) -> None:
    # A points line ("Beto: 34") holds a number of points or 'out', never cards (cards go on 'hand:').
    sheet = "players: Ana, Beto\nround 1\n  Ana: out\n  Beto: K♠ Zz\n"
    spanish = problem(client.post("/v1/sheets/match/read", json={"sheet": sheet, "messages": "es"}))
    assert [(e["message"], e["hint"]) for e in spanish["errors"]] == [
        ("'K' inesperado", "se esperaba un número de puntos, 'went out' o 'out'")]
    assert where(spanish) == [(4, 9)]


def test_an_illegal_meld_on_the_sheet_and_its_reasons_in_spanish(client: TestClient) -> None:
    # rules.md §1 (seed 004): a pierna takes no wild cards, and 7♠ 7♥ are of two suits, so no escalera either.
    rounds = [{"players": [{"name": "Ana", "melds": ["7♠ 7♥ JOKER"], "went_out": True},
                           {"name": "Beto", "hand": "K♠"}]}]
    body = {"ruleset": "menos", "players": ["Ana", "Beto"], "rounds": rounds, "messages": "es"}
    spanish = problem(client.post("/v1/score/match", json=body))
    assert messages(spanish) == ["la combinación '7♠ 7♥ JOKER' de Ana no es válida con menos"]
    assert spanish["errors"][0]["hint"].startswith("pierna: no admite comodines, pero JOKER haría de comodín")
