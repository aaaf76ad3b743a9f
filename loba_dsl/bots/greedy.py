"""The greedy bot: every turn planned with the exact solver and checked move by move by the referee.

:class:`Greedy` is the policy over one ruleset, on a :class:`~loba_dsl.game.state.RoundState` of the seat
to move (the seat's own state from its view, or a sampled world in a play-out).  It looks only at that
seat's hand and the public table (the pile, the melds, the hand and stock sizes):

- **the draw**: the discard pile when what it takes improves the hand's best arrangement (the score
  after the best discard beats the hand's score now) and a turn after taking it ends legally (the rules
  on the pile card, the first lay-down); else the stock;
- **going out** whenever the hand can, as the referee allows (the solver's
  :meth:`~loba_dsl.solver.api.Solver.can_go_out`, or
  :func:`~loba_dsl.solver.going_out.go_out_meeting` while an opening minimum or a contract is in force);
- **melds** of the hand's best arrangement (after its best discard), which cost the hand nothing: a
  first lay-down only as the requirements allow (:func:`~loba_dsl.solver.advice.arrange_hand`);
- **lay-offs** of a card whose leaving the hand does not make its best arrangement worse;
- **the discard** leaving the best hand, ties broken by what the others could use: the card with fewest
  unseen cards that could meld with it (same rank, neighbours in its suit), counted from what the seat
  sees (its hand, the pile, the table); never a wild card while another card is as good.

Every planned move is judged by the referee on the state before it is kept, and the plan ends the turn
legally (else a plainer plan is tried: no lay-down, then the discard alone).  :class:`GreedyBot` is the
:class:`~loba_dsl.game.players.Player` over it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence

from loba_dsl.bots.knowledge import Memory
from loba_dsl.cards.deck import Card
from loba_dsl.errors import LobaError
from loba_dsl.game import referee
from loba_dsl.game.moves import Discard, Draw, LayOff, Meld, Move
from loba_dsl.game.standings import ReentryOffer
from loba_dsl.game.state import Phase, RoundState, TableMeld
from loba_dsl.game.view import PlayerView
from loba_dsl.rules.model import Better, PileTake, Ruleset
from loba_dsl.rules.model import LayOff as LayOffRule
from loba_dsl.solver.api import Solver

__all__ = ["Greedy", "GreedyBot", "pick"]

MAX_LAY_OFFS = 40
"""Lay-offs tried in one turn at most (each takes a card from the hand, so a hand runs out first)."""


class Greedy:
    """The greedy policy under one ruleset (one per ruleset and process: :meth:`of`)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.solver = Solver(rs)
        self.lower = rs.scoring.better is Better.LOWER
        deck = rs.deck
        self._wild = frozenset(rs.wilds.cards) | ({deck.joker_code} if deck.jokers else frozenset())
        self._scores: dict[tuple[Card, ...], int] = {}
        self._after: dict[tuple[Card, ...], dict[Card, int]] = {}

    @classmethod
    def of(cls, rs: Ruleset) -> Greedy:
        """The policy of ``rs``, built once (its solver's caches serve every bot of the process)."""
        return rs.memo(("bots.greedy",), cls, rs)

    # ------------------------------------------------------------ what a hand is worth

    def better(self, a: int, b: int) -> bool:
        """Whether score ``a`` is strictly better than ``b`` under ``scoring.better``."""
        return a < b if self.lower else a > b

    def score(self, cards: Sequence[Card]) -> int:
        """The hand's score if the round ended now, its best melds put down (the solver's best score)."""
        key = tuple(sorted(cards))
        got = self._scores.get(key)
        if got is None:
            if len(self._scores) > 200_000:
                self._scores.clear()
            got = self._scores[key] = self.solver.best_score(key)
        return got

    def discard_scores(self, cards: Sequence[Card]) -> dict[Card, int]:
        """For each distinct card of the hand, the score of the hand left without it (one search for all)."""
        key = tuple(sorted(cards))
        known = self._after.get(key)
        if known is not None:
            return known
        if len(self._after) > 100_000:
            self._after.clear()
        solver = self.solver
        g = solver.melds
        lu = g.left_utility
        total = sum(lu[c] for c in key)
        got: dict[Card, int] = {}
        with solver.calls.running(None, "weighing the discards"):
            hand = solver.searches.search(key, g.gain_value, pooled=True)
            for code in dict.fromkeys(key):
                k = hand.without(code)
                got[code] = g.score_of(total + hand.solve(hand.full if k is None else k) - lu[code])
        self._after[key] = got
        return got

    def after_discard(self, cards: Sequence[Card]) -> int:
        """The score of the hand after its best discard (an empty hand: the empty hand's score)."""
        if not cards:
            return self.score(())
        from loba_dsl.solver.last_cards import discard_choices

        scores = self.discard_scores(cards)
        values = [scores[c] for c in discard_choices(self.rs, tuple(scores))]
        return min(values) if self.lower else max(values)

    # ------------------------------------------------------------ the draw

    def draw(self, s: RoundState) -> Move:
        """Stock or discard pile (see the module's doc)."""
        return self.draw_and_plan(s)[0]

    def draw_and_plan(self, s: RoundState) -> tuple[Draw, list[Move]]:
        """The draw, and after a draw from the pile the plan of the rest of the turn (else empty)."""
        draw, plan, _ = self.draw_and_plan_to_end(s)
        return draw, plan

    def draw_and_plan_to_end(self, s: RoundState) -> tuple[Draw, list[Move], RoundState | None]:
        """:meth:`draw_and_plan`, and after a draw from the pile the state at the turn's end (else ``None``)."""
        rs = self.rs
        me = s.players[s.turn]
        hand = s.hands[s.turn]
        take = Draw(me, "discard")
        if s.pile:
            taken = s.pile if rs.turn.discard_pile_take is PileTake.WHOLE_PILE else s.pile[:1]
            if self.better(self.after_discard((*hand, *taken)), self.score(hand)):
                reasons, after, _ = referee.judge(rs, s, take)
                if not reasons and after is not None:
                    plan, end = self.plan_to_end(after)
                    if plan:
                        return take, plan, end
        return Draw(me, "stock"), [], None

    # ------------------------------------------------------------ the play phase

    def plan(self, s: RoundState) -> list[Move]:
        """The moves to the end of the turn (each judged legal in turn; empty if no plan ends it legally)."""
        return self.plan_to_end(s)[0]

    def plan_to_end(self, s: RoundState) -> tuple[list[Move], RoundState | None]:
        """:meth:`plan`, and the state it ends the turn in (``None`` with an empty plan)."""
        for way in (self._going_out, self._lay_down_melds, self._discard_alone):
            moves, end = way(s)
            if moves:
                return moves, end
        return [], None

    def _requirement(self, s: RoundState) -> str | None:
        from loba_dsl.solver.advice import requirement_in_force

        return requirement_in_force(self.rs, opened=s.turn in s.opened, round_number=s.round_number)

    def run(self, s: RoundState, moves: Sequence[Move]) -> tuple[RoundState | None, list[Move]]:
        """Play ``moves`` as far as the referee accepts them: the state after them and those played."""
        played: list[Move] = []
        for mv in moves:
            reasons, ns, _ = referee.judge(self.rs, s, mv)
            if reasons or ns is None:
                return None, played
            s = ns
            played.append(mv)
        return s, played

    def _first_lay_down(self, s: RoundState, need: str) -> bool:
        """Whether the hand holds a first lay-down meeting ``need`` at all (a subset of the hand cannot,
        where the whole hand does not: one search rules out the costlier questions)."""
        hand = s.hands[s.turn]
        if need == "contract":
            return self.solver.contract(hand, s.round_number) is not None
        return self.solver.best_opening(hand) is not None

    def _going_out(self, s: RoundState) -> tuple[list[Move], RoundState | None]:
        rs, solver = self.rs, self.solver
        seat = s.turn
        me = s.players[seat]
        hand = s.hands[seat]
        need = self._requirement(s) if not s.info.laid else None
        melds: list[tuple[Card, ...]]
        if need is None:
            go = solver.can_go_out(hand, opened=seat in s.laid_before)
            if not go.possible or go.arrangement is None:
                return [], None
            melds = [tuple(m.cards) for m in go.arrangement.melds]
            discard = go.discard
        else:
            from loba_dsl.scoring.requirements import contract_rule, opening_rule
            from loba_dsl.solver.going_out import go_out_meeting

            if not self._first_lay_down(s, need):
                return [], None
            rule = contract_rule(rs, s.round_number) if need == "contract" else opening_rule(rs)
            way = go_out_meeting(solver, hand, rule)
            if way is None:
                return [], None
            melds = [tuple(m) for m in way.melds]
            discard = way.aside
        moves: list[Move] = [Meld(me, tuple(sorted(m))) for m in melds]
        if discard is not None:
            moves.append(Discard(me, discard))
        end, played = self.run(s, moves)
        if end is None or end.phase is not Phase.OVER or end.went_out != seat:
            return [], None
        return played, end

    def _melds_to_lay(self, s: RoundState) -> list[tuple[Card, ...]]:
        hand = s.hands[s.turn]
        need = self._requirement(s) if not s.info.laid else None
        if need is None:
            _, arrangement = self.solver.best_discard(hand)
            return [tuple(sorted(m.cards)) for m in arrangement.melds]
        if not self._first_lay_down(s, need):
            return []
        from loba_dsl.solver.advice import arrange_hand

        text = " ".join(self.rs.deck.names_of(hand))
        got = arrange_hand(self.solver, text, opened=False, round_number=s.round_number, discard=True)
        return [tuple(sorted(m.cards)) for m in got.arrangement.melds]

    def _lay_down_melds(self, s: RoundState) -> tuple[list[Move], RoundState | None]:
        return self._lay_down(s, meld=True)

    def _discard_alone(self, s: RoundState) -> tuple[list[Move], RoundState | None]:
        return self._lay_down(s, meld=False)

    def _lay_down(self, s: RoundState, *, meld: bool) -> tuple[list[Move], RoundState | None]:
        seat = s.turn
        me = s.players[seat]
        played: list[Move] = []
        if meld:
            for cards in self._melds_to_lay(s):
                reasons, ns, _ = referee.judge(self.rs, s, Meld(me, cards))
                if reasons or ns is None:
                    continue
                s = ns
                played.append(Meld(me, cards))
                if s.phase is Phase.OVER:
                    return played, s
            for mv, ns in self._lay_offs(s):
                s = ns
                played.append(mv)
                if s.phase is Phase.OVER:
                    return played, s
        got = self.discard_to_end(s)
        if got is None:
            return [], None
        played.append(got[0])
        return played, got[1]

    def _lay_offs(self, s: RoundState) -> Iterator[tuple[Move, RoundState]]:
        """Lay-offs that cost the hand nothing, one at a time (each judged on the state it is played in)."""
        rs = self.rs
        if rs.turn.lay_off is LayOffRule.NONE or not s.melds:
            return
        seat = s.turn
        me = s.players[seat]
        mine_only = rs.turn.lay_off is not LayOffRule.ANY_MELDS
        for _ in range(MAX_LAY_OFFS):
            hand = s.hands[seat]
            if not hand:
                return
            touchable = [m for m in s.melds if not mine_only or m.owner == seat]
            fitting = {m.number: self.fits(m) for m in touchable}
            fits = [c for c in sorted(set(hand)) if any(c in f for f in fitting.values())]
            if not fits:
                return
            now = self.after_discard(hand)
            found = None
            for c in fits:
                rest = list(hand)
                rest.remove(c)
                if rest and self.better(now, self.after_discard(rest)):
                    continue  # the card is worth more in the hand
                for mv in self.lay_off_moves(s, me, c, fitting):
                    reasons, ns, _ = referee.judge(rs, s, mv)
                    if not reasons and ns is not None:
                        found = (mv, ns)
                        break
                if found:
                    break
            if found is None:
                return
            yield found
            s = found[1]
            if s.phase is Phase.OVER:
                return

    def fits(self, m: TableMeld) -> frozenset[Card]:
        """The cards that may extend meld ``m`` at all: a wild; a set's rank; a run's suit next to an end."""
        deck = self.rs.deck
        natural = next((st for st, w in zip(m.stands, m.wild, strict=True) if not w), m.stands[0])
        suit = deck.suit_of(natural)
        if not m.run:
            rank = deck.rank_of(natural)
            return self._wild | {deck.code(rank, x) for x in range(deck.n_suits)}
        out = set(self._wild)
        for r in (deck.rank_of(m.stands[0]) - 1, deck.rank_of(m.stands[-1]) + 1, deck.ace):
            if r is not None and 0 <= r < deck.n_ranks:
                out.add(deck.code(r, suit))
        return frozenset(out)

    def _ends(self, m: TableMeld) -> tuple[Card | None, Card | None]:
        """The natural cards a wild laid off at the low and the high end of run ``m`` would stand for."""
        deck = self.rs.deck
        low, high = m.stands[0], m.stands[-1]
        r, suit = deck.rank_of(low), deck.suit_of(low)
        below = deck.code(r - 1, suit) if r >= 1 else None
        r, suit = deck.rank_of(high), deck.suit_of(high)
        if r == deck.ace and r == 0:
            above = deck.code(1, suit) if deck.n_ranks > 1 else None
        elif r + 1 < deck.n_ranks:
            above = deck.code(r + 1, suit)
        else:
            above = deck.code(deck.ace, suit) if deck.ace is not None and deck.ace != r else None
        return below, above

    def lay_off_moves(self, s: RoundState, me: str, card: Card, fitting: Mapping[int, Collection[Card]]
                      ) -> Iterator[Move]:
        """The lay-offs of ``card`` to try on the melds of ``fitting`` (meld number: the cards that may fit it)."""
        for m in s.melds:
            if card not in fitting.get(m.number, ()):
                continue
            yield LayOff(me, m.number, (card,))
            if m.run and card in self._wild:
                for end in self._ends(m):
                    if end is not None:
                        yield LayOff(me, m.number, (card,), (end,))

    # ------------------------------------------------------------ the discard

    def discard_order(self, s: RoundState) -> list[Card]:
        """The hand's distinct cards, best discard first: the best hand left, then the least useful to others."""
        hand = s.hands[s.turn]
        seen = Counter(hand)
        seen.update(s.pile)
        for m in s.melds:
            seen.update(m.cards)
        seen[-1] = 0

        scores = self.discard_scores(hand)
        sign = 1 if self.lower else -1
        order = sorted(scores, key=lambda c: (sign * scores[c], c))
        best = scores[order[0]]
        ties = [c for c in order if scores[c] == best]
        if len(ties) > 1:
            ties.sort(key=lambda c: (self.danger(c, seen), c))
            order = ties + order[len(ties):]
        return order

    def discard(self, s: RoundState) -> Move | None:
        """The best legal discard that ends the turn legally, or ``None``."""
        got = self.discard_to_end(s)
        return got[0] if got is not None else None

    def discard_to_end(self, s: RoundState) -> tuple[Move, RoundState] | None:
        """:meth:`discard` and the state after it, or ``None``."""
        me = s.players[s.turn]
        for c in self.discard_order(s):
            mv = Discard(me, c)
            reasons, ns, _ = referee.judge(self.rs, s, mv)
            if not reasons and ns is not None:
                return mv, ns
        return None

    def danger(self, card: Card, seen: Counter[Card]) -> int:
        """How many cards the seat has not seen could meld with ``card`` (a wild: every card)."""
        deck = self.rs.deck
        if card in self._wild:
            return 10_000
        rank, suit = deck.rank_of(card), deck.suit_of(card)
        n = 0
        for other_suit in range(deck.n_suits):
            code = deck.code(rank, other_suit)
            n += deck.limit(code) - seen[code] - (code == card)
        for step, weight in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            r = rank + step
            if 0 <= r < deck.n_ranks:
                code = deck.code(r, suit)
                n += weight * max(0, deck.limit(code) - seen[code])
        return n


def pick(legal: Sequence[Move], move: Move) -> Move | None:
    """The move of ``legal`` that is ``move`` (a meld's cards in any order), or ``None``."""
    if move in legal:
        return move
    if isinstance(move, (Meld, LayOff)):
        want = sorted(move.cards)
        for m in legal:
            if type(m) is type(move) and sorted(m.cards) == want and m.player == move.player and \
                    getattr(m, "meld", None) == getattr(move, "meld", None) and m.as_ == move.as_:
                return m
    return None


class GreedyBot:
    """The greedy policy as a player: it sees only its view (see the module's doc); re-enters when offered."""

    name = "greedy"

    def __init__(self) -> None:
        self.memory = Memory()
        self._plan: tuple[tuple[int, int], list[Move]] | None = None

    def move(self, view: PlayerView, legal: Sequence[Move]) -> Move:
        policy = Greedy.of(view.ruleset)
        self.memory.observe(view)
        state: RoundState | None = None
        key = (view.round, view.ply)
        wanted: Move | None
        if view.phase is Phase.DRAW:
            state = self.memory.state(view)
            wanted, rest = policy.draw_and_plan(state)
            self._plan = (key[0], key[1] + 1), rest
        else:
            if self._plan is not None and self._plan[0] == key and self._plan[1]:
                moves = self._plan[1]
            else:
                state = self.memory.state(view)
                moves = policy.plan(state)
            wanted = moves[0] if moves else None
            self._plan = ((key[0], key[1] + 1), moves[1:]) if moves else None
        chosen = pick(legal, wanted) if wanted is not None else None
        if chosen is None:
            self._plan = None
            chosen = fallback(policy, state if state is not None else self.memory.state(view), legal)
        self.memory.played(chosen)
        return chosen

    def reenter(self, offer: ReentryOffer) -> bool:
        return True


def fallback(policy: Greedy, s: RoundState, legal: Sequence[Move]) -> Move:
    """A move of ``legal`` when the plan's is not among them: the stock, else the best listed discard."""
    if not legal:
        raise LobaError(f"{s.players[s.turn]} was offered no legal move")
    if s.phase is Phase.DRAW:
        return next((m for m in legal if isinstance(m, Draw) and m.source == "stock"), legal[0])
    discards = {m.card: m for m in legal if isinstance(m, Discard)}
    if discards:
        for c in policy.discard_order(s):
            if c in discards:
                return discards[c]
    return legal[0]
