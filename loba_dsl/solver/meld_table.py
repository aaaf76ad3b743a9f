"""Every candidate meld a ruleset's deck can make, when they are few: the universe of a meld table.

A hand's candidate melds are drawn from its cards; the whole deck's candidates
hold every one of them (the generator builds a hand's melds from its run
windows and set skeletons, with wilds from its own cards, and the deck holds
every card and every wild).  Where that universe is small (a few thousand melds
under ``menos`` or ``gin``) the solver can judge each of its melds once per
ruleset (:meth:`MeldGains.compile_table <loba_dsl.solver.meld_gains.MeldGains.compile_table>`),
so that no hand waits on the matcher.  Where it is large (any number of wilds in
a run, as in ``mas-pagat``) there is no table: :func:`universe_bound` says so
before anything is generated.
"""

from __future__ import annotations

from math import comb

from loba_dsl.cards.deck import Deck
from loba_dsl.solver.candidates import CandidateGenerator
from loba_dsl.solver.multisets import Multiset

__all__ = ["TABLE_MELDS", "deck_candidates", "universe_bound"]

TABLE_MELDS = 20_000
"""The most candidate melds (as the generator names them) a meld table is built from.

``menos``'s deck makes 1,783 (457 up to a renaming of the suits, judged in ~13 ms),
``uruguay``'s 7,884 (863, ~95 ms); past this a table would cost more to build than
most batches save.
"""


def universe_bound(generator: CandidateGenerator, deck: Deck) -> int:
    """An upper bound on the candidate melds of the whole deck, counted without generating them.

    Per run shape, each window times each choice of its places given to wilds
    times each multiset of wild cards for them; per set shape, each rank times
    each multiset of its copies by suit times the wilds; and the melds of wild
    cards alone.
    """
    kinds = sum(generator.wild_capable)
    wilds_in_deck = sum(deck.jokers if c == deck.joker_code else deck.copies
                        for c in range(deck.n_codes) if generator.wild_capable[c])
    total = 0
    most = 0
    for k in generator.shapes:
        budget = 0 if k.no_wilds is not None else generator.wild_limit[k.index]
        fillings = [comb(kinds + w - 1, w) if kinds else int(w == 0) for w in range(budget + 1)]
        if k.run:
            for size, _, _ in generator.run_windows[k.index]:
                total += deck.n_suits * sum(comb(size, w) * fillings[w] for w in range(min(budget, size) + 1))
        else:
            total += deck.n_ranks * (deck.copies + 1) ** deck.n_suits * sum(fillings)
        most = max(most, min(k.hi, wilds_in_deck))
    return total + comb(kinds + most, most)


def deck_candidates(generator: CandidateGenerator, deck: Deck, *, pooled: bool) -> list[Multiset] | None:
    """The candidate melds of the whole deck (``pooled``: with Jokers in the wilds' places), or ``None``: too many.

    ``None`` when :func:`universe_bound` passes :data:`TABLE_MELDS`, so a deck
    of many wilds is never generated whole.
    """
    if universe_bound(generator, deck) > TABLE_MELDS:
        return None
    everything = [c for c in range(deck.n_codes)
                  for _ in range(deck.jokers if c == deck.joker_code else deck.copies)]
    return generator.hand_candidates(generator.ordered(everything), pooled=pooled)
