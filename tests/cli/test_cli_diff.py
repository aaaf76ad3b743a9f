"""``loba diff`` through Typer's ``CliRunner``: exit codes, stream separation, text, JSON, statistics.

Expected values come from the rules, never from the command's output:

- issue 5 §4 and style.md ("CLI exit codes"): exit 0 when the rulesets behave the same, 1 when they
  differ, 2 on bad input; data to stdout, diagnostics to stderr, never a traceback;
- issue 5's acceptance: ``loba diff menos menos`` is empty; ``loba diff menos uruguay`` lists the Ace's
  and the 2s' values and the 2s becoming wild, with witnesses (an escalera with a 2 legal only under
  uruguay, an Ace in hand 15 against 20, a 2 in hand 2 against 25); a house ruleset that only restates
  menos diffs empty; ``--deals N --seed S`` prints the same figures twice;
- rules.md §1 (menos: wild cards are Jokers only; penalties Joker 25, Ace 15, J/Q/K 10, 2–10 face value;
  escalera 3+ cards, ace low only, at most 13 cards, at most one wild; pierna 3 or 4 cards of one rank
  in different suits, never a wild) and §4 (uruguay: "Ace 20, face cards 10; 2s are wild and cost 25 in
  hand"; Joker unchanged; everything else Menos);
- rules.md §5: suits ``♠ ♥ ♦ ♣``, ranks ``A 2 … K``.

This Typer (0.28) has its own ``CliRunner`` without ``mix_stderr``: ``result.stdout`` and
``result.stderr`` are always separate.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run
from typer.testing import Result

from loba_dsl.compare.stats import deal, play_stats
from loba_dsl.rules.loading import load

SUITS = ("♠", "♥", "♦", "♣")  # rules.md §5
ACES = {f"A{s}" for s in SUITS}
TWOS = {f"2{s}" for s in SUITS}
REPORT_KEYS = {"left", "right", "same", "areas", "witnesses", "stats"}  # issue 5 §4, the brief's JSON keys


@pytest.fixture(scope="module", autouse=True)
def _fresh_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Compile the rulesets into a cache of this test module, never a stale one in ~/.cache.

    Module-scoped (not the function-scoped ``monkeypatch``), so the module-scoped results below use it too.
    """
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LOBA_CACHE_DIR", str(tmp_path_factory.mktemp("loba-cache")))
        yield


def finding(result: Result, code: int) -> str:
    """Exit ``code`` (0 same, 1 different): the report on stdout, nothing on stderr."""
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert result.stderr == ""
    assert result.stdout.strip()
    return result.stdout


def report(*args: str, code: int) -> dict[str, Any]:
    """``loba diff ARGS --json``: exactly one JSON document on stdout."""
    data = json.loads(finding(run("diff", *args, "--json"), code))
    assert isinstance(data, dict)
    return data


def change(data: dict[str, Any], path: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [c for area in data["areas"].values() for c in area["changes"] if c["path"] == path]
    assert len(found) == 1, (path, data["areas"])
    return found[0]


def leading_int(text: str) -> int:
    """The value a detail line states first (``15 (A -> 15)`` states 15)."""
    m = re.match(r"-?\d+", text)
    assert m is not None, text
    return int(m.group())


# ---------------------------------------------------------------- a ruleset against itself


def test_menos_against_menos_is_the_same() -> None:
    # Issue 5 acceptance: "`loba diff menos menos` is empty (exit 0)".
    text = finding(run("diff", "menos", "menos"), 0)
    assert "same" in text
    assert "Witnesses" not in text
    data = report("menos", "menos", code=0)
    assert set(data) >= REPORT_KEYS
    assert data["same"] is True
    assert data["left"] == data["right"] == "menos"
    assert data["areas"] == {} and data["witnesses"] == [] and data["stats"] is None


# ---------------------------------------------------------------- menos against uruguay (rules.md §4)


@pytest.fixture(scope="module")
def uruguay_text() -> str:
    return finding(run("diff", "menos", "uruguay"), 1)


@pytest.fixture(scope="module")
def uruguay_json() -> dict[str, Any]:
    return report("menos", "uruguay", code=1)


def test_uruguay_text_names_the_ace_the_twos_and_the_wild_twos(uruguay_text: str) -> None:
    # Issue 5 acceptance: "lists the Ace and the 2's values and the 2s becoming wild".
    lines = uruguay_text.splitlines()
    # rules.md §1 Ace 15, §4 Ace 20 (in hand).
    assert any(re.search(r"\bA\b.*\b15\b.*\b20\b", line) for line in lines), uruguay_text
    # rules.md §1 a 2 costs its face value, 2; §4 "2s ... cost 25 in hand".
    assert any(re.search(r"\b2\b.*\b2\b.*\b25\b", line) for line in lines), uruguay_text
    # rules.md §4 "2s are wild" (menos: Jokers only).
    assert any(re.search(r"\b2\b.*\bwild\b", line) for line in lines), uruguay_text
    assert "Witnesses" in uruguay_text


def test_uruguay_json_areas(uruguay_json: dict[str, Any]) -> None:
    data = uruguay_json
    assert set(data) >= REPORT_KEYS
    assert data["same"] is False
    assert (data["left"], data["right"]) == ("menos", "uruguay")
    assert data["stats"] is None  # no --deals
    # rules.md §4: the wild cards and the penalty values change, "everything else Menos".
    assert set(data["areas"]) == {"wilds", "values"}


def test_uruguay_json_values(uruguay_json: dict[str, Any]) -> None:
    penalty = change(uruguay_json, "values.penalty")
    assert penalty["kind"] == "changed"
    by_cards = {frozenset(d["cards"]): (leading_int(d["left"]), leading_int(d["right"]))
                for d in penalty["details"]}
    assert by_cards[frozenset(ACES)] == (15, 20)  # rules.md §1 / §4
    assert by_cards[frozenset(TWOS)] == (2, 25)  # rules.md §1 (face value) / §4
    # Face cards stay 10 and the Joker 25 (rules.md §4): only the Aces and the 2s change value.
    assert set().union(*by_cards) == ACES | TWOS


def test_uruguay_json_wilds(uruguay_json: dict[str, Any]) -> None:
    wilds = change(uruguay_json, "wilds.cards")
    assert wilds["kind"] == "changed"
    [detail] = wilds["details"]  # only the 2s change (the Joker stays wild, rules.md §4)
    assert set(detail["cards"]) == TWOS
    assert "wild" not in detail["left"] and "wild" in detail["right"]


def test_uruguay_json_witnesses(uruguay_json: dict[str, Any]) -> None:
    # Issue 5: "`5♥ 2♣ 7♥` is an escalera only under uruguay; `A♠` costs 15 against 20; a `2♣` left in hand
    # costs 2 against 25" (examples that differ by a relabelling of suits count once, so any suits).
    ws = uruguay_json["witnesses"]
    melds = [w for w in ws if w["kind"] == "meld" and "wilds.cards" in w["changes"]]
    assert melds
    for w in melds:
        assert len(w["cards"]) == 3 and set(w["cards"]) & TWOS, w
        assert (w["left_value"], w["right_value"]) == (False, True), w
        # The checker agrees, card by card: not a meld under menos, a meld under uruguay.
        cards = " ".join(w["cards"])
        assert run("check", cards, "--ruleset", "menos").exit_code == 1
        assert run("check", cards, "--ruleset", "uruguay").exit_code == 0
    hands = {(tuple(w["hand"]), w["left_value"], w["right_value"])
             for w in ws if w["kind"] == "round" and "values.penalty" in w["changes"] and not w["melds"]}
    assert any(len(h) == 1 and h[0] in ACES and (a, b) == (15, 20) for h, a, b in hands), hands
    assert any(len(h) == 1 and h[0] in TWOS and (a, b) == (2, 25) for h, a, b in hands), hands


def test_no_witnesses() -> None:
    text = finding(run("diff", "menos", "uruguay", "--no-witnesses"), 1)
    assert "Witnesses" not in text
    data = report("menos", "uruguay", "--no-witnesses", code=1)
    assert data["same"] is False and data["witnesses"] == []
    assert set(data["areas"]) == {"wilds", "values"}  # the rules diff is still there


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("args", [("menos", "nope"), ("nope", "menos")])
def test_unknown_ruleset_is_bad_input(args: tuple[str, str]) -> None:
    for extra in ((), ("--json",)):
        result = run("diff", *args, *extra)
        assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
        # issue 10: with --json the error is JSON on stdout
        assert result.stdout == "" if not extra else "nope" in json.loads(result.stdout)["error"]["message"]
        assert "nope" in result.stderr


def test_missing_file_is_bad_input(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.yaml")
    result = run("diff", "menos", missing)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "" and result.stderr.strip()


# ---------------------------------------------------------------- a house file restating menos

# rules.md §1 said in other words: keys in another order, shape clauses reordered or left to their
# defaults (a run is ace low unless it says otherwise; 13 ranks cap an escalera at 13 cards; `wilds < 2`
# is `wilds <= 1`; `wilds <= 0` is `no wilds`), penalty lines in another order where order does not
# matter, the round formula with its terms in another order.
HOUSE = """\
name: casa
description: Loba de Menos, as our house writes it
extends: menos
match:
  reentry: {score: highest_remaining, max: 2}
  eliminate_at: 101
melds:
  escalera:
    shape: run 3+, wilds < 2
  pierna:
    shape: set 3..4, wilds <= 0, suits distinct
values:
  penalty: |
    A -> 15
    J Q K -> 10
    JOKER -> 25
    _ -> face
scoring:
  round: "0 + (not went_out ? penalty(hand) : 0)"
"""


def test_house_file_restating_menos_is_the_same(tmp_path: Path) -> None:
    # Issue 5 acceptance: "A house ruleset that only re-states menos in other words ... diffs empty".
    house = tmp_path / "casa.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    assert "same" in finding(run("diff", "menos", str(house)), 0)
    assert "same" in finding(run("diff", str(house), "menos"), 0)
    data = report("menos", str(house), code=0)
    assert data["same"] is True and data["areas"] == {} and data["witnesses"] == []


def test_house_file_that_really_differs(tmp_path: Path) -> None:
    # The same house with the Ace at 20 (rules.md §4's uruguay value) is no longer menos.
    house = tmp_path / "casa20.yaml"
    house.write_text(HOUSE.replace("A -> 15", "A -> 20"), encoding="utf-8")
    data = report("menos", str(house), code=1)
    assert set(data["areas"]) == {"values"}
    details = change(data, "values.penalty")["details"]
    assert [(set(d["cards"]), leading_int(d["left"]), leading_int(d["right"])) for d in details] == [
        (ACES, 15, 20)]


# ---------------------------------------------------------------- play statistics (issue 5 §3)


def stats_of(seed: int) -> tuple[dict[str, Any], str]:
    result = run("diff", "menos", "uruguay", "--deals", "300", "--seed", str(seed), "--json")
    out = finding(result, 1)
    stats = json.loads(out)["stats"]
    assert isinstance(stats, dict)
    return stats, out


def test_same_seed_same_figures() -> None:
    # Issue 5: "`--deals 10000 --seed 1` prints the same figures twice in a row" (here 300 deals).
    first, out1 = stats_of(1)
    second, out2 = stats_of(1)
    assert first == second
    assert out1 == out2  # the whole report: the witness search is deterministic too
    assert (first["deals"], first["seed"]) == (300, 1)
    assert first["paired"] is True  # uruguay plays menos's deck (rules.md §4): the very same hands
    names = [f["name"] for f in first["figures"]]
    # Issue 5 §3: least penalty (menos and uruguay: lower is better) and going out at once; neither has
    # an opening minimum (rules.md §1, §4).
    assert names == ["least penalty in a dealt hand", "dealt hands that can go out at once"]
    text1 = finding(run("diff", "menos", "uruguay", "--deals", "300", "--seed", "1"), 1)
    text2 = finding(run("diff", "menos", "uruguay", "--deals", "300", "--seed", "1"), 1)
    assert text1 == text2 and "Play statistics" in text1


def test_another_seed_deals_other_hands() -> None:
    # A different seed deals different hands; the figures may or may not differ, so they are not compared.
    menos, uruguay = load("menos"), load("uruguay")
    assert deal(menos, 300, 1) != deal(menos, 300, 2)
    assert deal(menos, 300, 1) == deal(menos, 300, 1)
    for seed in (1, 2):
        stats, _ = stats_of(seed)
        assert stats["seed"] == seed
        # The command's figures are those of exactly the hands dealt with its seed.
        assert stats == play_stats(menos, uruguay, deals=300, seed=seed, workers=1).to_dict()
