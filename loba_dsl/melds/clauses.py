"""What every meld kind checks, shared by the set and run readers: the ruleset's card facts (rank,
suit, which cards are wild), the clauses every kind has (size, wilds allowed, limits, suit counts) and the
points of a reading."""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.dsl.evaluate import compare
from loba_dsl.melds.reading import HEAD, Failure
from loba_dsl.melds.shapes import CompiledShape, compile_shape

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from loba_dsl.rules.model import Ruleset

__all__ = ["ClauseMatcher"]


class ClauseMatcher:
    """A ruleset's card facts and the clauses every meld kind checks (the base of the set and run readers)."""

    def __init__(self, ruleset: Ruleset, table: str | None = None, *, scored: bool = True) -> None:
        deck = ruleset.deck
        self.ruleset = ruleset
        self.deck = deck
        self.kinds = ruleset.kinds
        # One tuple of compiled shapes per ruleset, shared by its matchers, as their meld tables are (the tables
        # judge the shapes they were built from: Matcher._possible).
        self.specs = ruleset.memo(("compiled shapes",), _compile_shapes, ruleset)
        self.S = deck.n_suits
        self.R = deck.n_ranks
        self.joker = deck.joker_code
        n = deck.n_codes
        wilds = ruleset.wilds.cards
        self.always_wild = tuple(c == self.joker or (c in wilds and not ruleset.wilds.natural_too) for c in range(n))
        self.maybe_wild = tuple(c in wilds and not self.always_wild[c] for c in range(n))
        self.rank = tuple(c // self.S if c != self.joker else -1 for c in range(n))
        self.suit = tuple(c % self.S if c != self.joker else -1 for c in range(n))
        table = table or ruleset.scoring.meld_points
        self.values = ruleset.meld_values.get(table) if table is not None and scored else None
        self.names = deck.names
        # Wild cards that score alike in every position of every kind: which goes where never matters.
        as_wild: dict[Card, list[tuple[tuple[int, int, bool], int]]] = {}
        for key, v in (self.values or {}).items():
            if key[2]:
                as_wild.setdefault(key[1], []).append(((key[0], key[3], key[4]), v))
        signature: dict[tuple[tuple[tuple[int, int, bool], int], ...], int] = {}
        self.wild_value_class = tuple(signature.setdefault(tuple(sorted(as_wild.get(c, ()))), c) for c in range(n))
        self._plain_cache: dict[int, tuple[tuple[int, ...], tuple[bool, ...]]] = {}

    def _size_and_wilds(self, k: CompiledShape, cards: tuple[Card, ...], wild: list[int]) -> list[Failure]:
        """The clauses every kind checks first: its size, and whether it takes wild cards at all."""
        fails = []
        if not k.lo <= len(cards) <= k.hi:
            fails.append(self._size_failure(k, len(cards)))
        if wild and k.no_wilds is not None:
            fails.append(Failure(k.name, k.index, k.no_wilds, "allows no wild cards, but {cards} would be wild",
                                 tuple(cards[i] for i in wild)))
        return fails

    def _plain(self, n: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        cached = self._plain_cache.get(n)
        if cached is None:
            cached = self._plain_cache[n] = (tuple(range(n)), (False,) * n)
        return cached

    def _points(self, k: CompiledShape, cards: tuple[Card, ...], order: Sequence[int], stands: Sequence[Card],
                flags: Sequence[bool], highs: Sequence[bool]) -> int | None:
        values = self.values
        if values is None:
            return None
        rank = self.rank
        total = 0
        for q, i in enumerate(order):
            total += values[(k.index, cards[i], flags[q], rank[stands[q]], highs[q])]
        return total

    def _suit_limits(self, k: CompiledShape, d: int, n: int, n_wild: int, fails: list[Failure]) -> tuple[int, int]:
        """The suits a set of ``n`` cards, ``d`` suits among its naturals and ``n_wild`` wilds, may show
        (least, most), and a failure for each suit limit that no count in that range meets."""
        lo_d = d if d else min(1, n)
        hi_d = min(d + n_wild, self.S) if k.distinct is None else min(n, self.S)
        if k.distinct is not None:
            lo_d = hi_d
        for op, v, ci in k.suit_limits:
            if not any(compare(op, x, v) for x in range(lo_d, hi_d + 1)):
                fails.append(Failure(k.name, k.index, ci, "needs suits {0} {1}, but has {2} suit(s)",
                                     values=(op, v, d), structural=True))
        return lo_d, hi_d

    def _limits(self, k: CompiledShape, n: int, naturals: int, wilds: int, fails: list[Failure]) -> None:
        for counter, op, v, ci in k.limits:
            got = {"wilds": wilds, "naturals": naturals, "size": n}.get(counter, 0)
            if not compare(op, got, v):
                fails.append(Failure(k.name, k.index, ci, "needs {0} {1} {2}, but has {3}",
                                     values=(counter, op, v, got)))

    def _size_failure(self, k: CompiledShape, n: int) -> Failure:
        if n < k.lo:
            return Failure(k.name, k.index, HEAD, "needs at least {0} cards, but has {1}", values=(k.lo, n))
        return Failure(k.name, k.index, HEAD, "has at most {0} cards, but has {1}", values=(k.hi, n))


def _compile_shapes(ruleset: Ruleset) -> tuple[CompiledShape, ...]:
    return tuple(compile_shape(i, k, ruleset.deck) for i, k in enumerate(ruleset.kinds))
