"""Round and match files are read by the ruleset's rules: a player who went out under a ruleset where going
out scores points must be given those points (``Ana: out 45``), a table that breaks the round's contract or
the opening minimum is refused, and the examples of ``loba help formats`` work as printed.

Expected values from /work/shared/rules.md: §1 (menos: the player who went out scores 0; penalties Joker 25,
A 15, J Q K 10, 2-10 face), §2 (mas: meld points, +5 a meld for going out), §4 (bazas: a first lay-down worth
at least 50 by §1's values; contrato: round 1 is 2 piernas, round 2 pierna + escalera; chinchón: closing with
every card melded -10).
"""

from __future__ import annotations

import json
import re

import pytest
from cli_runner import run

import loba_dsl as loba

MATCH = "players: Ana, Beto\nround 1\n  Ana: out\n  Beto: 34\n"


def match_error(text: str, ruleset: str) -> loba.LobaError:
    with pytest.raises(loba.LobaError) as caught:
        loba.read_match(text, loba.load(ruleset), source="match.txt")
    return caught.value


@pytest.mark.parametrize("ruleset", ["mas", "mas-pagat"])
def test_out_without_points_is_refused_where_going_out_scores_melds(ruleset: str) -> None:
    # §2/§3: the player who went out scores their melds and a bonus, never a silent 0.
    err = match_error(MATCH, ruleset)
    assert err.message == (f"Ana: out gives no points, but under {ruleset} a player who went out scores their "
                           "melds (scoring.meld_points)")
    assert err.hint == "write the points going out scored after 'out', e.g. 'Ana: out 45'"
    assert err.location is not None and (err.location.line, err.location.column) == (3, 3)
    # With the points written, Ana has them (+45), as the hint shows.
    result = loba.play_match_sheet(loba.read_match(MATCH.replace("out", "out 45"), loba.load(ruleset)),
                                   loba.load(ruleset))
    assert result.to_dict()["rounds"][0]["totals"] == {"Ana": 45, "Beto": 34}


def test_out_without_points_is_refused_where_closing_scores_minus_ten() -> None:
    # §4 chinchón: closing with every card melded scores -10.
    err = match_error(MATCH, "chinchon")
    assert "scores -10 (scoring.round)" in err.message and err.hint is not None and "'Ana: out -10'" in err.hint


def test_out_is_zero_where_going_out_scores_zero() -> None:
    # §1 menos: the player who went out scores 0.
    result = loba.play_match_sheet(loba.read_match(MATCH, loba.load("menos")), loba.load("menos"))
    assert result.to_dict()["rounds"][0]["totals"] == {"Ana": 0, "Beto": 34}


def test_the_cli_and_the_writer_agree_on_out_with_points() -> None:
    out = run("match", "-r", "mas", "-", input=MATCH)
    assert out.exit_code == 2 and "e.g. 'Ana: out 45'" in out.stderr
    # A match written by the library reads back: the points of going out are written where they count.
    mas = loba.load("mas")
    events = [loba.MatchRound((loba.PlayerPoints("Ana", 0, True), loba.PlayerPoints("Beto", 34)), 1)]
    text = loba.write_match(mas, events)
    assert "Ana: out 0" in text
    assert loba.read_match(text, mas).events[0] == events[0]


# ---------------------------------------------------------------- tables that break the requirement


ROUND = """\
player Ana: went out
  table: 7♠ 7♥ 7♦ | 4♣ 5♣ 6♣
player Beto
  table: 8♠ 8♥ 8♦ | 9♠ 9♥ 9♦
  hand: K♠
"""


def score_error(text: str, ruleset: str) -> loba.LobaError:
    with pytest.raises(loba.LobaError) as caught:
        rs = loba.load(ruleset)
        loba.score_round_sheet(loba.read_round(text, rs, source="round.txt"), rs)
    return caught.value


def messages(err: loba.LobaError) -> list[str]:
    return [e.message for e in (err.errors if isinstance(err, loba.LobaErrors) else (err,))]


def test_a_contrato_table_without_the_rounds_contract_is_refused() -> None:
    # §4 contrato round 1: 2 piernas.  Ana's table is a pierna and an escalera (round 2's contract); Beto's
    # two piernas hold it.
    err = score_error(ROUND, "contrato")
    assert messages(err) == ["Ana's table does not hold round 1's contract, 2 piernas, which is the first lay-down "
                             "under contrato (requirements.contracts)"]
    assert err.location is not None and err.location.line == 1
    # Round 2 (pierna + escalera): now Ana's table holds it and Beto's does not.
    err = score_error("round: 2\n" + ROUND, "contrato")
    assert messages(err) == ["Beto's table does not hold round 2's contract, pierna + escalera, which is the first "
                             "lay-down under contrato (requirements.contracts)"]


def test_a_bazas_table_below_the_opening_minimum_is_refused() -> None:
    # §4 bazas: 50 by §1's values.  Ana: 7+7+7 + 4+5+6 = 36; Beto: 24 + 27 = 51, which may have opened.
    err = score_error(ROUND, "bazas")
    assert messages(err) == ["Ana's table is worth 36 by the opening's count, below the opening minimum of 50 "
                             "under bazas: no first lay-down from it reached the minimum (requirements.opening)"]
    out = run("score", "-r", "bazas", "-", input=ROUND)
    assert out.exit_code == 2 and "below the opening minimum of 50" in out.stderr
    # A table worth 51 (7♠ 7♥ 7♦ 21 + J♣ Q♣ K♣ 30) scores: Ana 0 (went out), Beto K♠ 10 and an empty table.
    good = "player Ana: went out\n  table: 7♠ 7♥ 7♦ | J♣ Q♣ K♣\nplayer Beto\n  hand: K♠\n"
    rs = loba.load("bazas")
    scored = loba.score_round_sheet(loba.read_round(good, rs), rs).to_dict()
    assert [(p["name"], p["score"]) for p in scored["players"]] == [("Ana", 0), ("Beto", 10)]


# ---------------------------------------------------------------- loba help formats, as printed


def _example(help_text: str, heading: str) -> str:
    block = help_text.split(heading, 1)[1].split("\n\n", 2)[1]
    return "\n".join(line[2:] for line in block.split("\n"))


def test_the_round_and_match_examples_of_help_formats_work_as_printed() -> None:
    text = run("help", "formats").stdout
    round_file = _example(text, "Round files (loba score FILE):")
    out = run("score", "-", "--json", input=round_file)
    assert out.exit_code == 0, out.stderr
    # §1: Ana went out (0); Beto keeps JOKER A♠ K♦ 7♣: 25 + 15 + 10 + 7 = 57.
    assert [(p["name"], p["score"]) for p in json.loads(out.stdout)["players"]] == [("Ana", 0), ("Beto", 57)]
    match_file = _example(text, "Match files (loba match FILE):")
    out = run("match", "-", "--json", input=match_file)
    assert out.exit_code == 0, out.stderr
    # §1: Carla reaches 57 + 50 = 107 >= 101 and re-enters at the highest total still in, Beto's 34 + 40 = 74.
    rounds = json.loads(out.stdout)["rounds"]
    assert rounds[1]["totals"]["Carla"] == 107 and rounds[1]["reentries"][0]["score"] == 74
    assert re.search(r"Ana: out 45", text)
