"""A player's first lay-down under ``requirements`` (rules.md §4): the best opening, a round's contract.

:class:`Openings` answers, for a player who has not opened yet:

- :meth:`Openings.best_opening`: the best arrangement whose melds reach the
  opening minimum (``requirements.opening``), exactly;
- :meth:`Openings.contract`: melds that fulfil a round's contract
  (``requirements.contracts``) exactly.

Both run the named search (a Joker told from a 2: the opening's and the
contracts' tables may tell them apart) on one
:class:`~loba_dsl.solver.search.HandSearch` of the whole hand, carrying the
requirement's state (the worth reached, the melds still wanted) in the memo.
What ``loba arrange`` shows a player who has not opened is
:func:`loba_dsl.solver.advice.arrange_hand`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loba_dsl.budget import BudgetLike, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.scoring.requirements import contract_rule, opening_rule
from loba_dsl.solver.arrangement import Arrangement
from loba_dsl.solver.arranging import Arranger
from loba_dsl.solver.multisets import Multiset, minus_all

__all__ = ["Openings"]


class Openings:
    """Openings and contracts of hands under one ruleset (each method one call under its ``budget``)."""

    def __init__(self, arranger: Arranger) -> None:
        self.arranger = arranger
        self.searches = arranger.searches
        self.gains = arranger.gains
        self.calls = arranger.calls

    def best_opening(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> Arrangement | None:
        """The best arrangement whose melds reach the opening minimum (``requirements.opening``), or ``None``.

        Exact: the search carries the opening value reached so far (capped at
        the minimum) as part of its state.
        """
        with self.calls.running(budget, "finding the best opening"):
            return self._best_opening(tuple(cards))

    def _best_opening(self, cards: Multiset) -> Arrangement | None:
        g = self.gains
        rule = opening_rule(g.rs)
        minimum = rule.minimum
        clock = self.calls.clock

        def worth(meld: Multiset) -> int:
            return rule.layout(g.matcher, meld, budget=clock)[1]  # laid out at its best

        hand = self.searches.search(cards, g.gain_value)
        worths = [worth(c.cards) for c in hand.cands]
        memo: dict[tuple[int, int], tuple[float, int]] = {}

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
        opening_melds = [rule.layout(g.matcher, m, budget=clock)[0] for m in opening_melds]
        rest = self.arranger.arrange(minus_all(hand.given, opening_melds), clock)
        chosen = [*opening_melds, *(m.cards for m in rest.melds)]
        return self.arranger.arrangement_of(hand.given, chosen)

    def contract(self, cards: Sequence[Card], round_number: int, *,
                 budget: BudgetLike | Clock = None) -> Arrangement | None:
        """Melds from ``cards`` that fulfil round ``round_number``'s contract exactly, or ``None``.

        A round outside the ruleset's list of contracts is an :class:`~loba_dsl.errors.InputError`,
        as for ``loba check --contract``.
        """
        wanted = contract_rule(self.gains.rs, round_number).wanted
        with self.calls.running(budget, "fulfilling the contract"):
            return self._contract(tuple(cards), wanted)

    def _contract(self, cards: Multiset, wanted: Mapping[str, int]) -> Arrangement | None:
        """Melds from ``cards`` that hold exactly ``wanted`` (meld kind -> how many), or ``None``."""
        g = self.gains
        kinds = sorted(wanted)
        hand = self.searches.search(cards, g.count_if_legal)
        legal = [tuple(k for k in kinds if g.matcher.match_kind(c.cards, k) is not None) for c in hand.cands]
        memo: dict[tuple[int, tuple[int, ...]], tuple[int, str] | None] = {}
        clock = self.calls.clock

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
        return self.arranger.arrangement_of(hand.given, real_melds)
