"""Candidate melds of a hand, generated from the ruleset's shapes (a part of :class:`~loba_dsl.solver.api.Solver`).

Generation only has to find every multiset of the hand's cards that *may* be
a legal meld (a superset): sets by rank, runs by window with wilds where they
may go, and the quick "can anything meld at all?" test.  The matcher judges
every candidate before the search uses it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.melds.matcher import _Spec
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.search import Multiset, _combos, _submultisets


class CandidateMixin:
    """Candidate generation; the :class:`~loba_dsl.solver.api.Solver` provides the state below."""

    rs: Ruleset
    deck: Deck
    specs: tuple[_Spec, ...]
    order: dict[Card, int]
    wild_capable: tuple[bool, ...]
    _wild_limit: dict[int, int]
    _run_windows: dict[int, list[tuple[int, tuple[int, ...], int]]]
    _suit_codes: list[list[Card]]
    _rank: tuple[int, ...]
    _suit: tuple[int, ...]

    def _sorted(self, cards: Sequence[Card]) -> Multiset:
        order = self.order
        return tuple(sorted(cards, key=order.__getitem__))

    def _plain_candidates(self, hand: Multiset) -> Iterator[Multiset]:
        """Candidate melds of a hand of distinct plain naturals: rank groups and suit sequences."""
        rank, suit = self._rank, self._suit
        codes = self._suit_codes
        R = self.deck.n_ranks
        ace = self.deck.ace
        by_rank: dict[int, list[int]] = {}
        by_suit: dict[int, int] = {}
        for c in hand:
            by_rank.setdefault(rank[c], []).append(suit[c])
            by_suit[suit[c]] = by_suit.get(suit[c], 0) | (1 << rank[c])
        for k in self.specs:
            if not k.run:
                for r, suits in by_rank.items():
                    for size in range(k.lo, min(k.hi, len(suits)) + 1):
                        for chosen in itertools.combinations(sorted(suits), size):
                            yield tuple(codes[su][r] for su in chosen)
                continue
            for su, mask in by_suit.items():
                if k.ace == "wrap":
                    line = mask | (mask << R)  # twice round: windows may cross the top
                    top = 2 * R
                elif k.ace in ("high", "either") and ace is not None and mask >> ace & 1:
                    line = mask | (1 << R) if k.ace == "either" else (mask & ~(1 << ace)) | (1 << R)
                    top = R + 1
                else:
                    line = mask
                    top = R
                seen: set[Multiset] = set()
                start = 0
                while start < top:
                    if not line >> start & 1:
                        start += 1
                        continue
                    end = start
                    while end + 1 < top and line >> (end + 1) & 1:
                        end += 1
                    length = end - start + 1
                    for size in range(k.lo, min(k.hi, length, R) + 1):
                        for a in range(start, end - size + 2):
                            ranks = [(p % R) if p != R or k.ace == "wrap" else ace for p in range(a, a + size)]
                            if len(set(ranks)) == size:
                                meld = tuple(codes[su][r] for r in ranks if r is not None)
                                if meld not in seen:
                                    seen.add(meld)
                                    yield meld
                    start = end + 1

    def _may_meld(self, cards: Sequence[Card]) -> bool:
        """False only when no meld kind can possibly be formed from ``cards``."""
        rank, suit, wild_capable = self._rank, self._suit, self.wild_capable
        suits_of = [0] * self.deck.n_ranks
        copies_of = [0] * self.deck.n_ranks
        ranks_of = [0] * self.deck.n_suits
        wild = most_suits = most_copies = 0
        for c in cards:
            if wild_capable[c]:
                wild += 1
            r = rank[c]
            if r < 0:
                continue
            su = suit[c]
            n = copies_of[r] = copies_of[r] + 1
            if n > most_copies:
                most_copies = n
            bit = 1 << su
            if not suits_of[r] & bit:
                suits_of[r] |= bit
                n = suits_of[r].bit_count()
                if n > most_suits:
                    most_suits = n
            ranks_of[su] |= 1 << r
        for k in self.specs:
            budget = 0 if k.no_wilds is not None else min(wild, self._wild_limit[k.index])
            need = k.lo - budget
            if need <= 0:
                return True
            if not k.run:
                if (most_suits if k.distinct is not None else most_copies) >= need:
                    return True
                continue
            for mask in ranks_of:
                if mask.bit_count() < need:
                    continue
                if budget == 0 and k.ace == "low":
                    x = mask
                    for i in range(1, need):
                        x &= mask >> i
                    if x:
                        return True
                    continue
                for size, _, wmask in self._run_windows[k.index]:
                    if size > k.lo:
                        break
                    if (wmask & mask).bit_count() >= need:
                        return True
        return False

    # ------------------------------------------------------------ candidate melds of a hand

    def hand_candidates(self, hand: Multiset) -> list[Multiset]:
        """Every sub-multiset of ``hand`` that may be a legal meld (a superset; the matcher decides)."""
        counts = Counter(hand)
        pool = [(c, n) for c, n in sorted(counts.items(), key=lambda cn: self.order[cn[0]]) if self.wild_capable[c]]
        out: set[Multiset] = set()
        pool_codes = {c for c, _ in pool}
        memo: dict[tuple[int, Multiset], list[Multiset]] = {}

        def combos(size: int, used: Sequence[Card]) -> list[Multiset]:
            """Wild cards to add: every multiset of ``size`` from the pool, less copies already used."""
            key = (size, tuple(sorted(c for c in used if c in pool_codes)))
            found = memo.get(key)
            if found is None:
                found = memo[key] = list(_combos(pool, size, exclude=key[1]))
            return found

        for k in self.specs:
            gen = self._runs(k, counts, pool, combos) if k.run else self._sets(k, counts, pool, combos)
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

    def _sets(self, k: _Spec, counts: Counter[Card], pool: list[tuple[Card, int]],
              combos: Callable[[int, Sequence[Card]], list[Multiset]]) -> Iterator[Multiset]:
        deck = self.deck
        budget = 0 if k.no_wilds is not None else min(self._wild_limit[k.index], sum(n for _, n in pool))
        by_rank: dict[int, list[tuple[Card, int]]] = {}
        for c, n in sorted(counts.items()):
            if c != deck.joker_code and not (self.wild_capable[c] and not self.rs.wilds.natural_too):
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
                    for wilds in combos(w, sub):
                        yield (*sub, *wilds)

    def _runs(self, k: _Spec, counts: Counter[Card], pool: list[tuple[Card, int]],
              combos: Callable[[int, Sequence[Card]], list[Multiset]]) -> Iterator[Multiset]:
        deck = self.deck
        n_wild = sum(n for _, n in pool)
        budget = 0 if k.no_wilds is not None else min(n_wild, self._wild_limit[k.index])
        windows = self._run_windows[k.index]
        for suit in range(deck.n_suits):
            codes = self._suit_codes[suit]
            present = 0
            n_present = 0
            for r, c in enumerate(codes):
                if counts[c] > 0:
                    present |= 1 << r
                    n_present += 1
            if n_present == 0 or n_present + budget < k.lo:
                continue
            for size, ranks, mask in windows:
                if size > n_present + budget:
                    break
                have = (mask & present).bit_count()
                gaps = size - have
                if gaps > budget or not have:
                    continue
                options = [codes[r] for r in ranks if present >> r & 1]
                for extra in range(min(budget - gaps, have - 1) + 1):
                    for to_wild in itertools.combinations(range(have), extra):
                        naturals = [c for i, c in enumerate(options) if i not in to_wild]
                        for wilds in combos(gaps + extra, naturals):
                            yield (*naturals, *wilds)
