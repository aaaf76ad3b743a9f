"""The referee: is a move legal in a state, and the state it leads to.

Every rule comes from the typed ruleset (``rs.turn``, ``rs.deal``,
``rs.requirements``, the meld shapes); no variant is named here.  Each
rejection is a :class:`Reason` naming the ruleset key that forbids the move
(``turn.lay_off``), the reason in words and the ruleset ``file:line`` of that
key; two keys belong to no ruleset: ``turn.order`` (not this player's turn or
phase) and ``cards.in_hand`` (a card the player does not hold).

:func:`judge` is the one place that decides: it returns the reasons, or the
next state and the events of the move; :func:`verify` and :func:`apply` are
built on it, and a rejected move changes nothing (states are immutable).  The
legal moves are generated (:mod:`loba_dsl.game.legal`) from the verdicts it
exposes in parts (:func:`discard_reasons`, :func:`finish_reasons`,
:func:`lay_off_target`).

The referee's work is split by job, this module keeping the judge, the draw, the discard and the API (every
name below is importable from here as before):

- :mod:`loba_dsl.game.verdicts`: :class:`Reason`, :class:`IllegalMove`, :class:`Event`, :func:`where`;
- :mod:`loba_dsl.game.dealing`: seats and the deal (:func:`step`, :func:`first_seat`, :func:`deal_problems`,
  :func:`start`, :func:`next_dealer`);
- :mod:`loba_dsl.game.table_moves`: melds, lay-offs, Joker replacements, wild moves, whose melds a player may
  touch (:func:`lay_off_target`, :func:`lay_off_leaves`);
- :mod:`loba_dsl.game.turn_end`: the end of a turn, the requirements and the take-back
  (:func:`finish_reasons`).

Where the rules leave a question open, the referee decides so:

- a first lay-down (``requirements``) is everything a player puts down in the turn they first put
  cards down; it is judged when the turn ends: a lay-down short of the requirement goes back to the
  player's hand with the discard (event ``took_back``, as Canasta takes back an insufficient meld), so a
  legal put-down never leaves the turn without a way to end; going out (an empty hand) needs it met;
- a contract's lay-down is the contract's melds, in that one turn: exactly those, where
  ``requirements.contracts.other_melds_same_turn`` is false (other melds from the next turn; a lay-off
  onto them in that turn only makes them longer melds of their kinds), or those among other melds
  where it is true (both judged by :func:`loba_dsl.scoring.requirements.contract`, as ``loba arrange``
  reads the same key);
- ``requirements.contracts.at_once: false``: the contract is held by every meld the player has put down
  this round; melds that are part of it stay on the table, and the player has opened once they hold it
  whole; ``before_other_melds: false``: other melds and lay-offs may come before the contract and stay
  (so also beside it: ``other_melds_same_turn`` has no effect); either way going out needs every
  requirement met, a discard that would go out before that takes the turn's lay-down back, and a lay-off
  by a player who has not met them and put down no meld this turn must leave cards to end the turn
  (:func:`lay_off_leaves`), so the turn can always end (docs/rules.md §4, contrato);
- a lay-off onto a meld of an earlier turn or of another player (``lay_off: any_melds``) before the first
  lay-down is refused where the ruleset has an opening minimum not yet reached, or contracts that must
  come first (``before_other_melds: true``) not yet complete;
- ``turn.use_pile_card``: the discard pile may be taken only where its card can then go down (a move that
  puts it down exists, :func:`_can_put_down_pile_card`), and it goes down before any other move
  (:func:`pile_card_owed`); a short first lay-down holding it goes back with the discard as any other, the
  pile card counted as put down, so the turn can always end (docs/rules.md §1);
- only a meld's owner may replace its Joker (docs/rules.md §1: "the owner may replace a Joker"), whoever
  may lay off onto it; moving a wild follows the ownership ``turn.lay_off`` gives for lay-offs;
- ``rediscard_single: forbidden`` refuses the discard of the card taken from a discard pile that held
  that one card only (docs/rules.md §3), whether the ruleset takes the top card or the whole pile;
- where the stock is empty and the discard pile holds at most one card, nothing can be
  reshuffled: the round ends as if the stock rule ended it (``stock_out``);
- under ``stock_exhausted: end_round`` a player who goes out on that last discard went out.
"""

from __future__ import annotations

from collections import Counter

from loba_dsl.budget import Budget
from loba_dsl.cards.deck import Card
from loba_dsl.errors import said
from loba_dsl.game.dealing import deal_problems, deck_cards, first_seat, next_dealer, start, step
from loba_dsl.game.generation import beside, generator_for
from loba_dsl.game.moves import UNKNOWN, Discard, Draw, LayOff, Meld, Move, MoveWild, ReplaceJoker, Reshuffle
from loba_dsl.game.state import Phase, RoundState, TurnInfo, next_state, replace
from loba_dsl.game.table_moves import (
    lay_off,
    lay_off_leaves,
    lay_off_target,
    meld,
    move_wild,
    put_down_leaves,
    replace_joker,
)
from loba_dsl.game.turn_end import DREW_STOCK, finish, finish_reasons, take_cards, with_hand
from loba_dsl.game.verdicts import Event, IllegalMove, Judgement, Reason, missing, reason, where
from loba_dsl.rules.model import LayOff as LayOffRule
from loba_dsl.rules.model import PileTake, Rediscard, Ruleset, StockExhausted

__all__ = ["Event", "IllegalMove", "Judgement", "Reason", "apply", "deal_problems", "deck_cards", "discard_reasons",
           "discard_refusable", "finish_reasons", "first_seat", "judge", "judge_listed", "lay_off_leaves",
           "lay_off_target", "next_dealer", "pile_card_owed", "put_cards", "put_down_leaves", "reason", "start", "step",
           "verify", "where"]


def judge(rs: Ruleset, s: RoundState, move: Move) -> Judgement:
    """The reasons ``move`` is illegal in ``s`` (empty if legal), the next state, and its events."""
    if isinstance(move, Reshuffle):
        return _reshuffle(rs, s, move)
    if s.phase is Phase.OVER:
        return [reason(rs, "turn.order", said("the round is over"))], None, ()
    seat = s.turn
    if move.player != s.players[seat]:
        return [reason(rs, "turn.order", said("it is {turn}'s turn, not {player}'s", turn=s.players[seat],
                                                        player=move.player))], None, ()
    if isinstance(move, Draw):
        if s.phase is not Phase.DRAW:
            return [reason(rs, "turn.order", said("{player} has drawn already this turn", player=move.player))], \
                None, ()
        return _draw(rs, s, seat, move)
    if s.phase is Phase.DRAW:
        return [reason(rs, "turn.order", said("{player} must draw first (from the stock or the discard pile)",
                                                    player=move.player))], \
            None, ()
    owed = pile_card_owed(rs, s)
    if owed is not None and not isinstance(move, Discard) and owed not in put_cards(move):
        return [reason(rs, "turn.use_pile_card", said("{player} took {card} from the discard pile and must put it "
                                                       "down before anything else this turn", player=move.player,
                                                       card=rs.deck.name(owed)))], None, ()
    if isinstance(move, Meld):
        return meld(rs, s, seat, move)
    if isinstance(move, LayOff):
        return lay_off(rs, s, seat, move)
    if isinstance(move, ReplaceJoker):
        return replace_joker(rs, s, seat, move)
    if isinstance(move, MoveWild):
        return move_wild(rs, s, seat, move)
    return _discard(rs, s, seat, move)


def pile_card_owed(rs: Ruleset, s: RoundState) -> Card | None:
    """The card taken from the discard pile that the player to move must still put down (``turn.use_pile_card``),
    before any other move of the turn: a meld holding it, a lay-off of it, a replacement by it."""
    info = s.info
    if rs.turn.use_pile_card and info.pile_card is not None and not info.pile_card_used and s.phase is Phase.PLAY:
        return info.pile_card
    return None


def put_cards(move: Move) -> tuple[Card, ...]:
    """The cards a move puts down from the hand."""
    if isinstance(move, (Meld, LayOff)):
        return move.cards
    if isinstance(move, ReplaceJoker):
        return (move.card,)
    return ()


def _reshuffle(rs: Ruleset, s: RoundState, move: Reshuffle) -> Judgement:
    if s.phase is not Phase.DRAW:
        return [reason(rs, "turn.order", said("a reshuffle comes only before a draw"))], None, ()
    if rs.turn.stock_exhausted is not StockExhausted.RESHUFFLE_DISCARDS:
        return [reason(rs, "turn.stock_exhausted", said("this ruleset never reshuffles the discard pile"))], None, ()
    if s.stock:
        return [reason(rs, "turn.stock_exhausted", said("the stock still has {count} card(s)",
                                                        count=len(s.stock)))], None, ()
    if move.stock is None:  # a hand-dealt game: the new stock's order is not known
        stock: tuple[Card, ...] = (UNKNOWN,) * (len(s.pile) - 1)
    elif Counter(move.stock) != Counter(s.pile[1:]):
        return [reason(rs, "turn.stock_exhausted", said("the new stock must be the discard pile but its top card "
                                                        "({count} cards), each once", count=len(s.pile) - 1))], \
            None, ()
    else:
        stock = move.stock
    return [], replace(s, stock=stock, pile=s.pile[:1], ply=s.ply + 1), (Event("reshuffle"),)


def _draw(rs: Ruleset, s: RoundState, seat: int, move: Draw) -> Judgement:
    hand = s.hands[seat]
    if move.source == "stock":
        if not s.stock:
            return [reason(rs, "turn.stock_exhausted",
                           said("the stock is empty: a reshuffle entry must come first"))], None, ()
        card = s.stock[0]
        if move.card is not None and card != UNKNOWN and move.card != card:
            return [Reason("cards.stock", said("{player} drew {card} by the record, but the stock's top card is "
                                                "{top}", player=move.player, card=rs.deck.name(move.card),
                                                top=rs.deck.name(card)), rs.source)], None, ()
        if card == UNKNOWN and move.card is not None:  # a hand-dealt game: the record says which card came
            card = move.card
        ns = next_state(s, hands=with_hand(s, seat, (*hand, card)), stock=s.stock[1:], phase=Phase.PLAY,
                        ply=s.ply + 1, info=DREW_STOCK)
        return [], ns, (Event("drew", move.player, () if card == UNKNOWN else (card,)),)
    if not s.pile:
        return [reason(rs, "turn.discard_pile_take", said("the discard pile is empty"))], None, ()
    taken = s.pile if rs.turn.discard_pile_take is PileTake.WHOLE_PILE else s.pile[:1]
    if rs.deal.counted_at_end and len(taken) > 1:
        return [reason(rs, "deal.counted_at_end", said(
            "every player ends the round holding the {dealt} cards dealt, table and hand together: taking the "
            "{count} cards of the discard pile would break it", dealt=rs.deal.cards_for(len(s.players)),
            count=len(taken)))], None, ()
    info = TurnInfo(drew="discard", pile_card=s.pile[0], pile_taken=len(taken), pile_size=len(s.pile))
    ns = next_state(s, hands=with_hand(s, seat, (*hand, *taken)), pile=s.pile[len(taken):], phase=Phase.PLAY,
                    ply=s.ply + 1, info=info)
    if rs.turn.use_pile_card and not _can_put_down_pile_card(rs, ns):
        return [reason(rs, "turn.use_pile_card", said(
            "{player} could not put {card} down this turn (in a meld or a lay-off), as the card taken from the "
            "discard pile must be", player=move.player, card=rs.deck.name(s.pile[0])))], None, ()
    return [], ns, (Event("took_pile", move.player, taken),)


def _can_put_down_pile_card(rs: Ruleset, s: RoundState) -> bool:
    """Whether the player who just took the discard pile (``s``) has a move that puts its card down: a meld
    holding it, a lay-off of cards holding it, a replacement by it, each as this referee judges it (the only
    moves they may make first, :func:`pile_card_owed`, so without one the turn could not end)."""
    seat = s.turn
    player, hand, card = s.players[seat], s.hands[seat], s.info.pile_card
    assert card is not None
    g = generator_for(rs)
    clock = PILE_CARD_BUDGET.start("looking for a way to put the pile card down")
    for cards in g.meld_candidates(hand, clock):
        if card in cards and g.is_meld(cards, clock) and not judge(rs, s, Meld(player, cards))[0]:
            return True
    if rs.turn.lay_off is not LayOffRule.NONE:
        counts = Counter(hand)
        wilds = g.wild_pool(counts)
        for m in s.melds:
            if lay_off_target(rs, s, seat, m.number, why=False)[0] is None:
                continue
            for cards in g.lay_off_candidates(m, counts, wilds, clock):
                if card in cards and not judge(rs, s, LayOff(player, m.number, cards))[0]:
                    return True
            if m.run and g.wild_capable[card]:  # the card as a wild at either end
                for end in (beside(rs, m.stands[0], up=False), beside(rs, m.stands[-1], up=True)):
                    if end is not None and not judge(rs, s, LayOff(player, m.number, (card,), (end,)))[0]:
                        return True
    return rs.turn.joker_replacement and any(not judge(rs, s, ReplaceJoker(player, m.number, card))[0]
                                             for m in s.melds)


PILE_CARD_BUDGET = Budget(seconds=2.0)
"""The time the search for a way to put the pile card down may take (as one listing of the legal moves)."""


def discard_refusable(rs: Ruleset) -> bool:
    """Whether :func:`discard_reasons` can refuse any card under these rules (else it never does: the listing
    need not ask it card by card)."""
    t = rs.turn
    return (not t.discard_joker and rs.deck.jokers > 0) or t.rediscard_single is Rediscard.FORBIDDEN


def discard_reasons(rs: Ruleset, s: RoundState, seat: int, card: Card) -> list[Reason]:
    """Why the player at ``seat`` may not discard ``card`` (a card they hold), the end of the turn aside."""
    if not rs.turn.discard_joker and rs.deck.is_joker(card):
        return [reason(rs, "turn.discard_joker", said("a Joker may not be discarded"))]
    info = s.info
    if (rs.turn.rediscard_single is Rediscard.FORBIDDEN and info.pile_size == 1 and info.pile_card == card
            and s.hands[seat].count(card) == 1):
        return [reason(rs, "turn.rediscard_single", said(
            "{player} took {card}, the only card of the discard pile, and may not discard it again this turn",
            player=s.players[seat], card=rs.deck.name(card)))]
    return []


def _discard(rs: Ruleset, s: RoundState, seat: int, move: Discard) -> Judgement:
    held = s.hands[seat]
    hand = take_cards(held, (move.card,))
    if hand is None:
        return [missing(rs, held, (move.card,), move.player)], None, ()
    reasons = discard_reasons(rs, s, seat, move.card)
    if reasons:
        return reasons, None, ()
    info = s.info
    got = finish(rs, s, seat, hand, s.melds, (move.card, *s.pile), info, discarded=True)
    return got[0], got[1], (Event("discarded", move.player, (move.card,)), *got[2])


def judge_listed(rs: Ruleset, s: RoundState, move: Move) -> Judgement:
    """:func:`judge` of a move that the legal-move generator (:mod:`loba_dsl.game.legal`) listed in ``s``:
    a discard skips the verdicts the listing asked of it (:func:`discard_reasons` of its card,
    :func:`finish_reasons` of the hand it leaves); any other move is judged in full.  Never for a move
    from elsewhere: :class:`~loba_dsl.game.table.Table` calls it only for the very objects its listing
    of ``s`` gave."""
    if type(move) is Discard and s.phase is Phase.PLAY:
        seat = s.turn
        rest = list(s.hands[seat])
        rest.remove(move.card)
        got = finish(rs, s, seat, tuple(rest), s.melds, (move.card, *s.pile), s.info, discarded=True,
                      checked=True)
        return got[0], got[1], (Event("discarded", move.player, (move.card,)), *got[2])
    return judge(rs, s, move)


def verify(rs: Ruleset, s: RoundState, move: Move) -> list[Reason]:
    """Why ``move`` is illegal in ``s``; empty when it is legal.  Changes nothing."""
    return judge(rs, s, move)[0]


def apply(rs: Ruleset, s: RoundState, move: Move) -> tuple[RoundState, tuple[Event, ...]]:
    """The state after a legal ``move``; an illegal one raises :class:`IllegalMove`."""
    reasons, ns, events = judge(rs, s, move)
    if reasons or ns is None:
        raise IllegalMove(move, reasons)
    return ns, events
