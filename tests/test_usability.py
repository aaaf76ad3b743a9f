"""What a new user meets at the table (issue 10): each test is one item of the issue, and failed before it.

Expected values come from docs/rules.md (cited per test) or from the issue's own wording of the wanted
behaviour; none is copied from the code's output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from loba_cli.main import app


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("LOBA_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "loba-cache"))


def run(*args: str, input: str | bytes | None = None) -> Result:
    result = CliRunner().invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"loba {args!r} raised {result.exception!r}")
    assert "Traceback" not in result.output, result.output
    return result


def json_out(result: Result) -> Any:
    return json.loads(result.stdout)


# ---------------------------------------------------------------- arrange honours the requirements


def test_bazas_arrange_does_not_lay_down_below_the_opening_minimum() -> None:
    # rules.md §4 bazas: the first lay-down must reach 50 by the penalty table (§1: face value, K 10).
    # 2♣ 3♣ 4♣ (9) and 5♠ 5♥ 5♦ (15) together are worth 24: nothing may go down, all 34 stays in hand.
    r = run("arrange", "2♣ 3♣ 4♣ 5♠ 5♥ 5♦ K♠", "-r", "bazas", "--json")
    assert r.exit_code == 0, r.output
    out = json_out(r)
    assert out["melds"] == []
    assert out["left_value"] == 2 + 3 + 4 + 5 + 5 + 5 + 10
    assert out["can_go_out"] is False


def test_bazas_arrange_once_opened_lays_down_anything() -> None:
    r = run("arrange", "2♣ 3♣ 4♣ 5♠ 5♥ 5♦ K♠", "-r", "bazas", "--opened", "--json")
    out = json_out(r)
    assert sorted(m["kind"] for m in out["melds"]) == ["escalera", "pierna"]
    assert out["left"] == ["K♠"]
    assert out["can_go_out"] is True


def test_bazas_arrange_lays_down_an_opening_that_reaches_the_minimum() -> None:
    # K♠ K♥ K♦ (30) + Q♠ Q♥ Q♦ (30) = 60 >= 50 (rules.md §4 bazas, scope first_turn).
    out = json_out(run("arrange", "K♠ K♥ K♦ Q♠ Q♥ Q♦ 4♥", "-r", "bazas", "--json"))
    assert len(out["melds"]) == 2
    assert out["left"] == ["4♥"]


def test_contrato_arrange_needs_the_round() -> None:
    r = run("arrange", "A♣ 2♣ 3♣ 4♣ 7♠ 7♥ 7♦ 8♠ 8♥ 8♦", "-r", "contrato")
    assert r.exit_code == 2
    assert "--round" in r.stderr


def test_contrato_arrange_puts_down_the_rounds_contract_or_nothing() -> None:
    hand = "A♣ 2♣ 3♣ 4♣ 7♠ 7♥ 7♦ 8♠ 8♥ 8♦"
    # rules.md §4 contrato: round 1 is "2 pierna", then other melds may follow; round 3 is "2 escalera",
    # which this hand (one run of clubs) cannot make, so nothing goes down.
    one = json_out(run("arrange", hand, "-r", "contrato", "--round", "1", "--json"))
    assert sorted(m["kind"] for m in one["melds"]) == ["escalera", "pierna", "pierna"]
    assert one["can_go_out"] is True
    three = json_out(run("arrange", hand, "-r", "contrato", "--round", "3", "--json"))
    assert three["melds"] == []
    assert three["can_go_out"] is False
    opened = json_out(run("arrange", hand, "-r", "contrato", "--round", "3", "--opened", "--json"))
    assert len(opened["melds"]) == 3


def test_contrato_arrange_rejects_a_round_outside_the_list() -> None:
    r = run("arrange", "A♣ 2♣ 3♣", "-r", "contrato", "--round", "9")
    assert r.exit_code == 2
    assert "1 to 8" in r.stderr
