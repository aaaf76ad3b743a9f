"""What a house ruleset's author meets first: a ruleset written without ``extends`` gets every error of the
schema's invisible defaults in one run, each saying which default caused it, and the commonest YAML slips
get words instead of schema or parser jargon.

The deck is rules.md §4's Chinchón deck cut to seven ranks (1-7 of oros, copas, espadas, bastos: one copy,
no Jokers); the defaults are the schema's (``loba schema``): ``deck.ace`` "A", ``deck.jokers`` 4,
``wilds.cards`` JOKER.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loba_dsl.errors import LobaError, LobaErrors
from loba_dsl.rules.loading import load_file, loads

OWN_GAME = """\
name: casa
description: our own game
players: {min: 2, max: 4}
deck:
  suits:
    oros: {symbol: o}
    copas: {symbol: c}
    espadas: {symbol: e}
    bastos: {symbol: b}
  ranks:
    - {key: "1", face: 1}
    - {key: "2", face: 2}
    - {key: "3", face: 3}
    - {key: "4", face: 4}
    - {key: "5", face: 5}
    - {key: "6", face: 6}
    - {key: "7", face: 7}
  copies: 1
melds:
  grupo:
    shape: set 3..4, suits distinct
  escalera:
    shape: run 3..7, ace low
values:
  puntos: |
    _ -> face
scoring:
  round: "went_out ? 0 : puntos(hand)"
"""


def errors_of(text: str, tmp_path: Path) -> list[LobaError]:
    path = tmp_path / "casa.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LobaError) as caught:
        load_file(path, cached=False)
    err = caught.value
    return list(err.errors) if isinstance(err, LobaErrors) else [err]


def test_every_error_of_the_defaults_comes_in_one_run(tmp_path: Path) -> None:
    found = errors_of(OWN_GAME, tmp_path)
    # Both at once: the default ace "A" is no rank of this deck, and the default 4 Jokers have no face value
    # for the catch-all line of the value table.
    assert [e.message for e in found] == ["'ace' names 'A', which is not a rank of the deck",
                                          "a Joker has no face value (JOKER)"]
    assert found[0].hint is not None and 'deck.ace is "A" by default' in found[0].hint
    assert found[1].hint is not None and "deck.jokers is 4 by default" in found[1].hint
    # ... and the next step is said too: with no Jokers, the default wild card (JOKER) must go.
    assert 'wilds.cards is "JOKER" by default' in found[1].hint
    assert found[1].location is not None
    assert found[1].location.line == OWN_GAME.splitlines().index("    _ -> face") + 1


def test_the_defaults_set_the_ruleset_is_valid(tmp_path: Path) -> None:
    fixed = OWN_GAME.replace("  copies: 1\n", '  copies: 1\n  ace: "1"\n  jokers: 0\n') + "wilds:\n  cards: null\n"
    path = tmp_path / "casa.yaml"
    path.write_text(fixed, encoding="utf-8")
    rs = load_file(path, cached=False)
    assert rs.deck.size == 28 and [k.name for k in rs.kinds] == ["grupo", "escalera"]


def test_a_meld_kind_written_as_its_shape_says_where_the_shape_goes() -> None:
    with pytest.raises(LobaError) as caught:
        loads("name: casa\nextends: menos\nmelds:\n  escalera: run 3..13\n", source="casa.yaml", cached=False)
    err = caught.value
    assert err.message == "melds.escalera is a block of settings, not the text 'run 3..13'"
    assert err.hint is not None and "'shape:'" in err.hint and "escalera: {shape: run 3..13}" in err.hint
    assert "is not of type" not in err.render()
    assert err.location is not None and (err.location.line, err.location.column) == (4, 13)


@pytest.mark.parametrize(("key", "formula"), [
    ("scoring:\n  round", "went_out ? 0 : penalty(hand)"),
    ("scoring:\n  round", "went_out ? -10 : penalty(hand)"),
])
def test_an_unquoted_formula_with_a_colon_says_to_quote_it(key: str, formula: str) -> None:
    with pytest.raises(LobaError) as caught:
        loads(f"name: casa\nextends: menos\n{key}: {formula}\n", source="casa.yaml", cached=False)
    err = caught.value
    assert err.hint == f"a value holding a formula's '? :' must be quoted: round: \"{formula}\""
    # Quoted as the hint says, it loads: rules.md §1's round formula.
    rs = loads(f'name: casa\nextends: menos\n{key}: "{formula}"\n', source="casa.yaml", cached=False)
    assert rs.name == "casa"
