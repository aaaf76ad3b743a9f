"""The search of one hand over its candidate melds: the second part of the solver.

Search: the cards are taken in a fixed order (plain naturals by suit and rank,
then the cards that can be wild); the first card left is either kept in hand
or put in one of the legal melds that contain it, drawn from the cards still
free; results are memoised on the multiset of free cards.

:class:`Searches` builds a hand's :class:`~loba_dsl.solver.search.HandSearch`
from :class:`~loba_dsl.solver.meld_gains.MeldGains`' candidates (the full
search, with bounds), or on small hands runs the plain memoised search of
:mod:`~loba_dsl.solver.packing` (few melds: no bounds needed); its
:meth:`Searches.best_gain` is the best total gain of a hand's melds.

Wilds: where every card that can be wild counts as the Joker does, as a wild
and in hand (2s and Jokers wild alike, a 2 also its natural self), a hand's
wilds are searched as one pool: a 2 is one more Joker of the search and,
apart, its right to stand as itself; the candidates hold Jokers in every
wild's place, and the chosen melds name the pool's cards at the end
(:meth:`Searches.pooled_input`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from loba_dsl.cards.deck import Card
from loba_dsl.solver import packing
from loba_dsl.solver.meld_gains import MeldGains
from loba_dsl.solver.multisets import Multiset
from loba_dsl.solver.search import HandSearch, field_bits

__all__ = ["LIGHT_UP_TO", "Searches"]

LIGHT_UP_TO = 48
"""Hands with at most this many candidate melds are scored by the plain memoised search (no bounds)."""

Gain = Callable[[Multiset], int | None]
"""What a search maximises per meld (``None``: not a meld)."""

LightArgs = tuple[Mapping[Multiset, int | None], Gain, int, Callable[..., tuple[int, list[int]] | None],
                  tuple[int, ...], Card, frozenset[Card]]
"""``native_candidates``' ``light_gain``'s arguments between the hand and the tick."""


class Searches:
    """The searches of hands under one ruleset, over :class:`MeldGains`' candidates."""

    def __init__(self, gains: MeldGains) -> None:
        self.gains = gains
        self.calls = gains.calls
        twin = gains.generator.native_candidates
        self.native_light = packing.NATIVE_PLAIN_SEARCH_MELDS is not None and twin is not None
        """Whether the light search runs in C from end to end: candidates (``native_candidates``), then
        the search and its fields (``native_packing``)."""
        self._light_gain = twin.light_gain if self.native_light and twin is not None else None
        """The C twin of :meth:`_searched_gain`'s light search of a hand with no pooled wilds, in one call."""
        kernel = packing.NATIVE_PLAIN_SEARCH_MELDS
        self._light_args: LightArgs | None = None if kernel is None else (
            gains.table, gains.gain_value, LIGHT_UP_TO, kernel, gains.positions, gains.deck.joker_code, frozenset())
        """Its arguments after the hand and before the clock's tick: the meld table (one dict, filled in place),
        the gain of a meld not in it, the most melds of a light search, the search (``native_packing``'s
        ``plain_search_melds``) and its arguments."""

    def search(self, given: Multiset, gain: Gain, *, pooled: bool = False) -> HandSearch:
        """The search of one hand, over its candidate melds of positive ``gain`` (``pooled``: :meth:`pooled_input`)."""
        g = self.gains
        if pooled:
            found = self.pooled_input(given, gain)
            if found is not None:
                return self.pool_hand_search(given, found)
        cards = g.sorted(given)
        raw = g.positive(cards, gain)
        cards, raw, stand_ins = g.merge_pure_wilds(cards, raw)
        return HandSearch(given, cards, raw, order=g.order, joker=g.deck.joker_code, stand_ins=stand_ins,
                          swaps=g.joker_class_wilds, clock=self.calls.clock)

    def pool_hand_search(self, given: Multiset, found: tuple[Multiset, list[tuple[Multiset, int]]]) -> HandSearch:
        """The :class:`HandSearch` of :meth:`pooled_input`'s cards and candidates."""
        g = self.gains
        return HandSearch(given, found[0], found[1], order=g.order, joker=g.deck.joker_code, clock=self.calls.clock,
                          pooled=g.pool)

    def pooled_input(self, given: Multiset, gain: Gain) -> tuple[Multiset, list[tuple[Multiset, int]]] | None:
        """The cards and candidates of a search of ``given`` with its wilds as one pool (``None``: no card of it).

        Every card of the pool (:attr:`MeldGains.pool`: the 2s where Jokers and 2s
        are wild alike) is searched twice over: as one more Joker (a wild of the
        pool: the cards searched get one Joker per such card) and as itself, the
        right to stand as its natural self; a meld that holds it as itself uses
        up both (``HandSearch(pooled=...)``, :meth:`pool_hand_search`).  The
        candidates fill every wild's place with a Joker
        (``hand_candidates(pooled=True)``), so melds that differed only in which
        wild stood where are one.  Exact: any card of the pool can take a Joker's
        place as a wild at the same value there and in hand, and every card of
        the pool not held as itself is free to be one; :meth:`HandSearch.real`
        names them (the real Jokers first).
        """
        g = self.gains
        pool = g.pool
        if not pool:
            return None
        n = 0
        for c in given:
            if c in pool:
                n += 1
        if not n:
            return None
        cards = g.sorted(given)
        return g.sorted(cards + (g.deck.joker_code,) * n), g.positive(cards, gain, pooled=True)

    # ------------------------------------------------------------ the best gain of a hand

    def gain_of(self, hand: Multiset) -> int:
        """The best total gain of disjoint melds of ``hand`` (0 where nothing can meld)."""
        return self.best_gain(hand) if self.gains.may_meld(hand) else 0

    def best_gain(self, hand: Multiset) -> int:
        """The best total gain of disjoint melds of ``hand``, by the cheapest search that is exact for it.

        Where the C twins generate a hand's candidates and search them (``native_light``), a hand of few
        candidates takes that light search whatever its cards, every step of it in C (a third cheaper
        than the bitmask search, whose candidates are generated in Python: ``benchmarks/bench_cold.py``);
        otherwise a hand of distinct plain cards is searched over a bitmask of its cards (in pure Python
        the cheaper), and the others by the light search or, with many candidates, the full one.
        """
        if self.native_light:
            return self._searched_gain(hand, bitmask_if_many=True)
        if self.plain_and_distinct(hand):
            solve, full, _ = self.bitmask_search(hand)
            return solve(full)
        return self._searched_gain(hand)

    def _searched_gain(self, hand: Multiset, *, bitmask_if_many: bool = False) -> int:
        """The light search of ``hand`` where its candidates are few, else (``bitmask_if_many``: if its cards are
        distinct and plain, the bitmask search) the full search."""
        g = self.gains
        pooled = self.pooled_input(hand, g.gain_value) if g.pool else None
        if pooled is None:
            light, args = self._light_gain, self._light_args
            if light is not None and args is not None:  # the light search below in one C call (None: not light)
                clock = self.calls.clock
                found = light(hand, *args, None if clock is None else clock.tick)
                if found is not None:
                    return found
            cards = g.sorted(hand)
            raw = g.positive(cards, g.gain_value)
            if len(raw) <= LIGHT_UP_TO:
                return self.plain_search(cards, raw)[0]
            if bitmask_if_many and self.plain_and_distinct(hand):
                solve, full, _ = self.bitmask_search(hand)
                return solve(full)
            search = self.search(hand, g.gain_value)
        else:
            if len(pooled[1]) <= LIGHT_UP_TO:
                return self.plain_search(*pooled, g.pool)[0]
            search = self.pool_hand_search(hand, pooled)
        return search.solve(search.full)

    def plain_search(self, cards: Multiset, raw: list[tuple[Multiset, int]],
                     pooled: frozenset[Card] = frozenset()) -> tuple[int, list[int]]:
        """The best total gain of disjoint melds of ``raw`` within ``cards``, and the melds chosen (their places).

        A plain memoised search over packed counts (few melds: no bounds
        needed), in the order :class:`HandSearch` takes them: the cards with
        fewest candidate melds first, then the processing order; the first free
        card kept first, then its melds greatest gain first; the first of equal
        values kept.  HandSearch's bounds only skip options that cannot do
        strictly better, so on the hands
        :meth:`Arranger.light_arrangement <loba_dsl.solver.arranging.Arranger.light_arrangement>`
        admits the choices are the same (tested).
        """
        g = self.gains
        joker = g.deck.joker_code
        clock = self.calls.clock
        found = packing.plain_search_melds(cards, raw, g.positions, joker, pooled, clock)
        if found is not None:
            return found
        uses: dict[Card, int] = {}
        for m, _ in raw:
            used = set(m)
            if pooled and not used.isdisjoint(pooled):
                used.add(joker)  # a card of the pool held as itself is also one of the pool's wilds
            for c in used:
                uses[c] = uses.get(c, 0) + 1
        order = g.order
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
        for j, (m, gain) in enumerate(raw):
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
            by_first[first].append((delta, gain, j))
        for options in by_first:
            options.sort(key=lambda o: -o[1])
        key = sum(n * u for n, u in zip(counts, unit, strict=True))
        return packing.plain_search(key, bits, by_first, clock)

    def plain_and_distinct(self, hand: Multiset) -> bool:
        """Whether ``hand`` holds no card twice and none that can be wild (a bitmask search fits it)."""
        wild = self.gains.wild_capable
        return len(set(hand)) == len(hand) and not any(wild[c] for c in hand)

    def bitmask_search(self, hand: Multiset) -> tuple[Callable[[int], int], int, dict[Card, int]]:
        """A memoised search over the bitmask of free cards (every card distinct): the solve, full mask, bits."""
        g = self.gains
        order = g.order
        cards = sorted(hand, key=order.__getitem__)
        bit = {c: 1 << i for i, c in enumerate(cards)}
        by_low: list[list[tuple[int, int]]] = [[] for _ in cards]
        value = g.known_gain_value  # plain melds are their own canonical form
        for m in g.generator.plain_candidates(hand):
            gain = value(m)
            if gain is not None and gain > 0:
                mask = 0
                for c in m:
                    mask |= bit[c]
                by_low[(mask & -mask).bit_length() - 1].append((mask, gain))
        for options in by_low:
            options.sort(key=lambda mg: -mg[1])
        return packing.bitmask_search(len(cards), by_low, self.calls.clock), (1 << len(cards)) - 1, bit
