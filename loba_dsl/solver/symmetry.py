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

The cache key is cheaper than the image itself: :meth:`SuitCanon.key`, per
suit one integer of its rank counts, the suits' integers sorted (see
:func:`shape_units`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.multisets import Multiset

__all__ = ["SHAPE_BITS", "SHAPE_LIMIT", "SuitCanon", "shape_key", "shape_units", "suit_symmetric"]

SHAPE_BITS = 4
"""Bits per rank in a suit's integer of :meth:`SuitCanon.key`: a count of copies up to 15."""

SHAPE_LIMIT = 1 << SHAPE_BITS
"""Multisets of fewer cards than this have their key made of rank counts (no count can overflow its bits)."""


def shape_units(deck: Deck) -> tuple[tuple[int, int], ...]:
    """Per card code, where it counts in a key of :meth:`SuitCanon.key`: (slot, amount).

    A card of suit ``s`` and rank ``r`` adds ``1 << (SHAPE_BITS * r)`` to slot
    ``s`` (its suit's integer of rank counts); a Joker adds one to the last
    slot, ``n_suits``.
    """
    return tuple((deck.n_suits, 1) if c == deck.joker_code else (deck.suit_of(c), 1 << (SHAPE_BITS * deck.rank_of(c)))
                 for c in range(deck.n_codes))


def shape_key(slots: list[int]) -> tuple[int, ...]:
    """The key of :meth:`SuitCanon.key` from the sums of :func:`shape_units` (``slots``, changed in place).

    The suits' integers sorted, then the Jokers' count (the last slot).
    """
    jokers = slots.pop()
    slots.sort()
    slots.append(jokers)
    return tuple(slots)


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
        self._units = shape_units(deck)

    def key(self, cards: Multiset) -> tuple[int, ...]:
        """A key of ``cards`` up to a renaming of the suits: equal keys exactly for renamings of each other.

        Per suit one integer of its cards' rank counts (:func:`shape_units`),
        the suits' integers sorted, then the number of Jokers.  Two multisets
        whose sorted integers agree are renamings of each other (rename each
        suit to the one whose integer it matches) and a renaming only permutes
        the integers.  A multiset of :data:`SHAPE_LIMIT` cards or more (a count
        could overflow its bits) is keyed ``(-1, *image)`` by its canonical
        image (:meth:`__call__`; ``cards`` in the processing order), which no
        key of counts starts with.
        """
        if len(cards) >= SHAPE_LIMIT:
            return (-1, *self.renamed(cards)[0])
        return shape_key(self._slots(cards))

    def answer_keys_by(self, twin: Callable[[Multiset], tuple[int, ...] | None]) -> None:
        """Let ``twin`` answer :meth:`key` (a C twin, ``None`` where it does not: :data:`SHAPE_LIMIT` cards or more)."""
        python = self.key

        def key(cards: Multiset) -> tuple[int, ...]:
            found = twin(cards)
            return python(cards) if found is None else found

        self.key = key  # type: ignore[method-assign]

    def ordered_key(self, cards: Multiset) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """A key of ``cards`` up to a renaming of the suits that keeps their order, and the suits they hold.

        Per suit held, in the suits' order, its integer of rank counts (as
        :meth:`key`'s, unsorted), then the number of Jokers: equal keys exactly
        for multisets where the i-th suit held by one is renamed the i-th held by
        the other.  ``None`` for :data:`SHAPE_LIMIT` cards or more.
        """
        if len(cards) >= SHAPE_LIMIT:
            return None
        slots = self._slots(cards)
        jokers = slots.pop()
        suits = tuple(s for s, n in enumerate(slots) if n)
        return (*(slots[s] for s in suits), jokers), suits

    def _slots(self, cards: Multiset) -> list[int]:
        """The sums of :func:`shape_units` over ``cards``: per suit its rank counts, then the Jokers."""
        units = self._units
        slots = [0] * (self._n_suits + 1)
        for c in cards:
            s, u = units[c]
            slots[s] += u
        return slots

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
