"""One answer everywhere: the library, the ``loba`` CLI (``--json``) and the HTTP service give the same answer
to the same question, with the same defaults (the rules').

Expected values come from the rules (/work/shared/rules.md, cited per test); where a surface has its own
wording (an example in a hint), the test says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from cli_runner import run
from starlette.testclient import TestClient

import loba_dsl as loba
from loba_service import Limits, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(solvers=1))) as c:
        yield c


def cli_json(*args: str, input: str | None = None, codes: tuple[int, ...] = (0, 1)) -> Any:
    result = run(*args, input=input)
    assert result.exit_code in codes, (result.exit_code, result.stdout, result.stderr)
    return json.loads(result.stdout)


def answer(r: Any) -> Any:
    got = r.json()
    if isinstance(got, dict):
        got.pop("elapsed_ms", None)
    return got


# ---------------------------------------------------------------- check: no cards at all


@pytest.mark.parametrize("text", ["", "   ", " , - "])
def test_no_cards_is_the_same_error_on_every_surface(client: TestClient, text: str) -> None:
    # rules.md §5: separators are white space, commas and hyphens; these texts hold no card at all.
    with pytest.raises(loba.InputError) as err:
        loba.check(text)
    assert err.value.message == "no cards given"
    cli = run("check", text, "--json")
    assert cli.exit_code == 2
    assert json.loads(cli.stdout)["error"]["message"] == "no cards given"
    r = client.post("/v1/check", json={"cards": text})
    assert r.status_code == 422
    assert r.json()["errors"][0]["message"] == "no cards given"
    assert r.json()["errors"][0]["hint"] == json.loads(cli.stdout)["error"]["hint"] == err.value.hint


# ---------------------------------------------------------------- arrange: one default, the rules'


def test_arrange_without_opened_honours_the_bazas_opening_minimum(client: TestClient) -> None:
    # rules.md §4 bazas: the first lay-down must be worth at least 50; 7♠ 7♥ 7♦ is worth 21 (§1 values), so a
    # player who has not opened puts nothing down, and cannot go out.
    hand = "7♠ 7♥ 7♦ 2♣ 3♦"
    got = answer(client.post("/v1/arrange", json={"cards": hand, "ruleset": "bazas"}))
    assert got == cli_json("arrange", hand, "-r", "bazas", "--json")
    assert got["melds"] == [] and got["can_go_out"] is False
    # Opened: the pierna goes down on both surfaces.
    opened = answer(client.post("/v1/arrange", json={"cards": hand, "ruleset": "bazas", "opened": True}))
    assert opened == cli_json("arrange", hand, "-r", "bazas", "--opened", "--json")
    assert [m["kind"] for m in opened["melds"]] == ["pierna"]


def test_arrange_without_opened_honours_the_contrato_contract(client: TestClient) -> None:
    # rules.md §4 contrato: a ruleset with a contract for each round; a player who has not opened must know
    # which round is played: both surfaces refuse the hand without it, and agree once it is given.
    hand = "A♣ 2♣ 3♣ 4♣ 7♠ 7♥ 7♦ 8♠ 8♥ 8♦"
    r = client.post("/v1/arrange", json={"cards": hand, "ruleset": "contrato"})
    assert r.status_code == 422
    cli = run("arrange", hand, "-r", "contrato", "--json")
    assert cli.exit_code == 2
    assert r.json()["errors"][0]["message"] == json.loads(cli.stdout)["error"]["message"]
    # Round 1's contract is 2 piernas (the Carioca list).
    got = answer(client.post("/v1/arrange", json={"cards": hand, "ruleset": "contrato", "round": 1}))
    assert got == cli_json("arrange", hand, "-r", "contrato", "--round", "1", "--json")
    assert sorted(m["kind"] for m in got["melds"]) == ["pierna", "pierna"]


# ---------------------------------------------------------------- rulesets: one shape


WARNED = """\
name: casa
extends: menos
values:
  penalty: |
    JOKER -> 25
    A -> 15
    _ -> face
    K -> 99
"""
"""A house ruleset with a value-table line after the catch-all ``_`` (it can never match: a warning)."""


def test_validate_gives_the_same_object_with_its_warnings(client: TestClient, tmp_path: Any) -> None:
    path = tmp_path / "casa.yaml"
    path.write_text(WARNED, encoding="utf-8")
    cli = cli_json("validate", str(path), "--json")
    assert cli["valid"] is True and cli["warnings"], cli
    got = client.post("/v1/rulesets/validate", json={"yaml": WARNED, "file": "casa.yaml"}).json()
    assert got["warnings"] and [w["message"] for w in got["warnings"]] == [w["message"] for w in cli["warnings"]]
    cli["file"] = "casa.yaml"  # the CLI names the path it was given
    for w in cli["warnings"]:
        w["file"] = w["source"] = w["location"]["file"] = "casa.yaml"
    assert got == cli


def test_validate_of_a_broken_ruleset_gives_the_same_object(client: TestClient, tmp_path: Any) -> None:
    broken = "name: casa\nextends: menos\nmelds:\n  pierna:\n    shape: escalara\n"
    path = tmp_path / "casa.yaml"
    path.write_text(broken, encoding="utf-8")
    cli = cli_json("validate", str(path), "--json")
    got = client.post("/v1/rulesets/validate", json={"yaml": broken, "file": "casa.yaml"}).json()
    assert got["valid"] is cli["valid"] is False
    assert set(got) == set(cli)
    assert [(e["code"], e["message"], e["line"], e["column"], e["length"]) for e in got["errors"]] == [
        (e["code"], e["message"], e["line"], e["column"], e["length"]) for e in cli["errors"]]
    assert got["error"]["location"]["line"] == 5  # the shape line of the pierna


def test_a_ruleset_sent_without_a_name_is_never_called_house_yaml(client: TestClient) -> None:
    broken = "name: casa\nextends: menos\nmelds: [\n"
    got = client.post("/v1/rulesets/validate", json={"yaml": broken}).json()
    as_yaml = client.post("/v1/rulesets/validate", content=broken.encode(),
                          headers={"content-type": "application/yaml"}).json()
    assert got == as_yaml
    assert got["valid"] is False and "house.yaml" not in json.dumps(got)
    assert {e["location"]["file"] for e in got["errors"]} == {"<yaml>"}
    r = client.post("/v1/check", json={"cards": "A♣ 2♣ JOKER", "ruleset": {"yaml": broken}})
    assert r.status_code == 422 and "house.yaml" not in r.text


def test_rulesets_and_show_have_one_shape(client: TestClient) -> None:
    listed = client.get("/v1/rulesets").json()
    assert listed == cli_json("rulesets", "--json")
    assert listed["default"] == loba.DEFAULT_RULESET
    assert {r["name"] for r in listed["rulesets"]} == set(loba.shipped_names())
    # rules.md §3: mas-pagat deals 11 cards, from its own file on top of nothing else.
    shown = client.get("/v1/rulesets/mas-pagat").json()
    assert shown == cli_json("show", "mas-pagat", "--origin", "--json")
    assert shown["ruleset"]["deal"]["cards"] == 11
