"""The referee's reasons in Spanish as well as English (the page's Play view speaks both).

Which moves are refused follows docs/rules.md §1 (Loba de Menos: a turn is a draw, then melds and lay-offs,
then a discard; play goes counterclockwise, so Beto, on the dealer Ana's right, plays first; a pierna takes
no wild).  The Spanish words are ours (loba_dsl.referee_words): these tests check that every reason the
referee makes is said words with Spanish for its template, and say a few by hand; the English words, the
rule keys and the ruleset's file:line stay as they were.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from table_deals import cards, deal

import loba_dsl
from loba_dsl.error_words import TEMPLATES
from loba_dsl.game import Discard, Draw, IllegalMove, Meld
from loba_dsl.game.turn_end import standing
from loba_dsl.referee_words import ES
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset

PACKAGE = Path(loba_dsl.__file__).resolve().parent
REFEREE = [*sorted((PACKAGE / "game").glob("*.py")), PACKAGE / "scoring" / "requirements.py"]
"""The referee's modules, and the requirements' verdicts its reasons quote."""


def calls(name: str) -> list[tuple[str, ast.Call]]:
    """Every call of ``name(...)`` in the referee's modules, with where it is."""
    found = []
    for path in REFEREE:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                found.append((f"{path.name}:{node.lineno}", node))
    return found


def fields(template: str) -> list[str]:
    return sorted(f"{n}:{spec}" for _, n, spec, _ in string.Formatter().parse(template) if n is not None)


def test_no_reason_is_made_of_plain_english() -> None:
    """A reason's message is said words (a ``said(...)`` call, or words made so), never an f-string, a
    literal or a sum of strings, which could only be said in English."""
    plain = (ast.JoinedStr, ast.Constant, ast.BinOp)
    made = [(where, c.args[2]) for where, c in calls("reason") if len(c.args) > 2]
    made += [(where, c.args[1]) for where, c in calls("Reason") if len(c.args) > 1]
    assert len(made) >= 50, "the reasons changed shape: update this reader"
    assert not [where for where, message in made if isinstance(message, plain)]


def test_every_template_of_the_referee_has_spanish_words() -> None:
    templates = {c.args[0].value: where for where, c in calls("said")
                 if c.args and isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, str)}
    assert len(templates) >= 70
    assert not {t: where for t, where in templates.items() if t not in TEMPLATES["es"]}
    assert all(fields(t) == fields(TEMPLATES["es"][t]) for t in templates)
    assert not set(ES) - set(templates) - {"{ruleset} is played by {least} to {most} players, not {players}"}


@pytest.fixture(scope="module")
def menos() -> Ruleset:
    return load("menos")


def line_of(rs: Ruleset, key: str) -> int:
    text = Path(rs.files[0]).read_text(encoding="utf-8").splitlines()
    return next(i for i, x in enumerate(text, 1) if x.strip().startswith(f"{key}:"))


def test_out_of_turn_in_spanish_and_english(menos: Ruleset) -> None:
    # rules.md §1: menos plays counterclockwise, so Beto (on the dealer's right) plays first, not Ana.
    t = deal(menos, {"Beto": "7♠ 7♥ 7♦ JOKER"}, upcard="K♣", stock_top="2♦")
    (r,) = t.check(Draw("Ana", "stock")).reasons
    where = f"rulesets/menos.yaml:{line_of(menos, 'direction')}"
    assert r.to_dict() == {"rule": "turn.order", "where": where,
                           "message": "it is Beto's turn, not Ana's (turn.order: play goes counterclockwise at "
                                      f"{where})"}
    assert r.to_dict("es") == {"rule": "turn.order", "where": where,
                               "message": "es el turno de Beto, no de Ana (turn.order: se juega en sentido contrario "
                                          f"a las agujas del reloj en {where})"}
    assert r.message_in("es") == "es el turno de Beto, no de Ana"


def test_refusals_after_the_draw_in_spanish(menos: Ruleset) -> None:
    t = deal(menos, {"Beto": "7♠ 7♥ 7♦ JOKER"}, upcard="K♣", stock_top="2♦")
    t.play(Draw("Beto", "stock"))
    with pytest.raises(IllegalMove) as drew:  # rules.md §1: one draw a turn
        t.play(Draw("Beto", "stock"))
    assert drew.value.message_in("es").startswith("Beto ya robó en este turno (turn.order: ")
    assert drew.value.message.startswith("Beto has drawn already this turn (turn.order: ")
    with pytest.raises(IllegalMove) as held:  # 3♦ was neither dealt to Beto nor drawn (the stock's top is 2♦)
        t.play(Discard("Beto", cards(menos, "3♦")[0]))
    assert held.value.to_dict("es")["message"] == "Beto no tiene 3♦ (cards.in_hand en rulesets/menos.yaml)"
    assert held.value.to_dict()["message"] == "Beto does not hold 3♦ (cards.in_hand at rulesets/menos.yaml)"


def test_an_illegal_meld_in_spanish_carries_the_melds_own_reasons(menos: Ruleset) -> None:
    # rules.md §1: a pierna takes no wild; an escalera is one suit in sequence.
    t = deal(menos, {"Beto": "7♠ 7♥ 7♦ JOKER"}, upcard="K♣", stock_top="2♦")
    t.play(Draw("Beto", "stock"))
    with pytest.raises(IllegalMove) as caught:
        t.play(Meld("Beto", cards(menos, "7♠ 7♥ JOKER")))
    (r,) = caught.value.reasons
    spanish = r.text("es")
    assert spanish.startswith("'7♠ 7♥ JOKER' no es una combinación válida: pierna: no admite comodines, pero JOKER "
                              "haría de comodín (regla 'no wilds' en rulesets/menos.yaml:")
    assert spanish.endswith(f"(melds.pierna en rulesets/menos.yaml:{r.where.rsplit(':', 1)[1]})")
    assert r.text().startswith("'7♠ 7♥ JOKER' is not a legal meld: pierna: allows no wild cards, but JOKER would "
                               "be wild (rule 'no wilds' at rulesets/menos.yaml:")


def test_a_first_lay_down_short_of_the_minimum_in_spanish() -> None:
    # rules.md §4 bazas: the first lay-down (everything put down that first turn) must be worth 50, counted with
    # §1's values: 7 7 7 is 21, short of it.
    rs = load("bazas")
    t = deal(rs, {"Beto": "7♠ 7♥ 7♦ K♠ K♥ K♦"}, upcard="2♣")
    t.play(Draw("Beto", "stock"))
    t.play(Meld("Beto", cards(rs, "7♠ 7♥ 7♦")))
    short, _ = standing(rs, t.state, 1, t.state.melds, t.state.info)
    where = f"rulesets/bazas.yaml:{line_of(rs, 'minimum')}"  # requirements.opening.minimum
    assert [r.text() for r in short] == [
        "Beto's first lay-down (7♠ 7♥ 7♦) worth 21 together: does not reach the minimum of 50 "
        f"(requirements.opening at {where})"]
    assert [r.text("es") for r in short] == [
        "la primera bajada de Beto (7♠ 7♥ 7♦): vale 21 entre todas sus combinaciones: no llega al mínimo de 50 "
        f"(requirements.opening en {where})"]
