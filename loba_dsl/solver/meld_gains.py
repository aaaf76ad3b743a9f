"""A hand's candidate melds and what each gains under the round formula: the first part of the solver.

:class:`MeldGains` holds what the rest of the solver reads about melds: the
ruleset's round formula as per-card utilities and per-meld terms
(:mod:`loba_dsl.solver.objective`), the matcher that judges every candidate
(as ``loba check`` does, so the solver never accepts a meld the rules
refuse), the :class:`~loba_dsl.solver.candidates.CandidateGenerator`, and the
classes of wild cards that count alike.  Its questions:

- :meth:`MeldGains.candidate_melds`: every sub-multiset of a hand that may be a meld;
- :meth:`MeldGains.gain`: what putting a meld down gains over keeping its cards, and its best reading;
- :meth:`MeldGains.gain_value`: the gain alone, cached under a canonical form of the meld;
- :meth:`MeldGains.positive`: a hand's candidates of positive gain, the input of every search.

Its answers are cached (bounded by :class:`~loba_dsl.solver.calls.Calls`); :meth:`MeldGains.compile_table`
judges every candidate meld of the deck once, where they are few, into a table no cache clearing empties.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from loba_dsl.cards.deck import Card
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.vocabulary import round_facts
from loba_dsl.melds.matcher import Reading, matcher_for
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.rounds import hand_table
from loba_dsl.solver.calls import Calls
from loba_dsl.solver.candidates import CandidateGenerator
from loba_dsl.solver.meld_table import deck_candidates
from loba_dsl.solver.multisets import Multiset
from loba_dsl.solver.objective import Objective, round_objective
from loba_dsl.solver.symmetry import SuitCanon, suit_symmetric

__all__ = ["MeldGains", "MeldTerm"]

MeldTerm = tuple[int, str | None, Callable[[Any, Any], bool] | None]
"""A term of the round formula per meld put down: (coefficient, value table or None for a count, filter)."""


class MeldGains:
    """Candidate melds of hands under one ruleset and their gains (build once, ask of many hands)."""

    def __init__(self, ruleset: Ruleset, calls: Calls, *, players: int | None = None) -> None:
        self.rs = ruleset
        self.calls = calls
        """The running call, whose clock every reading obeys."""
        self.deck = deck = ruleset.deck
        self.players = ruleset.players.default if players is None else players
        self.objective: Objective = round_objective(ruleset, players=self.players)
        self.matcher = matcher_for(ruleset)
        self.generator = CandidateGenerator(deck, self.matcher.specs, ruleset.wilds)
        """Which sub-multisets of a hand may be melds, and the cards' processing order."""
        generator = self.generator
        self.wild_capable = generator.wild_capable
        self.order = generator.order
        """The processing order: plain naturals by suit then rank, then the cards that can be wild."""
        self.positions = generator.position
        """Per card code, its place in the processing order (for the C kernels)."""
        self.sorted = generator.ordered
        """A multiset sorted in the processing order."""
        self.may_meld = generator.may_meld
        self.live = generator.live
        """A hand's live cards: those some candidate meld may use (the others are kept whatever the search does)."""
        self.live_shape = generator.live_shape
        self._rank = generator.rank
        self._suit = generator.suit
        self.sign = self.objective.sign
        self.left_utility, self.meld_terms = self._terms()
        self.canon: SuitCanon | None = SuitCanon(ruleset, generator.ordered) if suit_symmetric(ruleset) else None
        """Where the ruleset treats every suit alike, the canonical renaming of the suits of a hand or a meld: the key
        of the caches of best gains and of melds' gains (an arrangement keeps the cards it was given)."""
        if self.canon is not None and generator.native_live is not None:
            self.canon.answer_keys_by(generator.native_live.key)  # the live cards' C twin keys them too
        table = hand_table(ruleset)
        self.hand_values: tuple[int, ...] | None = None if table is None else tuple(ruleset.hand_values[table])
        """The round formula's hand table, per card code (``None``: the formula values no hand)."""
        self._gains: dict[Multiset, tuple[int, Reading] | None] = calls.readings({})
        self._gain_values: dict[Multiset, int | None] = calls.values({})
        self._value_by_meld: dict[Multiset, int | None] = calls.values({})
        self._swaps: dict[Multiset, Multiset] = calls.values({})
        self._class_naturals: dict[Multiset, frozenset[Card]] = calls.values({})
        self._table: dict[Multiset, int | None] = {}
        """Every candidate meld of the deck (as generated, and in canonical form) -> its gain, judged once
        (:meth:`compile_table`; empty until then): a table of the ruleset, not a cache, so :meth:`Calls.clear
        <loba_dsl.solver.calls.Calls.clear>` keeps it."""
        self._last_candidates: tuple[Multiset, bool, list[Multiset]] | None = None
        """The last hand's candidate melds, kept for the rest of one call (one generation per hand)."""
        calls.after_each(self._forget_call)
        self.wild_class = self._wild_classes()
        """Each wild-capable card's class (its representative card): cards that count alike in hand and as wilds."""
        members: dict[Card, list[Card]] = {}
        for card, rep in sorted(self.wild_class.items(), key=lambda cr: (cr[0] != deck.joker_code, self.order[cr[0]])):
            members.setdefault(rep, []).append(card)
        self._class_members = members
        """Each class's members, the Joker first."""
        self._stand_in: dict[tuple[Card, int, int], Card] = {}
        self._class_of = tuple(self.wild_class.get(c, -1) for c in range(deck.n_codes))
        """Each card's wild class (its representative card), or -1."""
        self.pool = self._pool_cards()
        """The wild cards other than the Joker that a search may pool with the Jokers
        (see :meth:`Searches.pooled_input <loba_dsl.solver.searches.Searches.pooled_input>`)."""

    def _forget_call(self) -> None:
        self._last_candidates = None

    # ------------------------------------------------------------ the round formula's pieces

    def _wild_classes(self) -> dict[Card, Card]:
        """Wild-capable cards grouped by how they count in hand and as a wild in every meld role."""
        deck = self.deck
        tables = {self.rs.scoring.meld_points} | {t for _, t, _ in self.meld_terms if t is not None}
        per_table = [self.rs.meld_values.get(t, {}) for t in sorted(t for t in tables if t is not None)]
        classes: dict[tuple[Any, ...], Card] = {}
        out: dict[Card, Card] = {}
        for c in sorted((c for c in range(deck.n_codes) if self.wild_capable[c]), key=self.order.__getitem__):
            signature = (self.left_utility[c], tuple(
                tuple(sorted((k[0], k[3], k[4], v) for k, v in values.items() if k[1] == c and k[2]))
                for values in per_table))
            out[c] = classes.setdefault(signature, c)
        return out

    def _terms(self) -> tuple[tuple[int, ...], list[MeldTerm]]:
        """Per card left, its utility; per meld, the (coefficient, table, filter) terms."""
        from loba_dsl.dsl.evaluate import compile_filter

        lin = self.objective.linear
        left = [0] * self.deck.n_codes
        meld_terms: list[MeldTerm] = []
        for (kind, table, where), coeff in lin.terms.items():
            if kind == "hand":
                values = self.rs.hand_values[table]
                for c in range(self.deck.n_codes):
                    left[c] += coeff * values[c]
            elif kind == "hand_count":
                for c in range(self.deck.n_codes):
                    left[c] += coeff
            else:
                test = compile_filter(where) if isinstance(where, A.Expr) else None
                meld_terms.append((coeff, table if kind == "melds" else None, test))
        return tuple(self.sign * v for v in left), meld_terms

    def score_of(self, utility: int) -> int:
        """The round score of a hand whose utility (cards left, melds put down) is ``utility``."""
        return self.objective.score(self.sign * utility + self.objective.linear.const)

    # ------------------------------------------------------------ candidate melds

    def candidate_melds(self, cards: Multiset, *, pooled: bool = False) -> list[Multiset]:
        """The candidate melds of ``cards`` (sorted in the processing order), generated once per hand and call.

        ``pooled``: with every wild's place filled by a Joker
        (:meth:`Searches.pooled_input <loba_dsl.solver.searches.Searches.pooled_input>`).
        """
        last = self._last_candidates
        if last is not None and last[0] == cards and last[1] == pooled:
            return last[2]  # the same hand again in this call (its arrangement, then can it go out)
        clock = self.calls.clock
        melds = self.generator.hand_candidates(cards, pooled=pooled)
        if clock is not None:
            clock.tick(len(melds))  # one step a candidate, counted in bulk
            self._last_candidates = (cards, pooled, melds)
        return melds

    def positive(self, cards: Multiset, gain: Callable[[Multiset], int | None], *, pooled: bool = False
                 ) -> list[tuple[Multiset, int]]:
        """The candidate melds of ``cards`` (in the processing order) with a positive ``gain``, and their gains."""
        raw = []
        for m in self.candidate_melds(cards, pooled=pooled):
            g = gain(m)
            if g is not None and g > 0:
                raw.append((m, g))
        return raw

    def count_if_legal(self, meld: Multiset) -> int | None:
        """The number of cards of ``meld`` if it is legal (``None``: not): the gain of "meld the most cards"."""
        return len(meld) if self.gain_value(meld) is not None else None

    # ------------------------------------------------------------ gains

    def gain(self, meld: Multiset) -> tuple[int, Reading] | None:
        """Utility gained by putting ``meld`` down instead of keeping it (``None``: not legal)."""
        cached = self._gains.get(meld, False)
        if cached is not False:
            return cached  # type: ignore[return-value]
        result = self._gains[meld] = self._evaluate(meld)
        return result

    def _evaluate(self, meld: Multiset) -> tuple[int, Reading] | None:
        best = self.matcher.match(meld, reasons=False, budget=self.calls.clock).best
        if best is not None and tuple(sorted(best.order)) != tuple(range(len(meld))):
            raise AssertionError("a reading covers every card")  # pragma: no cover
        result: tuple[int, Reading] | None = None
        if best is not None:
            value = 0
            facts = None
            for coeff, table, test in self.meld_terms:
                if test is not None:
                    if facts is None:
                        facts = _Facts(self.rs, meld, best)
                    if not test(_Outer(self.players), facts):
                        continue
                if table is None:
                    value += coeff
                else:
                    value += coeff * self._table_points(table, meld, best)
            utility = self.sign * value - sum(self.left_utility[c] for c in meld)
            result = (utility, best)
        return result

    def _table_points(self, table: str, meld: Multiset, best: Reading) -> int:
        if table == self.rs.scoring.meld_points and best.points is not None:
            return best.points
        other = matcher_for(self.rs, table).match(meld, reasons=False, budget=self.calls.clock).best
        assert other is not None and other.points is not None
        return other.points

    def gain_value(self, meld: Multiset) -> int | None:
        """Just the gain, cached under a canonical form of the meld (or read from the meld table).

        A card that can only be wild in this meld (it matches neither the
        suit nor the rank of the meld's plain naturals) is interchangeable
        with any other card that behaves the same as a wild and in hand
        (same class): the meld is looked up with the class's first card.
        """
        by_meld = self._value_by_meld
        if meld in by_meld:
            return by_meld[meld]
        table = self._table
        if meld in table:
            return table[meld]
        key = self.canonical(meld)
        if self.canon is not None:
            key = self.canon(key)  # a meld's gain is the same under any renaming of the suits
        if key in table:
            value = table[key]
        elif key in self._gain_values:
            value = self._gain_values[key]
        else:
            g = self.gain(key)
            value = None if g is None else g[0]
            self._gain_values[key] = value
        by_meld[meld] = value
        return value

    def compile_table(self) -> int:
        """Judge every candidate meld of the whole deck once, into a table that every hand reads; how many.

        Each meld is judged under its canonical form, as :meth:`gain_value`
        would (the matcher's verdict and gain, once per form), and the table
        keeps each meld as generated and each form, so a hand's candidates
        are read without a reading, a renaming or a cache.  Where the deck's
        candidates are too many (:data:`~loba_dsl.solver.meld_table.TABLE_MELDS`,
        many wilds) nothing is built and 0 is returned.  Building it twice
        does nothing more.
        """
        if self._table:
            return len(self._table)
        melds: list[Multiset] = []
        for pooled in (False, True) if self.pool else (False,):
            found = deck_candidates(self.generator, self.deck, pooled=pooled)
            if found is None:
                return 0
            melds += found
        table: dict[Multiset, int | None] = {}
        with self.calls.running(None, "judging the ruleset's melds") as clock:
            for meld in melds:
                clock.tick()  # one step a meld of the deck
                key = self.canonical(meld)
                if self.canon is not None:
                    key = self.canon(key)
                value = table.get(key, False)
                if value is False:
                    g = self.gain(key)
                    value = table[key] = None if g is None else g[0]
                table[meld] = value
        self._table.update(table)  # the same dict as before (a C caller holds it)
        return len(table)

    @property
    def table(self) -> Mapping[Multiset, int | None]:
        """The meld table (:meth:`compile_table`): each meld, as generated and in canonical form, -> its gain."""
        return self._table

    def known_gain_value(self, meld: Multiset) -> int | None:
        """:meth:`gain_value` of a meld of plain naturals (its own canonical form), read first from the cache."""
        known = self._gain_values
        return known[meld] if meld in known else self.gain_value(meld)

    def canonical(self, meld: Multiset) -> Multiset:
        """``meld`` with each card that can only be wild in it replaced by its class's first such card."""
        class_of, wild_capable = self._class_of, self.wild_capable
        first_plain = -1
        classed = False
        for c in meld:
            if class_of[c] >= 0:
                classed = True
            elif first_plain < 0 and not wild_capable[c]:
                first_plain = c
        if not classed or first_plain < 0:
            return meld
        rank, suit, joker = self._rank, self._suit, self.deck.joker_code
        s0, r0 = suit[first_plain], rank[first_plain]
        out = list(meld)
        changed = False
        for i, c in enumerate(meld):
            k = class_of[c]
            # Wild whatever the reading: not of the plain naturals' suit (a run) nor rank (a set).
            if k >= 0 and (c == joker or (suit[c] != s0 and rank[c] != r0)):
                stand_in = self._stand_in.get((k, s0, r0))
                if stand_in is None:
                    # The class's stand-in must itself be forced wild here: the Joker, else its first such member.
                    stand_in = self._stand_in[(k, s0, r0)] = next(
                        m for m in self._class_members[k] if m == joker or (suit[m] != s0 and rank[m] != r0))
                if stand_in != c:
                    out[i] = stand_in
                    changed = True
        return self.sorted(out) if changed else meld

    # ------------------------------------------------------------ wilds that count as the Joker does

    def _pool_cards(self) -> frozenset[Card]:
        """The cards that can be wild, Jokers aside, when every one of them is of the Joker's class (else none).

        Then any of them can take a Joker's place as a wild, at the same value
        there and in hand, so a search may hold them as one pool of wilds (see
        :meth:`Searches.pooled_input <loba_dsl.solver.searches.Searches.pooled_input>`).
        """
        joker = self.deck.joker_code
        cls = self.wild_class.get(joker)
        members = [c for c in self.wild_class if c != joker]
        if cls is None or any(self.wild_class[c] != cls for c in members):
            return frozenset()
        return frozenset(members)

    def joker_like(self, cards: Multiset) -> bool:
        """Whether ``cards`` hold a card of the Joker's class other than a Joker (a 2 wild as the Joker is)."""
        joker = self.deck.joker_code
        cls = self.wild_class.get(joker)
        if cls is None:
            return False
        wild_class = self.wild_class
        return any(c != joker and wild_class.get(c) == cls for c in cards)

    def merge_pure_wilds(self, cards: Multiset, raw: list[tuple[Multiset, int]]
                         ) -> tuple[Multiset, list[tuple[Multiset, int]], tuple[Card, ...]]:
        """Search the cards of the Joker's class that no candidate meld reads as natural as Jokers.

        Such a card (a 2 that is only ever wild in this hand) behaves exactly
        like a Joker: same value in hand, same value as a wild, never natural.
        Searching it as a Joker makes interchangeable cards one, which shrinks
        the search; :meth:`HandSearch.real <loba_dsl.solver.search.HandSearch.real>` gives it its name back.
        """
        joker = self.deck.joker_code
        cls = self.wild_class.get(joker)
        members = {c for c in cards if c != joker and cls is not None and self.wild_class.get(c) == cls}
        if not members:
            return cards, raw, ()
        natural: set[Card] = set()
        suits = {self._suit[c] for c in members}
        ranks = {self._rank[c] for c in members}
        wild_capable, rank, suit = self.wild_capable, self._rank, self._suit
        for m, _ in raw:
            if not members - natural:
                break
            # A member can be natural only beside a plain natural of its suit (a run) or rank (a set).
            first = m[0]
            if wild_capable[first] or suit[first] in suits or rank[first] in ranks:
                natural |= self._naturals_of_class(m) & members
        pure = members - natural
        if not pure:
            return cards, raw, ()
        stand_ins = tuple(c for c in cards if c in pure)
        mapped = self.sorted([joker if c in pure else c for c in cards])
        merged: dict[Multiset, int] = {}
        for m, g in raw:
            key = self.sorted([joker if c in pure else c for c in m])
            merged[key] = max(g, merged.get(key, g))
        return mapped, sorted(merged.items(), key=lambda mg: [self.order[c] for c in mg[0]]), stand_ins

    def _naturals_of_class(self, meld: Multiset) -> frozenset[Card]:
        """The cards of the Joker's class that ``meld`` may read as natural (cached per meld)."""
        found = self._class_naturals.get(meld)
        if found is not None:
            return found
        out: set[Card] = set()
        joker = self.deck.joker_code
        cls = self.wild_class.get(joker)
        plain = [c for c in meld if not self.wild_capable[c]]
        for c in set(meld):
            if c == joker or cls is None or self.wild_class.get(c) != cls:
                continue
            if not plain:
                out.add(c)  # a meld of cards that can be wild only: the 2 may be natural there
                continue
            if self._suit[c] != self._suit[plain[0]] and self._rank[c] != self._rank[plain[0]]:
                continue  # forced wild in this meld
            if self._read_natural(self.canonical(meld), c):
                out.add(c)
        result = self._class_naturals[meld] = frozenset(out)
        return result

    def _read_natural(self, canon: Multiset, card: Card) -> bool:
        """Whether the best reading of ``canon`` holds ``card`` as a natural card.

        Where the suits are all alike the reading is that of the meld's
        canonical renaming (one reading for the four suits' copies of a meld),
        and the card is looked for under its new name.
        """
        if self.canon is not None:
            image, renamed = self.canon.renamed(canon)
            wanted = renamed[card]
        else:
            image, wanted = canon, card
        g = self.gain(image)
        assert g is not None
        reading = g[1]
        return any(image[reading.order[q]] == wanted and not reading.wild[q] for q in range(len(image)))

    def joker_class_wilds(self, meld: Multiset) -> Multiset:
        """The cards of the Joker's class, Jokers aside, that ``meld`` can only use as wilds (cached).

        Such a card (a 2 off the suit and rank of the meld's plain naturals) could
        give its place to a free Joker: see :class:`~loba_dsl.solver.search.HandSearch`.
        """
        found = self._swaps.get(meld)
        if found is None:
            found = self._swaps[meld] = self._joker_class_wilds(meld)
        return found

    def _joker_class_wilds(self, meld: Multiset) -> Multiset:
        joker = self.deck.joker_code
        cls = self.wild_class.get(joker)
        if cls is None:
            return ()
        plain = [c for c in meld if not self.wild_capable[c]]
        if not plain:
            return ()
        s0, r0 = self._suit[plain[0]], self._rank[plain[0]]
        return tuple(c for c in meld if c != joker and self.wild_class.get(c) == cls
                     and self._suit[c] != s0 and self._rank[c] != r0)


class _Outer:
    """The round's facts, for a ``where`` filter that names them."""

    def __init__(self, players: int) -> None:
        self.facts = round_facts(players=players)

    def variable(self, name: str) -> int | bool:
        return self.facts[name]


class _Facts:
    """What a ``melds where ...`` filter asks of one meld."""

    __slots__ = ("kind", "naturals", "shape", "size", "suits", "wilds")

    def __init__(self, rs: Ruleset, meld: Multiset, best: Reading) -> None:
        self.kind = best.kind
        self.shape = rs.kinds[best.kind_index].shape.kind
        self.size = len(meld)
        self.suits = len({rs.deck.suit_of(c) for c in best.stands})
        self.wilds = best.wilds
        self.naturals = best.naturals
