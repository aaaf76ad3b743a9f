"""The best arrangement of a hand into disjoint legal melds, exactly, for any ruleset: the :class:`Solver`.

"Best" is the ruleset's own round formula if the round ended now (see
:mod:`loba_dsl.solver.objective`): least penalty left in ``menos``, most points in
``mas`` and ``mas-pagat``, deadwood in ``gin``.  The formula reduces to a
baseline (every card left in hand) plus, for each meld put down, a *gain*;
the solver picks disjoint melds of greatest total gain.

:class:`Solver` is the one object to build (once per ruleset) and ask.  It is
a facade over parts, one job each, in modules of their own, which a bot's
author may also call directly (the attribute names the part in a Solver):

- candidate melds and what each gains (``gain``, ``gain_value``):
  :class:`~loba_dsl.solver.meld_gains.MeldGains`, ``solver.melds``;
- the search of one hand over its candidates:
  :class:`~loba_dsl.solver.searches.Searches`, ``solver.searches``;
- the best score, the number only (``best_score``):
  :class:`~loba_dsl.solver.scores.BestScores`, ``solver.scores``;
- the best arrangement (``arrange``, ``arrange_text``):
  :class:`~loba_dsl.solver.arranging.Arranger`, ``solver.arranger``;
- going out and discards (``can_go_out``, ``best_discard``, ``best_discard_score``,
  ``max_melded``): :class:`~loba_dsl.solver.discards.Discards`, ``solver.discards``;
- advice before opening, rules.md §4 (``best_opening``, ``contract``):
  :class:`~loba_dsl.solver.openings.Openings`, ``solver.openings``.

What ``loba arrange`` answers (a hand as the player stands in the round, with
the requirements) is :func:`loba_dsl.solver.advice.arrange_hand`.  Every call
obeys a budget (:class:`~loba_dsl.solver.calls.Calls`): the answer is exact
or there is none.
"""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.budget import Budget, BudgetLike, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.cards.notation import check_copies
from loba_dsl.errors import InputError, said
from loba_dsl.melds.matcher import Reading
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.arrangement import ArrangedHand, Arrangement, GoingOut, PlacedMeld
from loba_dsl.solver.arranging import Arranger
from loba_dsl.solver.calls import CACHE_LIMIT, VALUE_CACHE_LIMIT, Calls
from loba_dsl.solver.discards import Discards
from loba_dsl.solver.meld_gains import MeldGains
from loba_dsl.solver.multisets import Multiset
from loba_dsl.solver.openings import Openings
from loba_dsl.solver.scores import BestScores
from loba_dsl.solver.searches import Searches

__all__ = ["CACHE_LIMIT", "VALUE_CACHE_LIMIT", "ArrangedHand", "Arrangement", "GoingOut", "PlacedMeld", "Solver"]


class Solver:
    """Exact arrangements of hands under one ruleset (build once, solve many hands).

    The facade over the solver's parts (see the module's table): each public
    method opens one call under its budget and asks the part whose job it is.
    """

    def __init__(self, ruleset: Ruleset, *, players: int | None = None, budget: BudgetLike = None) -> None:
        self.rs = ruleset
        self.calls = Calls(budget)
        """The running call's clock and the caches bounded between calls."""
        self.melds = MeldGains(ruleset, self.calls, players=players)
        """Candidate melds of a hand and what each gains."""
        self.searches = Searches(self.melds)
        """The search of one hand over its candidates."""
        self.scores = BestScores(self.searches)
        """Best scores (the number only)."""
        self.arranger = Arranger(self.searches)
        """Best arrangements."""
        self.discards = Discards(self.arranger)
        """Going out, discards, the most cards melded."""
        self.openings = Openings(self.arranger)
        """The best opening and a round's contract, for a player who has not opened."""
        m = self.melds
        self.deck = m.deck
        self.players = m.players
        self.objective = m.objective
        self.matcher = m.matcher
        self.candidates = m.generator
        """The :class:`~loba_dsl.solver.candidates.CandidateGenerator` (which sub-multisets of a hand may be melds)."""
        self.wild_capable = m.wild_capable
        self.order = m.order
        """The processing order: plain naturals by suit then rank, then the cards that can be wild."""
        self.sign = m.sign
        self.left_utility = m.left_utility
        self.meld_terms = m.meld_terms

    @property
    def budget(self) -> Budget:
        """Each call's budget unless the call names its own (default :data:`~loba_dsl.budget.DEFAULT_BUDGET`)."""
        return self.calls.budget

    def clear_caches(self) -> None:
        """Forget every meld's cached gain (the answers stay the same; they are worked out again).

        The meld table (:meth:`compile_meld_table`) stays: it is the ruleset's, not a hand's.
        """
        self.calls.clear()

    def compile_meld_table(self) -> int:
        """Judge every candidate meld of the deck once, up front, so that no hand waits on the matcher.

        For a solver that will see many hands (a service's, a bot's, a batch):
        ``menos``'s 1,783 candidate melds are judged in ~25 ms, after which a hand
        that meets melds never met before costs what one that meets known melds
        does.  The melds are judged by the same matcher, so every answer stays
        the same.  Returns the table's size, 0 where the deck makes too many
        candidates to table (many wilds: :data:`~loba_dsl.solver.meld_table.TABLE_MELDS`).  It runs under
        the solver's budget: past it, :class:`~loba_dsl.errors.BudgetExceeded` and no table.
        """
        return self.melds.compile_table()

    # ------------------------------------------------------------ candidate melds and their gains

    def gain(self, meld: Multiset) -> tuple[int, Reading] | None:
        """Utility gained by putting ``meld`` down instead of keeping it (``None``: not legal)."""
        return self.melds.gain(meld)

    def gain_value(self, meld: Multiset) -> int | None:
        """Just the gain (:meth:`MeldGains.gain_value <loba_dsl.solver.meld_gains.MeldGains.gain_value>`)."""
        return self.melds.gain_value(meld)

    def merge_pure_wilds(self, cards: Multiset, raw: list[tuple[Multiset, int]]
                         ) -> tuple[Multiset, list[tuple[Multiset, int]], tuple[Card, ...]]:
        """:meth:`MeldGains.merge_pure_wilds <loba_dsl.solver.meld_gains.MeldGains.merge_pure_wilds>`."""
        return self.melds.merge_pure_wilds(cards, raw)

    def joker_class_wilds(self, meld: Multiset) -> Multiset:
        """:meth:`MeldGains.joker_class_wilds <loba_dsl.solver.meld_gains.MeldGains.joker_class_wilds>`."""
        return self.melds.joker_class_wilds(meld)

    # ------------------------------------------------------------ the best score and arrangement

    def best_score(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> int:
        """Just the score of the best arrangement (as ``arrange(cards).score``, without building it)."""
        return self.scores.best_score(cards, budget=budget)

    def arrange(self, cards: Sequence[Card] | str, *, budget: BudgetLike | Clock = None) -> Arrangement:
        """The best arrangement of ``cards`` (codes, or text in the ruleset's notation) if the round ended now.

        Every search of the solver obeys ``budget`` (a :class:`~loba_dsl.budget.Budget`,
        seconds, or ``None``: the solver's own, by default
        :data:`~loba_dsl.budget.DEFAULT_BUDGET`) and raises
        :class:`~loba_dsl.errors.BudgetExceeded` when it runs out: the answer
        is exact or there is none.
        """
        return self.arranger.arrange(self._cards(cards), budget)

    def arrange_text(self, text: str, *, lang: str | None = None, source: str = "<cards>", line: int = 1,
                     discard: bool = False, opened: bool = False,
                     budget: BudgetLike | Clock = None) -> ArrangedHand:
        """Read a hand (``line`` of ``source``), check its copies, arrange it and say if it can go out.

        With ``discard=True`` the hand has just drawn: the best discard is chosen
        first (:meth:`best_discard`).  Whether it can go out is asked of the
        whole hand, as given (:meth:`can_go_out`, with ``opened``).
        """
        rs = self.rs
        parsed = rs.notation(lang).parse(text, source=source, first_line=line)
        check_copies(parsed, rs.deck, source=source, text=text, ruleset=rs.name, first_line=line)
        if not parsed.cards:
            raise InputError(said("no cards given"), hint=said("e.g. {example}",
                                                       example='loba arrange "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠"'))
        dropped: Card | None = None
        with self.calls.running(budget, "arranging the hand") as clock:  # one budget for the whole answer
            if discard:
                dropped, arrangement = self.discards.best_discard(parsed.cards, budget=clock)
            else:
                arrangement = self.arranger.arrange(parsed.cards, clock)
            going_out = self.discards.can_go_out(parsed.cards, opened=opened, budget=clock).possible
        return ArrangedHand(parsed.cards, arrangement, dropped, going_out)

    # ------------------------------------------------------------ going out and discards

    def max_melded(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> tuple[int, Arrangement]:
        """The most cards that can be melded at once, and one such arrangement."""
        return self.discards.max_melded(cards, budget=budget)

    def can_go_out(self, cards: Sequence[Card] | str, *, opened: bool = False,
                   budget: BudgetLike | Clock = None) -> GoingOut:
        """Can this hand, as it stands after the draw, go out this turn as the referee allows?

        The rule is :mod:`loba_dsl.solver.last_cards`' (``turn.going_out``,
        ``turn.discard_joker``, ``turn.go_out_on_first_lay_down``): everything melded
        but the discard (none, under ``discard_optional``) and, under
        ``one_card_left``, one card kept.  ``opened``: the player put cards down in an
        earlier turn of the round (default: not, so under
        ``go_out_on_first_lay_down: false`` the answer is no).  Requirements
        (rules.md §4) are not checked: for a player who has not opened under them, see
        :func:`loba_dsl.solver.going_out.go_out_meeting`.  The arrangement is the
        melds and the card kept; ``discard`` the card discarded (``None``: none).
        """
        return self.discards.can_go_out(self._cards(cards), opened=opened, budget=budget)

    def best_discard(self, cards: Sequence[Card] | str, *,
                     budget: BudgetLike | Clock = None) -> tuple[Card, Arrangement]:
        """For a hand that has just drawn: the discard after which the arrangement is best (exact).

        Every distinct discard the ruleset allows is tried (never a greedy shortcut;
        no Joker under ``turn.discard_joker: false`` while another card may go);
        ties go to the first card in the solver's order.  An empty hand is an
        :class:`~loba_dsl.errors.InputError`.
        """
        return self.discards.best_discard(self._cards(cards), budget=budget)

    def best_discard_score(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> int:
        """The score after the best discard (as ``best_discard(cards)[1].score``, without building it)."""
        return self.discards.best_discard_score(cards, budget=budget)

    # ------------------------------------------------------------ requirements

    def best_opening(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> Arrangement | None:
        """The best arrangement whose melds reach the opening minimum (``requirements.opening``), or ``None``.

        Exact: the search carries the opening value reached so far (capped at
        the minimum) as part of its state.
        """
        return self.openings.best_opening(cards, budget=budget)

    def contract(self, cards: Sequence[Card], round_number: int, *,
                 budget: BudgetLike | Clock = None) -> Arrangement | None:
        """Melds from ``cards`` that fulfil round ``round_number``'s contract exactly, or ``None``.

        A round outside the ruleset's list of contracts is an :class:`~loba_dsl.errors.InputError`,
        as for ``loba check --contract``.
        """
        return self.openings.contract(cards, round_number, budget=budget)

    # ------------------------------------------------------------ a hand from text

    def _cards(self, cards: Sequence[Card] | str) -> tuple[Card, ...]:
        """Card codes as given, or read from text (bad cards and extra copies are an ``InputError``)."""
        if not isinstance(cards, str):
            return tuple(cards)
        parsed = self.rs.notation().parse(cards, source="<cards>")
        check_copies(parsed, self.rs.deck, source="<cards>", text=cards, ruleset=self.rs.name)
        return parsed.cards
