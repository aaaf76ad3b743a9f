"""A house writes its own Loba as a YAML file, with no code (design.md; issue 2: "a house ruleset
written from scratch in a test (for example: ace high or low, up to two non-adjacent jokers per
escalera) that loads, checks melds correctly, and is rejected with a line number when it has a typo").

The house's rules are the ones written in HOUSE below; every expected verdict and score follows from
them (and from rules.md §1 for what the house keeps of Menos: the French deck twice with 4 Jokers, the
pierna).  Also: ``extends`` chains with provenance and cycle detection (issue 2, style.md "YAML
rulesets"), and mas-pagat's role-dependent table read from YAML (rules.md §3, seed 003).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loba_dsl.errors import LobaError, LobaErrors
from loba_dsl.melds.check import CheckResult, check
from loba_dsl.rules.documents import shipped_dir
from loba_dsl.rules.loading import load, load_file
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.rounds import score_player

# The house: the French deck of rules.md §1 (2 × 52 + 4 Jokers), written out in full (no extends).
# Escalera: 3–13 in suit, the ace high or low but never both and no wrap, at most two Jokers, never
# side by side.  Pierna: as Menos.  Points on the table ("puntos"): a wild 15, an ace played high 11,
# an ace low 1, J Q K 10, others their face.  In hand ("mano"): Joker 20, ace 11, J Q K 10, others face.
HOUSE = """\
# A house Loba: ace high or low (never both, no wrap), up to two Jokers per escalera, never side by side.
name: casa
description: House Loba with ace high or low and up to two non-adjacent Jokers per escalera

deck:
  suits:
    spades: {symbol: "♠", aliases: ["♤", s]}
    hearts: {symbol: "♥", aliases: ["♡", h]}
    diamonds: {symbol: "♦", aliases: ["♢", d]}
    clubs: {symbol: "♣", aliases: ["♧", c]}
  ranks:
    - {key: A, face: 1}
    - {key: "2", face: 2}
    - {key: "3", face: 3}
    - {key: "4", face: 4}
    - {key: "5", face: 5}
    - {key: "6", face: 6}
    - {key: "7", face: 7}
    - {key: "8", face: 8}
    - {key: "9", face: 9}
    - {key: "10", face: 10, aliases: [T]}
    - {key: J, face: 11}
    - {key: Q, face: 12}
    - {key: K, face: 13}
  ace: A
  languages: [en]
  copies: 2
  jokers: 4
  joker: {symbol: JOKER, aliases: [JK]}

wilds:
  cards: JOKER
  natural_too: true

melds:
  pierna:
    description: three or four cards of one rank, all suits different, no Jokers
    shape: set 3..4, suits distinct, no wilds
  escalera:
    description: three to thirteen in suit, ace high or low, at most two Jokers and never side by side
    shape: run 3..13, ace high or low, wilds <= 2, wilds apart

values:
  puntos: |
    wild or JOKER -> 15
    A and high -> 11
    A -> 1
    J Q K -> 10
    _ -> face
  mano: |
    JOKER -> 20
    A -> 11
    J Q K -> 10
    _ -> face

scoring:
  better: higher
  meld_points: puntos
  round: "went_out ? puntos(melds) + 10 * count(melds where escalera) : puntos(melds) - mano(hand)"

match:
  end: target
  target: 200
  eliminate_at: null
  reentry: null
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def house(tmp_path: Path) -> Ruleset:
    return load_file(write(tmp_path, "casa.yaml", HOUSE), cached=False)


def line_of(text: str, needle: str) -> int:
    """1-based number of the only line of ``text`` that contains ``needle``."""
    found = [i for i, line in enumerate(text.split("\n"), start=1) if needle in line]
    assert len(found) == 1, (needle, found)
    return found[0]


def place_of(text: str, wrote: str, word: str) -> tuple[int, int]:
    """1-based line and column of ``word`` inside the one place ``wrote`` occurs in ``text``."""
    assert text.count(wrote) == 1
    offset = text.index(wrote) + wrote.index(word)
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


# ---------------------------------------------------------------- it loads and checks by its own rules


def test_the_house_ruleset_loads(house: Ruleset) -> None:
    assert house.name == "casa"
    assert house.deck.size == 108  # 2 × 52 + 4 Jokers, as written
    assert [k.name for k in house.kinds] == ["pierna", "escalera"]
    assert house.scoring.meld_points == "puntos"


@pytest.mark.parametrize(
    ("cards", "readings", "points"),
    [
        ("Q♣ K♣ A♣", ["Q♣ K♣ A♣"], 10 + 10 + 11),  # ace high
        ("A♣ 2♣ 3♣", ["A♣ 2♣ 3♣"], 1 + 2 + 3),  # ace low
        ("4♣ JOKER 6♣ JOKER 8♣", ["4♣ 5♣ 6♣ 7♣ 8♣"], 4 + 15 + 6 + 15 + 8),  # two Jokers apart
        ("JOKER JOKER 5♣", ["4♣ 5♣ 6♣"], 15 + 5 + 15),  # one each side of the 5: not adjacent
        ("3♣ 4♣ JOKER JOKER", ["2♣ 3♣ 4♣ 5♣"], 15 + 3 + 4 + 15),  # only reading with the Jokers apart
        ("Q♣ JOKER A♣", ["Q♣ K♣ A♣"], 10 + 15 + 11),  # a Joker between, the ace high
        ("J♥ Q♥ K♥ JOKER", ["J♥ Q♥ K♥ A♥", "10♥ J♥ Q♥ K♥"], 10 + 10 + 10 + 15),  # either end
        ("A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠", ["A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"],
         1 + sum(range(2, 11)) + 30),  # 13 cards, the ace low
    ],
)
def test_legal_escaleras_of_the_house(house: Ruleset, cards: str, readings: list[str], points: int) -> None:
    result = check(cards, house)
    assert result.valid, result.reasons()
    assert result.kind == "escalera"
    assert " ".join(result.reading_names()) in readings
    assert result.points == points


@pytest.mark.parametrize(
    ("cards", "why"),
    [
        ("K♣ A♣ 2♣", "no wrap"),
        ("K♣ JOKER 2♣", "no wrap through a Joker standing for the ace"),
        ("JOKER K♣ A♣ JOKER", "Jokers adjacent (J♣ Q♣ K♣ A♣) or a wrap (Q♣ K♣ A♣ 2♣)"),
        ("Q♣ K♣ A♣ 2♣", "ace high and low at once"),
        ("4♣ JOKER JOKER 7♣", "Jokers side by side"),
        ("JOKER JOKER JOKER", "three Jokers (at most two; and they would touch)"),
        ("4♣ JOKER 6♣ JOKER 8♣ JOKER", "three Jokers"),
        ("7♠ 7♥ JOKER", "no wild in a pierna"),
        ("4♣ 5♣ 6♥", "two suits"),
    ],
)
def test_illegal_melds_of_the_house(house: Ruleset, cards: str, why: str) -> None:
    result = check(cards, house)
    assert not result.valid, why
    assert result.reasons()


def test_the_house_pierna(house: Ruleset) -> None:
    result: CheckResult = check("7♠ 7♥ 7♦ 7♣", house)
    assert (result.valid, result.kind, result.points) == (True, "pierna", 28)


def test_the_house_hand_values(house: Ruleset) -> None:
    # mano: Joker 20, ace 11, J Q K 10, others face.
    codes = house.notation().parse_codes("JOKER A♠ K♥ 7♦")
    assert [house.hand_values["mano"][c] for c in codes] == [20, 11, 10, 7]


def test_the_house_round_formula(house: Ruleset) -> None:
    # round: went_out ? puntos(melds) + 10 * count(melds where escalera) : puntos(melds) - mano(hand)
    codes = house.notation().parse_codes
    out = score_player(house, melds=[codes("Q♣ K♣ A♣"), codes("7♠ 7♥ 7♦")], went_out=True)
    assert out.score == (10 + 10 + 11) + (7 + 7 + 7) + 10 * 1  # one escalera on the table
    stuck = score_player(house, melds=[codes("A♣ 2♣ 3♣")], hand=codes("JOKER K♥ 7♦"))
    assert stuck.score == (1 + 2 + 3) - (20 + 10 + 7)


# ---------------------------------------------------------------- the same file with a typo

TYPOS = [
    # (what the house meant, what it wrote, the offending word, a word the hint should offer)
    ("count(melds where escalera)", "count(melds where escalara)", "escalara", "'escalera'"),
    ("    shape: run 3..13", "    shap: run 3..13", "shap", "'shape'"),
    ("ace high or low, wilds <= 2", "ace hihg or low, wilds <= 2", "hihg", "'high'"),
    ("meld_points: puntos", "meld_points: puntoss", "puntoss", "'puntos'"),
    ("  mano: |\n    JOKER -> 20", "  mano: |\n    JOKR -> 20", "JOKR", "'JOKER'"),
    ("    J Q K -> 10\n    _ -> face\n  mano", "    J Q KK -> 10\n    _ -> face\n  mano", "KK", "'K'"),
    ("  end: target", "  end: targett", "targett", "'target'"),
]


@pytest.mark.parametrize(("meant", "wrote", "word", "hint"), TYPOS, ids=[t[2] for t in TYPOS])
def test_a_typo_is_rejected_at_its_line(tmp_path: Path, meant: str, wrote: str, word: str, hint: str) -> None:
    assert HOUSE.count(meant) == 1
    text = HOUSE.replace(meant, wrote)
    path = write(tmp_path, "casa.yaml", text)
    with pytest.raises(LobaError) as info:
        load_file(path, cached=False)
    err = info.value
    line, column = place_of(text, wrote, word)
    assert err.location is not None, err.render()
    assert err.location.source == str(path)
    assert (err.location.line, err.location.column) == (line, column), err.render()
    assert err.hint is not None and hint in err.hint, err.render()
    assert str(err).startswith(f"{path}:{line}:{column}: error: ")


@pytest.mark.parametrize(("meant", "wrote", "word", "hint"), TYPOS, ids=[t[2] for t in TYPOS])
def test_one_typo_is_reported_once(tmp_path: Path, meant: str, wrote: str, word: str, hint: str) -> None:
    """A single typo must not also blame lines that are right (style.md: errors a person can act on):
    every error reported is on the typo's line."""
    text = HOUSE.replace(meant, wrote)
    path = write(tmp_path, "casa.yaml", text)
    with pytest.raises(LobaError) as info:
        load_file(path, cached=False)
    errors = info.value.errors if isinstance(info.value, LobaErrors) else (info.value,)
    line, _ = place_of(text, wrote, word)
    assert [e.location.line if e.location else None for e in errors] == [line], info.value.render()


# ---------------------------------------------------------------- extends: provenance, cycles, reach

SECOND = """\
# The house on Menos: only the escalera changes.
name: second
extends: menos
melds:
  escalera:
    shape: run 3..13, ace high or low, wilds <= 2, wilds apart
"""

THIRD = """\
name: third
extends: second.yaml
values:
  penalty: |
    JOKER -> 30
    A -> 15
    J Q K -> 10
    _ -> face
"""


def test_extends_chain_keeps_provenance(tmp_path: Path) -> None:
    second = write(tmp_path, "second.yaml", SECOND)
    third = write(tmp_path, "third.yaml", THIRD)
    menos_text = (shipped_dir() / "menos.yaml").read_text(encoding="utf-8")
    menos_pierna = line_of(menos_text, "shape: set 3..4")

    rs2 = load_file(second, cached=False)
    assert rs2.where("melds", "escalera", "shape") == f"{second}:{line_of(SECOND, 'shape:')}"
    assert rs2.where("melds", "pierna", "shape").endswith(f"menos.yaml:{menos_pierna}")

    rs3 = load_file(third, cached=False)
    assert rs3.name == "third"
    assert rs3.where("melds", "escalera", "shape") == f"{second}:{line_of(SECOND, 'shape:')}"
    assert rs3.where("melds", "pierna", "shape").endswith(f"menos.yaml:{menos_pierna}")
    assert rs3.where("values", "penalty") == f"{third}:{line_of(THIRD, 'penalty:')}"
    assert rs3.where("name") == f"{third}:1"

    # The merged rules behave as the three files say together.
    assert check("Q♣ K♣ A♣", rs3).valid  # second: ace high or low
    assert not check("Q♣ K♣ A♣", load("menos")).valid  # rules.md §1: Menos plays the ace low only
    assert check("4♣ JOKER 6♣ JOKER 8♣", rs3).valid  # second: two Jokers apart
    assert check("7♠ 7♥ 7♦ 7♣", rs3).kind == "pierna"  # menos's pierna, inherited
    joker, ace = rs3.deck.joker_code, rs3.notation().parse_codes("A♠")[0]
    assert rs3.hand_values["penalty"][joker] == 30  # third
    assert rs3.hand_values["penalty"][ace] == 15


def test_an_extends_cycle_is_named(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "name: a\nextends: b.yaml\n")
    write(tmp_path, "b.yaml", "name: b\nextends: a.yaml\n")
    with pytest.raises(LobaError) as info:
        load_file(a, cached=False)
    message = info.value.message
    assert "cycle" in message
    assert "a.yaml" in message and "b.yaml" in message
    loc = info.value.location
    assert loc is not None and loc.line == 2  # the `extends:` that closes the cycle


def test_a_ruleset_that_extends_itself_is_a_cycle(tmp_path: Path) -> None:
    me = write(tmp_path, "me.yaml", "name: me\nextends: me.yaml\n")
    with pytest.raises(LobaError) as info:
        load_file(me, cached=False)
    assert "cycle" in info.value.message and "me.yaml" in info.value.message


@pytest.mark.parametrize("target", ["../x.yaml", "{folder}/x.yaml", "sub/../../x.yaml"])
def test_extends_reaches_no_file_outside_its_folder(tmp_path: Path, target: str) -> None:
    # design: "extends names a shipped ruleset or a sibling file of the one that says it".
    write(tmp_path, "x.yaml", HOUSE)  # the file exists: it is refused for where it is, not for being missing
    sub = tmp_path / "sub"
    sub.mkdir()
    text = f"name: h\nextends: {target.format(folder=tmp_path)}\n"
    path = write(sub, "h.yaml", text)
    with pytest.raises(LobaError) as info:
        load_file(path, cached=False)
    loc = info.value.location
    assert loc is not None and loc.source == str(path)
    assert (loc.line, loc.column) == (2, len("extends: ") + 1)


def test_extends_outside_the_folder_is_explained_in_words(tmp_path: Path) -> None:
    """style.md: error messages are full sentences saying what was expected, not a schema regex."""
    write(tmp_path, "x.yaml", HOUSE)
    sub = tmp_path / "sub"
    sub.mkdir()
    path = write(sub, "h.yaml", "name: h\nextends: ../x.yaml\n")
    with pytest.raises(LobaError) as info:
        load_file(path, cached=False)
    rendered = info.value.render()
    assert "(?:" not in rendered and "\\x00" not in rendered, rendered


# ---------------------------------------------------------------- mas-pagat's table is data


def test_pagat_wild_value_comes_from_the_yaml(tmp_path: Path) -> None:
    # Seed 003: A-2-2-4 = 4 points (A low 1, each 2 wild standing for 7…2 → 1, natural 4 → 1).
    shipped = (shipped_dir() / "mas-pagat.yaml").read_text(encoding="utf-8")
    assert check("A♥ 2♣ 2♦ 4♥", load("mas-pagat")).points == 4
    assert shipped.count("    wild -> 1\n") == 1
    changed = write(tmp_path, "pagat-copy.yaml", shipped.replace("    wild -> 1\n", "    wild -> 2\n"))
    rs = load_file(changed, cached=False)
    result = check("A♥ 2♣ 2♦ 4♥", rs)
    # The same reading A♥ 2♥ 3♥ 4♥ with each low wild now worth 2: 1 + 2 + 2 + 1.
    assert result.valid and result.kind == "escalera"
    assert result.reading_names() == ["A♥", "2♥", "3♥", "4♥"]
    assert result.points == 6
    # Lines above `wild -> 1` are unchanged: a wild standing for 8…K still 3 (seed 003: K-2-2 = 8).
    assert check("K♠ 2♣ 2♦", rs).points == check("K♠ 2♣ 2♦", load("mas-pagat")).points == 8
