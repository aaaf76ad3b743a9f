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
from collections.abc import Iterator

from loba_dsl.budget import Budget, BudgetLike, Clock, as_budget
from loba_dsl.errors import LobaError
from loba_dsl.game import referee
from loba_dsl.game.generation import SMALL_HAND, LegalGenerator, beside, generator_for, hand_counts
from loba_dsl.game.moves import Draw, LayOff, Meld, Move, MoveWild, ReplaceJoker
from loba_dsl.game.state import Phase, RoundState
from loba_dsl.rules.model import GoingOut, Ruleset, WildMove
from loba_dsl.rules.model import LayOff as LayOffRule

__all__ = ["LEGAL_BUDGET", "MOVE_LIMIT", "SMALL_HAND", "LegalGenerator", "TooManyMoves", "draws", "generate",
           "generator_for"]

MOVE_LIMIT = 20_000
"""The most moves one listing gives; past it :class:`TooManyMoves` (ask ``in`` about a move instead)."""

LEGAL_BUDGET = Budget(seconds=2.0)
"""The time one listing may take (candidates generated and read); past it :class:`~loba_dsl.errors.BudgetExceeded`."""


class TooManyMoves(LobaError):
    """A listing of legal moves past its size limit (a huge hand with many wilds)."""

    code = "too-many-moves"


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
        yield from draws(rs, s)
        return
    moves = _moves(rs, s, _clock(budget))
    owed = referee.pile_card_owed(rs, s)
    if owed is not None:  # turn.use_pile_card: the pile card goes down before anything else
        moves = (m for m in moves if owed in referee.put_cards(m))
    yield from itertools.islice(moves, limit)
    if next(moves, None) is not None:
        raise TooManyMoves(f"{s.players[s.turn]} has more than {limit:,} legal moves here; ask whether a "
                           "given move is legal instead (`move in table.legal()`)")


def draws(rs: Ruleset, s: RoundState) -> tuple[Move, ...]:
    """The legal draws of the player to move in ``s`` (phase ``draw``; none once the round is over), at once."""
    if s.phase is Phase.OVER:
        return ()
    player, draw = s.players[s.turn], generator_for(rs).draw
    if s.pile and (rs.deal.counted_at_end or rs.turn.use_pile_card) and not _judged(rs, s, Draw(player, "discard")):
        # a whole pile would break the count; a pile card that could not be put down
        return (draw(player, "stock"),) if s.stock else ()
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
    counts = hand_counts(hand)
    # A move that empties the hand ends the turn: judged in full (the end-of-turn rules decide).
    may_empty = t.going_out is GoingOut.DISCARD_OPTIONAL
    keep = referee.put_down_leaves(rs, s, seat)
    for cards in g.meld_candidates(hand, clock):
        if n - len(cards) < keep and len(cards) < n:
            continue  # turn.go_out_on_first_lay_down: false, the turn of the first lay-down keeps cards to end it
        if g.is_meld(cards, clock) and (len(cards) < n or (may_empty and _judged(rs, s, Meld(player, cards)))):
            yield Meld(player, cards, deck=deck)
    if t.lay_off is not LayOffRule.NONE and s.melds:
        wilds = g.wild_pool(counts)
        own_only = t.lay_off is not LayOffRule.ANY_MELDS
        for m in s.melds:
            if own_only and m.owner != seat:
                continue  # another's meld, where only one's own may be touched (the referee's table_moves._may_touch)
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
                elif n - len(cards) < least:  # a lay-off keeps cards to end the turn (referee.lay_off_leaves)
                    if _judged(rs, s, LayOff(player, m.number, cards)):
                        yield LayOff(player, m.number, cards, deck=deck)
                elif g.lays_off(target, cards):
                    yield LayOff(player, m.number, cards, deck=deck)
            if target.run and wilds:  # a wild laid off onto a run, at either end
                ends = (beside(rs, target.stands[0], up=False),
                        beside(rs, target.stands[-1], up=True))
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
    if not referee.discard_refusable(rs):  # the rules refuse no card's discard
        for c in distinct:
            yield discard(player, c)
        return
    for c in distinct:
        if not referee.discard_reasons(rs, s, seat, c):
            yield discard(player, c)
