"""Suits that a ruleset treats alike, so a hand's best score is the same whatever its suits are called.

Most rulesets never single out a suit: their shapes count suits but name none,
and their value tables and wild cards give every suit's card the same value.
Under such a ruleset, renaming the suits of a hand (every card, wilds that
have a suit included) maps every legal meld to a legal meld of the same
points, so the best score of a hand is that of any renaming.  The solver keys
its cache of best scores by one canonical renaming, and hands that differ
only in their suits share the answer.

:func:`suit_symmetric` checks the data (the card tables, per card code) under
two renamings that generate them all: swapping the first two suits, and
shifting every suit by one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.multisets import Multiset

__all__ = ["SuitCanon", "suit_symmetric"]


def _renamings(rs: Ruleset) -> list[tuple[Card, ...]]:
    """The code maps of the two generating renamings (a swap and a shift), Jokers fixed."""
    deck = rs.deck
    n = deck.n_suits
    maps = []
    for perm in ([1, 0, *range(2, n)], [(s + 1) % n for s in range(n)]):
        maps.append(tuple(c if c == deck.joker_code else deck.code(deck.rank_of(c), perm[deck.suit_of(c)])
                          for c in range(deck.n_codes)))
    return maps


def suit_symmetric(rs: Ruleset) -> bool:
    """Whether every card table of ``rs`` gives each suit's card the same as every other suit's."""
    deck = rs.deck
    if deck.n_suits < 2:
        return False  # nothing to rename
    wild = [c == deck.joker_code or c in rs.wilds.cards for c in range(deck.n_codes)]
    for code in _renamings(rs):
        if any(wild[code[c]] != wild[c] for c in range(deck.n_codes)):
            return False
        for values in rs.hand_values.values():
            if any(values[code[c]] != values[c] for c in range(deck.n_codes)):
                return False
        for table in rs.meld_values.values():
            for (kind, card, is_wild, role, high), v in table.items():
                if table.get((kind, code[card], is_wild, role, high)) != v:
                    return False
    return True


class SuitCanon:
    """One canonical renaming of the suits of a multiset of cards (build once per deck).

    The suits are renumbered in the order of what each holds (its cards' ranks,
    with copies), so two multisets that differ only by a renaming get the same
    image; suits holding the same cards may go either way round, which gives
    the same image too.
    """

    def __init__(self, rs: Ruleset, order: Callable[[Sequence[Card]], Multiset]) -> None:
        deck = rs.deck
        self._joker = deck.joker_code
        self._n_suits = deck.n_suits
        self._split = tuple((-1, -1) if c == deck.joker_code else (deck.suit_of(c), deck.rank_of(c))
                            for c in range(deck.n_codes))
        self._code = deck.code
        self._order = order
        self._identity = tuple(range(deck.n_codes))
        self._maps: dict[tuple[int, ...], tuple[Card, ...]] = {tuple(range(deck.n_suits)): self._identity}
        """Per order of the suits by content, the renaming as a table by card code (at most n_suits! of them)."""

    def __call__(self, cards: Multiset) -> Multiset:
        return self.renamed(cards)[0]

    def renamed(self, cards: Multiset) -> tuple[Multiset, tuple[Card, ...]]:
        """The canonical image of ``cards``, and the renaming that gives it (indexed by card code)."""
        split = self._split
        held: list[list[int]] = [[] for _ in range(self._n_suits)]
        for c in cards:
            s, r = split[c]
            if s >= 0:
                held[s].append(r)
        for ranks in held:
            ranks.sort()
        by_content = sorted(range(self._n_suits), key=held.__getitem__, reverse=True)
        code = self._maps.get(tuple(by_content))
        if code is None:
            new = [0] * self._n_suits
            for i, s in enumerate(by_content):
                new[s] = i
            joker, named = self._joker, self._code
            code = tuple(c if c == joker else named(split[c][1], new[split[c][0]]) for c in range(len(split)))
            if len(self._maps) < 1024:  # 24 orders of four suits; a deck of eight has 40,320: keep the first ones
                self._maps[tuple(by_content)] = code
        if code is self._identity:
            return cards, code
        return self._order([code[c] for c in cards]), code
