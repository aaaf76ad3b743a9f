"""The witness search's state, the cards of both decks, and the searches that need no scoring.

:class:`CardPair` is the universe of cards of two rulesets, by name (a card only one deck has, copies
on each side, which cards may be wild), and enumerates the card multisets that may be melds.
:class:`MeldSearch` holds the state of one witness search (examples found per change, examples
tried, a cache of meld verdicts, how examples are chosen) and runs the searches on **cards** a deck
has and the other lacks, and on **melds** legal under one ruleset only (or legal as another kind).
:class:`loba_dsl.compare.witness.WitnessSearch` adds the searches that score or lay down and runs them
all; see :mod:`loba_dsl.compare.witness` for how examples are searched and chosen.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from loba_dsl.cards.deck import Card
from loba_dsl.compare.records import Budget, Change, Key, RulesDiff, Witness
from loba_dsl.dsl.canon import canonical_shape
from loba_dsl.melds.matcher import Matcher, Reading, matcher_for
from loba_dsl.rules.model import Ruleset

# ================================================================ the universe of cards


class GenerationLimit(Exception):
    """Enumerating candidate melds went past its bound (:class:`_Meter`); the search stops there."""


class _Meter:
    """Counts the card multisets an enumeration builds, and stops it at ``limit`` or at ``deadline``."""

    def __init__(self, limit: int, deadline: float | None) -> None:
        self.left = limit
        self.deadline = deadline

    def tick(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0 or (self.deadline is not None and self.left % 1024 == 0
                             and time.monotonic() > self.deadline):
            raise GenerationLimit


_FREE = _Meter(1 << 62, None)


class CardPair:
    """The cards of both decks, by name, with their codes and copies on each side."""

    def __init__(self, a: Ruleset, b: Ruleset) -> None:
        self.sides = (a, b)
        names: list[str] = []
        self.code: tuple[dict[str, Card], dict[str, Card]] = ({}, {})
        self.limit: tuple[dict[str, int], dict[str, int]] = ({}, {})
        for s, rs in enumerate((a, b)):
            deck = rs.deck
            for c in deck.all_codes():
                n = deck.name(c)
                if n not in self.code[0] and n not in self.code[1]:
                    names.append(n)
                self.code[s][n] = c
                self.limit[s][n] = deck.limit(c)
        self.names = names
        self.index = {n: i for i, n in enumerate(names)}
        self.cap = [max(self.limit[0].get(n, 0), self.limit[1].get(n, 0)) for n in names]
        self.common = [i for i, n in enumerate(names) if n in self.code[0] and n in self.code[1]]
        self.wild: list[frozenset[int]] = []
        for rs in (a, b):
            deck = rs.deck
            w = {self.index[deck.name(c)] for c in rs.wilds.cards if c in deck.all_codes()}
            if deck.jokers:
                w.add(self.index[deck.name(deck.joker_code)])
            self.wild.append(frozenset(w))
        self.any_wild = sorted(self.wild[0] | self.wild[1])

    def rank_suit(self, i: int) -> tuple[str, str] | None:
        n = self.names[i]
        for s, rs in enumerate(self.sides):
            c = self.code[s].get(n)
            if c is not None and c != rs.deck.joker_code:
                return rs.deck.ranks[rs.deck.rank_of(c)].key, rs.deck.suits[rs.deck.suit_of(c)].key
        return None

    def codes(self, s: int, idx: Sequence[int]) -> tuple[Card, ...] | str:
        """The codes of cards on side ``s``, or why that deck cannot hold them."""
        names = [self.names[i] for i in idx]
        missing = [n for n in names if n not in self.code[s]]
        if missing:
            return f"cannot: no {missing[0]} in its deck"
        for n, k in Counter(names).items():
            if k > self.limit[s][n]:
                return f"cannot: its deck has {self.limit[s][n]} {n}"
        return tuple(self.code[s][n] for n in names)

    def text(self, idx: Sequence[int]) -> str:
        return " ".join(self.names[i] for i in idx)

    def signature(self, idx: Sequence[int]) -> tuple[Any, ...]:
        """The cards up to a relabelling of suits (for diversity of the examples shown)."""
        pairs = [self.rank_suit(i) or (self.names[i], "") for i in idx]
        suits = sorted({s for _, s in pairs if s})
        best: tuple[Any, ...] | None = None
        for perm in itertools.permutations(range(len(suits))):
            m = dict(zip(suits, perm, strict=True))
            key = tuple(sorted((r, m.get(s, -1)) for r, s in pairs))
            if best is None or key < best:
                best = key
        return best or ()

    # -- candidate melds
    def groups(self, with_wilds: bool = False) -> list[tuple[bool, int, list[tuple[int, int]]]]:
        """Natural cards that can share a meld, per rank and per suit of each deck:
        ``(is_run, ranks in the deck, [(rank position, card)])``; cards that may be wild are left out
        unless ``with_wilds``."""
        wild = set() if with_wilds else set(self.any_wild)
        out: list[tuple[bool, int, list[tuple[int, int]]]] = []
        for rs in self.sides:
            deck = rs.deck
            for r in range(deck.n_ranks):
                cards = [(r, self.index[deck.name(deck.code(r, s))]) for s in range(deck.n_suits)]
                out.append((False, deck.n_ranks, [(p, i) for p, i in cards if i not in wild]))
            for s in range(deck.n_suits):
                cards = [(r, self.index[deck.name(deck.code(r, s))]) for r in range(deck.n_ranks)]
                out.append((True, deck.n_ranks, [(p, i) for p, i in cards if i not in wild]))
        return out

    def naturals(self, n: int, meter: _Meter = _FREE) -> list[tuple[int, ...]]:
        """Melds of ``n`` natural cards only: runs of consecutive ranks, sets of one rank.

        ``meter`` bounds the enumeration (:class:`GenerationLimit` past it)."""
        seen: set[tuple[int, ...]] = set()
        for is_run, n_ranks, group in self.groups(with_wilds=True):
            if is_run and n <= n_ranks:
                seen.update(_consecutive(group, n_ranks, n))
                meter.tick(n_ranks)
            elif not is_run:
                for m in _multisets([i for _, i in group], self.cap, n):
                    meter.tick()
                    seen.add(m)
        return sorted(seen)

    def candidates(self, n: int, only: set[int] | None = None, meter: _Meter = _FREE) -> list[tuple[int, ...]]:
        """Every multiset of ``n`` cards that may be a meld under either ruleset, in card order.

        ``meter`` bounds the enumeration (:class:`GenerationLimit` past it)."""
        wild = [i for i in self.any_wild if only is None or i in only]
        seen: set[tuple[int, ...]] = set()
        for is_run, n_ranks, group in self.groups():
            cards = [(p, i) for p, i in group if only is None or i in only]
            naturals: list[tuple[int, ...]] = []
            if is_run:
                for start in range(n_ranks):
                    window = [i for p, i in cards if (p - start) % n_ranks < n]
                    for k in range(1, min(n, len(window)) + 1):
                        for combo in itertools.combinations(window, k):
                            meter.tick()
                            naturals.append(combo)
            else:
                pool = [i for _, i in cards]
                for k in range(1, n + 1):
                    for m in _multisets(pool, self.cap, k):
                        meter.tick()
                        naturals.append(m)
            for nat in set(naturals):
                for rest in _multisets(wild, self.cap, n - len(nat)):
                    meter.tick()
                    seen.add(tuple(sorted(nat + rest)))
        for rest in _multisets(wild, self.cap, n):
            meter.tick()
            seen.add(rest)
        return sorted(seen)


def _consecutive(group: list[tuple[int, int]], n_ranks: int, n: int) -> Iterator[tuple[int, ...]]:
    """Cards of ``n`` consecutive rank positions (round the corner too) from one suit's group."""
    by_pos = {pos: i for pos, i in group}
    for start in range(n_ranks):
        window = [by_pos.get((start + k) % n_ranks) for k in range(n)]
        if all(i is not None for i in window):
            yield tuple(sorted(i for i in window if i is not None))


def _multisets(pool: Sequence[int], cap: Sequence[int], n: int) -> Iterator[tuple[int, ...]]:
    """Multisets of ``n`` items of ``pool`` (sorted), item ``i`` at most ``cap[i]`` times."""
    if n == 0:
        yield ()
        return
    for j, i in enumerate(pool):
        for k in range(1, min(cap[i], n) + 1):
            for rest in _multisets(pool[j + 1 :], cap, n - k):
                yield (i,) * k + rest


# ================================================================ the search


@dataclass
class _Found:
    witness: Witness
    rank: int
    """0: shows this change alone; higher: mixed with other changes."""
    order: tuple[Any, ...]
    signature: tuple[Any, ...]
    """Examples with equal signatures are the same up to suits: one is shown."""
    pattern: tuple[Any, ...] = ()
    """What kind of difference it shows: examples of new patterns are shown first."""
    stage: int = 0
    """The search stage (size of example) that found it."""


@dataclass
class _MeldResult:
    legal: tuple[bool | None, bool | None]
    """Legal under each side (``None``: that deck cannot hold these cards)."""
    best: tuple[Reading | None, Reading | None]
    why: tuple[str, str]


class MeldSearch:
    """The state of a witness search for one pair of rulesets, and its searches on cards and melds;
    ``tried`` counts the examples each search checked."""

    def __init__(self, a: Ruleset, b: Ruleset, rules: RulesDiff, budget: Budget) -> None:
        self.a, self.b = a, b
        self.rules = rules
        self.budget = budget
        self.pair = CardPair(a, b)
        self.found: dict[Key, list[_Found]] = {c.key: [] for c in rules.changes}
        self.tried: dict[str, int] = {}
        self._melds: dict[tuple[int, ...], _MeldResult] = {}
        self._pool: dict[int, list[tuple[int, ...]]] = {}
        self.stage = 0
        self.stopped: dict[str, str] = {}
        """The searches that stopped at their budget, and which bound stopped them."""
        self.deadline = None if budget.max_seconds is None else time.monotonic() + budget.max_seconds

    # -- bookkeeping
    def spent(self, search: str) -> bool:
        """Whether the budget is spent; if so, ``search`` is marked as stopped at it."""
        if sum(self.tried.values()) >= self.budget.max_examples:
            self.stopped.setdefault(search, f"{self.budget.max_examples} examples")
            return True
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.stopped.setdefault(search, f"{self.budget.max_seconds:g} seconds")
            return True
        return False

    def meter(self) -> _Meter:
        """A bound for enumerating candidates: a few times the examples the budget allows."""
        return _Meter(4 * self.budget.max_examples + 10_000, self.deadline)

    def generate(self, search: str, make: Callable[[_Meter], list[tuple[int, ...]]]) -> list[tuple[int, ...]]:
        """``make``'s candidates, or none (``search`` marked as stopped) when enumerating them is past the budget."""
        try:
            return make(self.meter())
        except GenerationLimit:
            self.stopped.setdefault(search, "candidates enumerated")
            return []

    def count(self, search: str) -> None:
        self.tried[search] = self.tried.get(search, 0) + 1

    def keep(self, key: Key, w: Witness, rank: int, order: tuple[Any, ...], signature: tuple[Any, ...],
             pattern: tuple[Any, ...] = ()) -> None:
        self.found[key].append(_Found(w, rank, order, signature, pattern or signature, self.stage))

    def enough(self, keys: Sequence[Key]) -> bool:
        """Whether the search may stop once the current stage is done: every change has examples enough.

        A change has enough with ``per_change`` distinct examples, or with one that shows it alone
        (rank 0), or with any example once a larger stage than the one that found its first has run.
        """
        for k in keys:
            found = self.found[k]
            if not found:
                return False
            distinct = len({f.signature for f in found}) >= self.budget.per_change
            if not (distinct or any(f.rank == 0 for f in found) or min(f.stage for f in found) < self.stage):
                return False
        return True

    def choose(self) -> list[Witness]:
        """Up to ``per_change`` examples per change; an example shared by several changes is listed once."""
        out: list[Witness] = []
        for c in self.rules.changes:
            ranked = sorted(self.found[c.key], key=lambda f: (f.rank, f.order))
            chosen: list[_Found] = []
            for new_pattern in (True, False):  # first one example of each pattern, then fill up
                for f in ranked:
                    if len(chosen) >= self.budget.per_change:
                        break
                    if any(g.signature == f.signature for g in chosen) or (
                            new_pattern and any(g.pattern == f.pattern for g in chosen)):
                        continue
                    chosen.append(f)
            chosen.sort(key=lambda f: (f.rank, f.order))
            for f in chosen:
                w = f.witness
                shown = (w.example, w.left, w.right)
                same = next((j for j, o in enumerate(out) if (o.example, o.left, o.right) == shown), None)
                if same is None:
                    out.append(replace(w, changes=(c.key,)))
                else:
                    out[same] = replace(out[same], changes=(*out[same].changes, c.key))
        return out

    # ------------------------------------------------------------ cards one deck lacks
    def deck_cards(self, changes: list[Change]) -> None:
        if not changes:
            return
        p = self.pair
        for i, n in enumerate(p.names):
            la, lb = p.limit[0].get(n, 0), p.limit[1].get(n, 0)
            self.count("deck")
            if la == lb:
                continue
            w = Witness("deck", (), n, _copies(la), _copies(lb), la, lb, (n,))
            wild_changed = (i in p.wild[0]) != (i in p.wild[1])
            rank_suit = p.rank_suit(i)
            for c in changes:
                k = c.key
                if (k == ("deck", "jokers") and rank_suit is None) or (k == ("deck", "copies") and la and lb) or (
                        len(k) == 3 and rank_suit is not None and k[:2] == ("deck", "ranks") and k[2] == rank_suit[0]
                ) or (len(k) == 3 and rank_suit is not None and k[:2] == ("deck", "suits") and k[2] == rank_suit[1]
                      ) or (c.area == "wilds" and wild_changed):
                    self.keep(c.key, w, 0, (1, i), (n,))

    # ------------------------------------------------------------ melds
    def meld(self, idx: tuple[int, ...]) -> _MeldResult:
        found = self._melds.get(idx)
        if found is not None:
            return found
        self.count("melds")
        legal: list[bool | None] = []
        best: list[Reading | None] = []
        why: list[str] = []
        for s, rs in enumerate((self.a, self.b)):
            codes = self.pair.codes(s, idx)
            if isinstance(codes, str):
                legal.append(None)
                best.append(None)
                why.append(codes)
                continue
            reading = _legality(rs).match(codes, reasons=False).best
            legal.append(reading is not None)
            best.append(reading)
            why.append("")
        result = _MeldResult((legal[0], legal[1]), (best[0], best[1]), (why[0], why[1]))
        self._melds[idx] = result
        return result

    def kinds(self, s: int, idx: tuple[int, ...], names: Sequence[str]) -> dict[str, Reading]:
        rs = (self.a, self.b)[s]
        codes = self.pair.codes(s, idx)
        if isinstance(codes, str):
            return {}
        m = _legality(rs)
        out = {}
        for spec in m.specs:
            if spec.name in names:
                r = m.match(codes, (spec,), reasons=False).best
                if r is not None:
                    out[spec.name] = r
        return out

    def melds(self, changes: list[Change]) -> None:
        if not changes:
            return
        p = self.pair
        shape_kinds = {str(c.key[1]) for c in changes if c.key[0] == "melds"}
        all_kinds = [*{k.name: 0 for k in (*self.a.kinds, *self.b.kinds)}]
        watched = all_kinds if any(c.area != "melds" for c in changes) else sorted(shape_kinds)
        changed_wild = set(p.wild[0] ^ p.wild[1])
        if self.a.wilds.natural_too != self.b.wilds.natural_too:
            changed_wild |= {i for i in p.wild[0] & p.wild[1] if p.rank_suit(i) is not None}
        keys = [c.key for c in changes if c.key[0] != "deck"] or [c.key for c in changes]
        # Sizes 3, 4, ... then the sizes where two shapes' size ranges part (a 13-card escalera against one
        # of at most 12), natural cards only: a size range is the one rule the small sizes cannot show.
        boundary = sorted({n for n in self.size_bounds(shape_kinds) if n > self.budget.max_meld_cards})
        stages = [*((n, False) for n in range(3, self.budget.max_meld_cards + 1)), *((n, True) for n in boundary)]
        order = 0
        for n, natural_only in stages:
            self.stage = n
            make = functools.partial(p.naturals, n) if natural_only else functools.partial(p.candidates, n, None)
            found = self.generate("melds", make)
            for idx in found:
                if self.spent("melds"):
                    return
                order += 1
                self.meld_example(changes, idx, order, watched, shape_kinds, changed_wild)
            if self.enough(keys):
                return

    def size_bounds(self, kinds: set[str]) -> set[int]:
        """Sizes at which the size ranges of a meld kind differ between the rulesets."""
        out: set[int] = set()
        for name in kinds:
            ranges = []
            for rs in (self.a, self.b):
                kind = next((k for k in rs.kinds if k.name == name), None)
                if kind is not None:
                    form = canonical_shape(kind.shape, rs.deck.n_ranks, rs.deck.n_suits)
                    text = form.parts["size"][0].removeprefix("size ")
                    lo, _, hi = text.partition("..")
                    ranges.append((int(lo.rstrip("+")), int(hi) if hi else int(lo) if "+" not in lo else None))
            if len(ranges) == 2 and ranges[0] != ranges[1]:
                out |= {x + d for x in (*ranges[0], *ranges[1]) if x is not None for d in (0, 1)}
        return out

    def meld_example(self, changes: list[Change], idx: tuple[int, ...], order: int, watched: Sequence[str],
                     shape_kinds: set[str], changed_wild: set[int]) -> None:
        """Check one card multiset under both rulesets; keep it for each change it shows."""
        p = self.pair
        r = self.meld(idx)
        if not any(r.legal):
            return
        ka = self.kinds(0, idx, watched) if r.legal[0] else {}
        kb = self.kinds(1, idx, watched) if r.legal[1] else {}
        differ = {k for k in watched if (k in ka) != (k in kb)}
        if not differ and r.legal[0] == r.legal[1]:
            return
        n = len(idx)
        w = Witness("meld", (), p.text(idx), self.meld_text(0, idx, r, ka), self.meld_text(1, idx, r, kb),
                    r.legal[0], r.legal[1], tuple(p.names[i] for i in idx))
        one_sided = None in r.legal
        uses_changed = any(i in changed_wild for i in idx)
        sig = p.signature(idx)
        pattern = (self.reading_pattern(0, r), self.reading_pattern(1, r))
        explained = False
        order_key = (n, sum(i in p.any_wild for i in idx), self.clarity(idx, r), order)
        for c in changes:
            if c.key[0] == "melds" and str(c.key[1]) in differ:
                self.keep(c.key, w, int(uses_changed or one_sided), order_key, sig, pattern)
                explained = True
            elif c.key[0] == "wilds" and uses_changed:
                self.keep(c.key, w, int(bool(differ & shape_kinds)), order_key, sig, pattern)
                explained = True
        for c in changes:
            if c.key[0] == "deck" and not explained:
                self.keep(c.key, w, 0 if one_sided else 1, (n, order), sig, pattern)

    def reading_pattern(self, s: int, r: _MeldResult) -> tuple[Any, ...]:
        """Legal or not, as which kind, with how many wilds, with a high ace."""
        reading = r.best[s]
        if reading is None:
            return (r.legal[s],)
        deck = (self.a, self.b)[s].deck
        ranks = {deck.rank_of(c) for c in reading.stands}
        high = deck.ace is not None and deck.ace in ranks and deck.n_ranks - 1 in ranks and len(ranks) < deck.n_ranks
        return (True, reading.kind, reading.wilds, high)

    def clarity(self, idx: tuple[int, ...], r: _MeldResult) -> int:
        """How many wild cards stand for their own rank (fewer reads more clearly: ``2♣ as 6♥``)."""
        out = 0
        for s, reading in enumerate(r.best):
            if reading is None:
                continue
            deck = (self.a, self.b)[s].deck
            for q, i in enumerate(reading.order):
                code = self.pair.code[s][self.pair.names[idx[i]]]
                own = code != deck.joker_code and deck.rank_of(code) == deck.rank_of(reading.stands[q])
                out += reading.wild[q] and own
        return out

    def meld_text(self, s: int, idx: tuple[int, ...], r: _MeldResult, kinds: dict[str, Reading]) -> str:
        if r.legal[s] is None:
            return r.why[s]
        if not r.legal[s]:
            return "not a meld"
        names = (self.a, self.b)[s].deck.names
        codes = [self.pair.code[s][self.pair.names[i]] for i in idx]
        best = r.best[s]
        readings = list(kinds.values()) or ([best] if best is not None else [])
        parts = []
        for reading in readings:
            wilds = [f"{names[codes[i]]} as {names[reading.stands[q]]}"
                     for q, i in enumerate(reading.order) if reading.wild[q]]
            parts.append(reading.kind + (f" ({', '.join(wilds)})" if wilds else ""))
        return " or ".join(parts)

    def pool(self, n: int, per_signature: int = 1, search: str = "rounds") -> list[tuple[int, ...]]:
        """Melds of ``n`` cards legal under both rulesets, one per kind of meld (kinds, suits, wilds, points)."""
        key = n * 100 + per_signature
        if key in self._pool:
            return self._pool[key]
        p = self.pair
        out: list[tuple[int, ...]] = []
        seen: dict[tuple[Any, ...], set[tuple[Any, ...]]] = {}
        for idx in self.generate(search, lambda m: p.candidates(n, set(p.common), m)):
            if self.spent(search):
                break
            r = self.meld(idx)
            ra, rb = r.best
            if ra is None or rb is None:
                continue
            suits = len({rs[1] for rs in map(p.rank_suit, idx) if rs is not None})
            points = [self.points(s, idx) for s in (0, 1)]
            shown = seen.setdefault((ra.kind, rb.kind, suits, ra.wilds, rb.wilds, points[0] == points[1]), set())
            if len(shown) < per_signature and p.signature(idx) not in shown:
                shown.add(p.signature(idx))
                out.append(idx)
        self._pool[key] = out
        return out

    def points(self, s: int, idx: tuple[int, ...]) -> int | None:
        """The meld points of legal cards under side ``s`` (its best reading)."""
        rs = (self.a, self.b)[s]
        codes = self.pair.codes(s, idx)
        assert not isinstance(codes, str)
        best = matcher_for(rs).match(codes, reasons=False).best
        return best.points if best is not None else None

    def meld_kind(self, idx: tuple[int, ...]) -> str:
        ra, rb = self.meld(idx).best
        kinds = {r.kind for r in (ra, rb) if r is not None}
        return "/".join(sorted(kinds))


def _legality(rs: Ruleset) -> Matcher:
    return matcher_for(rs, scored=False)


def _copies(n: int) -> str:
    return "not in the deck" if n == 0 else f"{n} in the deck"
