"""What generating the legal moves of a ruleset needs, compiled once: meld and lay-off candidates.

The candidates come from the solver's generator (:class:`~loba_dsl.solver.candidates.CandidateGenerator`)
and are read by the ruleset's matcher, as the referee reads a meld; :mod:`loba_dsl.game.legal` lists the
moves from them, and the referee asks them whether a card taken from the discard pile can go down
(``turn.use_pile_card``).  Nothing here judges a move: this module never imports the referee.
"""

from __future__ import annotations

import itertools
from collections import Counter, _count_elements  # type: ignore[attr-defined]
from collections.abc import Iterator, Sequence

from loba_dsl.budget import Clock
from loba_dsl.cards.deck import Card
from loba_dsl.game import roles
from loba_dsl.game.moves import Discard, Draw
from loba_dsl.game.state import TableMeld
from loba_dsl.melds.matcher import CompiledShape, Matcher, matcher_for
from loba_dsl.rules.model import Ruleset
from loba_dsl.solver.candidates import CandidateGenerator
from loba_dsl.solver.multisets import combos, submultisets

__all__ = ["SMALL_HAND", "SMALL_WILDS", "LegalGenerator", "beside", "generator_for"]

SMALL_HAND = 16
"""Hands of at most this many cards, with at most :data:`SMALL_WILDS` cards that may be wild, take their
meld candidates from the solver's generator in one call (its C twin where built); others lazily."""

SMALL_WILDS = 2


_READINGS_KEPT = 8192
"""The most answers :meth:`LegalGenerator.is_meld` keeps (past it, the kept ones are forgotten)."""

_MOVES_KEPT = 4096
"""The most draws (discards) a generator keeps made (players' names are many on a server: past it, made anew)."""


def hand_counts(hand: Sequence[Card]) -> Counter[Card]:
    """``Counter(hand)``, counted by the C helper ``Counter`` itself uses, without its argument checks (each
    listing counts a hand)."""
    counts: Counter[Card] = Counter.__new__(Counter)  # an empty dict: Counter.__init__ would only count
    _count_elements(counts, hand)
    return counts


def beside(rs: Ruleset, card: Card, up: bool) -> Card | None:
    """The natural card one rank above (or below) ``card`` in its suit; past the top, the ace played high."""
    deck = rs.deck
    r, suit = deck.rank_of(card), deck.suit_of(card)
    if up:
        if r == deck.ace and r == 0:
            return deck.code(1, suit) if deck.n_ranks > 1 else None
        if r + 1 < deck.n_ranks:
            return deck.code(r + 1, suit)
        return deck.code(deck.ace, suit) if deck.ace is not None and deck.ace != r else None
    if r - 1 >= 0:
        return deck.code(r - 1, suit)
    return None


class LegalGenerator:
    """What generating legal moves needs of one ruleset, compiled once (:func:`generator_for`)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.matcher: Matcher = matcher_for(rs, scored=False)
        self.specs: tuple[CompiledShape, ...] = self.matcher.specs
        self.candidates = CandidateGenerator(rs.deck, self.specs, rs.wilds)
        cg = self.candidates
        self.wild_capable = cg.wild_capable
        self.rank, self.suit = cg.rank, cg.suit
        self.set_natural = cg.set_natural
        self.order = cg.order
        self.least = min((k.lo for k in self.specs), default=1)
        self.most = max((k.hi for k in self.specs), default=0)
        self.by_name = {k.name: k for k in self.specs}
        self._chains: dict[tuple[Card, bool, int, int], tuple[Card, ...]] = {}
        self._touching: dict[tuple[str, Card, Card, int], frozenset[Card]] = {}
        """Per (card, going up, room, kind): :meth:`_chain` (a deck's worth of keys at most)."""
        self._draws: dict[tuple[str, str], Draw] = {}
        self._discards: dict[tuple[str, Card], Discard] = {}
        self._melds: dict[tuple[Card, ...], bool] = {}
        """:meth:`is_meld`'s answers, by the cards (at most :data:`_READINGS_KEPT`)."""

    # ------------------------------------------------------------ the moves every turn lists again

    def draw(self, player: str, source: str) -> Draw:
        """``Draw(player, source)``, made once (moves are values: the same object serves every listing)."""
        found = self._draws.get((player, source))
        if found is None:
            if len(self._draws) > _MOVES_KEPT:
                self._draws.clear()
            found = self._draws[player, source] = Draw(player, "stock" if source == "stock" else "discard",
                                                       deck=self.rs.deck)
        return found

    def discard(self, player: str, card: Card) -> Discard:
        """``Discard(player, card)``, made once."""
        found = self._discards.get((player, card))
        if found is None:
            if len(self._discards) > _MOVES_KEPT:
                self._discards.clear()
            found = self._discards[player, card] = Discard(player, card, deck=self.rs.deck)
        return found

    # ------------------------------------------------------------ melds

    def meld_candidates(self, hand: Sequence[Card], clock: Clock) -> Iterator[tuple[Card, ...]]:
        """Every sub-multiset of ``hand`` that may be a meld (a superset), each once, cards sorted by code."""
        if not self.specs or len(hand) < self.least:
            return
        wild_capable = self.wild_capable
        n_wild = sum(1 for c in hand if wild_capable[c])
        if len(hand) <= SMALL_HAND and n_wild <= SMALL_WILDS:
            for m in self.candidates.hand_candidates(self.candidates.ordered(hand)):
                clock.tick()
                yield tuple(sorted(m))
            return
        seen: set[tuple[Card, ...]] = set()
        for m in self._lazy_candidates(hand, clock):
            key = tuple(sorted(m))
            if key not in seen:
                seen.add(key)
                yield key

    def _lazy_candidates(self, hand: Sequence[Card], clock: Clock) -> Iterator[tuple[Card, ...]]:
        """:meth:`CandidateGenerator.pure_hand_candidates`, one candidate at a time (with repeats)."""
        cg = self.candidates
        counts = Counter(hand)
        order = self.order
        wild_capable, rank, suit = self.wild_capable, self.rank, self.suit
        pool = [(c, n) for c, n in sorted(counts.items(), key=lambda cn: order[cn[0]]) if wild_capable[c]]
        pool_codes = {c for c, _ in pool if rank[c] >= 0}
        n_pool = sum(n for _, n in pool)

        def wilds_for(size: int, used: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
            return combos(pool, size, exclude=[c for c in used if c in pool_codes])

        present = [0] * self.rs.deck.n_suits
        for c in counts:
            if rank[c] >= 0:
                present[suit[c]] |= 1 << rank[c]
        for k in self.specs:
            budget = 0 if k.no_wilds is not None else min(cg.wild_limit[k.index], n_pool)
            if not k.run:
                by_rank: dict[int, list[tuple[int, int]]] = {}
                for c, n in counts.items():
                    if self.set_natural[c]:
                        by_rank.setdefault(rank[c], []).append((suit[c], n))
                for r, held in by_rank.items():
                    for suits, w in cg._set_skeletons(k, tuple(sorted(held)), budget):
                        naturals = [cg.suit_codes[su][r] for su in suits]
                        for wilds in wilds_for(w, naturals):
                            clock.tick()
                            yield (*naturals, *wilds)
                continue
            for codes, have in zip(cg.suit_codes, present, strict=True):
                if have:
                    for ranks, w in self.candidates.iter_run_skeletons(k, have, budget, clock.tick):
                        naturals = [codes[r] for r in ranks]
                        for wilds in wilds_for(w, naturals):
                            clock.tick()
                            yield (*naturals, *wilds)
        if n_pool >= self.least:  # melds of cards that may be wild only
            for m in submultisets(pool, self.most):
                clock.tick()
                if len(m) >= self.least:
                    yield m

    def is_meld(self, cards: tuple[Card, ...], clock: Clock) -> bool:
        """Whether the matcher reads ``cards`` as a meld of some kind (kept: a hand's candidates come back turn
        after turn)."""
        found = self._melds.get(cards)
        if found is None:
            found = self.matcher.match(cards, reasons=False, budget=clock).best is not None
            if len(self._melds) >= _READINGS_KEPT:
                self._melds.clear()
            self._melds[cards] = found
        return found

    # ------------------------------------------------------------ lay-offs

    def wild_pool(self, counts: Counter[Card]) -> list[tuple[Card, int]]:
        """The cards of a hand that may be wild, with their copies, in the solver's processing order."""
        wild_capable = self.wild_capable
        pool = [(c, n) for c, n in counts.items() if wild_capable[c]]
        if len(pool) > 1:
            order = self.order
            pool.sort(key=lambda cn: order[cn[0]])
        return pool

    def touching(self, m: TableMeld) -> frozenset[Card]:
        """The natural cards one of which a lay-off onto ``m`` without wilds must hold: its rank (a set), the
        cards beside its ends (a run).  Kept per meld shape (a few hundred at most)."""
        key = (m.kind, m.stands[0], m.stands[-1], len(m.cards))
        found = self._touching.get(key)
        if found is None:
            k = self.by_name.get(m.kind)
            if k is None or k.hi <= len(m.cards):
                found = frozenset()
            elif not m.run:
                r = self.rank[m.stands[0]]
                found = frozenset(c for c in range(self.rs.deck.n_codes) if self.rank[c] == r)
            else:
                room = k.hi - len(m.cards)
                found = frozenset((*self._chain(m.stands[0], False, room, k)[:1],
                                   *self._chain(m.stands[-1], True, room, k)[:1]))
            self._touching[key] = found
        return found

    def lay_off_candidates(self, m: TableMeld, counts: Counter[Card], wilds: list[tuple[Card, int]],
                           clock: Clock) -> Iterator[tuple[Card, ...]]:
        """Multisets of a hand (``counts``; ``wilds``: its :meth:`wild_pool`) that may extend ``m`` (a superset,
        each once, sorted by code)."""
        k = self.by_name.get(m.kind)
        if k is None:
            return
        room = k.hi - len(m.cards)
        if room <= 0:
            return
        no_wilds = k.no_wilds is not None
        pool = [] if no_wilds else wilds
        seen: set[tuple[Card, ...]] = set()
        if not m.run:
            rank = self.rank
            r = rank[m.stands[0]]
            items = sorted((c, n) for c, n in counts.items() if rank[c] == r or (pool and self.wild_capable[c]))
            if not items:
                return
            for sub in submultisets(items, room):
                clock.tick()
                if sub and sub not in seen:
                    seen.add(sub)
                    yield sub
            return
        down = self._chain(m.stands[0], False, room, k)
        up = self._chain(m.stands[-1], True, room, k)
        if not pool and not (down and counts[down[0]]) and not (up and counts[up[0]]):
            return  # nothing touches either end
        n_pool = sum(n for _, n in pool)
        pool_codes = {c for c, _ in pool}
        for low in range(len(down) + 1):
            if sum(1 for c in down[:low] if not counts[c]) > n_pool:
                break
            for high in range(len(up) + 1):
                places = (*down[:low], *up[:high])
                if not places or len(places) > room:
                    continue
                if len(places) > len(set(places)):
                    break
                held = [c for c in places if counts[c]]
                if len(places) - len(held) > n_pool:
                    break
                for n_nat in range(len(held), -1, -1):
                    w = len(places) - n_nat
                    if w > n_pool:
                        break
                    for naturals in itertools.combinations(held, n_nat):
                        for extra in combos(pool, w, exclude=[c for c in naturals if c in pool_codes]):
                            clock.tick()
                            sub = tuple(sorted((*naturals, *extra)))
                            if sub not in seen:
                                seen.add(sub)
                                yield sub

    def _chain(self, card: Card, up: bool, room: int, k: CompiledShape) -> tuple[Card, ...]:
        """The natural cards beside ``card`` going up (down) its suit, as far as a run could reach."""
        key = (card, up, room, k.index)
        found = self._chains.get(key)
        if found is None:
            found = self._chains[key] = self._new_chain(card, up, room, k)
        return found

    def _new_chain(self, card: Card, up: bool, room: int, k: CompiledShape) -> tuple[Card, ...]:
        rs = self.rs
        deck = rs.deck
        out: list[Card] = []
        c: Card | None = card
        for _ in range(min(room, deck.n_ranks)):
            assert c is not None
            nxt = beside(rs, c, up)
            if nxt is None and not up and k.ace == "wrap":
                nxt = deck.code(deck.n_ranks - 1, deck.suit_of(c))
            if nxt is None or nxt == card or nxt in out:
                break
            out.append(nxt)
            c = nxt
        return tuple(out)

    def lays_off(self, m: TableMeld, cards: tuple[Card, ...]) -> bool:
        """Whether ``cards`` laid off onto ``m`` read as its kind with every card on the table kept in place."""
        got = roles.read(self.rs, (*m.cards, *cards), [*m.stands, *([None] * len(cards))], kind=m.kind)
        return isinstance(got, roles.Placed)


def generator_for(rs: Ruleset) -> LegalGenerator:
    """The legal-move generator of a ruleset, built once (kept on the ruleset)."""
    return rs.memo("legal-generator", LegalGenerator, rs)
