"""The legal moves of a state, generated rather than judged one candidate at a time.

The referee (:mod:`loba_dsl.game.referee`) judges one move.  Listing every legal move by judging every
candidate costs a full judgement (a new state) per candidate and must cap what it tries; here the moves
are generated from what makes them legal:

- **draws**: the stock when it has a card, the discard pile when it has one;
- **melds**: every multiset of the hand that the ruleset's meld kinds read, with any number of wilds a
  kind allows: the candidates come from the solver's generator (:class:`~loba_dsl.solver.candidates.
  CandidateGenerator`, compiled once per ruleset; its C twin for ordinary hands) and each is read by
  the ruleset's matcher, as the referee reads a meld;
- **lay-offs**, one card or many, onto each meld the player may add to (the referee's own
  :func:`~loba_dsl.game.referee.lay_off_target`): a set takes cards of its rank and wilds; a run takes
  cards at its ends, each a natural of the place or a wild; each candidate is read with every card on
  the table pinned to what it stands for (:func:`~loba_dsl.game.roles.read`, the referee's reading); a
  single wild onto a run is also listed with ``as`` at each end;
- **Joker replacements** and **wild moves** where the ruleset has them (few: each is judged);
- **discards**: each distinct card, by the referee's own verdicts for the card
  (:func:`~loba_dsl.game.referee.discard_reasons`) and for the end of the turn
  (:func:`~loba_dsl.game.referee.finish_reasons`), without building the next state.

A move that would empty the hand (going out) is judged in full.  Cards are card codes throughout; melds
are listed with their cards sorted by code and no ``as`` (the referee's own reading of the wilds).

Generation is lazy and bounded: every candidate counts against a :class:`~loba_dsl.budget.Budget`
(:data:`LEGAL_BUDGET`), and a listing past :data:`MOVE_LIMIT` moves stops with :class:`TooManyMoves`;
both are :class:`~loba_dsl.errors.LobaError`.  Asking whether one move is legal never lists
(``move in table.legal()`` is one judgement).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

from loba_dsl.budget import Budget, BudgetLike, Clock, as_budget
from loba_dsl.cards.deck import Card
from loba_dsl.errors import LobaError
from loba_dsl.game import referee, roles
from loba_dsl.game.moves import Discard, Draw, LayOff, Meld, Move, MoveWild, ReplaceJoker
from loba_dsl.game.state import Phase, RoundState, TableMeld
from loba_dsl.melds.matcher import CompiledShape, Matcher, matcher_for
from loba_dsl.rules.model import GoingOut, Ruleset, WildMove
from loba_dsl.rules.model import LayOff as LayOffRule
from loba_dsl.solver.candidates import CandidateGenerator
from loba_dsl.solver.multisets import combos, submultisets

__all__ = ["LEGAL_BUDGET", "MOVE_LIMIT", "SMALL_HAND", "LegalGenerator", "TooManyMoves", "generate",
           "generator_for"]

MOVE_LIMIT = 20_000
"""The most moves one listing gives; past it :class:`TooManyMoves` (ask ``in`` about a move instead)."""

LEGAL_BUDGET = Budget(seconds=2.0)
"""The time one listing may take (candidates generated and read); past it :class:`~loba_dsl.errors.BudgetExceeded`."""

SMALL_HAND = 16
"""Hands of at most this many cards, with at most :data:`SMALL_WILDS` cards that may be wild, take their
meld candidates from the solver's generator in one call (its C twin where built); others lazily."""

SMALL_WILDS = 2


_MOVES_KEPT = 4096
"""The most draws (discards) a generator keeps made (players' names are many on a server: past it, made anew)."""


class TooManyMoves(LobaError):
    """A listing of legal moves past its size limit (a huge hand with many wilds)."""

    code = "too-many-moves"


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
        return self.matcher.match(cards, reasons=False, budget=clock).best is not None

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
            nxt = referee._beside(rs, c, up)
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


def _clock(budget: BudgetLike | Clock) -> Clock:
    if isinstance(budget, Clock):
        return budget
    return (LEGAL_BUDGET if budget is None else as_budget(budget)).start("listing the legal moves")


def generate(rs: Ruleset, s: RoundState, budget: BudgetLike | Clock = None, limit: int = MOVE_LIMIT) -> Iterator[Move]:
    """The legal moves of the player to move in ``s``, lazily, each once; see the module's docstring.

    Every move given is one :func:`~loba_dsl.game.referee.judge` accepts, and every move it accepts is
    given (melds and lay-offs up to the order of their cards and the ``as`` of their wilds).
    """
    if s.phase is not Phase.PLAY:
        yield from _draws(rs, s)
        return
    moves = _moves(rs, s, _clock(budget))
    yield from itertools.islice(moves, limit)
    if next(moves, None) is not None:
        raise TooManyMoves(f"{s.players[s.turn]} has more than {limit:,} legal moves here; ask whether a "
                           "given move is legal instead (`move in table.legal()`)")


def _draws(rs: Ruleset, s: RoundState) -> tuple[Move, ...]:
    if s.phase is Phase.OVER:
        return ()
    player, draw = s.players[s.turn], generator_for(rs).draw
    if s.pile and rs.deal.counted_at_end and not _judged(rs, s, Draw(player, "discard")):
        return (draw(player, "stock"),) if s.stock else ()  # a whole pile would break the count
    if s.stock and s.pile:
        return draw(player, "stock"), draw(player, "discard")
    if s.stock:
        return (draw(player, "stock"),)
    return (draw(player, "discard"),) if s.pile else ()


def _judged(rs: Ruleset, s: RoundState, move: Move) -> bool:
    return not referee.judge(rs, s, move)[0]


def _moves(rs: Ruleset, s: RoundState, clock: Clock) -> Iterator[Move]:
    """The moves after the draw (``s.phase`` is play)."""
    seat = s.turn
    player = s.players[seat]
    deck = rs.deck
    g = generator_for(rs)
    hand = s.hands[seat]
    n = len(hand)
    t = rs.turn
    counts = Counter(hand)
    # A move that empties the hand ends the turn: judged in full (the end-of-turn rules decide).
    may_empty = t.going_out is GoingOut.DISCARD_OPTIONAL
    for cards in g.meld_candidates(hand, clock):
        if g.is_meld(cards, clock) and (len(cards) < n or (may_empty and _judged(rs, s, Meld(player, cards)))):
            yield Meld(player, cards, deck=deck)
    if t.lay_off is not LayOffRule.NONE and s.melds:
        wilds = g.wild_pool(counts)
        for m in s.melds:
            if not wilds and counts.keys().isdisjoint(g.touching(m)):
                continue  # no card of the hand touches it
            target, _ = referee.lay_off_target(rs, s, seat, m.number, why=False)
            if target is None:
                continue  # (asked before the candidates: with lay-offs onto one's own melds, most are others')
            least = referee.lay_off_leaves(rs, s, seat)
            for cards in g.lay_off_candidates(m, counts, wilds, clock):
                clock.tick()
                if len(cards) == n:
                    if may_empty and _judged(rs, s, LayOff(player, m.number, cards)):
                        yield LayOff(player, m.number, cards, deck=deck)
                elif n - len(cards) < least:  # before the requirements, a lay-off keeps cards to end the turn
                    if _judged(rs, s, LayOff(player, m.number, cards)):
                        yield LayOff(player, m.number, cards, deck=deck)
                elif g.lays_off(target, cards):
                    yield LayOff(player, m.number, cards, deck=deck)
            if target.run and wilds:  # a wild laid off onto a run, at either end
                ends = (referee._beside(rs, target.stands[0], up=False),
                        referee._beside(rs, target.stands[-1], up=True))
                for c, _ in sorted(wilds):
                    for e in dict.fromkeys(ends):  # a run of every rank but the ace: both ends are the ace
                        if e is not None:
                            mv = LayOff(player, m.number, (c,), (e,), deck=deck)
                            clock.tick()
                            if _judged(rs, s, mv):
                                yield mv
    if t.joker_replacement:
        for m in s.melds:
            for st in sorted({st for st, w in zip(m.stands, m.wild, strict=True) if w and st in hand}):
                rj = ReplaceJoker(player, m.number, st, deck=deck)
                if _judged(rs, s, rj):
                    yield rj
    if t.wild_move is not WildMove.NONE:
        for m in s.melds:
            if m.run:
                for to in ("low", "high"):
                    mw = MoveWild(player, m.number, "low" if to == "low" else "high", deck=deck)
                    if _judged(rs, s, mw):
                        yield mw
    # The end of the turn is judged once: its verdict depends on the cards left by their number only
    # (referee.finish_reasons; the brute-force property test holds the two to it).
    if not hand:
        return
    distinct = sorted(counts)
    rest = list(hand)
    rest.remove(distinct[0])
    if referee.finish_reasons(rs, s, seat, tuple(rest), s.melds, s.info, True):
        return
    discard = g.discard
    for c in distinct:
        if not referee.discard_reasons(rs, s, seat, c):
            yield discard(player, c)
