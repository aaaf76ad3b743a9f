"""``loba simulate`` and ``loba diff --matches`` on the command line: figures, JSON, bad input in words."""

from __future__ import annotations

import json
import sys

import pytest
from cli_runner import run


def test_simulate_prints_the_figures_with_their_intervals() -> None:
    r = run("simulate", "--rounds", "-n", "2", "--bots", "greedy,greedy", "--workers", "1")
    assert r.exit_code == 0, r.output
    assert "menos: 2 rounds, bots greedy,greedy" in r.output
    assert "turns per round" in r.output and "mean round score" in r.output and "[" in r.output


def test_simulate_json_is_the_same_for_one_and_two_workers() -> None:
    args = ("simulate", "--rounds", "-n", "3", "--bots", "greedy,greedy", "--seed", "4", "--json")
    one = run(*args, "--workers", "1")
    two = run(*args, "--workers", "2")
    assert one.exit_code == 0 and one.stdout == two.stdout
    report = json.loads(one.stdout)
    assert report["mode"] == "rounds" and report["games"] == 3 and report["seed"] == 4


def test_simulate_vs_reports_the_differences() -> None:
    r = run("simulate", "--rounds", "-n", "2", "--bots", "greedy,greedy", "--workers", "1", "--vs", "sin-jokers",
            "--json")
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["rulesets"] == ["menos", "sin-jokers"]
    turns = next(f for f in report["figures"] if f["key"] == "turns_per_round")
    assert len(turns["rulesets"]) == 2 and "difference" in turns


@pytest.mark.parametrize(("args", "words"), [
    (("--bots", "greedy,wizard"), "no bot is called 'wizard'"),
    (("--executor", "ray"), "no executor is called 'ray'"),
    (("--executor", "dask"), "needs the scheduler's address"),
    (("--address", "tcp://127.0.0.1:8786"), "give it with --executor dask"),
    (("--bots", "greedy,greedy,greedy,greedy,greedy,greedy"), "played by 2 to 5 players"),
    (("--ruleset", "no-such-ruleset"), "no-such-ruleset"),
])
def test_simulate_bad_input_is_exit_2_in_words(args: tuple[str, ...], words: str) -> None:
    r = run("simulate", "-n", "1", "--workers", "1", *args)
    assert r.exit_code == 2
    assert words in r.output


def test_simulate_on_dask_without_distributed_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the optional extra were not installed
    r = run("simulate", "-n", "1", "--executor", "dask", "--address", "tcp://127.0.0.1:1")
    assert r.exit_code == 2
    assert "needs the 'distributed' package" in r.output and "loba-dsl[cluster]" in r.output


def test_no_progress_bar_when_not_on_a_terminal() -> None:
    r = run("simulate", "--rounds", "-n", "1", "--bots", "greedy,greedy", "--workers", "1", "--json")
    assert r.exit_code == 0 and r.stderr == ""


@pytest.mark.slow
def test_diff_matches_shows_simulated_play_side_by_side() -> None:
    r = run("diff", "menos", "sin-jokers", "--no-witnesses", "--matches", "1", "--bots", "greedy,greedy", "--json")
    assert r.exit_code == 1, r.output  # the rulesets differ
    stats = json.loads(r.stdout)["stats"]
    names = [f["name"] for f in stats["figures"]]
    assert "rounds per match (played)" in names and stats["matches"] == 1
