"""Large hands: the solver against an independent integer program solved by HiGHS (issue 4).

Needs the optional benchmark venv (SciPy >= 1.9 for ``scipy.optimize.milp``; the ``bench``
extra, installed by ``bash benchmarks/setup_bench_venv.sh``)::

    benchmarks/.venv-bench/bin/python benchmarks/crosscheck_ilp.py [--n 300] [--sizes 20 25 30] [--seed 1]

Ruleset ``mas-pagat`` (two decks and four Jokers, Jokers and 2s wild, a 2 may
also be a natural 2, role-dependent meld points) unless ``--ruleset`` names
another whose melds the enumeration below covers (``menos``: no meld points,
the penalty of the cards kept, lower better; others are refused with a
message).  What is compared is the round score of a player who has not gone
out, as ``score_player`` reckons it from the ruleset's own formula.  For each
random hand:

1. Candidate melds are enumerated here, independently of the solver: every
   sub-multiset of 3-6 naturals of one rank (piernas), and every run window
   of 3-13 positions in one suit (ace low or high, never both), each position
   filled by the natural card of that suit and rank if the hand has it or by
   any wild card of the hand (a Joker, or under ``mas-pagat`` any 2).  Every legal escalera and
   pierna of the hand is such a multiset.  Each candidate is judged by
   ``score_player``, which reads it by ``matcher_for(rs).match(cards).best``
   (illegal ones raise ``PartError`` and are dropped),
   and worth what putting it down changes in the round score, better-signed:
   ``score_player`` of that meld alone, less what its cards would add to the
   score if kept (``score_player`` of each card alone), both from the score of
   nothing at all, times +1 where a higher score is better and -1 where lower
   is (``mas-pagat``: its meld points plus the in-hand values of its cards;
   ``menos``, no meld points: the penalty of its cards).  This is exact for a
   round formula that is a sum of per-meld and per-card terms (the solver's
   own objective is checked to be one, with no ``max``/``min`` around it), and
   every hand checks it again in step 3.
2. Integer program: ``x_m`` = how many times meld ``m`` is put down (a meld can
   appear twice with two decks); maximise the sum of ``x_m`` times its worth,
   subject to every card being used at most as often as the hand holds it.
   Solved by HiGHS through ``scipy.optimize.milp`` with a zero MIP gap.
3. Its score (the score of keeping the whole hand, plus the objective
   better-signed) is recomputed with ``loba_dsl.scoring.rounds.score_player`` on
   the melds it chose and the cards left, and compared with
   ``Solver(rs).arrange(hand).score`` (also rescored with ``score_player``).
   Any disagreement prints the hand and both arrangements.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import numpy as np  # type: ignore[import-not-found, unused-ignore]
from scipy.optimize import Bounds, LinearConstraint, milp  # type: ignore[import-not-found, import-untyped, unused-ignore]

from loba_dsl.cards.deck import Card
from loba_dsl.errors import InputError, LobaError
from loba_dsl.melds.matcher import matcher_for
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Better, Ruleset
from loba_dsl.scoring.model import PartError
from loba_dsl.scoring.rounds import score_player
from loba_dsl.solver.api import Solver
from loba_dsl.solver.objective import round_objective

Multiset = tuple[Card, ...]


def full_deck(rs: Ruleset) -> list[Card]:
    d = rs.deck
    return [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers


def submultisets(items: Sequence[tuple[Card, int]], size: int) -> Iterator[Multiset]:
    """Every multiset of exactly ``size`` cards from ``items`` (card, copies available)."""
    if size == 0:
        yield ()
        return
    if not items:
        return
    (card, n), rest = items[0], items[1:]
    for take in range(min(n, size), -1, -1):
        for tail in submultisets(rest, size - take):
            yield (card,) * take + tail


def not_expressible(rs: Ruleset) -> list[str]:
    """Why the enumeration and the integer program below cannot stand for this ruleset (empty: they can)."""
    why: list[str] = []
    deck = rs.deck
    if deck.ace != 0:
        why.append("its ace is not the lowest rank (the run windows put the high ace at position n_ranks)")
    any_wild = bool(rs.wilds.cards) or deck.jokers > 0
    for k in matcher_for(rs).specs:
        if k.run:
            if k.ace == "wrap":
                why.append(f"meld '{k.name}' is a run that may turn the corner (none is enumerated)")
            if k.lo < 3:
                why.append(f"meld '{k.name}' is a run of fewer than 3 cards (none is enumerated)")
            continue
        if any_wild and k.no_wilds is None and not any(
                counter == "wilds" and ((op in ("<=", "==") and v == 0) or (op == "<" and v <= 1))
                for counter, op, v, _ in k.limits):
            why.append(f"meld '{k.name}' is a set that may hold wilds (sets are enumerated without)")
        if k.lo < 3 or min(k.hi, deck.copies * deck.n_suits) > 6:
            why.append(f"meld '{k.name}' is a set of fewer than 3 or more than 6 cards (sets of 3-6 are enumerated)")
    try:
        if round_objective(rs).wrap is not None:
            why.append("its round score has a max or min around it")
    except InputError as e:
        why.append(str(e))
    return why


class Candidates:
    """Plausible melds of a hand, enumerated from the deck's geometry alone, judged by the matcher."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.deck = rs.deck
        assert self.deck.ace == 0, "run windows below put the high ace at position n_ranks"
        self.wild = frozenset(rs.wilds.cards) | {self.deck.joker_code}
        self.sign = 1 if rs.scoring.better is Better.HIGHER else -1
        """+1 where a higher round score is better, -1 where lower is: the integer program maximises."""
        self.nothing = score_player(rs).score
        """The round score with nothing put down and nothing kept."""
        self.kept = [score_player(rs, hand=[c]).score - self.nothing for c in range(self.deck.n_codes)]
        """Per card code, what keeping it adds to the round score (``mas-pagat``: minus its in-hand value;
        ``menos``: its penalty)."""

    def keeping(self, hand: Sequence[Card]) -> int:
        """The round score of keeping every card of ``hand`` (as the per-card terms add it up)."""
        return self.nothing + sum(self.kept[c] for c in hand)

    def worth(self, meld: Multiset) -> int:
        """What putting ``meld`` down instead of keeping its cards adds to the round score, better-signed."""
        melded = score_player(self.rs, melds=[meld]).score - self.nothing
        return self.sign * (melded - sum(self.kept[c] for c in meld))

    def multisets(self, hand: Sequence[Card]) -> set[Multiset]:
        deck = self.deck
        counts = Counter(hand)
        out: set[Multiset] = set()
        # Piernas: 3-6 naturals of one rank (natural 2s included; no Joker).
        for rank in range(deck.n_ranks):
            items = [(deck.code(rank, s), counts[deck.code(rank, s)]) for s in range(deck.n_suits)]
            items = [(c, n) for c, n in items if n]
            for size in range(3, min(6, sum(n for _, n in items)) + 1):
                out.update(tuple(sorted(m)) for m in submultisets(items, size))
        # Escaleras: windows of positions 0..n_ranks (position n_ranks is the ace played high).
        pool = sorted((c, n) for c, n in counts.items() if c in self.wild)
        n_wild = sum(n for _, n in pool)
        R = deck.n_ranks
        for suit in range(deck.n_suits):
            for size in range(3, R + 1):
                for start in range(0, R + 2 - size):
                    naturals = [deck.code(p % R, suit) for p in range(start, start + size)]
                    present = [i for i, c in enumerate(naturals) if counts[c]]
                    missing = size - len(present)
                    if missing > n_wild:
                        continue
                    for extra in range(min(n_wild - missing, len(present)) + 1):
                        for as_wild in combinations(present, extra):
                            kept = [naturals[i] for i in present if i not in as_wild]
                            for wilds in submultisets(pool, missing + extra):
                                cards = Counter(kept) + Counter(wilds)
                                if all(counts[c] >= n for c, n in cards.items()):
                                    out.add(tuple(sorted(cards.elements())))
        return out

    def judged(self, hand: Sequence[Card]) -> list[tuple[Multiset, int]]:
        """Legal candidates with their worth (:meth:`worth`)."""
        out = []
        for cards in sorted(self.multisets(hand)):
            try:
                out.append((cards, self.worth(cards)))
            except PartError:  # not a legal meld (score_player reads each by the matcher's best reading)
                continue
        return out


def solve_ilp(cands: Candidates, hand: Sequence[Card]) -> tuple[int, list[Multiset], int]:
    """(objective, melds chosen, number of legal candidates) by HiGHS."""
    judged = cands.judged(hand)
    if not judged:
        return 0, [], 0
    counts = Counter(hand)
    cards = sorted(counts)
    row = {c: i for i, c in enumerate(cards)}
    a = np.zeros((len(cards), len(judged)))
    upper = np.zeros(len(judged))
    for j, (meld, _) in enumerate(judged):
        used = Counter(meld)
        for c, n in used.items():
            a[row[c], j] = n
        upper[j] = min(counts[c] // n for c, n in used.items())
    worth = np.array([w for _, w in judged], dtype=float)
    res = milp(
        c=-worth,
        integrality=np.ones(len(judged)),
        bounds=Bounds(np.zeros(len(judged)), upper),
        constraints=LinearConstraint(a, -np.inf, np.array([counts[c] for c in cards], dtype=float)),
        options={"mip_rel_gap": 0.0},
    )
    if res.status != 0:
        raise RuntimeError(f"HiGHS did not prove optimality: {res.message}")
    chosen: list[Multiset] = []
    for j, x in enumerate(res.x):
        chosen.extend([judged[j][0]] * round(float(x)))
    return round(float(-res.fun)), chosen, len(judged)


def minus(hand: Sequence[Card], melds: Sequence[Multiset]) -> list[Card]:
    left = Counter(hand)
    for m in melds:
        left.subtract(m)
    assert all(n >= 0 for n in left.values()), "melds use more cards than the hand holds"
    return sorted(left.elements())


def describe(rs: Ruleset, melds: Sequence[Sequence[Card]], left: Sequence[Card]) -> str:
    scored = score_player(rs, melds=melds, hand=left)
    parts = [f"{m.kind} [{' '.join(m.cards)}] as [{' '.join(m.reading)}] = {m.points}" for m in scored.melds]
    return (f"score {scored.score}: " + "; ".join(parts)
            + f"; left [{' '.join(scored.hand)}] = {scored.hand_value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=300, help="hands of each size")
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 25, 30])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="mas-pagat")
    args = parser.parse_args()
    try:
        rs = load(args.ruleset)
    except LobaError as e:
        print(f"crosscheck_ilp: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    why = not_expressible(rs)
    if why:
        print(f"crosscheck_ilp: the integer program here cannot stand for ruleset {rs.name}: " + "; ".join(why),
              file=sys.stderr)
        raise SystemExit(2)
    solver = Solver(rs)
    cands = Candidates(rs)
    pool = full_deck(rs)
    rng = random.Random(args.seed)
    print(f"ruleset {rs.name}, seed {args.seed}, {args.n} random hands of each size from the {len(pool)}-card deck;"
          " times per hand (ILP time includes enumerating and judging its candidates)")
    print("  cards  hands  agree  disagree  candidates mean/max  mean score  solver median/max ms  ILP median/max ms")
    for size in args.sizes:
        hands = [rng.sample(pool, size) for _ in range(args.n)]
        agree = 0
        n_cands: list[int] = []
        scores: list[int] = []
        t_solver: list[float] = []
        t_ilp: list[float] = []
        bad: list[str] = []
        for hand in hands:
            t0 = time.perf_counter()
            ours = solver.arrange(hand)
            t1 = time.perf_counter()
            objective, chosen, n = solve_ilp(cands, hand)
            t2 = time.perf_counter()
            t_solver.append(t1 - t0)
            t_ilp.append(t2 - t1)
            n_cands.append(n)
            ours_melds = [m.cards for m in ours.melds]
            ours_score = score_player(rs, melds=ours_melds, hand=minus(hand, ours_melds)).score
            ilp_left = minus(hand, chosen)
            ilp_score = score_player(rs, melds=chosen, hand=ilp_left).score
            assert ilp_score == cands.keeping(hand) + cands.sign * objective, "ILP objective and score_player"
            assert ours_score == ours.score, "Arrangement.score and score_player"
            scores.append(ilp_score)
            if ours_score == ilp_score:
                agree += 1
            else:
                bad.append(f"    {size} cards: {' '.join(rs.deck.names_of(sorted(hand)))}\n"
                           f"      solver {describe(rs, ours_melds, minus(hand, ours_melds))}\n"
                           f"      ILP    {describe(rs, chosen, ilp_left)}")
        print(f"  {size:>5}  {len(hands):>5}  {agree:>5}  {len(hands) - agree:>8}"
              f"  {statistics.mean(n_cands):>10.0f} / {max(n_cands):<7}  {statistics.mean(scores):>10.1f}"
              f"  {statistics.median(t_solver) * 1e3:>9.2f} / {max(t_solver) * 1e3:<8.1f}"
              f"  {statistics.median(t_ilp) * 1e3:>7.1f} / {max(t_ilp) * 1e3:.1f}")
        for text in bad:
            print(text)


if __name__ == "__main__":
    main()
