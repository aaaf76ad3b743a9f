"""Scoring a round (issue 3 §1-§2 and its acceptance list): ``score_player``, ``score_round`` on round files,
``loba score``, the opening minimum (bazas) and the contracts (contrato).

Every expected value is worked out by hand from the rules, and each one cites where it comes from:
seed 004 (``/work/shared/seeds/004_…``: Menos penalties, Mas meld points and bonus, the variations),
seed 003 (``003_…``: pagat's Loba de Mas) and ``rules.md`` (our decisions where the seeds are silent).
Nothing here was copied from the code's own output.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_runner import run
from sheets import MENOS_ROUND

from loba_dsl.cards.deck import Card
from loba_dsl.errors import LobaError, LobaErrors
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.requirements import contract, opening
from loba_dsl.scoring.rounds import PlayerScore, RoundScore, score_player
from loba_dsl.scoring.score_sheets import read_round, score_round_sheet

# ---------------------------------------------------------------- helpers


def codes(rs: Ruleset, text: str) -> tuple[Card, ...]:
    """The card codes of ``text`` in the ruleset's own notation."""
    return rs.notation().parse_codes(text)


def meld_codes(rs: Ruleset, text: str) -> list[tuple[Card, ...]]:
    """Melds separated by ``|``."""
    return [codes(rs, part) for part in text.split("|") if part.strip()]


def all_errors(error: LobaError) -> list[LobaError]:
    """The single errors inside ``error`` (one, or all of a :class:`LobaErrors`)."""
    return list(error.errors) if isinstance(error, LobaErrors) else [error]


def round_of(text: str, ruleset: str, source: str = "round.txt") -> RoundScore:
    rs = load(ruleset)
    return score_round_sheet(read_round(text, rs, source=source), rs)


def by_name(result: RoundScore) -> dict[str, PlayerScore]:
    return {p.name: p for p in result.players}


# ---------------------------------------------------------------- one player's round, three ways


@dataclass(frozen=True)
class Case:
    """One player's round, with the score the rules give and the parts we can check by hand."""

    id: str
    ruleset: str
    score: int
    melds: str = ""
    """Melds on the player's table, separated by ``|``."""
    hand: str = ""
    went_out: bool = False
    all_at_once: bool = False
    stock_out: bool = False
    players: int = 4
    meld_points: int | None = None
    hand_value: int | None = None
    bonus: int | None = None

    def round_file(self) -> str:
        """The case as a round file in the documented format (grammar/sheet.lark)."""
        lines = [f"players: {self.players}"]
        if self.stock_out:
            lines.append("stock ran out")
        status = ": went out all at once" if self.all_at_once else ": went out" if self.went_out else ""
        lines.append(f"player Ana{status}")
        if self.melds:
            lines.append(f"  table: {self.melds}")
        if self.hand:
            lines.append(f"  hand: {self.hand}")
        return "\n".join(lines) + "\n"

    @property
    def bare(self) -> bool:
        """Just a hand: also written as a file of nothing but cards."""
        return not (self.melds or self.went_out or self.all_at_once or self.stock_out)


CASES = [
    # --- menos: "Joker = 25, Ace = 15, J/Q/K = 10 each, 2 through 10 = face value" (seed 004, Card Deck).
    Case("menos-joker-ace-king-seven", "menos", 57, hand="JOKER A♠ K♦ 7♣", hand_value=25 + 15 + 10 + 7, bonus=0),
    Case("menos-faces", "menos", 30, hand="Q♥ J♣ 10♦", hand_value=10 + 10 + 10, bonus=0),
    Case("menos-four-jokers", "menos", 100, hand="JOKER JOKER JOKER JOKER", hand_value=4 * 25, bonus=0),
    # "The player who went out scores 0 for the round" (seed 004, Scoring).
    Case("menos-went-out", "menos", 0, melds="4♣ 5♣ 6♣ | 7♠ 7♥ 7♦", went_out=True),
    # --- uruguay: "Ace = 20, face = 10, 2 = 25 as wild" (seed 004 variations; rules.md §4): 20 + 10 + 25 + 9.
    Case("uruguay-hand", "uruguay", 64, hand="A♠ K♦ 2♣ 9♥", hand_value=20 + 10 + 25 + 9),
    # The same hand under menos: 15 + 10 + 2 + 9 (seed 004).
    Case("menos-same-hand", "menos", 36, hand="A♠ K♦ 2♣ 9♥", hand_value=15 + 10 + 2 + 9),
    # --- mas-pagat (seed 003's table; rules.md §3).
    # In hand: A 3, JOKER 3, 2 3, K 2, 7 1, 3 1 = 13, subtracted; "it is possible to end up with a negative score".
    Case("pagat-hand", "mas-pagat", -13, hand="A♠ JOKER 2♦ K♣ 7♥ 3♠", meld_points=0, hand_value=13, bonus=0),
    # On the table: Q-K-A = 2 + 2 + 3 (ace "3 points in Q-K-A") = 7; 7-7-7 = 1 + 1 + 1 = 3; going out "+ a bonus
    # of 5 points" (seed 003): 7 + 3 + 5 = 15.
    Case("pagat-went-out", "mas-pagat", 15, melds="Q♥ K♥ A♥ | 7♠ 7♥ 7♦", went_out=True,
         meld_points=10, hand_value=0, bonus=5),
    # All at once: "5 points per player in the game" (seed 003): 10 + 4 x 5 = 30, and 10 + 3 x 5 = 25.
    Case("pagat-all-at-once-4", "mas-pagat", 30, melds="Q♥ K♥ A♥ | 7♠ 7♥ 7♦", went_out=True, all_at_once=True,
         players=4, meld_points=10, bonus=20),
    Case("pagat-all-at-once-3", "mas-pagat", 25, melds="Q♥ K♥ A♥ | 7♠ 7♥ 7♦", went_out=True, all_at_once=True,
         players=3, meld_points=10, bonus=15),
    # "If the stock runs out and no one has gone out, no one gets this 5-point bonus" (seed 003): the melds only.
    Case("pagat-stock-out", "mas-pagat", 10, melds="Q♥ K♥ A♥ | 7♠ 7♥ 7♦", stock_out=True, meld_points=10, bonus=0),
    # --- mas: melds score §1's values positively; going out "+5 bonus points per meld on your table" (seed 004).
    # 4+5+6 = 15, 7+7+7 = 21, 9+10+10 = 29: 65 in melds, 3 x 5 = 15 in bonus.
    Case("mas-went-out-3-melds", "mas", 65 + 15, melds="4♣ 5♣ 6♣ | 7♠ 7♥ 7♦ | 9♦ 10♦ J♦", went_out=True,
         meld_points=65, hand_value=0, bonus=15),
    # A Joker on the table counts 25 positively (rules.md §2): 4 + 25 + 6 = 35, +5 for its one meld.
    Case("mas-joker-on-table", "mas", 40, melds="4♣ JOKER 6♣", went_out=True, meld_points=35, bonus=5),
    # Not out: "the others subtract their hand's values" (rules.md §2 decision): 15 - (15 + 10) = -10.
    Case("mas-not-out", "mas", -10, melds="4♣ 5♣ 6♣", hand="A♠ K♦", meld_points=15, hand_value=25, bonus=0),
    # --- pierna-de-cuatro: a four-suit pierna "cancels 10 penalty" (seed 004), "never below 0" (rules.md §4).
    # Hand JOKER 2♣ = 25 + 2 = 27; 27 - 10 = 17.
    Case("cuatro-cancels-10", "pierna-de-cuatro", 17, melds="7♠ 7♥ 7♦ 7♣", hand="JOKER 2♣", hand_value=27,
         bonus=-10),
    # 8 in hand: 8 - 10 would be -2, never below 0.
    Case("cuatro-never-below-0", "pierna-de-cuatro", 0, melds="7♠ 7♥ 7♦ 7♣", hand="8♠", hand_value=8),
    # A three-suit pierna cancels nothing: only a 4-card pierna (all four suits) has the double bonus.
    Case("cuatro-three-suits-cancel-nothing", "pierna-de-cuatro", 27, melds="7♠ 7♥ 7♦", hand="JOKER 2♣",
         hand_value=27, bonus=0),
    # --- mas-pierna-de-cuatro: "the going-out bonus of a four-suit pierna is 10 instead of 5" (rules.md §4):
    # melds 7 x 4 = 28 and 4+5+6 = 15; bonus 10 + 5.
    Case("mas-cuatro-bonus", "mas-pierna-de-cuatro", 43 + 15, melds="7♠ 7♥ 7♦ 7♣ | 4♣ 5♣ 6♣", went_out=True,
         meld_points=43, bonus=15),
    # --- chinchon: "values face, figures 10"; "closing with all seven melded −10" (rules.md §4).
    # 1 + 7 + sota 10 + caballo 10 + rey 10 = 38.
    Case("chinchon-hand", "chinchon", 38, hand="1o 7c So Cb Re", hand_value=38),
    Case("chinchon-close-all-seven", "chinchon", -10, melds="1o 2o 3o 4o | 5c 5e 5b", went_out=True),
]


def _check(got: PlayerScore, case: Case) -> None:
    assert got.score == case.score, (case.id, got)
    if case.meld_points is not None:
        assert got.meld_points == case.meld_points, (case.id, got)
    if case.hand_value is not None:
        assert got.hand_value == case.hand_value, (case.id, got)
    if case.bonus is not None:
        assert got.bonus == case.bonus, (case.id, got)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_score_player(case: Case) -> None:
    rs = load(case.ruleset)
    got = score_player(rs, name="Ana", melds=meld_codes(rs, case.melds), hand=codes(rs, case.hand),
                       went_out=case.went_out, all_at_once=case.all_at_once, stock_out=case.stock_out,
                       players=case.players)
    _check(got, case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_round_file(case: Case) -> None:
    result = round_of(case.round_file(), case.ruleset)
    assert [p.name for p in result.players] == ["Ana"]
    _check(result.players[0], case)


@pytest.mark.parametrize("case", [c for c in CASES if c.bare], ids=lambda c: c.id)
def test_bare_hand_file(case: Case) -> None:
    """Issue 3 §1: "the simplest file is just the cards left in one hand" (one player, not out)."""
    result = round_of(case.hand + "\n", case.ruleset)
    assert len(result.players) == 1
    _check(result.players[0], case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_cli_score_json(case: Case, tmp_path: Path) -> None:
    """Issue 3 §2: ``--json`` gives ``{"ruleset", "players": [{"name", "score", ...parts}]}``."""
    path = tmp_path / "round.txt"
    path.write_text(case.round_file(), encoding="utf-8")
    result = run("score", str(path), "--ruleset", case.ruleset, "--json")
    assert result.exit_code == 0, (result.stdout, result.stderr)
    doc = json.loads(result.stdout)
    assert doc["ruleset"] == case.ruleset
    [player] = doc["players"]
    assert {"name", "score", "meld_points", "hand_value", "bonus"} <= set(player)
    assert player["name"] == "Ana"
    assert player["score"] == case.score
    if case.meld_points is not None:
        assert player["meld_points"] == case.meld_points
    if case.hand_value is not None:
        assert player["hand_value"] == case.hand_value
    if case.bonus is not None:
        assert player["bonus"] == case.bonus


def test_pagat_stock_out_takes_the_bonus_away_even_from_a_player_marked_out() -> None:
    """Seed 003: when the stock is depleted "no player receives the going out bonus" (in-process API)."""
    rs = load("mas-pagat")
    melds = meld_codes(rs, "Q♥ K♥ A♥ | 7♠ 7♥ 7♦")
    got = score_player(rs, melds=melds, went_out=True, stock_out=True)
    assert got.score == 10 and got.bonus == 0  # 7 + 3 in melds (seed 003), no bonus
    got = score_player(rs, melds=melds, went_out=True, all_at_once=True, stock_out=True, players=4)
    assert got.score == 10 and got.bonus == 0


# ---------------------------------------------------------------- the bare hand through the CLI


def test_cli_bare_hand_uruguay(tmp_path: Path) -> None:
    """Issue 3 §1: ``loba score hand.txt --ruleset uruguay`` on ``A♠ K♦ 2♣ 9♥``: 20 + 10 + 25 + 9 = 64 (004)."""
    path = tmp_path / "hand.txt"
    path.write_text("A♠ K♦ 2♣ 9♥\n", encoding="utf-8")
    result = run("score", str(path), "--ruleset", "uruguay", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    doc = json.loads(result.stdout)
    assert doc["ruleset"] == "uruguay"
    assert len(doc["players"]) == 1  # "a file that is just a hand gives one player" (issue 3 §2)
    assert {"name", "score"} <= set(doc["players"][0])
    assert doc["players"][0]["score"] == 64
    # The same file under the default ruleset (menos): 15 + 10 + 2 + 9 = 36 (004).
    result = run("score", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["players"][0]["score"] == 36
    # Without --json: a table for people, on stdout.
    result = run("score", str(path), "-r", "uruguay")
    assert result.exit_code == 0 and "64" in result.stdout


# ---------------------------------------------------------------- whole rounds


def test_menos_round() -> None:
    """Seed 004: the one who went out scores 0, the others the penalty of their hand (57, 30, 36 as above)."""
    result = round_of(MENOS_ROUND, "menos")
    assert [p.name for p in result.players] == ["Ana", "Beto", "Carla", "Dani"]
    assert {n: p.score for n, p in by_name(result).items()} == {"Ana": 0, "Beto": 57, "Carla": 30, "Dani": 36}
    assert by_name(result)["Ana"].went_out


def test_menos_round_cli(tmp_path: Path) -> None:
    path = tmp_path / "round.txt"
    path.write_text(MENOS_ROUND, encoding="utf-8")
    result = run("score", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["ruleset"] == "menos"
    assert [(p["name"], p["score"]) for p in doc["players"]] == [("Ana", 0), ("Beto", 57), ("Carla", 30), ("Dani", 36)]


def test_pagat_round_all_at_once() -> None:
    """Seed 003: all at once in a 4-player game = 10 + 20 = 30; the others lose their hand (-13 as above)."""
    text = """\
players: 4
player Ana: went out all at once
  table: Q♥ K♥ A♥ | 7♠ 7♥ 7♦
player Beto
  hand: A♠ JOKER 2♦ K♣ 7♥ 3♠
player Carla
  table: 8♣ 9♣ 10♣
player Dani
  hand: 3♦
"""
    scores = {n: p.score for n, p in by_name(round_of(text, "mas-pagat")).items()}
    # Carla: 8 9 10 are 2 points each on the table (seed 003), nothing in hand: 6.  Dani: a 3 costs 1.
    assert scores == {"Ana": 30, "Beto": -13, "Carla": 6, "Dani": -1}


def test_pagat_round_players_counted_from_the_file() -> None:
    """Without ``players:``, the number of players is the number of players in the file (3 here): 10 + 15."""
    text = """\
player Ana: went out all at once
  table: Q♥ K♥ A♥ | 7♠ 7♥ 7♦
player Beto
  hand: 3♦
player Carla
  hand: 4♦
"""
    assert by_name(round_of(text, "mas-pagat"))["Ana"].score == 25  # seed 003: "15 points in a 3-player game"


def test_pagat_round_stock_ran_out() -> None:
    """Seed 003: the stock ran out, nobody went out: everybody scores melds minus hand, nobody the bonus."""
    text = """\
stock ran out
player Ana
  table: Q♥ K♥ A♥ | 7♠ 7♥ 7♦
player Beto
  table: 4♣ 5♣ 6♣
  hand: K♠
"""
    scores = by_name(round_of(text, "mas-pagat"))
    assert scores["Ana"].score == 10 and scores["Ana"].bonus == 0
    assert scores["Beto"].score == 3 - 2  # 4 5 6 are 1 each on the table, a K costs 2 in hand (seed 003)


def test_mas_round_not_out_subtracts_hand() -> None:
    """rules.md §2: who went out gets melds + 5 per meld; the others melds minus their hand."""
    text = """\
player Ana: went out
  table: 4♣ 5♣ 6♣ | 7♠ 7♥ 7♦ | 9♦ 10♦ J♦
player Beto
  table: 2♥ 3♥ 4♥
  hand: A♠ K♦ JOKER
"""
    scores = by_name(round_of(text, "mas"))
    assert scores["Ana"].score == 80  # 65 + 15 (seed 004)
    assert scores["Beto"].score == (2 + 3 + 4) - (15 + 10 + 25)  # -41
    assert scores["Beto"].meld_points == 9 and scores["Beto"].hand_value == 50


# ---------------------------------------------------------------- errors in round files


def test_illegal_meld_on_a_table_is_an_error_naming_it() -> None:
    """Issue 3 §1: "melds on a table must be legal under the ruleset (an illegal one is an error naming it)".

    A Joker "cannot appear in a pierna" (seed 004), so ``7♠ 7♥ JOKER`` is not a meld in menos.
    """
    text = """\
player Ana: went out
  table: 4♣ 5♣ 6♣ | 7♠ 7♥ JOKER
player Beto
  hand: 3♦
"""
    with pytest.raises(LobaError) as info:
        round_of(text, "menos", source="bad.txt")
    [error] = all_errors(info.value)
    assert "7♠ 7♥ JOKER" in error.message
    assert error.location is not None
    assert (error.location.line, error.location.column) == (2, 21)  # where the meld starts
    assert str(error).startswith("bad.txt:2:21:")


def test_illegal_meld_ace_high_in_menos() -> None:
    """rules.md §1: ace low only, Q-K-A is illegal in menos (the same meld scores 7 in mas-pagat, above)."""
    text = "player Ana: went out\n  table: Q♥ K♥ A♥\n"
    with pytest.raises(LobaError) as info:
        round_of(text, "menos")
    [error] = all_errors(info.value)
    assert "Q♥ K♥ A♥" in error.message
    assert error.location is not None and error.location.line == 2


def test_illegal_meld_in_score_player_is_an_error() -> None:
    rs = load("menos")
    with pytest.raises(LobaError, match="7♠ 7♥ JOKER"):
        score_player(rs, melds=meld_codes(rs, "7♠ 7♥ JOKER"), went_out=True)


def test_cards_of_all_players_must_fit_the_deck() -> None:
    """Issue 3 §1: "the cards of all players together must fit the deck"; two decks hold two 7♠ (seed 004, §5)."""
    text = """\
player Ana: went out
  table: 7♠ 7♥ 7♦
player Beto
  table: 7♠ 7♦ 7♣
player Carla
  hand: 7♠ 7♠ 7♠
"""
    with pytest.raises(LobaError) as info:
        round_of(text, "menos", source="deck.txt")
    errors = all_errors(info.value)
    assert any("7♠" in e.message for e in errors), [str(e) for e in errors]
    located = [e for e in errors if "7♠" in e.message]
    loc = located[0].location
    assert loc is not None and loc.text is not None
    assert loc.text[loc.column - 1:].startswith("7♠")  # the caret is on a 7♠
    assert str(located[0]).startswith(f"deck.txt:{loc.line}:{loc.column}:")


def test_two_copies_across_players_are_fine() -> None:
    """rules.md §5: ``7♠ 7♠`` is two distinct physical cards, and the deck has two of each (seed 004)."""
    text = "player Ana: went out\n  table: 7♠ 7♥ 7♦\nplayer Beto\n  hand: 7♠ 7♥\n"
    assert by_name(round_of(text, "menos"))["Beto"].score == 14


def test_bad_card_token_line_and_column(tmp_path: Path) -> None:
    """style.md: "Columns are 1-based characters"; the bad token ``7X`` is on line 4, column 12."""
    text = """\
player Ana: went out
  table: 4♣ 5♣ 6♣
player Beto
  hand: A♠ 7X K♦
"""
    with pytest.raises(LobaError) as info:
        round_of(text, "menos", source="tok.txt")
    [error] = all_errors(info.value)
    assert error.location is not None
    assert (error.location.line, error.location.column) == (4, 12)
    assert str(error).startswith("tok.txt:4:12:")
    # Through the CLI: exit 2, the location on stderr, nothing on stdout (style.md).
    path = tmp_path / "tok.txt"
    path.write_text(text, encoding="utf-8")
    result = run("score", str(path))
    assert result.exit_code == 2
    assert f"{path}:4:12:" in result.stderr
    assert result.stdout == ""


def test_bad_card_in_a_table_line_column() -> None:
    text = "player Ana: went out\n  table: 4♣ 5♣ 6♣ | 7♠ 7♥ 7Q\n"
    with pytest.raises(LobaError) as info:
        round_of(text, "menos")
    [error] = all_errors(info.value)
    assert error.location is not None
    # "  table: 4♣ 5♣ 6♣ | 7♠ 7♥ 7Q": the 7Q starts at column 27.
    assert (error.location.line, error.location.column) == (2, 27)


def test_bad_card_in_a_bare_hand_column() -> None:
    with pytest.raises(LobaError) as info:
        round_of("A♠ K♦\n2♣ 9Z\n", "menos")
    [error] = all_errors(info.value)
    assert error.location is not None
    assert (error.location.line, error.location.column) == (2, 4)


def test_two_players_going_out_is_an_error(tmp_path: Path) -> None:
    """Seed 004: a round ends when *a* player empties their hand, so only one player goes out."""
    text = """\
player Ana: went out
  table: 4♣ 5♣ 6♣
player Beto: went out
  table: 7♠ 7♥ 7♦
"""
    with pytest.raises(LobaError) as info:
        round_of(text, "menos", source="two.txt")
    [error] = all_errors(info.value)
    assert "Ana" in error.message and "Beto" in error.message
    assert error.location is not None and error.location.line == 3
    path = tmp_path / "two.txt"
    path.write_text(text, encoding="utf-8")
    result = run("score", str(path), "--json")
    assert result.exit_code == 2
    assert f"{path}:3:" in result.stderr
    assert json.loads(result.stdout)["error"]["location"]["line"] == 3  # issue 10: --json errors are JSON


def test_syntax_error_in_a_round_file_cli(tmp_path: Path) -> None:
    path = tmp_path / "syntax.txt"
    path.write_text("player Ana: went out\n  table 4♣ 5♣ 6♣\n", encoding="utf-8")
    result = run("score", str(path))
    assert result.exit_code == 2
    assert f"{path}:2:" in result.stderr


def test_bare_hand_file_may_carry_a_comment() -> None:
    """grammar/sheet.lark documents ``#`` comments in sheets, and ``is_bare_hand`` itself skips them when it
    decides that a file is just a hand; so ``A♠ K♦ 2♣ 9♥  # Dani`` is still that hand: 64 in uruguay (seed 004).
    """
    result = round_of("# Dani's hand, round 3\nA♠ K♦ 2♣ 9♥  # Dani\n", "uruguay")
    assert [p.score for p in result.players] == [64]


PLAYER_COUNTS = [
    # rules.md §1 / seed 004: "2 to 5 players" (seed 003 too); the shipped rulesets say players {min: 2, max: 5}.
    # The count matters to scoring (seed 003: all at once = 5 x players), so an impossible one is an input error.
    ("players-1", "players: 1\nplayer Ana: went out all at once\n  table: Q♥ K♥ A♥\n"),
    ("players-0", "players: 0\nplayer Ana: went out all at once\n  table: Q♥ K♥ A♥\n"),
    ("players-9", "players: 9\nplayer Ana: went out all at once\n  table: Q♥ K♥ A♥\n"),
    ("six-listed", "".join(f"player P{i}\n  hand: {r}♦\n" for i, r in enumerate("345678"))),
    # The file says 3 players but lists 4: which one is the "number of players in the game"?
    ("three-but-four-listed", "players: 3\nplayer Ana: went out all at once\n  table: Q♥ K♥ A♥\n"
     "player Beto\n  hand: 3♦\nplayer Carla\n  hand: 4♦\nplayer Dani\n  hand: 5♦\n"),
]


@pytest.mark.parametrize(("what", "text"), PLAYER_COUNTS, ids=[c[0] for c in PLAYER_COUNTS])
def test_impossible_number_of_players_is_an_error(what: str, text: str) -> None:
    with pytest.raises(LobaError):
        round_of(text, "mas-pagat")


# ---------------------------------------------------------------- bazas: the opening minimum


def test_opening_reaches_50() -> None:
    """rules.md §4 (bazas): first lay-down = everything of the first turn, §1's values, a Joker counts 25.

    ``A♣ 2♣ JOKER`` = 15 + 2 + 25 = 42 and ``7♠ 7♥ 7♦`` = 21: 63 >= 50 (seed 004's example minimum).
    """
    rs = load("bazas")
    verdict = opening(rs, meld_codes(rs, "A♣ 2♣ JOKER | 7♠ 7♥ 7♦"))
    assert verdict.ok
    assert verdict.value == 63
    assert verdict.needed == 50


def test_opening_below_50() -> None:
    """``A♣ 2♣ 3♣`` = 15 + 2 + 3 = 20 < 50."""
    rs = load("bazas")
    verdict = opening(rs, meld_codes(rs, "A♣ 2♣ 3♣"))
    assert not verdict.ok
    assert verdict.value == 20


def test_opening_counts_the_whole_first_turn() -> None:
    """rules.md §4: all melds of the first turn count together: 24 + 30 = 54 (neither reaches 50 alone)."""
    rs = load("bazas")
    assert opening(rs, meld_codes(rs, "7♠ 8♠ 9♠ | 10♣ 10♥ 10♦")).ok


def test_cli_check_opening(tmp_path: Path) -> None:
    ok = run("check", "A♣ 2♣ JOKER | 7♠ 7♥ 7♦", "--opening", "--ruleset", "bazas")
    assert ok.exit_code == 0, (ok.stdout, ok.stderr)
    short = run("check", "A♣ 2♣ 3♣", "--opening", "-r", "bazas")
    assert short.exit_code == 1, (short.stdout, short.stderr)  # a finding (style.md)
    doc = json.loads(run("check", "A♣ 2♣ JOKER | 7♠ 7♥ 7♦", "--opening", "-r", "bazas", "--json").stdout)
    assert doc["ok"] is True and doc["value"] == 63


# ---------------------------------------------------------------- contrato


CONTRACT_CASES = [
    # Round 1: "2 piernas"; round 2: "pierna + escalera" (rules.md §4, Carioca's list).
    (1, "7♠ 7♥ 7♦ | 9♣ 9♥ 9♦", True),
    (1, "7♠ 7♥ 7♦ | 4♣ 5♣ 6♣", False),
    (2, "7♠ 7♥ 7♦ | 4♣ 5♣ 6♣", True),
    (2, "7♠ 7♥ 7♦ | 9♣ 9♥ 9♦", False),
]


@pytest.mark.parametrize(("round_number", "laid", "ok"), CONTRACT_CASES)
def test_contract(round_number: int, laid: str, ok: bool) -> None:
    rs = load("contrato")
    assert contract(rs, round_number, meld_codes(rs, laid)).ok is ok


@pytest.mark.parametrize(("round_number", "laid", "ok"), CONTRACT_CASES)
def test_cli_check_contract(round_number: int, laid: str, ok: bool) -> None:
    result = run("check", laid, "--contract", str(round_number), "--ruleset", "contrato")
    assert result.exit_code == (0 if ok else 1), (result.stdout, result.stderr)


def test_contract_round_3_two_escaleras() -> None:
    """rules.md §4: round 3 is "2 escaleras"."""
    rs = load("contrato")
    assert contract(rs, 3, meld_codes(rs, "4♣ 5♣ 6♣ | 9♥ 10♥ J♥")).ok
    assert not contract(rs, 3, meld_codes(rs, "4♣ 5♣ 6♣ | 9♣ 9♥ 9♦")).ok
