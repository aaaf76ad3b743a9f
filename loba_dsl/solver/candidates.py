"""Candidate melds of a hand, generated from the ruleset's compiled shapes.

Generation only has to find every multiset of the hand's cards that *may* be
a legal meld (a superset): sets by rank, runs by window with wilds where they
may go, and the quick "can anything meld at all?" test.  The matcher judges
every candidate before the search uses it.

:class:`CandidateGenerator` is built from the deck, the shapes and the wild
cards alone; it also fixes the solver's processing order of the cards (plain
naturals by suit then rank, then the cards that can be wild), in which every
multiset it returns is sorted.  It reads the run windows of its shapes off
:mod:`loba_dsl.solver.windows`, and it finds the live cards of a hand and their
parts as a :class:`~loba_dsl.solver.live_cards.LiveCards` (a mixin: the same
methods, no call in between).

Two of its jobs have C twins, used where they were built (:data:`NATIVE_LIVE`,
:data:`NATIVE_CANDIDATES`) and the deck fits them: the live cards and their parts
(``native_live.c``) and the candidate melds (``native_candidates.c``).  They give the same
answers as the Python methods, which stay the reference and the fallback (tested).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.melds.matcher import CompiledShape
from loba_dsl.rules.model import Wilds
from loba_dsl.solver.live_cards import LIVE_TWIN_BUILT, LiveCards
from loba_dsl.solver.multisets import Multiset, combos, submultisets
from loba_dsl.solver.natives import PURE
from loba_dsl.solver.windows import RunWindow, rank_at, run_windows, wild_limit, window_positions

try:
    from loba_dsl.solver import native_candidates as _native_candidates
except ImportError:  # no compiler where it was installed: the Python generator answers alone
    _native_candidates = None  # type: ignore[assignment]

__all__ = ["NATIVE_CANDIDATES", "NATIVE_LIVE", "CandidateGenerator", "RunWindow", "rank_at", "run_windows",
           "wild_limit", "window_positions"]

NATIVE_LIVE: bool = LIVE_TWIN_BUILT and not PURE
"""Whether a new :class:`CandidateGenerator` answers :meth:`~CandidateGenerator.live`,
:meth:`~CandidateGenerator.live_shape` and :meth:`~CandidateGenerator.split` with their C twin
(``native_live.c``, the same answers) where its deck fits the twin's tables (16 ranks, 8 suits)."""

NATIVE_CANDIDATES: bool = _native_candidates is not None and not PURE
"""Whether :meth:`CandidateGenerator.hand_candidates` may run the C twin (``native_candidates.c``)."""

TABLE_LIMIT = 1024
"""Keys each table of skeletons may hold; a full table is emptied before it takes another.

A hand's run skeletons are looked up by (ranks held in a suit, wilds): with
few wilds the keys recur and the tables stay small; with many (25 cards, 2s
and Jokers wild) every hand brings new keys of hundreds of skeletons each,
which grew memory by ~45 MiB per 1,000 hands before this bound.
"""

Skeleton = tuple[tuple[int, ...], int]
"""A candidate meld before its cards are named: the ranks (a run's) or suits (a set's) of its naturals, and
how many wilds it takes."""


class CandidateGenerator(LiveCards):
    """Candidate melds of hands under one deck, set of compiled shapes and wild cards (build once)."""

    def __init__(self, deck: Deck, shapes: Sequence[CompiledShape], wilds: Wilds) -> None:
        self.deck = deck
        self.shapes = tuple(shapes)
        self.natural_too = wilds.natural_too
        self.wild_capable: tuple[bool, ...] = tuple(
            c == deck.joker_code or c in wilds.cards for c in range(deck.n_codes))
        """Per card code, whether it can be wild (a Joker, or a wild card of the ruleset)."""
        wild_capable = self.wild_capable
        keys = sorted(range(deck.n_codes), key=lambda c: (
            wild_capable[c], deck.suit_of(c) if c != deck.joker_code else 99,
            deck.rank_of(c) if c != deck.joker_code else 99))
        self.order: dict[Card, int] = {c: i for i, c in enumerate(keys)}
        """The processing order: plain naturals by suit then rank, then the cards that can be wild."""
        self.rank = tuple(deck.rank_of(c) if c != deck.joker_code else -1 for c in range(deck.n_codes))
        self.suit = tuple(deck.suit_of(c) if c != deck.joker_code else -1 for c in range(deck.n_codes))
        self.suit_codes = [[deck.code(r, s) for r in range(deck.n_ranks)] for s in range(deck.n_suits)]
        # No hand holds more wilds than the deck has: a shape without a size limit ("set 3+") allows as many
        # as that, never the million its open size stands for (a table per count of wilds is built below).
        in_deck = sum(deck.jokers if c == deck.joker_code else deck.copies for c in range(deck.n_codes)
                      if wild_capable[c])
        self.wild_limit = {k.index: min(wild_limit(k), in_deck) for k in self.shapes}
        self.run_windows = {k.index: run_windows(k, deck.n_ranks, deck.ace) for k in self.shapes if k.run}
        self._run_table: dict[int, dict[int, tuple[Skeleton, ...]]] = {
            k.index: {} for k in self.shapes if k.run}
        """Per run shape: (one suit's ranks present, wilds it may use) -> its run skeletons (:meth:`_run_skeletons`)."""
        self._set_table: dict[int, dict[tuple[tuple[tuple[int, int], ...], int], tuple[Skeleton, ...]]] = {
            k.index: {} for k in self.shapes if not k.run}
        """Per set shape: (copies held of one rank by suit, wilds it may use) -> its set skeletons."""
        self.set_natural = tuple(
            c != deck.joker_code and not (self.wild_capable[c] and not self.natural_too) for c in range(deck.n_codes))
        """Per card code, whether a set may hold it as a natural card (as :meth:`hand_candidates` generates them)."""
        self.position = tuple(self.order[c] for c in range(deck.n_codes))
        """Per card code, its place in the processing order."""
        self._init_live(NATIVE_LIVE)
        self.native_candidates = self._native_candidates_tables() if NATIVE_CANDIDATES else None
        """The C twin of :meth:`pure_hand_candidates`, or None (not built, switched off, or a deck beyond it)."""

    def _native_candidates_tables(self) -> _native_candidates.CandidateTables | None:
        """The C generator of this deck, shapes and wilds; None where the deck is beyond its limits."""
        deck = self.deck
        c = _native_candidates
        if not self.shapes or deck.n_codes > c.MAX_CODES or deck.n_ranks > c.MAX_RANKS or deck.n_suits > c.MAX_SUITS:
            return None
        shapes = [(k.run, k.lo, k.hi, k.distinct is not None, k.no_wilds is not None, self.wild_limit[k.index],
                   [w[1] for w in self.run_windows[k.index]] if k.run else []) for k in self.shapes]
        return c.CandidateTables(
            sorted(self.order, key=self.order.__getitem__), self.rank, self.suit, self.wild_capable,
            self.set_natural, self.suit_codes, deck.joker_code, shapes)

    def ordered(self, cards: Sequence[Card]) -> Multiset:
        order = self.order
        return tuple(sorted(cards, key=order.__getitem__))

    def plain_candidates(self, hand: Multiset) -> Iterator[Multiset]:
        """Candidate melds of a hand of distinct plain naturals: rank groups and suit sequences."""
        rank, suit = self.rank, self.suit
        codes = self.suit_codes
        R = self.deck.n_ranks
        ace = self.deck.ace
        by_rank: dict[int, list[int]] = {}
        by_suit: dict[int, int] = {}
        for c in hand:
            by_rank.setdefault(rank[c], []).append(suit[c])
            by_suit[suit[c]] = by_suit.get(suit[c], 0) | (1 << rank[c])
        for k in self.shapes:
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

    def may_meld(self, cards: Sequence[Card]) -> bool:
        """False only when no meld kind can possibly be formed from ``cards``."""
        rank, suit, wild_capable = self.rank, self.suit, self.wild_capable
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
        for k in self.shapes:
            budget = 0 if k.no_wilds is not None else min(wild, self.wild_limit[k.index])
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
                for size, _, wmask in self.run_windows[k.index]:
                    if size > k.lo:
                        break
                    if (wmask & mask).bit_count() >= need:
                        return True
        return False

    def hand_candidates(self, hand: Multiset, *, pooled: bool = False) -> list[Multiset]:
        """Every sub-multiset of ``hand`` that may be a legal meld (a superset; the matcher decides).

        ``pooled``: the places of wilds are all filled with Jokers, as many as the
        hand has cards that can be wild (less those the meld already holds as
        naturals), whichever those cards are: the candidates of a search that
        holds its wilds as one pool (``Searches.pooled_input``).  Each candidate
        is in the processing order, the list sorted by it (as :meth:`ordered`
        keys).  By the C twin where there is one (:data:`NATIVE_CANDIDATES`),
        else by :meth:`pure_hand_candidates`: the same list.
        """
        twin = self.native_candidates
        if twin is not None:
            return twin.candidates(hand, pooled)
        return self.pure_hand_candidates(hand, pooled=pooled)

    def pure_hand_candidates(self, hand: Multiset, *, pooled: bool = False) -> list[Multiset]:
        """:meth:`hand_candidates` in Python (the reference of the C twin, and its fallback)."""
        counts = Counter(hand)
        pool = [(c, n) for c, n in sorted(counts.items(), key=lambda cn: self.order[cn[0]]) if self.wild_capable[c]]
        out: set[Multiset] = set()
        # Only a wild that can also stand as itself may already be in the meld as a natural.
        pool_codes = {c for c, _ in pool if self.rank[c] >= 0}
        memo: dict[tuple[int, Multiset], list[Multiset]] = {}
        wilds_in_hand = sum(n for _, n in pool)
        joker = self.deck.joker_code

        def wilds_for(size: int, used: Sequence[Card]) -> list[Multiset]:
            """Wild cards to add: every multiset of ``size`` from the pool, less copies already used."""
            if pooled:  # Jokers, while the hand has that many wilds besides those the meld holds as naturals
                own = 0
                for c in used:
                    if c in pool_codes:
                        own += 1
                return [(joker,) * size] if size + own <= wilds_in_hand else []
            key = (size, tuple(sorted(c for c in used if c in pool_codes)) if pool_codes else ())
            found = memo.get(key)
            if found is None:
                found = memo[key] = list(combos(pool, size, exclude=key[1]))
            return found

        present = [0] * self.deck.n_suits
        rank, suit = self.rank, self.suit
        for c in counts:
            if rank[c] >= 0:
                present[suit[c]] |= 1 << rank[c]
        for k in self.shapes:
            gen = self._runs(k, present, pool, wilds_for) if k.run else self._sets(k, counts, pool, wilds_for)
            for m in gen:
                out.add(self.ordered(m))
        wild_cards = sum(n for _, n in pool)
        lo = min(k.lo for k in self.shapes)
        if wild_cards >= lo:  # melds of wild-capable cards only (natural 2s, or all wild where allowed)
            hi = max(k.hi for k in self.shapes)
            for m in submultisets(pool, hi):
                if len(m) >= lo:
                    out.add(self.ordered(m))
        return sorted(out, key=lambda m: [self.order[c] for c in m])

    def _sets(self, k: CompiledShape, counts: Counter[Card], pool: list[tuple[Card, int]],
              wilds_for: Callable[[int, Sequence[Card]], list[Multiset]]) -> Iterator[Multiset]:
        budget = 0 if k.no_wilds is not None else min(self.wild_limit[k.index], sum(n for _, n in pool))
        rank, suit, set_natural = self.rank, self.suit, self.set_natural
        by_rank: dict[int, list[tuple[int, int]]] = {}
        for c, n in counts.items():
            if set_natural[c]:
                by_rank.setdefault(rank[c], []).append((suit[c], n))
        table = self._set_table[k.index]
        codes = self.suit_codes
        for r, held in by_rank.items():
            key = (tuple(sorted(held)), budget)
            skeletons = table.get(key)
            if skeletons is None:
                if len(table) >= TABLE_LIMIT:
                    table.clear()
                skeletons = table[key] = self._set_skeletons(k, key[0], budget)
            for suits, wild in skeletons:
                naturals = [codes[su][r] for su in suits]
                if wild:
                    for wilds in wilds_for(wild, naturals):
                        yield (*naturals, *wilds)
                else:
                    yield tuple(naturals)

    def _set_skeletons(self, k: CompiledShape, held: tuple[tuple[int, int], ...], budget: int
                       ) -> tuple[Skeleton, ...]:
        """The set candidates of one rank whose cards ``held`` are (suit, copies): (natural suits, wilds to add).

        Every non-empty choice of the held copies (in distinct suits where the
        shape says so) with as many wilds as make an allowed size.  Filled once
        per (shape, copies held by suit, budget): the table the set candidates
        of every hand are read from.
        """
        if sum(n for _, n in held) + budget < k.lo:
            return ()
        out: list[Skeleton] = []
        for sub in submultisets(list(held), k.hi):
            if not sub or (k.distinct is not None and len(set(sub)) < len(sub)):
                continue
            for w in range(min(budget, k.hi - len(sub)) + 1):
                if len(sub) + w >= k.lo:
                    out.append((sub, w))
        return tuple(out)

    def _runs(self, k: CompiledShape, present_by_suit: list[int], pool: list[tuple[Card, int]],
              wilds_for: Callable[[int, Sequence[Card]], list[Multiset]]) -> Iterator[Multiset]:
        n_wild = sum(n for _, n in pool)
        budget = 0 if k.no_wilds is not None else min(n_wild, self.wild_limit[k.index])
        n_ranks = self.deck.n_ranks
        table = self._run_table[k.index]
        for codes, present in zip(self.suit_codes, present_by_suit, strict=True):
            if not present:
                continue
            key = present | budget << n_ranks
            skeletons = table.get(key)
            if skeletons is None:
                if len(table) >= TABLE_LIMIT:
                    table.clear()  # many wilds make many keys, each with many skeletons: keep memory flat
                skeletons = table[key] = self._run_skeletons(k, present, budget)
            for ranks, wild in skeletons:
                naturals = [codes[r] for r in ranks]
                if wild:
                    for wilds in wilds_for(wild, naturals):
                        yield (*naturals, *wilds)
                else:
                    yield tuple(naturals)

    def _run_skeletons(self, k: CompiledShape, present: int, budget: int) -> tuple[Skeleton, ...]:
        """The run candidates of one suit whose ranks ``present`` are held: (natural ranks, wilds to add).

        Every window of an allowed size that the held ranks and up to ``budget``
        wilds can fill, with any of its held naturals (but one) given up to a
        wild as well.  Filled once per (shape, ranks present, budget): the
        table the run candidates of every hand are read from.
        """
        return tuple(self.iter_run_skeletons(k, present, budget))

    def iter_run_skeletons(self, k: CompiledShape, present: int, budget: int,
                           tick: Callable[[], object] | None = None) -> Iterator[Skeleton]:
        """:meth:`_run_skeletons` one at a time (the legal-move listing reads them lazily), calling ``tick``
        (a budget's clock) before each."""
        n_present = present.bit_count()
        if n_present + budget < k.lo:
            return
        for size, ranks, mask in self.run_windows[k.index]:
            if size > n_present + budget:
                break
            have = (mask & present).bit_count()
            gaps = size - have
            if gaps > budget or not have:
                continue
            options = [r for r in ranks if present >> r & 1]
            for extra in range(min(budget - gaps, have - 1) + 1):
                for to_wild in itertools.combinations(range(have), extra):
                    if tick is not None:
                        tick()
                    yield tuple(r for i, r in enumerate(options) if i not in to_wild), gaps + extra
