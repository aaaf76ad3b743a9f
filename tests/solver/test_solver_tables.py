"""The solver's tables and caches change no answer (issue 11, items 1 and 3).

- A hand's *live* cards (those some candidate meld may use,
  :meth:`CandidateGenerator.live`, read from per-shape run tables) hold every
  card of every candidate meld, so the best arrangement of a hand is that of its
  live cards with the rest kept; hands that share their live cards share the
  answer from a cache.
- The run candidates read from the per-suit skeleton table are the ones a
  direct walk over the windows gives.
- An arrangement's score and left value (now worked out from the round
  formula's linear form and its hand table) are those the scorer gives the same
  melds and hand (:func:`~loba_dsl.scoring.rounds.score_player`, which
  evaluates the formula as written: docs/rules.md §1–§4).
- The caches stay within their bounds over a long batch.

The exactness of the arrangements themselves is checked against a brute-force
oracle in ``test_solver.py`` and against HiGHS in ``benchmarks/crosscheck_ilp.py``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import loba_dsl.solver.calls as calls
import loba_dsl.solver.searches as searches
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.rounds import score_player
from loba_dsl.solver.api import Solver
from loba_dsl.solver.candidates import CandidateGenerator

HOUSE = """extends: mas-pagat
name: many-wilds
deck: {jokers: 8}
wilds: {cards: "JOKER, 2, 3", natural_too: true}
"""


def rulesets() -> list[Ruleset]:
    return [load(name) for name in shipped_names()] + [loads(HOUSE, source="many-wilds.yaml")]


def pack(rs: Ruleset) -> list[int]:
    deck = rs.deck
    return [c for c in range(deck.joker_code) for _ in range(deck.copies)] + [deck.joker_code] * deck.jokers


def hands(rs: Ruleset, seed: str, n: int, lo: int = 1, hi: int = 12) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    cards = pack(rs)
    out = []
    for _ in range(n):
        hand = rng.sample(cards, rng.randint(lo, hi))
        if rng.random() < 0.3:  # a near-run of one suit, so that runs and their wilds are common
            s, r = rng.randrange(rs.deck.n_suits), rng.randrange(rs.deck.n_ranks)
            hand += [rs.deck.code((r + i) % rs.deck.n_ranks, s) for i in range(rng.randint(2, 4))]
            hand = [c for c, n in Counter(hand).items() for _ in range(min(n, rs.deck.copies))]
        out.append(tuple(hand))
    return out


@pytest.mark.parametrize("rs", rulesets(), ids=lambda rs: rs.name)
def test_every_card_of_every_candidate_meld_is_live(rs: Ruleset) -> None:
    solver = Solver(rs)
    gen = solver.candidates
    for hand in hands(rs, f"live:{rs.name}", 300):
        live = Counter(gen.live(hand))
        assert live <= Counter(hand), hand
        for meld in gen.hand_candidates(gen.ordered(hand)):
            assert Counter(meld) <= live, (hand, meld)
        # Every copy of a live card is live (the cache key is the whole live part).
        assert all(live[c] == hand.count(c) for c in live), hand


@pytest.mark.parametrize("rs", rulesets(), ids=lambda rs: rs.name)
def test_no_candidate_meld_crosses_two_live_parts(rs: Ruleset) -> None:
    gen = Solver(rs).candidates
    split = 0
    for i, hand in enumerate(hands(rs, f"parts:{rs.name}", 300)):
        if i % 2:  # half without any card that can be wild: those are the hands that split
            hand = tuple(c for c in hand if not gen.wild_capable[c])
        parts = gen.live_parts(hand)
        assert Counter(c for p in parts for c in p) == Counter(gen.live(hand)), hand
        where: dict[int, int] = {}
        for k, part in enumerate(parts):
            assert list(part) == sorted(part, key=gen.order.__getitem__)
            for c in part:
                assert where.setdefault(c, k) == k, (hand, c)  # every copy of a card in the same part
        split += len(parts) > 1
        for meld in gen.hand_candidates(gen.ordered(hand)):
            assert len({where[c] for c in meld}) == 1, (hand, meld)
    assert split  # some hands do split, so the property is exercised


def _walked_runs(gen: CandidateGenerator, shape_index: int, present: int,
                 budget: int) -> set[tuple[tuple[int, ...], int]]:
    """The run skeletons of one suit by a direct walk: every window, every choice of naturals given to wilds."""
    out = set()
    for size, ranks, _ in gen.run_windows[shape_index]:
        held = [r for r in ranks if present >> r & 1]
        gaps = size - len(held)
        if not held or gaps > budget:
            continue
        for extra in range(0, len(held)):
            if gaps + extra > budget:
                break
            for given_up in itertools.combinations(held, extra):
                out.add((tuple(sorted(r for r in held if r not in given_up)), gaps + extra))
    return out


@pytest.mark.parametrize("name", ["menos", "mas-pagat", "uruguay", "gin"])
def test_run_skeleton_table_matches_a_direct_walk(name: str) -> None:
    rs = load(name)
    gen = Solver(rs).candidates
    rng = random.Random(f"skeletons:{name}")
    for shape in gen.shapes:
        if not shape.run:
            continue
        for _ in range(300):
            present = rng.getrandbits(rs.deck.n_ranks) & rng.getrandbits(rs.deck.n_ranks)
            budget = rng.randint(0, 3)
            table = {(tuple(sorted(r)), w) for r, w in gen._run_skeletons(shape, present, budget)}
            assert table == _walked_runs(gen, shape.index, present, budget), (present, budget)


@pytest.mark.parametrize("rs", rulesets(), ids=lambda rs: rs.name)
def test_arrangements_with_and_without_the_live_cut_are_the_same(rs: Ruleset, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    sample = hands(rs, f"cut:{rs.name}", 120)
    cut = [Solver(rs).arrange(h) for h in sample]
    # Without the cut: every card counts as live (the trivially safe superset), and no answer is shared.
    monkeypatch.setattr(CandidateGenerator, "live", lambda self, cards: self.ordered(cards))
    whole = [Solver(rs).arrange(h) for h in sample]
    for h, a, b in zip(sample, cut, whole, strict=True):
        assert (a.melds, a.left, a.score, a.left_value) == (b.melds, b.left, b.score, b.left_value), h


@pytest.mark.parametrize("rs", rulesets(), ids=lambda rs: rs.name)
def test_the_plain_search_of_small_hands_chooses_what_the_full_search_chooses(
        rs: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small hands are searched without bounds (``searches.LIGHT_UP_TO``): same melds, same ties, same order."""
    sample = hands(rs, f"light:{rs.name}", 150)
    light = [Solver(rs).arrange(h) for h in sample]
    scores = [Solver(rs).best_score(h) for h in sample]
    monkeypatch.setattr(searches, "LIGHT_UP_TO", -1)  # every hand through HandSearch
    for h, a, score in zip(sample, light, scores, strict=True):
        b = Solver(rs).arrange(h)
        assert (a.melds, a.left, a.score) == (b.melds, b.left, b.score), h
        assert score == b.score, h


@pytest.mark.parametrize("rs", rulesets(), ids=lambda rs: rs.name)
def test_an_arrangement_scores_as_the_scorer_scores_it(rs: Ruleset) -> None:
    solver = Solver(rs)
    for hand in hands(rs, f"score:{rs.name}", 150):
        for arrangement in (solver.arrange(hand), solver.best_discard(hand)[1]):
            scored = score_player(rs, melds=[m.cards for m in arrangement.melds], hand=arrangement.left,
                                  players=solver.players)
            assert (arrangement.score, arrangement.left_value) == (scored.score, scored.hand_value), hand
            assert Counter(arrangement.left) + sum((Counter(m.cards) for m in arrangement.melds), Counter()) \
                == Counter(arrangement.cards)


def test_caches_stay_within_their_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calls, "CACHE_LIMIT", 50)
    monkeypatch.setattr(calls, "VALUE_CACHE_LIMIT", 200)
    rs = load("mas-pagat")
    solver = Solver(rs)
    fresh = Solver(rs)
    sample = hands(rs, "bounds", 200, lo=8, hi=12)
    most = 0
    for hand in sample:
        assert solver.arrange(hand).score == fresh.arrange(hand).score  # emptied caches change no answer
        fresh.clear_caches()
        readings = sum(map(len, solver.calls._readings))
        values = sum(map(len, solver.calls._values))
        most = max(most, values)
        # Emptied before a call once past the bound: at most one hand's worth above it.
        assert readings <= 50 + 400 and values <= 200 + 4000, (readings, values)
    assert most > 200  # the bound was reached, so the emptying was exercised


ASYMMETRIC = {
    "a suited card wild": "extends: menos\nname: jack-of-spades\nwilds: {cards: \"JOKER, J♠\"}\n",
    "hearts count double": "extends: menos\nname: hearts-double\nvalues:\n  penalty: |\n    JOKER -> 25\n"
                           "    ♥ -> 20\n    A -> 15\n    J Q K -> 10\n    _ -> face\n",
}


@pytest.mark.parametrize("text", ASYMMETRIC.values(), ids=list(ASYMMETRIC))
def test_a_ruleset_that_singles_out_a_suit_is_not_symmetric(text: str) -> None:
    from loba_dsl.solver.symmetry import suit_symmetric

    rs = loads(text, source="house.yaml")
    assert not suit_symmetric(rs)
    assert Solver(rs).melds.canon is None
    solver = Solver(rs)
    for hand in hands(rs, f"asym:{rs.name}", 150):
        assert solver.best_score(hand) == solver.arrange(hand).score, hand


@pytest.mark.parametrize("name", shipped_names())
def test_every_shipped_ruleset_treats_its_suits_alike(name: str) -> None:
    # docs/rules.md: no shipped variant gives a suit a value, a wild or a shape of its own.
    from loba_dsl.solver.symmetry import suit_symmetric

    assert suit_symmetric(load(name))


@pytest.mark.parametrize("rs", rulesets(), ids=lambda rs: rs.name)
def test_renaming_the_suits_changes_no_best_score(rs: Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    from loba_dsl.solver.symmetry import SuitCanon

    deck = rs.deck
    solver = Solver(rs)
    canon = SuitCanon(rs, solver.candidates.ordered)
    rng = random.Random(f"rename:{rs.name}")
    sample = hands(rs, f"rename:{rs.name}", 150)
    with_canon = [solver.best_score(h) for h in sample]
    plain = Solver(rs)
    monkeypatch.setattr(plain.melds, "canon", None)
    for hand, score in zip(sample, with_canon, strict=True):
        perm = list(range(deck.n_suits))
        rng.shuffle(perm)
        renamed = tuple(c if c == deck.joker_code else deck.code(deck.rank_of(c), perm[deck.suit_of(c)]) for c in hand)
        assert canon(solver.candidates.ordered(hand)) == canon(solver.candidates.ordered(renamed)), hand
        assert plain.best_score(hand) == score == plain.best_score(renamed), hand
