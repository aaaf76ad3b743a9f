"""Rounds that can never end: a proof, from the rules and the public table, that no player can ever go out.

Under ``turn.stock_exhausted: reshuffle_discards`` (docs/rules.md §1) the stock never runs out for good, so a
round ends only when a player goes out.  It can happen that nobody ever can, and the rules give such a round no
end: every hand too small for a new meld, and no card that may still be drawn fitting a meld on the table.
:func:`never_ends` proves it, and proves nothing else (``False`` means *not proved*, not *it will end*):

1. the stock is reshuffled (under ``end_round`` the round ends when the stock does) and a draw takes one card
   (``turn.discard_pile_take: top_card``): a turn draws one card and, unless it goes out, discards one, so no
   hand ever grows; going out empties the hand (``turn.going_out``: ``discard_required`` or
   ``discard_optional``);
2. no player can put a new meld down: a turn holds its hand and one drawn card, a discard is owed unless it goes
   out without one (``discard_optional``), so it can put down at most ``P`` cards (the hand's size, one more
   under ``discard_optional``), fewer than the ruleset's smallest meld kind;
3. no player can lay off: for every meld a player may touch (the referee's own
   :func:`~loba_dsl.game.referee.lay_off_target`), no multiset of at most ``P`` cards that may still be drawn
   (the deck less the cards in melds, which never leave them) extends it as the referee reads it (the
   legal-move generator's own candidates and reading, :mod:`loba_dsl.game.legal`);
4. the table's melds cannot change otherwise: no Joker replacement and no wild move where a meld holds a wild.

Then nothing is ever put down again (2 and 3 hold on: the melds do not change and no hand grows), so no hand
ever empties.  The proof reads only what every player sees (the melds, the hands' sizes, the rules), never a
hidden card.

Ending such a round is not a game rule: the sources and docs/rules.md give it no end and no score.  The
simulations stop it as soon as it is proved, unscored (:func:`loba_dsl.simulation.games.play_game`'s
``stop_stalemates``, a *simulation setting*), where they would otherwise play on to their move cap.
"""

from __future__ import annotations

from collections import Counter

from loba_dsl.budget import Budget, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.errors import LobaError
from loba_dsl.game import referee
from loba_dsl.game.generation import beside, generator_for
from loba_dsl.game.moves import LayOff
from loba_dsl.game.state import Phase, RoundState, TurnInfo, replace
from loba_dsl.rules.model import GoingOut, PileTake, Ruleset, StockExhausted, WildMove
from loba_dsl.rules.model import LayOff as LayOffRule

__all__ = ["RoundNeverEnds", "never_ends", "provable", "proved_endless", "put_down_at_most", "stuck_below"]

CHECK_BUDGET = Budget(seconds=5.0)
"""The most one proof may take (a few hundred candidate lay-offs at most in practice)."""


def put_down_at_most(rs: Ruleset, hand_size: int) -> int:
    """The most cards a turn of a hand of ``hand_size`` (at rest) can put down: the hand and its draw, less the
    discard that ends a turn (none owed when going out under ``discard_optional``)."""
    return hand_size + 1 if rs.turn.going_out is GoingOut.DISCARD_OPTIONAL else hand_size


def stuck_below(rs: Ruleset) -> int:
    """The hand size (at rest) below which a turn can put no new meld down (rule 2 of the module's doc): a
    round whose every hand is smaller is worth :func:`never_ends`'s proof, another never is (0: no hand is,
    the ruleset having no meld kind)."""
    specs = generator_for(rs).specs
    if not specs:
        return 0
    smallest = min(k.lo for k in specs)
    return smallest - 1 if rs.turn.going_out is GoingOut.DISCARD_OPTIONAL else smallest


def provable(rs: Ruleset) -> bool:
    """Whether the ruleset's turn rules let :func:`never_ends` prove anything (rule 1 of the module's doc)."""
    t = rs.turn
    return (t.stock_exhausted is StockExhausted.RESHUFFLE_DISCARDS and t.discard_pile_take is PileTake.TOP_CARD
            and t.going_out is not GoingOut.ONE_CARD_LEFT)


class RoundNeverEnds(LobaError):
    """A round proved one that no player can ever go out of, stopped unscored by a driver that stops such rounds
    (:meth:`~loba_dsl.game.match.Match.play_round`, ``loba play``: docs/rules.md §7); the match cannot go on."""

    code = "round-never-ends"

    def __init__(self, round_number: int, s: RoundState) -> None:
        self.round_number, self.ply = round_number, s.ply
        self.sizes = dict(zip(s.players, map(len, s.hands), strict=True))
        held = ", ".join(f"{p} {n}" for p, n in self.sizes.items())
        super().__init__(f"round {round_number} can never end (stopped at ply {s.ply}, unscored): every hand is too "
                         f"small for a new meld ({held} cards) and no card still to be drawn fits a meld its "
                         "holder may lay off onto, so nobody can go out; the rules give such a round no end and "
                         "no score (docs/rules.md §7), so the match stops here, its record kept")


def proved_endless(rs: Ruleset, s: RoundState) -> bool:
    """:func:`never_ends`, asked only where it can hold: rules that allow a proof (:func:`provable`), a state
    between two turns, every hand below :func:`stuck_below` (a driver asks it at every turn: mostly no proof)."""
    below: int = rs.memo("stalemate-below", _below, rs)
    return below > 0 and s.phase is Phase.DRAW and max(map(len, s.hands)) < below and never_ends(rs, s)


def _below(rs: Ruleset) -> int:
    return stuck_below(rs) if provable(rs) else 0


PROOFS_KEPT = 1024
"""The most answers :func:`never_ends` keeps per ruleset (past it, the kept ones are forgotten)."""


def never_ends(rs: Ruleset, s: RoundState) -> bool:
    """Whether round ``s`` (between two turns: its phase ``draw``) provably never ends: see the module's doc.

    The proof reads the public table only (the players, the round, the melds, the hands' sizes, who has opened
    or put cards down before): its answers are kept by those, as turn after turn of a long round asks again.
    """
    if s.phase is not Phase.DRAW or not provable(rs):
        return False
    key = (s.players, s.round_number, s.melds, tuple(map(len, s.hands)), s.opened, s.laid_before)
    kept: dict[tuple[object, ...], bool] = rs.memo("stalemate-proofs", dict)
    found = kept.get(key)
    if found is None:
        found = _never_ends(rs, s)
        if len(kept) >= PROOFS_KEPT:
            kept.clear()
        kept[key] = found
    return found


def _never_ends(rs: Ruleset, s: RoundState) -> bool:
    g = generator_for(rs)
    smallest = min(k.lo for k in g.specs)
    limits = [put_down_at_most(rs, len(h)) for h in s.hands]
    if any(p >= smallest for p in limits):
        return False  # a hand that could put a new meld down
    t = rs.turn
    has_wild = any(any(m.wild) for m in s.melds)
    if has_wild and (t.joker_replacement or t.wild_move is not WildMove.NONE):
        return False  # a meld that may change without a card laid off
    if t.lay_off is LayOffRule.NONE or not s.melds:
        return True
    deck = rs.deck
    on_table = Counter(c for m in s.melds for c in m.cards)
    left = {c: deck.limit(c) - on_table[c] for c in range(deck.n_codes)}
    clock = CHECK_BUDGET.start("proving that no player can go out")
    for seat, most in enumerate(limits):
        if most <= 0:
            continue
        if _may_lay_off(rs, s, seat, most, left, clock):
            return False
    return True


def _may_lay_off(rs: Ruleset, s: RoundState, seat: int, most: int, left: dict[Card, int],
                 clock: Clock) -> bool:
    """Whether ``seat`` could lay off, now or on any later turn, some ``most`` or fewer cards still to be drawn."""
    g = generator_for(rs)
    counts: Counter[Card] = Counter({c: min(n, most) for c, n in left.items() if n > 0})
    wilds = g.wild_pool(counts)
    # the seat's own turn, after a draw, with nothing put down yet: who may touch which meld
    turn = replace(s, turn=seat, phase=Phase.PLAY, info=TurnInfo(drew="stock"))
    player = s.players[seat]
    for m in s.melds:
        target, _ = referee.lay_off_target(rs, turn, seat, m.number, why=False)
        if target is None:
            continue
        for cards in g.lay_off_candidates(m, counts, wilds, clock):
            if len(cards) <= most and g.lays_off(target, cards):
                return True
        if target.run and wilds:  # a single wild laid off at an end, as the referee reads it with ``as``
            ends = (beside(rs, target.stands[0], up=False), beside(rs, target.stands[-1], up=True))
            for c, _ in wilds:
                held = replace(turn, hands=tuple((*h, c) if i == seat else h for i, h in enumerate(s.hands)))
                for e in ends:
                    if e is not None and not referee.judge(rs, held, LayOff(player, m.number, (c,), (e,)))[0]:
                        return True
    return False
