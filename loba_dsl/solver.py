"""The best arrangement of a hand into disjoint legal melds, exactly, for any ruleset.

"Best" is the ruleset's own round formula if the round ended now (see
:mod:`loba_dsl.objective`): least penalty left in ``menos``, most points in
``mas`` and ``mas-pagat``, deadwood in ``gin``.  The formula reduces to a
baseline (every card left in hand) plus, for each meld put down, a *gain*;
the solver picks disjoint melds of greatest total gain.

Search: the cards are taken in a fixed order (plain naturals by suit and rank,
then the cards that can be wild); the first card left is either kept in hand
or put in one of the legal melds that contain it, drawn from the cards still
free; results are memoised on the multiset of free cards.  Candidate melds
are generated from the shapes (sets by rank, runs by window, wilds where they
may go) and every candidate is judged by the same matcher as ``loba check``,
so the solver can never accept a meld the rules refuse.

Ties: among arrangements of equal score the solver keeps the first it meets
in that order: a card is kept in hand unless melding it is strictly better,
and melds are tried in increasing order of their sorted cards.
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from loba_dsl.deck import Card
from loba_dsl.dsl import ast as A
from loba_dsl.melds import Reading, _Spec, matcher_for
from loba_dsl.objective import Objective, round_objective
from loba_dsl.ruleset import Ruleset

Multiset = tuple[Card, ...]

_BITS = 5
"""Bits per distinct card in a packed count vector: 4 for the count, 1 guard bit."""
_MASK = 0b1111
_GUARD = 0b10000


@dataclass(frozen=True)
class PlacedMeld:
    """A meld of the arrangement, read the way that scores best."""

    cards: Multiset
    reading: Reading
    gain: int


@dataclass(frozen=True)
class Arrangement:
    """The melds, the cards left, and what they are worth."""

    cards: Multiset
    melds: tuple[PlacedMeld, ...]
    left: Multiset
    left_value: int | None
    """The left cards by the hand table of the round formula (deadwood in gin)."""
    score: int
    """The round score if the round ended now, by the ruleset's formula."""
    melded_all: bool


@dataclass(frozen=True)
class GoingOut:
    """Whether a hand can go out, and how."""

    possible: bool
    discard: Card | None
    arrangement: Arrangement | None


class Solver:
    """Exact arrangements of hands under one ruleset (build once, solve many hands)."""

    def __init__(self, ruleset: Ruleset, *, players: int = 4) -> None:
        self.rs = ruleset
        self.deck = ruleset.deck
        self.players = players
        self.objective: Objective = round_objective(ruleset, players=players)
        self.matcher = matcher_for(ruleset)
        self.specs = self.matcher.specs
        deck = self.deck
        self.wild_capable = tuple(
            c == deck.joker_code or c in ruleset.wild_cards for c in range(deck.n_codes))
        # Processing order: plain naturals by suit then rank, then the cards that can be wild.
        keys = sorted(range(deck.n_codes), key=lambda c: (
            self.wild_capable[c], deck.suit_of(c) if c != deck.joker_code else 99,
            deck.rank_of(c) if c != deck.joker_code else 99))
        self.order = {c: i for i, c in enumerate(keys)}
        self.sign = self.objective.sign
        self.left_utility, self.meld_terms = self._terms()
        self._gains: dict[Multiset, tuple[int, Reading] | None] = {}
        self._wild_limit = {k.index: _wild_limit(k) for k in self.specs}

    # ------------------------------------------------------------ objective pieces

    def _terms(self) -> tuple[tuple[int, ...], list[tuple[int, str | None, Callable[[Any], bool] | None]]]:
        """Per card left, its utility; per meld, the (coefficient, table, filter) terms."""
        from loba_dsl.dsl.closures import _compile

        lin = self.objective.linear
        left = [0] * self.deck.n_codes
        meld_terms: list[tuple[int, str | None, Callable[[Any], bool] | None]] = []
        for (kind, table, where), coeff in lin.terms.items():
            if kind == "hand":
                values = self.rs.hand_values[table]
                for c in range(self.deck.n_codes):
                    left[c] += coeff * values[c]
            elif kind == "hand_count":
                for c in range(self.deck.n_codes):
                    left[c] += coeff
            else:
                test = _compile(where, "melds") if isinstance(where, A.Expr) else None
                meld_terms.append((coeff, table if kind == "melds" else None, test))
        return tuple(self.sign * v for v in left), meld_terms

    def gain(self, meld: Multiset) -> tuple[int, Reading] | None:
        """Utility gained by putting ``meld`` down instead of keeping it (``None``: not legal)."""
        cached = self._gains.get(meld, False)
        if cached is not False:
            return cached  # type: ignore[return-value]
        best = self.matcher.match(meld, reasons=False).best
        result: tuple[int, Reading] | None = None
        if best is not None:
            value = 0
            facts = None
            for coeff, table, test in self.meld_terms:
                if test is not None:
                    if facts is None:
                        facts = _Facts(self.rs, meld, best)
                    if not test((_Outer(self.players), facts)):
                        continue
                if table is None:
                    value += coeff
                else:
                    value += coeff * self._table_points(table, meld, best)
            utility = self.sign * value - sum(self.left_utility[c] for c in meld)
            result = (utility, best)
        self._gains[meld] = result
        return result

    def _table_points(self, table: str, meld: Multiset, best: Reading) -> int:
        if table == self.rs.meld_points and best.points is not None:
            return best.points
        other = matcher_for(self.rs, table).match(meld, reasons=False).best
        assert other is not None and other.points is not None
        return other.points

    # ------------------------------------------------------------ search

    def _sorted(self, cards: Sequence[Card]) -> Multiset:
        order = self.order
        return tuple(sorted(cards, key=order.__getitem__))

    def arrange(self, cards: Sequence[Card]) -> Arrangement:
        """The best arrangement of ``cards`` if the round ended now."""
        hand = _Hand(self, self._sorted(cards), self._gain_or_none)
        hand.solve(hand.full)
        return self._build(hand, hand.full)

    def _gain_or_none(self, meld: Multiset) -> int | None:
        g = self.gain(meld)
        return None if g is None else g[0]

    def _build(self, hand: _Hand, key: int) -> Arrangement:
        from loba_dsl.scoring import score_player

        melds: list[PlacedMeld] = []
        left: list[Card] = []
        while key:
            i = hand.first(key)
            _, choice = hand.memo.get(key, (0, -1))
            if choice < 0:
                left.append(hand.codes[i])
                key -= 1 << (_BITS * i)
                continue
            cand = hand.cands[choice]
            g = self.gain(cand.cards)
            assert g is not None
            melds.append(PlacedMeld(cand.cards, g[1], g[0]))
            key -= cand.delta
        scored = score_player(self.rs, melds=[m.cards for m in melds], hand=left, players=self.players)
        cards = tuple(c for c, n in zip(hand.codes, hand.counts, strict=True) for _ in range(n))
        return Arrangement(cards, tuple(melds), tuple(left), scored.hand_value, scored.score, not left)

    # ------------------------------------------------------------ candidate melds of a hand

    def hand_candidates(self, hand: Multiset) -> list[Multiset]:
        """Every sub-multiset of ``hand`` that may be a legal meld (a superset; the matcher decides)."""
        counts = Counter(hand)
        pool = [(c, n) for c, n in sorted(counts.items(), key=lambda cn: self.order[cn[0]]) if self.wild_capable[c]]
        out: set[Multiset] = set()
        for k in self.specs:
            gen = self._runs(k, counts, pool) if k.run else self._sets(k, counts, pool)
            for m in gen:
                out.add(self._sorted(m))
        wild_cards = sum(n for _, n in pool)
        lo = min(k.lo for k in self.specs)
        if wild_cards >= lo:  # melds of wild-capable cards only (natural 2s, or all wild where allowed)
            hi = max(k.hi for k in self.specs)
            for m in _submultisets(pool, hi):
                if len(m) >= lo:
                    out.add(self._sorted(m))
        return sorted(out, key=lambda m: [self.order[c] for c in m])

    def _sets(self, k: _Spec, counts: Counter[Card], pool: list[tuple[Card, int]]) -> Iterator[Multiset]:
        deck = self.deck
        budget = 0 if k.no_wilds is not None else min(self._wild_limit[k.index], sum(n for _, n in pool))
        by_rank: dict[int, list[tuple[Card, int]]] = {}
        for c, n in sorted(counts.items()):
            if c != deck.joker_code and not (self.wild_capable[c] and not self.rs.natural_too):
                by_rank.setdefault(deck.rank_of(c), []).append((c, n))
        for items in by_rank.values():
            if sum(n for _, n in items) + budget < k.lo:
                continue
            for sub in _submultisets(items, k.hi):
                if not sub:
                    continue
                if k.distinct is not None:
                    suits = [deck.suit_of(c) for c in sub]
                    if len(set(suits)) < len(suits):
                        continue
                for w in range(min(budget, k.hi - len(sub)) + 1):
                    if len(sub) + w < k.lo:
                        continue
                    for wilds in _combos(pool, w, exclude=sub):
                        yield (*sub, *wilds)

    def _runs(self, k: _Spec, counts: Counter[Card], pool: list[tuple[Card, int]]) -> Iterator[Multiset]:
        deck = self.deck
        R = deck.n_ranks
        n_wild = sum(n for _, n in pool)
        budget = 0 if k.no_wilds is not None else min(n_wild, self._wild_limit[k.index])
        for suit in range(deck.n_suits):
            present = [counts[deck.code(r, suit)] for r in range(R)]
            if sum(1 for p in present if p) + budget < k.lo:
                continue
            for positions in _all_windows(k, R, deck.ace):
                codes = [deck.code(_rank_at(p, k, R, deck.ace), suit) for p in positions]
                have = Counter[Card]()
                gaps, options = [], []
                for i, c in enumerate(codes):
                    if counts[c] - have[c] > 0:
                        options.append(i)
                        have[c] += 1
                    else:
                        gaps.append(i)
                if len(gaps) > budget or not options:
                    continue
                for extra in range(min(budget - len(gaps), len(options) - 1) + 1):
                    for to_wild in itertools.combinations(options, extra):
                        naturals = [codes[i] for i in options if i not in to_wild]
                        for wilds in _combos(pool, len(gaps) + extra, exclude=naturals):
                            yield (*naturals, *wilds)

    # ------------------------------------------------------------ going out, discards

    def max_melded(self, cards: Sequence[Card]) -> tuple[int, Arrangement]:
        """The most cards that can be melded at once, and one such arrangement."""
        hand = _Hand(self, self._sorted(cards), self._count_if_legal)
        best = hand.solve(hand.full)
        return best, self._build(hand, hand.full)

    def _count_if_legal(self, meld: Multiset) -> int | None:
        return len(meld) if self.gain(meld) is not None else None

    def can_go_out(self, cards: Sequence[Card]) -> GoingOut:
        """Can this hand go out under the ruleset's going-out rule (``turn.going_out``)?"""
        rule = self.rs.settings.get("turn", {}).get("going_out", "discard_required")
        hand = _Hand(self, self._sorted(cards), self._count_if_legal)
        total = len(hand.cards)
        if rule != "discard_required":
            n = hand.solve(hand.full)
            if n == total or (rule == "one_card_left" and n >= total - 1):
                return GoingOut(True, None, self._build(hand, hand.full))
        for i, code in enumerate(hand.codes):
            key = hand.full - (1 << (_BITS * i))
            if hand.solve(key) == total - 1:
                return GoingOut(True, code, self._build(hand, key))
        return GoingOut(False, None, None)

    def best_discard(self, cards: Sequence[Card]) -> tuple[Card, Arrangement]:
        """For a hand that has just drawn: the discard after which the arrangement is best (exact)."""
        hand = _Hand(self, self._sorted(cards), self._gain_or_none)
        best: tuple[int, int] | None = None
        for i, code in enumerate(hand.codes):
            value = hand.solve(hand.full - (1 << (_BITS * i))) - self.left_utility[code]
            if best is None or value > best[0]:
                best = (value, i)
        assert best is not None
        i = best[1]
        return hand.codes[i], self._build(hand, hand.full - (1 << (_BITS * i)))


@dataclass(frozen=True, slots=True)
class _Cand:
    cards: Multiset
    gain: int
    delta: int
    """The candidate's cards as a packed count vector (4 bits per distinct card of the hand)."""
    need: tuple[tuple[int, int], ...]
    """(bit shift, copies) per distinct card it uses."""
    bound: float
    """Sum of the per-card bound shares of its cards."""


class _Hand:
    """One hand's search: distinct cards, candidate melds, memo on packed free-card counts."""

    def __init__(self, solver: Solver, cards: Multiset, gain: Callable[[Multiset], int | None]) -> None:
        self.cards = cards
        counts = Counter(cards)
        self.codes = list(dict.fromkeys(cards))
        self.counts = [counts[c] for c in self.codes]
        index = {c: i for i, c in enumerate(self.codes)}
        self.full = sum(n << (_BITS * i) for i, n in enumerate(self.counts))
        self.guard = sum(_GUARD << (_BITS * i) for i in range(len(self.codes)))
        cands: list[_Cand] = []
        raw = []
        for m in solver.hand_candidates(cards):
            g = gain(m)
            if g is not None and g > 0:
                raw.append((m, g))
        share = [0.0] * len(self.codes)
        for m, g in raw:
            per = g / len(m)
            for c in m:
                if per > share[index[c]]:
                    share[index[c]] = per
        self.share = share
        self.by_first: list[list[int]] = [[] for _ in self.codes]
        for m, g in raw:
            used = Counter(m)
            need = tuple((_BITS * index[c], n) for c, n in used.items())
            delta = sum(n << s for s, n in need)
            bound = sum(share[index[c]] for c in m)
            self.by_first[min(index[c] for c in m)].append(len(cands))
            cands.append(_Cand(m, g, delta, need, bound))
        self.cands = cands
        for options in self.by_first:  # most promising first: better pruning
            options.sort(key=lambda j: -cands[j].gain)
        self.memo: dict[int, tuple[int, int]] = {}

    @staticmethod
    def first(key: int) -> int:
        return ((key & -key).bit_length() - 1) // _BITS

    def bound(self, key: int) -> float:
        total = 0.0
        i = 0
        share = self.share
        while key:
            n = key & _MASK
            if n:
                total += n * share[i]
            key >>= _BITS
            i += 1
        return total

    def solve(self, key: int, ub: float | None = None) -> int:
        """Greatest total gain of disjoint candidate melds within the free cards ``key``.

        Exact: an option is skipped only when even the bound on what is left
        cannot make it as good as the best found at this state.
        """
        if not key:
            return 0
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        if ub is None:
            ub = self.bound(key)
        i = self.first(key)
        best = -1
        choice = -1
        guard = self.guard
        cands = self.cands
        for j in self.by_first[i]:
            cand = cands[j]
            if ((key | guard) - cand.delta) & guard != guard:
                continue  # some card of the meld is not free
            rest_ub = ub - cand.bound
            if best >= 0 and cand.gain + rest_ub < best - 1e-9:
                continue
            value = cand.gain + self.solve(key - cand.delta, rest_ub)
            if value > best or (value == best and choice >= 0 and j < choice):
                best, choice = value, j
        left = self.solve(key - (1 << (_BITS * i)), ub - self.share[i])
        if left >= best:
            best, choice = left, -1
        self.memo[key] = (best, choice)
        return best


class _Outer:
    """The round's facts, for a ``where`` filter that names them."""

    def __init__(self, players: int) -> None:
        self.facts: dict[str, int | bool] = {
            "went_out": False, "all_at_once": False, "stock_out": False, "players": players, "round": 1}

    def variable(self, name: str) -> int | bool:
        return self.facts[name]


class _Facts:
    """What a ``melds where ...`` filter asks of one meld."""

    __slots__ = ("kind", "naturals", "shape", "size", "suits", "wilds")

    def __init__(self, rs: Ruleset, meld: Multiset, best: Reading) -> None:
        self.kind = best.kind
        self.shape = rs.kinds[best.kind_index].shape.kind
        self.size = len(meld)
        self.suits = len({rs.deck.suit_of(c) for c in best.stands})
        self.wilds = best.wilds
        self.naturals = best.naturals


def _wild_limit(k: _Spec) -> int:
    limit = k.hi
    for counter, op, v, _ in k.limits:
        if counter == "wilds":
            if op in ("<=", "=="):
                limit = min(limit, v)
            elif op == "<":
                limit = min(limit, v - 1)
    return max(0, limit)


def _all_windows(k: _Spec, R: int, ace: int | None) -> Iterator[list[int]]:
    """Position lists of every run window of an allowed size (positions past ``R - 1`` are the high ace)."""
    hi = min(k.hi, R)
    if k.ace == "wrap":
        for size in range(k.lo, hi + 1):
            for start in range(R if size < R else 1):
                yield [start + i for i in range(size)]
        return
    mappings = {"low": (False,), "high": (True,), "either": (False, True)}.get(k.ace, (False,))
    seen: set[tuple[int, int]] = set()
    for high in mappings if ace is not None else (False,):
        lo_bound = 1 if (high and ace == 0) else 0
        hi_bound = R if high else R - 1
        for size in range(k.lo, hi + 1):
            for start in range(lo_bound, hi_bound - size + 2):
                if (start, size) not in seen:
                    seen.add((start, size))
                    yield list(range(start, start + size))


def _rank_at(p: int, k: _Spec, R: int, ace: int | None) -> int:
    if k.ace == "wrap":
        return p % R
    if p == R:
        assert ace is not None
        return ace
    return p


def _submultisets(items: list[tuple[Card, int]], max_size: int) -> Iterator[Multiset]:
    """Every sub-multiset of ``items`` (code, count) with at most ``max_size`` cards."""

    def rec(i: int, room: int) -> Iterator[Multiset]:
        if i == len(items):
            yield ()
            return
        code, n = items[i]
        for take in range(min(n, room) + 1):
            for rest in rec(i + 1, room - take):
                yield (code,) * take + rest

    yield from rec(0, max(0, max_size))


def _combos(pool: list[tuple[Card, int]], size: int, exclude: Sequence[Card] = ()) -> Iterator[Multiset]:
    """Every multiset of ``size`` cards from ``pool``, less the copies already used in ``exclude``."""
    if size == 0:
        yield ()
        return
    used = Counter(exclude)
    avail = [(c, n - used[c]) for c, n in pool if n - used[c] > 0]

    def rec(i: int, room: int) -> Iterator[Multiset]:
        if room == 0:
            yield ()
            return
        if i == len(avail):
            return
        code, n = avail[i]
        for take in range(min(n, room), -1, -1):
            for rest in rec(i + 1, room - take):
                yield (code,) * take + rest

    yield from rec(0, size)


def _minus(free: Multiset, meld: Multiset, order: dict[Card, int]) -> Multiset:
    out = list(free)
    for c in meld:
        out.remove(c)
    return tuple(out)


sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
