"""The end of a turn (a discard, or going out without one): what must hold, where the player stands on
``requirements`` (an opening minimum, a round's contract: docs/rules.md §4), a first lay-down short of them
taken back with the discard, and the next state (going out, the round over, or the next player's turn).

The legal-move listing asks :func:`finish_reasons` of each discard; :func:`finish` is the verdict with the
next state.  See :mod:`loba_dsl.game.referee` for the decisions the end of a turn carries.
"""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.errors import said
from loba_dsl.game import outcome
from loba_dsl.game.dealing import step
from loba_dsl.game.moves import UNKNOWN
from loba_dsl.game.state import Phase, RoundState, TableMeld, TurnInfo, next_state, replace
from loba_dsl.game.verdicts import Event, Judgement, Reason, reason
from loba_dsl.rules.model import GoingOut, Ruleset, StockExhausted

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import NamedTuple
else:
    from loba_dsl.named_tuple import NamedTuple  # typing's, without typing (issue 22)


def take_cards(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...] | None:
    """``hand`` without ``cards`` (as a multiset), or ``None`` if the hand lacks one.

    A card the hand is not known to hold comes from its unknown cards (``UNKNOWN``, a hand-dealt game's
    hidden hand), as far as it has any: the record then tells which card it was.
    """
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            try:
                rest.remove(UNKNOWN)
            except ValueError:
                return None
    return tuple(rest)


def with_hand(s: RoundState, seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return (*s.hands[:seat], hand, *s.hands[seat + 1:])


def _end_of_turn(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...], melds: tuple[TableMeld, ...],
                 info: TurnInfo) -> list[Reason]:
    """What must hold when a turn ends (a discard, or going out without one)."""
    out: list[Reason] = []
    t = rs.turn
    name = s.players[seat]
    if rs.deal.counted_at_end:
        held = len(hand) + sum(len(m.cards) for m in melds if m.owner == seat)
        dealt = rs.deal.cards_for(len(s.players))
        if held > dealt:  # a draw and a discard keep the count: only a turn ended without a discard grows it
            out.append(reason(rs, "deal.counted_at_end", said(
                "{player} would end the turn holding {held} cards, table and hand together, where every player "
                "holds the {dealt} cards dealt", player=name, held=held, dealt=dealt)))
    if t.use_pile_card and info.pile_card is not None and not info.pile_card_used:
        out.append(reason(rs, "turn.use_pile_card", said("{player} took {card} from the discard pile and must put "
                                                         "it down this turn", player=name,
                                                         card=rs.deck.name(info.pile_card))))
    if t.use_replaced_joker and info.jokers_owed:
        out.append(reason(rs, "turn.use_replaced_joker", said("{player} took back {cards} and must put it down "
                                                              "this turn", player=name,
                                                              cards=" ".join(rs.deck.names_of(info.jokers_owed)))))
    return out


def standing(rs: Ruleset, s: RoundState, seat: int, melds: tuple[TableMeld, ...],
              info: TurnInfo) -> tuple[list[Reason], list[Reason]]:
    """Where the player at ``seat`` stands on ``requirements`` if the turn ended with ``melds`` on the table.

    Two lists of reasons: ``short``, why this turn's lay-down falls short and goes back to the hand with the
    discard (an opening minimum not reached; a contract that must come first and complete, or, put down over
    several turns, part of it); ``unmet``, the requirements still not met with the lay-down kept (a contract
    in progress, other melds before the contract).  Both empty: the player has opened.
    """
    req = rs.requirements
    if seat in s.opened or (req.opening is None and req.contracts is None):
        return [], []
    name = s.players[seat]
    laid = [melds[n - 1].cards for n in info.laid]
    short: list[Reason] = []
    unmet: list[Reason] = []
    if req.opening is not None and not any(m.owner == seat and m.number not in info.laid for m in melds):
        # a meld of an earlier turn stayed on the table only where it reached the minimum
        if laid:
            v = outcome.opening(rs, laid)
            if not v.ok:
                short.append(reason(rs, v.rule, said("{player}'s first lay-down ({melds}) {summary}", player=name,
                                                     melds=_shown(rs, laid), summary=v.summary)))
        else:
            unmet.append(_unmet(rs, name, None))
    c = req.contracts
    if c is not None:
        pool = laid if c.at_once else [m.cards for m in melds if m.owner == seat]  # at_once: false, every meld
        got = outcome.contract(rs, pool, s.round_number) if pool else None
        if got is None or not got.ok:
            kept = got is not None and got.partial and not c.at_once
            if got is not None and laid and c.before_other_melds and not kept:
                shown = _shown(rs, pool)
                if c.at_once:
                    what = said("{player}'s first lay-down ({melds}) {summary}", player=name, melds=shown,
                                summary=got.summary)
                else:
                    what = said("{player}'s melds ({melds}) {summary}", player=name, melds=shown, summary=got.summary)
                short.append(reason(rs, got.rule, what))
            else:
                unmet.append(_unmet(rs, name, s.round_number))
    return short, unmet


UNMET_KEPT = 4096
"""The most reasons :func:`_unmet` keeps per ruleset (past it, the kept ones are forgotten)."""


def _unmet(rs: Ruleset, name: str, round_number: int | None) -> Reason:
    """Why ``name`` has not opened: no first lay-down worth the opening minimum (``round_number`` ``None``), or
    not round ``round_number``'s contract.  Made once per player and round and kept on the ruleset: every turn
    end of a player who has not opened asks it, accepted or not, and its words (:class:`~loba_dsl.errors.Said`)
    are for a refusal."""
    kept: dict[tuple[str, int | None], Reason] = rs.memo("unmet-reasons", dict)
    found = kept.get((name, round_number))
    if found is None:
        if round_number is None:
            assert rs.requirements.opening is not None
            found = reason(rs, "requirements.opening", said("{player} has not put down a first lay-down worth "
                                                            "{minimum} yet", player=name,
                                                            minimum=rs.requirements.opening.minimum))
        else:
            found = reason(rs, "requirements.contracts", said(
                "{player} has not put down round {number}'s contract ({contract})", player=name,
                number=round_number, contract=outcome.contract_words(rs, round_number)))
        if len(kept) >= UNMET_KEPT:
            kept.clear()
        kept[(name, round_number)] = found
    return found


def _shown(rs: Ruleset, melds: Sequence[Sequence[Card]]) -> str:
    return " | ".join(" ".join(rs.deck.names_of(c)) for c in melds)


class _Settled(NamedTuple):
    """How a turn ends (:func:`_settle`; a tuple: made twice a turn, by the listing and the discard)."""

    hand: tuple[Card, ...]
    melds: tuple[TableMeld, ...]
    info: TurnInfo
    short: list[Reason]
    """Why this turn's lay-down fell short: taken back (``returned``), or, without a discard, refused."""
    unmet: list[Reason]
    """The requirements still not met, the lay-down kept."""
    returned: tuple[Card, ...]

    @property
    def opened(self) -> bool:
        return not self.short and not self.unmet


def _settle(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...], melds: tuple[TableMeld, ...],
            info: TurnInfo, discarded: bool) -> _Settled:
    """The hand, table and turn a turn ends with: a lay-down short of the requirements is taken back to the
    hand by the discard (its reasons and cards returned), and so is one kept (a contract in progress, other
    melds) where the discard would go out before the requirements are met; without a discard it stays,
    refused."""
    short, unmet = standing(rs, s, seat, melds, info)
    if not short and unmet and discarded and info.laid and _going_out(rs, hand, discarded):
        short, unmet = unmet, []  # going out needs every requirement: the lay-down goes back instead
    if not short or not discarded:
        return _Settled(hand, melds, info, short, unmet, ())
    back = set(info.laid)
    returned = tuple(c for m in melds if m.number in back for c in m.cards)
    kept = tuple(m for m in melds if m.number not in back)
    assert all(m.number == i + 1 for i, m in enumerate(kept)), "melds of this turn are the table's last"
    # the pile card was put down (turn.use_pile_card), even if the lay-down holding it goes back
    return _Settled((*hand, *returned), kept, replace(info, laid=()), short, unmet, returned)


def _going_out(rs: Ruleset, hand: tuple[Card, ...], discarded: bool) -> bool:
    if rs.turn.going_out is GoingOut.ONE_CARD_LEFT and discarded:
        return len(hand) <= 1
    return not hand


def finish_reasons(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...], melds: tuple[TableMeld, ...],
                   info: TurnInfo, discarded: bool) -> list[Reason]:
    """Why the turn may not end with ``hand`` left (after a discard, or going out without one); empty if it may.

    The verdict of :func:`finish` without the next state (the legal-move generator asks it of each discard).
    """
    got = _settle(rs, s, seat, hand, melds, info, discarded)
    reasons = _end_of_turn(rs, s, seat, got.hand, got.melds, got.info)
    out = _going_out(rs, got.hand, discarded)
    if got.short and not got.returned:
        reasons.extend(got.short)
    elif got.unmet and out:  # going out needs every requirement met
        reasons.extend(got.unmet)
    if out and not rs.turn.go_out_on_first_lay_down and seat not in s.laid_before:
        reasons.append(reason(rs, "turn.go_out_on_first_lay_down",
                              said("{player} may not go out in the turn of their first lay-down",
                                   player=s.players[seat])))
    return reasons


def finish(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...], melds: tuple[TableMeld, ...],
            pile: tuple[Card, ...], info: TurnInfo, discarded: bool, checked: bool = False) -> Judgement:
    """End the turn: check what must hold (``checked``: :func:`finish_reasons` was asked already), then go
    out, end the round, or pass the turn."""
    reasons = [] if checked else finish_reasons(rs, s, seat, hand, melds, info, discarded)
    if reasons:
        return reasons, None, ()
    got = _settle(rs, s, seat, hand, melds, info, discarded)
    back = (Event("took_back", s.players[seat], got.returned, why="; ".join(r.text() for r in got.short)),) \
        if got.returned else ()
    opened = got.opened if rs.requirements.opening is not None or rs.requirements.contracts is not None \
        else bool(got.info.laid)
    passed = _passed(rs, s, seat, got.hand, got.melds, pile, got.info, discarded, opened)
    return passed[0], passed[1], (*back, *passed[2])


def _passed(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...], melds: tuple[TableMeld, ...],
            pile: tuple[Card, ...], info: TurnInfo, discarded: bool, opened_now: bool) -> Judgement:
    """The turn ended: go out, end the round, or pass the turn (``opened_now``: the player has opened)."""
    out = _going_out(rs, hand, discarded)
    name = s.players[seat]
    hands = with_hand(s, seat, hand)
    opened = s.opened | {seat} if opened_now else s.opened
    laid_before = s.laid_before | {seat} if info.laid or info.laid_off else s.laid_before
    if out:
        all_at_once = seat not in s.opened and not _laid_before(s, seat)
        return [], next_state(s, hands=hands, melds=melds, pile=pile, ply=s.ply + 1, opened=opened,
                              laid_before=laid_before, info=NEW_TURN, phase=Phase.OVER, went_out=seat,
                              all_at_once=all_at_once), (Event("went_out", name), Event("round_over"))
    if not s.stock and (rs.turn.stock_exhausted is StockExhausted.END_ROUND or len(pile) <= 1):
        return [], next_state(s, hands=hands, melds=melds, pile=pile, ply=s.ply + 1, opened=opened,
                              laid_before=laid_before, info=NEW_TURN, phase=Phase.OVER, stock_out=True), (
            Event("stock_out"), Event("round_over"))
    nxt = (seat + step(rs)) % len(s.players)
    return [], next_state(s, hands=hands, melds=melds, pile=pile, ply=s.ply + 1, opened=opened,
                          laid_before=laid_before, info=NEW_TURN, turn=nxt, phase=Phase.DRAW), ()


NEW_TURN = TurnInfo()
"""What a turn has done before its draw (immutable: shared by every state)."""


DREW_STOCK = TurnInfo(drew="stock")


def _laid_before(s: RoundState, seat: int) -> bool:
    """Whether the player put anything down before this turn (a meld of theirs, or a lay-off)."""
    return seat in s.laid_before
