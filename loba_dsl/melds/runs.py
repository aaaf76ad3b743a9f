"""Reading cards as a run (one suit, consecutive ranks): the windows of ranks the naturals fit, the
ace's modes, where the wild cards stand and, where wilds score differently by position, which goes where."""

from __future__ import annotations

import itertools

from loba_dsl.budget import Clock
from loba_dsl.cards.deck import Card
from loba_dsl.dsl.evaluate import compare
from loba_dsl.melds.clauses import ClauseMatcher
from loba_dsl.melds.reading import HEAD, Failure, Reading
from loba_dsl.melds.shapes import CompiledShape

__all__ = ["RunMatcher"]

_ACE_WORDS = {"low": "low only", "high": "high only", "either": "high or low, never both", "wrap": "round the corner"}



class RunMatcher(ClauseMatcher):
    """The run reader of a matcher: every reading of cards as a run kind, or the clauses that fail."""

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
