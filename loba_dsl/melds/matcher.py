"""Meld matching: is a multiset of cards a legal meld of a ruleset, and how.

The matcher interprets the compiled meld shapes of a ruleset (sets and runs,
size ranges, suit rules, ace modes, wild limits) over compact card codes.  A
card that may be wild but has a rank (a 2 where 2s are wild) is tried both as
itself and as a wild; a Joker is always wild.

Among all legal readings the best is chosen by a documented, deterministic
order (:func:`Reading.sort_key`): most points (where melds score), then most
natural cards, then the ruleset's order of meld kinds, then the reading that
keeps the cards in the order they were given, then the lowest run.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from loba_dsl.budget import BudgetLike, Clock, as_budget
from loba_dsl.cards.deck import Card, Deck
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.evaluate import compare

if TYPE_CHECKING:
    from dataclasses import dataclass

    from loba_dsl.melds.reason_words import ReasonWords
    from loba_dsl.rules.model import MeldKind, Ruleset
else:
    from loba_dsl.frozen import dataclass

_ACE_WORDS = {"low": "low only", "high": "high only", "either": "high or low, never both", "wrap": "round the corner"}

_CLOCK_FROM = 4
"""Melds with more cards that may be wild than this have their readings searched against a budget."""

HEAD = -1
"""Clause index of a shape's head (``set 3..4``): size, one rank, one suit, sequence."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One legal way to read cards as a meld."""

    kind: str
    kind_index: int
    order: tuple[int, ...]
    """Index in the input of the card at each meld position."""
    stands: tuple[Card, ...]
    """The card each meld position stands for."""
    wild: tuple[bool, ...]
    """Whether the card at each meld position is used as a wild."""
    points: int | None
    start: int = 0

    @property
    def naturals(self) -> int:
        return self.wild.count(False)

    @property
    def wilds(self) -> int:
        return self.wild.count(True)

    def inversions(self) -> int:
        o = self.order
        return sum(1 for i in range(len(o)) for j in range(i + 1, len(o)) if o[i] > o[j])

    def sort_key(self) -> tuple[int, int, int, int, int]:
        """Smaller is better."""
        return (-(self.points or 0), -self.naturals, self.kind_index, self.inversions(), self.start)


@dataclass(frozen=True, slots=True)
class Failure:
    """Why cards are not a meld of one kind: the clause that fails.

    The words are built only when asked for (:meth:`message`): matching is a
    hot path and most failures are never shown.
    """

    kind: str
    kind_index: int
    clause: int
    template: str
    """``str.format`` template: ``{cards}`` is the card list, ``{0}``... the values."""
    cards: tuple[Card, ...] = ()
    values: tuple[object, ...] = ()
    structural: bool = False
    """A failure of the meld's structure (rank, suit, sequence), not of a limit."""

    def message(self, names: Sequence[str], words: ReasonWords | None = None) -> str:
        """The reason in words: English, or in the language of ``words``."""
        cards = " ".join(map(names.__getitem__, self.cards))
        if words is None:
            return self.template.format(*self.values, cards=cards)
        return words.template(self.template).format(*map(words.value, self.values), cards=cards)


class Outcome:
    """All that matching found: the best reading, or every reason per kind.

    Immutable.  The reasons of an illegal meld that the tables rejected
    (:meth:`Matcher.match`) are worked out by the general matcher the first
    time :attr:`failures` is read: a caller asking only for the verdict never
    pays for them, and the ones it gets are those of :meth:`Matcher.match_general`.
    """

    __slots__ = ("_failures", "_later", "best")

    best: Reading | None
    _failures: tuple[Failure, ...]
    _later: tuple[Matcher, tuple[Card, ...], tuple[CompiledShape, ...], bool] | None

    def __init__(self, best: Reading | None, failures: tuple[Failure, ...] = (),
                 later: tuple[Matcher, tuple[Card, ...], tuple[CompiledShape, ...], bool] | None = None) -> None:
        set_ = object.__setattr__
        set_(self, "best", best)
        set_(self, "_failures", failures)
        set_(self, "_later", later)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Outcome is immutable: cannot assign to {name!r}")

    @property
    def valid(self) -> bool:
        return self.best is not None

    @property
    def failures(self) -> tuple[Failure, ...]:
        later = self._later
        if later is not None:
            matcher, cards, specs, explain = later
            object.__setattr__(self, "_failures", matcher.rejected_failures(cards, specs, explain))
            object.__setattr__(self, "_later", None)
        return self._failures

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return self.best == other.best and self.failures == other.failures

    def __hash__(self) -> int:
        return hash((self.best, self.failures))

    def __repr__(self) -> str:
        return f"Outcome(best={self.best!r}, failures={self.failures!r})"

    def __reduce__(self) -> tuple[type[Outcome], tuple[Reading | None, tuple[Failure, ...]]]:
        return Outcome, (self.best, self.failures)


@dataclass(frozen=True, slots=True)
class CompiledShape:
    """A meld kind's shape reduced to what the hot loops need (the matcher's and the solver's candidates)."""

    index: int
    name: str
    run: bool
    lo: int
    hi: int
    distinct: int | None
    no_wilds: int | None
    apart: int | None
    ace: str
    ace_clause: int | None
    suit_limits: tuple[tuple[str, int, int], ...]
    limits: tuple[tuple[str, str, int, int], ...]


def _spec(index: int, kind: MeldKind, deck: Deck) -> CompiledShape:
    distinct = no_wilds = apart = ace_clause = None
    ace = "low"
    suit_limits: list[tuple[str, int, int]] = []
    limits: list[tuple[str, str, int, int]] = []
    for i, c in enumerate(kind.shape.clauses):
        match c:
            case A.SuitsDistinct():
                distinct = i
            case A.NoWilds():
                no_wilds = i
            case A.WildsApart():
                apart = i
            case A.Ace(mode=mode):
                ace, ace_clause = mode, i
            case A.Limit(counter="suits", op=op, value=v):
                suit_limits.append((op, v, i))
            case A.Limit(counter=counter, op=op, value=v):
                if counter == "wilds" and ((op in ("==", "<=") and v == 0) or (op == "<" and v == 1)):
                    no_wilds = i
                else:
                    limits.append((counter, op, v, i))
    hi = kind.shape.max_size if kind.shape.max_size is not None else deck.n_ranks if kind.is_run else 10**6
    return CompiledShape(index, kind.name, kind.is_run, kind.shape.min_size, hi, distinct, no_wilds, apart, ace,
                 ace_clause, tuple(suit_limits), tuple(limits))


_W = 4
"""Bits per field of a packed meld summary (:class:`MeldTables`)."""

PACK_MAX = (1 << _W) - 1
"""Melds of more cards than this skip the tables (a field could overflow) and go to the general matcher."""


@dataclass(frozen=True, slots=True)
class ShapeTable:
    """One kind's cheap necessary conditions for a reading, compiled from its shape.

    ``counts[plain | forced << 4 | ambiguous << 8]`` is 1 when some split of
    the cards that may be wild into wild and natural passes the kind's size
    bounds, its wild rule and its limits (and, for a set with distinct suits,
    has no more cards than suits).
    """

    shape: CompiledShape
    counts: bytes
    span: bool
    """A run with the ace low (or no ace): its naturals lie within as many consecutive ranks as it has cards."""


@dataclass(frozen=True, slots=True)
class MeldTables:
    """A ruleset's meld tables: per card a packed summary, per kind its necessary conditions.

    A meld's summary is the sum of its cards' ``packed`` numbers: 4-bit fields
    counting its plain naturals, its cards that are always wild, those that may
    be wild, then the plain naturals of each rank and of each suit.  Built from
    the ruleset's deck, wild cards and shapes alone, once per matcher; its size
    is fixed by the deck (a number per card code, 4,096 bytes per kind).
    """

    packed: tuple[int, ...]
    natural: tuple[bool, ...]
    """Per card code: plainly natural (neither always nor maybe wild)."""
    shapes: tuple[ShapeTable, ...]
    rank_shift: int
    rank_mask: int
    rank_high: int
    """The bits of every rank field above its lowest: set when a rank is held twice."""
    suit_shift: int
    suit_mask: int
    suit_high: int


def _counts_ok(k: CompiledShape, plain: int, forced: int, ambiguous: int, n_suits: int) -> bool:
    n = plain + forced + ambiguous
    if not k.lo <= n <= k.hi or (k.distinct is not None and not k.run and n > n_suits):
        return False
    for wilds in range(forced, forced + ambiguous + 1):
        if wilds and k.no_wilds is not None:
            continue
        got = {"wilds": wilds, "naturals": n - wilds, "size": n}
        if all(compare(op, got.get(counter, 0), v) for counter, op, v, _ in k.limits):
            return True
    return False


def build_tables(specs: Sequence[CompiledShape], deck: Deck, always_wild: Sequence[bool],
                 maybe_wild: Sequence[bool]) -> MeldTables:
    """The meld tables of a ruleset's compiled shapes (see :class:`MeldTables`)."""
    S, R = deck.n_suits, deck.n_ranks
    rank_shift, suit_shift = 3 * _W, (3 + R) * _W
    packed = []
    for c in range(deck.n_codes):
        if always_wild[c]:
            packed.append(1 << _W)
        elif maybe_wild[c]:
            packed.append(1 << 2 * _W)
        else:
            packed.append(1 | 1 << (rank_shift + _W * (c // S)) | 1 << (suit_shift + _W * (c % S)))
    shapes = []
    for k in specs:
        counts = bytearray(1 << 3 * _W)  # 0 wherever the cards are too few or too many for the kind
        for forced in range(min(PACK_MAX, k.hi) + 1):
            for ambiguous in range(min(PACK_MAX, k.hi - forced) + 1):
                for plain in range(max(0, k.lo - forced - ambiguous), min(PACK_MAX, k.hi - forced - ambiguous) + 1):
                    if _counts_ok(k, plain, forced, ambiguous, S):
                        counts[plain | forced << _W | ambiguous << 2 * _W] = 1
        span = k.run and (k.ace == "low" or (deck.ace is None and k.ace != "wrap"))
        shapes.append(ShapeTable(k, bytes(counts), span))
    field_high = PACK_MAX - 1
    natural = tuple(not (always_wild[c] or maybe_wild[c]) for c in range(deck.n_codes))
    return MeldTables(
        tuple(packed), natural, tuple(shapes),
        rank_shift, (1 << R * _W) - 1, sum(field_high << _W * r for r in range(R)),
        suit_shift, (1 << S * _W) - 1, sum(field_high << _W * s for s in range(S)))


class Matcher:
    """Matches card codes against the meld kinds of one ruleset."""

    def __init__(self, ruleset: Ruleset, table: str | None = None, *, scored: bool = True) -> None:
        deck = ruleset.deck
        self.ruleset = ruleset
        self.deck = deck
        self.kinds = ruleset.kinds
        self.specs = tuple(_spec(i, k, deck) for i, k in enumerate(ruleset.kinds))
        self.S = deck.n_suits
        self.R = deck.n_ranks
        self.joker = deck.joker_code
        n = deck.n_codes
        wilds = ruleset.wilds.cards
        self.always_wild = tuple(c == self.joker or (c in wilds and not ruleset.wilds.natural_too) for c in range(n))
        self.maybe_wild = tuple(c in wilds and not self.always_wild[c] for c in range(n))
        self.rank = tuple(c // self.S if c != self.joker else -1 for c in range(n))
        self.suit = tuple(c % self.S if c != self.joker else -1 for c in range(n))
        table = table or ruleset.scoring.meld_points
        self.values = ruleset.meld_values.get(table) if table is not None and scored else None
        self.names = deck.names
        # Wild cards that score alike in every position of every kind: which goes where never matters.
        as_wild: dict[Card, list[tuple[tuple[int, int, bool], int]]] = {}
        for key, v in (self.values or {}).items():
            if key[2]:
                as_wild.setdefault(key[1], []).append(((key[0], key[3], key[4]), v))
        signature: dict[tuple[tuple[tuple[int, int, bool], int], ...], int] = {}
        self.wild_value_class = tuple(signature.setdefault(tuple(sorted(as_wild.get(c, ()))), c) for c in range(n))
        self._plain_cache: dict[int, tuple[tuple[int, ...], tuple[bool, ...]]] = {}
        self._fixed_failures: dict[tuple[int, int, int], tuple[tuple[Failure, ...], tuple[Failure, ...]]] = {}
        self.tables = build_tables(self.specs, deck, self.always_wild, self.maybe_wild)

    # ------------------------------------------------------------ public

    def match_kind(self, cards: Sequence[Card], kind: str) -> Reading | None:
        """The best reading of ``cards`` as a meld of one kind, or ``None``."""
        specs = tuple(s for s in self.specs if s.name == kind)
        return self.match(cards, specs).best

    def match(self, cards: Sequence[Card], specs: tuple[CompiledShape, ...] | None = None, *,
              reasons: bool = True, budget: BudgetLike | Clock = None) -> Outcome:
        """The best legal reading of ``cards`` as one meld, or why there is none.

        With ``reasons=False`` matching gives up on a kind at its first failed
        clause and an illegal meld comes back without failures: the fast path
        for callers that expect legal melds (scoring, the solver).

        Cards that may be wild or natural are tried both ways, which for many
        such cards is a search: it obeys ``budget`` (a :class:`~loba_dsl.budget.Budget`,
        seconds, a running :class:`~loba_dsl.budget.Clock` of a caller's search,
        or ``None`` for the default) and raises :class:`~loba_dsl.errors.BudgetExceeded`
        when it runs out.  Wilds that score alike are never permuted.
        """
        specs = self.specs if specs is None else specs
        cards = tuple(cards)
        if len(cards) <= PACK_MAX:
            x = sum(map(self.tables.packed.__getitem__, cards))
            possible = self._possible(x, len(cards), specs)
            if possible is not None:
                if not possible:  # no kind can read it: the reasons are worked out if asked for
                    return Outcome(None, (), (self, cards, specs, reasons))
                if not x >> 2 * _W & PACK_MAX:  # no card that may be wild or natural
                    best = self._read_plain(cards, possible)
                    if best is not None:
                        return Outcome(best, ())
        return self._match(cards, specs, reasons, budget)

    def match_general(self, cards: Sequence[Card], specs: tuple[CompiledShape, ...] | None = None, *,
                      reasons: bool = True, budget: BudgetLike | Clock = None) -> Outcome:
        """:meth:`match` without the tables: the general matcher, every reason worked out now.

        The reference the tables are tested against (tests/melds/test_meld_tables.py).
        """
        specs = self.specs if specs is None else specs
        return self._match(tuple(cards), specs, reasons, budget)

    def rejected_failures(self, cards: tuple[Card, ...], specs: tuple[CompiledShape, ...],
                          explain: bool) -> tuple[Failure, ...]:
        """The reasons :meth:`match_general` gives for a meld that no kind of ``specs`` reads.

        Without cards that may be wild or natural the first clauses' failures
        (size, wilds, rank, suits, limits) are built straight from the cards;
        a kind that passes them all, and any meld with such cards, is asked of
        the general matcher.
        """
        t = self.tables
        x = sum(map(t.packed.__getitem__, cards))
        if x >> 2 * _W & PACK_MAX or len(cards) > PACK_MAX:  # cards that may be wild: the general matcher
            return self.match_general(cards, specs, reasons=explain).failures
        always = self.always_wild
        ranks = (x >> t.rank_shift) & t.rank_mask
        suits = (x >> t.suit_shift) & t.suit_mask
        n, n_nat = len(cards), x & PACK_MAX
        n_wild = n - n_nat
        naturals = tuple(itertools.compress(cards, map(t.natural.__getitem__, cards))) if n_wild else cards
        wilds = tuple(itertools.compress(cards, map(always.__getitem__, cards))) if n_wild else ()
        fixed = self._fixed_failures
        per_kind: dict[int, list[Failure]] = {}
        for k in specs:
            key = (k.index, n, n_nat)
            head = fixed.get(key)
            if head is None:
                head = fixed[key] = self._count_failures(k, n, n_nat, n_wild)
            size, limits = head
            fails = list(size)
            if wilds and k.no_wilds is not None:
                fails.append(Failure(k.name, k.index, k.no_wilds, "allows no wild cards, but {cards} would be wild",
                                     wilds))
            if not (fails and not explain):
                if k.run:
                    if suits and suits >> ((((suits & -suits).bit_length() - 1) | 3) + 1):
                        fails.append(Failure(k.name, k.index, HEAD, "needs cards of one suit, but has {cards}",
                                             naturals, structural=True))
                    if not (fails and not explain):
                        if ranks & t.rank_high:
                            fails.append(self._twice(k, naturals, ranks, True))
                        fails.extend(limits)
                elif self._set_head(k, naturals, n, n_wild, ranks, suits, explain, fails):
                    fails.extend(limits)
            if not fails:  # a kind the first clauses allow: the general matcher finds why it fails
                nat = [i for i, c in enumerate(cards) if not always[c]]
                wild = [i for i, c in enumerate(cards) if always[c]]
                if k.run:
                    fails, readings = self._run(k, cards, nat, wild, explain)
                else:
                    fails, readings = self._set(k, cards, nat, wild, explain)
                if readings:  # not rejected after all (cannot happen: the tables are necessary conditions)
                    return self.match_general(cards, specs, reasons=explain).failures
            per_kind[k.index] = fails
        return tuple(f for i in sorted(per_kind) for f in per_kind[i])

    def _count_failures(self, k: CompiledShape, n: int, n_nat: int,
                        n_wild: int) -> tuple[tuple[Failure, ...], tuple[Failure, ...]]:
        """A kind's failures that depend only on the counts: of its size, and of its limits."""
        size = () if k.lo <= n <= k.hi else (self._size_failure(k, n),)
        limits: list[Failure] = []
        self._limits(k, n, n_nat, n_wild, limits)
        return size, tuple(limits)

    def _twice(self, k: CompiledShape, naturals: tuple[Card, ...], fields: int, by_rank: bool) -> Failure:
        """The failure of a rank (run) or a suit (set with distinct suits) held twice.

        The first natural whose rank (suit) is held twice names it, and every
        natural of it is listed; ``fields`` is the packed count per rank (suit).
        """
        of = self.rank if by_rank else self.suit
        twice = next(of[c] for c in naturals if (fields >> _W * of[c]) & PACK_MAX > 1)
        same = tuple(c for c in naturals if of[c] == twice)
        if by_rank:
            return Failure(k.name, k.index, HEAD, "cannot hold one rank twice ({cards})", same, structural=True)
        assert k.distinct is not None
        return Failure(k.name, k.index, k.distinct, "needs every suit different, but {cards} share a suit", same,
                       structural=True)

    def _set_head(self, k: CompiledShape, naturals: tuple[Card, ...], n: int, n_wild: int, ranks: int, suits: int,
                  explain: bool, fails: list[Failure]) -> bool:
        """:meth:`_set`'s rank and suit clauses, from the packed summary: whether its limits are checked next."""
        t = self.tables
        if ranks and ranks >> ((((ranks & -ranks).bit_length() - 1) | 3) + 1):
            fails.append(Failure(k.name, k.index, HEAD, "needs cards of one rank, but has {cards}",
                                 naturals, structural=True))
            if not explain:
                return False
        if k.distinct is None and not k.suit_limits:
            return True
        d = len({self.suit[c] for c in naturals})
        if k.distinct is not None:
            if suits & t.suit_high:
                fails.append(self._twice(k, naturals, suits, False))
            elif n > self.S:
                fails.append(Failure(k.name, k.index, k.distinct, "has {0} cards but only {1} suits",
                                     values=(n, self.S), structural=True))
        if k.suit_limits:
            self._suit_limits(k, d, n, n_wild, fails)
        return True

    def _possible(self, x: int, n: int, specs: tuple[CompiledShape, ...]) -> list[CompiledShape] | None:
        """The kinds of ``specs`` that the tables cannot rule out for a meld of ``n`` cards summing to ``x``.

        Each kind's necessary conditions: its counts (size, wilds, limits), and
        among the plain naturals one rank (a set; distinct suits where the set
        needs them) or one suit, no rank twice and a short enough span (a run).
        ``None`` when the tables do not judge: melds whose general reading runs
        a clock (so reading their reasons later would obey no budget), or a
        shape of another matcher.
        """
        t = self.tables
        idx = x & 0xFFF  # the three count fields (4 bits each: ``| 3`` and ``>> 2`` below find a field's end, index)
        if ((idx >> _W) & PACK_MAX) + (idx >> 2 * _W) > _CLOCK_FROM:
            return None
        ranks = (x >> t.rank_shift) & t.rank_mask
        suits = (x >> t.suit_shift) & t.suit_mask
        shapes = t.shapes
        out = []
        for spec in specs:
            st = shapes[spec.index]
            if st.shape is not spec:
                return None
            if not st.counts[idx]:
                continue
            if spec.run:
                if suits and suits >> ((((suits & -suits).bit_length() - 1) | 3) + 1):
                    continue  # two suits
                if ranks & t.rank_high:
                    continue  # a rank twice
                if st.span and ranks and (
                        ((ranks.bit_length() - 1) >> 2) - (((ranks & -ranks).bit_length() - 1) >> 2) >= n):
                    continue  # too far apart for a run of this size
            else:
                if ranks and ranks >> ((((ranks & -ranks).bit_length() - 1) | 3) + 1):
                    continue  # two ranks
                if spec.distinct is not None and suits & t.suit_high:
                    continue  # a suit twice
            out.append(spec)
        return out

    def _read_plain(self, cards: tuple[Card, ...], specs: list[CompiledShape]) -> Reading | None:
        """:meth:`_match`'s best reading when no card may be both wild and natural, over the kinds not ruled out."""
        always = self.always_wild
        nat = [i for i, c in enumerate(cards) if not always[c]]
        wild = [i for i, c in enumerate(cards) if always[c]]
        best: Reading | None = None
        scored = self.values is not None
        for spec in specs:
            if spec.run:
                fails, readings = self._run(spec, cards, nat, wild, False)
            else:
                fails, readings = self._set(spec, cards, nat, wild, False)
            if fails:
                continue
            for r in readings:
                if best is None or _better(r, best):
                    best = r
            if best is not None and not scored:
                break
        return best

    def layout_readings(self, cards: Sequence[Card], *, budget: BudgetLike | Clock = None) -> tuple[Reading, ...]:
        """Every reading of ``cards`` that some layout of them makes the best (none if they are no meld).

        The best reading has the most points, then naturals, then the earliest kind;
        the order the cards are laid out in breaks only the ties left (the fewest
        inversions of the layout, then the lowest start), so the readings a player
        can choose by the layout are those ties: ``2♠ 3♠ 4♠ JOKER`` and ``JOKER 2♠ 3♠
        4♠`` read the Joker as the 5 and as the A.  Laid out in a reading's own order
        (``cards[i] for i in reading.order``), the cards are read that way or as a tie
        of it that the same layout prefers.
        """
        cards = tuple(cards)
        ties: list[Reading] = []
        best = self._match(cards, self.specs, False, budget, ties).best
        if best is None:
            return ()
        top = (best.points or 0, best.naturals, best.kind_index)
        return tuple(r for r in ties if (r.points or 0, r.naturals, r.kind_index) == top)

    def _match(self, cards: tuple[Card, ...], specs: tuple[CompiledShape, ...], explain: bool,
               budget: BudgetLike | Clock = None, ties: list[Reading] | None = None) -> Outcome:
        """The general matcher; every legal reading it weighs is also added to ``ties``, if given."""
        always, maybe = self.always_wild, self.maybe_wild
        forced: list[int] = []
        ambiguous: list[int] = []
        plain: list[int] = []
        for i, c in enumerate(cards):
            (forced if always[c] else ambiguous if maybe[c] else plain).append(i)
        best: Reading | None = None
        per_kind: dict[int, list[Failure]] = {}
        scored = self.values is not None
        clock: Clock | None = None
        if len(forced) + len(ambiguous) > _CLOCK_FROM:  # only many wilds make a search worth timing
            clock = budget if isinstance(budget, Clock) else as_budget(budget).start("reading the wild cards")
        if not ambiguous:  # the common case: every card is plainly natural or plainly wild
            for spec in specs:
                if spec.run:
                    fails, readings = self._run(spec, cards, plain, forced, explain, clock)
                else:
                    fails, readings = self._set(spec, cards, plain, forced, explain)
                if fails:
                    per_kind[spec.index] = fails
                    continue
                if ties is not None:
                    ties.extend(readings)
                for r in readings:
                    if best is None or _better(r, best):
                        best = r
                if best is not None and not scored:
                    break  # the roles are fixed: a later kind can only lose on the kind order
            if best is not None:
                return Outcome(best, ())
            return Outcome(None, tuple(f for i in sorted(per_kind) for f in per_kind[i]))
        for spec in specs:
            # A card that may be wild can be natural here only beside the plain naturals:
            # in their suit for a run, of their rank for a set.  The others must be wild.
            can = ambiguous
            if plain and ambiguous:
                if spec.run:
                    s0 = self.suit[cards[plain[0]]]
                    can = [i for i in ambiguous if self.suit[cards[i]] == s0]
                else:
                    r0 = self.rank[cards[plain[0]]]
                    can = [i for i in ambiguous if self.rank[cards[i]] == r0]
            must = forced if len(can) == len(ambiguous) else sorted((*forced, *(i for i in ambiguous if i not in can)))
            for extra in range(len(can) + 1):
                found = False
                for chosen in itertools.combinations(can, extra) if can else ((),):
                    if chosen or len(must) != len(forced) or can:
                        wild_idx = sorted((*must, *chosen))
                        nat_idx = [i for i in range(len(cards)) if i not in wild_idx]
                    else:
                        wild_idx, nat_idx = forced, plain
                    if best is not None and not scored and (len(nat_idx), -spec.index) < (
                            best.naturals, -best.kind_index):
                        continue
                    if clock is not None:
                        clock.tick()
                    if spec.run:
                        fails, readings = self._run(spec, cards, nat_idx, wild_idx, explain, clock)
                    else:
                        fails, readings = self._set(spec, cards, nat_idx, wild_idx, explain)
                    if fails:
                        prev = per_kind.get(spec.index)
                        if prev is None or _badness(fails) < _badness(prev):
                            per_kind[spec.index] = fails
                        continue
                    found = True
                    if ties is not None:
                        ties.extend(readings)
                    for r in readings:
                        if best is None or _better(r, best):
                            best = r
                if found and not scored:
                    break  # more wilds only means fewer naturals
        if best is not None:
            return Outcome(best, ())
        failures = tuple(f for i in sorted(per_kind) for f in per_kind[i])
        return Outcome(None, failures)

    def is_meld(self, cards: Sequence[Card]) -> bool:
        return self.match(cards).valid

    # ------------------------------------------------------------ sets

    def _natural_set(self, k: CompiledShape, cards: tuple[Card, ...]) -> Reading | None:
        """Fast path: all cards natural and the set legal (else ``None``: the general path explains)."""
        n = len(cards)
        rank = self.rank
        if not n:
            return None
        r0 = rank[cards[0]]
        if not k.lo <= n <= k.hi or any(rank[c] != r0 for c in cards):
            return None
        d = len({self.suit[c] for c in cards})
        if k.distinct is not None and d != n:
            return None
        for op, v, _ in k.suit_limits:
            if not compare(op, d, v):
                return None
        for counter, op, v, _ in k.limits:
            if not compare(op, 0 if counter == "wilds" else n, v):
                return None
        order, falses = self._plain(n)
        points = self._points(k, cards, order, cards, falses, falses) if self.values is not None else None
        return Reading(k.name, k.index, order, cards, falses, points, r0)

    def _natural_run(self, k: CompiledShape, cards: tuple[Card, ...]) -> Reading | None:
        """Fast path: all cards natural, ace not wrapping, and the run legal (else ``None``)."""
        n = len(cards)
        if not n or not k.lo <= n <= k.hi or k.ace == "wrap":
            return None
        suit = self.suit
        s0 = suit[cards[0]]
        if any(suit[c] != s0 for c in cards):
            return None
        for counter, op, v, _ in k.limits:
            if not compare(op, 0 if counter == "wilds" else n, v):
                return None
        rank, ace, R = self.rank, self.deck.ace, self.R
        for high in self._ace_options(k.ace):
            pos = sorted((R if (high and rank[c] == ace) else rank[c], i) for i, c in enumerate(cards))
            lo = pos[0][0]
            if pos[-1][0] - lo != n - 1 or len({p for p, _ in pos}) != n:
                continue
            if high and ace == 0 and lo == 0:
                continue
            order = tuple(i for _, i in pos)
            stands = tuple(cards[i] for i in order)
            _, falses = self._plain(n)
            highs = tuple(p == R for p, _ in pos)
            points = self._points(k, cards, order, stands, falses, highs) if self.values is not None else None
            return Reading(k.name, k.index, order, stands, falses, points, lo)
        return None

    def _size_and_wilds(self, k: CompiledShape, cards: tuple[Card, ...], wild: list[int]) -> list[Failure]:
        """The clauses every kind checks first: its size, and whether it takes wild cards at all."""
        fails = []
        if not k.lo <= len(cards) <= k.hi:
            fails.append(self._size_failure(k, len(cards)))
        if wild and k.no_wilds is not None:
            fails.append(Failure(k.name, k.index, k.no_wilds, "allows no wild cards, but {cards} would be wild",
                                 tuple(cards[i] for i in wild)))
        return fails

    def _plain(self, n: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        cached = self._plain_cache.get(n)
        if cached is None:
            cached = self._plain_cache[n] = (tuple(range(n)), (False,) * n)
        return cached

    def _set(self, k: CompiledShape, cards: tuple[Card, ...], nat: list[int], wild: list[int],
             explain: bool = True) -> tuple[list[Failure], list[Reading]]:
        if not wild:
            quick = self._natural_set(k, cards)
            if quick is not None:
                return [], [quick]
        n = len(cards)
        fails = self._size_and_wilds(k, cards, wild)
        if fails and not explain:
            return fails, []
        rank, suit = self.rank, self.suit
        ranks = {rank[cards[i]] for i in nat}
        if len(ranks) > 1:
            fails.append(Failure(k.name, k.index, HEAD, "needs cards of one rank, but has {cards}",
                                 tuple(cards[i] for i in nat), structural=True))
        if fails and not explain:
            return fails, []
        nat_suits = [suit[cards[i]] for i in nat]
        d = len(set(nat_suits))
        if k.distinct is not None:
            if d < len(nat_suits):
                twice = next(s for s in nat_suits if nat_suits.count(s) > 1)
                same = [i for i in nat if suit[cards[i]] == twice]
                fails.append(Failure(k.name, k.index, k.distinct,
                                     "needs every suit different, but {cards} share a suit",
                                     tuple(cards[i] for i in same), structural=True))
            elif n > self.S:
                fails.append(Failure(k.name, k.index, k.distinct, "has {0} cards but only {1} suits",
                                     values=(n, self.S), structural=True))
        lo_d, hi_d = self._suit_limits(k, d, n, len(wild), fails)
        self._limits(k, n, len(nat), len(wild), fails)
        if fails:
            return fails, []
        # Readings: the wilds take the missing suits first, as the suit rules need.
        target = lo_d
        for op, v, _ in k.suit_limits:
            target = next(x for x in range(lo_d, hi_d + 1) if compare(op, x, v))
        if k.distinct is not None:
            target = n
        used = list(dict.fromkeys(nat_suits))
        missing = [s for s in range(self.S) if s not in used]
        wild_suits = []
        for j in range(len(wild)):
            if len(used) + j < target and missing:
                wild_suits.append(missing.pop(0))
            else:
                wild_suits.append(used[0] if used else (wild_suits[0] if wild_suits else 0))
        out = []
        candidate_ranks = sorted(ranks) if ranks else list(range(self.R))
        for r in candidate_ranks:
            stands = list(cards)
            flags = [False] * n
            for j, i in enumerate(wild):
                stands[i] = self.deck.code(r, wild_suits[j])
                flags[i] = True
            points = self._points(k, cards, range(n), stands, flags, [False] * n)
            out.append(Reading(k.name, k.index, tuple(range(n)), tuple(stands), tuple(flags), points, r))
        return [], out

    # ------------------------------------------------------------ runs

    def _run(self, k: CompiledShape, cards: tuple[Card, ...], nat: list[int], wild: list[int],
             explain: bool = True, clock: Clock | None = None) -> tuple[list[Failure], list[Reading]]:
        if not wild:
            quick = self._natural_run(k, cards)
            if quick is not None:
                return [], [quick]
        n = len(cards)
        fails = self._size_and_wilds(k, cards, wild)
        if fails and not explain:
            return fails, []
        suit, rank = self.suit, self.rank
        suits = {suit[cards[i]] for i in nat}
        if len(suits) > 1:
            fails.append(Failure(k.name, k.index, HEAD, "needs cards of one suit, but has {cards}",
                                 tuple(cards[i] for i in nat), structural=True))
        if fails and not explain:
            return fails, []
        nat_ranks = [rank[cards[i]] for i in nat]
        if len(set(nat_ranks)) < len(nat_ranks):
            twice = next(r for r in nat_ranks if nat_ranks.count(r) > 1)
            same = [i for i in nat if rank[cards[i]] == twice]
            fails.append(Failure(k.name, k.index, HEAD, "cannot hold one rank twice ({cards})",
                                 tuple(cards[i] for i in same), structural=True))
        self._limits(k, n, len(nat), len(wild), fails)
        if fails:
            return fails, []
        out: list[Reading] = []
        apart_blocked = False
        run_suit = next(iter(suits)) if suits else 0
        # With points to maximise and wilds that all score alike, price each window first and
        # build readings only for the best-priced ones (the others cannot be chosen).
        pricing = self.values is not None and len({self.wild_value_class[cards[i]] for i in wild}) <= 1
        windows: list[tuple[int, bool, int, dict[int, int], list[int]]] = []
        for high in self._ace_options(k.ace):
            for start, positions in self._windows(k.ace, high, n, [nat_ranks[j] for j in range(len(nat))]):
                wild_pos = [q for q in range(n) if q not in positions]
                if k.apart is not None and any(b - a == 1 for a, b in itertools.pairwise(wild_pos)):
                    apart_blocked = True
                    continue
                price = self._price(k, cards, nat, wild, positions, wild_pos, start, high) if pricing else 0
                windows.append((price, high, start, positions, wild_pos))
        top = max((w[0] for w in windows), default=0)
        for price, high, start, positions, wild_pos in windows:
            if price == top:
                out.extend(self._run_readings(k, cards, nat, wild, positions, wild_pos, start, high, run_suit, clock))
        if out:
            return [], out
        if apart_blocked and k.apart is not None:
            return [Failure(k.name, k.index, k.apart, "would need two wild cards side by side")], []
        if not explain:  # the caller wants no words: skip working out which ace rule is to blame
            return [Failure(k.name, k.index, HEAD, "is not a sequence", structural=True)], []
        return [self._sequence_failure(k, cards, nat, n)], []

    def _price(self, k: CompiledShape, cards: tuple[Card, ...], nat: list[int], wild: list[int], placed: dict[int, int],
               wild_pos: list[int], start: int, high: bool) -> int:
        """Points of a run window (wilds all scoring alike), without building the reading."""
        values = self.values
        assert values is not None
        R, ace, rank = self.R, self.deck.ace, self.rank
        total = 0
        for j in placed.values():
            c = cards[nat[j]]
            total += values[(k.index, c, False, rank[c], high and rank[c] == ace)]
        if wild:
            w = cards[wild[0]]
            wrap = k.ace == "wrap"
            for q in wild_pos:
                p = (start + q) % R if wrap else start + q
                r = ace if (p == R and ace is not None) else p
                total += values[(k.index, w, True, r, p == R)]
        return total

    def _ace_options(self, mode: str) -> tuple[bool, ...]:
        if self.deck.ace is None:
            return (False,)
        return {"low": (False,), "high": (True,), "either": (False, True), "wrap": (False,)}[mode]

    def _windows(self, mode: str, high: bool, n: int, ranks: list[int]) -> list[tuple[int, dict[int, int]]]:
        """Every window of ``n`` consecutive positions holding all natural ranks.

        Returns ``(start, {offset in window: natural's index in ranks})``.
        """
        R = self.R
        ace = self.deck.ace
        out: list[tuple[int, dict[int, int]]] = []
        if mode == "wrap":
            if n > R:
                return out
            for s in range(R):
                placed = {(r - s) % R: j for j, r in enumerate(ranks)}
                if all(q < n for q in placed):
                    out.append((s, placed))
            return out
        # Linear positions: the ace sits at its index (low) or one past the top (high).
        pos = [R if (high and r == ace) else r for r in ranks]
        lo_bound = 1 if (high and ace == 0) else 0
        hi_bound = R if high else R - 1
        if n > hi_bound - lo_bound + 1:
            return out
        first = max(lo_bound, (max(pos) - n + 1) if pos else lo_bound)
        last = min(hi_bound - n + 1, min(pos) if pos else hi_bound - n + 1)
        for s in range(first, last + 1):
            out.append((s, {p - s: j for j, p in enumerate(pos)}))
        return out

    def _run_readings(self, k: CompiledShape, cards: tuple[Card, ...], nat: list[int], wild: list[int],
                      placed: dict[int, int], wild_pos: list[int], start: int, high: bool,
                      run_suit: int, clock: Clock | None = None) -> list[Reading]:
        n = len(cards)
        R = self.R
        ace = self.deck.ace
        order = [0] * n
        stands = [0] * n
        flags = [False] * n
        highs = [False] * n
        for q, j in placed.items():
            i = nat[j]
            order[q] = i
            stands[q] = cards[i]
            highs[q] = high and self.rank[cards[i]] == ace
        for q in wild_pos:
            p = (start + q) % R if k.ace == "wrap" else start + q
            r = ace if (p == R and ace is not None) else p
            stands[q] = self.deck.code(r, run_suit)
            flags[q] = True
            highs[q] = p == R
        orders = self._wild_orders(k, cards, wild, wild_pos, stands, highs, order, clock)
        out = []
        for assignment in orders:
            for q, i in zip(wild_pos, assignment, strict=True):
                order[q] = i
            points = self._points(k, cards, order, stands, flags, highs)
            out.append(Reading(k.name, k.index, tuple(order), tuple(stands), tuple(flags), points, start))
        return out

    def _wild_orders(self, k: CompiledShape, cards: tuple[Card, ...], wild: list[int], wild_pos: list[int],
                     stands: list[Card], highs: list[bool], order: list[int],
                     clock: Clock | None = None) -> list[tuple[int, ...]]:
        """Which wild goes where: input order, unless wilds differ in value by position."""
        if self.values is None or len(wild) < 2 or len({cards[i] for i in wild}) < 2:
            return [tuple(wild)]
        values = self.values
        if all(self.wild_value_class[cards[i]] == self.wild_value_class[cards[wild[0]]] for i in wild):
            return [tuple(wild)]  # these wilds score alike wherever they stand
        signatures = {
            cards[i]: tuple(values.get((k.index, cards[i], True, self.rank[stands[q]], highs[q]), 0) for q in wild_pos)
            for i in wild
        }
        if len(set(signatures.values())) < 2:
            return [tuple(wild)]
        return [self._best_wild_order(wild, wild_pos, signatures, cards, order, clock)]

    def _best_wild_order(self, wild: list[int], wild_pos: list[int], signatures: dict[Card, tuple[int, ...]],
                         cards: tuple[Card, ...], order: list[int], clock: Clock | None) -> tuple[int, ...]:
        """The wild cards' order over ``wild_pos`` that the reading order prefers, found without permuting.

        Among every way to put the wilds in the wild positions, the best reading
        has the most points, then the fewest inversions of the input order, then
        comes first in lexicographic order of input indices (what trying every
        permutation in turn would keep).  Wilds of one value signature (alike:
        the same points in every wild position) are interchangeable for points,
        and swapping two of them into input order only removes inversions, so
        each class takes its cards in input order: a search over how many of
        each class are placed (memoised, polynomial) replaces the permutations.
        ``order`` holds the input index of each natural position.
        """
        by_sig: dict[tuple[int, ...], list[int]] = {}
        for i in sorted(wild):
            by_sig.setdefault(signatures[cards[i]], []).append(i)
        classes = list(by_sig.values())
        sigs = list(by_sig)
        m = len(wild_pos)
        wild_set = set(wild_pos)
        natural = [(q, order[q]) for q in range(len(order)) if q not in wild_set]
        # Inversions between a wild index i at wild position t and the naturals (fixed).
        against: list[dict[int, int]] = []
        for q in wild_pos:
            against.append({i: sum(1 for qq, j in natural if (qq < q and j > i) or (qq > q and j < i))
                            for i in wild})
        memo: dict[tuple[int, ...], tuple[int, int]] = {}

        def step_cost(state: tuple[int, ...], c: int) -> tuple[int, int]:
            t = sum(state)
            i = classes[c][state[c]]
            before = sum(1 for d, members in enumerate(classes) for j in members[:state[d]] if j > i)
            return -sigs[c][t], against[t][i] + before

        def best(state: tuple[int, ...]) -> tuple[int, int]:
            hit = memo.get(state)
            if hit is not None:
                return hit
            if clock is not None:
                clock.tick()
            if sum(state) == m:
                value = (0, 0)
            else:
                value = (1 << 60, 0)
                for c, members in enumerate(classes):
                    if state[c] < len(members):
                        p, inv = step_cost(state, c)
                        rp, rinv = best((*state[:c], state[c] + 1, *state[c + 1:]))
                        cand = (p + rp, inv + rinv)
                        if cand < value:
                            value = cand
            memo[state] = value
            return value

        state = (0,) * len(classes)
        goal = best(state)
        chosen: list[int] = []
        for _ in range(m):
            pick: tuple[int, int] | None = None  # (input index, class)
            for c, members in enumerate(classes):
                if state[c] < len(members):
                    p, inv = step_cost(state, c)
                    nxt = (*state[:c], state[c] + 1, *state[c + 1:])
                    rp, rinv = best(nxt)
                    if (p + rp, inv + rinv) == goal and (pick is None or members[state[c]] < pick[0]):
                        pick = (members[state[c]], c)
            assert pick is not None
            i, c = pick
            p, inv = step_cost(state, c)
            goal = (goal[0] - p, goal[1] - inv)
            chosen.append(i)
            state = (*state[:c], state[c] + 1, *state[c + 1:])
        return tuple(chosen)

    # ------------------------------------------------------------ shared

    def _points(self, k: CompiledShape, cards: tuple[Card, ...], order: Sequence[int], stands: Sequence[Card],
                flags: Sequence[bool], highs: Sequence[bool]) -> int | None:
        values = self.values
        if values is None:
            return None
        rank = self.rank
        total = 0
        for q, i in enumerate(order):
            total += values[(k.index, cards[i], flags[q], rank[stands[q]], highs[q])]
        return total

    def _suit_limits(self, k: CompiledShape, d: int, n: int, n_wild: int, fails: list[Failure]) -> tuple[int, int]:
        """The suits a set of ``n`` cards, ``d`` suits among its naturals and ``n_wild`` wilds, may show
        (least, most), and a failure for each suit limit that no count in that range meets."""
        lo_d = d if d else min(1, n)
        hi_d = min(d + n_wild, self.S) if k.distinct is None else min(n, self.S)
        if k.distinct is not None:
            lo_d = hi_d
        for op, v, ci in k.suit_limits:
            if not any(compare(op, x, v) for x in range(lo_d, hi_d + 1)):
                fails.append(Failure(k.name, k.index, ci, "needs suits {0} {1}, but has {2} suit(s)",
                                     values=(op, v, d), structural=True))
        return lo_d, hi_d

    def _limits(self, k: CompiledShape, n: int, naturals: int, wilds: int, fails: list[Failure]) -> None:
        for counter, op, v, ci in k.limits:
            got = {"wilds": wilds, "naturals": naturals, "size": n}.get(counter, 0)
            if not compare(op, got, v):
                fails.append(Failure(k.name, k.index, ci, "needs {0} {1} {2}, but has {3}",
                                     values=(counter, op, v, got)))

    def _size_failure(self, k: CompiledShape, n: int) -> Failure:
        if n < k.lo:
            return Failure(k.name, k.index, HEAD, "needs at least {0} cards, but has {1}", values=(k.lo, n))
        return Failure(k.name, k.index, HEAD, "has at most {0} cards, but has {1}", values=(k.hi, n))

    def _sequence_failure(self, k: CompiledShape, cards: tuple[Card, ...], nat: list[int], n: int) -> Failure:
        ranks = [self.rank[cards[i]] for i in nat]
        others = [m for m in ("low", "high", "either", "wrap") if m != k.ace]
        rescued = any(self._windows(m, h, n, ranks) for m in others for h in self._ace_options(m))
        listed = tuple(cards[i] for i in nat)
        if rescued and self.deck.ace is not None and self.deck.ace in ranks:
            clause = k.ace_clause if k.ace_clause is not None else HEAD
            return Failure(k.name, k.index, clause, "is not a sequence with the ace {0}: {cards}", listed,
                           (_ACE_WORDS[k.ace],), structural=True)
        return Failure(k.name, k.index, HEAD, "is not a sequence of {0} consecutive ranks: {cards}", listed, (n,),
                       structural=True)


def matcher_for(ruleset: Ruleset, table: str | None = None, *, scored: bool = True) -> Matcher:
    """The matcher of a ruleset whose readings maximise ``table`` (default: its meld points), built once.

    ``scored=False`` gives a matcher that only judges legality (no points: faster).
    """
    return ruleset.memo(("matcher", table, scored), _new_matcher, ruleset, table, scored)


def _new_matcher(ruleset: Ruleset, table: str | None, scored: bool) -> Matcher:
    return Matcher(ruleset, table, scored=scored)


def _better(r: Reading, than: Reading) -> bool:
    """``r`` comes before ``than`` in :meth:`Reading.sort_key` order (the costly part only on a tie)."""
    a = (-(r.points or 0), -r.naturals, r.kind_index)
    b = (-(than.points or 0), -than.naturals, than.kind_index)
    if a != b:
        return a < b
    return (r.inversions(), r.start) < (than.inversions(), than.start)


def _badness(fails: list[Failure]) -> tuple[int, int]:
    """Which way of reading the wilds failed least: structure first, then count."""
    return sum(1 for f in fails if f.structural), len(fails)
