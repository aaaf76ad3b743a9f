"""Openings and contracts are defined once (issue 8 §5): ``loba check --opening/--contract`` and the solver agree.

Every expected value below comes from the rules (rules.md §1 for the meld shapes and the values in hand,
§4 for bazas and contrato), never from the code's own output.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from loba_cli.main import app
from loba_dsl.errors import InputError, LobaError
from loba_dsl.rules.loading import load, load_file
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring import requirements
from loba_dsl.solver.api import Solver

CONTRACTS = 8
"""rules.md §4 contrato: Carioca's deal list has eight rounds."""


def lay_down(rs: Ruleset, text: str) -> tuple[tuple[int, ...], ...]:
    return requirements.parse_lay_down(rs, text)


def hand(rs: Ruleset, text: str) -> tuple[int, ...]:
    return tuple(c for meld in lay_down(rs, text) for c in meld)


def raised(fn: object) -> tuple[type[BaseException], str]:
    assert callable(fn)
    with pytest.raises(LobaError) as info:
        fn()
    return type(info.value), info.value.message


def house(tmp_path: Path, body: str) -> Ruleset:
    path = tmp_path / "house.yaml"
    path.write_text(body, encoding="utf-8")
    return load_file(path)


# ---------------------------------------------------------------- contracts: every round number

# rules.md §4 contrato, Carioca's list in order, each with one lay-down that is exactly it (§1 shapes:
# a pierna is 3 of a rank in different suits, an escalera 3+ in suit in sequence, ace low).
ROUNDS = {
    1: "7♠ 7♥ 7♦ | 9♣ 9♥ 9♦",                                         # 2 piernas
    2: "7♠ 7♥ 7♦ | 3♣ 4♣ 5♣",                                         # pierna + escalera
    3: "A♣ 2♣ 3♣ | 8♥ 9♥ 10♥",                                        # 2 escaleras
    4: "7♠ 7♥ 7♦ | 9♣ 9♥ 9♦ | K♠ K♥ K♣",                              # 3 piernas
    5: "7♠ 7♥ 7♦ | 9♣ 9♥ 9♦ | 3♣ 4♣ 5♣",                              # 2 piernas + escalera
    6: "7♠ 7♥ 7♦ | 3♣ 4♣ 5♣ | 8♥ 9♥ 10♥",                             # pierna + 2 escaleras
    7: "7♠ 7♥ 7♦ | 9♣ 9♥ 9♦ | K♠ K♥ K♣ | 4♠ 4♥ 4♦",                   # 4 piernas
    8: "A♣ 2♣ 3♣ | 8♥ 9♥ 10♥ | 5♠ 6♠ 7♠",                             # 3 escaleras
}


@pytest.mark.parametrize("round_number", [-1, 0, CONTRACTS + 1, CONTRACTS + 2, 100])
def test_a_round_outside_the_list_is_the_same_error_everywhere(round_number: int) -> None:
    rs = load("contrato")
    cards = hand(rs, ROUNDS[1])
    solver = raised(lambda: Solver(rs).contract(cards, round_number))
    checker = raised(lambda: requirements.contract(rs, round_number, lay_down(rs, ROUNDS[1])))
    assert solver == checker
    assert solver[0] is InputError
    assert f"rounds 1 to {CONTRACTS}, not {round_number}" in solver[1]


@pytest.mark.parametrize("round_number", range(1, CONTRACTS + 1))
def test_every_listed_round_agrees(round_number: int) -> None:
    rs = load("contrato")
    solver = Solver(rs)
    laid = lay_down(rs, ROUNDS[round_number])
    assert requirements.contract(rs, round_number, laid).ok
    found = solver.contract(hand(rs, ROUNDS[round_number]), round_number)
    assert found is not None
    assert requirements.contract(rs, round_number, [m.cards for m in found.melds]).ok
    # Every other round: where this lay-down fulfils it the solver finds one, and whatever it finds passes the check.
    for other in range(1, CONTRACTS + 1):
        other_found = solver.contract(hand(rs, ROUNDS[round_number]), other)
        if requirements.contract(rs, other, laid).ok:
            assert other_found is not None
        if other_found is not None:
            assert requirements.contract(rs, other, [m.cards for m in other_found.melds]).ok


def test_round_one_needs_two_piernas() -> None:
    # rules.md §4: round 1 is "2 piernas"; one pierna and an escalera is round 2's contract, not round 1's.
    rs = load("contrato")
    cards = hand(rs, ROUNDS[2])
    assert Solver(rs).contract(cards, 1) is None
    assert not requirements.contract(rs, 1, lay_down(rs, ROUNDS[2])).ok
    assert Solver(rs).contract(cards, 2) is not None


@pytest.mark.parametrize("round_number", [-1, 0, 1, 2])
def test_no_contracts_is_the_same_error_everywhere(round_number: int) -> None:
    rs = load("menos")  # rules.md §1: Loba de Menos has no contracts
    cards = hand(rs, ROUNDS[1])
    solver = raised(lambda: Solver(rs).contract(cards, round_number))
    assert solver == raised(lambda: requirements.contract(rs, round_number, lay_down(rs, ROUNDS[1])))
    assert solver[0] is InputError and "no contracts" in solver[1]


@pytest.mark.parametrize("round_number", [-1, 0, 1, 2])
def test_an_empty_contract_list_is_a_clear_error(tmp_path: Path, round_number: int) -> None:
    # The schema's default list of contracts is empty: no round has a contract until the ruleset lists them.
    rs = house(tmp_path, "name: house\ndescription: contracts, none listed\nextends: menos\n"
                         "requirements:\n  contracts:\n    at_once: true\n")
    cards = hand(rs, ROUNDS[1])
    solver = raised(lambda: Solver(rs).contract(cards, round_number))
    assert solver == raised(lambda: requirements.contract(rs, round_number, lay_down(rs, ROUNDS[1])))
    assert solver[0] is InputError and "lists no contracts" in solver[1]


@pytest.mark.parametrize("round_number", ["0", "9"])
def test_cli_says_the_same(round_number: str) -> None:
    rs = load("contrato")
    expected = raised(lambda: Solver(rs).contract(hand(rs, ROUNDS[1]), int(round_number)))[1]
    result = CliRunner().invoke(app, ["check", ROUNDS[1], "--contract", round_number, "-r", "contrato"])
    assert result.exit_code == 2
    assert expected in result.stderr


# ---------------------------------------------------------------- openings (bazas)

# rules.md §4 bazas: the first lay-down must be worth at least 50, everything put down in that first
# turn counted together, with §1's values (Joker 25, Ace 15, J/Q/K 10, 2-10 face value).
OPENINGS = [
    ("A♣ 2♣ JOKER | 7♠ 7♥ 7♦", 15 + 2 + 25 + 21, True),
    ("A♣ 2♣ 3♣ | 4♦ 5♦ 6♦", 20 + 15, False),
    ("K♠ K♥ K♦ | 9♣ 10♣ J♣", 30 + 29, True),
    ("K♠ K♥ K♦ | 5♠ 5♥ 5♦ 5♣", 30 + 20, True),   # exactly the minimum reaches it
    ("K♠ K♥ K♦ | 4♠ 4♥ 4♦ 4♣", 30 + 16, False),
    ("K♠ K♥ K♦", 30, False),
]


@pytest.mark.parametrize(("laid", "value", "ok"), OPENINGS)
def test_best_opening_agrees_with_the_check(laid: str, value: int, ok: bool) -> None:
    rs = load("bazas")
    verdict = requirements.opening(rs, lay_down(rs, laid))
    assert (verdict.value, verdict.ok) == (value, ok)
    found = Solver(rs).best_opening(hand(rs, laid))
    assert (found is not None) is ok
    if found is not None:
        again = requirements.opening(rs, [m.cards for m in found.melds])
        assert again.ok and again.value is not None and again.value >= 50


@pytest.mark.parametrize(("scope", "wild_value", "ok"), [
    # J♣ Q♣ K♣ JOKER is 10-J-Q-K (ace low, rules.md §1): 10+10+10 and the Joker 25 (own) or 10 (represented).
    ("meld", "own", True),
    ("meld", "represented", False),
    ("first_turn", "represented", True),  # 40, and the pierna of 4s (12) counts with it: 52
])
def test_the_opening_settings_are_read_once(tmp_path: Path, scope: str, wild_value: str, ok: bool) -> None:
    rs = house(tmp_path, f"name: house\ndescription: bazas variant\nextends: bazas\nrequirements:\n  opening:\n"
                         f"    minimum: 50\n    scope: {scope}\n    table: penalty\n    wild_value: {wild_value}\n")
    laid = "J♣ Q♣ K♣ JOKER | 4♠ 4♥ 4♦"  # 55 or 40 as one meld; the 4s add 12 when the first turn counts together
    verdict = requirements.opening(rs, lay_down(rs, laid))
    expected = {("meld", "own"): 55, ("meld", "represented"): 40, ("first_turn", "represented"): 52}
    assert (verdict.value, verdict.ok) == (expected[scope, wild_value], ok)
    found = Solver(rs).best_opening(hand(rs, laid))
    assert (found is not None) is ok
    if found is not None:
        assert requirements.opening(rs, [m.cards for m in found.melds]).ok


def test_no_opening_is_the_same_error_everywhere() -> None:
    rs = load("menos")  # rules.md §1: Loba de Menos has no opening minimum
    laid = OPENINGS[0][0]
    solver = raised(lambda: Solver(rs).best_opening(hand(rs, laid)))
    assert solver == raised(lambda: requirements.opening(rs, lay_down(rs, laid)))
    assert solver[0] is InputError


# ---------------------------------------------------------------- lay-downs

def test_a_lay_down_keeps_columns_and_checks_copies_across_melds() -> None:
    # rules.md §1: two decks, so a card at most twice; the third 7♠ is in the third meld, at column 17.
    rs = load("menos")
    assert lay_down(rs, "7♠ 7♥ 7♦ | | 9♣ 9♥ 9♦") == lay_down(rs, "7♠ 7♥ 7♦ | 9♣ 9♥ 9♦")
    assert len(lay_down(rs, "7♠ 7♥ 7♦ | 9♣ 9♥ 9♦")) == 2
    with pytest.raises(LobaError) as info:
        requirements.parse_lay_down(rs, "7♠ 7♥ | 7♠ 7♦ | 7♠ 7♣")
    assert "<cards>:1:17" in str(info.value)
    with pytest.raises(LobaError) as info:
        requirements.parse_lay_down(rs, "7♠ 7♥ | 7X")
    assert "<cards>:1:9" in str(info.value)
