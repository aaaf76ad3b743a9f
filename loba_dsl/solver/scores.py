"""The best score of a hand, without building its arrangement: the number a bot compares most often.

:class:`BestScores` answers :meth:`BestScores.best_score` (as
``arrange(cards).score``): the card values of the whole hand, plus the best
gain of its live cards (those some candidate meld may use), split into parts
no meld crosses, with the Jokers shared out among them.  Best gains are cached
by the live cards, or where the suits are alike by their key up to a renaming
of the suits (:class:`~loba_dsl.solver.symmetry.SuitCanon`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from loba_dsl.budget import BudgetLike, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.solver.candidates import CandidateGenerator
from loba_dsl.solver.multisets import Multiset
from loba_dsl.solver.searches import Searches
from loba_dsl.solver.symmetry import SHAPE_LIMIT

__all__ = ["SPLIT_FROM", "BestScores", "pure_scored_shape"]

SPLIT_FROM = 17
"""Live cards from this many on are split into parts no meld crosses (their Jokers shared out); fewer are
searched whole.

Parts make a large hand's search many small ones, and small parts recur from hand to hand; but a hand
of a dozen live cards is searched whole in C in a few microseconds, less than the Python that splits it
and shares its Jokers out.  Measured cold (a fresh Solver) by best_score: menos 10 cards 7.0 -> 5.4 us
a hand, 16 cards 34 -> 26 us, 20 cards 85 -> 72 us; gin, ``uruguay`` (20 cards) and ``mas-pagat``
(12 to 25 cards, whose wild 2s make one part anyway) the same within the noise.  Only where the C twins
search (``Searches.native_light``); in pure Python every hand is split.
"""


def pure_scored_shape(generator: CandidateGenerator, cards: Sequence[Card], values: tuple[int, ...]
                      ) -> tuple[tuple[int, ...] | None, int]:
    """The key of a hand's live cards up to a renaming of the suits, and the sum of ``values`` over all its cards.

    :meth:`CandidateGenerator.live_shape <loba_dsl.solver.candidates.CandidateGenerator.live_shape>`
    and the hand's utility if every card stayed in hand: what :meth:`BestScores.best_score` reads first.
    Its C twin, ``native_live``'s ``scored_shape``, does both in one pass (a hand known already then costs
    half as much).
    """
    return generator.live_shape(cards), sum(map(values.__getitem__, cards))


class BestScores:
    """Best scores of hands under one ruleset (the number only)."""

    def __init__(self, searches: Searches) -> None:
        self.searches = searches
        self.gains = gains = searches.gains
        self.calls = gains.calls
        twin = gains.generator.native_live
        self._scored_shape: Callable[[Sequence[Card], tuple[int, ...]], tuple[tuple[int, ...] | None, int]] = (
            partial(pure_scored_shape, gains.generator) if twin is None else twin.scored_shape)
        """:func:`pure_scored_shape`, or its C twin."""
        self._split_from = SPLIT_FROM if searches.native_light else 0
        """Live cards searched whole below this many: in C, :data:`SPLIT_FROM`; in pure Python, none (its
        searches are slower than the split: 10-card menos hands 28 us a hand in parts, 34 whole)."""
        self._live_gains: dict[tuple[int, ...], int] = self.calls.values({})
        """A hand's live cards (those some candidate meld may use), or a part of them (with Jokers to share) -> the
        best total gain of their melds (the best gain of those cards as a hand, either way).  Keyed by the cards
        themselves, or where the suits are all alike by :meth:`SuitCanon.key` (the same for every renaming)."""

    def best_score(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> int:
        """Just the score of the best arrangement (as ``arrange(cards).score``, without building it).

        A hand in which no meld can even be formed (the common case for a
        random hand) is answered from the card values alone; a hand whose
        live cards were met before (up to a renaming of the suits), from the
        cache; any other by :meth:`Searches.best_gain
        <loba_dsl.solver.searches.Searches.best_gain>` of its live cards (whole,
        or in parts: :data:`SPLIT_FROM`), in one call under one budget.
        """
        g = self.gains
        canon = g.canon
        if canon is not None:
            # Keyed by the live cards up to a renaming of the suits (the best gain is the same under any), read in
            # the same pass that finds them and adds up the cards' utilities.
            key, utility = self._scored_shape(cards, g.left_utility)
            if key is None:  # too many cards for the counts' bits
                live = g.live(cards)
                key = canon.key(live) if live else ()
            if key:
                gain = self._live_gains.get(key)
                if gain is None:
                    with self.calls.running(budget, "scoring the hand"):
                        gain = self._live_gains[key] = self._split_gain(g.live(cards))
                utility += gain
        else:
            utility = sum(map(g.left_utility.__getitem__, cards))
            live = g.live(cards)
            if live:
                gain = self._live_gains.get(live)
                if gain is None:
                    with self.calls.running(budget, "scoring the hand"):
                        gain = self._live_gains[live] = self._split_gain(live)
                utility += gain
        objective = g.objective
        value = g.sign * utility + objective.linear.const
        return objective.wrap(value) if objective.wrap is not None else value

    def _split_gain(self, live: Multiset) -> int:
        """The best gain of a hand's live cards: searched whole (fewer than :data:`SPLIT_FROM`), else the sum of
        its parts', or the best sharing of its Jokers among them.

        It and the methods below run inside the hand's one call (:meth:`Calls.running
        <loba_dsl.solver.calls.Calls.running>`, opened by :meth:`best_score` on a miss): one budget for
        the whole hand, whatever its parts.  They search live cards, which nearly always hold a meld
        (:meth:`Searches.best_gain <loba_dsl.solver.searches.Searches.best_gain>`, without the quick
        ``may_meld`` test of ``gain_of``, which a search of cards that make no meld does not need: it
        finds no candidate and answers 0).
        """
        if len(live) < self._split_from:
            return self.searches.best_gain(live)
        g = self.gains
        parts, jokers = g.generator.split(live)
        if jokers:
            return self._shared_out(parts, jokers)
        gain_of = self.searches.best_gain  # live cards: nearly always a meld, so no quick test first
        if len(parts) == 1:
            return gain_of(live)
        gains = self._live_gains
        canon = g.canon
        total = 0
        for part in parts:
            key = part if canon is None else canon.key(part)  # parts recur from hand to hand in other suits
            gain = gains.get(key)
            if gain is None:
                gain = gains[key] = gain_of(part)
            total += gain
        return total

    def _shared_out(self, parts: tuple[Multiset, ...], jokers: int) -> int:
        """The best total gain of ``parts`` (no meld crosses two) with ``jokers`` Jokers shared out among them.

        Each part's best gain with ``t`` Jokers is cached under its cards; a
        part's gain grows with its Jokers (a Joker may stay in hand), so the best
        sharing gives every Joker to some part: a small knapsack over the parts.
        """
        gains = self._live_gains
        joker = self.gains.deck.joker_code
        best = [0] + [-1] * jokers  # best[j]: the parts so far with j Jokers among them (gains are never negative)
        for part in parts:
            with_jokers = []
            for t, key in enumerate(self._keys_with_jokers(part, jokers)):
                gain = gains.get(key)
                if gain is None:
                    gain = gains[key] = self._live_part_gain(part + (joker,) * t)  # (the Joker is last)
                with_jokers.append(gain)
            best = [max(best[j - t] + with_jokers[t] for t in range(j + 1) if best[j - t] >= 0)
                    for j in range(jokers + 1)]
        return max(best)

    def _live_part_gain(self, cards: Multiset) -> int:
        """The best gain of ``cards`` (a part with some Jokers), that of its live cards (cached under them).

        With fewer Jokers than the whole hand, a part's cards may not all be
        live any more; the others are kept whatever the search chooses, so the
        gain is that of the live ones, which other parts share.
        """
        g = self.gains
        live = g.live(cards)
        if not live:
            return 0
        gain_of = self.searches.best_gain  # live cards: nearly always a meld, so no quick test first
        if len(live) == len(cards):
            return gain_of(cards)
        key = live if g.canon is None else g.canon.key(live)
        gains = self._live_gains
        gain = gains.get(key)
        if gain is None:
            gain = gains[key] = gain_of(live)
        return gain

    def _keys_with_jokers(self, part: Multiset, jokers: int) -> list[Multiset]:
        """The keys of ``part`` (no Joker in it) with 0, 1, ... ``jokers`` Jokers added, in the cache of best gains."""
        g = self.gains
        canon = g.canon
        joker = g.deck.joker_code
        if canon is None:
            return [part + (joker,) * t for t in range(jokers + 1)]
        if len(part) + jokers >= SHAPE_LIMIT:
            return [canon.key(part + (joker,) * t) for t in range(jokers + 1)]
        suits = canon.key(part)[:-1]  # the Jokers' count is the last slot of a key
        return [(*suits, t) for t in range(jokers + 1)]
