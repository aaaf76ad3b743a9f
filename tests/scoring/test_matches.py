"""Whole matches (issue 3 §3 and its acceptance list): ``play_match`` on match files, and ``loba match``.

Every expected total, elimination, re-entry and winner is worked out by hand from the rules, citing them:
seed 004 (``/work/shared/seeds/004_…``: Menos elimination at 101+, reenganche at the highest current score at
most twice, last player standing; Mas first to 150, or 200/300 for longer sessions; Chinchón eliminated at
100), seed 003 (``003_…``: "The game ends when one or more players have scored at least 150 points") and
``rules.md`` (§1 winner when everybody left goes out in the same round; §4 Chinchón decisions).
Nothing here was copied from the code's own output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_runner import run
from sheets import ACCEPTANCE

from loba_dsl import loads
from loba_dsl.errors import LobaError, LobaErrors
from loba_dsl.game.standings import standings
from loba_dsl.rules.loading import load
from loba_dsl.scoring.match_play import MatchResult, RoundResult
from loba_dsl.scoring.model import MatchRound, PlayerPoints
from loba_dsl.scoring.score_sheets import play_match_sheet, read_match

# ---------------------------------------------------------------- helpers


def play(text: str, ruleset: str = "menos", *, target: int | None = None, source: str = "match.txt") -> MatchResult:
    rs = load(ruleset)
    return play_match_sheet(read_match(text, rs, source=source), rs, target=target)


def single_error(error: LobaError) -> LobaError:
    errors = list(error.errors) if isinstance(error, LobaErrors) else [error]
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


def names_round_and_player(error: LobaError, number: int, player: str) -> bool:
    """The message names the round (``round N``) and the player (issue 3 §3)."""
    return re.search(rf"\bround {number}\b", error.message) is not None and player in error.message


def standing(result: MatchResult, name: str) -> tuple[int, bool, int, bool]:
    """(total, still in, re-entries used, out for good) of one player at the end."""
    [p] = [p for p in result.players if p.name == name]
    return p.total, p.active, p.reentries, p.out_for_good


def reentry_scores(r: RoundResult) -> dict[str, int]:
    return {str(e["name"]): int(e["score"]) for e in r.reentries}


# ---------------------------------------------------------------- menos: elimination and reenganche


def test_acceptance_match_menos() -> None:
    """Seed 004: "eliminated at 101+"; re-entry "with a score equal to the highest current player's score".

    Round totals: Ana 0 + 0 = 0, Beto 34 + 40 = 74, Carla 57 + 50 = 107, Dani 20 + 12 = 32.  Carla (107 >= 101)
    is eliminated in round 2 and re-enters at the highest total of those still in, max(0, 74, 32) = 74.
    """
    result = play(ACCEPTANCE)
    first, second = result.rounds
    assert first.scores == {"Ana": 0, "Beto": 34, "Carla": 57, "Dani": 20}
    assert first.totals == {"Ana": 0, "Beto": 34, "Carla": 57, "Dani": 20}
    assert first.eliminated == []
    assert second.totals == {"Ana": 0, "Beto": 74, "Carla": 107, "Dani": 32}
    assert second.eliminated == ["Carla"]
    assert reentry_scores(second) == {"Carla": 74}
    assert standing(result, "Carla") == (74, True, 1, False)
    assert not result.over and result.winners == []


def test_reentered_player_plays_on_from_the_reentry_score() -> None:
    """Seed 004: the re-entered player "starts over" at 74; a later round adds to that."""
    result = play(ACCEPTANCE + "round 3\n  Ana: 10\n  Beto: out\n  Carla: 5\n  Dani: 8\n")
    assert result.rounds[2].totals == {"Ana": 10, "Beto": 74, "Carla": 79, "Dani": 40}
    assert standing(result, "Carla") == (79, True, 1, False)


def test_100_stays_101_is_eliminated() -> None:
    """Seed 004: "When a player's cumulative total reaches 101 or more, they are eliminated"."""
    result = play("players: Ana, Beto, Carla\nround 1\n  Ana: out\n  Beto: 100\n  Carla: 101\n")
    assert result.rounds[0].eliminated == ["Carla"]
    assert standing(result, "Beto") == (100, True, 0, False)
    assert standing(result, "Carla")[1] is False
    assert not result.over  # Ana and Beto are still in


TWICE = """\
players: Ana, Beto, Carla
round 1
  Ana: out
  Beto: 50
  Carla: 101
reenter Carla
round 2
  Ana: out
  Beto: 10
  Carla: 60
reenter Carla
round 3
  Ana: out
  Beto: 5
  Carla: 45
"""


def test_two_reentries_then_out_for_good() -> None:
    """Seed 004: "A player may reenganche a maximum of twice per match".

    Carla: 101 (out) -> re-enters at max(0, 50) = 50; 50 + 60 = 110 (out) -> re-enters at max(0, 60) = 60;
    60 + 45 = 105 (out) with both re-entries used: out for good.
    """
    result = play(TWICE)
    r1, r2, r3 = result.rounds
    assert r1.eliminated == ["Carla"] and reentry_scores(r1) == {"Carla": 50}
    assert r2.totals["Carla"] == 110 and r2.eliminated == ["Carla"] and reentry_scores(r2) == {"Carla": 60}
    assert r3.totals == {"Ana": 0, "Beto": 65, "Carla": 105}
    assert r3.eliminated == ["Carla"]
    assert r3.out_for_good == ["Carla"]
    assert standing(result, "Carla") == (105, False, 2, True)
    assert not result.over  # Ana and Beto are still in


def test_a_third_reentry_is_an_error_naming_round_and_player() -> None:
    """Issue 3 §3: a re-entry the rules forbid ("a third one") is an error naming the round and player."""
    text = TWICE + "reenter Carla\n"
    with pytest.raises(LobaError) as info:
        play(text, source="third.txt")
    error = single_error(info.value)
    assert names_round_and_player(error, 3, "Carla"), error.message
    assert error.location is not None and error.location.line == text.count("\n")  # the last line


def test_reentry_of_a_player_not_eliminated_is_an_error() -> None:
    """Issue 3 §3: a re-entry "by a player who is not eliminated" is an error naming the round and player."""
    text = "players: Ana, Beto, Carla\nround 1\n  Ana: out\n  Beto: 30\n  Carla: 40\nreenter Beto\n"
    with pytest.raises(LobaError) as info:
        play(text)
    error = single_error(info.value)
    assert names_round_and_player(error, 1, "Beto"), error.message
    assert error.location is not None and (error.location.line, error.location.column) == (6, 1)


def test_last_player_standing_wins() -> None:
    """Seed 004: "Last player standing wins" (Beto, at 120, does not re-enter)."""
    result = play("players: Ana, Beto\nround 1\n  Ana: out\n  Beto: 120\n")
    assert result.over
    assert result.winners == ["Ana"]


def test_last_player_standing_after_several_rounds() -> None:
    text = """\
players: Ana, Beto, Carla
round 1
  Ana: out
  Beto: 101
  Carla: 40
round 2
  Ana: 30
  Carla: out
round 3
  Ana: 75
  Carla: out
"""
    # Beto out in round 1; Ana 0 + 30 + 75 = 105 >= 101 in round 3: Carla is the last one standing (seed 004).
    result = play(text)
    assert result.rounds[2].eliminated == ["Ana"]
    assert result.over and result.winners == ["Carla"]


def test_everybody_left_eliminated_in_the_same_round_lowest_total_wins() -> None:
    """rules.md §1 / seed 004: "If all remaining players are eliminated in the same round, the one with the lowest
    total wins".  Carla (101) fell in round 1 and is not among the remaining; of Ana 110 and Beto 105, Beto wins.
    """
    text = """\
players: Ana, Beto, Carla
round 1
  Ana: out
  Beto: 60
  Carla: 101
round 2
  Ana: 110
  Beto: 45
"""
    result = play(text)
    assert sorted(result.rounds[1].eliminated) == ["Ana", "Beto"]
    assert result.over
    assert result.winners == ["Beto"]


def test_everybody_left_eliminated_tie_is_shared() -> None:
    """rules.md §1: "the lowest total wins (ties: shared)"."""
    result = play("players: Ana, Beto\nround 1\n  Ana: 105\n  Beto: 105\n")
    assert result.over
    assert sorted(result.winners) == ["Ana", "Beto"]


def test_a_match_of_six_players_is_an_error() -> None:
    """Seed 004: "2 to 5 players" (rules.md §1; the rulesets say players {min: 2, max: 5})."""
    text = "players: A1, B2, C3, D4, E5, F6\nround 1\n" + "".join(f"  {n}: 1\n" for n in ("A1", "B2", "C3", "D4",
                                                                                             "E5", "F6"))
    with pytest.raises(LobaError):
        play(text, "mas")


# ---------------------------------------------------------------- mas and mas-pagat: a target


MAS = """\
players: Ana, Beto
round 1
  Ana: 140
  Beto: 100
round 2
  Ana: 12
  Beto: 20
"""


def test_mas_first_to_150_wins() -> None:
    """Seed 004: "First to 150+ points at the end of a round wins the match": Ana 140 + 12 = 152."""
    result = play(MAS, "mas")
    assert result.rounds[1].totals == {"Ana": 152, "Beto": 120}
    assert result.over
    assert result.winners == ["Ana"]


def test_mas_not_over_below_the_target() -> None:
    """After round 1 nobody has 150 (Ana 140): the match goes on."""
    result = play(MAS.split("round 2")[0], "mas")
    assert not result.over and result.winners == []


def test_mas_target_200() -> None:
    """Seed 004: "For longer sessions, raise the target to 200 or 300": 152 does not win at 200."""
    result = play(MAS, "mas", target=200)
    assert not result.over
    assert result.winners == []
    # The same through the file's own `target:` line (grammar/sheet.lark).
    result = play("target: 200\n" + MAS, "mas")
    assert not result.over and result.winners == []


def test_mas_several_over_the_target_highest_wins() -> None:
    """rules.md §2: "several over target: highest wins": Ana 152, Beto 100 + 60 = 160."""
    result = play(MAS.replace("Beto: 20", "Beto: 60"), "mas")
    assert result.over
    assert result.winners == ["Beto"]


def test_mas_has_no_elimination() -> None:
    """Seed 004: Loba de Mas, "no elimination": 120 is just a score."""
    result = play("players: Ana, Beto\nround 1\n  Ana: 120\n  Beto: 5\n", "mas")
    assert result.rounds[0].eliminated == []
    assert not result.over


def test_mas_pagat_ends_when_anyone_reaches_150() -> None:
    """Seed 003: "The game ends when one or more players have scored at least 150 points"; highest wins (rules.md
    §3).  Round scores may be negative (seed 003).
    """
    text = """\
players: Ana, Beto, Carla
round 1
  Ana: 140
  Beto: 145
  Carla: -13
round 2
  Ana: 12
  Beto: -3
  Carla: 30
"""
    result = play(text, "mas-pagat")
    assert result.rounds[0].totals == {"Ana": 140, "Beto": 145, "Carla": -13}
    assert result.rounds[1].totals == {"Ana": 152, "Beto": 142, "Carla": 17}
    assert result.over and result.winners == ["Ana"]
    # Two over 150: the highest wins, not the first listed (Ana 152, Beto 145 + 20 = 165).
    result = play(text.replace("Beto: -3", "Beto: 20"), "mas-pagat")
    assert result.over and result.winners == ["Beto"]


# ---------------------------------------------------------------- chinchon


def test_chinchon_eliminated_at_100() -> None:
    """Seed 004 variations: Chinchón has "elimination at 100 points"; rules.md §4: "eliminated at >= 100;
    re-entry at the highest score".  Ana closed with -10; Beto 99 stays; Carla 100 re-enters at max(-10, 99).
    """
    text = """\
players: Ana, Beto, Carla
round 1
  Ana: out -10
  Beto: 99
  Carla: 100
reenter Carla
"""
    result = play(text, "chinchon")
    assert result.rounds[0].totals == {"Ana": -10, "Beto": 99, "Carla": 100}
    assert result.rounds[0].eliminated == ["Carla"]
    assert reentry_scores(result.rounds[0]) == {"Carla": 99}
    assert standing(result, "Carla") == (99, True, 1, False)


def test_chinchon_seven_card_run_wins_outright() -> None:
    """rules.md §4: "a 7-card run (chinchón) wins the match", whatever the totals.

    Ana closes with all seven melded (-10); Beto's hand 1 + 2 + 3 + 10 + 10 + 10 + 7 = 43 (figures 10).
    """
    text = """\
players: Ana, Beto
round 1
  player Ana: went out
    table: 1o 2o 3o 4o 5o 6o 7o
  player Beto
    hand: 1c 2e 3b Sc Ce Rb 7c
"""
    result = play(text, "chinchon")
    assert result.rounds[0].scores == {"Ana": -10, "Beto": 43}
    assert result.over
    assert result.winners == ["Ana"]


def test_chinchon_closing_without_a_seven_card_run_does_not_win() -> None:
    """Only a seven-card run is a chinchón (rules.md §4): a 4-card run and a group close for -10 (all seven
    melded), and the match goes on; Beto's 1 + 2 + 3 = 6.
    """
    text = """\
players: Ana, Beto
round 1
  player Ana: went out
    table: 1o 2o 3o 4o | 5c 5e 5b
  player Beto
    hand: 1c 2e 3b
"""
    result = play(text, "chinchon")
    assert result.rounds[0].scores == {"Ana": -10, "Beto": 6}
    assert not result.over


# ---------------------------------------------------------------- points-only and rich rounds together


MIXED = """\
players: Ana, Beto, Carla
round 1
  Ana: out
  Beto: 34
  Carla: 57
round 2
  player Ana
    table: 4♣ 5♣ 6♣
    hand: JOKER A♠ K♦ 7♣
  player Beto: went out
    table: 7♠ 7♥ 7♦ | 9♦ 10♦ J♦ Q♦
  player Carla
    hand: Q♥ J♣ 10♦
round 3
  Ana: 10
  Beto: out
  Carla: 20
"""


def test_mixed_points_and_rich_rounds() -> None:
    """Issue 3 §3: rounds are "either a round as above or just each player's points".

    Round 2 is scored from the cards (seed 004): Ana 25 + 15 + 10 + 7 = 57, Beto went out 0, Carla 10 * 3 = 30.
    Totals: Ana 0 + 57 + 10 = 67, Beto 34 + 0 + 0 = 34, Carla 57 + 30 + 20 = 107 (eliminated, seed 004).
    """
    result = play(MIXED)
    assert result.rounds[1].scores == {"Ana": 57, "Beto": 0, "Carla": 30}
    assert result.rounds[1].totals == {"Ana": 57, "Beto": 34, "Carla": 87}
    assert result.rounds[2].totals == {"Ana": 67, "Beto": 34, "Carla": 107}
    assert result.rounds[2].eliminated == ["Carla"]
    assert not result.over


def test_illegal_meld_in_a_match_round_is_an_error() -> None:
    """An illegal meld in a rich round of a match is an error naming it (Q-K-A: ace low only, rules.md §1)."""
    text = MIXED.replace("9♦ 10♦ J♦ Q♦", "Q♦ K♦ A♦")
    with pytest.raises(LobaError) as info:
        play(text)
    error = single_error(info.value)
    assert "Q♦ K♦ A♦" in error.message
    assert error.location is not None and error.location.line == 11


# ---------------------------------------------------------------- loba match


def test_cli_match_json(tmp_path: Path) -> None:
    """Issue 3 §3: standings after every round, who was eliminated when, re-entries and their score, the winner."""
    path = tmp_path / "match.txt"
    path.write_text(ACCEPTANCE, encoding="utf-8")
    result = run("match", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    doc = json.loads(result.stdout)
    assert {"rounds", "winner", "over"} <= set(doc)
    assert len(doc["rounds"]) == 2
    for r in doc["rounds"]:
        assert {"scores", "totals", "eliminated", "reentries"} <= set(r)
    second = doc["rounds"][1]
    assert second["totals"] == {"Ana": 0, "Beto": 74, "Carla": 107, "Dani": 32}
    assert second["eliminated"] == ["Carla"]
    assert [(e["name"], e["score"]) for e in second["reentries"]] == [("Carla", 74)]
    assert doc["over"] is False
    assert doc["winner"] in (None, [])


def test_cli_match_winner(tmp_path: Path) -> None:
    path = tmp_path / "won.txt"
    path.write_text("players: Ana, Beto\nround 1\n  Ana: out\n  Beto: 120\n", encoding="utf-8")
    doc = json.loads(run("match", str(path), "--json").stdout)
    assert doc["over"] is True
    assert doc["winner"] in ("Ana", ["Ana"])
    text = run("match", str(path))
    assert text.exit_code == 0 and "Ana" in text.stdout


def test_cli_match_target(tmp_path: Path) -> None:
    """Seed 004: 150 by default, ``--target 200`` for a longer session."""
    path = tmp_path / "mas.txt"
    path.write_text(MAS, encoding="utf-8")
    doc = json.loads(run("match", str(path), "-r", "mas", "--json").stdout)
    assert doc["over"] is True and doc["winner"] in ("Ana", ["Ana"])
    result = run("match", str(path), "--ruleset", "mas", "--target", "200", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["over"] is False and doc["winner"] in (None, [])


BAD_FILES = [
    # (what, text, line, column or None): the location must be on stderr as file:line:col (style.md).
    ("bad card", "players: Ana, Beto\nround 1\n  player Ana: went out\n    table: 4♣ 5♣ 6♣\n  player Beto\n"
     "    hand: A♠ 7X\n", 6, 14),
    ("third re-entry", TWICE + "reenter Carla\n", TWICE.count("\n") + 1, 1),
    ("re-entry not eliminated", "players: Ana, Beto\nround 1\n  Ana: out\n  Beto: 30\nreenter Beto\n", 5, 1),
    ("syntax", "players: Ana, Beto\nround 1\n  Ana 12\n", 3, None),
    ("unknown player", "players: Ana, Beto\nround 1\n  Ana: out\n  Zoe: 12\n", 4, None),
    ("two out", "players: Ana, Beto\nround 1\n  Ana: out\n  Beto: out\n", 4, None),
]


@pytest.mark.parametrize(("what", "text", "line", "column"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_cli_match_bad_file_exit_2(tmp_path: Path, what: str, text: str, line: int, column: int | None) -> None:
    """style.md: exit 2 on bad input, the location on stderr, nothing on stdout, never a traceback."""
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    for extra in ((), ("--json",)):
        result = run("match", str(path), *extra)
        assert result.exit_code == 2, (what, result.stdout, result.stderr)
        # issue 10: with --json the error is JSON on stdout (never a result)
        assert result.stdout == "" if not extra else json.loads(result.stdout)["error"]["location"]["line"] == line
        where = f"{path}:{line}:{column}:" if column is not None else f"{path}:{line}:"
        assert where in result.stderr, (what, result.stderr)


def test_cli_match_missing_file(tmp_path: Path) -> None:
    result = run("match", str(tmp_path / "nope.txt"))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip()


def test_a_target_reached_in_the_round_that_puts_everyone_out_has_a_winner() -> None:
    # A house on Mas (rules.md §2: first to 150 at the end of a round wins; several over it, the highest
    # total) that also eliminates at 101 (Menos's rule, §1).  One round puts Ana (120) and Beto (200) both
    # past 101, and Beto past 150: the match ends on the target, and Beto's 200 is the highest total.
    import loba_dsl as loba

    rs = loba.loads("name: h\nextends: mas\nmatch: {eliminate_at: 101}\n", source="h.yaml")
    rounds = [loba.MatchRound((loba.PlayerPoints("Ana", 120), loba.PlayerPoints("Beto", 200, went_out=True)))]
    result = loba.play_match(rs, rounds, players=["Ana", "Beto"])
    assert result.over and list(result.winners) == ["Beto"]


# ---------------------------------------------------------------- a target and an elimination total

TARGET_AND_ELIMINATION = """\
name: target-and-elimination
extends: mas
match:
  eliminate_at: 50
"""
"""A house on mas (rules.md §2: the match ends when a player reaches the target, 150, and the highest total
wins) that also eliminates a player at 50 or more (rules.md §1's elimination rule, as a setting)."""


def test_a_round_that_puts_everyone_out_before_the_target_ends_the_match() -> None:
    rs = loads(TARGET_AND_ELIMINATION)
    text = "players: Ana, Beto, Carla\nround 1\n  Ana: out 60\n  Beto: 55\n  Carla: 52\n"
    result = play_match_sheet(read_match(text, rs), rs)
    # all three reached 50, nobody reached 150: no one is left to deal to, so the match is over and the
    # highest total (mas) wins
    assert result.over and list(result.winners) == ["Ana"]


def test_one_player_left_before_the_target_wins() -> None:
    rs = loads(TARGET_AND_ELIMINATION)
    text = "players: Ana, Beto, Carla\nround 1\n  Ana: out 60\n  Beto: 55\n  Carla: 20\n"
    result = play_match_sheet(read_match(text, rs), rs)
    assert result.over and list(result.winners) == ["Carla"]  # a round needs two players: Carla is the last in


def test_a_table_under_that_house_refuses_the_next_round_in_words() -> None:
    """The table's own question (who deals next) after such a round: the match is over, said in words (it
    was a StopIteration from Table.next_dealer, found by the public API fuzz)."""
    rs = loads(TARGET_AND_ELIMINATION)
    points = (PlayerPoints("Ana", 60, True), PlayerPoints("Beto", 55), PlayerPoints("Carla", 52))
    m = standings(rs, ["Ana", "Beto", "Carla"], [MatchRound(points, 1)], [[]])
    assert m.over and m.winners == ("Ana",) and m.playing == ()
