"""Match files written from a match's events (what the page exports): `loba match` reads them back as the
same match, cards in the ruleset's notation, names the format cannot hold refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_runner import run
from sheets import ACCEPTANCE

from loba_dsl.errors import InputError
from loba_dsl.rules.loading import load
from loba_dsl.scoring.match_play import play_match
from loba_dsl.scoring.model import MatchEvent, MatchRound, PlayerPoints, PlayerRound, Reentry
from loba_dsl.scoring.score_sheets import read_match
from loba_dsl.scoring.sheet_writer import write_match


def test_accepted_match_round_trips() -> None:
    rs = load("menos")
    sheet = read_match(ACCEPTANCE, rs)
    text = write_match(rs, sheet.events, players=sheet.players, comments=["loba match FILE --ruleset menos"])
    assert text.startswith("# loba match FILE --ruleset menos\nplayers: Ana, Beto, Carla, Dani\nround 1\n")
    again = read_match(text, rs)
    # numbered as the match numbers them (the file's own rounds are unnumbered: 1 and 2)
    assert [e.players if isinstance(e, MatchRound) else e for e in again.events] == \
        [e.players if isinstance(e, MatchRound) else e for e in sheet.events]
    assert play_match(rs, again.events, players=again.players).to_dict() == \
        play_match(rs, sheet.events, players=sheet.players).to_dict()


def test_cards_are_written_in_the_rulesets_notation(tmp_path: Path) -> None:
    rs = load("chinchon")  # the Spanish deck: 1o = ace of oros (docs/rules.md §4)
    cards = rs.notation().parse("1o 2o 3o 4o 5o 6o 7o", source="t").cards
    hand = rs.notation().parse("Rb Sc 5e 1c", source="t").cards
    # Ana closes with all seven cards down; Beto pays his hand (chinchon.yaml: S C R 10, others face): 10+10+5+1.
    events = [MatchRound((PlayerRound("Ana", (cards,), (), True), PlayerRound("Beto", (), hand)))]
    text = write_match(rs, events, players=["Ana", "Beto"])
    assert "    table: 1o 2o 3o 4o 5o 6o 7o\n" in text and "    hand: Rb Sc 5e 1c\n" in text
    path = tmp_path / "m.txt"
    path.write_text(text, encoding="utf-8")
    result = run("match", str(path), "--ruleset", "chinchon", "--json")
    assert result.exit_code == 0, result.stderr
    import json

    doc = json.loads(result.stdout)
    # docs/rules.md §4: a seven-card escalera wins the match at once.
    assert doc["rounds"][0]["scores"]["Beto"] == 26 and doc["winner"] == ["Ana"]


def test_points_out_with_points_stock_and_target() -> None:
    rs = load("mas")
    events = [MatchRound((PlayerPoints("Ana", 25, True), PlayerPoints("Beto", -10)), stock_out=False),
              MatchRound((PlayerPoints("Ana", 5), PlayerPoints("Beto", 15)), 2, True)]
    text = write_match(rs, events, players=["Ana", "Beto"], target=200)
    assert "target: 200\n" in text and "  Ana: out 25\n" in text and "  Beto: -10\n" in text
    assert "round 2\n  stock ran out\n" in text
    back = read_match(text, rs)
    assert back.target == 200 and back.events[1] == events[1]


@pytest.mark.parametrize("name", ["x:y", "3po", "Ana,Beto", "round", "player", "reenter", "Luz at", "  "])
def test_a_name_the_format_cannot_hold_is_refused(name: str) -> None:
    rs = load("menos")
    with pytest.raises(InputError, match="cannot be written in a match file"):
        write_match(rs, [MatchRound((PlayerPoints(name, 3), PlayerPoints("Bo", 0, True)))], players=[name, "Bo"])


@pytest.mark.parametrize("name", ["María Luz", "O'Neil", "Ana-2", "Zz"])
def test_names_of_several_words_and_marks_round_trip(name: str) -> None:
    rs = load("menos")
    other = "Zz" if name != "Zz" else "Bo"
    events: list[MatchEvent] = [MatchRound((PlayerPoints(name, 3), PlayerPoints(other, 0, True))), Reentry(name)]
    text = write_match(rs, events)
    assert read_match(text, rs).events[1] == Reentry(name)
