"""The public facade (issue 8, item 7), used as an app builder would: ``import loba_dsl`` and nothing else.

Every expected value comes from docs/rules.md (the rules of Loba de Menos, §1, and of Uruguayan Loba, §4).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import loba_dsl as loba


def test_every_public_name_is_there_and_typed() -> None:
    for name in loba.__all__:
        assert getattr(loba, name) is not None, name
    assert (Path(loba.__file__).parent / "py.typed").is_file()
    with pytest.raises(AttributeError):
        _ = loba.no_such_name  # type: ignore[attr-defined]


def test_importing_the_facade_loads_no_engine() -> None:
    # The names are imported on first use, so `import loba_dsl` costs a command nothing.
    code = "import sys, loba_dsl; print(sorted(m for m in sys.modules if m.startswith('loba_dsl.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_load_and_check() -> None:
    rs = loba.load("menos")
    # §1: an escalera is 3+ cards of one suit in order, ace low, with at most one Joker.
    result = loba.check("A♣ 2♣ JOKER", rs)
    assert isinstance(result, loba.CheckResult) and result.valid and result.kind == "escalera"
    # §1: a pierna never has two cards of one suit.
    assert not loba.check("7♠ 7♠ 7♦", rs).valid
    assert loba.check("7♠ 7♥ 7♦", rs).kind == "pierna"
    # The same check from cards already read.
    assert loba.check(rs.notation().parse("7♠ 7♥ 7♦"), rs).kind == "pierna"


def test_loads_an_uploaded_house_ruleset_that_extends_a_shipped_one() -> None:
    text = "name: casa\nextends: menos\nvalues:\n  penalty: |\n    JOKER -> 50\n    A -> 15\n    J Q K -> 10\n" \
           "    _ -> face\n"
    house = loba.loads(text, source="casa.yaml")
    assert house.name == "casa"
    # The house doubles the Joker's penalty; everything else is §1's.
    score = loba.score_round(house, [loba.PlayerRound.from_text(house, "Ana", hand="JOKER K♦")],
                             loba.RoundFacts(players=4))
    assert score.players[0].score == 60
    with pytest.raises(loba.LobaError) as err:
        loba.loads("name: casa\nextends: other.yaml\n", source="casa.yaml")
    assert "other.yaml" in str(err.value)


def test_score_round_from_domain_objects() -> None:
    rs = loba.load("menos")
    ana = loba.PlayerRound.from_text(rs, "Ana", melds="7♠ 7♥ 7♦ | 4♣ 5♣ 6♣", hand="", went_out=True)
    beto = loba.PlayerRound.from_text(rs, "Beto", hand="K♦ 9♣ JOKER")
    round_score = loba.score_round(rs, [ana, beto], loba.RoundFacts(players=2))
    scores = {p.name: p.score for p in round_score.players}
    # §1: the player who went out scores 0; the others the penalty of their hand: K 10 + 9 + Joker 25.
    assert scores == {"Ana": 0, "Beto": 44}
    assert round_score.to_dict()["schema_version"] == 1


def test_play_match_eliminates_at_101_and_re_enters_at_the_highest_total() -> None:
    rs = loba.load("menos")
    points: list[loba.MatchRound | loba.Reentry] = [
        loba.MatchRound((loba.PlayerPoints("Ana", 60), loba.PlayerPoints("Beto", 20), loba.PlayerPoints("Carla", 30))),
        loba.MatchRound((loba.PlayerPoints("Ana", 50), loba.PlayerPoints("Beto", 10), loba.PlayerPoints("Carla", 40))),
        loba.Reentry("Ana"),
    ]
    result = loba.play_match(rs, points)
    totals = {s.name: s.total for s in result.players}
    # §1: Ana reaches 110 (>= 101) and is eliminated; re-entering, she takes the highest total among the
    # players still in (Carla's 70).
    assert totals == {"Ana": 70, "Beto": 30, "Carla": 70}
    assert next(s for s in result.players if s.name == "Ana").reentries == 1


def test_solver_arranges_text_or_codes() -> None:
    rs = loba.load("menos")
    solver = loba.Solver(rs)
    # §1: melds do not score in Loba de Menos; what is left in hand is the penalty: K♦ 10.
    by_text = solver.arrange("7♠ 7♥ 7♦ K♦")
    by_codes = solver.arrange(rs.notation().parse("7♠ 7♥ 7♦ K♦").cards)
    assert isinstance(by_text, loba.Arrangement)
    assert by_text.score == by_codes.score == 10
    assert len(by_text.melds) == 1


def test_diff_of_two_loaded_rulesets() -> None:
    menos, uruguay = loba.load("menos"), loba.load("uruguay")
    assert loba.diff(menos, menos).rules.same
    report = loba.diff(menos, uruguay, witnesses=False)
    assert isinstance(report, loba.DiffReport) and not report.rules.same
    # §4: Uruguayan Loba changes the wild cards (2s are wild) and the penalty table.
    changed = {c.key[0] for c in report.rules.changes}
    assert {"wilds", "values"} <= changed


def test_every_error_lists_every_problem_with_its_place() -> None:
    rs = loba.load("menos")
    with pytest.raises(loba.LobaError) as err:
        loba.check("A♣ Xx 2♣ Yyy", rs)
    problems = err.value.to_dict()["errors"]
    assert isinstance(problems, list)
    assert [(p["line"], p["column"], p["length"]) for p in problems] == [(1, 4, 2), (1, 10, 3)]
    assert all(p["file"] == "<input>" for p in problems)


def test_the_referee_from_the_facade() -> None:
    rs = loba.load("menos")
    table = loba.Table.deal(rs, players=["Ana", "Beto", "Carla"], dealer="Carla", seed=7)
    # §1: nine cards each, the dealer's right plays first; play passes counter-clockwise.  Seated clockwise
    # Ana, Beto, Carla: Carla's right is Beto, who draws first.
    assert table.to_move == "Beto" and str(table.phase) == "draw"
    view = table.view("Beto")
    assert isinstance(view, loba.PlayerView) and len(view.hand) == 9 and view.hand_sizes == (9, 9, 9)
    assert isinstance(view.to_dict(), dict)
    # The move notation: a stock draw, then Beto's discard of a card he holds, named as players say it.
    table.play(loba.parse_move("Beto draws stock", rs, players=table.players))
    card = rs.deck.name(table.view("Beto").hand[0])
    assert loba.format_move(loba.parse_move(f"Beto discards {card}", rs), rs) == f"Beto discards {card}"


def test_one_argument_order_the_ruleset_first_and_the_old_order_kept() -> None:
    # The facade's one order is the ruleset first, as score_round and play_match take it; ruleset= works as a
    # keyword everywhere, and the functions that took their text first still do.  rules.md §1: A♣ 2♣ JOKER is
    # an escalera; Beto's JOKER A♠ K♦ 7♣ in hand costs 25 + 15 + 10 + 7 = 57; 7♠ 7♥ 7♦ is a pierna.
    rs = loba.load("menos")
    for result in (loba.check(rs, "A♣ 2♣ JOKER"), loba.check("A♣ 2♣ JOKER", rs),
                   loba.check("A♣ 2♣ JOKER", ruleset=rs), loba.check(ruleset=rs, text="A♣ 2♣ JOKER")):
        assert result.kind == "escalera"
    sheet = "player Ana: went out\n  table: 7♠ 7♥ 7♦ | 4♣ 5♣ 6♣\nplayer Beto\n  hand: JOKER A♠ K♦ 7♣\n"
    for read in (loba.read_round(rs, sheet), loba.read_round(sheet, rs), loba.read_round(sheet, ruleset=rs)):
        for scored in (loba.score_round_sheet(rs, read), loba.score_round_sheet(read, rs),
                       loba.score_round_sheet(read, ruleset=rs)):
            assert [p.score for p in scored.players] == [0, 57]
    match = "players: Ana, Beto\nround 1\n  Ana: out\n  Beto: 34\n"
    for read_m in (loba.read_match(rs, match), loba.read_match(match, rs)):
        assert loba.play_match_sheet(rs, read_m).to_dict() == loba.play_match_sheet(read_m, rs).to_dict()
    lines = ["7♠ 7♥ 7♦", "# a comment", "A♣ 2♣ JOKER"]
    kinds = [[r.kind for r in loba.check_lines(*args) if isinstance(r, loba.CheckResult)]
             for args in ((rs, lines), (lines, rs))]
    assert kinds == [["pierna", "escalera"]] * 2
    assert loba.parse_move(rs, "Beto draws stock") == loba.parse_move("Beto draws stock", rs) == loba.parse_move(
        "Beto draws stock", ruleset=rs)
    assert loba.score_round(ruleset=rs, players=[loba.PlayerRound("Ana", (), (), True)],
                            facts=loba.RoundFacts(players=2)).players[0].score == 0
    with pytest.raises(TypeError):
        loba.check(rs, rs)  # type: ignore[call-overload]
