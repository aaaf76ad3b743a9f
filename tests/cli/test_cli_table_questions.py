"""What a new user meets at the table (issue 10): each test is one item of the issue, and failed before it.

Expected values come from docs/rules.md (cited per test) or from the issue's own wording of the wanted
behaviour; none is copied from the code's output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run
from typer.testing import Result


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
    # rules.md §4 contrato: round 1 is "2 pierna", put down alone in its turn
    # (requirements.contracts.other_melds_same_turn: false): only the two piernas go down, and the clubs
    # stay in hand, so it cannot go out this turn.  Round 3 is "2 escalera", which this hand (one run of
    # clubs) cannot make, so nothing goes down.
    one = json_out(run("arrange", hand, "-r", "contrato", "--round", "1", "--json"))
    assert sorted(m["kind"] for m in one["melds"]) == ["pierna", "pierna"]
    assert sorted(one["left"]) == sorted(["A♣", "2♣", "3♣", "4♣"])
    assert one["can_go_out"] is False
    three = json_out(run("arrange", hand, "-r", "contrato", "--round", "3", "--json"))
    assert three["melds"] == []
    assert three["can_go_out"] is False
    opened = json_out(run("arrange", hand, "-r", "contrato", "--round", "3", "--opened", "--json"))
    assert len(opened["melds"]) == 3


def test_contrato_arrange_rejects_a_round_outside_the_list() -> None:
    r = run("arrange", "A♣ 2♣ 3♣", "-r", "contrato", "--round", "9")
    assert r.exit_code == 2
    assert "1 to 8" in r.stderr


# ---------------------------------------------------------------- Chinchón: the -10 and the 7-card deal


def _round(tmp_path: Path, text: str, name: str = "round.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_chinchon_closing_reward_needs_all_seven_cards_melded(tmp_path: Path) -> None:
    # rules.md §4 chinchon: "closing with all seven cards melded −10"; 1o 2o 3o is three of the seven.
    f = _round(tmp_path, "players: 2\nplayer Ana: went out\n  table: 1o 2o 3o\n"
                         "player Beto\n  hand: 4c 5c 6c 7c 1e 2e 3e\n")
    r = run("score", f, "-r", "chinchon")
    assert r.exit_code == 2
    assert "7 cards dealt" in r.stderr


def test_chinchon_closing_with_seven_melded_scores_minus_ten(tmp_path: Path) -> None:
    f = _round(tmp_path, "players: 2\nplayer Ana: went out\n  table: 1o 2o 3o | 4c 5c 6c 7c\n"
                         "player Beto\n  hand: Rc Re 1e 2e 3e 4e 5b\n")
    out = json_out(run("score", f, "-r", "chinchon", "--json"))
    scores = {p["name"]: p["score"] for p in out["players"]}
    assert scores == {"Ana": -10, "Beto": 10 + 10 + 1 + 2 + 3 + 4 + 5}  # §4 values: R 10, else face


@pytest.mark.parametrize("table", ["1o 2o 3o | 4c 5c 6c", "1o 2o 3o | 4c 5c 6c 7c 1c"])
def test_chinchon_six_and_eight_card_tables_are_rejected(tmp_path: Path, table: str) -> None:
    f = _round(tmp_path, f"players: 2\nplayer Ana: went out\n  table: {table}\nplayer Beto\n  hand: Rc\n")
    assert run("score", f, "-r", "chinchon").exit_code == 2


def test_chinchon_nine_card_hand_is_rejected() -> None:
    assert run("score", "1o 2o 3o 4o 5o 6o 7o Ro Rc", "-r", "chinchon").exit_code == 2


def test_loba_tables_are_not_counted_against_the_deal(tmp_path: Path) -> None:
    # rules.md §1: deal.counted_at_end false; a menos player's table grows with every draw.
    f = _round(tmp_path, "players: 2\nplayer Ana: went out\n  table: A♣ 2♣ 3♣\nplayer Beto\n  hand: K♠\n")
    assert run("score", f).exit_code == 0


# ---------------------------------------------------------------- files: BOM, empty, cards as the argument


def test_a_round_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + "players: 2\nplayer Ana: went out\nplayer Beto\n  hand: K♠\n".encode())
    r = run("score", str(path), "--json")
    assert r.exit_code == 0, r.output
    assert {p["name"]: p["score"] for p in json_out(r)["players"]} == {"Ana": 0, "Beto": 10}  # §1 K 10


def test_a_match_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + b"players: Ana, Beto\nround 1\n  Ana: out\n  Beto: 30\n")
    assert run("match", str(path)).exit_code == 0


@pytest.mark.parametrize("command", ["score", "match"])
def test_an_empty_file_is_an_error(tmp_path: Path, command: str) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("\n  \n", encoding="utf-8")
    r = run(command, str(path))
    assert r.exit_code == 2
    assert "empty" in r.stderr


def test_score_takes_the_cards_themselves() -> None:
    # rules.md §1 penalties: A 15, K 10.
    out = json_out(run("score", "A♠ K♦", "--json"))
    assert out["players"][0]["score"] == 25


def test_validate_a_ruleset_file_whatever_its_extension(tmp_path: Path) -> None:
    path = tmp_path / "house.txt"
    path.write_text("name: casa\nextends: menos\n", encoding="utf-8")
    r = run("validate", str(path))
    assert r.exit_code == 0, r.output
    assert run("arrange", "A♣ 2♣ 3♣", "-r", str(path)).exit_code == 0


# ---------------------------------------------------------------- --target


def _match(tmp_path: Path) -> str:
    return _round(tmp_path, "players: Ana, Beto\nround 1\n  Ana: out\n  Beto: 30\n", "match.txt")


def _match_mas(tmp_path: Path) -> str:
    """rules.md §2: under mas the player who goes out scores their melds too, so 'out' carries points."""
    return _round(tmp_path, "players: Ana, Beto\nround 1\n  Ana: out 45\n  Beto: 30\n", "match-mas.txt")


def test_target_under_a_ruleset_without_one_is_an_error(tmp_path: Path) -> None:
    r = run("match", _match(tmp_path), "--target", "200")  # menos: match.end last_standing (rules.md §1)
    assert r.exit_code == 2
    assert "target" in r.stderr


@pytest.mark.parametrize("target", ["0", "-5"])
def test_target_must_be_positive(tmp_path: Path, target: str) -> None:
    r = run("match", _match_mas(tmp_path), "-r", "mas", "--target", target)
    assert r.exit_code == 2
    assert "target" in r.stderr


def test_target_under_mas_is_used(tmp_path: Path) -> None:
    out = json_out(run("match", _match_mas(tmp_path), "-r", "mas", "--target", "200", "--json"))
    assert out["target"] == 200


# ---------------------------------------------------------------- wording


def test_chinchon_suggestions_do_not_offer_a_joker() -> None:
    r = run("check", "1o 8o 3o", "-r", "chinchon")  # rules.md §4: deck.jokers 0
    assert r.exit_code == 2
    assert "JOKER" not in r.stderr


def test_a_contract_of_two_piernas_is_said_in_the_plural() -> None:
    r = run("check", "7♠ 7♥ 7♦ | 8♠ 8♥ 8♦", "--contract", "1", "-r", "contrato")
    assert "2 piernas" in r.stdout
    assert "2 pierna " not in r.stdout + " "


def test_one_player_is_not_one_players() -> None:
    from loba_dsl.render import round_text
    from loba_dsl.rules.loading import load
    from loba_dsl.scoring.model import PlayerRound, RoundFacts
    from loba_dsl.scoring.rounds import score_round

    rs = load("menos")
    hand = PlayerRound.from_text(rs, "Ana", hand="K♠")
    text = round_text(score_round(rs, [hand], RoundFacts(players=2)))
    assert "(2 players)" in text
    from dataclasses import replace

    one = replace(score_round(rs, [hand], RoundFacts(players=2)), n_players=1)
    assert "(1 player)" in round_text(one)


def test_arrange_with_a_discard_names_the_hand_in_its_header() -> None:
    r = run("arrange", "K♠", "--discard")
    assert r.stdout.splitlines()[0] == "K♠ under menos"


# ---------------------------------------------------------------- house rules that can now be written


def _house(tmp_path: Path, body: str) -> str:
    return _round(tmp_path, "name: casa\nextends: menos\n" + body, "casa.yaml")


MATCH = "players: Ana, Beto, Carla\nround 1\n  Ana: out\n  Beto: 40\n  Carla: 110\nreenter Carla\n"


@pytest.mark.parametrize(("reentry", "expected"), [
    ("score: highest_remaining", 40),  # rules.md §1: the highest total still in (Beto 40)
    ("score: highest_plus_one", 41),  # appendix A: one more than that
    ("{score: fixed, fixed_score: 50}", 50),  # appendix A: a fixed total
])
def test_reentry_score_settings(tmp_path: Path, reentry: str, expected: int) -> None:
    if not reentry.startswith("{"):
        reentry = "{" + reentry + "}"
    house = _house(tmp_path, f"match:\n  reentry: {reentry}\n")
    out = json_out(run("match", _round(tmp_path, MATCH, "m.txt"), "-r", house, "--json"))
    assert out["rounds"][0]["reentries"][0]["score"] == expected


def test_more_than_ten_reentries_can_be_written(tmp_path: Path) -> None:
    house = _house(tmp_path, "match:\n  reentry: {max: 12}\n")
    assert run("validate", house).exit_code == 0


def test_deal_size_by_player_count(tmp_path: Path) -> None:
    from loba_dsl.rules.loading import load_file

    rs = load_file(_house(tmp_path, "deal:\n  cards_by_players: {\"2\": 11}\n"), cached=False)
    assert rs.deal.cards_for(2) == 11
    assert rs.deal.cards_for(4) == 9  # rules.md §1: 9 cards otherwise


# ---------------------------------------------------------------- --json: every error is JSON on stdout


def _error_shape(doc: dict[str, Any]) -> None:
    err = doc["error"]
    assert set(err) >= {"code", "message", "location"}
    if err["location"] is not None:
        assert set(err["location"]) == {"file", "line", "column", "length"}


@pytest.mark.parametrize("args", [
    ("check", "A♣ 2x JOKER", "--json"),
    ("score", "no-such-file.txt", "--json"),
    ("match", "no-such-file.txt", "--json"),
    ("arrange", "A♣ ZZ", "--json"),
    ("show", "no-such-ruleset", "--json"),
    ("diff", "menos", "no-such-ruleset", "--json"),
    ("check", "A♣ 2♣ 3♣", "-r", "no-such-ruleset", "--json"),
])
def test_every_error_with_json_is_json_on_stdout(args: tuple[str, ...]) -> None:
    r = run(*args)
    assert r.exit_code == 2
    doc = json.loads(r.stdout)
    _error_shape(doc)


def test_a_card_error_in_json_has_its_location() -> None:
    doc = json.loads(run("check", "A♣ 2x JOKER", "--json").stdout)
    assert doc["error"]["location"] == {"file": "<cards>", "line": 1, "column": 4, "length": 2}


def test_batch_error_lines_follow_the_same_convention() -> None:
    r = run("check", "--file", "-", "--json", input="A♣ 2♣ 3♣\nZZ\n")
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[0]["valid"] is True
    _error_shape(lines[1])
    assert lines[1]["error"]["location"]["line"] == 2


def test_validate_json_error_follows_the_convention(tmp_path: Path) -> None:
    bad = _round(tmp_path, "name: casa\nextends: menos\nmelds:\n  escalera:\n    shape: run 3..13, ace hihg\n",
                 "bad.yaml")
    doc = json.loads(run("validate", bad, "--json").stdout)
    assert doc["valid"] is False
    _error_shape(doc)
    assert doc["error"]["location"]["line"] == 5


def test_requirement_verdicts_say_valid() -> None:
    doc = json.loads(run("check", "A♣ 2♣ JOKER | 7♠ 7♥ 7♦", "--opening", "-r", "bazas", "--json").stdout)
    assert doc["valid"] is True  # rules.md §4 bazas: 15+2+25 + 21 = 63 >= 50
    assert doc["ok"] is True  # today's key stays


# ---------------------------------------------------------------- the command line a newcomer types


def test_check_takes_the_cards_as_several_arguments() -> None:
    r = run("check", "A♣", "2♣", "3♣")  # rules.md §1: A-2-3 of one suit is an escalera
    assert r.exit_code == 0, r.output
    assert "legal escalera" in r.stdout


def test_arrange_takes_the_hand_as_several_arguments() -> None:
    out = json_out(run("arrange", "A♣", "2♣", "3♣", "K♠", "--json"))
    assert out["left"] == ["K♠"]


def test_a_bar_in_check_says_what_it_means() -> None:
    r = run("check", "A♣ 2♣ 3♣ | 7♠ 7♥ 7♦")
    assert r.exit_code == 2
    assert "--opening" in r.stderr and "--contract" in r.stderr


def test_version_and_short_help() -> None:
    v = run("--version")
    assert v.exit_code == 0 and v.stdout.startswith("loba ")
    h = run("check", "-h")
    assert h.exit_code == 0 and "--ruleset" in h.stdout


def test_language_codes_are_case_insensitive() -> None:
    # README card notation: German B D K for Jack, Queen, King.
    r = run("check", "B♣ D♣ K♣", "--lang", "DE", "--json")
    assert json_out(r)["reading"] == ["J♣", "Q♣", "K♣"]


def test_help_formats_shows_both_formats() -> None:
    r = run("help", "formats")
    assert r.exit_code == 0
    assert "player Ana: went out" in r.stdout and "reenter Carla" in r.stdout


def test_schema_prints_the_ruleset_schema() -> None:
    doc = json_out(run("schema"))
    assert doc["title"] == "Loba ruleset"


def test_new_writes_a_valid_commented_skeleton(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = run("new", "casa-garcia", "--extends", "menos")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "casa-garcia.yaml").read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=schema.json")
    assert (tmp_path / "schema.json").exists()
    assert run("validate", "casa-garcia.yaml").exit_code == 0
    assert run("new", "casa-garcia").exit_code == 2  # never overwrites without --force
    assert run("new", "Casa García").exit_code == 2


def test_an_error_on_a_long_line_quotes_about_eighty_characters_around_it() -> None:
    line = "A♣ " * 2000 + "ZZ " + "K♠ " * 2000
    r = run("check", "--file", "-", input=line + "\n")
    assert r.exit_code == 2
    quoted = [x for x in r.stderr.splitlines() if x.startswith("    1 |")]
    assert quoted and len(quoted[0]) < 100
    assert "ZZ" in quoted[0]
    caret = r.stderr.splitlines()[2]
    assert caret.index("^") == quoted[0].index("ZZ")
