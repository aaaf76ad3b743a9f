"""The live cards of a hand: the cards some candidate meld may use, their suit-blind key, and their parts.

A hand's best arrangement is that of its live cards with the others kept, so
every hand's first step is to find them (:meth:`LiveCards.live`), key them
(:meth:`LiveCards.live_shape`, for the cache of best scores) and split them into
parts no candidate meld crosses (:meth:`LiveCards.split`), each searched alone.

:class:`LiveCards` is a mixin of
:class:`~loba_dsl.solver.candidates.CandidateGenerator`, which builds the card
tables it reads and calls :meth:`LiveCards._init_live` once; its methods are the
generator's own (no call goes through another object).  Its C twin
(``native_live.c``, the same answers) is bound over :meth:`~LiveCards.live`,
:meth:`~LiveCards.live_shape` and :meth:`~LiveCards.split` where it was built,
is switched on (:data:`loba_dsl.solver.candidates.NATIVE_LIVE`) and the deck fits
its tables (16 ranks, 8 suits); the Python methods here stay the reference and
the fallback (tested).
"""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.melds.matcher import CompiledShape
from loba_dsl.solver.multisets import Multiset
from loba_dsl.solver.symmetry import SHAPE_LIMIT, shape_key, shape_units
from loba_dsl.solver.windows import RunWindow

try:
    from loba_dsl.solver import native_live as _native_live
except ImportError:  # no compiler where it was installed: the Python methods answer alone
    _native_live = None  # type: ignore[assignment]

__all__ = ["LIVE_TWIN_BUILT", "MASK_TABLE_LIMIT", "LiveCards"]

LIVE_TWIN_BUILT: bool = _native_live is not None
"""Whether the C twin ``native_live`` was built here (whether generators use it:
:data:`~loba_dsl.solver.candidates.NATIVE_LIVE`)."""

MASK_TABLE_LIMIT = 1 << 16
"""Keys each table of plain masks (the live ranks, the parts of one suit) may hold: a few bytes a key."""


class LiveCards:
    """The live cards of hands, as a :class:`~loba_dsl.solver.candidates.CandidateGenerator` finds them."""

    # Set by the generator before it calls _init_live (annotations only: no class attribute, nothing per call).
    deck: Deck
    shapes: tuple[CompiledShape, ...]
    wild_capable: tuple[bool, ...]
    rank: tuple[int, ...]
    suit: tuple[int, ...]
    set_natural: tuple[bool, ...]
    position: tuple[int, ...]
    wild_limit: dict[int, int]
    run_windows: dict[int, list[RunWindow]]

    def _init_live(self, native: bool) -> None:
        """Build the tables of the live cards from the generator's; bind the C twin over :meth:`live`,
        :meth:`live_shape` and :meth:`split` if ``native`` and the deck fits it."""
        deck = self.deck
        self._run_live: dict[int, dict[int, int]] = {k.index: {} for k in self.shapes if k.run}
        """Per run shape: (one suit's ranks present, wilds it may use) -> the ranks some candidate may use."""
        self._run_groups: dict[int, dict[int, tuple[int, ...]]] = {k.index: {} for k in self.shapes if k.run}
        """Per run shape: (one suit's ranks present, wilds usable) -> the held ranks candidates may use together."""
        self._least_size = min((k.lo for k in self.shapes), default=1)
        """The fewest cards of any meld kind (that many Jokers could meld alone)."""
        self._set_shapes = tuple(
            (k.lo, k.distinct is not None, 0 if k.no_wilds is not None else self.wild_limit[k.index])
            for k in self.shapes if not k.run)
        self._run_shapes = tuple(
            (k.index, k.lo, 0 if k.no_wilds is not None else self.wild_limit[k.index]) for k in self.shapes if k.run)
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
        self._shape_units = shape_units(deck)
        self._n_ranks, self._n_suits = n_ranks, n_suits
        self._full_suit = (1 << n_ranks) - 1
        self._live_plans = tuple(self._live_plan(w) for w in range(max(
            (limit for *_, limit in (*self._set_shapes, *self._run_shapes)), default=0) + 1))
        """Per count of wilds held (the last for that many or more), the steps of :meth:`_live_mask`."""
        self.native_live = self._native_live_tables() if native else None
        """The C twin of :meth:`live`, :meth:`live_shape` and :meth:`split`, bound over them when there is one."""
        if self.native_live is not None:
            self.live = self.native_live.live  # type: ignore[method-assign, assignment]
            self.live_shape = self.native_live.live_shape  # type: ignore[method-assign, assignment]
            self.split = self.native_live.split  # type: ignore[method-assign, assignment]

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

    def live(self, cards: Sequence[Card]) -> Multiset:
        """The cards of ``cards`` that some candidate meld of the hand may use, in the processing order.

        Every card that can be wild, every card of a rank whose set could reach
        its least size, and every card in a run window that the hand's wilds
        could fill: exactly the cards that
        :meth:`~loba_dsl.solver.candidates.CandidateGenerator.hand_candidates`
        can put in a candidate, so the best arrangement of the hand is that of
        its live cards with the others kept.  The run part is read from a table per
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
