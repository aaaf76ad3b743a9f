"""Meld matching: is a multiset of cards a legal meld of a ruleset, and how.

The matcher interprets the compiled meld shapes of a ruleset (sets and runs,
size ranges, suit rules, ace modes, wild limits) over compact card codes.  A
card that may be wild but has a rank (a 2 where 2s are wild) is tried both as
itself and as a wild; a Joker is always wild.

Among all legal readings the best is chosen by a documented, deterministic
order (:func:`Reading.sort_key`): most points (where melds score), then most
natural cards, then the ruleset's order of meld kinds, then the reading that
keeps the cards in the order they were given, then the lowest run.

The matcher is built from its readers: :mod:`loba_dsl.melds.sets` and :mod:`loba_dsl.melds.runs` (over
the clauses every kind shares, :mod:`loba_dsl.melds.clauses`); what it finds is in
:mod:`loba_dsl.melds.reading`, and the tables that rule kinds out first in :mod:`loba_dsl.melds.shapes`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from loba_dsl.budget import BudgetLike, Clock, as_budget
from loba_dsl.cards.deck import Card
from loba_dsl.melds.reading import HEAD, Failure, Outcome, Reading, badness, better
from loba_dsl.melds.runs import RunMatcher
from loba_dsl.melds.sets import SetMatcher
from loba_dsl.melds.shapes import PACK_MAX, PACK_WIDTH, CompiledShape, MeldTables, ShapeTable, build_tables

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from loba_dsl.rules.model import Ruleset

__all__ = ["HEAD", "PACK_MAX", "CompiledShape", "Failure", "Matcher", "MeldTables", "Outcome", "Reading",
           "ShapeTable", "build_tables", "matcher_for"]

_CLOCK_FROM = 4
"""Melds with more cards that may be wild than this have their readings searched against a budget."""



class Matcher(SetMatcher, RunMatcher):
    """Matches card codes against the meld kinds of one ruleset."""

    def __init__(self, ruleset: Ruleset, table: str | None = None, *, scored: bool = True) -> None:
        super().__init__(ruleset, table, scored=scored)
        self._fixed_failures: dict[tuple[int, int, int], tuple[tuple[Failure, ...], tuple[Failure, ...]]] = {}
        # The same for every matcher of the ruleset (they differ in points only): built once (issue 22: a
        # replay's referee asks for two matchers at start-up, and the tables are most of a matcher's cost).
        self.tables = ruleset.memo(("meld tables",), build_tables, self.specs, self.deck, self.always_wild,
                                   self.maybe_wild)

    # ------------------------------------------------------------ public

    def match_kind(self, cards: Sequence[Card], kind: str) -> Reading | None:
        """The best reading of ``cards`` as a meld of one kind, or ``None``."""
        specs = tuple(s for s in self.specs if s.name == kind)
        return self.match(cards, specs).best

    def match(self, cards: Sequence[Card], specs: tuple[CompiledShape, ...] | None = None, *,
              reasons: bool = True, budget: BudgetLike | Clock = None) -> Outcome:
        """The best legal reading of ``cards`` as one meld, or why there is none.

        With ``reasons=False`` matching gives up on a kind at its first failed
        clause and an illegal meld comes back without failures: the fast path
        for callers that expect legal melds (scoring, the solver).

        Cards that may be wild or natural are tried both ways, which for many
        such cards is a search: it obeys ``budget`` (a :class:`~loba_dsl.budget.Budget`,
        seconds, a running :class:`~loba_dsl.budget.Clock` of a caller's search,
        or ``None`` for the default) and raises :class:`~loba_dsl.errors.BudgetExceeded`
        when it runs out.  Wilds that score alike are never permuted.
        """
        specs = self.specs if specs is None else specs
        cards = tuple(cards)
        if len(cards) <= PACK_MAX:
            x = sum(map(self.tables.packed.__getitem__, cards))
            possible = self._possible(x, len(cards), specs)
            if possible is not None:
                if not possible:  # no kind can read it: the reasons are worked out if asked for
                    return Outcome(None, (), (self, cards, specs, reasons))
                if not x >> 2 * PACK_WIDTH & PACK_MAX:  # no card that may be wild or natural
                    best = self._read_plain(cards, possible)
                    if best is not None:
                        return Outcome(best, ())
        return self._match(cards, specs, reasons, budget)

    def match_general(self, cards: Sequence[Card], specs: tuple[CompiledShape, ...] | None = None, *,
                      reasons: bool = True, budget: BudgetLike | Clock = None) -> Outcome:
        """:meth:`match` without the tables: the general matcher, every reason worked out now.

        The reference the tables are tested against (tests/melds/test_meld_tables.py).
        """
        specs = self.specs if specs is None else specs
        return self._match(tuple(cards), specs, reasons, budget)

    def rejected_failures(self, cards: tuple[Card, ...], specs: tuple[CompiledShape, ...],
                          explain: bool) -> tuple[Failure, ...]:
        """The reasons :meth:`match_general` gives for a meld that no kind of ``specs`` reads.

        Without cards that may be wild or natural the first clauses' failures
        (size, wilds, rank, suits, limits) are built straight from the cards;
        a kind that passes them all, and any meld with such cards, is asked of
        the general matcher.
        """
        t = self.tables
        x = sum(map(t.packed.__getitem__, cards))
        if x >> 2 * PACK_WIDTH & PACK_MAX or len(cards) > PACK_MAX:  # cards that may be wild: the general matcher
            return self.match_general(cards, specs, reasons=explain).failures
        always = self.always_wild
        ranks = (x >> t.rank_shift) & t.rank_mask
        suits = (x >> t.suit_shift) & t.suit_mask
        n, n_nat = len(cards), x & PACK_MAX
        n_wild = n - n_nat
        naturals = tuple(itertools.compress(cards, map(t.natural.__getitem__, cards))) if n_wild else cards
        wilds = tuple(itertools.compress(cards, map(always.__getitem__, cards))) if n_wild else ()
        fixed = self._fixed_failures
        per_kind: dict[int, list[Failure]] = {}
        for k in specs:
            key = (k.index, n, n_nat)
            head = fixed.get(key)
            if head is None:
                head = fixed[key] = self._count_failures(k, n, n_nat, n_wild)
            size, limits = head
            fails = list(size)
            if wilds and k.no_wilds is not None:
                fails.append(Failure(k.name, k.index, k.no_wilds, "allows no wild cards, but {cards} would be wild",
                                     wilds))
            if not (fails and not explain):
                if k.run:
                    if suits and suits >> ((((suits & -suits).bit_length() - 1) | 3) + 1):
                        fails.append(Failure(k.name, k.index, HEAD, "needs cards of one suit, but has {cards}",
                                             naturals, structural=True))
                    if not (fails and not explain):
                        if ranks & t.rank_high:
                            fails.append(self._twice(k, naturals, ranks, True))
                        fails.extend(limits)
                elif self._set_head(k, naturals, n, n_wild, ranks, suits, explain, fails):
                    fails.extend(limits)
            if not fails:  # a kind the first clauses allow: the general matcher finds why it fails
                nat = [i for i, c in enumerate(cards) if not always[c]]
                wild = [i for i, c in enumerate(cards) if always[c]]
                if k.run:
                    fails, readings = self._run(k, cards, nat, wild, explain)
                else:
                    fails, readings = self._set(k, cards, nat, wild, explain)
                if readings:  # not rejected after all (cannot happen: the tables are necessary conditions)
                    return self.match_general(cards, specs, reasons=explain).failures
            per_kind[k.index] = fails
        return tuple(f for i in sorted(per_kind) for f in per_kind[i])

    def _count_failures(self, k: CompiledShape, n: int, n_nat: int,
                        n_wild: int) -> tuple[tuple[Failure, ...], tuple[Failure, ...]]:
        """A kind's failures that depend only on the counts: of its size, and of its limits."""
        size = () if k.lo <= n <= k.hi else (self._size_failure(k, n),)
        limits: list[Failure] = []
        self._limits(k, n, n_nat, n_wild, limits)
        return size, tuple(limits)

    def _twice(self, k: CompiledShape, naturals: tuple[Card, ...], fields: int, by_rank: bool) -> Failure:
        """The failure of a rank (run) or a suit (set with distinct suits) held twice.

        The first natural whose rank (suit) is held twice names it, and every
        natural of it is listed; ``fields`` is the packed count per rank (suit).
        """
        of = self.rank if by_rank else self.suit
        twice = next(of[c] for c in naturals if (fields >> PACK_WIDTH * of[c]) & PACK_MAX > 1)
        same = tuple(c for c in naturals if of[c] == twice)
        if by_rank:
            return Failure(k.name, k.index, HEAD, "cannot hold one rank twice ({cards})", same, structural=True)
        assert k.distinct is not None
        return Failure(k.name, k.index, k.distinct, "needs every suit different, but {cards} share a suit", same,
                       structural=True)

    def _set_head(self, k: CompiledShape, naturals: tuple[Card, ...], n: int, n_wild: int, ranks: int, suits: int,
                  explain: bool, fails: list[Failure]) -> bool:
        """:meth:`_set`'s rank and suit clauses, from the packed summary: whether its limits are checked next."""
        t = self.tables
        if ranks and ranks >> ((((ranks & -ranks).bit_length() - 1) | 3) + 1):
            fails.append(Failure(k.name, k.index, HEAD, "needs cards of one rank, but has {cards}",
                                 naturals, structural=True))
            if not explain:
                return False
        if k.distinct is None and not k.suit_limits:
            return True
        d = len({self.suit[c] for c in naturals})
        if k.distinct is not None:
            if suits & t.suit_high:
                fails.append(self._twice(k, naturals, suits, False))
            elif n > self.S:
                fails.append(Failure(k.name, k.index, k.distinct, "has {0} cards but only {1} suits",
                                     values=(n, self.S), structural=True))
        if k.suit_limits:
            self._suit_limits(k, d, n, n_wild, fails)
        return True

    def _possible(self, x: int, n: int, specs: tuple[CompiledShape, ...]) -> list[CompiledShape] | None:
        """The kinds of ``specs`` that the tables cannot rule out for a meld of ``n`` cards summing to ``x``.

        Each kind's necessary conditions: its counts (size, wilds, limits), and
        among the plain naturals one rank (a set; distinct suits where the set
        needs them) or one suit, no rank twice and a short enough span (a run).
        ``None`` when the tables do not judge: melds whose general reading runs
        a clock (so reading their reasons later would obey no budget), or a
        shape of another matcher.
        """
        t = self.tables
        idx = x & 0xFFF  # the three count fields (4 bits each: ``| 3`` and ``>> 2`` below find a field's end, index)
        if ((idx >> PACK_WIDTH) & PACK_MAX) + (idx >> 2 * PACK_WIDTH) > _CLOCK_FROM:
            return None
        ranks = (x >> t.rank_shift) & t.rank_mask
        suits = (x >> t.suit_shift) & t.suit_mask
        shapes = t.shapes
        out = []
        for spec in specs:
            st = shapes[spec.index]
            if st.shape is not spec:
                return None
            if not st.counts[idx]:
                continue
            if spec.run:
                if suits and suits >> ((((suits & -suits).bit_length() - 1) | 3) + 1):
                    continue  # two suits
                if ranks & t.rank_high:
                    continue  # a rank twice
                if st.span and ranks and (
                        ((ranks.bit_length() - 1) >> 2) - (((ranks & -ranks).bit_length() - 1) >> 2) >= n):
                    continue  # too far apart for a run of this size
            else:
                if ranks and ranks >> ((((ranks & -ranks).bit_length() - 1) | 3) + 1):
                    continue  # two ranks
                if spec.distinct is not None and suits & t.suit_high:
                    continue  # a suit twice
            out.append(spec)
        return out

    def _read_plain(self, cards: tuple[Card, ...], specs: list[CompiledShape]) -> Reading | None:
        """:meth:`_match`'s best reading when no card may be both wild and natural, over the kinds not ruled out."""
        always = self.always_wild
        nat = [i for i, c in enumerate(cards) if not always[c]]
        wild = [i for i, c in enumerate(cards) if always[c]]
        best: Reading | None = None
        scored = self.values is not None
        for spec in specs:
            if spec.run:
                fails, readings = self._run(spec, cards, nat, wild, False)
            else:
                fails, readings = self._set(spec, cards, nat, wild, False)
            if fails:
                continue
            for r in readings:
                if best is None or better(r, best):
                    best = r
            if best is not None and not scored:
                break
        return best

    def layout_readings(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> tuple[Reading, ...]:
        """Every reading of ``cards`` that some layout of them makes the best (none if they are no meld).

        The best reading has the most points, then naturals, then the earliest kind;
        the order the cards are laid out in breaks only the ties left (the fewest
        inversions of the layout, then the lowest start), so the readings a player
        can choose by the layout are those ties: ``2♠ 3♠ 4♠ JOKER`` and ``JOKER 2♠ 3♠
        4♠`` read the Joker as the 5 and as the A.  Laid out in a reading's own order
        (``cards[i] for i in reading.order``), the cards are read that way or as a tie
        of it that the same layout prefers.
        """
        cards = tuple(cards)
        ties: list[Reading] = []
        best = self._match(cards, self.specs, False, budget, ties).best
        if best is None:
            return ()
        top = (best.points or 0, best.naturals, best.kind_index)
        return tuple(r for r in ties if (r.points or 0, r.naturals, r.kind_index) == top)

    def _match(self, cards: tuple[Card, ...], specs: tuple[CompiledShape, ...], explain: bool,
               budget: BudgetLike | Clock = None, ties: list[Reading] | None = None) -> Outcome:
        """The general matcher; every legal reading it weighs is also added to ``ties``, if given."""
        always, maybe = self.always_wild, self.maybe_wild
        forced: list[int] = []
        ambiguous: list[int] = []
        plain: list[int] = []
        for i, c in enumerate(cards):
            (forced if always[c] else ambiguous if maybe[c] else plain).append(i)
        best: Reading | None = None
        per_kind: dict[int, list[Failure]] = {}
        scored = self.values is not None
        clock: Clock | None = None
        if len(forced) + len(ambiguous) > _CLOCK_FROM:  # only many wilds make a search worth timing
            clock = budget if isinstance(budget, Clock) else as_budget(budget).start("reading the wild cards")
        if not ambiguous:  # the common case: every card is plainly natural or plainly wild
            for spec in specs:
                if spec.run:
                    fails, readings = self._run(spec, cards, plain, forced, explain, clock)
                else:
                    fails, readings = self._set(spec, cards, plain, forced, explain)
                if fails:
                    per_kind[spec.index] = fails
                    continue
                if ties is not None:
                    ties.extend(readings)
                for r in readings:
                    if best is None or better(r, best):
                        best = r
                if best is not None and not scored:
                    break  # the roles are fixed: a later kind can only lose on the kind order
            if best is not None:
                return Outcome(best, ())
            return Outcome(None, tuple(f for i in sorted(per_kind) for f in per_kind[i]))
        for spec in specs:
            # A card that may be wild can be natural here only beside the plain naturals:
            # in their suit for a run, of their rank for a set.  The others must be wild.
            can = ambiguous
            if plain and ambiguous:
                if spec.run:
                    s0 = self.suit[cards[plain[0]]]
                    can = [i for i in ambiguous if self.suit[cards[i]] == s0]
                else:
                    r0 = self.rank[cards[plain[0]]]
                    can = [i for i in ambiguous if self.rank[cards[i]] == r0]
            must = forced if len(can) == len(ambiguous) else sorted((*forced, *(i for i in ambiguous if i not in can)))
            for extra in range(len(can) + 1):
                found = False
                for chosen in itertools.combinations(can, extra) if can else ((),):
                    if chosen or len(must) != len(forced) or can:
                        wild_idx = sorted((*must, *chosen))
                        nat_idx = [i for i in range(len(cards)) if i not in wild_idx]
                    else:
                        wild_idx, nat_idx = forced, plain
                    if best is not None and not scored and (len(nat_idx), -spec.index) < (
                            best.naturals, -best.kind_index):
                        continue
                    if clock is not None:
                        clock.tick()
                    if spec.run:
                        fails, readings = self._run(spec, cards, nat_idx, wild_idx, explain, clock)
                    else:
                        fails, readings = self._set(spec, cards, nat_idx, wild_idx, explain)
                    if fails:
                        prev = per_kind.get(spec.index)
                        if prev is None or badness(fails) < badness(prev):
                            per_kind[spec.index] = fails
                        continue
                    found = True
                    if ties is not None:
                        ties.extend(readings)
                    for r in readings:
                        if best is None or better(r, best):
                            best = r
                if found and not scored:
                    break  # more wilds only means fewer naturals
        if best is not None:
            return Outcome(best, ())
        failures = tuple(f for i in sorted(per_kind) for f in per_kind[i])
        return Outcome(None, failures)

    def is_meld(self, cards: Sequence[Card]) -> bool:
        return self.match(cards).valid



def matcher_for(ruleset: Ruleset, table: str | None = None, *, scored: bool = True) -> Matcher:
    """The matcher of a ruleset whose readings maximise ``table`` (default: its meld points), built once.

    ``scored=False`` gives a matcher that only judges legality (no points: faster).
    """
    return ruleset.memo(("matcher", table, scored), _new_matcher, ruleset, table, scored)


def _new_matcher(ruleset: Ruleset, table: str | None, scored: bool) -> Matcher:
    return Matcher(ruleset, table, scored=scored)
