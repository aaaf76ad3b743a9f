"""The move notation: one line per move in the players' words, English and Spanish, printed and read back.

The forms are the ones the game's players use (issue 20's list: ``Ana draws stock``, ``Ana takes the
discard``, ``Beto melds 7♠ 7♥ 7♦``, ``Carla lays off 5♣ on 2``, ``Ana discards K♦``; ``Ana roba del mazo``,
``Ana toma el descarte``, ``Beto baja 7♠ 7♥ 7♦``, ``Carla agrega 5♣ a la 2``, ``Ana descarta K♦``).  The
round trip (print, then read) must give back every move of random refereed rounds of every shipped
ruleset, in both languages: two rounds of 40 moves here, 500 rounds of 24 moves per ruleset in the ``slow``
run (about 4 minutes of CPU for the twelve rulesets: the rounds are played with the referee's full listing
of legal moves at every move).
"""

from __future__ import annotations

import random

import pytest

from loba_dsl.game import (
    Discard,
    Draw,
    InvalidMove,
    LayOff,
    Meld,
    MoveWild,
    ReplaceJoker,
    Reshuffle,
    Table,
    format_move,
    parse_move,
)
from loba_dsl.game.moves import Move
from loba_dsl.game.simulate import play_round
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset

PLAYERS = ("Ana", "Beto", "Carla", "María Luz")


@pytest.fixture(scope="module")
def menos() -> Ruleset:
    return load("menos")


def c(rs: Ruleset, text: str) -> tuple[int, ...]:
    return rs.notation().parse_codes(text)


def test_the_players_words(menos: Ruleset) -> None:
    rs = menos
    cases: list[tuple[str, str, Move]] = [
        ("Ana draws stock", "Ana roba del mazo", Draw("Ana", "stock")),
        ("Ana takes the discard", "Ana toma el descarte", Draw("Ana", "discard")),
        ("Beto melds 7♠ 7♥ 7♦", "Beto baja 7♠ 7♥ 7♦", Meld("Beto", c(rs, "7♠ 7♥ 7♦"))),
        ("Carla lays off 5♣ on 2", "Carla agrega 5♣ a la 2", LayOff("Carla", 2, c(rs, "5♣"))),
        ("Ana discards K♦", "Ana descarta K♦", Discard("Ana", c(rs, "K♦")[0])),
        # a wild's reading (a record's "as"), several cards laid off, a player's name of two words
        ("Beto melds 4♣ JOKER 6♣ as 5♣", "Beto baja 4♣ JOKER 6♣ como 5♣",
         Meld("Beto", c(rs, "4♣ JOKER 6♣"), c(rs, "5♣"))),
        ("María Luz lays off 7♣ 8♣ on 1", "María Luz agrega 7♣ 8♣ a la 1", LayOff("María Luz", 1, c(rs, "7♣ 8♣"))),
        ("Ana replaces the wild on 2 with 5♣", "Ana reemplaza el comodín de la 2 con 5♣",
         ReplaceJoker("Ana", 2, c(rs, "5♣")[0])),
        ("Ana moves the wild on 3 to the high end", "Ana mueve el comodín de la 3 al extremo alto",
         MoveWild("Ana", 3, "high")),
        # a hand-dealt game's stock draw states its card; a reshuffle of unknown order names none
        ("Ana draws stock: 7♦", "Ana roba del mazo: 7♦", Draw("Ana", "stock", c(rs, "7♦")[0])),
        ("the dealer reshuffles: 9♦ 3♣", "el repartidor mezcla: 9♦ 3♣", Reshuffle(c(rs, "9♦ 3♣"))),
        ("the dealer reshuffles", "el repartidor mezcla", Reshuffle(None)),
    ]
    for en, es, move in cases:
        assert format_move(move, rs) == en
        assert format_move(move, rs, "es") == es
        assert parse_move(en, rs, players=PLAYERS) == move, en
        assert parse_move(es, rs, players=PLAYERS, lang="es") == move, es
        assert parse_move(es, rs, players=PLAYERS) == move  # either language when none is given


def test_what_players_also_write(menos: Ruleset) -> None:
    rs = menos
    # ASCII suits (rules.md §5), spaces, capitals in the words; `As` is the ace of spades, not "as".
    assert parse_move("beto  MELDS 7s 7h 7d", rs, players=["beto"]) == Meld("beto", c(rs, "7♠ 7♥ 7♦"))
    assert parse_move("Beto melds 2s As 3s", rs) == Meld("Beto", c(rs, "2♠ A♠ 3♠"))
    assert parse_move("Ana draws from the stock", rs) == Draw("Ana", "stock")
    assert parse_move("Ana levanta el pozo", rs) == Draw("Ana", "discard")
    # Spanish suit words with the Spanish notation (rules.md §5)
    assert parse_move("Ana descarta Kdiamantes", rs, lang="es") == Discard("Ana", c(rs, "K♦")[0])


def test_a_line_that_is_no_move_says_which_forms_exist(menos: Ruleset) -> None:
    with pytest.raises(InvalidMove) as e:
        parse_move("Ana dances", menos)
    assert "no verb" in e.value.message
    with pytest.raises(InvalidMove) as e:
        parse_move("Ana discards", menos, players=PLAYERS)
    assert "NAME discards CARD" in e.value.message
    with pytest.raises(InvalidMove) as e:
        parse_move("Dora draws stock", menos, players=PLAYERS)
    assert "does not start with a player's name" in e.value.message
    with pytest.raises(InvalidMove) as e:
        parse_move("Ana discards Z♣", menos)
    assert "Z♣" in e.value.message
    with pytest.raises(InvalidMove):
        parse_move("Ana discards 7♠ 7♥", menos)  # one card
    with pytest.raises(InvalidMove):
        parse_move("x" * 5000, menos)


def test_moves_from_card_names_and_a_readable_repr(menos: Ruleset) -> None:
    rs = menos
    t = Table.deal(rs, ["Ana", "Beto", "Carla"], "Carla", seed=7)
    t.play(Draw("Beto", "stock"))
    name = rs.deck.name(t.state.hands[1][0])
    # a card given by its name is read with the table's ruleset
    assert t.check(Discard("Beto", name)).ok  # type: ignore[arg-type]
    listed = [m for m in t.legal() if isinstance(m, Discard)]
    assert Discard("Beto", name) in t.legal()  # type: ignore[arg-type]
    assert repr(listed[0]).startswith("Discard('Beto', '") and repr(listed[0]).endswith("')")
    # a name that is no card of the deck: a clear error, never a TypeError from the deck
    from loba_dsl.game import InvalidMove as Invalid

    with pytest.raises(Invalid) as e:
        t.play(Discard("Beto", "K♦♦"))  # type: ignore[arg-type]
    assert "K♦♦" in e.value.message and "menos" in e.value.message
    with pytest.raises(Invalid):
        t.check(Meld("Beto", ("7♠", 99)))  # type: ignore[arg-type]
    assert Discard("Beto", "K♦♦") not in t.legal()  # type: ignore[arg-type]
    t.play(Discard("Beto", name))  # type: ignore[arg-type]
    assert t.to_move == "Ana"


def notation_round_trip(rs: Ruleset, rounds: int, max_plies: int, seed: int = 0) -> int:
    """Print and read back every move of ``rounds`` random rounds (and each stock draw with its card), in
    both languages; the moves checked."""
    n = max(rs.players.min, min(4, rs.players.max))
    players = PLAYERS[:n]
    checked = 0
    for r in range(rounds):
        t = Table.deal(rs, players, players[r % n], seed + r)
        play_round(t, random.Random(seed + r), max_plies=max_plies)
        log = t.rounds[-1]
        moves: list[Move] = list(log.moves)
        for i, m in enumerate(log.moves):  # a hand-dealt record states the card of a stock draw
            if isinstance(m, Draw) and m.source == "stock":
                moves.append(Draw(m.player, "stock", log.states[i].stock[0]))
        for m in moves:
            for lang in ("en", "es"):
                line = format_move(m, rs, lang)
                assert parse_move(line, rs, players=players, lang=lang) == m, (rs.name, line)
            checked += 1
    return checked


@pytest.mark.parametrize("name", shipped_names())
def test_notation_round_trip_of_random_rounds(name: str) -> None:
    assert notation_round_trip(load(name), rounds=2, max_plies=40) > 20


@pytest.mark.slow
@pytest.mark.parametrize("name", shipped_names())
def test_notation_round_trip_of_500_random_rounds(name: str) -> None:
    assert notation_round_trip(load(name), rounds=500, max_plies=24, seed=1_000) > 10_000


def test_events_in_words(menos: Ruleset) -> None:
    from loba_dsl.game import format_event
    from loba_dsl.game.view import seen_event

    rs = menos
    t = Table.deal(rs, ["Ana", "Beto", "Carla"], "Carla", seed=7)
    (drew,) = t.play(Draw("Beto", "stock"))
    card = rs.deck.name(drew.cards[0])
    assert format_event(drew, rs) == f"Beto drew {card}"
    # the others are not shown which card came from the stock
    assert format_event(seen_event(drew, "Ana"), rs) == "Beto drew from the stock"
    assert format_event(seen_event(drew, "Ana"), rs, "es") == "Beto robó del mazo"
    (discarded,) = t.play(Discard("Beto", drew.cards[0]))
    assert format_event(discarded, rs) == f"Beto discarded {card}"
    assert format_event(discarded, rs, "es") == f"Beto descartó {card}"
