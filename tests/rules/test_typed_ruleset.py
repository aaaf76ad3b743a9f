"""The typed, frozen ruleset (issue 8, item 1): every section of the schema as typed data.

Expected values come from rules.md (the variants' settings) and from the schema's documented defaults.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from loba_dsl.errors import LobaError
from loba_dsl.rules.loading import load, load_file
from loba_dsl.rules.model import (
    Better,
    Direction,
    FirstPlayer,
    GoingOut,
    LayOff,
    MatchEnd,
    NextDealer,
    PileTake,
    StockExhausted,
    WildMove,
)

SHIPPED = ["menos", "mas", "mas-pagat", "picos", "pierna-de-cuatro", "mas-pierna-de-cuatro", "sin-jokers",
           "bazas", "uruguay", "contrato", "chinchon", "gin"]


def test_menos_sections_are_typed() -> None:
    rs = load("menos")
    # rules.md §1: 2 to 5 players, 4 the classic table; 9 cards each; two packs and four Jokers.
    assert (rs.players.min, rs.players.max, rs.players.default) == (2, 5, 4)
    assert rs.deal.cards == 9
    assert rs.deck.copies == 2 and rs.deck.jokers == 4
    assert isinstance(rs.deal.direction, Direction) and isinstance(rs.deal.first_player, FirstPlayer)
    assert isinstance(rs.deal.next_dealer, NextDealer)
    # rules.md §1: lowest total wins; a player lays off only onto their own melds; a Joker stays where it is.
    assert rs.scoring.better is Better.LOWER and rs.scoring.better.sign == -1
    assert rs.turn.lay_off is LayOff.OWN_MELDS
    assert rs.turn.wild_move is WildMove.NONE and rs.turn.joker_replacement is False
    assert isinstance(rs.turn.discard_pile_take, PileTake)
    assert isinstance(rs.turn.going_out, GoingOut) and isinstance(rs.turn.stock_exhausted, StockExhausted)
    # rules.md §1: eliminated at 101, re-entries at the highest remaining total.
    assert rs.match.end is MatchEnd.LAST_STANDING and rs.match.eliminate_at == 101
    assert rs.match.reentry is not None and rs.match.max_reentries == rs.match.reentry.max
    assert rs.requirements.opening is None and rs.requirements.contracts is None


def test_mas_scores_higher_and_chinchon_closes_with_one_card() -> None:
    # rules.md §2: in Loba de Mas the highest total wins.
    assert load("mas").scoring.better is Better.HIGHER
    # rules.md §5 (Chinchón): the closer may keep one card.
    assert load("chinchon").turn.going_out is GoingOut.ONE_CARD_LEFT


def test_bazas_and_contrato_requirements() -> None:
    # rules.md §4: a first lay-down of at least 50; contrato lists a contract per round.
    opening = load("bazas").requirements.opening
    assert opening is not None and opening.minimum == 50
    contracts = load("contrato").requirements.contracts
    assert contracts is not None and len(contracts.rounds) == 8


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_is_frozen(name: str) -> None:
    rs = load(name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.name = "other"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.turn.lay_off = LayOff.NONE  # type: ignore[misc]
    assert rs.players.allows(rs.players.default)


def test_schema_defaults_name_no_meld_kind(tmp_path: Path) -> None:
    # Issue 8: a house ruleset extending chinchon (kinds grupo/escalera) that writes only
    # `requirements: {contracts: {at_once: true}}` used to fail six times with "unknown meld kind 'pierna'",
    # a kind that only the schema's default named.  It loads now, with no round contract listed.
    house = tmp_path / "house-chin.yaml"
    house.write_text("name: house-chin\nextends: chinchon\nrequirements:\n  contracts:\n    at_once: true\n",
                     encoding="utf-8")
    rs = load_file(house)
    assert rs.requirements.contracts is not None
    assert rs.requirements.contracts.rounds == () and rs.requirements.contracts.at_once is True


def test_an_opening_must_name_its_table(tmp_path: Path) -> None:
    # The schema no longer defaults the opening's table to menos's 'penalty': a ruleset that asks for an
    # opening minimum without naming the table that counts it gets one clear error naming the key.
    house = tmp_path / "house-open.yaml"
    house.write_text("name: house-open\nextends: chinchon\nrequirements:\n  opening:\n    minimum: 30\n",
                     encoding="utf-8")
    with pytest.raises(LobaError) as err:
        load_file(house)
    assert "requirements.opening.table" in str(err.value)


def test_players_default_must_fit_the_range(tmp_path: Path) -> None:
    house = tmp_path / "house-players.yaml"
    house.write_text("name: house-players\nextends: menos\nplayers:\n  min: 2\n  max: 3\n", encoding="utf-8")
    with pytest.raises(LobaError) as err:
        load_file(house)
    assert "players.default" in str(err.value)


@pytest.mark.parametrize("formula", ['""', '" "'])
def test_an_empty_round_formula_is_one_clear_error(formula: str) -> None:
    # Found by the fuzz suite: the schema rejects the empty formula and leaves it out; the compiler must
    # then report that error, not stop on the missing formula.
    from loba_dsl.rules.loading import loads

    with pytest.raises(LobaError) as err:
        loads(f"name: house\nextends: menos\nscoring:\n  round: {formula}\n", source="house.yaml", cached=False)
    assert "house.yaml" in str(err.value)
