"""The best arrangement of a hand (its melds, the cards left, the score): the solver's main answer.

:class:`Arranger` finds the melds a hand's search chooses and scores the
arrangement by the round formula.  The melds depend on the live cards alone
(the others are kept whatever the search does), so they are cached by the
live cards, and shared by hands whose live cards only rename their suits in
order where the suits are alike.

Ties: among arrangements of equal score the solver keeps the first it meets
in the search's order: a card is kept in hand unless melding it is strictly
better, and melds are tried in increasing order of their sorted cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.budget import BudgetLike, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.solver import searches as _searches
from loba_dsl.solver.arrangement import Arrangement, PlacedMeld
from loba_dsl.solver.multisets import Multiset, minus_all
from loba_dsl.solver.search import HandSearch
from loba_dsl.solver.searches import Searches

__all__ = ["Arranger"]


class Arranger:
    """Best arrangements of hands under one ruleset, and arrangements of chosen melds."""

    def __init__(self, searches: Searches) -> None:
        self.searches = searches
        self.gains = gains = searches.gains
        self.calls = gains.calls
        self._live_melds: dict[Multiset, tuple[PlacedMeld, ...]] = self.calls.readings({})
        """A hand's live cards -> the melds of their best arrangement."""
        self._melds_by_shape: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[PlacedMeld, ...]]] = (
            self.calls.readings({}))
        """``SuitCanon.ordered_key`` of live cards -> the suits held and the melds of the first hand met with it."""

    def arrange(self, given: Multiset, budget: BudgetLike | Clock = None) -> Arrangement:
        """The best arrangement of ``given`` (card codes) if the round ended now, within ``budget``."""
        live = self.gains.live(given)
        found = self._live_melds.get(live)
        if found is None:
            with self.calls.running(budget, "arranging the hand"):
                found = self.live_arrangement(live)
        return self.arranged(given, found)

    def live_arrangement(self, live: Multiset) -> tuple[PlacedMeld, ...]:
        """The melds of the best arrangement of a hand whose live cards are ``live`` (cached per ``live``).

        The cards no candidate meld can use do not change the search (they are
        kept whatever it chooses), so the melds depend on the live cards alone,
        and hands that share them share the answer; so do hands whose live cards
        only rename their suits in order, where the suits are alike
        (:meth:`SuitCanon.ordered_key <loba_dsl.solver.symmetry.SuitCanon.ordered_key>`).
        """
        found = self._live_melds.get(live)
        if found is None:
            g = self.gains
            if live:
                # Hands whose live cards only rename their suits in order share one search: every order it
                # follows (cards by suit then rank, the candidates, the options of a first card) keeps the
                # order of the suits, so the tie rule gives the renamed melds (none, where nothing can meld).
                shape = None if g.canon is None else g.canon.ordered_key(live)
                seen = None if shape is None else self._melds_by_shape.get(shape[0])
                if seen is not None:
                    assert shape is not None
                    found = self._renamed_melds(seen, shape[1])
                else:
                    if not g.may_meld(live):
                        found = ()
                    else:
                        found = self.light_arrangement(live)
                        if found is None:
                            hand = self.searches.search(live, g.gain_value, pooled=True)
                            hand.solve(hand.full)
                            found = self.chosen(hand, hand.full)
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
        g = self.gains
        deck = g.deck
        joker = deck.joker_code
        to = dict(zip(held, suits, strict=True))
        out: list[PlacedMeld] = []
        for m in melds:
            cards = g.sorted([c if c == joker else deck.code(deck.rank_of(c), to[deck.suit_of(c)])
                              for c in m.cards])
            read = g.gain(cards)
            assert read is not None, "a renamed meld is legal where the suits are alike"
            out.append(PlacedMeld(cards, read[1], read[0]))
        return tuple(out)

    def light_arrangement(self, live: Multiset) -> tuple[PlacedMeld, ...] | None:
        """The melds :class:`HandSearch` would choose, by the plain memoised search, on a small hand.

        Only where the two must agree: few candidate melds, and no card of the
        Joker's class but Jokers (so no card is searched as a Joker and no meld
        is skipped for a Joker's sake).  ``None``: not such a hand.
        """
        g = self.gains
        if g.joker_like(live):
            return None
        raw = g.positive(live, g.gain_value)
        if len(raw) > _searches.LIGHT_UP_TO:
            return None
        melds: list[PlacedMeld] = []
        for j in self.searches.plain_search(live, raw)[1]:
            m = raw[j][0]
            read = g.gain(m)
            assert read is not None, "a chosen meld is legal"
            melds.append(PlacedMeld(m, read[1], read[0]))
        return tuple(melds)

    # ------------------------------------------------------------ reading a search's choices

    def build(self, hand: HandSearch, key: int, dropped: Card | None = None) -> Arrangement:
        """The arrangement the search chose for the free cards ``key`` (and the dead cards)."""
        cards = list(hand.given)
        if dropped is not None:
            cards.remove(dropped)
        return self.arranged(tuple(cards), self.chosen(hand, key, dropped))

    def chosen(self, hand: HandSearch, key: int, dropped: Card | None = None) -> tuple[PlacedMeld, ...]:
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
        g = self.gains
        melds: list[PlacedMeld] = []
        for m in real_melds:
            m = g.sorted(m)
            read = g.gain(m)
            assert read is not None, "a chosen meld is legal"
            melds.append(PlacedMeld(m, read[1], read[0]))
        return tuple(melds)

    def arranged(self, cards: Multiset, melds: tuple[PlacedMeld, ...]) -> Arrangement:
        """``cards`` with ``melds`` put down and the rest kept, scored by the round formula.

        The score is the objective's (the round formula's exact linear form, as
        :meth:`BestScores.best_score <loba_dsl.solver.scores.BestScores.best_score>` gives it); the left cards'
        value is read from the formula's hand table.
        """
        g = self.gains
        left = g.sorted(minus_all(cards, [m.cards for m in melds])) if melds else g.sorted(cards)
        left_utility = g.left_utility
        utility = sum(map(left_utility.__getitem__, cards)) + sum(m.gain for m in melds)
        values = g.hand_values
        left_value = None if values is None else sum(map(values.__getitem__, left))
        return Arrangement(cards, melds, left, left_value, g.score_of(utility), not left)

    def arrangement_of(self, cards: Multiset, melds: Sequence[Multiset]) -> Arrangement:
        """``cards`` with the given legal ``melds`` put down, each read as it scores best."""
        placed = []
        for m in melds:
            read = self.gains.gain(m)
            assert read is not None
            placed.append(PlacedMeld(m, read[1], read[0]))
        return self.arranged(cards, tuple(placed))
