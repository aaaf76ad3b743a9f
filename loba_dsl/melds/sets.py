"""Reading cards as a set (one rank): the wilds take the suits the set's suit rules need."""

from __future__ import annotations

from loba_dsl.cards.deck import Card
from loba_dsl.dsl.evaluate import compare
from loba_dsl.melds.clauses import ClauseMatcher
from loba_dsl.melds.reading import HEAD, Failure, Reading
from loba_dsl.melds.shapes import CompiledShape

__all__ = ["SetMatcher"]


class SetMatcher(ClauseMatcher):
    """The set reader of a matcher: every reading of cards as a set kind, or the clauses that fail."""

    def _natural_set(self, k: CompiledShape, cards: tuple[Card, ...]) -> Reading | None:
        """Fast path: all cards natural and the set legal (else ``None``: the general path explains)."""
        n = len(cards)
        rank = self.rank
        if not n:
            return None
        r0 = rank[cards[0]]
        if not k.lo <= n <= k.hi or any(rank[c] != r0 for c in cards):
            return None
        d = len({self.suit[c] for c in cards})
        if k.distinct is not None and d != n:
            return None
        for op, v, _ in k.suit_limits:
            if not compare(op, d, v):
                return None
        for counter, op, v, _ in k.limits:
            if not compare(op, 0 if counter == "wilds" else n, v):
                return None
        order, falses = self._plain(n)
        points = self._points(k, cards, order, cards, falses, falses) if self.values is not None else None
        return Reading(k.name, k.index, order, cards, falses, points, r0)

    def _set(self, k: CompiledShape, cards: tuple[Card, ...], nat: list[int], wild: list[int],
             explain: bool = True) -> tuple[list[Failure], list[Reading]]:
        if not wild:
            quick = self._natural_set(k, cards)
            if quick is not None:
                return [], [quick]
        n = len(cards)
        fails = self._size_and_wilds(k, cards, wild)
        if fails and not explain:
            return fails, []
        rank, suit = self.rank, self.suit
        ranks = {rank[cards[i]] for i in nat}
        if len(ranks) > 1:
            fails.append(Failure(k.name, k.index, HEAD, "needs cards of one rank, but has {cards}",
                                 tuple(cards[i] for i in nat), structural=True))
        if fails and not explain:
            return fails, []
        nat_suits = [suit[cards[i]] for i in nat]
        d = len(set(nat_suits))
        if k.distinct is not None:
            if d < len(nat_suits):
                twice = next(s for s in nat_suits if nat_suits.count(s) > 1)
                same = [i for i in nat if suit[cards[i]] == twice]
                fails.append(Failure(k.name, k.index, k.distinct,
                                     "needs every suit different, but {cards} share a suit",
                                     tuple(cards[i] for i in same), structural=True))
            elif n > self.S:
                fails.append(Failure(k.name, k.index, k.distinct, "has {0} cards but only {1} suits",
                                     values=(n, self.S), structural=True))
        lo_d, hi_d = self._suit_limits(k, d, n, len(wild), fails)
        self._limits(k, n, len(nat), len(wild), fails)
        if fails:
            return fails, []
        # Readings: the wilds take the missing suits first, as the suit rules need.
        target = lo_d
        for op, v, _ in k.suit_limits:
            target = next(x for x in range(lo_d, hi_d + 1) if compare(op, x, v))
        if k.distinct is not None:
            target = n
        used = list(dict.fromkeys(nat_suits))
        missing = [s for s in range(self.S) if s not in used]
        wild_suits = []
        for j in range(len(wild)):
            if len(used) + j < target and missing:
                wild_suits.append(missing.pop(0))
            else:
                wild_suits.append(used[0] if used else (wild_suits[0] if wild_suits else 0))
        out = []
        candidate_ranks = sorted(ranks) if ranks else list(range(self.R))
        for r in candidate_ranks:
            stands = list(cards)
            flags = [False] * n
            for j, i in enumerate(wild):
                stands[i] = self.deck.code(r, wild_suits[j])
                flags[i] = True
            points = self._points(k, cards, range(n), stands, flags, [False] * n)
            out.append(Reading(k.name, k.index, tuple(range(n)), tuple(stands), tuple(flags), points, r))
        return [], out
