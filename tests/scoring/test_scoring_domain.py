"""Scoring and match play fed domain objects, as a referee or a service would (issue 8 item 3): no text sheet.

Every expected value is worked out by hand from the rules and cites them: ``rules.md`` (§1 Loba de Menos,
§3 the pagat form of Loba de Mas, §4 the variations, §5 card notation), seed 004
(``/work/shared/seeds/004_…``: Menos penalties, elimination at 101+, re-entry at the highest total) and
seed 003 (``003_…``: pagat's Loba de Mas, its meld table, bonuses and the target of 150).
Nothing here was copied from the code's own output.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from loba_dsl.cards.deck import Card
from loba_dsl.errors import InputError, LobaError, LobaErrors, Location
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring import round_checks
from loba_dsl.scoring.match_play import play_match
from loba_dsl.scoring.model import (
    SCHEMA_VERSION,
    MatchRound,
    Part,
    PartError,
    PlayerPoints,
    PlayerRound,
    Reentry,
    RoundFacts,
)
from loba_dsl.scoring.rounds import score_round
from loba_dsl.scoring.score_sheets import place


def cards(rs: Ruleset, text: str) -> tuple[Card, ...]:
    return rs.notation().parse_codes(text)


def melds(rs: Ruleset, *texts: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(cards(rs, t) for t in texts)


def errors_of(error: LobaError) -> list[LobaError]:
    return list(error.errors) if isinstance(error, LobaErrors) else [error]


def the_error(error: LobaError) -> PartError:
    [e] = errors_of(error)
    assert isinstance(e, PartError), e
    return e


# ---------------------------------------------------------------- a round from PlayerRounds


def menos_round(rs: Ruleset) -> list[PlayerRound]:
    return [
        PlayerRound("Ana", melds(rs, "4♣ 5♣ 6♣", "7♠ 7♥ 7♦"), went_out=True),
        PlayerRound("Beto", hand=cards(rs, "JOKER A♠ K♦ 7♣")),
        PlayerRound("Carla", melds(rs, "9♦ 10♦ J♦"), cards(rs, "Q♥ J♣ 10♦")),
        PlayerRound("Dani", hand=cards(rs, "A♠ K♦ 2♣ 9♥")),
    ]


def test_menos_round_from_domain_objects() -> None:
    """Seed 004: the one who went out scores 0; the others their hand's penalty (Joker 25, Ace 15, J/Q/K 10,
    2-10 face value): Beto 25 + 15 + 10 + 7 = 57, Carla 10 + 10 + 10 = 30, Dani 15 + 10 + 2 + 9 = 36."""
    rs = load("menos")
    result = score_round(rs, menos_round(rs), RoundFacts(players=4))
    assert [(p.name, p.score) for p in result.players] == [("Ana", 0), ("Beto", 57), ("Carla", 30), ("Dani", 36)]
    assert result.n_players == 4 and not result.stock_out
    beto = result.players[1]
    assert beto.hand_values == (25, 15, 10, 7) and beto.hand_value == 57  # seed 004, card by card


def test_results_carry_card_names_and_read_without_the_ruleset() -> None:
    """rules.md §5: cards print as rank + suit symbol (``10♦``) and ``JOKER``; a result needs no ruleset to read."""
    rs = load("menos")
    result = score_round(rs, menos_round(rs), RoundFacts(players=4))
    assert result.ruleset == "menos"
    ana, beto, carla, _ = result.players
    assert beto.hand == ("JOKER", "A♠", "K♦", "7♣")
    assert [m.cards for m in ana.melds] == [("4♣", "5♣", "6♣"), ("7♠", "7♥", "7♦")]
    assert carla.melds[0].cards == ("9♦", "10♦", "J♦")
    doc = result.to_dict()
    assert doc["schema_version"] == SCHEMA_VERSION == 1
    assert doc["players"][1]["hand"] == ["JOKER", "A♠", "K♦", "7♣"]
    assert beto.to_dict()["schema_version"] == 1 and beto.to_dict()["score"] == 57
    json.dumps(doc)  # plain data only
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.players[0].score = 1  # type: ignore[misc]


def test_a_wild_is_read_as_the_card_it_stands_for() -> None:
    """rules.md §1: Jokers are wild in escaleras, ace low only, so in ``A♣ 2♣ JOKER`` the Joker is the 3♣."""
    rs = load("menos")
    result = score_round(rs, [PlayerRound("Ana", melds(rs, "A♣ 2♣ JOKER"), went_out=True),
                              PlayerRound("Beto", hand=cards(rs, "5♦"))], RoundFacts(players=2))
    [meld] = result.players[0].melds
    assert meld.kind == "escalera"
    assert meld.cards == ("A♣", "2♣", "JOKER") and meld.reading == ("A♣", "2♣", "3♣")
    assert result.players[1].score == 5  # 2-10 at face value (seed 004)


@pytest.mark.parametrize(("players", "score"), [(4, 30), (3, 25)])
def test_pagat_all_at_once_counts_the_players_of_the_facts(players: int, score: int) -> None:
    """Seed 003 / rules.md §3: Q-K-A = 2 + 2 + 3 = 7 and 7-7-7 = 3 on the table; going out all at once is
    +5 x the number of players: 10 + 20 = 30 at four, 10 + 15 = 25 at three."""
    rs = load("mas-pagat")
    ana = PlayerRound("Ana", melds(rs, "Q♥ K♥ A♥", "7♠ 7♥ 7♦"), went_out=True, all_at_once=True)
    result = score_round(rs, [ana, PlayerRound("Beto", hand=cards(rs, "3♦"))], RoundFacts(players=players))
    assert result.players[0].score == score
    assert result.players[0].meld_points == 10
    assert result.players[1].score == -1  # a 3 in hand costs 1 (seed 003)


def test_pagat_stock_ran_out_nobody_gets_the_bonus() -> None:
    """rules.md §3: when the stock runs out the round ends and nobody gets the going-out bonus: melds only."""
    rs = load("mas-pagat")
    result = score_round(rs, [PlayerRound("Ana", melds(rs, "Q♥ K♥ A♥", "7♠ 7♥ 7♦")),
                              PlayerRound("Beto", melds(rs, "4♣ 5♣ 6♣"), cards(rs, "K♠"))],
                         RoundFacts(players=2, stock_out=True))
    assert [p.score for p in result.players] == [10, 3 - 2]  # 4 5 6 are 1 each, a K in hand costs 2 (seed 003)
    assert result.stock_out


def test_from_text_reads_the_rulesets_notation() -> None:
    """rules.md §5: ``T`` for ten and ASCII suit letters are accepted; ``|`` separates melds."""
    rs = load("menos")
    p = PlayerRound.from_text(rs, "Carla", melds="9d Td Jd", hand="Qh Jc 10♦")
    assert p.melds == (cards(rs, "9♦ 10♦ J♦"),) and p.hand == cards(rs, "Q♥ J♣ 10♦")
    two = PlayerRound.from_text(rs, "Ana", melds="4♣ 5♣ 6♣ | 7♠ 7♥ 7♦", went_out=True)
    assert len(two.melds) == 2
    with pytest.raises(InputError) as info:
        PlayerRound.from_text(rs, "Ana", melds="4♣ 5♣ 6♣ | 7♠ 7X")
    loc = errors_of(info.value)[0].location
    assert loc is not None and loc.column == 15  # "4♣ 5♣ 6♣ | 7♠ 7X": the 7X starts at column 15


# ---------------------------------------------------------------- round validity, named by position


def test_illegal_meld_names_player_and_meld() -> None:
    """Seed 004: a pierna never holds a wild card, so ``7♠ 7♥ JOKER`` is not a meld in menos."""
    rs = load("menos")
    players = [PlayerRound("Ana", melds(rs, "4♣ 5♣ 6♣", "7♠ 7♥ JOKER"), went_out=True),
               PlayerRound("Beto", hand=cards(rs, "3♦"))]
    with pytest.raises(LobaError) as info:
        score_round(rs, players, RoundFacts(players=2))
    e = the_error(info.value)
    assert e.part == Part(player=0, meld=1)
    assert "Ana" in e.message and "7♠ 7♥ JOKER" in e.message
    assert e.hint is not None and "pierna" in e.hint
    assert e.location is None  # no file: the part says where


def test_only_one_player_goes_out() -> None:
    """Seed 004: a round ends when *a* player empties their hand, so two players cannot both go out."""
    rs = load("menos")
    players = [PlayerRound("Ana", melds(rs, "4♣ 5♣ 6♣"), went_out=True),
               PlayerRound("Beto", melds(rs, "7♠ 7♥ 7♦"), went_out=True)]
    with pytest.raises(LobaError) as info:
        score_round(rs, players, RoundFacts(players=2))
    e = the_error(info.value)
    assert e.part == Part(player=1) and "Ana" in e.message and "Beto" in e.message


def test_stock_out_and_going_out_depend_on_what_the_stock_running_out_does() -> None:
    """rules.md §3: in the pagat form the round ends when the stock runs out, so nobody can also have gone out;
    rules.md §1: menos reshuffles the discards into a new stock, so the stock may run out and Ana go out later
    (she scores 0, seed 004)."""
    pagat = load("mas-pagat")
    players = [PlayerRound("Ana", melds(pagat, "4♣ 5♣ 6♣"), went_out=True),
               PlayerRound("Beto", hand=cards(pagat, "3♦"))]
    with pytest.raises(LobaError) as info:
        score_round(pagat, players, RoundFacts(players=2, stock_out=True))
    e = the_error(info.value)
    assert e.part == Part(player=0) and "Ana" in e.message
    menos = load("menos")
    players = [PlayerRound("Ana", melds(menos, "4♣ 5♣ 6♣"), went_out=True),
               PlayerRound("Beto", hand=cards(menos, "3♦"))]
    result = score_round(menos, players, RoundFacts(players=2, stock_out=True))
    assert [p.score for p in result.players] == [0, 3]


@pytest.mark.parametrize("ruleset", ["menos", "mas-pagat"])
def test_who_went_out_holds_no_card(ruleset: str) -> None:
    """rules.md §1: going out ends with discarding your last card; §3: put down all cards, or all but one and
    discard it.  Either way the one who went out has nothing left in hand."""
    rs = load(ruleset)
    players = [PlayerRound("Ana", melds(rs, "4♣ 5♣ 6♣"), cards(rs, "9♠"), went_out=True),
               PlayerRound("Beto", hand=cards(rs, "3♦"))]
    with pytest.raises(LobaError) as info:
        score_round(rs, players, RoundFacts(players=2))
    e = the_error(info.value)
    assert e.part == Part(player=0) and "Ana" in e.message


@pytest.mark.parametrize("n", [1, 6])
def test_the_number_of_players_is_two_to_five(n: int) -> None:
    """rules.md §1: 2-5 players."""
    rs = load("menos")
    with pytest.raises(LobaError) as info:
        score_round(rs, [PlayerRound("Ana", hand=cards(rs, "3♦"))], RoundFacts(players=n))
    assert the_error(info.value).part == Part()


def test_more_players_listed_than_play() -> None:
    """rules.md §1: 2-5 players; a round of three cannot list a fourth (the fourth is named)."""
    rs = load("menos")
    players = [PlayerRound(n, hand=cards(rs, f"{c}♦")) for n, c in zip(("Ana", "Beto", "Carla", "Dani"), "3456",
                                                                 strict=True)]
    with pytest.raises(LobaError) as info:
        score_round(rs, players, RoundFacts(players=3))
    assert the_error(info.value).part == Part(player=3)


def test_the_cards_of_all_players_fit_the_deck() -> None:
    """rules.md §5: two decks hold two copies of every card; a third 7♠ is one too many and is named where it
    first goes beyond two (Carla's hand, its first card), while two 7♠ across players are fine."""
    rs = load("menos")
    players = [PlayerRound("Ana", melds(rs, "7♠ 7♥ 7♦"), went_out=True),
               PlayerRound("Beto", melds(rs, "7♠ 7♦ 7♣")),
               PlayerRound("Carla", hand=cards(rs, "7♠ 2♦"))]
    with pytest.raises(LobaError) as info:
        score_round(rs, players, RoundFacts(players=3))
    e = the_error(info.value)
    assert e.part == Part(player=2, card=0) and "7♠" in e.message
    assert score_round(rs, players[:2], RoundFacts(players=2)).players[1].score == 0  # no hand left: 0 (seed 004)


def test_round_problems_lists_every_problem_without_raising() -> None:
    """The referee's question: every reason at once.  Two players out (seed 004) and a third copy (rules.md §5)."""
    rs = load("menos")
    players = [PlayerRound("Ana", melds(rs, "7♠ 7♥ 7♦"), went_out=True),
               PlayerRound("Beto", melds(rs, "7♠ 7♦ 7♣"), went_out=True),
               PlayerRound("Carla", hand=cards(rs, "7♠"))]
    problems = round_checks.round_problems(rs, players, RoundFacts(players=3))
    assert [p.part for p in problems] == [Part(player=1), Part(player=2, card=0)]
    assert round_checks.round_problems(rs, menos_round(rs), RoundFacts(players=4)) == []


def test_a_text_layer_places_a_part_where_it_was_written() -> None:
    """A card not written down on its own is placed where the meld holding it was (the sheet's side map)."""
    meld_at = Location("round.txt", 3, 10, "  table: 7♠ 7♥ 7♦", 8)
    error = PartError("7♠ appears 3 times", part=Part(player=1, meld=0, card=0))
    placed = place(error, {Part(player=1, meld=0): meld_at, Part(): Location("round.txt", 1, 1)})
    assert placed.location == meld_at and placed.message == error.message
    assert place(PartError("nothing known", part=Part(event=2)), {}).location is None


# ---------------------------------------------------------------- a match from events


def test_acceptance_match_from_events() -> None:
    """Seed 004: eliminated at 101+, re-entry at the highest total among those still in.

    Totals after two rounds: Ana 0, Beto 34 + 40 = 74, Carla 57 + 50 = 107, Dani 20 + 12 = 32; Carla is out
    and re-enters at max(0, 74, 32) = 74.
    """
    rs = load("menos")

    def points(**scores: int) -> MatchRound:
        return MatchRound(tuple(PlayerPoints(n, s, went_out=s == 0) for n, s in scores.items()))

    result = play_match(rs, [points(Ana=0, Beto=34, Carla=57, Dani=20), points(Ana=0, Beto=40, Carla=50, Dani=12),
                             Reentry("Carla")], players=["Ana", "Beto", "Carla", "Dani"])
    first, second = result.rounds
    assert (first.number, second.number) == (1, 2)
    assert second.totals == {"Ana": 0, "Beto": 74, "Carla": 107, "Dani": 32}
    assert second.eliminated == ["Carla"]
    assert second.reentries == [{"name": "Carla", "score": 74, "reentry": 1}]
    [carla] = [p for p in result.players if p.name == "Carla"]
    assert (carla.total, carla.active, carla.reentries) == (74, True, 1)
    assert not result.over and result.ruleset == "menos"
    doc = result.to_dict()
    assert doc["schema_version"] == 1 and doc["rounds"][1]["eliminated"] == ["Carla"]
    json.dumps(doc)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.over = True  # type: ignore[misc]


def test_a_match_round_scored_from_cards() -> None:
    """Seed 004: a round of cards in a match scores as a lone round (57 and 30 as above, 0 for going out)."""
    rs = load("menos")
    rnd = MatchRound((PlayerRound("Ana", hand=cards(rs, "JOKER A♠ K♦ 7♣")),
                      PlayerRound("Beto", melds(rs, "7♠ 7♥ 7♦", "9♦ 10♦ J♦ Q♦"), went_out=True),
                      PlayerRound("Carla", hand=cards(rs, "Q♥ J♣ 10♦"))))
    result = play_match(rs, [rnd])
    assert result.rounds[0].scores == {"Ana": 57, "Beto": 0, "Carla": 30}
    detail = result.rounds[0].detail
    assert detail is not None and detail.players[0].hand == ("JOKER", "A♠", "K♦", "7♣")


def test_match_errors_name_the_event() -> None:
    """Seed 004: only an eliminated player re-enters; the error names the event (the re-entry, index 1) and the
    round, and a bad meld in round 2 names that round's event, player and meld (Q-K-A: ace low, rules.md §1)."""
    rs = load("menos")
    rnd = MatchRound((PlayerPoints("Ana", 0, went_out=True), PlayerPoints("Beto", 30)))
    with pytest.raises(LobaError) as info:
        play_match(rs, [rnd, Reentry("Beto")])
    e = the_error(info.value)
    assert e.part == Part(event=1) and "round 1" in e.message and "Beto" in e.message
    bad = MatchRound((PlayerRound("Ana", melds(rs, "Q♦ K♦ A♦"), went_out=True), PlayerRound("Beto")))
    with pytest.raises(LobaError) as info:
        play_match(rs, [rnd, bad])
    assert the_error(info.value).part == Part(event=1, player=0, meld=0)


def test_pagat_match_ends_at_150() -> None:
    """Seed 003: "The game ends when one or more players have scored at least 150 points"; highest wins."""
    rs = load("mas-pagat")
    rounds = [MatchRound((PlayerPoints("Ana", 140), PlayerPoints("Beto", 145, went_out=True))),
              MatchRound((PlayerPoints("Ana", 12, went_out=True), PlayerPoints("Beto", -3)))]
    result = play_match(rs, rounds)
    assert result.rounds[1].totals == {"Ana": 152, "Beto": 142}
    assert result.over and result.winners == ["Ana"]
    assert not play_match(rs, rounds, target=200).over  # a longer session (seed 004: 200 or 300)


def test_chinchon_seven_card_run_wins_outright_from_events() -> None:
    """rules.md §4: a 7-card run (chinchón) wins the match; closing with all seven melded is -10, and Beto's
    hand is 1 + 2 + 3 + 10 + 10 + 10 + 7 = 43 (values face, figures 10)."""
    rs = load("chinchon")
    rnd = MatchRound((PlayerRound("Ana", melds(rs, "1o 2o 3o 4o 5o 6o 7o"), went_out=True),
                      PlayerRound("Beto", hand=cards(rs, "1c 2e 3b Sc Ce Rb 7c"))))
    result = play_match(rs, [rnd])
    assert result.rounds[0].scores == {"Ana": -10, "Beto": 43}
    assert result.over and result.winners == ["Ana"]
