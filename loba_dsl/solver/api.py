"""The best arrangement of a hand into disjoint legal melds, exactly, for any ruleset.

"Best" is the ruleset's own round formula if the round ended now (see
:mod:`loba_dsl.solver.objective`): least penalty left in ``menos``, most points in
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

Wilds: where every card that can be wild counts as the Joker does, as a wild
and in hand (2s and Jokers wild alike, a 2 also its natural self), a hand's wilds are searched as
one pool: a 2 is one more Joker of the search and, apart, its right to stand
as itself; the candidates hold Jokers in every wild's place, and the chosen
melds name the pool's cards at the end (:meth:`Solver._pooled_input`).

Ties: among arrangements of equal score the solver keeps the first it meets
in that order: a card is kept in hand unless melding it is strictly better,
and melds are tried in increasing order of their sorted cards.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from loba_dsl.budget import Budget, BudgetLike, Clock, as_budget
from loba_dsl.cards.deck import Card
from loba_dsl.cards.notation import check_copies
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.vocabulary import round_facts
from loba_dsl.errors import InputError
from loba_dsl.melds.matcher import Reading, matcher_for
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.requirements import contract_rule, opening_rule
from loba_dsl.scoring.rounds import hand_table
from loba_dsl.solver import packing
from loba_dsl.solver.candidates import CandidateGenerator
from loba_dsl.solver.last_cards import cards_kept, discard_choices, discards, may_go_out
from loba_dsl.solver.multisets import Multiset, minus_all
from loba_dsl.solver.objective import Objective, round_objective
from loba_dsl.solver.search import HandSearch, field_bits
from loba_dsl.solver.symmetry import SHAPE_LIMIT, SuitCanon, suit_symmetric

__all__ = ["ArrangedHand", "Arrangement", "GoingOut", "PlacedMeld", "Solver"]

CACHE_LIMIT = 20_000
"""Entries the solver's caches of readings may hold; past it they are emptied before the next hand.

Long batches (20,000 hands) would otherwise grow memory without bound; a
meld's reading is cheap to work out again.
"""

_LIGHT_UP_TO = 48
"""Hands with at most this many candidate melds are scored by the plain memoised search (no bounds)."""

VALUE_CACHE_LIMIT = 200_000
"""Entries the solver's caches of plain numbers (a meld's gain, a hand's best gain) may hold.

A number costs a few dozen bytes where a reading costs hundreds, and a large
hand (25 cards, many wilds) has thousands of candidate melds: a bound this
size keeps a batch's memory flat (tens of MiB) while a hand's melds stay
known from one hand to the next.
"""


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


@dataclass(frozen=True)
class ArrangedHand:
    """A hand read from text and arranged: what ``loba arrange`` shows."""

    cards: Multiset
    """The hand as given (before any discard)."""
    arrangement: Arrangement
    discard: Card | None
    """The best discard, when the hand had just drawn (``discard=True``); else ``None``."""
    can_go_out: bool
    """Whether the whole hand (before any discard) can go out this turn, as the referee allows (``turn``)."""


class Solver:
    """Exact arrangements of hands under one ruleset (build once, solve many hands).

    It holds a :class:`~loba_dsl.solver.candidates.CandidateGenerator` (which
    sub-multisets of a hand may be melds, and the cards' processing order) and
    builds a :class:`~loba_dsl.solver.search.HandSearch` per hand from the
    candidates and their gains under the round formula.
    """

    def __init__(self, ruleset: Ruleset, *, players: int | None = None, budget: BudgetLike = None) -> None:
        self.rs = ruleset
        self.budget: Budget = as_budget(budget)
        """Each call's budget unless the call names its own (default :data:`~loba_dsl.budget.DEFAULT_BUDGET`)."""
        self._clock: Clock | None = None
        """The running call's clock (a nested call shares it)."""
        self._last_candidates: tuple[Multiset, bool, list[Multiset]] | None = None
        """The last hand's candidate melds, kept for the rest of one call (one generation per hand)."""
        self.deck = ruleset.deck
        players = ruleset.players.default if players is None else players
        self.players = players
        self.objective: Objective = round_objective(ruleset, players=players)
        self.matcher = matcher_for(ruleset)
        deck = self.deck
        self.candidates = CandidateGenerator(deck, self.matcher.specs, ruleset.wilds)
        self.wild_capable = self.candidates.wild_capable
        self.order = self.candidates.order
        """The processing order: plain naturals by suit then rank, then the cards that can be wild."""
        self._positions = self.candidates.position
        """Per card code, its place in the processing order (for the C kernels)."""
        self._sorted = self.candidates.ordered
        self._may_meld = self.candidates.may_meld
        self._rank = self.candidates.rank
        self._suit = self.candidates.suit
        self.sign = self.objective.sign
        self.left_utility, self.meld_terms = self._terms()
        self._live = self.candidates.live
        self._live_shape = self.candidates.live_shape
        self._live_gains: dict[tuple[int, ...], int] = {}
        """A hand's live cards (those some candidate meld may use), or a part of them (with Jokers to share) -> the
        best total gain of their melds (the best gain of those cards as a hand, either way).  Keyed by the cards
        themselves, or where the suits are all alike by :meth:`SuitCanon.key` (the same for every renaming)."""
        self._canon: SuitCanon | None = SuitCanon(ruleset, self.candidates.ordered) if suit_symmetric(ruleset) else None
        """Where the ruleset treats every suit alike, the canonical renaming of the suits of a hand or a meld: the key
        of the caches of best gains and of melds' gains (an arrangement keeps the cards it was given)."""
        if self._canon is not None and self.candidates.native_live is not None:
            self._canon.answer_keys_by(self.candidates.native_live.key)  # the live cards' C twin keys them too
        self._live_melds: dict[Multiset, tuple[PlacedMeld, ...]] = {}
        """A hand's live cards -> the melds of their best arrangement."""
        self._melds_by_shape: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[PlacedMeld, ...]]] = {}
        """``SuitCanon.ordered_key`` of live cards -> the suits held and the melds of the first hand met with it."""
        table = hand_table(ruleset)
        self._hand_values: tuple[int, ...] | None = None if table is None else tuple(ruleset.hand_values[table])
        """The round formula's hand table, per card code (``None``: the formula values no hand)."""
        self._gains: dict[Multiset, tuple[int, Reading] | None] = {}
        self._gain_values: dict[Multiset, int | None] = {}
        self._value_by_meld: dict[Multiset, int | None] = {}
        self._swaps: dict[Multiset, Multiset] = {}
        self._class_naturals: dict[Multiset, frozenset[Card]] = {}
        self._wild_class = self._wild_classes()
        members: dict[Card, list[Card]] = {}
        for card, rep in sorted(self._wild_class.items(), key=lambda cr: (cr[0] != deck.joker_code, self.order[cr[0]])):
            members.setdefault(rep, []).append(card)
        self._class_members = members
        """Each class's members, the Joker first."""
        self._stand_in: dict[tuple[Card, int, int], Card] = {}
        self._class_of = tuple(self._wild_class.get(c, -1) for c in range(deck.n_codes))
        """Each card's wild class (its representative card), or -1."""
        self._pool = self._pool_cards()
        """The wild cards other than the Joker that a search may pool with the Jokers (see :meth:`_pooled_input`)."""

    # ------------------------------------------------------------ budgets

    @contextmanager
    def _running(self, budget: BudgetLike | Clock, what: str) -> Iterator[Clock]:
        """One public call: its clock (shared with nested calls), bounded caches, no cyclic GC.

        A search allocates tens of thousands of short-lived, acyclic objects; with
        the solver's caches making the heap large, the collector's scans cost up to
        a quarter of a slow hand's time and collect nothing.  Reference counting
        still frees everything; the collector is back on when the call returns.
        """
        if self._clock is not None:  # called from another call of this solver: its budget holds
            yield self._clock
            return
        clock = budget if isinstance(budget, Clock) else (
            self.budget if budget is None else as_budget(budget)).start(what)
        if len(self._gains) + len(self._live_melds) + len(self._melds_by_shape) > CACHE_LIMIT:
            for readings in (self._gains, self._live_melds, self._melds_by_shape):
                readings.clear()
        values: tuple[dict[Multiset, Any], ...] = (
            self._value_by_meld, self._gain_values, self._live_gains, self._swaps, self._class_naturals)
        if sum(map(len, values)) > VALUE_CACHE_LIMIT:
            for cache in values:
                cache.clear()
        paused = gc.isenabled()
        if paused:
            gc.disable()
        self._clock = clock
        try:
            yield clock
        finally:
            self._clock = None
            self._last_candidates = None
            if paused:
                gc.enable()

    def clear_caches(self) -> None:
        """Forget every meld's cached gain (the answers stay the same; they are worked out again)."""
        for cache in (self._gains, self._gain_values, self._value_by_meld, self._swaps, self._class_naturals,
                      self._live_gains, self._live_melds, self._melds_by_shape):
            cache.clear()

    # ------------------------------------------------------------ objective pieces

    def _wild_classes(self) -> dict[Card, Card]:
        """Wild-capable cards grouped by how they count in hand and as a wild in every meld role."""
        deck = self.deck
        tables = {self.rs.scoring.meld_points} | {t for _, t, _ in self.meld_terms if t is not None}
        per_table = [self.rs.meld_values.get(t, {}) for t in sorted(t for t in tables if t is not None)]
        classes: dict[tuple[Any, ...], Card] = {}
        out: dict[Card, Card] = {}
        for c in sorted((c for c in range(deck.n_codes) if self.wild_capable[c]), key=self.order.__getitem__):
            signature = (self.left_utility[c], tuple(
                tuple(sorted((k[0], k[3], k[4], v) for k, v in values.items() if k[1] == c and k[2]))
                for values in per_table))
            out[c] = classes.setdefault(signature, c)
        return out

    def _terms(self) -> tuple[tuple[int, ...], list[tuple[int, str | None, Callable[[Any, Any], bool] | None]]]:
        """Per card left, its utility; per meld, the (coefficient, table, filter) terms."""
        from loba_dsl.dsl.evaluate import compile_filter

        lin = self.objective.linear
        left = [0] * self.deck.n_codes
        meld_terms: list[tuple[int, str | None, Callable[[Any, Any], bool] | None]] = []
        for (kind, table, where), coeff in lin.terms.items():
            if kind == "hand":
                values = self.rs.hand_values[table]
                for c in range(self.deck.n_codes):
                    left[c] += coeff * values[c]
            elif kind == "hand_count":
                for c in range(self.deck.n_codes):
                    left[c] += coeff
            else:
                test = compile_filter(where) if isinstance(where, A.Expr) else None
                meld_terms.append((coeff, table if kind == "melds" else None, test))
        return tuple(self.sign * v for v in left), meld_terms

    def gain(self, meld: Multiset) -> tuple[int, Reading] | None:
        """Utility gained by putting ``meld`` down instead of keeping it (``None``: not legal)."""
        cached = self._gains.get(meld, False)
        if cached is not False:
            return cached  # type: ignore[return-value]
        result = self._gains[meld] = self._evaluate(meld)
        return result

    def _evaluate(self, meld: Multiset) -> tuple[int, Reading] | None:
        best = self.matcher.match(meld, reasons=False, budget=self._clock).best
        if best is not None and tuple(sorted(best.order)) != tuple(range(len(meld))):
            raise AssertionError("a reading covers every card")  # pragma: no cover
        result: tuple[int, Reading] | None = None
        if best is not None:
            value = 0
            facts = None
            for coeff, table, test in self.meld_terms:
                if test is not None:
                    if facts is None:
                        facts = _Facts(self.rs, meld, best)
                    if not test(_Outer(self.players), facts):
                        continue
                if table is None:
                    value += coeff
                else:
                    value += coeff * self._table_points(table, meld, best)
            utility = self.sign * value - sum(self.left_utility[c] for c in meld)
            result = (utility, best)
        return result

    def gain_value(self, meld: Multiset) -> int | None:
        """Just the gain, cached under a canonical form of the meld.

        A card that can only be wild in this meld (it matches neither the
        suit nor the rank of the meld's plain naturals) is interchangeable
        with any other card that behaves the same as a wild and in hand
        (same class): the meld is looked up with the class's first card.
        """
        by_meld = self._value_by_meld
        if meld in by_meld:
            return by_meld[meld]
        key = self._canonical(meld)
        if self._canon is not None:
            key = self._canon(key)  # a meld's gain is the same under any renaming of the suits
        if key in self._gain_values:
            value = self._gain_values[key]
        else:
            g = self.gain(key)
            value = None if g is None else g[0]
            self._gain_values[key] = value
        by_meld[meld] = value
        return value

    def _canonical(self, meld: Multiset) -> Multiset:
        class_of, wild_capable = self._class_of, self.wild_capable
        first_plain = -1
        classed = False
        for c in meld:
            if class_of[c] >= 0:
                classed = True
            elif first_plain < 0 and not wild_capable[c]:
                first_plain = c
        if not classed or first_plain < 0:
            return meld
        rank, suit, joker = self._rank, self._suit, self.deck.joker_code
        s0, r0 = suit[first_plain], rank[first_plain]
        out = list(meld)
        changed = False
        for i, c in enumerate(meld):
            k = class_of[c]
            # Wild whatever the reading: not of the plain naturals' suit (a run) nor rank (a set).
            if k >= 0 and (c == joker or (suit[c] != s0 and rank[c] != r0)):
                stand_in = self._stand_in.get((k, s0, r0))
                if stand_in is None:
                    # The class's stand-in must itself be forced wild here: the Joker, else its first such member.
                    stand_in = self._stand_in[(k, s0, r0)] = next(
                        m for m in self._class_members[k] if m == joker or (suit[m] != s0 and rank[m] != r0))
                if stand_in != c:
                    out[i] = stand_in
                    changed = True
        return self._sorted(out) if changed else meld

    def _pool_cards(self) -> frozenset[Card]:
        """The cards that can be wild, Jokers aside, when every one of them is of the Joker's class (else none).

        Then any of them can take a Joker's place as a wild, at the same value
        there and in hand, so a search may hold them as one pool of wilds (see
        :meth:`_pooled_input`).
        """
        joker = self.deck.joker_code
        cls = self._wild_class.get(joker)
        members = [c for c in self._wild_class if c != joker]
        if cls is None or any(self._wild_class[c] != cls for c in members):
            return frozenset()
        return frozenset(members)

    def _pool_hand_search(self, given: Multiset, found: tuple[Multiset, list[tuple[Multiset, int]]]) -> HandSearch:
        """The :class:`HandSearch` of :meth:`_pooled_input`'s cards and candidates."""
        return HandSearch(given, found[0], found[1], order=self.order, joker=self.deck.joker_code, clock=self._clock,
                          pooled=self._pool)

    def _pooled_input(self, given: Multiset, gain: Callable[[Multiset], int | None]
                      ) -> tuple[Multiset, list[tuple[Multiset, int]]] | None:
        """The cards and candidates of a search of ``given`` with its wilds as one pool (``None``: no card of it).

        Every card of the pool (:meth:`_pool_cards`: the 2s where Jokers and 2s
        are wild alike) is searched twice over: as one more Joker (a wild of the
        pool: the cards searched get one Joker per such card) and as itself, the
        right to stand as its natural self; a meld that holds it as itself uses
        up both (``HandSearch(pooled=...)``, :meth:`_pool_hand_search`).  The
        candidates fill every wild's place with a Joker
        (``hand_candidates(pooled=True)``), so melds that differed only in which
        wild stood where are one.  Exact: any card of the pool can take a Joker's
        place as a wild at the same value there and in hand, and every card of
        the pool not held as itself is free to be one; :meth:`HandSearch.real`
        names them (the real Jokers first).
        """
        pool = self._pool
        n = 0
        for c in given:
            if c in pool:
                n += 1
        if not n:
            return None
        cards = self._sorted(given)
        return self._sorted(cards + (self.deck.joker_code,) * n), self._positive(cards, gain, pooled=True)

    def merge_pure_wilds(self, cards: Multiset, raw: list[tuple[Multiset, int]]
                         ) -> tuple[Multiset, list[tuple[Multiset, int]], tuple[Card, ...]]:
        """Search the cards of the Joker's class that no candidate meld reads as natural as Jokers.

        Such a card (a 2 that is only ever wild in this hand) behaves exactly
        like a Joker: same value in hand, same value as a wild, never natural.
        Searching it as a Joker makes interchangeable cards one, which shrinks
        the search; :meth:`HandSearch.real` gives it its name back.
        """
        joker = self.deck.joker_code
        cls = self._wild_class.get(joker)
        members = {c for c in cards if c != joker and cls is not None and self._wild_class.get(c) == cls}
        if not members:
            return cards, raw, ()
        natural: set[Card] = set()
        suits = {self._suit[c] for c in members}
        ranks = {self._rank[c] for c in members}
        wild_capable, rank, suit = self.wild_capable, self._rank, self._suit
        for m, _ in raw:
            if not members - natural:
                break
            # A member can be natural only beside a plain natural of its suit (a run) or rank (a set).
            first = m[0]
            if wild_capable[first] or suit[first] in suits or rank[first] in ranks:
                natural |= self._naturals_of_class(m) & members
        pure = members - natural
        if not pure:
            return cards, raw, ()
        stand_ins = tuple(c for c in cards if c in pure)
        mapped = self._sorted([joker if c in pure else c for c in cards])
        merged: dict[Multiset, int] = {}
        for m, g in raw:
            key = self._sorted([joker if c in pure else c for c in m])
            merged[key] = max(g, merged.get(key, g))
        return mapped, sorted(merged.items(), key=lambda mg: [self.order[c] for c in mg[0]]), stand_ins

    def _naturals_of_class(self, meld: Multiset) -> frozenset[Card]:
        """The cards of the Joker's class that ``meld`` may read as natural (cached per meld)."""
        found = self._class_naturals.get(meld)
        if found is not None:
            return found
        out: set[Card] = set()
        joker = self.deck.joker_code
        cls = self._wild_class.get(joker)
        plain = [c for c in meld if not self.wild_capable[c]]
        for c in set(meld):
            if c == joker or cls is None or self._wild_class.get(c) != cls:
                continue
            if not plain:
                out.add(c)  # a meld of cards that can be wild only: the 2 may be natural there
                continue
            if self._suit[c] != self._suit[plain[0]] and self._rank[c] != self._rank[plain[0]]:
                continue  # forced wild in this meld
            if self._read_natural(self._canonical(meld), c):
                out.add(c)
        result = self._class_naturals[meld] = frozenset(out)
        return result

    def _read_natural(self, canon: Multiset, card: Card) -> bool:
        """Whether the best reading of ``canon`` holds ``card`` as a natural card.

        Where the suits are all alike the reading is that of the meld's
        canonical renaming (one reading for the four suits' copies of a meld),
        and the card is looked for under its new name.
        """
        if self._canon is not None:
            image, renamed = self._canon.renamed(canon)
            wanted = renamed[card]
        else:
            image, wanted = canon, card
        g = self.gain(image)
        assert g is not None
        reading = g[1]
        return any(image[reading.order[q]] == wanted and not reading.wild[q] for q in range(len(image)))

    def joker_class_wilds(self, meld: Multiset) -> Multiset:
        """The cards of the Joker's class, Jokers aside, that ``meld`` can only use as wilds (cached).

        Such a card (a 2 off the suit and rank of the meld's plain naturals) could
        give its place to a free Joker: see :class:`~loba_dsl.solver.search.HandSearch`.
        """
        found = self._swaps.get(meld)
        if found is None:
            found = self._swaps[meld] = self._joker_class_wilds(meld)
        return found

    def _joker_class_wilds(self, meld: Multiset) -> Multiset:
        joker = self.deck.joker_code
        cls = self._wild_class.get(joker)
        if cls is None:
            return ()
        plain = [c for c in meld if not self.wild_capable[c]]
        if not plain:
            return ()
        s0, r0 = self._suit[plain[0]], self._rank[plain[0]]
        return tuple(c for c in meld if c != joker and self._wild_class.get(c) == cls
                     and self._suit[c] != s0 and self._rank[c] != r0)

    def _table_points(self, table: str, meld: Multiset, best: Reading) -> int:
        if table == self.rs.scoring.meld_points and best.points is not None:
            return best.points
        other = matcher_for(self.rs, table).match(meld, reasons=False, budget=self._clock).best
        assert other is not None and other.points is not None
        return other.points

    # ------------------------------------------------------------ search

    def _search(self, given: Multiset, gain: Callable[[Multiset], int | None], *, pooled: bool = False) -> HandSearch:
        """The search of one hand, over its candidate melds of positive ``gain`` (``pooled``: :meth:`_pooled_input`)."""
        if pooled:
            found = self._pooled_input(given, gain)
            if found is not None:
                return self._pool_hand_search(given, found)
        cards = self._sorted(given)
        raw = self._positive(cards, gain)
        cards, raw, stand_ins = self.merge_pure_wilds(cards, raw)
        return HandSearch(given, cards, raw, order=self.order, joker=self.deck.joker_code, stand_ins=stand_ins,
                          swaps=self.joker_class_wilds, clock=self._clock)

    def _candidate_melds(self, cards: Multiset, *, pooled: bool = False) -> list[Multiset]:
        """The candidate melds of ``cards`` (sorted in the processing order), generated once per hand and call.

        ``pooled``: with every wild's place filled by a Joker (:meth:`_pooled_input`).
        """
        last = self._last_candidates
        if last is not None and last[0] == cards and last[1] == pooled:
            return last[2]  # the same hand again in this call (its arrangement, then can it go out)
        clock = self._clock
        melds = []
        for m in self.candidates.hand_candidates(cards, pooled=pooled):
            if clock is not None:
                clock.tick()
            melds.append(m)
        if clock is not None:
            self._last_candidates = (cards, pooled, melds)
        return melds

    def arrange(self, cards: Sequence[Card] | str, *, budget: BudgetLike | Clock = None) -> Arrangement:
        """The best arrangement of ``cards`` (codes, or text in the ruleset's notation) if the round ended now.

        Every search of the solver obeys ``budget`` (a :class:`~loba_dsl.budget.Budget`,
        seconds, or ``None``: the solver's own, by default
        :data:`~loba_dsl.budget.DEFAULT_BUDGET`) and raises
        :class:`~loba_dsl.errors.BudgetExceeded` when it runs out: the answer
        is exact or there is none.
        """
        given = self._cards(cards)
        live = self._live(given)
        found = self._live_melds.get(live)
        if found is None:
            with self._running(budget, "arranging the hand"):
                found = self._live_arrangement(live)
        return self._arranged(given, found)

    def _live_arrangement(self, live: Multiset) -> tuple[PlacedMeld, ...]:
        """The melds of the best arrangement of a hand whose live cards are ``live`` (cached per ``live``).

        The cards no candidate meld can use do not change the search (they are
        kept whatever it chooses), so the melds depend on the live cards alone,
        and hands that share them share the answer; so do hands whose live cards
        only rename their suits in order, where the suits are alike
        (:meth:`SuitCanon.ordered_key <loba_dsl.solver.symmetry.SuitCanon.ordered_key>`).
        """
        found = self._live_melds.get(live)
        if found is None:
            if live:
                # Hands whose live cards only rename their suits in order share one search: every order it
                # follows (cards by suit then rank, the candidates, the options of a first card) keeps the
                # order of the suits, so the tie rule gives the renamed melds (none, where nothing can meld).
                shape = None if self._canon is None else self._canon.ordered_key(live)
                seen = None if shape is None else self._melds_by_shape.get(shape[0])
                if seen is not None:
                    assert shape is not None
                    found = self._renamed_melds(seen, shape[1])
                else:
                    if not self._may_meld(live):
                        found = ()
                    else:
                        found = self._light_arrangement(live)
                        if found is None:
                            hand = self._search(live, self._gain_or_none, pooled=True)
                            hand.solve(hand.full)
                            found = self._chosen(hand, hand.full)
                    if shape is not None:
                        self._melds_by_shape[shape[0]] = (shape[1], found)
            else:
                found = ()
            self._live_melds[live] = found
        return found

    def _renamed_melds(self, seen: tuple[tuple[int, ...], tuple[PlacedMeld, ...]],
                       suits: tuple[int, ...]) -> tuple[PlacedMeld, ...]:
        """The melds of a hand with other suits, renamed to ``suits`` (the suits this hand holds, in order)."""
        held, melds = seen
        if held == suits:
            return melds
        deck = self.deck
        joker = deck.joker_code
        to = dict(zip(held, suits, strict=True))
        out: list[PlacedMeld] = []
        for m in melds:
            cards = self._sorted([c if c == joker else deck.code(deck.rank_of(c), to[deck.suit_of(c)])
                                  for c in m.cards])
            read = self.gain(cards)
            assert read is not None, "a renamed meld is legal where the suits are alike"
            out.append(PlacedMeld(cards, read[1], read[0]))
        return tuple(out)

    def best_score(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> int:
        """Just the score of the best arrangement (as ``arrange(cards).score``, without building it).

        A hand in which no meld can even be formed (the common case for a
        random hand) is answered from the card values alone; a hand of
        distinct plain naturals (no card twice, none that can be wild) is
        searched over a bitmask of its cards.
        """
        utility = sum(map(self.left_utility.__getitem__, cards))
        canon = self._canon
        if canon is not None:
            # Keyed by the live cards up to a renaming of the suits (the best gain is the same under any), read in
            # the same pass that finds them.
            key = self._live_shape(cards)
            if key is None:  # too many cards for the counts' bits
                live = self._live(cards)
                key = canon.key(live) if live else ()
            if key:
                gain = self._live_gains.get(key)
                if gain is None:
                    gain = self._live_gains[key] = self._split_gain(self._live(cards), budget)
                utility += gain
        else:
            live = self._live(cards)
            if live:
                gain = self._live_gains.get(live)
                if gain is None:
                    gain = self._live_gains[live] = self._split_gain(live, budget)
                utility += gain
        objective = self.objective
        value = self.sign * utility + objective.linear.const
        return objective.wrap(value) if objective.wrap is not None else value

    def _split_gain(self, live: Multiset, budget: BudgetLike | Clock) -> int:
        """The best gain of a hand's live cards: the sum of its parts', or the best sharing of its Jokers."""
        parts, jokers = self.candidates.split(live)
        if jokers:
            return self._shared_out(parts, jokers, budget)
        if len(parts) == 1:
            with self._running(budget, "scoring the hand"):
                return self._gain_of(live)
        gains = self._live_gains
        canon = self._canon
        total = 0
        for part in parts:
            key = part if canon is None else canon.key(part)  # parts recur from hand to hand in other suits
            gain = gains.get(key)
            if gain is None:
                with self._running(budget, "scoring the hand"):
                    gain = gains[key] = self._gain_of(part)
            total += gain
        return total

    def _shared_out(self, parts: tuple[Multiset, ...], jokers: int, budget: BudgetLike | Clock) -> int:
        """The best total gain of ``parts`` (no meld crosses two) with ``jokers`` Jokers shared out among them.

        Each part's best gain with ``t`` Jokers is cached under its cards; a
        part's gain grows with its Jokers (a Joker may stay in hand), so the best
        sharing gives every Joker to some part: a small knapsack over the parts.
        """
        gains = self._live_gains
        joker = self.deck.joker_code
        best = [0] + [-1] * jokers  # best[j]: the parts so far with j Jokers among them (gains are never negative)
        for part in parts:
            with_jokers = []
            for t, key in enumerate(self._keys_with_jokers(part, jokers)):
                gain = gains.get(key)
                if gain is None:
                    gain = gains[key] = self._live_part_gain(part + (joker,) * t, budget)  # (the Joker is last)
                with_jokers.append(gain)
            best = [max(best[j - t] + with_jokers[t] for t in range(j + 1) if best[j - t] >= 0)
                    for j in range(jokers + 1)]
        return max(best)

    def _live_part_gain(self, cards: Multiset, budget: BudgetLike | Clock) -> int:
        """The best gain of ``cards`` (a part with some Jokers), that of its live cards (cached under them).

        With fewer Jokers than the whole hand, a part's cards may not all be
        live any more; the others are kept whatever the search chooses, so the
        gain is that of the live ones, which other parts share.
        """
        live = self._live(cards)
        if not live:
            return 0
        if len(live) == len(cards):
            with self._running(budget, "scoring the hand"):
                return self._gain_of(cards)
        key = live if self._canon is None else self._canon.key(live)
        gains = self._live_gains
        gain = gains.get(key)
        if gain is None:
            with self._running(budget, "scoring the hand"):
                gain = gains[key] = self._gain_of(live)
        return gain

    def _keys_with_jokers(self, part: Multiset, jokers: int) -> list[Multiset]:
        """The keys of ``part`` (no Joker in it) with 0, 1, ... ``jokers`` Jokers added, in :attr:`_live_gains`."""
        canon = self._canon
        joker = self.deck.joker_code
        if canon is None:
            return [part + (joker,) * t for t in range(jokers + 1)]
        if len(part) + jokers >= SHAPE_LIMIT:
            return [canon.key(part + (joker,) * t) for t in range(jokers + 1)]
        suits = canon.key(part)[:-1]  # the Jokers' count is the last slot of a key
        return [(*suits, t) for t in range(jokers + 1)]

    def best_discard_score(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> int:
        """The score after the best discard (as ``best_discard(cards)[1].score``, without building it)."""
        with self._running(budget, "choosing the discard"):
            return self._best_discard_score(tuple(cards))

    def _best_discard_score(self, hand: Multiset) -> int:
        """The score after the best discard: the best, over the discards, of the rest's gain less the card's utility.

        A discard's gain is at most the whole hand's (a card taken away never
        lets more be melded), so the discards are tried from the card worth least
        kept, and the search stops at one that even the whole hand's gain could
        not make better than the best found.
        """
        lu = self.left_utility
        total = sum(lu[c] for c in hand)
        choices = sorted(discard_choices(self.rs, hand), key=lu.__getitem__)
        rest_gain: Callable[[Card], int]
        if self._plain_and_distinct(hand):
            solve, full, bit = self._bitmask_search(hand)
            top = solve(full)

            def rest_gain(c: Card) -> int:
                return solve(full & ~bit[c])
        else:
            top = self._gain_of(hand)

            def rest_gain(c: Card) -> int:
                return self._gain_of(minus_all(hand, ((c,),)))
        best = rest_gain(choices[0]) - lu[choices[0]]
        for c in choices[1:]:
            if top - lu[c] <= best:
                break
            best = max(best, rest_gain(c) - lu[c])
        return self._score_of(total + best)

    def _gain_of(self, hand: Multiset) -> int:
        return self._best_gain(hand) if self._may_meld(hand) else 0

    def _score_of(self, utility: int) -> int:
        return self.objective.score(self.sign * utility + self.objective.linear.const)

    def _best_gain(self, hand: Multiset) -> int:
        if self._plain_and_distinct(hand):
            solve, full, _ = self._bitmask_search(hand)
            return solve(full)
        return self._searched_gain(hand)

    def _searched_gain(self, hand: Multiset) -> int:
        pooled = self._pooled_input(hand, self.gain_value)
        if pooled is None:
            cards = self._sorted(hand)
            raw = self._positive(cards, self.gain_value)
            if len(raw) <= _LIGHT_UP_TO:
                return self._plain_search(cards, raw)[0]
            search = self._search(hand, self._gain_or_none)
        else:
            if len(pooled[1]) <= _LIGHT_UP_TO:
                return self._plain_search(*pooled, self._pool)[0]
            search = self._pool_hand_search(hand, pooled)
        return search.solve(search.full)

    def _positive(self, cards: Multiset, gain: Callable[[Multiset], int | None], *, pooled: bool = False
                  ) -> list[tuple[Multiset, int]]:
        """The candidate melds of ``cards`` (in the processing order) with a positive ``gain``, and their gains."""
        raw = []
        for m in self._candidate_melds(cards, pooled=pooled):
            g = gain(m)
            if g is not None and g > 0:
                raw.append((m, g))
        return raw

    def _light_arrangement(self, live: Multiset) -> tuple[PlacedMeld, ...] | None:
        """The melds :class:`HandSearch` would choose, by the plain memoised search, on a small hand.

        Only where the two must agree: few candidate melds, and no card of the
        Joker's class but Jokers (so no card is searched as a Joker and no meld
        is skipped for a Joker's sake).  ``None``: not such a hand.
        """
        cls = self._wild_class.get(self.deck.joker_code)
        if cls is not None:
            joker = self.deck.joker_code
            wild_class = self._wild_class
            if any(c != joker and wild_class.get(c) == cls for c in live):
                return None
        raw = self._positive(live, self.gain_value)
        if len(raw) > _LIGHT_UP_TO:
            return None
        melds: list[PlacedMeld] = []
        for j in self._plain_search(live, raw)[1]:
            m = raw[j][0]
            read = self.gain(m)
            assert read is not None, "a chosen meld is legal"
            melds.append(PlacedMeld(m, read[1], read[0]))
        return tuple(melds)

    def _plain_search(self, cards: Multiset, raw: list[tuple[Multiset, int]],
                      pooled: frozenset[Card] = frozenset()) -> tuple[int, list[int]]:
        """The best total gain of disjoint melds of ``raw`` within ``cards``, and the melds chosen (their places).

        A plain memoised search over packed counts (few melds: no bounds
        needed), in the order :class:`HandSearch` takes them: the cards with
        fewest candidate melds first, then the processing order; the first free
        card kept first, then its melds greatest gain first; the first of equal
        values kept.  HandSearch's bounds only skip options that cannot do
        strictly better, so on the hands :meth:`_light_arrangement` admits the
        choices are the same (tested).
        """
        joker = self.deck.joker_code
        found = packing.plain_search_melds(cards, raw, self._positions, joker, pooled, self._clock)
        if found is not None:
            return found
        uses: dict[Card, int] = {}
        for m, _ in raw:
            used = set(m)
            if pooled and not used.isdisjoint(pooled):
                used.add(joker)  # a card of the pool held as itself is also one of the pool's wilds
            for c in used:
                uses[c] = uses.get(c, 0) + 1
        order = self.order
        codes = sorted(uses, key=lambda c: (uses[c], order[c]))
        index = {c: i for i, c in enumerate(codes)}
        counts = [0] * len(codes)
        for c in cards:
            i = index.get(c)
            if i is not None:
                counts[i] += 1
        bits = field_bits(max(counts, default=0))
        unit = [1 << (bits * i) for i in range(len(codes))]
        by_first: list[list[tuple[int, int, int]]] = [[] for _ in codes]
        for j, (m, g) in enumerate(raw):
            delta = 0
            first = len(codes)
            for c in m:
                i = index[c]
                delta += unit[i]
                if i < first:
                    first = i
                if c in pooled:
                    i = index[joker]
                    delta += unit[i]
                    if i < first:
                        first = i
            by_first[first].append((delta, g, j))
        for options in by_first:
            options.sort(key=lambda o: -o[1])
        key = sum(n * u for n, u in zip(counts, unit, strict=True))
        return packing.plain_search(key, bits, by_first, self._clock)

    def _plain_and_distinct(self, hand: Multiset) -> bool:
        wild = self.wild_capable
        return len(set(hand)) == len(hand) and not any(wild[c] for c in hand)

    def _bitmask_search(self, hand: Multiset) -> tuple[Callable[[int], int], int, dict[Card, int]]:
        """A memoised search over the bitmask of free cards (every card distinct)."""
        order = self.order
        cards = sorted(hand, key=order.__getitem__)
        bit = {c: 1 << i for i, c in enumerate(cards)}
        by_low: list[list[tuple[int, int]]] = [[] for _ in cards]
        known = self._gain_values
        for m in self.candidates.plain_candidates(hand):
            g = known[m] if m in known else self.gain_value(m)  # plain melds are their own canonical form
            if g is not None and g > 0:
                mask = 0
                for c in m:
                    mask |= bit[c]
                by_low[(mask & -mask).bit_length() - 1].append((mask, g))
        for options in by_low:
            options.sort(key=lambda mg: -mg[1])
        return packing.bitmask_search(len(cards), by_low, self._clock), (1 << len(cards)) - 1, bit

    def _gain_or_none(self, meld: Multiset) -> int | None:
        return self.gain_value(meld)

    def _build(self, hand: HandSearch, key: int, dropped: Card | None = None) -> Arrangement:
        """The arrangement the search chose for the free cards ``key`` (and the dead cards)."""
        cards = list(hand.given)
        if dropped is not None:
            cards.remove(dropped)
        return self._arranged(tuple(cards), self._chosen(hand, key, dropped))

    def _chosen(self, hand: HandSearch, key: int, dropped: Card | None = None) -> tuple[PlacedMeld, ...]:
        """The melds the search chose for the free cards ``key``, in real cards and read."""
        chosen: list[Multiset] = []
        while key:
            choice = hand.choice(key)
            if choice < 0:
                key = hand.drop_first(key)
                continue
            cand = hand.cands[choice]
            chosen.append(cand.cards)
            key -= cand.delta
        real_melds, _ = hand.real(chosen, [], dropped)
        melds: list[PlacedMeld] = []
        for m in real_melds:
            m = self._sorted(m)
            g = self.gain(m)
            assert g is not None, "a chosen meld is legal"
            melds.append(PlacedMeld(m, g[1], g[0]))
        return tuple(melds)

    def _arranged(self, cards: Multiset, melds: tuple[PlacedMeld, ...]) -> Arrangement:
        """``cards`` with ``melds`` put down and the rest kept, scored by the round formula.

        The score is the objective's (the round formula's exact linear form, as
        :meth:`best_score` gives it); the left cards' value is read from the
        formula's hand table.
        """
        left = self._sorted(minus_all(cards, [m.cards for m in melds])) if melds else self._sorted(cards)
        left_utility = self.left_utility
        utility = sum(map(left_utility.__getitem__, cards)) + sum(m.gain for m in melds)
        values = self._hand_values
        left_value = None if values is None else sum(map(values.__getitem__, left))
        return Arrangement(cards, melds, left, left_value, self._score_of(utility), not left)

    # ------------------------------------------------------------ going out, discards

    def max_melded(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> tuple[int, Arrangement]:
        """The most cards that can be melded at once, and one such arrangement."""
        with self._running(budget, "melding the most cards"):
            hand = self._search(tuple(cards), self._count_if_legal, pooled=True)
            best = hand.solve(hand.full)
            return best, self._build(hand, hand.full)

    def _count_if_legal(self, meld: Multiset) -> int | None:
        return len(meld) if self.gain_value(meld) is not None else None

    def can_go_out(self, cards: Sequence[Card] | str, *, opened: bool = False,
                   budget: BudgetLike | Clock = None) -> GoingOut:
        """Can this hand, as it stands after the draw, go out this turn as the referee allows?

        The rule is :mod:`loba_dsl.solver.last_cards`' (``turn.going_out``,
        ``turn.discard_joker``, ``turn.go_out_on_first_lay_down``): everything melded
        but the discard (none, under ``discard_optional``) and, under
        ``one_card_left``, one card kept.  ``opened``: the player put cards down in an
        earlier turn of the round (default: not, so under
        ``go_out_on_first_lay_down: false`` the answer is no).  Requirements
        (rules.md §4) are not checked: for a player who has not opened under them, see
        :func:`loba_dsl.solver.going_out.go_out_meeting`.  The arrangement is the
        melds and the card kept; ``discard`` the card discarded (``None``: none).
        """
        with self._running(budget, "asking whether the hand can go out"):
            return self._can_go_out(self._cards(cards), opened=opened)

    def _can_go_out(self, cards: Multiset, *, opened: bool = False) -> GoingOut:
        rs = self.rs
        if not may_go_out(rs, laid_before=opened):
            return GoingOut(False, None, None)
        keep = cards_kept(rs)
        if len(cards) - len(self._live(cards)) > 1 + keep:
            return GoingOut(False, None, None)  # more cards that no candidate can hold than may leave unmelded
        hand = self._search(cards, self._count_if_legal, pooled=True)
        total = len(hand.given)
        stuck = hand.stuck()
        if len(stuck) > 1 + keep or not hand.reaches(hand.full, total - 1 - keep):
            # Fewer cards melded at best than going out needs: a discard takes a card away, which never lets
            # more be melded (an arrangement without the card is one of the whole hand), so no discard helps.
            return GoingOut(False, None, None)
        for code in discards(rs, hand.given):
            if code is None:  # no discard: the last meld empties the hand
                if not stuck and hand.reaches(hand.full, total):
                    return GoingOut(True, None, self._build(hand, hand.full))
                continue
            if len(stuck) - (code in stuck) > keep:
                continue  # more cards no meld can hold than may stay in hand
            key = hand.without(code)
            rest = hand.full if key is None else key
            if hand.reaches(rest, total - 1 - keep):
                return GoingOut(True, code, self._build(hand, rest, dropped=code))
        return GoingOut(False, None, None)

    def best_discard(self, cards: Sequence[Card] | str, *,
                     budget: BudgetLike | Clock = None) -> tuple[Card, Arrangement]:
        """For a hand that has just drawn: the discard after which the arrangement is best (exact).

        Every distinct discard the ruleset allows is tried (never a greedy shortcut;
        no Joker under ``turn.discard_joker: false`` while another card may go);
        ties go to the first card in the solver's order.
        """
        with self._running(budget, "choosing the discard"):
            return self._best_discard(self._cards(cards))

    def _best_discard(self, cards: Multiset) -> tuple[Card, Arrangement]:
        hand = self._search(cards, self._gain_or_none, pooled=True)
        top = hand.solve(hand.full)  # no discard's rest can gain more (a card taken away never lets more be melded)
        best: tuple[int, Card, int] | None = None
        for code in discard_choices(self.rs, hand.given):
            utility = self.left_utility[code]
            key = hand.without(code)
            rest = hand.full if key is None else key
            if best is not None and (top - utility <= best[0] or not hand.reaches(rest, best[0] + utility + 1)):
                continue  # cannot do strictly better than the first best discard (ties go to the first)
            value = hand.solve(rest) - utility
            if best is None or value > best[0]:
                best = (value, code, rest)
        assert best is not None
        return best[1], self._build(hand, best[2], dropped=best[1])


    # ------------------------------------------------------------ a hand from text

    def _cards(self, cards: Sequence[Card] | str) -> tuple[Card, ...]:
        """Card codes as given, or read from text (bad cards and extra copies are an ``InputError``)."""
        if not isinstance(cards, str):
            return tuple(cards)
        parsed = self.rs.notation().parse(cards, source="<cards>")
        check_copies(parsed, self.rs.deck, source="<cards>", text=cards, ruleset=self.rs.name)
        return parsed.cards

    def arrange_text(self, text: str, *, lang: str | None = None, source: str = "<cards>", line: int = 1,
                     discard: bool = False, opened: bool = False,
                     budget: BudgetLike | Clock = None) -> ArrangedHand:
        """Read a hand (``line`` of ``source``), check its copies, arrange it and say if it can go out.

        With ``discard=True`` the hand has just drawn: the best discard is chosen
        first (:meth:`best_discard`).  Whether it can go out is asked of the
        whole hand, as given (:meth:`can_go_out`, with ``opened``).
        """
        rs = self.rs
        parsed = rs.notation(lang).parse(text, source=source, first_line=line)
        check_copies(parsed, rs.deck, source=source, text=text, ruleset=rs.name, first_line=line)
        if not parsed.cards:
            raise InputError("no cards given", hint='e.g. loba arrange "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠"')
        dropped: Card | None = None
        with self._running(budget, "arranging the hand"):  # one budget for the whole answer
            if discard:
                dropped, arrangement = self._best_discard(parsed.cards)
            else:
                arrangement = self.arrange(parsed.cards)
            going_out = self._can_go_out(parsed.cards, opened=opened).possible
        return ArrangedHand(parsed.cards, arrangement, dropped, going_out)

    # ------------------------------------------------------------ requirements

    def best_opening(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> Arrangement | None:
        """The best arrangement whose melds reach the opening minimum (``requirements.opening``), or ``None``.

        Exact: the search carries the opening value reached so far (capped at
        the minimum) as part of its state.
        """
        with self._running(budget, "finding the best opening"):
            return self._best_opening(tuple(cards))

    def _best_opening(self, cards: Multiset) -> Arrangement | None:
        rule = opening_rule(self.rs)
        minimum = rule.minimum

        def worth(meld: Multiset) -> int:
            return rule.layout(self.matcher, meld, budget=self._clock)[1]  # laid out at its best

        hand = self._search(cards, self._gain_or_none)
        worths = [worth(c.cards) for c in hand.cands]
        memo: dict[tuple[int, int], tuple[float, int]] = {}
        clock = self._clock

        def solve(key: int, acc: int) -> float:
            if acc >= minimum:
                return hand.solve(key)
            if not key:
                return float("-inf")
            hit = memo.get((key, acc))
            if hit is not None:
                return hit[0]
            if clock is not None:
                clock.tick()
            i = hand.first(key)
            best = solve(hand.drop_first(key), acc)
            choice = -1
            for j in hand.by_first[i]:
                cand = hand.cands[j]
                if not hand.fits(key, cand):
                    continue
                reached = rule.reached(acc, worths[j])
                value = cand.gain + solve(key - cand.delta, min(reached, minimum))
                if value > best:
                    best, choice = value, j
            memo[(key, acc)] = (best, choice)
            return best

        if solve(hand.full, 0) == float("-inf"):
            return None
        # Follow the choices: opening melds from this memo, the rest from the plain search.
        melds: list[Multiset] = []
        key, acc = hand.full, 0
        while key and acc < minimum:
            _, choice = memo[(key, acc)]
            if choice < 0:
                key = hand.drop_first(key)
                continue
            cand = hand.cands[choice]
            melds.append(cand.cards)
            acc = min(rule.reached(acc, worths[choice]), minimum)
            key -= cand.delta
        opening_melds, _ = hand.real(melds, [])
        # Each opening meld in the layout its worth was counted in (under ``wild_value: represented``
        # the layout says what a wild stands for), so the arrangement shows how to lay it down.
        opening_melds = [rule.layout(self.matcher, m, budget=self._clock)[0] for m in opening_melds]
        rest = self.arrange(minus_all(hand.given, opening_melds))
        chosen = [*opening_melds, *(m.cards for m in rest.melds)]
        return self._arrangement_of(hand.given, chosen)

    def contract(self, cards: Sequence[Card], round_number: int, *,
                 budget: BudgetLike | Clock = None) -> Arrangement | None:
        """Melds from ``cards`` that fulfil round ``round_number``'s contract exactly, or ``None``.

        A round outside the ruleset's list of contracts is an :class:`~loba_dsl.errors.InputError`,
        as for ``loba check --contract``.
        """
        wanted = contract_rule(self.rs, round_number).wanted
        with self._running(budget, "fulfilling the contract"):
            return self._contract(tuple(cards), wanted)

    def _contract(self, cards: Multiset, wanted: Mapping[str, int]) -> Arrangement | None:
        kinds = sorted(wanted)
        hand = self._search(cards, self._count_if_legal)
        legal = [tuple(k for k in kinds if self.matcher.match_kind(c.cards, k) is not None) for c in hand.cands]
        memo: dict[tuple[int, tuple[int, ...]], tuple[int, str] | None] = {}
        clock = self._clock

        def solve(key: int, need: tuple[int, ...]) -> bool:
            if not any(need):
                return True
            if not key:
                return False
            state = (key, need)
            if state in memo:
                return memo[state] is not None
            if clock is not None:
                clock.tick()
            i = hand.first(key)
            found: tuple[int, str] | None = None
            if solve(hand.drop_first(key), need):
                found = (-1, "")
            else:
                for j in hand.by_first[i]:
                    cand = hand.cands[j]
                    if not hand.fits(key, cand):
                        continue
                    for kind in legal[j]:
                        n = kinds.index(kind)
                        if need[n] and solve(key - cand.delta, (*need[:n], need[n] - 1, *need[n + 1:])):
                            found = (j, kind)
                            break
                    if found:
                        break
            memo[state] = found
            return found is not None

        need = tuple(wanted[k] for k in kinds)
        if not solve(hand.full, need):
            return None
        melds: list[Multiset] = []
        key = hand.full
        while any(need):
            found = memo[(key, need)]
            assert found is not None
            j, kind = found
            if j < 0:
                key = hand.drop_first(key)
                continue
            melds.append(hand.cands[j].cards)
            n = kinds.index(kind)
            need = (*need[:n], need[n] - 1, *need[n + 1:])
            key -= hand.cands[j].delta
        real_melds, _ = hand.real(melds, [])
        return self._arrangement_of(hand.given, real_melds)

    def _arrangement_of(self, cards: Multiset, melds: Sequence[Multiset]) -> Arrangement:
        placed = []
        for m in melds:
            g = self.gain(m)
            assert g is not None
            placed.append(PlacedMeld(m, g[1], g[0]))
        return self._arranged(cards, tuple(placed))


class _Outer:
    """The round's facts, for a ``where`` filter that names them."""

    def __init__(self, players: int) -> None:
        self.facts = round_facts(players=players)

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
