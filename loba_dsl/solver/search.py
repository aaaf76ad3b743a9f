"""The search behind the solver: one hand's candidate melds, bounds and memoised branch and bound.

:class:`HandSearch` holds a hand's distinct cards as a packed count vector (5 bits a
card: 4 for the count, 1 guard bit, so "are these cards free?" is one
subtraction), its candidate melds indexed by their first card in the search
order, per-card prices that bound what the free cards can still gain (the
dual of the melds' fractional packing: coordinate descent, or HiGHS on large
hands), and a memo of exact values and upper bounds.

It is given plain data (the hand, its candidate melds with their gains, the
processing order) and knows nothing of rulesets: the solver prepares the
candidates (:mod:`loba_dsl.solver.candidates`) and reads the choices back.
A *key* is a packed vector of free-card counts; :meth:`HandSearch.first`,
:meth:`HandSearch.drop_first` and :meth:`HandSearch.fits` are all a caller
needs to walk one.
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from loba_dsl.budget import Clock
from loba_dsl.cards.deck import Card
from loba_dsl.solver.multisets import Multiset

__all__ = ["BITS", "Candidate", "HandSearch", "field_bits"]

_LP_FROM = 100
"""Hands with more candidate melds than this get their bound from the linear relaxation (HiGHS), at once.

Measured on 25-card hands of two decks with 2s and Jokers wild (issue 11): the relaxation of a hand of
200 to 2,000 candidates solves in 3 to 25 ms, and its bound is nearly always
the best value itself, so a search from just below it (:meth:`HandSearch._aspired`)
visits a few hundred states where the cheap bound needed thousands.  Since the wilds are pooled and
HiGHS runs without presolve, it pays from about 100 candidates: 60 such hands, arranged, cost 84.0M
instructions a hand from 500, 60.7M from 200, 47.2M from 100, 45.8M from 50 (callgrind); 100 keeps
HiGHS, and its import, away from hands of a dozen cards (none of 300 11-card ones reaches it).
"""

_EPS = 1e-6
"""Slack for floating-point bounds on whole-number gains."""

_BITSET_FROM = 48
"""A first card's list of melds this long is filtered by bitsets of the cards they use (:meth:`HandSearch._search`)."""

BITS = 5
"""The fewest bits per distinct card in a packed count vector: 4 for the count, 1 guard bit.

A hand holding more than 15 copies of one card (a house ruleset with many
Jokers) gets wider fields: :func:`field_bits` sizes them so no count can
overflow into its neighbour (it once did: 16 Jokers read as 0).
"""


def field_bits(most: int) -> int:
    """Bits per card for counts up to ``most``: enough for the count, plus one guard bit."""
    return max(BITS, most.bit_length() + 1)


class Candidate(NamedTuple):
    """A candidate meld of the hand, as the search uses it (a named tuple: a hand builds thousands)."""

    cards: Multiset
    gain: int
    delta: int
    """The candidate's cards as a packed count vector (5 bits per distinct card of the hand)."""
    swap: bool = False
    """It uses as a wild a card of the Joker's class that is not a Joker (a 2 that could be natural),
    one that a free Joker could replace without the meld losing its first card (see :class:`HandSearch`)."""
    jokers: int = 0
    """How many Jokers it uses."""


class HandSearch:
    """One hand's search: distinct cards, candidate melds, memo on packed free-card counts.

    ``given`` is the hand as given (arrangements show its cards in that order);
    ``cards`` the cards searched, sorted in ``order`` (with ``stand_ins``, cards
    that can only be wild here, already searched as ``joker``); ``melds`` the
    candidate melds of ``cards`` with a positive gain each.  ``swaps`` says
    names the cards of the Joker's class (Jokers aside) that a meld can only
    use as wilds.

    The exchange behind ``swaps``: at a state whose first free card is ``i``,
    a meld ``S`` holding such a card ``t`` while a Joker outside ``S`` is
    free need not be tried, *provided* ``S`` with a Joker for ``t`` still
    holds ``i``.  Any arrangement using ``S`` leaves that Joker in hand (give
    it ``t`` instead: same value) or in a meld ``M`` (swap ``t`` and the
    Joker: ``M`` reads ``t`` as the wild the Joker was); either way ``S``
    with the Joker is as good, and it is tried here since it holds ``i``.
    If ``t`` is ``i`` itself (its only copy in ``S``), the swapped meld
    is not among this state's options and ``M`` with ``t`` is ``S`` again
    (``A♥ 2♠ JOKER`` beside ``A♥ JOKER JOKER``): ``S`` must be tried.
    """

    def __init__(self, given: Multiset, cards: Multiset, melds: Sequence[tuple[Multiset, int]], *,
                 order: Mapping[Card, int], joker: Card, stand_ins: tuple[Card, ...] = (),
                 swaps: Callable[[Multiset], Multiset] | None = None, clock: Clock | None = None,
                 pooled: frozenset[Card] = frozenset()) -> None:
        self.clock = clock
        """The budget of the call this search serves: ticked once per state visited."""
        self.given = given
        """The cards in the order they were given (arrangements show them so)."""
        self.cards = cards
        raw = list(melds)
        self.stand_ins = stand_ins
        """Cards that can only ever be wild here, searched as Jokers (``real`` maps them back)."""
        self.alias = {c: joker for c in stand_ins}
        self.joker = joker
        self.pooled = pooled
        """Cards searched twice over (see ``Searches.pooled_input``): each copy is one
        ``joker`` of ``cards`` (a wild card of the pool) and one copy of itself (the right to be its natural self);
        a meld holding it uses up both."""
        counts = Counter(cards)
        uses: Counter[Card] = Counter()
        for m, _ in raw:
            used_codes = set(m)
            if pooled and not used_codes.isdisjoint(pooled):
                used_codes.add(joker)
            uses.update(used_codes)
        # Cards no meld can use are simply kept; the others are taken most constrained first.
        self.dead = tuple(c for c in cards if c not in uses)
        self.codes = sorted(uses, key=lambda c: (uses[c], order[c]))
        self.counts = [counts[c] for c in self.codes]
        index = {c: i for i, c in enumerate(self.codes)}
        self.index = index
        bits = self.bits = field_bits(max(self.counts, default=0))
        """Bits per distinct card in the packed keys (the count, then a guard bit)."""
        self.mask = (1 << (bits - 1)) - 1
        guard_bit = 1 << (bits - 1)
        self.full = sum(n << (bits * i) for i, n in enumerate(self.counts))
        self.guard = sum(guard_bit << (bits * i) for i in range(len(self.codes)))
        per_meld: list[dict[int, int]] = []
        share = [0.0] * len(self.codes)
        pool_index = index.get(joker, -1)
        for m, g in raw:
            used: dict[int, int] = {}
            for c in m:
                i = index[c]
                used[i] = used.get(i, 0) + 1
                if c in pooled:
                    used[pool_index] = used.get(pool_index, 0) + 1  # the physical card is one of the pool
            per_meld.append(used)
            per = g / len(m)
            for i in used:
                if per > share[i]:
                    share[i] = per
        self._packing = [(used, g) for used, (_, g) in zip(per_meld, raw, strict=True)]
        """The melds as (card index -> copies, gain), for the linear relaxation if the search grows."""
        self._can_relax = len(raw) > _LP_FROM
        """The bound is to come from the linear relaxation, when the first search starts."""
        self.share = share
        self.by_first: list[list[int]] = [[] for _ in self.codes]
        self.joker_shift = bits * index[joker] if joker in index else -1
        joker_index = index.get(joker, -1)
        cands: list[Candidate] = []
        bounds: list[float] = []
        for (m, g), used in zip(raw, per_meld, strict=True):
            delta = 0
            bound = 0.0
            for i, n in used.items():
                delta += n << (bits * i)
                bound += n * share[i]
            first = min(used)
            self.by_first[first].append(len(cands))
            swap = False
            if joker_index >= 0 and swaps is not None:
                wilds = swaps(m)
                # A Joker may take the place of one of these only if the meld keeps its first card.
                lead = self.codes[first]
                swap = any(c != lead for c in wilds) or (used[first] > 1 and lead in wilds)
            cands.append(Candidate(m, g, delta, swap, used.get(joker_index, 0)))
            bounds.append(bound)
        self.cands = cands
        self.bounds = bounds
        """Per candidate, the sum of its cards' bound shares (what the bound gives up when it goes down)."""
        """The candidate melds; ``by_first[i]`` lists those whose first card (in ``codes``) is ``i``."""
        for options in self.by_first:  # most promising first: better pruning
            options.sort(key=lambda j: -cands[j].gain)
        self.tops: list[list[float]] = []
        """Per first card, for each place in ``by_first``, the most a meld from that place on can add over its
        cards' bound shares (gain less bound): once that cannot beat the incumbent, no later meld can."""
        self._index_tops()
        self._index_users()
        self.memo: dict[int, tuple[int, int, bool]] = {}
        self._aspire = False
        """Search from just below the bound (:meth:`_aspired`): once the bound is the linear relaxation's."""
        """key -> (value, choice, exact); a value that is not exact bounds the true one from above."""

    def real(self, melds: Sequence[Multiset], left: Sequence[Card], dropped: Card | None = None
             ) -> tuple[list[Multiset], list[Card]]:
        """Melds and cards left in real cards: the stand-ins searched as Jokers get their own names back."""
        if not self.stand_ins and not self.pooled:
            return list(melds), list(left)
        joker = self.joker
        real_jokers = self.given.count(joker)
        spare = list(self.stand_ins)
        if self.pooled:
            # The pooled cards no meld holds as themselves fill the Jokers' places once the real Jokers are used.
            spare = [c for c in self.given if c in self.pooled]
            for m in melds:
                for c in m:
                    if c in self.pooled:
                        spare.remove(c)
        if dropped is not None and dropped in spare:
            spare.remove(dropped)
        elif dropped == joker:
            real_jokers -= 1

        def name(c: Card) -> Card:
            nonlocal real_jokers
            if c != joker:
                return c
            if real_jokers > 0:
                real_jokers -= 1
                return c
            return spare.pop(0)

        real_melds = [tuple(name(c) for c in m) for m in melds]
        return real_melds, [name(c) for c in left]

    def stuck(self) -> list[Card]:
        """The cards of the hand (as given) that no candidate meld can hold: they stay in hand whatever is chosen.

        A card of the pool is held as a wild (one of the searched Jokers) if any is.
        """
        index, alias, pooled, joker = self.index, self.alias, self.pooled, self.joker
        return [c for c in self.given if (joker if c in pooled else alias.get(c, c)) not in index]

    def without(self, card: Card) -> int | None:
        """The full key less one copy of ``card`` (``None`` if the card is dead: not in the key)."""
        i = self.index.get(self.alias.get(card, card))
        if card in self.pooled:
            key = self.full
            for j in (i, self.index.get(self.joker)):  # its right to be itself, and its place in the pool
                if j is not None:
                    key -= 1 << (self.bits * j)
            return None if key == self.full else key
        return None if i is None else self.full - (1 << (self.bits * i))

    def first(self, key: int) -> int:
        """The index (in ``codes``) of the first free card of ``key``."""
        return ((key & -key).bit_length() - 1) // self.bits

    def drop_first(self, key: int) -> int:
        """``key`` less one copy of its first free card (the card is kept in hand)."""
        return key - (1 << (self.bits * self.first(key)))

    def fits(self, key: int, cand: Candidate) -> bool:
        """Are all of the candidate's cards free in ``key``?"""
        guard = self.guard
        return ((key | guard) - cand.delta) & guard == guard

    def bound(self, key: int) -> float:
        total = 0.0
        i = 0
        share = self.share
        mask, bits = self.mask, self.bits
        while key:
            n = key & mask
            if n:
                total += n * share[i]
            key >>= bits
            i += 1
        return total

    def solve(self, key: int) -> int:
        """Greatest total gain of disjoint candidate melds within the free cards ``key`` (exact).

        A large hand's bound is the linear relaxation's (HiGHS), and its search
        starts from just below that bound (:meth:`_aspired`); if HiGHS does not
        solve it, the per-card shares are tightened instead.
        """
        if not key:
            return 0
        hit = self.memo.get(key)
        if hit is not None and hit[2]:
            return hit[0]
        self._relax_once()
        if self._aspire:
            return self._aspired(key)
        return self._search(key, -1, self.bound(key))

    def reaches(self, key: int, target: int) -> bool:
        """Whether the greatest total gain within the free cards ``key`` is at least ``target``.

        One search told to beat ``target - 1`` only: it prunes every option that
        cannot get there, and where it gets there its value and choices are exact
        (as :meth:`_aspired`'s), so :meth:`choice` reads the same arrangement as
        after :meth:`solve`.
        """
        if target <= 0:
            return True
        if not key:
            return False
        hit = self.memo.get(key)
        if hit is not None and hit[2]:
            return hit[0] >= target
        self._relax_once()
        return self._search(key, target - 1, self.bound(key)) >= target

    def _relax_once(self) -> None:
        """On the first search of a large hand, the linear relaxation's bound (else the shares, tightened)."""
        if self._can_relax:
            self._can_relax = False
            if self._relax():
                self._aspire = True
            else:  # pragma: no cover - HiGHS is a declared dependency
                _tighten(self.share, self._packing)
                self._reprice(self.share)

    def _aspired(self, key: int) -> int:
        """The exact value of ``key``, searched from just below its bound down (aspiration windows).

        With the linear relaxation's bound, the best value is usually the bound
        itself (rounded down): a search told to beat one less than that prunes
        nearly everything, and answers exactly if the value is above it.  If it
        fails (the value is lower), the window is lowered by twice as much and
        the search goes on with the memo it has built (every value in it exact
        or a true upper bound).  A search answering above its window returns
        the exact value with the same choices as a search from nothing: it
        takes the first option that attains the best value, as that one does.
        """
        ub = self.bound(key)
        top = int(ub + _EPS)
        step = 1
        while top - step >= 0:
            value = self._search(key, top - step, ub)
            if value > top - step:
                return value
            step *= 2
        return self._search(key, -1, ub)

    def _index_users(self) -> None:
        """For each long list of ``by_first``, per card code the bitset of the places of the melds that use it."""
        self.users: list[list[int] | None] = []
        for options in self.by_first:
            if len(options) < _BITSET_FROM:
                self.users.append(None)
                continue
            users = [0] * len(self.codes)
            for k, j in enumerate(options):
                used = self._packing[j][0]
                for code in used:
                    users[code] |= 1 << k
            self.users.append(users)

    def _index_tops(self) -> None:
        cands, bounds = self.cands, self.bounds
        self.tops = []
        for options in self.by_first:
            tops = [0.0] * len(options)
            most = float("-inf")
            for k in range(len(options) - 1, -1, -1):
                j = options[k]
                most = max(most, cands[j].gain - bounds[j])
                tops[k] = most
            self.tops.append(tops)

    def _relax(self) -> bool:
        """Switch to the bound of the linear relaxation; ``False`` if HiGHS does not solve it."""
        prices = _lp_shares(self.counts, self._packing)
        if prices is None:  # pragma: no cover - HiGHS is a declared dependency
            return False
        self._reprice(prices)
        return True

    def _reprice(self, prices: list[float]) -> None:
        """Bound every state by these per-card prices (they must cover every meld's gain)."""
        self.share = prices
        self.bounds = [sum(n * prices[i] for i, n in used.items()) for used, _ in self._packing]
        self._index_tops()

    def choice(self, key: int) -> int:
        """The meld chosen at an exactly solved state (-1: keep the first card)."""
        hit = self.memo.get(key)
        if hit is None or not hit[2]:
            self._search(key, -1, self.bound(key))
            hit = self.memo[key]
        return hit[1]

    def _search(self, key: int, alpha: float, ub: float) -> int:
        """Branch and bound with a memo of exact values and of upper bounds.

        Returns the exact best gain of ``key`` when it is above ``alpha``;
        otherwise some value no greater than ``alpha`` that bounds it from above.
        """
        if not key:
            return 0
        memo = self.memo
        hit = memo.get(key)
        if hit is not None and (hit[2] or hit[0] <= alpha):
            return hit[0]
        clock = self.clock
        if clock is not None:
            clock.tick()

        if ub < alpha + 1 - _EPS:
            return int(alpha)  # even taking everything that is left cannot beat alpha (gains are whole numbers)
        bits = self.bits
        i = ((key & -key).bit_length() - 1) // bits
        # Keeping the first card is tried first: a good incumbent prunes many melds.
        best = self._search(key - (1 << (bits * i)), alpha, ub - self.share[i])
        choice = -1
        guard = self.guard
        cands = self.cands
        joker_shift = self.joker_shift
        tops = self.tops[i]
        bounds = self.bounds
        floor = best if best > alpha else alpha
        options = self.by_first[i]
        users = self.users[i]
        places: Iterable[int]
        if users is not None:
            # A long list: only the melds whose every card has a copy free, by the bitsets of their places.
            allowed = (1 << len(options)) - 1
            mask = self.mask
            for code, uses in enumerate(users):
                if uses and not (key >> (bits * code)) & mask:
                    allowed &= ~uses
            places = _places(allowed)
        else:
            places = range(len(options))
        for k in places:
            if tops[k] + ub < floor + 1 - _EPS:
                break  # no meld from here on can beat what is in hand (``tops``: the most any of them adds)
            j = options[k]
            cand = cands[j]
            if ((key | guard) - cand.delta) & guard != guard:
                continue  # some card of the meld is not free
            if cand.swap and (key >> joker_shift) & self.mask > cand.jokers:
                continue  # the same meld with a free Joker instead of the 2 is as good and keeps the 2
            floor = best if best > alpha else alpha
            rest_ub = ub - bounds[j]
            if cand.gain + rest_ub < floor + 1 - _EPS:
                continue  # cannot beat what is already in hand (gains are whole numbers)
            value = cand.gain + self._search(key - cand.delta, floor - cand.gain, rest_ub)
            if value > best:
                best, choice = value, j
        if best <= alpha:
            # Failed low: the options that were cut were only bounded by alpha, so alpha is the bound.
            memo[key] = (int(alpha), -1, False)
            return int(alpha)
        memo[key] = (best, choice, True)
        return best


def _places(bits: int) -> Iterator[int]:
    """The places of the set bits of ``bits``, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _lp_shares(counts: list[int], melds: list[tuple[dict[int, int], int]]) -> list[float] | None:
    """Per-card shares from the optimal dual of the melds' fractional packing, solved by HiGHS.

    The packing (choose melds, each card at most as often as it is held) relaxed
    to fractions is a small linear program; its optimal dual prices ``y`` cover
    every meld (``sum(copies * y) >= gain``), so they bound every state of the
    search, and at the root the bound is usually the optimum itself.  Returns
    ``None`` (the caller keeps its own bound) if HiGHS is missing or the prices
    do not check out.
    """
    try:
        import highspy
        import numpy as np
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    plain = getattr(highspy, "_Highs", None)  # the plain solver: quiet (the wrapper prints a banner)
    if plain is None:  # pragma: no cover - other highspy layouts
        return None
    solver = plain()
    solver.setOptionValue("output_flag", False)
    # These programs are small (hundreds of melds, tens of cards) and have no redundancy to remove:
    # presolve took half of HiGHS's time on 25-card hands and changed no optimum (issue 11).
    solver.setOptionValue("presolve", "off")
    lp = highspy.HighsLp()
    lp.num_col_ = len(melds)
    lp.num_row_ = len(counts)
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_cost_ = np.array([float(g) for _, g in melds])
    lp.col_lower_ = np.zeros(len(melds))
    lp.col_upper_ = np.full(len(melds), highspy.kHighsInf)
    lp.row_lower_ = np.full(len(counts), -highspy.kHighsInf)
    lp.row_upper_ = np.array([float(n) for n in counts])
    # The constraint matrix by columns (one per meld: the cards it holds, and how many copies of each).
    column_starts = np.fromiter(itertools.accumulate((len(used) for used, _ in melds), initial=0), dtype=np.int32,
                                count=len(melds) + 1)
    rows = np.fromiter(itertools.chain.from_iterable(used for used, _ in melds), dtype=np.int32)
    copies = np.fromiter(itertools.chain.from_iterable(used.values() for used, _ in melds), dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = column_starts
    lp.a_matrix_.index_ = rows
    lp.a_matrix_.value_ = copies
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    prices = np.abs(np.array(solver.getSolution().row_dual, dtype=float))
    # Trust but verify: the prices must cover every meld, or they bound nothing (every meld holds a card,
    # so no column is empty and each sum below is one meld's).
    covered = np.add.reduceat(copies * prices[rows], column_starts[:-1])
    if bool(np.any(covered < lp.col_cost_ - 1e-7)):
        return None
    return [float(y) + 1e-9 for y in prices]


def _tighten(share: list[float], melds: list[tuple[dict[int, int], int]], passes: int = 3) -> None:
    """Lower the per-card shares while every meld's gain stays covered by its cards' shares.

    Any shares with ``sum(copies * share[card]) >= gain`` for every meld bound
    what disjoint melds can gain (the dual of their fractional packing); each
    pass lowers each card's share to the least that keeps its melds covered.
    """
    containing: list[list[int]] = [[] for _ in share]
    for k, (used, _) in enumerate(melds):
        for c in used:
            containing[c].append(k)
    slack = [sum(n * share[c] for c, n in used.items()) - g for used, g in melds]
    order = sorted(range(len(share)), key=lambda c: -share[c])
    for _ in range(passes):
        for c in order:
            if not containing[c] or share[c] <= 0:
                continue
            cut = share[c]
            for k in containing[c]:
                room = slack[k] / melds[k][0][c]
                if room < cut:
                    cut = room
                    if cut <= 1e-9:
                        break
            if cut <= 1e-9:
                continue
            share[c] -= cut
            for k in containing[c]:
                slack[k] -= cut * melds[k][0][c]


sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
