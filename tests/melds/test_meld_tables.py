"""The table-driven matcher agrees with the general matcher (issue 11, item 1).

:meth:`Matcher.match` first asks the meld tables compiled once per ruleset
(a packed count per card, per kind its necessary conditions): a meld no kind
can read comes back at once with its reasons worked out when asked for, and
a meld of plain naturals and Jokers is read over the kinds not ruled out.
:meth:`Matcher.match_general` is the matcher without the tables.  Both must
give the same verdict, the same best reading in every field and the same
reasons, with and without ``reasons=``, on random melds of 1-8 cards (Jokers
and cards that may be wild among them) and on near-runs and near-sets, under
every shipped ruleset and two house rulesets with many wilds.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from house_rulesets import THREE_WILD_CLASSES

from loba_dsl.cards.deck import Card
from loba_dsl.melds.check import check, check_cards
from loba_dsl.melds.explain import explain
from loba_dsl.melds.matcher import PACK_MAX, Matcher, Outcome, matcher_for
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset

SHIPPED = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "rulesets").glob("*.yaml"))

HOUSES = {
    # Jokers, 2s and 3s wild or natural, values by card and position (tests/house_rulesets.py).
    "three-wild-classes": THREE_WILD_CLASSES,
    # 2s always wild, runs round the corner with wilds apart, sets of mixed suits with wilds.
    "wrap-and-wild-twos": """extends: menos
name: h3
deck: {jokers: 6}
wilds: {cards: "JOKER, 2", natural_too: false}
melds:
  pierna:
    description: three to eight of one rank, at least two suits, at most two wilds
    shape: set 3..8, suits >= 2, wilds <= 2
  escalera:
    description: a run round the corner, wilds never side by side, two naturals at least
    shape: run 3..13, ace wrap, wilds apart, naturals >= 2
""",
}


def rulesets() -> list[tuple[str, Ruleset]]:
    return [(name, load(name)) for name in SHIPPED] + [(name, loads(text)) for name, text in HOUSES.items()]


RULESETS = rulesets()


def random_melds(m: Matcher, rng: random.Random, n: int) -> list[tuple[Card, ...]]:
    """Uniform melds of 1-8 cards, wild-heavy melds, near-runs and near-sets (a card changed or added)."""
    deck = m.deck
    pool = [c for c in range(deck.joker_code) for _ in range(deck.copies)] + [deck.joker_code] * deck.jokers
    wilds = [c for c in range(deck.n_codes) if m.always_wild[c] or m.maybe_wild[c]] or [deck.joker_code]
    out: list[tuple[Card, ...]] = []
    for j in range(n):
        size = rng.randint(1, 8)
        shape = j % 4
        if shape == 0:
            cards = rng.sample(pool, size)
        elif shape == 1:  # a near-run, maybe round the corner
            s, r0 = rng.randrange(deck.n_suits), rng.randrange(deck.n_ranks)
            cards = [deck.code((r0 + i) % deck.n_ranks, s) for i in range(size)]
        elif shape == 2:  # a near-set
            r = rng.randrange(deck.n_ranks)
            cards = [deck.code(r, rng.randrange(deck.n_suits)) for _ in range(size)]
        else:  # a few naturals and many wilds
            s, r0 = rng.randrange(deck.n_suits), rng.randrange(deck.n_ranks)
            cards = [deck.code((r0 + i) % deck.n_ranks, s) for i in range(rng.randint(0, 3))]
            cards += [rng.choice(wilds) for _ in range(max(0, size - len(cards)))]
        if shape in (1, 2, 3) and cards and rng.random() < 0.5:
            cards[rng.randrange(len(cards))] = rng.choice(wilds if rng.random() < 0.5 else pool)
        if rng.random() < 0.1:
            cards.append(rng.choice(pool))
        rng.shuffle(cards)
        out.append(tuple(cards))
    return out


def agree(name: str, rs: Ruleset, n: int, tables: tuple[str | None, ...]) -> None:
    melds = random_melds(matcher_for(rs), random.Random(f"tables:{name}:{n}"), n)
    legal = 0
    for table in tables:
        for scored in (True, False):
            m = Matcher(rs, table, scored=scored)
            for cards in melds:
                for reasons in (True, False):
                    got, want = m.match(cards, reasons=reasons), m.match_general(cards, reasons=reasons)
                    assert got.valid == want.valid, rs.deck.names_of(cards)
                    assert got.best == want.best, rs.deck.names_of(cards)
                    assert got.failures == want.failures, rs.deck.names_of(cards)
                    legal += got.valid
    assert legal > 0  # the sample holds legal melds too, not only rejections


@pytest.mark.parametrize(("name", "rs"), RULESETS, ids=[name for name, _ in RULESETS])
def test_tables_agree_with_the_general_matcher(name: str, rs: Ruleset) -> None:
    agree(name, rs, 300, (None,))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "rs"), RULESETS, ids=[name for name, _ in RULESETS])
def test_tables_agree_on_many_melds_and_every_points_table(name: str, rs: Ruleset) -> None:
    agree(name, rs, 3000, (None, *sorted(rs.meld_values)))


@pytest.mark.parametrize(("name", "rs"), RULESETS, ids=[name for name, _ in RULESETS])
def test_reasons_in_words_agree(name: str, rs: Ruleset) -> None:
    m = matcher_for(rs)
    for cards in random_melds(m, random.Random(f"words:{name}"), 200):
        want = [explain(rs, f) for f in m.match_general(cards).failures]
        assert check_cards(cards, rs).reasons() == want, rs.deck.names_of(cards)


@pytest.mark.parametrize(("name", "rs"), RULESETS, ids=[name for name, _ in RULESETS])
def test_one_kind_at_a_time_agrees(name: str, rs: Ruleset) -> None:
    m = matcher_for(rs)
    for cards in random_melds(m, random.Random(f"kinds:{name}"), 150):
        for spec in m.specs:
            got, want = m.match(cards, (spec,)), m.match_general(cards, (spec,))
            assert (got.best, got.failures) == (want.best, want.failures), rs.deck.names_of(cards)


def test_most_random_melds_are_rejected_by_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tables do the work: on random 3-7-card melds (nearly all illegal) the general matcher is rarely run.
    rs = load("menos")
    m = Matcher(rs)
    calls: list[int] = []
    general = Matcher._match

    def counted(self: Matcher, *args: Any) -> Outcome:
        calls.append(1)
        return general(self, *args)

    monkeypatch.setattr(Matcher, "_match", counted)
    rng = random.Random("rejected")
    pool = [c for c in range(rs.deck.joker_code) for _ in range(rs.deck.copies)] + [rs.deck.joker_code] * 4
    melds = [tuple(rng.sample(pool, rng.randint(3, 7))) for _ in range(1000)]
    verdicts = [m.match(c).valid for c in melds]
    assert sum(verdicts) < 50
    assert len(calls) < 50


def test_known_verdicts_of_the_default_ruleset() -> None:
    # rules.md (Loba de Menos): a pierna is 3-4 of one rank in different suits, never a Joker;
    # an escalera is 3+ of one suit in sequence, ace low, at most one Joker.
    rs = load("menos")
    assert check("7♠ 7♥ 7♦", rs).kind == "pierna"
    assert check("A♣ 2♣ JOKER", rs).reading_names() == ["A♣", "2♣", "3♣"]
    assert not check("7♠ 7♥ JOKER", rs).valid
    assert not check("Q♠ K♠ A♠", rs).valid  # the ace is low only
    assert not check("4♥ JOKER 6♥ JOKER", rs).valid  # two Jokers
    assert check("4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥", rs).kind == "escalera"


def test_a_meld_too_long_for_the_tables_goes_to_the_general_matcher() -> None:
    rs = load("menos")
    m = matcher_for(rs)
    run = tuple(rs.deck.code(r, 0) for r in range(rs.deck.n_ranks))
    long = (*run, run[0], run[1], run[2])
    assert len(long) > PACK_MAX
    for cards in (run, long):
        assert m.match(cards) == m.match_general(cards)
    assert m.match(run).valid and not m.match(long).valid


def test_a_rejected_outcome_is_an_ordinary_value() -> None:
    rs = load("menos")
    m = matcher_for(rs)
    cards = rs.notation().parse_codes("7♠ 8♥ 9♦ JOKER")
    got, want = m.match(cards), m.match_general(cards)
    assert got == want and hash(got) == hash(want) and repr(got) == repr(want)
    assert pickle.loads(pickle.dumps(m.match(cards))) == want
    with pytest.raises(AttributeError):
        got.best = None
    assert isinstance(got, Outcome) and not got.valid and got.failures


def test_the_tables_are_bounded_by_the_deck_and_the_kinds() -> None:
    for _, rs in RULESETS:
        t = matcher_for(rs).tables
        assert len(t.packed) == rs.deck.n_codes
        assert len(t.shapes) == len(rs.kinds)
        assert all(len(s.counts) == 1 << 12 for s in t.shapes)
