"""What a new user meets at the table, third part (issue 10): each test is one item of the issue and
failed before its change.

Expected values come from docs/rules.md (cited per test), from the issue's own wording of the wanted
behaviour, or from the file formats as the README and `loba help formats` describe them; none is copied
from the code's output.
"""

from __future__ import annotations

import io
import re
import time
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run

from loba_dsl.compare.stats import play_stats
from loba_dsl.errors import LobaError
from loba_dsl.rules.loading import load, loads
from loba_dsl.scoring.score_sheets import play_match_sheet, read_match, read_round, score_round_sheet


def round_error(text: str, ruleset: str = "menos") -> str:
    with pytest.raises(LobaError) as caught:
        read_round(text, load(ruleset), source="round.txt")
    return caught.value.render()


def match_error(text: str, ruleset: str = "menos") -> str:
    with pytest.raises(LobaError) as caught:
        read_match(text, load(ruleset), source="match.txt")
    return caught.value.render()


# ---------------------------------------------------------------- parse errors in words (issue 10)

# Issue 10: "Round- and match-file errors show parser terminals (`expected COLON`, `OUT, SIGNED`, `$END`):
# say what was expected in words."
TERMINAL = re.compile(r"\$END|\b_?[A-Z]{2,}\b")


def no_terminals(rendered: str) -> None:
    # JOKER is a card's name (rules.md §5), the only upper-case word a player writes.
    assert not TERMINAL.findall(rendered.replace("JOKER", "")), rendered


def test_a_missing_colon_is_said_as_the_colon_itself() -> None:
    text = round_error("player Ana\n  table 4♣ 5♣ 6♣\n")
    assert "expected ':'" in text
    assert "round.txt:2:" in text
    no_terminals(text)


def test_a_points_line_without_points_says_a_number_of_points_or_out() -> None:
    # README "Scoring rounds and matches": a points line is `Ana: out` or `Beto: 34`.
    text = match_error("players: Ana, Beto\nround 1\n  Ana:\n  Beto: 3\n")
    assert "a number of points" in text and "'out'" in text
    assert "match.txt:3:" in text
    no_terminals(text)


def test_a_second_number_on_a_points_line_expects_the_end_of_the_line() -> None:
    text = match_error("players: Ana, Beto\nround 1\n  Ana: out\n  Beto: 3 4\n")
    assert "expected the end of the line" in text
    assert "match.txt:4:" in text
    no_terminals(text)


@pytest.mark.parametrize("text, what", [
    ("players:\n", "a number"),
    ("player\n", "a player's name"),
    ("player Ana: went\n", "'out'"),
    ("stock ran\n", "'out'"),
    ("player Ana:\n  table: 4♣ 5♣ 6♣ |\n", "cards"),
])
def test_a_line_that_ends_too_early_says_what_was_missing(text: str, what: str) -> None:
    rendered = round_error(text)
    assert "ends too early" in rendered and what in rendered, rendered
    no_terminals(rendered)
    # The caret marks one place, not the length of a word that is not there.
    caret = [line for line in rendered.splitlines() if "^" in line]
    assert caret and caret[0].count("^") == 1, rendered


@pytest.mark.parametrize("text", [
    "players: Ana Beto\n", "target 200\n", "round 1\n Ana 30\n", "reenter\n", "players: Ana\n",
    "round 1\n  Ana: out 3 3\n", "player Ana:\n hand: A♠ | K♦\n", "round x\n", "Ana: +\n",
])
def test_no_match_file_error_names_a_parser_terminal(text: str) -> None:
    no_terminals(match_error(text))


def test_the_cli_error_says_it_in_words_too() -> None:
    result = run("match", "-", input="players: Ana, Beto\nround 1\n  Ana out\n")
    assert result.exit_code == 2
    assert "expected ':'" in result.stderr
    no_terminals(result.stderr)


# ---------------------------------------------------------------- names with spaces (issue 10)

# Issue 10: "Player names with spaces (`María Luz`) must work."


def scores(text: str, ruleset: str = "menos") -> dict[str, int]:
    rs = load(ruleset)
    return {p.name: p.score for p in score_round_sheet(read_round(text, rs, source="round.txt"), rs).players}


def test_a_round_player_named_with_two_words() -> None:
    # rules.md §1: the player who went out scores 0, every other player the penalty in hand
    # (K 10, 7 face value: 17).
    got = scores("player María Luz: went out\n  table: 4♣ 5♣ 6♣\nplayer Beto\n  hand: K♦ 7♣\n")
    assert got == {"María Luz": 0, "Beto": 17}


def test_a_two_word_name_keeps_going_out_without_a_colon() -> None:
    # The format's `player Ana went out` (colon optional) still reads "went out" as the status.
    got = scores("player María Luz went out all at once\n  table: 4♣ 5♣ 6♣\nplayer Beto\n  hand: 9♥\n")
    assert got == {"María Luz": 0, "Beto": 9}


def test_extra_spaces_inside_a_name_are_one_space() -> None:
    got = scores("player María   Luz: went out\n  table: 4♣ 5♣ 6♣\nplayer Beto\n  hand: 9♥\n")
    assert set(got) == {"María Luz", "Beto"}


MATCH_WITH_SPACES = """\
players: Ana, María Luz, Beto
round 1
  Ana: out
  María Luz: 60
  Beto: 20
round 2
  Ana: out
  María Luz: 45
  Beto: 30
reenter María Luz
"""


def test_a_match_with_a_two_word_name_eliminates_and_reenters_her() -> None:
    # rules.md §1: eliminated at a total of 101 or more (60 + 45 = 105); she re-enters at the highest total
    # among the players still in (Beto's 50), her first of at most two re-entries.
    rs = load("menos")
    result = play_match_sheet(read_match(MATCH_WITH_SPACES, rs, source="match.txt"), rs)
    assert result.rounds[1].eliminated == ["María Luz"]
    standing = {s.name: s for s in result.players}
    assert standing["María Luz"].total == 50 and standing["María Luz"].active
    assert standing["María Luz"].reentries == 1


def test_a_two_word_name_in_the_cli() -> None:
    result = run("match", "-", input=MATCH_WITH_SPACES)
    assert result.exit_code == 0, result.output
    assert "María Luz re-enters at 50" in result.stdout


# ---------------------------------------------------------------- Spanish words (issue 10)

# Issue 10: "Spanish words where players use them (`fuera` for out ...)".  The README's round-file section
# and `loba help formats` list them: fuera, jugadores, jugador, mesa, mano, ronda, reenganche.


def test_fuera_is_went_out_in_a_round_file() -> None:
    # rules.md §1: the player who went out scores 0; Beto pays A 15 + K 10.
    got = scores("jugadores: 3\njugador Ana: fuera\n  mesa: 4♣ 5♣ 6♣\njugador Beto\n  mano: A♠ K♦\n")
    assert got == {"Ana": 0, "Beto": 25}


def test_the_english_and_spanish_words_mean_the_same_round() -> None:
    english = scores("players: 3\nplayer Ana: went out\n  table: 4♣ 5♣ 6♣\nplayer Beto\n  hand: A♠ K♦\n")
    spanish = scores("jugadores: 3\njugador Ana: fuera\n  mesa: 4♣ 5♣ 6♣\njugador Beto\n  mano: A♠ K♦\n")
    assert english == spanish


SPANISH_MATCH = """\
jugadores: Ana, Beto, Carla
ronda 1
  Ana: fuera
  Beto: 34
  Carla: 57
ronda 2
  Ana: 10
  Beto: fuera
  Carla: 50
reenganche Carla
"""


def test_a_match_written_in_spanish() -> None:
    # rules.md §1: Carla reaches 107 (>= 101) and re-enters at the highest total still in: Beto's 34.
    rs = load("menos")
    result = play_match_sheet(read_match(SPANISH_MATCH, rs, source="match.txt"), rs)
    assert result.rounds[0].scores == {"Ana": 0, "Beto": 34, "Carla": 57}
    assert result.rounds[1].eliminated == ["Carla"]
    assert {s.name: s.total for s in result.players} == {"Ana": 10, "Beto": 34, "Carla": 34}


def test_a_points_line_may_say_went_out() -> None:
    rs = load("menos")
    text = "players: Ana, Beto\nround 1\n  Ana: went out\n  Beto: 12\n"
    result = play_match_sheet(read_match(text, rs, source="match.txt"), rs)
    assert result.rounds[0].scores == {"Ana": 0, "Beto": 12}


def test_a_spanish_round_file_is_not_read_as_a_bare_hand() -> None:
    # `mano:` is a keyword line, so the file is a round, not the cards of one hand (README).
    rs = load("menos")
    sheet = read_round("jugador Ana: fuera\n  mano:\n", rs, source="round.txt")
    assert not sheet.bare


def test_the_spanish_words_are_documented() -> None:
    text = run("help", "formats").stdout
    for word in ("fuera", "jugadores", "jugador", "mesa", "mano", "ronda", "reenganche"):
        assert word in text, word


# ---------------------------------------------------------------- the round's number in a round file (issue 10)

# Issue 10, "House rules people play that cannot be written yet": "a round number in a standalone round
# file".  The round formula's `round` is "the round's number in the match, from 1" (docs/rules.md,
# "The ruleset language": the formula's names).
ROUND_TIMES = ('name: casa-garcia\ndescription: penalties grow with the round\nextends: menos\n'
               'scoring:\n  round: "went_out ? 0 : round * penalty(hand)"\n')


def house_scores(text: str) -> dict[str, int]:
    rs = loads(ROUND_TIMES, source="house.yaml")
    return {p.name: p.score for p in score_round_sheet(read_round(text, rs, source="round.txt"), rs).players}


ROUND_BODY = "player Ana: went out\n  table: 4♣ 5♣ 6♣\nplayer Beto\n  hand: K♦ 7♣\n"


@pytest.mark.parametrize("line", ["round: 3", "round 3", "round 3:", "ronda: 3"])
def test_a_round_file_names_its_round_for_the_formula(line: str) -> None:
    # Beto's penalty (rules.md §1: K 10 + 7) is 17; in round 3 the house rule makes it 3 × 17 = 51.
    assert house_scores(f"{line}\n{ROUND_BODY}") == {"Ana": 0, "Beto": 51}


def test_without_a_round_line_the_round_is_the_first() -> None:
    assert house_scores(ROUND_BODY) == {"Ana": 0, "Beto": 17}


def test_a_round_file_with_two_round_numbers_is_an_error() -> None:
    text = round_error(f"round: 2\nround: 3\n{ROUND_BODY}")
    assert "round.txt:2:" in text and "twice" in text


def test_round_numbers_start_at_one() -> None:
    assert "start at 1" in round_error(f"round: 0\n{ROUND_BODY}")
    assert "start at 1" in match_error("players: Ana, Beto\nround 0\n  Ana: out\n  Beto: 3\n")


def test_a_match_round_may_be_written_round_colon_number() -> None:
    # The same spelling in a match file: the round's number is 4 (and the formula sees it).
    rs = loads(ROUND_TIMES, source="house.yaml")
    text = "players: Ana, Beto\nround: 4\n" + ROUND_BODY.replace("\n", "\n  ")
    result = play_match_sheet(read_match(text, rs, source="match.txt"), rs)
    assert result.rounds[0].number == 4
    assert result.rounds[0].scores == {"Ana": 0, "Beto": 68}


def test_the_round_line_is_documented() -> None:
    assert "round: 3" in run("help", "formats").stdout


# ---------------------------------------------------------------- diff --deals across scales (issue 10)

# Issue 10: "`diff --deals` labels mas scores 'least penalty' and subtracts across opposite scales".
# rules.md §1: menos scores a penalty (scoring.better: lower); §2 and §3: mas and mas-pagat score points
# (scoring.better: higher).


def score_figure(left: str, right: str) -> dict[str, Any]:
    stats = play_stats(load(left), load(right), deals=12, seed=3, workers=1).to_dict()
    figure = stats["figures"][0]
    assert isinstance(figure, dict)
    return figure


def test_mas_scores_are_labelled_as_points() -> None:
    figure = score_figure("mas", "mas-pagat")
    assert figure["name"] == "most points in a dealt hand"
    assert figure["comparable"] is True
    assert figure["diff"] == pytest.approx(figure["b"] - figure["a"])


def test_a_penalty_and_points_are_never_subtracted() -> None:
    figure = score_figure("menos", "mas")
    assert figure["comparable"] is False
    assert figure["diff"] is None and figure["se"] is None
    assert "not comparable" in figure["name"]
    assert "menos: least penalty" in figure["name"] and "mas: most points" in figure["name"]
    # Both sides are still shown: a penalty is never negative (rules.md §1 values are all positive).
    assert figure["a"] >= 0 and isinstance(figure["b"], float)


def test_the_cli_shows_both_scales_without_a_difference() -> None:
    result = run("diff", "menos", "mas", "--deals", "12", "--seed", "3")
    row = next(line for line in result.stdout.splitlines() if "best score in a dealt hand" in line)
    assert "not comparable" in row and row.rstrip().endswith("—"), row
    assert "least penalty in a dealt hand" not in result.stdout


# ---------------------------------------------------------------- progress on long solves (issue 10)

# Issue 10: "a progress indicator on long solves".  It goes to stderr, and only when stderr is a terminal:
# output piped to a file or a program never has it.
HANDS = "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠\n# a comment\n4♣ 5♣ 6♣ 9♥\n\nQ♥ K♥ A♥ 7♠ 7♥\n"


def arrange_with_stderr_on_a_terminal(tmp_path: Path) -> tuple[str, str]:
    import os
    import pty
    import subprocess
    import sys

    hands = tmp_path / "hands.txt"
    hands.write_text(HANDS, encoding="utf-8")
    master, slave = pty.openpty()
    env = {**os.environ, "LOBA_NO_CACHE": "1", "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", "from loba_cli.main import main; main()", "arrange", "-f",
                             str(hands)], stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    stdout, _ = proc.communicate(timeout=120)
    os.close(master)
    assert proc.returncode == 0
    return stdout.decode("utf-8"), b"".join(chunks).decode("utf-8", "replace")


def test_batch_arrange_shows_hands_done_on_a_terminal(tmp_path: Path) -> None:
    stdout, terminal = arrange_with_stderr_on_a_terminal(tmp_path)
    # Three hands (the comment and the blank line are not hands): done / total after each but the last.
    assert "arranged 1/3 hands" in terminal and "arranged 2/3 hands" in terminal, terminal
    # The note is erased at the end, and stdout has only the three arrangements.
    assert terminal.endswith("\r\x1b[K"), repr(terminal)
    assert "arranged" not in stdout and "\r" not in stdout
    assert stdout.count(" under menos") == 3


def test_no_progress_on_a_pipe(tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text(HANDS, encoding="utf-8")
    result = run("arrange", "-f", str(hands))
    assert result.exit_code == 0
    assert result.stderr == "" and "\r" not in result.stdout


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_one_long_hand_shows_its_seconds_after_the_delay() -> None:
    from loba_cli.main import Progress

    screen = FakeTerminal()
    with Progress(screen, after=0.05).ticking():
        time.sleep(0.3)
    text = screen.getvalue()
    assert "arranging... 0 s" in text and text.endswith("\r\x1b[K"), repr(text)


def test_a_quick_hand_shows_nothing() -> None:
    from loba_cli.main import Progress

    screen = FakeTerminal()
    with Progress(screen, after=5.0).ticking():
        pass
    assert screen.getvalue() == ""


def test_nothing_is_drawn_when_the_stream_is_not_a_terminal() -> None:
    from loba_cli.main import Progress

    screen = io.StringIO()
    progress = Progress(screen, total=2, after=0.0)
    with progress.ticking():
        time.sleep(0.1)
    progress.step()
    assert screen.getvalue() == ""
