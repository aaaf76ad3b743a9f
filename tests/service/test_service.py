"""The HTTP service (issue 12) through Starlette's TestClient: every endpoint, one error body, the limits.

Expected values come from the rules (docs/rules.md, cited per test) and from the CLI: the same input gives
the same object through ``loba ... --json`` and the service (the issue's acceptance: "reuse the CLI's
cases").
"""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("msgspec")

from sheets import ACCEPTANCE, MENOS_ROUND
from starlette.testclient import TestClient
from typer.testing import CliRunner

from loba_cli.main import app as cli
from loba_dsl.errors import LobaError
from loba_service import Limits, create_app

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(solvers=1))) as c:
        yield c


def run_in_own_loop(main: Callable[[], Awaitable[None]]) -> None:
    """Run ``main`` under anyio in a thread of its own: the thread running the tests may already hold an event
    loop (Playwright's sync API keeps one for the browser tests' whole session), and anyio.run refuses to
    start a second loop in a thread that has one."""
    import anyio

    failure: list[BaseException] = []

    def body() -> None:
        try:
            anyio.run(main)
        except BaseException as exc:  # handed to the test's thread below
            failure.append(exc)

    worker = threading.Thread(target=body, name="pool-test-loop")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]


def small(**limits: int) -> TestClient:
    """A client of an app with some limits lowered (no solver needed)."""
    return TestClient(create_app(Limits(**limits)))


def cli_json(*args: str, input: str | None = None) -> Any:
    result = CliRunner().invoke(cli, list(args), input=input)
    assert result.exit_code in (0, 1), (result.exit_code, result.stdout, result.stderr)
    return json.loads(result.stdout)


def assert_problem(r: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The one error body: problem+json with type, title, status, detail and located errors."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = r.json()
    assert set(body) >= {"type", "title", "status", "detail", "errors"} and body["status"] == status
    assert body["errors"], body
    for e in body["errors"]:
        assert set(e) >= {"code", "message", "rule", "location"}
        assert set(e["location"]) == {"file", "line", "column", "length"}
    if code is not None:
        assert code in {e["code"] for e in body["errors"]}, body
    return body


# ---------------------------------------------------------------- /v1/check


@pytest.mark.parametrize("cards,ruleset", [
    ("A♣ 2♣ JOKER", "menos"),      # rules.md §1: a Joker is wild in escaleras, ace low
    ("7♠ 7♥ JOKER", "menos"),      # rules.md §1: a pierna never holds a wild card
    ("Q♣ K♣ A♣", "menos"),         # rules.md §1: ace low only, Q-K-A is illegal
    ("6♣ JOKER 4♣", "menos"),
    ("A♣ 2♣ JOKER", "mas"),
    ("2♠ 3♠ 5♠", "uruguay"),       # rules.md §4 uruguay: 2s are wild
])
def test_check_is_the_cli_object(client: TestClient, cards: str, ruleset: str) -> None:
    r = client.post("/v1/check", json={"cards": cards, "ruleset": ruleset})
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.json() == cli_json("check", cards, "--ruleset", ruleset, "--json")


def test_check_verdicts_from_the_rules(client: TestClient) -> None:
    ok = client.post("/v1/check", json={"cards": "A♣ 2♣ JOKER"}).json()  # default ruleset: menos
    assert (ok["valid"], ok["kind"], ok["reading"]) == (True, "escalera", ["A♣", "2♣", "3♣"])
    assert ok["wilds"] == [{"card": "JOKER", "stands_for": "3♣"}]
    bad = client.post("/v1/check", json={"cards": "7♠ 7♥ JOKER", "ruleset": "menos"}).json()
    assert bad["valid"] is False and any("pierna" in x and "menos.yaml" in x for x in bad["reasons"])


def test_check_explain_gives_every_kind(client: TestClient) -> None:
    """rules.md §1: A♣ 2♣ JOKER is an escalera and not a pierna (ranks differ, and a pierna takes no wild)."""
    plain = client.post("/v1/check", json={"cards": "A♣ 2♣ JOKER"}).json()
    assert "explain" not in plain
    r = client.post("/v1/check?explain=true", json={"cards": "A♣ 2♣ JOKER"}).json()
    verdicts = {v["kind"]: v for v in r["explain"]}
    assert set(verdicts) == {"pierna", "escalera"}
    assert verdicts["escalera"]["valid"] and verdicts["escalera"]["reasons"] == []
    assert not verdicts["pierna"]["valid"] and verdicts["pierna"]["reasons"]
    assert all("rulesets/menos.yaml:" in x for x in verdicts["pierna"]["reasons"])
    assert_problem(client.post("/v1/check?explain=maybe", json={"cards": "A♣ 2♣ JOKER"}), 422, "bad-query")


def test_check_reasons_in_spanish(client: TestClient) -> None:
    """rules.md §1: a menos pierna takes no wild; asked with ``messages: es`` the same reasons come in Spanish
    (the page's language), every other key the same; a language the service does not speak is a 422."""
    english = client.post("/v1/check", json={"cards": "7♠ 7♥ JOKER"}).json()
    spanish = client.post("/v1/check", json={"cards": "7♠ 7♥ JOKER", "messages": "es"}).json()
    assert {k: v for k, v in english.items() if k != "reasons"} == {k: v for k, v in spanish.items() if k != "reasons"}
    pierna = next(x for x in spanish["reasons"] if x.startswith("pierna: "))
    assert "no admite comodines, pero JOKER haría de comodín" in pierna and "menos.yaml:" in pierna
    every = client.post("/v1/check?explain=true", json={"cards": "7♠ 7♥ JOKER", "messages": "es"}).json()
    assert any("no admite comodines" in x for v in every["explain"] for x in v["reasons"])
    house = {"yaml": "name: casa\nextends: menos\n"}  # a house ruleset is checked in a solver process
    sent = client.post("/v1/check", json={"cards": "7♠ 7♥ JOKER", "ruleset": house, "messages": "es"}).json()
    assert any("no admite comodines" in x for x in sent["reasons"])
    assert_problem(client.post("/v1/check", json={"cards": "7♠ 7♥ JOKER", "messages": "fr"}), 422)


def test_check_bad_cards_are_located(client: TestClient) -> None:
    body = assert_problem(client.post("/v1/check", json={"cards": "A♣ loba 3♣"}), 422, "input")
    loc = body["errors"][0]["location"]
    assert (loc["file"], loc["line"], loc["column"], loc["length"]) == ("<cards>", 1, 4, 4)
    assert_problem(client.post("/v1/check", json={"cards": "   "}), 422)  # no cards, as `loba check ""` (exit 2)
    # rules.md §1: two decks, so a third A♣ is more copies than the deck holds
    assert_problem(client.post("/v1/check", json={"cards": "A♣ A♣ A♣"}), 422)


def test_check_bad_bodies(client: TestClient) -> None:
    body = assert_problem(client.post("/v1/check", content=b'{"cards": "A\xe2', headers={"content-type": JSON}), 422)
    assert body["errors"][0]["location"]["file"] == "<body>"
    body = assert_problem(client.post("/v1/check", content=b'{"cards": 3}', headers={"content-type": JSON}), 422,
                          "invalid")
    assert body["errors"][0]["path"] == "$.cards"
    body = assert_problem(client.post("/v1/check", content=b'{\n  "cards": "A", x}', headers={"content-type": JSON}),
                          422, "malformed")
    assert body["errors"][0]["location"]["line"] == 2
    assert_problem(client.post("/v1/check", json={"cards": "A♣", "rulset": "menos"}), 422, "invalid")  # typo'd key
    assert_problem(client.post("/v1/check", json={"cards": "A♣ 2♣ JOKER", "ruleset": "menoss"}), 422)
    assert_problem(client.post("/v1/check", json=[1, 2]), 422)


JSON = "application/json"


def test_body_limit_is_413(client: TestClient) -> None:
    c = small(max_body=200)
    big = json.dumps({"cards": "A♣ " * 100}).encode()
    assert len(big) > 200
    assert_problem(c.post("/v1/check", content=big, headers={"content-type": JSON}), 413, "limit")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is counted as the body streams in
        yield big[:150]
        yield big[150:]

    assert_problem(c.post("/v1/check", content=chunks(), headers={"content-type": JSON}), 413, "limit")
    assert c.post("/v1/check", json={"cards": "A♣ 2♣ JOKER"}).status_code == 200


def test_cards_limit(client: TestClient) -> None:
    c = small(max_cards=5)
    assert c.post("/v1/check", json={"cards": "A♣ 2♣ 3♣ 4♣ 5♣"}).status_code == 200
    assert_problem(c.post("/v1/check", json={"cards": "A♣ 2♣ 3♣ 4♣ 5♣ 6♣"}), 422, "limit")


def test_house_ruleset_is_compiled_in_a_solver_process(client: TestClient) -> None:
    """Appendix A of rules.md: a house ruleset extends a shipped one; here Q-K-A becomes legal.  Its cost is the
    client's choice, so the server compiles none of it: the solver processes do (and their errors come back)."""
    house = {"yaml": "name: casa\nextends: menos\nmelds:\n  escalera:\n    shape: run 3..13, ace either, wilds <= 1\n"}
    for _ in range(3):
        r = client.post("/v1/check", json={"cards": "Q♣ K♣ A♣", "ruleset": house})
        assert r.status_code == 200 and r.json()["valid"] and r.json()["ruleset"] == "casa", r.text
    broken = {"yaml": "name: casa\nextends: menos\nmelds:\n  pierna:\n    shape: escalara\n"}
    for _ in range(2):
        body = assert_problem(client.post("/v1/check", json={"cards": "A♣", "ruleset": broken}), 422, "dsl")
        # No `file` was sent: the errors name the text <yaml>, never a file the client did not send.
        assert body["errors"][0]["location"] == {"file": "<yaml>", "line": 5, "column": 12, "length": 8}
    secret = {"yaml": "name: casa\nextends: /etc/passwd\n"}
    assert_problem(client.post("/v1/check", json={"cards": "A♣", "ruleset": secret}), 422)  # extends shipped only
    assert client.app.state.service.rulesets.compiled == 0  # type: ignore[attr-defined]


def test_house_ruleset_compiled_once() -> None:
    from loba_service.rulesets import RulesetCache

    cache = RulesetCache(8)
    text = "name: casa\nextends: menos\n"
    assert cache.house("house.yaml", text) is cache.house("house.yaml", text)
    assert cache.compiled == 1
    broken = "name: casa\nextends: menos\nmelds:\n  pierna:\n    shape: escalara\n"
    for _ in range(2):
        with pytest.raises(LobaError):
            cache.house("house.yaml", broken)
    assert cache.compiled == 2  # the broken one is not compiled again


def test_house_ruleset_cache_is_bounded() -> None:
    from loba_service.rulesets import RulesetCache

    cache = RulesetCache(2)
    for n in range(4):
        cache.house("house.yaml", f"name: casa{n}\nextends: menos\n")
    assert len(cache) == 2


# ---------------------------------------------------------------- /v1/check/batch


def test_batch_json(client: TestClient) -> None:
    r = client.post("/v1/check/batch", json={"inputs": {"a": "A♣ 2♣ JOKER", "b": "7♠ 7♥ JOKER", "c": "x"},
                                             "ruleset": "menos"})
    assert r.status_code == 200
    res = r.json()["results"]
    assert res["a"] == cli_json("check", "A♣ 2♣ JOKER", "--json") and res["a"]["valid"]
    assert res["b"]["valid"] is False
    assert res["c"]["valid"] is None and res["c"]["errors"][0]["location"]["column"] == 1


def test_batch_ndjson_is_the_cli_lines(client: TestClient) -> None:
    """`loba check --file --json` prints one object per line; the NDJSON batch answers the same objects."""
    text = "A♠ K♠ Q♠\nA♠ 2♥ 2♦\n"
    want = [json.loads(x) for x in CliRunner().invoke(cli, ["check", "-", "-r", "mas-pagat", "--json"],
                                                      input=text).stdout.splitlines()]
    body = "\n".join(json.dumps(x) for x in text.splitlines()).encode()
    r = client.post("/v1/check/batch?ruleset=mas-pagat", content=body, headers={"content-type": "application/x-ndjson"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    got = [json.loads(x) for x in r.text.splitlines()]
    assert [g.pop("id") for g in got] == ["1", "2"]
    assert got == want
    ids = client.post("/v1/check/batch", content=b'{"id": "q", "cards": "A\\u2663 2\\u2663 JOKER"}\n',
                      headers={"content-type": "application/x-ndjson"})
    assert json.loads(ids.text)["id"] == "q"
    bad = client.post("/v1/check/batch", content=b'"A\xe2\x99\xa3 2\xe2\x99\xa3 3\xe2\x99\xa3"\n{oops\n',
                      headers={"content-type": "application/x-ndjson"})
    assert assert_problem(bad, 422)["errors"][0]["location"]["line"] == 2


def test_batch_limit() -> None:
    c = small(max_batch=3)
    assert c.post("/v1/check/batch", json={"inputs": {str(i): "A♣ 2♣ 3♣" for i in range(3)}}).status_code == 200
    assert_problem(c.post("/v1/check/batch", json={"inputs": {str(i): "A♣ 2♣ 3♣" for i in range(4)}}), 422, "limit")
    lines = b"\n".join(b'"A\xe2\x99\xa3 2\xe2\x99\xa3 3\xe2\x99\xa3"' for _ in range(4))
    assert_problem(c.post("/v1/check/batch", content=lines, headers={"content-type": "application/x-ndjson"}),
                   422, "limit")


def test_batch_of_1000_melds(client: TestClient) -> None:
    melds = ["A♣ 2♣ JOKER", "7♠ 7♥ 7♦", "7♠ 7♥ JOKER", "4♣ 5♣ 6♣ 7♣", "Q♣ K♣ A♣"]
    inputs = {str(i): melds[i % 5] + " " * (i // 5) for i in range(1000)}  # 1000 distinct texts
    r = client.post("/v1/check/batch", json={"inputs": inputs})
    assert r.status_code == 200
    res = r.json()["results"]
    assert len(res) == 1000 and sum(1 for v in res.values() if v["valid"]) == 600  # rules.md §1: 3 of 5 legal


# ---------------------------------------------------------------- /v1/score


def test_score_round_sheet_is_the_cli_object(client: TestClient, tmp_path: Any) -> None:
    """Seed 004 (tests/scoring/test_scoring.py): Ana went out 0; Beto 57, Carla 30, Dani 36 (rules.md §1 penalties)."""
    path = tmp_path / "round.txt"
    path.write_text(MENOS_ROUND, encoding="utf-8")
    r = client.post("/v1/score/round", json={"sheet": MENOS_ROUND})
    assert r.status_code == 200
    assert r.json() == cli_json("score", str(path), "--json")
    assert {p["name"]: p["score"] for p in r.json()["players"]} == {"Ana": 0, "Beto": 57, "Carla": 30, "Dani": 36}


def test_score_round_players(client: TestClient) -> None:
    players: list[dict[str, Any]] = [{"name": "Ana", "melds": ["4♣ 5♣ 6♣", "7♠ 7♥ 7♦"], "went_out": True},
               {"name": "Beto", "hand": "JOKER A♠ K♦ 7♣"},
               {"name": "Carla", "melds": ["9♦ 10♦ J♦"], "hand": "Q♥ J♣ 10♦"},
               {"name": "Dani", "hand": "A♠ K♦ 2♣ 9♥"}]
    r = client.post("/v1/score/round", json={"players": players})
    assert {p["name"]: p["score"] for p in r.json()["players"]} == {"Ana": 0, "Beto": 57, "Carla": 30, "Dani": 36}
    players[1]["hand"] = "JOKER A♠ Z♦"
    body = assert_problem(client.post("/v1/score/round", json={"players": players}), 422, "input")
    assert body["errors"][0]["location"]["file"] == "<players[1].hand>"
    assert_problem(client.post("/v1/score/round", json={}), 422)  # neither sheet nor players
    bad_meld = [{"name": "Ana", "melds": ["7♠ 7♥ JOKER"], "went_out": True}, {"name": "Beto", "hand": "K♠"}]
    assert_problem(client.post("/v1/score/round", json={"players": bad_meld}), 422)  # rules.md §1: no wild pierna


def test_score_match_sheet_is_the_cli_object(client: TestClient, tmp_path: Any) -> None:
    """rules.md §1: Carla reaches 107 >= 101 in round 2, is eliminated and re-enters at the highest total, 74."""
    path = tmp_path / "match.txt"
    path.write_text(ACCEPTANCE, encoding="utf-8")
    r = client.post("/v1/score/match", json={"sheet": ACCEPTANCE})
    assert r.status_code == 200
    assert r.json() == cli_json("match", str(path), "--json")
    second = r.json()["rounds"][1]
    assert second["eliminated"] == ["Carla"] and second["reentries"][0]["score"] == 74


def test_score_match_rounds(client: TestClient) -> None:
    rounds: list[dict[str, Any]] = [{"points": [{"name": "Ana", "went_out": True}, {"name": "Beto", "points": 34},
                          {"name": "Carla", "points": 57}, {"name": "Dani", "points": 20}]},
              {"points": [{"name": "Ana", "went_out": True}, {"name": "Beto", "points": 40},
                          {"name": "Carla", "points": 50}, {"name": "Dani", "points": 12}], "reenter": ["Carla"]}]
    r = client.post("/v1/score/match", json={"rounds": rounds})
    assert r.status_code == 200, r.text
    assert r.json()["rounds"][1]["totals"] == {"Ana": 0, "Beto": 74, "Carla": 107, "Dani": 32}
    assert r.json()["rounds"][1]["reentries"][0]["score"] == 74
    rounds[0]["reenter"] = ["Ana"]  # nobody was eliminated in round 1
    assert_problem(client.post("/v1/score/match", json={"rounds": rounds}), 422)


# ---------------------------------------------------------------- /v1/arrange


HAND = "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠"


def test_arrange_is_the_cli_object(client: TestClient) -> None:
    """rules.md §1: A♣ 2♣ 3♣ + JOKER is an escalera (one wild), 7♠ 7♥ 7♦ a pierna; K♠ is left: 10."""
    r = client.post("/v1/arrange", json={"cards": HAND})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got.pop("elapsed_ms") >= 0
    assert got == cli_json("arrange", HAND, "--json")
    assert got["left"] == ["K♠"] and got["score"] == 10
    d = client.post("/v1/arrange", json={"cards": HAND, "discard": True}).json()
    d.pop("elapsed_ms")
    assert d == cli_json("arrange", HAND, "--discard", "--json")
    assert d["discard"] == "K♠" and d["left"] == [] and d["score"] == 0 and d["can_go_out"]


def test_a_small_hand_not_solved_on_the_event_loop_in_time_is_solved_in_a_thread(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A small hand is first solved on the event loop within app.INLINE_SOLVE; one whose search stops there is
    solved again in a worker thread with the request's whole budget: the same answer (rules.md §1, as above)."""
    from loba_service import app as service_app

    monkeypatch.setattr(service_app, "INLINE_SOLVE", 1e-9)  # every search stops on the loop at its first look
    for body, args in (({"cards": HAND}, ()), ({"cards": HAND, "discard": True}, ("--discard",))):
        r = client.post("/v1/arrange", json=body)
        assert r.status_code == 200, r.text
        got = r.json()
        got.pop("elapsed_ms")
        assert got == cli_json("arrange", HAND, *args, "--json")
    monkeypatch.undo()  # on the loop again, after searches stopped there: the answer is unchanged
    got = client.post("/v1/arrange", json={"cards": HAND}).json()
    assert got["left"] == ["K♠"] and got["score"] == 10
    # a budget under INLINE_SOLVE is the request's own: past it, the budget's 422, not a second try
    monkeypatch.setattr(service_app, "INLINE_SOLVE", 10.0)
    hard = "JOKER JOKER JOKER JOKER 2♠ 2♥ 2♦ 2♣ 3♠ 4♠ 5♠"
    assert_problem(client.post("/v1/arrange", json={"cards": hard, "ruleset": "mas-pagat", "budget_ms": 1}), 422,
                   "budget-exceeded")


def test_arrange_as_the_player_stands_is_the_cli_object(client: TestClient) -> None:
    """docs/rules.md §4: before opening, only a lay-down meeting the requirement goes down (as `loba arrange`)."""
    def post(body: dict[str, object]) -> dict[str, object]:
        r = client.post("/v1/arrange", json=body)
        assert r.status_code == 200, r.text
        got: dict[str, object] = r.json()
        got.pop("elapsed_ms")
        return got

    # bazas, minimum 50: 7♠ 7♥ 7♦ is worth 21, so nothing goes down before opening ...
    low = "7♠ 7♥ 7♦ 2♣ 3♦"
    got = post({"cards": low, "ruleset": "bazas", "opened": False})
    assert got == cli_json("arrange", low, "-r", "bazas", "--json")
    assert got["melds"] == [] and got["can_go_out"] is False
    # ... and the pierna goes down once the player has opened.
    assert post({"cards": low, "ruleset": "bazas", "opened": True}) == cli_json(
        "arrange", low, "-r", "bazas", "--opened", "--json")
    # Without `opened`: the rules' default, the CLI's (not opened yet), so still nothing goes down.
    assert post({"cards": low, "ruleset": "bazas"}) == cli_json("arrange", low, "-r", "bazas", "--json")
    assert post({"cards": low, "ruleset": "bazas"})["melds"] == []
    # contrato round 1 is "2 pierna", put down alone in its turn (other_melds_same_turn: false).
    hand = "A♣ 2♣ 3♣ 4♣ 7♠ 7♥ 7♦ 8♠ 8♥ 8♦"
    got = post({"cards": hand, "ruleset": "contrato", "round": 1})
    assert got == cli_json("arrange", hand, "-r", "contrato", "--round", "1", "--json")
    assert sorted(m["kind"] for m in got["melds"]) == ["pierna", "pierna"]  # type: ignore[attr-defined]
    # Contracts and not opened: the round must be named (left out, `opened` is false, as on the command line);
    # a round outside the list is refused.
    assert_problem(client.post("/v1/arrange", json={"cards": hand, "ruleset": "contrato", "opened": False}), 422)
    assert_problem(client.post("/v1/arrange", json={"cards": hand, "ruleset": "contrato"}), 422)
    assert CliRunner().invoke(cli, ["arrange", hand, "-r", "contrato", "--json"]).exit_code == 2
    assert post({"cards": hand, "ruleset": "contrato", "opened": True}) == cli_json(
        "arrange", hand, "-r", "contrato", "--opened", "--json")
    assert_problem(client.post("/v1/arrange", json={"cards": hand, "ruleset": "contrato", "round": 9}), 422)


def test_arrange_opening_and_contract(client: TestClient) -> None:
    """rules.md §4 bazas: a first lay-down worth 50 or more (penalty values): 7♠7♥7♦ (21) + K♠Q♠J♠ (30) = 51."""
    r = client.post("/v1/arrange", json={"cards": "7♠ 7♥ 7♦ K♠ Q♠ J♠ 2♣", "ruleset": "bazas", "opening": True})
    assert r.status_code == 200, r.text
    assert r.json()["opening"]["possible"]
    r = client.post("/v1/arrange", json={"cards": "7♠ 7♥ 7♦ 2♣ 3♦", "ruleset": "bazas", "opening": True})
    assert r.json()["opening"] == {"possible": False, "arrangement": None}
    assert_problem(client.post("/v1/arrange", json={"cards": HAND, "opening": True}), 422)  # menos: no minimum
    assert_problem(client.post("/v1/arrange", json={"cards": HAND, "contract": 1}), 422)  # menos: no contracts


def test_arrange_limits_and_budget(client: TestClient) -> None:
    assert_problem(small(max_hand=5).post("/v1/arrange", json={"cards": HAND}), 422, "limit")
    assert_problem(client.post("/v1/arrange", json={"cards": "A♣ Z♣"}), 422, "input")
    assert_problem(client.post("/v1/arrange", json={"cards": HAND, "players": 9}), 422)  # menos: 2-5 players
    assert_problem(client.post("/v1/arrange", json={"cards": HAND, "budget_ms": 0}), 422)
    hard = "JOKER JOKER JOKER JOKER 2♠ 2♥ 2♦ 2♣ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ 3♦ 4♦"
    r = client.post("/v1/arrange", json={"cards": hard, "ruleset": "uruguay", "budget_ms": 1})
    body = assert_problem(r, 422, "budget-exceeded")
    assert "1 ms" in body["detail"]
    # the solver was replaced: the next call is answered
    assert client.post("/v1/arrange", json={"cards": HAND}).status_code == 200


def test_pool_stops_a_job_past_its_budget() -> None:
    from loba_service.pool import BudgetExceeded, SolverPool

    pool = SolverPool(1)

    async def run() -> None:
        assert await pool.run("ping", (0.0,), 5.0) == "pong"
        with pytest.raises(BudgetExceeded):
            await pool.run("ping", (30.0,), 0.3)
        assert pool.killed == 1
        assert await pool.run("ping", (0.0,), 30.0) == "pong"

    try:
        run_in_own_loop(run)
    finally:
        pool.close()
    assert pool.alive() == 0


# ---------------------------------------------------------------- /v1/diff


def test_diff_is_the_cli_object(client: TestClient) -> None:
    """rules.md §4 uruguay: 2s become wild and the values change (A 20, 2 25)."""
    r = client.post("/v1/diff", json={"left": "menos", "right": "uruguay"})
    assert r.status_code == 200, r.text
    got = r.json()
    got.pop("elapsed_ms")
    assert got == cli_json("diff", "menos", "uruguay", "--json")
    assert not got["same"] and {"wilds", "values"} <= set(got["areas"])
    same = client.post("/v1/diff", json={"left": "menos", "right": "menos"}).json()
    assert same["same"] is True


def test_diff_deals_are_bounded(client: TestClient) -> None:
    r = client.post("/v1/diff", json={"left": "menos", "right": "uruguay", "deals": 10, "witnesses": False})
    assert r.status_code == 200 and r.json()["stats"] is not None
    assert_problem(client.post("/v1/diff", json={"left": "menos", "right": "uruguay", "deals": 10 ** 6}), 422)
    assert_problem(small(max_deals=5).post("/v1/diff", json={"left": "menos", "right": "uruguay", "deals": 6}),
                   422, "limit")
    assert_problem(client.post("/v1/diff", json={"left": "menos", "right": {"yaml": "name: x\nextends: nope\n"}}), 422)


# ---------------------------------------------------------------- rulesets, health, documents


def test_rulesets(client: TestClient) -> None:
    r = client.get("/v1/rulesets").json()
    assert r["default"] == "menos"
    assert r == cli_json("rulesets", "--json")  # one shape on both surfaces
    assert [x["name"] for x in r["rulesets"] if x["default"]] == ["menos"]
    show = client.get("/v1/rulesets/menos").json()
    assert show == cli_json("show", "menos", "--origin", "--json")
    assert show["ruleset"]["match"]["eliminate_at"] == 101  # rules.md §1
    assert show["origins"]["match.eliminate_at"].startswith("rulesets/menos.yaml:")
    assert show["files"] == ["menos.yaml"]
    assert client.get("/v1/rulesets/uruguay").json()["files"] == ["uruguay.yaml", "menos.yaml"]
    assert_problem(client.get("/v1/rulesets/nope"), 404, "not-found")
    assert_problem(client.get("/v1/rulesets/..%2F..%2Fetc%2Fpasswd"), 404)


BROKEN = "name: casa\nextends: menos\nmelds:\n  pierna:\n    shape: escalara\n"


def test_validate(client: TestClient, tmp_path: Any) -> None:
    ok = client.post("/v1/rulesets/validate", json={"yaml": "name: casa\nextends: menos\n"}).json()
    assert ok["valid"] and ok["name"] == "casa" and ok["kinds"] == ["pierna", "escalera"]
    as_yaml = client.post("/v1/rulesets/validate", content=BROKEN.encode(),
                          headers={"content-type": "application/yaml"})
    as_json = client.post("/v1/rulesets/validate", json={"yaml": BROKEN})
    assert as_yaml.status_code == as_json.status_code == 200
    assert as_yaml.json() == as_json.json()
    path = tmp_path / "house.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    want = cli_json("validate", str(path), "--json")
    got = as_json.json()
    assert got["valid"] is False
    assert [(e["message"], e["line"], e["column"], e["length"]) for e in want["errors"]] == \
        [(e["message"], e["location"]["line"], e["location"]["column"], e["location"]["length"]) for e in got["errors"]]


@pytest.mark.parametrize("text", [
    "name: casa\nextends: menos\nmelds: [\n",                    # YAML syntax
    "name: casa\nextends: menos\nplayers:\n  min: many\n",        # schema
    "name: casa\nextends: menos\nmelds:\n  pierna:\n    shape: set 3..4, suits distinct, no wildz\n",  # DSL
    "name: casa\nextends: house2.yaml\n",                          # extends: shipped only
    "name: casa\nextends: menos\nmelds:\n  pierna:\n    shape: escalara\n  escalera:\n    shape: runn\n",
])
def test_validate_every_problem_is_located(client: TestClient, text: str) -> None:
    r = client.post("/v1/rulesets/validate", content=text.encode(), headers={"content-type": "application/yaml"})
    assert r.status_code == 200
    doc = r.json()
    assert doc["valid"] is False and doc["errors"]
    for e in doc["errors"]:
        loc = e["location"]
        assert all(isinstance(loc[k], int) and loc[k] >= 1 for k in ("line", "column", "length")), e


def test_validate_limits(client: TestClient) -> None:
    c = small(max_yaml=50)
    assert_problem(c.post("/v1/rulesets/validate", content=b"x" * 60, headers={"content-type": "application/yaml"}),
                   422, "limit")
    assert_problem(client.post("/v1/rulesets/validate", content=b"\xff\xfe", headers={"content-type": "text/yaml"}),
                   422)


def test_health_openapi_docs(client: TestClient) -> None:
    h = client.get("/healthz").json()
    assert h["status"] == "ok"
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    schemas = doc["components"]["schemas"]
    for path, item in doc["paths"].items():
        for method, op in item.items():
            body = op.get("requestBody")
            if method == "post":
                assert body is not None, path
                ref = body["content"]["application/json"]["schema"]["$ref"]
                assert ref.split("/")[-1] in schemas, path
            assert "500" in op["responses"] and {"200", "201"} & set(op["responses"]), path  # 201: a created table
            for code, resp in op["responses"].items():
                if code not in ("200", "201"):
                    assert "application/problem+json" in resp["content"], (path, code)
    assert "max_body" in doc["info"]["description"] and "max_batch" in doc["info"]["description"]
    page = client.get("/docs")
    assert page.status_code == 200 and "openapi.json" in page.text
    assert "<script src" not in page.text and "https://" not in page.text  # no CDN


def test_unknown_path_and_method_are_problems(client: TestClient) -> None:
    assert_problem(client.get("/v2/nothing"), 404)
    assert_problem(client.get("/v1/check"), 405)


def test_no_bug_was_hit(client: TestClient) -> None:
    svc = client.app.state.service  # type: ignore[attr-defined]
    assert svc.bugs == 0


def test_pool_busy_past_the_queue_wait() -> None:
    """Every solver busy for longer than the queue wait: Busy (the endpoints answer 503 with Retry-After)."""
    import anyio

    from loba_service.pool import Busy, SolverPool

    pool = SolverPool(1, queue_wait=0.2)

    async def run() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(pool.run, "ping", (1.5,), 10.0)
            await anyio.sleep(0.3)
            with pytest.raises(Busy):
                await pool.run("ping", (0.0,), 5.0)

    try:
        run_in_own_loop(run)
    finally:
        pool.close()
