"""The match score sheet, as a table keeps it: a 4-player menos match of 3 rounds where Carla passes 100
and re-enters, then round 1 corrected, and every total, elimination and offer after it recomputed; the
sheet kept across a reload, exported as the match file `loba match` scores, imported back; a round entered
as the cards left in hand, scored by the ruleset.

Expected values from the rules (seed 004, docs/rules.md §1): menos eliminates at 101; an eliminated player
may re-enter, at most twice, at the highest total among the players still in; cards left in hand count
JOKER 25, A 15, J Q K 10, others their face.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from page_browser import ROOT
from page_views import PLAYERS, enter_round, go, start
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # a browser and the real service: `make test` runs them, `make test-fast` does not

def totals(page: Any) -> dict[str, int]:
    """The Σ row: each player's total as the page shows it."""
    row = page.locator("#sheet-table tfoot tr")
    cells = row.locator("td .total").all_inner_texts()
    return dict(zip(PLAYERS, (int(c) for c in cells), strict=True))


def play_three_rounds(page: Any, server: str) -> None:
    start(page, server)
    enter_round(page, {"Ana": "out", "Beto": 34, "Carla": 57, "Dani": 20})
    enter_round(page, {"Ana": 10, "Beto": "out", "Carla": 50, "Dani": 12})
    # 57 + 50 = 107 >= 101: Carla is out, and may come back at the highest total still in (Beto's 34).
    expect(page.get_by_role("row").filter(has_text="Carla is eliminated at 107")).to_be_visible()
    page.get_by_role("button", name="Re-enter Carla at 34").click()
    expect(page.locator("#sheet-table").get_by_text("Carla re-enters at 34 (re-entry 1)")).to_be_visible()
    enter_round(page, {"Ana": 25, "Beto": 15, "Carla": "out", "Dani": 40})
    expect(page.locator("#sheet-table tbody th button")).to_have_count(3)


def test_match_with_reentry_then_round_one_edited(page: Any, server: str) -> None:
    play_three_rounds(page, server)
    assert totals(page) == {"Ana": 35, "Beto": 49, "Carla": 34, "Dani": 72}
    expect(page.get_by_text("No winner yet.")).to_be_visible()

    # Round 1 was written wrong: Dani had 70, not 20.
    page.get_by_role("button", name="Edit round 1").click()
    page.get_by_role("textbox", name="Dani", exact=True).fill("70")
    page.get_by_role("button", name="Save round 1").click()
    # Dani: 70, 82, then +40 = 122 >= 101: eliminated in round 3.  Carla re-entered after round 2 at the
    # highest total still in, now Dani's 82, so she ends at 82 + 0.
    expect(page.locator("#sheet-table tfoot")).to_contain_text("122")
    assert totals(page) == {"Ana": 35, "Beto": 49, "Carla": 82, "Dani": 122}
    expect(page.locator("#sheet-table").get_by_text("Carla re-enters at 82 (re-entry 1)")).to_be_visible()
    expect(page.locator("#sheet-table").get_by_text("Dani is eliminated at 122.")).to_be_visible()
    # After round 3 the highest total still in is Carla's 82: Dani's offer.
    expect(page.get_by_role("button", name="Re-enter Dani at 82")).to_be_visible()

    # The sheet is kept in the browser: a reload finds it as it was.
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#sheet-table tfoot")).to_contain_text("122")
    assert totals(page) == {"Ana": 35, "Beto": 49, "Carla": 82, "Dani": 122}


def test_export_is_the_match_file_loba_match_scores(page: Any, server: str, tmp_path: Path) -> None:
    play_three_rounds(page, server)
    shown = totals(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="Export the match file").click()
    path = tmp_path / "match.txt"
    info.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert "reenter Carla" in text
    done = subprocess.run([sys.executable, "-c", "from loba_cli.main import main; main()", "match", str(path),
                           "--ruleset", "menos", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {s["name"]: s["total"] for s in result["standings"]} == shown == {
        "Ana": 35, "Beto": 49, "Carla": 34, "Dani": 72}
    assert result["rounds"][1]["reentries"] == [{"name": "Carla", "score": 34, "reentry": 1}]
    expect(page.get_by_text("loba match loba-match.txt --ruleset menos").first).to_be_visible()


def test_import_a_match_file(page: Any, server: str, tmp_path: Path) -> None:
    # README's match file: Carla reaches 107 in round 2 and re-enters at Beto's 74 (34 + 40).
    path = tmp_path / "match.txt"
    path.write_text("players: Ana, Beto, Carla, Dani\nround 1\n  Ana: out\n  Beto: 34\n  Carla: 57\n  Dani: 20\n"
                    "round 2\n  Ana: out\n  Beto: 40\n  Carla: 50\n  Dani: 12\nreenter Carla\n", encoding="utf-8")
    go(page, server, "sheet")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import a match file").click()
    chooser.value.set_files(str(path))
    expect(page.locator("#sheet-table tbody th button")).to_have_count(2)
    assert totals(page) == {"Ana": 0, "Beto": 74, "Carla": 74, "Dani": 32}
    expect(page.locator("#sheet-table").get_by_text("Carla re-enters at 74 (re-entry 1)")).to_be_visible()


def test_round_entered_as_cards_is_scored_by_the_ruleset(page: Any, server: str) -> None:
    start(page, server, ["Ana", "Beto"])
    page.get_by_role("radio", name="cards left in hand").check()
    ana = page.get_by_role("group", name="Ana", exact=True)
    ana.get_by_role("textbox", name="Ana: melds on the table").fill("4♣ 5♣ 6♣ | 7♠ 7♥ 7♦")
    ana.get_by_role("checkbox", name="Ana went out", exact=True).check()
    page.get_by_role("group", name="Beto", exact=True).get_by_role("textbox", name="Beto: cards left in hand").fill(
        "JOKER A♠ K♦ 7♣")
    page.get_by_role("button", name="Add round 1").click()
    # JOKER 25 + A 15 + K 10 + 7 = 57 for Beto; Ana went out: 0.
    expect(page.locator("#sheet-table tfoot")).to_contain_text("57")
    row = page.locator("#sheet-table tfoot td .total").all_inner_texts()
    assert row == ["0", "57"]


def test_a_sheet_problem_is_said_in_words(page: Any, server: str) -> None:
    start(page, server, ["Ana", "Beto"])
    enter_round(page, {"Ana": 10, "Beto": 12})
    # seed 004: the round ends when a player goes out, so two cannot.
    enter_round(page, {"Ana": "out", "Beto": "out"})
    problem = page.get_by_role("alert")
    expect(problem).to_contain_text("only one player can go out in a round")
    assert "{" not in problem.inner_text()
    expect(page.get_by_text("not counted").first).to_be_visible()
    assert page.locator("#sheet-table tfoot td .total").all_inner_texts() == ["10", "12"]  # round 1 only
    # Fixed by editing round 2, the sheet counts every round again.
    page.get_by_role("button", name="Edit round 2").click()
    page.get_by_role("checkbox", name="Beto went out").uncheck()
    page.get_by_role("textbox", name="Beto", exact=True).fill("5")
    page.get_by_role("button", name="Save round 2").click()
    expect(page.get_by_role("alert")).to_have_count(0)
    assert page.locator("#sheet-table tfoot td .total").all_inner_texts() == ["10", "17"]


def test_winner_until_the_last_one_out_reenters(page: Any, server: str) -> None:
    start(page, server, ["Ana", "Beto"])
    enter_round(page, {"Ana": "out", "Beto": 120})
    # seed 004: Beto (120 >= 101) is out, so Ana is the last player standing, unless Beto buys back in at the
    # highest total still in, Ana's 0.
    expect(page.get_by_text("Winner: Ana.")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^Add round"))).to_have_count(0)
    page.get_by_role("button", name="Re-enter Beto at 0").click()
    expect(page.get_by_text("No winner yet.")).to_be_visible()
    expect(page.get_by_role("button", name="Add round 2")).to_be_visible()
    assert page.locator("#sheet-table tfoot td .total").all_inner_texts() == ["0", "0"]
