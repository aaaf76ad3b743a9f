"""Re-entry offers: right after a round, who was eliminated in it and may still re-enter, and at which total
the rules set them (what the score sheet offers; `loba match` prints it under the last round).

Expected values from the rules, worked by hand: seed 004 (/work/shared/seeds/004: eliminated at 101+,
reenganche "with a score equal to the highest current player's score", "a maximum of twice per match";
docs/rules.md §1), docs/rules.md's house switches (`highest_plus_one`, `fixed`, `reentry.max`).
"""

from __future__ import annotations

from cli_runner import run

from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.match_play import play_match
from loba_dsl.scoring.model import MatchEvent, MatchRound, PlayerPoints, Reentry


def house(text: str) -> Ruleset:
    return loads("name: h\nextends: menos\n" + text, source="h.yaml", cached=False)


def points(*cells: tuple[str, int | str]) -> MatchRound:
    return MatchRound(tuple(PlayerPoints(n, 0, True) if v == "out" else PlayerPoints(n, int(v)) for n, v in cells))


ROUND_1 = points(("Ana", "out"), ("Beto", 34), ("Carla", 57), ("Dani", 20))
ROUND_2 = points(("Ana", 10), ("Beto", "out"), ("Carla", 50), ("Dani", 12))  # Carla 107 >= 101


def test_offer_at_the_highest_total_still_in() -> None:
    result = play_match(load("menos"), [ROUND_1, ROUND_2])
    # Still in after round 2: Ana 10, Beto 34, Dani 32: Carla may come back at 34.
    assert result.rounds[1].offers == [{"name": "Carla", "score": 34}]
    assert result.rounds[0].offers == []
    assert result.to_dict()["rounds"][1]["offers"] == [{"name": "Carla", "score": 34}]


def test_offer_taken_is_no_longer_offered() -> None:
    result = play_match(load("menos"), [ROUND_1, ROUND_2, Reentry("Carla")])
    assert result.rounds[1].offers == []
    assert result.rounds[1].reentries == [{"name": "Carla", "score": 34, "reentry": 1}]


def test_no_offer_after_the_last_reentry() -> None:
    # Beto goes past 101 three times; after his second re-entry he is out for good (seed 004: twice at most).
    rounds: list[MatchEvent] = [points(("Ana", "out"), ("Beto", 110)), Reentry("Beto"),  # back at Ana's 0
                                points(("Ana", "out"), ("Beto", 101)), Reentry("Beto"),
                                points(("Ana", "out"), ("Beto", 101))]
    result = play_match(load("menos"), rounds)
    assert [r.offers for r in result.rounds[:2]] == [[], []]  # both taken
    assert result.rounds[2].out_for_good == ["Beto"] and result.rounds[2].offers == []


def test_offer_follows_the_houses_reentry_score() -> None:
    plus_one = house("match:\n  reentry:\n    max: 2\n    score: highest_plus_one\n")
    assert play_match(plus_one, [ROUND_1, ROUND_2]).rounds[1].offers == [{"name": "Carla", "score": 35}]
    fixed = house("match:\n  reentry:\n    max: 2\n    score: fixed\n    fixed_score: 50\n")
    assert play_match(fixed, [ROUND_1, ROUND_2]).rounds[1].offers == [{"name": "Carla", "score": 50}]
    none = house("match:\n  reentry:\n    max: 0\n    score: highest_remaining\n")
    assert play_match(none, [ROUND_1, ROUND_2]).rounds[1].offers == []


def test_offer_after_a_second_reentry_follows_the_first() -> None:
    # Both Carla and Dani pass 101 in round 2: offered at 34 each (Beto's, the highest still in); once Carla is
    # back at 34 the highest still in is still 34, so Dani's offer stays 34.
    r2 = points(("Ana", 10), ("Beto", "out"), ("Carla", 50), ("Dani", 90))
    result = play_match(load("menos"), [ROUND_1, r2, Reentry("Carla")])
    assert result.rounds[1].offers == [{"name": "Dani", "score": 34}]


def test_loba_match_prints_the_open_offer(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    path = tmp_path / "match.txt"
    path.write_text("players: Ana, Beto, Carla, Dani\nround 1\n  Ana: out\n  Beto: 34\n  Carla: 57\n  Dani: 20\n"
                    "round 2\n  Ana: 10\n  Beto: out\n  Carla: 50\n  Dani: 12\n", encoding="utf-8")
    result = run("match", str(path))
    assert result.exit_code == 0, result.stderr
    assert "Carla may re-enter at 34 (reenter Carla)" in result.stdout
