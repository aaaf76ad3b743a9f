"""What a bot knows: the round as its seat sees it, rebuilt from :class:`~loba_dsl.game.view.PlayerView` alone.

A bot is given only its view.  To ask the referee about its own turn it needs a
:class:`~loba_dsl.game.state.RoundState`; :func:`own_state` builds one from the view where every card the
seat cannot see is :data:`~loba_dsl.game.moves.UNKNOWN` (the other hands, the stock), as a hand-dealt
game's state holds them.  The referee judges the player's own moves from its hand and the public table
alone, so such a state answers exactly what the seat may do.  :func:`sample_world` fills those unknown
cards at random from the cards the seat has not seen (a *determinisation*, for the search bot's
play-outs): never from the view's hidden cards, which it does not have.

:class:`Memory` is what a bot remembers between the calls of one turn (the state it drew in, from its own
earlier view), so the turn so far (``view.turn``) replays onto it exactly: which pile card it took,
which melds it put down this turn.  A bot without that memory (seated in the middle of a turn) falls back
on what the view alone says.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from loba_dsl.cards.deck import Card
from loba_dsl.game import referee
from loba_dsl.game.moves import UNKNOWN, Draw, LayOff, Meld, Move, ReplaceJoker
from loba_dsl.game.state import Phase, RoundState, TableMeld, TurnInfo
from loba_dsl.game.view import PlayerView
from loba_dsl.rules.model import Ruleset

__all__ = ["Memory", "own_state", "sample_world", "unseen_cards"]


@dataclass
class Memory:
    """What one seat remembers of the round in play: the state it drew in, and its own earlier lay-downs."""

    round: int = 0
    turn_start: RoundState | None = None
    """The seat's own state when it drew this turn (before the draw)."""
    laid_earlier: bool = False
    """Whether the seat put cards down (a meld, a lay-off) in an earlier turn of this round."""
    laid_this_turn: bool = False

    def observe(self, view: PlayerView) -> None:
        """Note the view the seat is about to move in."""
        if view.round != self.round:
            self.round, self.turn_start, self.laid_earlier, self.laid_this_turn = view.round, None, False, False
        if view.phase is Phase.DRAW:
            if self.laid_this_turn:
                self.laid_earlier, self.laid_this_turn = True, False
            self.turn_start = None

    def state(self, view: PlayerView) -> RoundState:
        """The view's :func:`own_state` (call :meth:`observe` first); kept as the turn's start at the draw."""
        state = own_state(view, self)
        if view.phase is Phase.DRAW:
            self.turn_start = state
        return state

    def played(self, move: Move) -> None:
        """Note the move the seat chose."""
        if isinstance(move, (Meld, LayOff, ReplaceJoker)):
            self.laid_this_turn = True


def _table_melds(rs: Ruleset, view: PlayerView) -> tuple[TableMeld, ...]:
    seat = {p: i for i, p in enumerate(view.players)}
    return tuple(TableMeld(m.number, seat[m.owner], m.kind, m.cards, m.stands, m.wild, rs.kind(m.kind).is_run)
                 for m in view.melds)


def _base(view: PlayerView, memory: Memory | None) -> RoundState:
    """The view as a state at the start of the turn (no turn info yet); hidden cards unknown."""
    rs = view.ruleset
    players = view.players
    me = players.index(view.player) if view.player in players else None
    hands = tuple(view.hand if i == me else (UNKNOWN,) * n for i, n in enumerate(view.hand_sizes))
    opened = frozenset(players.index(p) for p in view.opened)
    laid_before = set(opened) | {players.index(m.owner) for m in view.melds}
    if me is not None and memory is not None and memory.round == view.round:
        laid_before.discard(me)
        if memory.laid_earlier or me in opened:
            laid_before.add(me)
    turn = players.index(view.to_move) if view.to_move is not None else 0
    return RoundState(players, players.index(view.dealer), view.round, hands, (UNKNOWN,) * view.stock_size,
                      view.pile, _table_melds(rs, view), turn=turn, phase=view.phase, ply=view.ply, opened=opened,
                      laid_before=frozenset(laid_before))


def own_state(view: PlayerView, memory: Memory | None = None) -> RoundState:
    """The round as the viewer sees it, hidden cards :data:`UNKNOWN`; the turn so far as exact as ``memory`` allows.

    In the play phase, the turn's moves (``view.turn``) are replayed on the state the seat drew in, where
    the memory has it (then the result is the real state but for the hidden cards); otherwise the turn
    info is rebuilt from the view: the draw's source, the melds put down this turn (a pile card taken is
    then not known, and ``turn.use_pile_card`` is taken as met).
    """
    rs = view.ruleset
    base = _base(view, memory)
    if view.phase is not Phase.PLAY or not view.my_turn:
        return base
    start = memory.turn_start if memory is not None and memory.round == view.round else None
    if start is not None and view.turn and start.ply + len(view.turn) == view.ply:
        s: RoundState | None = start
        for mv in view.turn:
            assert s is not None
            if isinstance(mv, Draw) and mv.source == "stock" and mv.card is not None and s.stock:
                s = replace(s, stock=(mv.card, *s.stock[1:]))
            reasons, s, _ = referee.judge(rs, s, mv)
            if reasons or s is None:
                break
        if s is not None and Counter(s.hands[s.turn]) == Counter(view.hand) and s.melds == base.melds:
            return replace(s, hands=base.hands, stock=base.stock)
    # no memory of this turn: what the view says of it
    me = view.player
    drew = next((m.source for m in view.turn if isinstance(m, Draw)), "stock")
    mine = [m.cards for m in view.turn if isinstance(m, Meld)]
    laid = tuple(t.number for t in base.melds if t.owner == base.turn and any(Counter(t.cards) >= Counter(c)
                                                                                for c in mine))
    laid_off = any(isinstance(m, (LayOff, ReplaceJoker)) for m in view.turn)
    info = TurnInfo(drew=drew, pile_card=None, pile_taken=0, pile_card_used=True, laid=laid, laid_off=laid_off)
    assert me is not None
    return replace(base, info=info)


def unseen_cards(view: PlayerView) -> list[Card]:
    """The cards the viewer has not seen: the deck less its hand, the discard pile and the table (sorted)."""
    rs = view.ruleset
    left = Counter(referee.deck_cards(rs))
    left.subtract(view.hand)
    left.subtract(view.pile)
    for m in view.melds:
        left.subtract(m.cards)
    return sorted(c for c, k in left.items() for _ in range(max(0, k)))


def sample_world(state: RoundState, unseen: Sequence[Card], rng: random.Random) -> RoundState:
    """``state`` (from :func:`own_state`) with its unknown cards dealt at random from ``unseen``.

    Every hidden hand keeps its size and the stock its size; ``unseen`` must hold exactly as many cards as
    the state has unknown ones (it does for a view's own state: the deck's cards are all somewhere).
    """
    pool = list(unseen)
    rng.shuffle(pool)
    pos = 0
    hands = []
    for h in state.hands:
        k = h.count(UNKNOWN)
        if k:
            known = [c for c in h if c != UNKNOWN]
            hands.append((*known, *pool[pos:pos + k]))
            pos += k
        else:
            hands.append(h)
    k = state.stock.count(UNKNOWN)
    stock = tuple(pool[pos:pos + k])
    return replace(state, hands=tuple(hands), stock=stock)
