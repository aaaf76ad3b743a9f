"""Candidate melds of a hand, generated from the ruleset's compiled shapes.

Generation only has to find every multiset of the hand's cards that *may* be
a legal meld (a superset): sets by rank, runs by window with wilds where they
may go, and the quick "can anything meld at all?" test.  The matcher judges
every candidate before the search uses it.

:class:`CandidateGenerator` is built from the deck, the shapes and the wild
cards alone; it also fixes the solver's processing order of the cards (plain
naturals by suit then rank, then the cards that can be wild), in which every
multiset it returns is sorted.

Two of its jobs have C twins, used where they were built (:data:`NATIVE_LIVE`,
:data:`NATIVE_CANDIDATES`) and the deck fits them: the live cards and their parts
(``native_live.c``) and the candidate melds (``native_candidates.c``).  They give the same
answers as the Python methods here, which stay the reference and the fallback (tested).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.melds.matcher import CompiledShape
from loba_dsl.rules.model import Wilds
from loba_dsl.solver.multisets import Multiset, combos, submultisets
from loba_dsl.solver.natives import PURE
from loba_dsl.solver.symmetry import SHAPE_LIMIT, shape_key, shape_units

try:
    from loba_dsl.solver import native_live as _native_live
except ImportError:  # no compiler where it was installed: the Python methods answer alone
    _native_live = None  # type: ignore[assignment]
try:
    from loba_dsl.solver import native_candidates as _native_candidates
except ImportError:  # no compiler where it was installed: the Python generator answers alone
    _native_candidates = None  # type: ignore[assignment]

__all__ = ["NATIVE_CANDIDATES", "NATIVE_LIVE", "CandidateGenerator", "RunWindow", "rank_at", "run_windows",
           "wild_limit", "window_positions"]

NATIVE_LIVE: bool = _native_live is not None and not PURE
"""Whether a new :class:`CandidateGenerator` answers :meth:`~CandidateGenerator.live`,
:meth:`~CandidateGenerator.live_shape` and :meth:`~CandidateGenerator.split` with their C twin
(``native_live.c``, the same answers) where its deck fits the twin's tables (16 ranks, 8 suits)."""

NATIVE_CANDIDATES: bool = _native_candidates is not None and not PURE
"""Whether :meth:`CandidateGenerator.hand_candidates` may run the C twin (``native_candidates.c``)."""

RunWindow = tuple[int, tuple[int, ...], int]
"""A run window: its size, the rank at each position, and the bitmask of its ranks."""

TABLE_LIMIT = 1024
"""Keys each table of skeletons may hold; a full table is emptied before it takes another.

A hand's run skeletons are looked up by (ranks held in a suit, wilds): with
few wilds the keys recur and the tables stay small; with many (25 cards, 2s
and Jokers wild) every hand brings new keys of hundreds of skeletons each,
which grew memory by ~45 MiB per 1,000 hands before this bound.
"""

MASK_TABLE_LIMIT = 1 << 16
"""Keys each table of plain masks (the live ranks, the parts of one suit) may hold: a few bytes a key."""

Skeleton = tuple[tuple[int, ...], int]
"""A candidate meld before its cards are named: the ranks (a run's) or suits (a set's) of its naturals, and
how many wilds it takes."""


def wild_limit(shape: CompiledShape) -> int:
    """The most wilds a meld of this shape may hold (its size limit and its ``wilds`` limits)."""
    limit = shape.hi
    for counter, op, v, _ in shape.limits:
        if counter == "wilds":
            if op in ("<=", "=="):
                limit = min(limit, v)
            elif op == "<":
                limit = min(limit, v - 1)
    return max(0, limit)


def window_positions(shape: CompiledShape, n_ranks: int, ace: int | None) -> Iterator[list[int]]:
    """Position lists of every run window of an allowed size (positions past ``n_ranks - 1`` are the high ace)."""
    R = n_ranks
    hi = min(shape.hi, R)
    if shape.ace == "wrap":
        for size in range(shape.lo, hi + 1):
            for start in range(R if size < R else 1):
                yield [start + i for i in range(size)]
        return
    mappings = {"low": (False,), "high": (True,), "either": (False, True)}.get(shape.ace, (False,))
    seen: set[tuple[int, int]] = set()
    for high in mappings if ace is not None else (False,):
        lo_bound = 1 if (high and ace == 0) else 0
        hi_bound = R if high else R - 1
        for size in range(shape.lo, hi + 1):
            for start in range(lo_bound, hi_bound - size + 2):
                if (start, size) not in seen:
                    seen.add((start, size))
                    yield list(range(start, start + size))


def rank_at(position: int, shape: CompiledShape, n_ranks: int, ace: int | None) -> int:
    """The rank at a window position (round the corner where the ace wraps; ``n_ranks`` is the high ace)."""
    if shape.ace == "wrap":
        return position % n_ranks
    if position == n_ranks:
        assert ace is not None
        return ace
    return position


def run_windows(shape: CompiledShape, n_ranks: int, ace: int | None) -> list[RunWindow]:
    """Every distinct run window of a run shape, smallest first."""
    found: dict[tuple[int, ...], RunWindow] = {}
    for positions in window_positions(shape, n_ranks, ace):
        ranks = tuple(rank_at(p, shape, n_ranks, ace) for p in positions)
        found[ranks] = (len(ranks), ranks, sum(1 << r for r in set(ranks)))
    return sorted(found.values(), key=lambda w: w[0])


class CandidateGenerator:
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
        self._run_live: dict[int, dict[int, int]] = {k.index: {} for k in self.shapes if k.run}
        """Per run shape: (one suit's ranks present, wilds it may use) -> the ranks some candidate may use."""
        self._run_table: dict[int, dict[int, tuple[Skeleton, ...]]] = {
            k.index: {} for k in self.shapes if k.run}
        """Per run shape: (one suit's ranks present, wilds it may use) -> its run skeletons (:meth:`_run_skeletons`)."""
        self._run_groups: dict[int, dict[int, tuple[int, ...]]] = {k.index: {} for k in self.shapes if k.run}
        """Per run shape: (one suit's ranks present, wilds usable) -> the held ranks candidates may use together."""
        self._least_size = min((k.lo for k in self.shapes), default=1)
        """The fewest cards of any meld kind (that many Jokers could meld alone)."""
        self._set_table: dict[int, dict[tuple[tuple[tuple[int, int], ...], int], tuple[Skeleton, ...]]] = {
            k.index: {} for k in self.shapes if not k.run}
        """Per set shape: (copies held of one rank by suit, wilds it may use) -> its set skeletons."""
        self._set_shapes = tuple(
            (k.lo, k.distinct is not None, 0 if k.no_wilds is not None else self.wild_limit[k.index])
            for k in self.shapes if not k.run)
        self._run_shapes = tuple(
            (k.index, k.lo, 0 if k.no_wilds is not None else self.wild_limit[k.index]) for k in self.shapes if k.run)
        self.set_natural = tuple(
            c != deck.joker_code and not (self.wild_capable[c] and not self.natural_too) for c in range(deck.n_codes))
        """Per card code, whether a set may hold it as a natural card (as :meth:`hand_candidates` generates them)."""
        n_ranks, n_suits = deck.n_ranks, deck.n_suits
        stride = n_ranks + 1
        self._suit_shifts = tuple(stride * su for su in range(n_suits))
        self._run_bit = tuple(0 if self.rank[c] < 0 else 1 << (stride * self.suit[c] + self.rank[c])
                              for c in range(deck.n_codes))
        """Per card code, its bit among the ranks held by suit (a field of ``n_ranks`` bits per suit, and a bit
        always clear between suits, so shifting a whole hand never runs one suit into the next)."""
        self._low_runs = frozenset(
            k.index for k in self.shapes if k.run and k.ace == "low" and k.lo <= min(k.hi, n_ranks))
        """Run shapes whose windows are ranks in order from the lowest (no ace high, no turning the corner)."""
        self._suit_bit = tuple(1 << (8 * self.rank[c] + self.suit[c]) if self.set_natural[c] else 0
                               for c in range(deck.n_codes))
        """Per card code a set may hold as natural, its suit's bit in its rank's byte."""
        self._wild_shift = 8 * n_ranks
        self._count = tuple((1 << (8 * self.rank[c]) if self.set_natural[c] else 0)
                            + (1 << self._wild_shift if self.wild_capable[c] else 0) for c in range(deck.n_codes))
        """Per card code: one in its rank's byte (a set may hold it as natural), one above them all if it can be wild.

        A byte holds any count of one rank (at most 8 copies of 8 suits) with its top bit clear."""
        self._count_mask = (1 << self._wild_shift) - 1
        self._low_bits = sum(1 << (8 * r) for r in range(n_ranks))
        self._high_bits = self._low_bits << 7
        self._m1, self._m2, self._m4 = (self._low_bits * 0x55, self._low_bits * 0x33, self._low_bits * 0x0F)
        self._set_live_bit = tuple(1 << (8 * self.rank[c] + 7) if self.set_natural[c] else 0
                                   for c in range(deck.n_codes))
        """Per card code a set may hold as natural, the top bit of its rank's byte."""
        self._card_info = tuple(
            (self.suit[c], 1 << self.rank[c] if self.rank[c] >= 0 else 0, self.rank[c], self.set_natural[c],
             self.wild_capable[c]) for c in range(deck.n_codes))
        """Per card code: its suit, its rank's bit, its rank, whether a set holds it natural, whether it can be wild."""
        self._set_cells = stride * n_suits
        self._wild_cell = 1 << (self._set_cells + 8 * n_ranks)
        self._live_bit = tuple(self._run_bit[c] | self._set_live_bit[c] << self._set_cells
                               | (self._wild_cell if self.wild_capable[c] else 0) for c in range(deck.n_codes))
        """Per card code, its cells among a hand's live cells (:meth:`_live_mask`): its run bit (``_run_bit``),
        its set bit (``_set_live_bit``) above them, and one bit above both if it can be wild (always live)."""
        self.position = tuple(self.order[c] for c in range(deck.n_codes))
        """Per card code, its place in the processing order."""
        self._shape_units = shape_units(deck)
        self._n_ranks, self._n_suits = n_ranks, n_suits
        self._full_suit = (1 << n_ranks) - 1
        self._live_plans = tuple(self._live_plan(w) for w in range(max(
            (limit for *_, limit in (*self._set_shapes, *self._run_shapes)), default=0) + 1))
        """Per count of wilds held (the last for that many or more), the steps of :meth:`_live_mask`."""
        self.native_live = self._native_live_tables() if NATIVE_LIVE else None
        """The C twin of :meth:`live`, :meth:`live_shape` and :meth:`split`, bound over them when there is one."""
        if self.native_live is not None:
            self.live = self.native_live.live  # type: ignore[method-assign, assignment]
            self.live_shape = self.native_live.live_shape  # type: ignore[method-assign, assignment]
            self.split = self.native_live.split  # type: ignore[method-assign, assignment]
        self.native_candidates = self._native_candidates_tables() if NATIVE_CANDIDATES else None
        """The C twin of :meth:`pure_hand_candidates`, or None (not built, switched off, or a deck beyond it)."""

    def _native_live_tables(self) -> _native_live.LiveTables | None:
        """This generator's tables for ``native_live`` (None where the deck or a shape is beyond its limits)."""
        return _native_live.live_tables(
            self._n_ranks, self._n_suits,
            tuple((self.rank[c], self.suit[c], self.set_natural[c], self.wild_capable[c], self.position[c])
                  for c in range(self.deck.n_codes)),
            self._set_shapes,
            tuple((lo, limit, index in self._low_runs, tuple((size, mask) for size, _, mask in self.run_windows[index]))
                  for index, lo, limit in self._run_shapes),
            self._least_size, SHAPE_LIMIT, self.live)

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

    # ------------------------------------------------------------ the cards that may meld

    def live(self, cards: Sequence[Card]) -> Multiset:
        """The cards of ``cards`` that some candidate meld of the hand may use, in the processing order.

        Every card that can be wild, every card of a rank whose set could reach
        its least size, and every card in a run window that the hand's wilds
        could fill: exactly the cards that :meth:`hand_candidates` can put in a
        candidate, so the best arrangement of the hand is that of its live
        cards with the others kept.  The run part is read from a table per
        shape, filled once per (ranks of one suit present, wilds usable).
        """
        mask = self._live_mask(cards)
        if not mask:
            return ()
        live_bit = self._live_bit
        out = [c for c in cards if live_bit[c] & mask]
        out.sort(key=self.position.__getitem__)
        return tuple(out)

    def live_shape(self, cards: Sequence[Card]) -> tuple[int, ...] | None:
        """:meth:`SuitCanon.key <loba_dsl.solver.symmetry.SuitCanon.key>` of :meth:`live` ``(cards)``, in one pass.

        ``()`` when no card is live; ``None`` for a hand of
        :data:`~loba_dsl.solver.symmetry.SHAPE_LIMIT` cards or more (key its
        live cards with :meth:`SuitCanon.key` itself).
        """
        if len(cards) >= SHAPE_LIMIT:
            return None
        mask = self._live_mask(cards)
        if not mask:
            return ()
        live_bit, units = self._live_bit, self._shape_units
        acc = [0] * (self._n_suits + 1)
        for c in cards:
            if live_bit[c] & mask:
                s, u = units[c]
                acc[s] += u
        return shape_key(acc)

    def _live_mask(self, cards: Sequence[Card]) -> int:
        """The cells of the live cards of ``cards`` (as :data:`_live_bit` gives a card's), or 0: none is live."""
        run_bit, count = self._run_bit, self._count
        held = counts = 0
        for c in cards:
            held |= run_bit[c]
            counts += count[c]
        n_wild = counts >> self._wild_shift
        plans = self._live_plans
        set_steps, run_steps = plans[n_wild if n_wild < len(plans) else -1]
        set_live = 0  # per rank, the top bit of its byte: a set of that rank could be made
        if counts:
            counts &= self._count_mask
            spread = -1
            for how, add in set_steps:
                if not how:
                    # A card of the rank is enough: every rank held in a set-natural card.
                    set_live |= ((counts | (counts >> 1) | (counts >> 2) | (counts >> 3) | (counts >> 4)
                                  | (counts >> 5) | (counts >> 6)) & self._low_bits) << 7
                    continue
                enough = (counts + add) & self._high_bits
                if how == 2 and enough:  # suits distinct (never more suits than copies: no rank else)
                    if spread < 0:  # suits held, per rank: the bit count of each byte
                        suit_bit = self._suit_bit
                        suits = 0
                        for c in cards:
                            suits |= suit_bit[c]
                        x = suits - ((suits >> 1) & self._m1)
                        x = (x & self._m2) + ((x >> 2) & self._m2)
                        spread = (x + (x >> 4)) & self._m4
                    enough = (spread + add) & self._high_bits
                set_live |= enough
        live_runs = 0
        if held:
            full = self._full_suit
            for index, shifts, table, budget in run_steps:
                if table is None:
                    # No wild: the windows held whole, all suits at once (a clear bit between suits).
                    starts = held
                    for k in shifts:
                        starts &= held >> k
                    live_runs |= starts
                    for k in shifts:
                        live_runs |= starts << k
                    continue
                for shift in self._suit_shifts:
                    mask = (held >> shift) & full
                    if mask:
                        key = mask | budget
                        found = table.get(key)
                        if found is None:
                            if len(table) >= MASK_TABLE_LIMIT:
                                table.clear()
                            found = table[key] = self._live_in_runs(index, key)
                        live_runs |= found << shift
        if not (set_live or live_runs or n_wild):
            return 0
        return live_runs | set_live << self._set_cells | self._wild_cell


    def _live_plan(self, n_wild: int) -> tuple[tuple[tuple[int, int], ...],
                                                tuple[tuple[int, tuple[int, ...], dict[int, int] | None, int], ...]]:
        """The steps of :meth:`_live_mask` for a hand of ``n_wild`` wilds.

        Per set shape (how, addend): 0 any card of the rank; else 1 (copies) or
        2 (suits) reaching the shape's least size less its wilds, which adding
        ``addend`` carries into the top bit of each rank's byte.  Per run
        shape (index, shifts, table, budget): ``table`` None for windows held
        whole (no wild, ranks in order from the lowest: ``shifts`` 1 up to its
        least size), else the shape's table and the wilds it may use, shifted
        above the ranks (part of the table's key).
        """
        sets: list[tuple[int, int]] = []
        for lo, distinct, limit in self._set_shapes:
            need = lo - min(n_wild, limit)
            sets.append((0, 0) if need <= 1 else (2 if distinct else 1, (128 - need) * self._low_bits))
        runs: list[tuple[int, tuple[int, ...], dict[int, int] | None, int]] = []
        for index, lo, limit in self._run_shapes:
            budget = min(n_wild, limit)
            if not budget and index in self._low_runs:
                runs.append((index, tuple(range(1, lo)), None, 0))
            else:
                runs.append((index, (), self._run_live[index], budget << self._n_ranks))
        return tuple(sets), tuple(runs)

    def live_parts(self, cards: Sequence[Card]) -> tuple[Multiset, ...]:
        """The live cards of ``cards`` split into parts no candidate meld crosses (see :meth:`live_split`).

        A hand holding a card that can be wild is one part here (the Jokers are
        not shared out).
        """
        parts, jokers = self.live_split(cards)
        if not jokers:
            return parts
        live = self.live(cards)
        return (live,) if live else ()

    def live_split(self, cards: Sequence[Card]) -> tuple[tuple[Multiset, ...], int]:
        """The live natural cards split into parts no candidate meld crosses, and the Jokers to share among them.

        A candidate is a run window (its held cards, the gaps filled by wilds)
        or a set of one rank's cards (with wilds), so the parts are the unions
        of the windows and ranks a candidate may use, with as many wilds as the
        hand holds.  No meld holds cards of two parts, so the best arrangement
        of the hand is the best over every way of giving each part some of the
        Jokers (``jokers``, all alike), of the parts' best arrangements: and
        small parts recur from hand to hand.  A hand whose wilds are not all
        Jokers (a card that may also stand as itself), or that holds enough
        Jokers to meld them alone, is one part with no Joker to share:
        ``((live,), 0)``.  Each part is in the processing order.
        """
        return self.split(self.live(cards))

    def split(self, live: Multiset) -> tuple[tuple[Multiset, ...], int]:
        """:meth:`live_split` of a hand's live cards (as :meth:`live` gives them)."""
        if not live:
            return (), 0
        info = self._card_info
        present = [0] * self._n_suits
        jokers = 0
        naturals: list[Card] = []
        for c in live:
            su, bit, _, _, wild = info[c]
            if wild:
                if su >= 0:
                    return (live,), 0
                jokers += 1
                continue
            present[su] |= bit
            naturals.append(c)
        if not naturals or jokers >= self._least_size:
            return (live,), 0
        # Groups of cells (a bit per suit and rank, as in ``_run_bit``) that one candidate's naturals lie in:
        # a run's in one window the wilds can fill (unions of such windows) ...
        n_ranks = self._n_ranks
        groups: list[int] = []
        for index, _, limit in self._run_shapes:
            budget = min(jokers, limit)
            table = self._run_groups[index]
            for shift, mask in zip(self._suit_shifts, present, strict=True):
                if mask:
                    key = mask | budget << n_ranks
                    found = table.get(key)
                    if found is None:
                        if len(table) >= MASK_TABLE_LIMIT:
                            table.clear()
                        found = table[key] = self._run_groups_of(index, mask, budget)
                    groups += [g << shift for g in found] if shift else found
        # ... a set's in one rank (the ranks whose set could reach its least size).
        if self._set_shapes:
            rank, suit, set_natural, run_bit = self.rank, self.suit, self.set_natural, self._run_bit
            count: dict[int, int] = {}
            suits: dict[int, int] = {}
            cells: dict[int, int] = {}
            for c in naturals:
                if set_natural[c]:
                    r = rank[c]
                    count[r] = count.get(r, 0) + 1
                    suits[r] = suits.get(r, 0) | 1 << suit[c]
                    cells[r] = cells.get(r, 0) | run_bit[c]
            for lo, distinct, limit in self._set_shapes:
                need = lo - min(jokers, limit)
                for r, n in count.items():
                    if (suits[r].bit_count() if distinct else n) >= need:
                        groups.append(cells[r])
        parts: list[int] = []
        for g in groups:
            apart = []
            for m in parts:
                if m & g:
                    g |= m
                else:
                    apart.append(m)
            apart.append(g)
            parts = apart
        if len(parts) == 1:
            return ((live,), 0) if not jokers else ((tuple(naturals),), jokers)
        run_bit = self._run_bit
        out: dict[int, list[Card]] = {}
        for c in naturals:
            bit = run_bit[c]
            part = next((m for m in parts if m & bit), bit)  # (every live natural is in some group)
            out.setdefault(part, []).append(c)
        return tuple(tuple(p) for p in out.values()), jokers

    def _run_groups_of(self, index: int, present: int, budget: int) -> tuple[int, ...]:
        """One suit's held ranks (``present``) that run candidates with up to ``budget`` wilds may use together.

        The unions of the held ranks of every window those wilds can fill,
        windows that share a held rank joined.
        """
        n_present = present.bit_count()
        merged: list[int] = []
        for size, _, mask in self.run_windows[index]:
            have = mask & present
            if not have or size - have.bit_count() > budget or size > n_present + budget:
                continue
            for i, m in enumerate(merged):
                if m & have:
                    merged[i] = m | have
                    break
            else:
                merged.append(have)
        # Windows met later may join two unions made apart: merge until none overlap.
        changed = True
        while changed:
            changed = False
            for i in range(len(merged)):
                for j in range(i + 1, len(merged)):
                    if merged[i] & merged[j]:
                        merged[i] |= merged.pop(j)
                        changed = True
                        break
                if changed:
                    break
        return tuple(merged)

    def _live_in_runs(self, index: int, key: int) -> int:
        """The ranks of one suit's held ranks that a run candidate with up to that many wilds may use.

        ``key``: those ranks and the wilds above them, as in ``_run_groups``,
        whose groups this is the union of (filled here if missing, for
        :meth:`split` to find).
        """
        table = self._run_groups[index]
        groups = table.get(key)
        if groups is None:
            if len(table) >= MASK_TABLE_LIMIT:
                table.clear()
            groups = table[key] = self._run_groups_of(index, key & self._full_suit, key >> self._n_ranks)
        live = 0
        for group in groups:
            live |= group
        return live

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
