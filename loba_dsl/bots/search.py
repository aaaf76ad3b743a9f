"""The search bot: determinised search over the cards it has not seen, greedy play-outs, the best average.

At the two decisions that matter, the draw and the turn's end (which card to discard, whether to hold
the melds back), :class:`SearchBot` lists a few candidate turns: greedy's own, and its next-best discards
and the other draw.  It then samples ``samples`` *worlds*: the cards it has not seen (the deck less its
hand, the pile and the table; :func:`~loba_dsl.bots.knowledge.unseen_cards`) dealt at random to the other
hands and the stock, keeping every size (:func:`~loba_dsl.bots.knowledge.sample_world`).  In each world
each candidate is played, then every seat plays on with :class:`~loba_dsl.bots.greedy.Greedy` for
``horizon`` turns or to the round's end.  Every candidate meets the same worlds and the same play-out
generators (common random numbers), so the comparison is paired world by world; another candidate
replaces greedy's only where its mean gain exceeds ``margin`` standard errors of that gain.

The outcome of a play-out is the bot's score less the mean of the others' (sign by ``scoring.better``):
the round's real scores where it ended, else each hand's best score if the round ended now (the
solver's).  With ``horizon=0`` the worlds are only the next stock card instead (each unseen card, by its
unseen copies, where ``samples`` covers them all: the exact mean) and a candidate is worth the hand's
score after that draw and greedy's discard.  The budget is ``samples`` worlds per decision (reproducible:
the worlds come from the bot's own generator) and, where given, ``seconds`` of CPU time (then fewer
worlds may be played: not reproducible, for play against a person).

With ``endgame=N`` (the default :data:`ENDGAME`, 7; where lower scores are better: elsewhere the play-outs
above decide) the bot searches only once its hand is down to ``N`` cards, and plays greedy's turn before: each
candidate is then worth the mean, over every unseen card as the next stock card (by its unseen copies: the exact
expectation), of the turn greedy would play after that draw, ending in going out (worth ``bonus`` times the
others' mean hand size times the mean unseen card's value) or in a hand (worth minus its cards' value, as it would
cost if another went out; a hand that can never go out, :func:`dead`, costs :data:`DEAD` more).  At the draw the
stock's candidate is worth that mean, the pile's the turn it leads to; at the discard each candidate is worth the
mean of the next turn after it.

Measured against greedy in two-player menos on duplicate deals, the play-outs have shown no edge; the endgame
lookahead from 7 cards one, on a fresh sample: +2.79 ± 0.72 points a round over 120 deals (seed 9001; the README's
figures, ``benchmarks/bench_search_strength.py``; ``tests/bots/test_bots_strength.py``).  The bot sees only its
view: its worlds are drawn from what the view shows and from its generator, never from the table's hidden cards,
which it does not have.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from loba_dsl.bots.greedy import Greedy, fallback, pick
from loba_dsl.bots.knowledge import Memory, sample_world, unseen_cards
from loba_dsl.cards.deck import Card
from loba_dsl.game import outcome, referee
from loba_dsl.game.moves import Discard, Draw, Move, Reshuffle
from loba_dsl.game.standings import ReentryOffer
from loba_dsl.game.state import Phase, RoundState, TurnInfo
from loba_dsl.game.view import PlayerView
from loba_dsl.rules.model import LayOff as LayOffRule
from loba_dsl.rules.model import PileTake, StockExhausted

__all__ = ["SearchBot", "play_out"]

SAMPLES = 8
HORIZON = 6
"""Turns played after the candidate's, by all seats (about one and a half rounds of the table at 4)."""
WIDTH = 3
"""Discards tried: greedy's and the next-best ones."""
ENDGAME = 7
"""Where lower scores are better, the hand size from which the endgame lookahead decides (greedy's turns before);
``0``: the play-outs instead, as wherever higher scores are better."""
MARGIN = 1.0
"""Another candidate replaces greedy's only if its mean gain over greedy's, world by world, exceeds this many
standard errors of that gain (noise alone would otherwise pick the luckiest candidate)."""


class SearchBot:
    """Determinised search with greedy play-outs (see the module's doc)."""

    name = "search"

    def __init__(self, rng: random.Random | None = None, *, samples: int = SAMPLES, horizon: int = HORIZON,
                 width: int = WIDTH, seconds: float | None = None, margin: float = MARGIN,
                 endgame: int = ENDGAME, bonus: float = 0.6) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.samples = max(1, samples)
        self.horizon = max(0, horizon)
        self.endgame = endgame
        self.bonus = bonus
        self.width = max(1, width)
        self.seconds = seconds
        self.margin = margin
        self.memory = Memory()
        self._plan: tuple[tuple[int, int], list[Move]] | None = None
        self.decisions = 0
        """Decisions searched so far (a benchmark reads it)."""

    def reenter(self, offer: ReentryOffer) -> bool:
        return True

    def move(self, view: PlayerView, legal: Sequence[Move]) -> Move:
        policy = Greedy.of(view.ruleset)
        self.memory.observe(view)
        key = (view.round, view.ply)
        state: RoundState | None = None
        wanted: Move | None = None
        if view.phase is not Phase.DRAW and self._plan is not None and self._plan[0] == key and self._plan[1]:
            moves = self._plan[1]
        else:
            state = self.memory.state(view)
            moves = self._search(policy, view, state)
        if moves:
            wanted = moves[0]
            self._plan = ((key[0], key[1] + 1), moves[1:])
        chosen = pick(legal, wanted) if wanted is not None else None
        if chosen is None:
            self._plan = None
            chosen = fallback(policy, state if state is not None else self.memory.state(view), legal)
        self.memory.played(chosen)
        return chosen

    # ------------------------------------------------------------ the candidates

    def _candidates(self, policy: Greedy, s: RoundState) -> list[list[Move]]:
        """Whole turns (from here to the turn's end) to compare; greedy's first."""
        rs = policy.rs
        me = s.players[s.turn]
        if s.phase is Phase.DRAW:
            greedy_draw, plan = policy.draw_and_plan(s)
            other = Draw(me, "stock") if greedy_draw.source == "discard" else Draw(me, "discard")
            out: list[list[Move]] = [[greedy_draw, *plan]]
            if other.source == "discard":
                reasons, after, _ = referee.judge(rs, s, other)
                if reasons or after is None:
                    return out
                rest = policy.plan(after)
                if not rest:
                    return out
                out.append([other, *rest])
            else:
                out.append([other])
            return out
        plan = policy.plan(s)
        if not plan:
            return []
        out = [plan]
        end = plan[-1]
        if not isinstance(end, Discard):
            return out  # going out by a put-down: nothing better
        before, played = policy.run(s, plan[:-1])
        if before is None:
            return out
        if before.phase is Phase.PLAY and len(plan) > 1:
            # holding the lay-down back: the discard alone
            alone = policy.discard(s)
            if alone is not None:
                out.append([alone])
        for c in policy.discard_order(before):
            if len(out) >= self.width + 1:
                break
            mv = Discard(me, c)
            if mv == end:
                continue
            reasons, ns, _ = referee.judge(rs, before, mv)
            if not reasons and ns is not None:
                out.append([*played, mv])
        return out

    def _search(self, policy: Greedy, view: PlayerView, s: RoundState) -> list[Move]:
        candidates = self._candidates(policy, s)
        if len(candidates) <= 1:
            return candidates[0] if candidates else []
        # going out now is never bettered
        end, _ = policy.run(s, candidates[0])
        if end is not None and end.phase is Phase.OVER and end.went_out == s.turn:
            return candidates[0]
        self.decisions += 1
        unseen = unseen_cards(view)
        if self.endgame and policy.lower:
            if len(s.hands[s.turn]) <= self.endgame:
                return candidates[self._lookahead(policy, s, candidates, unseen)]
            return candidates[0]
        if self.horizon == 0:
            return candidates[self._next_draw(policy, s, candidates, unseen)]
        values: list[list[float]] = [[] for _ in candidates]
        started = time.process_time()
        for played in range(self.samples):
            if self.seconds is not None and played and time.process_time() - started > self.seconds:
                break
            world = sample_world(s, unseen, self.rng)
            seed = self.rng.getrandbits(64)
            for i, moves in enumerate(candidates):
                values[i].append(play_out(policy, world, moves, s.turn, random.Random(seed), self.horizon))
        best, best_score = 0, 0.0
        for i in range(1, len(candidates)):
            gains = [x - y for x, y in zip(values[i], values[0], strict=True)]
            n = len(gains)
            mean = sum(gains) / n
            sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
            score = mean - self.margin * sd / math.sqrt(n)
            if score > best_score:
                best, best_score = i, score
        return candidates[best]


    def _lookahead(self, policy: Greedy, s: RoundState, candidates: list[list[Move]], unseen: Sequence[Card]) -> int:
        """The candidate with the best worth: see the module's doc (``endgame``)."""
        rs = policy.rs
        seat = s.turn
        counts = Counter(unseen)
        total = len(unseen)
        if not total:
            return 0
        mean_card = sum(k * policy.score((c,)) for c, k in counts.items()) / total
        others = sum(len(h) for i, h in enumerate(s.hands) if i != seat) / max(1, len(s.hands) - 1)
        gain = self.bonus * others * mean_card

        hopeless: dict[tuple[object, ...], bool] = {}
        """:func:`dead` by what it reads of a state (the hand's size, the table, who has laid down): many of the
        states weighed here share them."""

        def worth(end: RoundState | None) -> float:
            if end is None:
                return -math.inf
            if end.phase is Phase.OVER and end.went_out == seat:
                return gain
            hand = end.hands[seat]
            penalty = float(sum(policy.score((c,)) for c in hand))  # if another went out now: the hand as it is
            if len(hand) < MIN_MELD:
                key = (len(hand), end.phase, end.melds, end.laid_before, end.opened)
                known = hopeless.get(key)
                if known is None:
                    known = hopeless[key] = dead(policy, end, seat)
                if known:
                    return -penalty - DEAD
            return -penalty

        def drawn(state: RoundState) -> float:
            """The mean worth of the turn's end after a stock draw from ``state`` (each unseen card on top)."""
            got = 0.0
            me = state.players[seat]
            for c, k in counts.items():
                t = replace(state, stock=(c, *state.stock[1:]))
                t = referee.apply(rs, t, Draw(me, "stock"))[0]
                _, end = policy.plan_to_end(t)
                value = worth(end)
                if value < -DEAD:  # this turn would rather keep its cards than leave a dead hand (or had no plan)
                    alone = policy.discard_to_end(t)
                    if alone is not None:
                        value = max(value, worth(alone[1]))
                    elif end is None:  # no plan at all: the hand as it is (the bot's fallback discards one)
                        value = -float(sum(policy.score((x,)) for x in t.hands[seat]))
                got += k * value
            return got / total

        values = []
        for moves in candidates:
            if s.phase is Phase.DRAW:
                first = moves[0]
                if isinstance(first, Draw) and first.source == "stock" and s.stock:
                    values.append(drawn(s))
                else:
                    values.append(worth(policy.run(s, moves)[0]))
                continue
            end, _ = policy.run(s, moves)
            if end is None or end.phase is Phase.OVER or not end.stock:
                values.append(-math.inf if end is None else worth(end))
                continue
            values.append(drawn(replace(end, turn=seat)))
        best = 0
        for i in range(1, len(values)):
            if values[i] > values[best] + 1e-9:
                best = i
        return best

    def _worlds(self, unseen: Sequence[Card]) -> list[tuple[Card, float]]:
        """The next stock card's worlds with their weights: every unseen card (by its unseen copies) where the
        budget allows them all, else ``samples`` of them drawn at random."""
        counts: dict[Card, int] = {}
        for c in unseen:
            counts[c] = counts.get(c, 0) + 1
        if not unseen:
            return []
        if len(counts) <= self.samples:
            return [(c, k / len(unseen)) for c, k in sorted(counts.items())]
        return [(c, 1 / self.samples) for c in self.rng.sample(list(unseen), self.samples)]

    def _next_draw(self, policy: Greedy, s: RoundState, candidates: list[list[Move]], unseen: Sequence[Card]) -> int:
        """The candidate whose hand is best after the next draw (each unseen card the next stock card, the mean
        over them), played by greedy: at the draw, the pile's card against a stock card; at the turn's end, the
        hand kept against the next turn's draw and discard."""
        worlds = self._worlds(unseen)
        sign = -1.0 if policy.lower else 1.0

        def expected(hand: Sequence[Card]) -> float:
            if not worlds:
                return sign * policy.after_discard(hand) if hand else sign * policy.score(())
            return sum(w * sign * policy.after_discard((*hand, c)) for c, w in worlds)

        values = []
        seat = s.turn
        for moves in candidates:
            first = moves[0]
            if s.phase is Phase.DRAW and isinstance(first, Draw) and first.source == "stock":
                values.append(expected(s.hands[seat]))
                continue
            end, _ = policy.run(s, moves)
            if end is None:
                values.append(-math.inf)
            elif s.phase is Phase.DRAW:  # the pile's cards, the rest of the turn as greedy plans it
                values.append(sign * policy.after_discard(referee.apply(policy.rs, s, first)[0].hands[seat]))
            else:
                values.append(expected(end.hands[seat]))
        best = 0
        for i in range(1, len(values)):
            if values[i] > values[best] + 1e-9:
                best = i
        return best


DEAD = 100.0
"""What a hand that can never go out (:func:`dead`) costs beside its cards: more than any hand's cards, so that a
turn leaving one is chosen only when every other does too."""
MIN_MELD = 3
"""The fewest cards of a meld (a hand that cannot hold a meld and a discard can go out only by lay-offs)."""


def dead(policy: Greedy, s: RoundState, seat: int) -> bool:
    """Whether ``seat``, its turn over in ``s``, can never go out: its hand, one card short of a meld and a discard
    after each draw, never grows (the pile gives one card at a time), and no card that may still be drawn (every
    copy of it is not yet in a meld) may be laid off on a meld it may touch."""
    rs = policy.rs
    hand = s.hands[seat]
    if len(hand) >= MIN_MELD or rs.turn.discard_pile_take is PileTake.WHOLE_PILE or s.phase is Phase.OVER:
        return False
    if rs.turn.lay_off is LayOffRule.NONE:
        return True
    me = s.players[seat]
    mine_only = rs.turn.lay_off is not LayOffRule.ANY_MELDS
    gone = Counter(c for m in s.melds for c in m.cards)  # on the table for good: never drawn again
    for m in s.melds:
        if mine_only and m.owner != seat:
            continue
        for c in policy.fits(m):
            if gone[c] >= rs.deck.limit(c):
                continue
            t = replace(s, turn=seat, phase=Phase.PLAY, hands=tuple((*h, c) if i == seat else h
                                                                    for i, h in enumerate(s.hands)),
                        info=TurnInfo(drew="stock"))
            if any(not referee.judge(rs, t, mv)[0] for mv in policy.lay_off_moves(t, me, c, {m.number: {c}})):
                return False
    return True


def _ready(policy: Greedy, s: RoundState, rng: random.Random) -> RoundState:
    """``s``, the pile reshuffled into the stock first where the stock is empty and the rules say so."""
    rs = policy.rs
    if not s.stock and rs.turn.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS and len(s.pile) > 1:
        pile = list(s.pile[1:])
        rng.shuffle(pile)
        s = referee.apply(rs, s, Reshuffle(tuple(pile)))[0]
    return s


def _step(policy: Greedy, s: RoundState, rng: random.Random) -> RoundState:
    """One whole turn of the seat to move, played by greedy (reshuffling the pile first where needed)."""
    rs = policy.rs
    s = _ready(policy, s, rng)
    draw, plan, end = policy.draw_and_plan_to_end(s)
    if end is not None:
        return end
    s = referee.apply(rs, s, draw)[0]
    plan, end = policy.plan_to_end(s)
    return end if end is not None else _finish_turn(policy, s, plan)


def _finish_turn(policy: Greedy, s: RoundState, plan: Sequence[Move]) -> RoundState:
    rs = policy.rs
    seat = s.turn
    for mv in plan:
        reasons, ns, _ = referee.judge(rs, s, mv)
        if reasons or ns is None:
            break
        s = ns
    if s.phase is Phase.PLAY and s.turn == seat:  # the plan did not end the turn: any legal discard
        for c in dict.fromkeys(s.hands[seat]):
            reasons, ns, _ = referee.judge(rs, s, Discard(s.players[seat], c))
            if not reasons and ns is not None:
                return ns
        return replace(s, phase=Phase.OVER, stock_out=True)  # stuck: stop the play-out here
    return s


def play_out(policy: Greedy, world: RoundState, moves: Sequence[Move], me: int, rng: random.Random,
             horizon: int) -> float:
    """Play ``moves`` (the rest of ``me``'s turn) in ``world``, then ``horizon`` greedy turns: the outcome."""
    rs = policy.rs
    s = world
    if s.phase is Phase.DRAW:
        s = referee.apply(rs, _ready(policy, s, rng), moves[0])[0]
        moves = moves[1:]
    s = _finish_turn(policy, s, moves if moves else policy.plan(s))
    for _ in range(horizon):
        if s.phase is Phase.OVER:
            break
        s = _step(policy, s, rng)
    return _value(policy, s, me)


def _value(policy: Greedy, s: RoundState, me: int) -> float:
    rs = policy.rs
    if s.phase is Phase.OVER:
        melds: list[list[tuple[Card, ...]]] = [[] for _ in s.players]
        for m in s.melds:
            melds[m.owner].append(m.cards)
        got = outcome.score(rs, players=s.players, melds=melds, hands=s.hands, went_out=s.went_out,
                            all_at_once=s.all_at_once, stock_out=s.stock_out, round_number=s.round_number)
        values = [float(got.scores[p]) for p in s.players]
    else:
        values = [float(policy.score(h)) for h in s.hands]
    others = [v for i, v in enumerate(values) if i != me]
    edge = values[me] - (sum(others) / len(others) if others else 0.0)
    return -edge if policy.lower else edge
