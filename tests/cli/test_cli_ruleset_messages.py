"""What a new user meets at the table, second part (issue 10): each test is one item of the issue and
failed before its change.

Expected values come from docs/rules.md (cited per test) or from the issue's own wording of the wanted
behaviour; none is copied from the code's output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run

from loba_dsl.dsl.parser import parse_cards
from loba_dsl.dsl.printer import print_cards
from loba_dsl.errors import LobaError
from loba_dsl.melds.check import check
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset


def house(body: str, name: str = "casa-garcia", extends: str = "menos") -> Ruleset:
    return loads(f"name: {name}\ndescription: a house\nextends: {extends}\n{body}", source="house.yaml")


def errors_of(body: str, extends: str = "menos") -> str:
    with pytest.raises(LobaError) as caught:
        house(body, extends=extends)
    return caught.value.render()


# ---------------------------------------------------------------- one card as a wild (issue 10, rules.md Appendix A)


@pytest.mark.parametrize("spelling", ["JOKER, J♠", "JOKER J♠", "JOKER, Js", "JOKER, J♤"])
def test_one_particular_card_is_wild(spelling: str) -> None:
    # Issue 10: "a specific card as wild" is a house rule people play; rules.md §5 writes the jack of
    # spades J♠, Js or J♤.  The Jokers stay wild (§1) and no other jack becomes wild.
    rs = house(f'wilds: {{cards: "{spelling}"}}\n')
    assert sorted(rs.deck.names_of(rs.wilds.cards)) == sorted(["JOKER", "J♠"])


def test_the_wild_jack_stands_in_an_escalera() -> None:
    # rules.md §1: an escalera is one suit in sequence with at most one wild; the J♠ wild stands for J♥.
    rs = house('wilds: {cards: "JOKER, J♠"}\n')
    assert check("9♥ 10♥ J♠ Q♥", rs).valid
    assert not check("9♥ 10♥ J♣ Q♥", rs).valid  # J♣ is not wild
    assert not check("9♥ 10♥ J♠ Q♥", load("menos")).valid  # without the house rule: two suits


def test_the_wild_jack_may_still_be_a_natural_jack() -> None:
    # rules.md §1 "a wild as itself": wilds.natural_too is true in menos, so J♠ J♥ J♦ is a pierna.
    rs = house('wilds: {cards: "JOKER, J♠"}\n')
    assert check("J♠ J♥ J♦", rs).valid


def test_a_wild_card_the_deck_does_not_have_is_located() -> None:
    text = errors_of('wilds: {cards: "JOKER, J♣♣"}\n')
    assert "house.yaml:4:" in text and "'J♣♣'" in text


def test_one_card_in_a_value_table_says_how_to_write_it() -> None:
    # rules.md §5 (rule text): in a value table one card is a rank and a suit.
    text = errors_of("values:\n  penalty: |\n    J♠ -> 50\n    _ -> face\n")
    assert "'J♠' is one card" in text
    assert "J and ♠" in text


def test_card_lists_print_as_they_read() -> None:
    words = parse_cards("JOKER, J♠, 10h, ♥")
    assert [w.text for w in words] == ["JOKER", "J♠", "10h", "♥"]
    assert [w.text for w in parse_cards(print_cards(words))] == ["JOKER", "J♠", "10h", "♥"]


# ---------------------------------------------------------------- suits as cards are written (issue 10)


@pytest.mark.parametrize("suit", ["hearts", "♥", "♡", "h", "♥\ufe0f"])
def test_a_suit_is_written_as_cards_write_it(suit: str) -> None:
    # rules.md §5: hearts is written ♥, ♡ or h; a value table may name it so (issue 10).
    # A heart costs 1, everything else its face value (rules.md §1's other values are overridden here).
    rs = house(f"values:\n  penalty: |\n    JOKER -> 25\n    {suit} -> 1\n    _ -> face\n")
    deck = rs.deck
    hearts = deck.suit_index["hearts"]
    for rank, r in enumerate(deck.ranks):
        for s in range(deck.n_suits):
            expected = 1 if s == hearts else r.face
            assert rs.hand_values["penalty"][deck.code(rank, s)] == expected, deck.name(deck.code(rank, s))


def test_a_suit_letter_of_the_spanish_deck() -> None:
    # rules.md §4 chinchon: oros, copas, espadas, bastos written o c e b; C is the caballo (a rank).
    rs = house("values:\n  puntos: |\n    C -> 20\n    c -> 5\n    _ -> face\n", extends="chinchon")
    deck = rs.deck
    caballo, copas = deck.rank_index["C"], deck.suit_index["copas"]
    assert rs.hand_values["puntos"][deck.code(caballo, copas)] == 20
    assert rs.hand_values["puntos"][deck.code(0, copas)] == 5
    assert rs.hand_values["puntos"][deck.code(0, deck.suit_index["oros"])] == 1


def test_a_spanish_card_as_wild() -> None:
    # rules.md §5: a Spanish card is its rank then its suit letter (1o, Cc).
    rs = house('wilds: {cards: "1o"}\n', extends="chinchon")
    assert rs.deck.names_of(rs.wilds.cards) == ["1o"]


# ---------------------------------------------------------------- Spanish suit names with --lang es (issue 10)


def test_spanish_suit_names_with_lang_es() -> None:
    # Issue 10: "suit names picas/corazones/diamantes/tréboles with --lang es"; rules.md §5 row
    # "Spanish suit names".  rules.md §1: three 7s of different suits are a pierna, 5-6-7 of one suit
    # an escalera.
    rs = load("menos")
    assert check("7picas 7corazones 7diamantes", rs, lang="es").card_names() == ["7♠", "7♥", "7♦"]
    assert check("5tréboles 6treboles 7TRÉBOLES", rs, lang="es").kind == "escalera"


def test_spanish_suit_names_need_the_language() -> None:
    # rules.md §5: a language's words are never guessed; the error says which language has them.
    with pytest.raises(LobaError) as caught:
        check("7picas 7♥ 7♦", load("menos"))
    assert "'picas' is a suit only with --lang es" in caught.value.render()


def test_spanish_suit_names_on_the_command_line() -> None:
    from typer.testing import CliRunner

    from loba_cli.main import app

    result = CliRunner().invoke(app, ["check", "7picas", "7corazones", "7diamantes", "--lang", "ES", "--json"])
    assert result.exit_code == 0, result.output
    assert '"valid": true' in result.stdout


# ---------------------------------------------------------------- ruleset errors in one pass (issue 10)


def test_schema_and_dsl_errors_are_reported_together() -> None:
    # Issue 10: "Ruleset errors reported in one pass (schema, extends and DSL together)".
    text = errors_of("turn: {lay_of: none}\nmelds:\n  escalera:\n    shape: run 3..13, ace low, wild <= 1\n")
    assert "house.yaml:4:" in text and "unknown key 'lay_of'" in text  # the schema's
    assert "house.yaml:7:" in text and "'wild'" in text  # the DSL's, in the same report


def test_schema_and_extends_errors_are_reported_together() -> None:
    with pytest.raises(LobaError) as caught:
        loads("name: casa\ndescription: x\nextends: menoss\nturn: {lay_of: none}\n", source="house.yaml")
    text = caught.value.render()
    assert "unknown key 'lay_of'" in text
    assert "'menoss'" in text and "did you mean 'menos'?" in text


def test_a_name_pattern_is_explained_in_words() -> None:
    # Issue 10: the schema's hint in words, "use lower-case letters, digits and hyphens, e.g. casa-garcia".
    with pytest.raises(LobaError) as caught:
        house("", name="Casa García")
    text = caught.value.render()
    assert "lower-case letters, digits and hyphens" in text and "casa-garcia" in text
    assert "[a-z" not in text  # no regular expression


def test_a_meld_name_pattern_is_explained_in_words() -> None:
    text = errors_of("melds:\n  Mi Escalera:\n    shape: run 3+\n")
    assert "'Mi Escalera'" in text and "house.yaml:5:3" in text
    assert "letters, digits and _" in text and "Additional properties" not in text


def test_an_error_about_a_defaulted_key_says_it_is_a_default() -> None:
    # Issue 10: "An error about a defaulted key says it is a default and how to change it".  menos sets
    # no players.default, so it is the schema's 4 (rules.md "Settings that no source fixes": 4), outside 2..3.
    text = errors_of("players: {min: 2, max: 3}\n")
    assert "players.default is 4 by default" in text
    assert "set players.default in house.yaml" in text


# ---------------------------------------------------------------- a value-table line that can never match


SHADOWED = "values:\n  penalty: |\n    JOKER -> 25\n    _ -> face\n    A -> 15\n"


def test_a_line_after_a_catch_all_is_a_warning_not_an_error() -> None:
    # rules.md §3 (values: first match wins): after `_ -> face`, `A -> 15` is never reached.
    rs = house(SHADOWED)
    assert len(rs.warnings) == 1
    warning = rs.warnings[0]
    assert warning.location is not None and (warning.location.source, warning.location.line) == ("house.yaml", 8)
    assert "line 7" in warning.message
    ace = rs.deck.code(rs.deck.rank_index["A"], 0)
    assert rs.hand_values["penalty"][ace] == 1  # the ace's face value: the shadowed 15 is not used


def test_a_line_narrower_than_an_earlier_one_is_a_warning() -> None:
    # `K Q J -> 10` catches every K; `K -> 13` after it is never reached, `A -> 15` is.
    rs = house("values:\n  penalty: |\n    JOKER -> 25\n    K Q J -> 10\n    K -> 13\n    A -> 15\n    _ -> face\n")
    assert [w.location.line for w in rs.warnings if w.location] == [8]


def test_the_shipped_rulesets_have_no_unreachable_lines() -> None:
    from loba_dsl.rules.sources import shipped_names

    for name in shipped_names():
        assert load(name).warnings == (), name


def test_validate_prints_the_warning_and_exits_0(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from loba_cli.main import app

    path = tmp_path / "casa-garcia.yaml"
    path.write_text("name: casa-garcia\ndescription: a house\nextends: menos\n" + SHADOWED, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "warning:" in result.stderr and "can never match" in result.stderr
    assert "valid ruleset 'casa-garcia'" in result.stdout


# ---------------------------------------------------------------- the command line (issue 10)


def cli(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Any:
    from typer.testing import CliRunner

    from loba_cli.main import app

    result = CliRunner().invoke(app, list(args), input=input, env=env)
    assert "Traceback" not in result.output, result.output
    return result


def test_validate_reads_a_ruleset_from_stdin() -> None:
    # Issue 10: "`-` wherever a file is accepted (rulesets too)".
    good = cli("validate", "-", input="name: casa-garcia\ndescription: a house\nextends: menos\n")
    assert good.exit_code == 0, good.output
    assert "valid ruleset 'casa-garcia'" in good.stdout
    bad = cli("validate", "-", input="name: casa-garcia\ndescription: a house\nextends: menos\nturn: {lay_of: x}\n")
    assert bad.exit_code == 1
    assert "<stdin>:4:" in bad.stderr and "lay_of" in bad.stderr


def test_a_ruleset_from_stdin_for_a_command() -> None:
    # rules.md Appendix A: a house that wilds the jack of spades; J♠ stands for J♥ (rules.md §1 escalera).
    house_text = 'name: casa-garcia\ndescription: a house\nextends: menos\nwilds: {cards: "JOKER, J♠"}\n'
    result = cli("check", "9♥ 10♥ J♠ Q♥", "--ruleset", "-", "--json", input=house_text)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["valid"] is True


@pytest.mark.parametrize("args", [["check", "A♣ 2♣ 3♣", "--bogus", "--json"], ["validate", "--json"],
                                  ["score", "--json"]])
def test_usage_errors_are_json_with_json(args: list[str]) -> None:
    # Issue 10: "With --json, every command and every error prints JSON on stdout", in the one form
    # {"error": {"code", "message", "location"}}; Click's usage errors too, exit 2.
    result = cli(*args)
    assert result.exit_code == 2
    out = json.loads(result.stdout)
    assert out["error"]["code"] == "usage"
    assert out["error"]["message"]
    assert "location" in out["error"]
    assert "Usage:" in result.stderr  # people still read the usage on stderr


def test_usage_errors_without_json_print_no_json() -> None:
    result = cli("check", "--bogus")
    assert result.exit_code == 2
    assert result.stdout == ""


@pytest.mark.parametrize("columns", [40, 60])
@pytest.mark.parametrize("command", ["check", "arrange", "validate"])
def test_help_fits_the_terminal(command: str, columns: int) -> None:
    # Issue 10: "help text that fits the terminal width" (Click alone never goes below 50 columns).
    result = cli(command, "--help", env={"COLUMNS": str(columns)})
    assert result.exit_code == 0
    too_long = [line for line in result.stdout.splitlines() if len(line) > columns]
    assert too_long == []


@pytest.mark.parametrize("wilds", ["K", "null"])
def test_the_jokers_of_a_house_that_names_other_wilds_are_still_wild(tmp_path: Path, wilds: str) -> None:
    # A Joker has no rank or suit (rules.md §1: "a Joker has none"), so it can be played only as a wild: a
    # house on Más (Menos's deck of four Jokers, rules.md §2) that lists other wilds, or none, still has wild
    # Jokers (docs/rules.md §5), and validate warns that the list leaves them out.  A♣ 2♣ JOKER is then
    # Menos's A-2-3 escalera, and Más scores its cards positively (rules.md §2): Ace 15 + 2 + Joker 25 = 42.
    path = tmp_path / "h.yaml"
    path.write_text(f"name: h\nextends: mas\nwilds: {{cards: {wilds}}}\n", encoding="utf-8")
    result = run("check", "A♣ 2♣ JOKER", "--ruleset", str(path), "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert (answer["kind"], answer["reading"], answer["points"]) == ("escalera", ["A♣", "2♣", "3♣"], 42)
    rs = loads(path.read_text(encoding="utf-8"), source=str(path))
    assert rs.wilds.cards >= {rs.deck.joker_code}
    (warning,) = rs.warnings
    assert warning.location is not None and (warning.location.line, warning.location.column) == (3, 16)
    assert "Jokers are wild" in warning.message and "JOKER" in (warning.hint or "")
    checked = run("validate", str(path))
    assert checked.exit_code == 0 and f"{path}:3:16: warning: " in checked.stderr
