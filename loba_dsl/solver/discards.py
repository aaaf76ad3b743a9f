"""Going out and discarding, for a hand that has just drawn: the questions of a player's last move in a turn.

:class:`Discards` answers, as the referee allows (:mod:`loba_dsl.solver.last_cards`):

- :meth:`Discards.can_go_out`: can the hand go out this turn, and how;
- :meth:`Discards.best_discard`: the discard after which the arrangement is best, and that arrangement;
- :meth:`Discards.best_discard_score`: the score after the best discard (the number only);
- :meth:`Discards.max_melded`: the most cards that can be melded at once.

For a player who has not opened under an opening minimum or a contract, see
:func:`loba_dsl.solver.going_out.go_out_meeting`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from loba_dsl.budget import BudgetLike, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.errors import InputError
from loba_dsl.solver.arrangement import Arrangement, GoingOut
from loba_dsl.solver.arranging import Arranger
from loba_dsl.solver.last_cards import cards_kept, discard_choices, discards, may_go_out
from loba_dsl.solver.multisets import Multiset, minus_all

__all__ = ["Discards"]


class Discards:
    """Going out and discards of hands under one ruleset (each method one call under its ``budget``)."""

    def __init__(self, arranger: Arranger) -> None:
        self.arranger = arranger
        self.searches = arranger.searches
        self.gains = arranger.gains
        self.calls = arranger.calls

    def max_melded(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> tuple[int, Arrangement]:
        """The most cards that can be melded at once, and one such arrangement."""
        with self.calls.running(budget, "melding the most cards"):
            return self._max_melded(tuple(cards))

    def _max_melded(self, cards: Multiset) -> tuple[int, Arrangement]:
        hand = self.searches.search(cards, self.gains.count_if_legal, pooled=True)
        best = hand.solve(hand.full)
        return best, self.arranger.build(hand, hand.full)

    def can_go_out(self, cards: Sequence[Card], *, opened: bool = False, budget: BudgetLike | Clock = None
                   ) -> GoingOut:
        """Can this hand, as it stands after the draw, go out this turn as the referee allows?

        See :meth:`Solver.can_go_out <loba_dsl.solver.api.Solver.can_go_out>`.
        """
        with self.calls.running(budget, "asking whether the hand can go out"):
            return self._can_go_out(tuple(cards), opened=opened)

    def _can_go_out(self, cards: Multiset, *, opened: bool) -> GoingOut:
        g = self.gains
        rs = g.rs
        if not may_go_out(rs, laid_before=opened):
            return GoingOut(False, None, None)
        keep = cards_kept(rs)
        if len(cards) - len(g.live(cards)) > 1 + keep:
            return GoingOut(False, None, None)  # more cards that no candidate can hold than may leave unmelded
        hand = self.searches.search(cards, g.count_if_legal, pooled=True)
        total = len(hand.given)
        stuck = hand.stuck()
        if len(stuck) > 1 + keep or not hand.reaches(hand.full, total - 1 - keep):
            # Fewer cards melded at best than going out needs: a discard takes a card away, which never lets
            # more be melded (an arrangement without the card is one of the whole hand), so no discard helps.
            return GoingOut(False, None, None)
        build = self.arranger.build
        for code in discards(rs, hand.given):
            if code is None:  # no discard: the last meld empties the hand
                if not stuck and hand.reaches(hand.full, total):
                    return GoingOut(True, None, build(hand, hand.full))
                continue
            if len(stuck) - (code in stuck) > keep:
                continue  # more cards no meld can hold than may stay in hand
            key = hand.without(code)
            rest = hand.full if key is None else key
            if hand.reaches(rest, total - 1 - keep):
                return GoingOut(True, code, build(hand, rest, dropped=code))
        return GoingOut(False, None, None)

    def best_discard(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> tuple[Card, Arrangement]:
        """For a hand that has just drawn: the discard after which the arrangement is best (exact).

        Every distinct discard the ruleset allows is tried (never a greedy shortcut;
        no Joker under ``turn.discard_joker: false`` while another card may go);
        ties go to the first card in the solver's order.  An empty hand has no
        discard: an :class:`~loba_dsl.errors.InputError`.
        """
        if not cards:
            raise InputError("a hand with no cards has no discard", hint="give the hand as it stands after the draw")
        with self.calls.running(budget, "choosing the discard"):
            return self._best_discard(tuple(cards))

    def _best_discard(self, cards: Multiset) -> tuple[Card, Arrangement]:
        g = self.gains
        hand = self.searches.search(cards, g.gain_value, pooled=True)
        top = hand.solve(hand.full)  # no discard's rest can gain more (a card taken away never lets more be melded)
        best: tuple[int, Card, int] | None = None
        for code in discard_choices(g.rs, hand.given):
            utility = g.left_utility[code]
            key = hand.without(code)
            rest = hand.full if key is None else key
            if best is not None and (top - utility <= best[0] or not hand.reaches(rest, best[0] + utility + 1)):
                continue  # cannot do strictly better than the first best discard (ties go to the first)
            value = hand.solve(rest) - utility
            if best is None or value > best[0]:
                best = (value, code, rest)
        assert best is not None, "a hand with cards has a discard"
        return best[1], self.arranger.build(hand, best[2], dropped=best[1])

    def best_discard_score(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> int:
        """The score after the best discard: the best, over the discards, of the rest's gain less the card's utility.

        A discard's gain is at most the whole hand's (a card taken away never
        lets more be melded), so the discards are tried from the card worth least
        kept, and the search stops at one that even the whole hand's gain could
        not make better than the best found.  An empty hand has no discard: an
        :class:`~loba_dsl.errors.InputError`.
        """
        if not cards:
            raise InputError("a hand with no cards has no discard", hint="give the hand as it stands after the draw")
        with self.calls.running(budget, "choosing the discard"):
            return self._best_discard_score(tuple(cards))

    def _best_discard_score(self, hand: Multiset) -> int:
        g = self.gains
        searches = self.searches
        lu = g.left_utility
        total = sum(lu[c] for c in hand)
        choices = sorted(discard_choices(g.rs, hand), key=lu.__getitem__)
        rest_gain: Callable[[Card], int]
        if searches.plain_and_distinct(hand):
            solve, full, bit = searches.bitmask_search(hand)
            top = solve(full)

            def rest_gain(c: Card) -> int:
                return solve(full & ~bit[c])
        else:
            top = searches.gain_of(hand)

            def rest_gain(c: Card) -> int:
                return searches.gain_of(minus_all(hand, ((c,),)))
        best = rest_gain(choices[0]) - lu[choices[0]]
        for c in choices[1:]:
            if top - lu[c] <= best:
                break
            best = max(best, rest_gain(c) - lu[c])
        return g.score_of(total + best)
