"""Can a player who has not opened go out this turn, meeting the requirement?  Exactly (rules.md §4).

A player who has not opened yet goes out in the turn of their first lay-down
(never, under ``turn.go_out_on_first_lay_down: false``), so that lay-down is the
whole hand, less what going out lets stay unmelded (:mod:`loba_dsl.solver.last_cards`,
the referee's reading: the discard, never a Joker under ``turn.discard_joker:
false``, or none under ``discard_optional``; under ``one_card_left`` also one
card kept): some partition of those cards into legal melds must satisfy the
requirement in force:

- an opening minimum (``requirements.opening``): the partition's worth,
  as :class:`~loba_dsl.scoring.requirements.OpeningRule` counts it (``scope``,
  ``table``, ``wild_value``), reaches the minimum;
- a round's contract (``requirements.contracts``): the partition holds
  melds of the contract's kinds in its numbers exactly
  (:class:`~loba_dsl.scoring.requirements.ContractRule`), and with
  ``other_melds`` any other legal melds beside them.  ``other_melds`` is read,
  unless given, from ``requirements.contracts.other_melds_same_turn`` (the
  rule's ``others``), as the referee (:mod:`loba_dsl.game.referee`) judges a
  first lay-down: under ``false`` (the shipped decision, rules.md §4) exactly the
  contract's melds in that turn (lay-offs onto them only make them longer melds
  of the same kinds), under ``true`` the contract among other melds.

The searches are memoised over the packed free-card keys of one
:class:`~loba_dsl.solver.search.HandSearch` of the whole hand, built from every
legal candidate meld (the matcher judges each, as ``loba check`` does; no
exchange of interchangeable wilds is assumed, so the answer is exact for any
value table): each remainder (the hand less the discard and any card kept, or the
whole hand) is one key of the same memo.  The first free card of a key must go into a meld, so a
state tries only the melds that hold it.  Every state ticks the budget's clock:
a huge hand raises :class:`~loba_dsl.errors.BudgetExceeded`, never hangs.

Where the worth of every full partition is the same (``wild_value: own`` and
``scope: first_turn``: the melded cards' own values, summed) only "can the cards
be fully partitioned?" is searched.  Nothing left to put down (a one-card hand
discarding its card; under ``one_card_left`` a two-card hand) meets no requirement,
so it is no way out for a player who has not opened (the referee: going out needs
every requirement met, rules.md §4).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from loba_dsl.budget import BudgetLike, Clock, as_budget
from loba_dsl.cards.deck import Card
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.requirements import ContractRule, OpeningRule
from loba_dsl.solver.api import Solver
from loba_dsl.solver.last_cards import cards_kept, discards, may_go_out
from loba_dsl.solver.multisets import Multiset, minus_all
from loba_dsl.solver.search import HandSearch

__all__ = ["FullPartitions", "WayOut", "go_out_meeting", "remainders"]


@dataclass(frozen=True)
class WayOut:
    """One way to go out in the turn of the first lay-down."""

    melds: tuple[Multiset, ...]
    """The lay-down: the whole hand but ``aside`` and ``kept``, as legal melds meeting the requirement."""
    aside: Card | None
    """The discard, or ``None`` (no discard: the last meld empties the hand, under ``discard_optional``)."""
    kept: Card | None = None
    """Under ``one_card_left``, the card kept in hand, unmelded (it is counted), or ``None``."""


def remainders(rs: Ruleset, cards: Sequence[Card]) -> Iterator[tuple[Card | None, Card | None]]:
    """What going out may leave unmelded: (the discard, the card kept), in the order they are tried.

    :func:`loba_dsl.solver.last_cards.discards` gives the discards (``None``: none,
    under ``discard_optional``; never a Joker under ``turn.discard_joker: false``);
    under ``one_card_left`` each is tried with no card kept, then with every other
    distinct card kept.
    """
    keep = cards_kept(rs) > 0
    for discard in discards(rs, cards):
        yield discard, None
        if keep and discard is not None:
            rest = list(cards)
            rest.remove(discard)
            for card in dict.fromkeys(rest):
                yield discard, card


class FullPartitions:
    """Full partitions of parts of one hand into legal melds (memoised searches over packed keys).

    Built once per hand: its candidate melds, each judged by the matcher, and a
    :class:`HandSearch` over them whose keys are the free-card vectors; the
    searches below share its memo across every part of the hand asked about.
    """

    def __init__(self, solver: Solver, cards: Sequence[Card], clock: Clock) -> None:
        self.solver = solver
        self.clock = clock
        self.cards = tuple(cards)
        ordered = solver.candidates.ordered(cards)
        matcher = solver.matcher
        melds: list[tuple[Multiset, int]] = []
        for m in solver.candidates.hand_candidates(ordered):
            clock.tick()
            if matcher.match(m, reasons=False, budget=clock).best is not None:
                melds.append((m, len(m)))  # any positive gain: the search only walks the keys
        self.search = HandSearch(self.cards, ordered, melds, order=solver.order, joker=solver.deck.joker_code,
                                 clock=clock)
        self._kinds: dict[tuple[str, ...], list[tuple[int, ...]]] = {}
        self._memo: dict[tuple[int, tuple[int, ...], bool], tuple[int, int] | None] = {}
        self._worths: dict[OpeningRule, list[int]] = {}
        self._best: dict[OpeningRule, dict[int, tuple[float, int]]] = {}

    # ------------------------------------------------------------ the parts of the hand

    def key(self, aside: Card | None, kept: Card | None = None) -> int | None:
        """The free-card key of the hand less ``aside`` and ``kept`` (``None``: a card no meld can hold would stay)."""
        search = self.search
        dead = list(search.dead)
        key = search.full
        for card in (aside, kept):
            if card is None:
                continue
            if card in dead:
                dead.remove(card)
                continue
            i = search.index[card]
            key -= 1 << (search.bits * i)
        return None if dead else key

    # ------------------------------------------------------------ contracts (and plain partitions)

    def kinds_of(self, kinds: tuple[str, ...]) -> list[tuple[int, ...]]:
        """Per candidate, the indices in ``kinds`` of the kinds it is legal as."""
        found = self._kinds.get(kinds)
        if found is None:
            matcher = self.solver.matcher
            specs = [tuple(s for s in matcher.specs if s.name == k) for k in kinds]
            found = []
            for cand in self.search.cands:
                legal = []
                for n, of_kind in enumerate(specs):
                    self.clock.tick()
                    if matcher.match(cand.cards, of_kind, reasons=False, budget=self.clock).best is not None:
                        legal.append(n)
                found.append(tuple(legal))
            self._kinds[kinds] = found
        return found

    def partition(self, key: int, need: tuple[int, ...] = (), kinds: Sequence[tuple[int, ...]] = (),
                  others: bool = True) -> bool:
        """Can the free cards ``key`` be put down whole, with ``need[n]`` melds of kind ``n`` among them?

        ``kinds`` (from :meth:`kinds_of`) says which kinds each candidate is legal as; ``others``:
        melds beyond the needed ones may go down too (without it the needed melds are all).
        With no ``need``: can the cards be fully partitioned into legal melds at all?
        """
        memo = self._memo
        search = self.search
        cands, by_first, first, fits = search.cands, search.by_first, search.first, search.fits
        tick = self.clock.tick

        def solve(key: int, need: tuple[int, ...]) -> bool:
            if not key:
                return not any(need)
            if not others and not any(need):
                return False
            state = (key, need, others)
            if state in memo:
                return memo[state] is not None
            tick()
            found: tuple[int, int] | None = None
            for j in by_first[first(key)]:
                cand = cands[j]
                if not fits(key, cand):
                    continue
                rest = key - cand.delta
                if others and solve(rest, need):
                    found = (j, -1)
                    break
                for n in kinds[j] if need else ():
                    if need[n] and solve(rest, (*need[:n], need[n] - 1, *need[n + 1:])):
                        found = (j, n)
                        break
                if found is not None:
                    break
            memo[state] = found
            return found is not None

        return solve(key, need)

    def partition_melds(self, key: int, need: tuple[int, ...] = (), others: bool = True) -> list[Multiset]:
        """The melds of the partition :meth:`partition` found (it must have answered yes)."""
        melds: list[Multiset] = []
        while key:
            found = self._memo[(key, need, others)]
            assert found is not None, "follow only a partition that was found"
            j, n = found
            cand = self.search.cands[j]
            melds.append(cand.cards)
            key -= cand.delta
            if n >= 0:
                need = (*need[:n], need[n] - 1, *need[n + 1:])
        return melds

    # ------------------------------------------------------------ opening minimum

    def _worths_of(self, rule: OpeningRule) -> list[int]:
        worths = self._worths.get(rule)
        if worths is None:
            matcher, clock = self.solver.matcher, self.clock
            worths = self._worths[rule] = [rule.layout(matcher, c.cards, budget=clock)[1]  # laid out at its best
                                           for c in self.search.cands]
        return worths

    def best_worth(self, key: int, rule: OpeningRule) -> float:
        """The most the free cards ``key`` are worth under ``rule``, put down whole (``-inf``: they cannot be)."""
        memo = self._best.setdefault(rule, {})
        worths = self._worths_of(rule)
        search = self.search
        cands, by_first, first, fits = search.cands, search.by_first, search.first, search.fits
        tick = self.clock.tick
        reached = rule.reached
        none = float("-inf")

        def solve(key: int) -> float:
            if not key:
                return 0
            hit = memo.get(key)
            if hit is not None:
                return hit[0]
            tick()
            best, choice = none, -1
            for j in by_first[first(key)]:
                cand = cands[j]
                if not fits(key, cand):
                    continue
                rest = solve(key - cand.delta)
                if rest == none:
                    continue
                # ``reached`` grows with what the rest reaches (a sum, or a max): the best rest is best here.
                value = reached(int(rest), worths[j])
                if value > best:
                    best, choice = value, j
            memo[key] = (best, choice)
            return best

        return solve(key)

    def worth_melds(self, key: int, rule: OpeningRule) -> list[Multiset]:
        """The melds of the partition :meth:`best_worth` found (it must have answered more than ``-inf``)."""
        melds: list[Multiset] = []
        while key:
            _, j = self._best[rule][key]
            assert j >= 0, "follow only a partition that was found"
            cand = self.search.cands[j]
            # In the layout its worth was counted in (under ``wild_value: represented`` it says what a
            # wild stands for): the way to lay it down.
            melds.append(rule.layout(self.solver.matcher, cand.cards, budget=self.clock)[0])
            key -= cand.delta
        return melds


def go_out_meeting(solver: Solver, cards: Sequence[Card], rule: OpeningRule | ContractRule, *,
                   other_melds: bool | None = None, budget: BudgetLike | Clock = None) -> WayOut | None:
    """A way for a player who has not opened to go out this turn meeting ``rule``, or ``None`` (exact).

    ``rule``: the opening minimum or the round's contract (see the module's doc);
    ``other_melds``: under a contract, other melds may go down with it (default: the
    rule's ``others``, from ``requirements.contracts.other_melds_same_turn``).  The
    budget (default: the solver's) bounds the whole answer.
    """
    rs = solver.rs
    if not may_go_out(rs, laid_before=False):
        return None  # the player goes out only in a later turn than their first lay-down
    clock = budget if isinstance(budget, Clock) else (
        solver.budget if budget is None else as_budget(budget)).start("deciding whether the hand can go out")
    parts = FullPartitions(solver, cards, clock)
    kinds: tuple[str, ...] = ()
    need: tuple[int, ...] = ()
    others = False
    if isinstance(rule, ContractRule):
        kinds = tuple(sorted(rule.wanted))
        need = tuple(rule.wanted[k] for k in kinds)
        others = rule.others if other_melds is None else other_melds
    for aside, kept in remainders(rs, cards):
        if len(cards) - (aside is not None) - (kept is not None) == 0:
            continue  # nothing put down meets no requirement, and going out needs it met (rules.md §4)
        key = parts.key(aside, kept)
        if key is None:
            continue
        if isinstance(rule, ContractRule):
            if parts.partition(key, need, parts.kinds_of(kinds), others):
                return WayOut(tuple(parts.partition_melds(key, need, others)), aside, kept)
        elif not rule.represented and rule.first_turn:
            # Every full partition is worth the same: the own values of the cards melded.
            rest = minus_all(cards, tuple((c,) for c in (aside, kept) if c is not None))
            if rule.total(rule.worth((c,)) for c in rest) >= rule.minimum and parts.partition(key):
                return WayOut(tuple(parts.partition_melds(key)), aside, kept)
        elif parts.best_worth(key, rule) >= rule.minimum:
            return WayOut(tuple(parts.worth_melds(key, rule)), aside, kept)
    return None
