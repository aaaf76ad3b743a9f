"""The moves that put cards on the table or rearrange it: a meld, a lay-off, a Joker replaced, a wild moved
along its run; and whose melds a player may touch (``turn.lay_off``, the requirements before a first
lay-down: :func:`lay_off_target`, :func:`lay_off_leaves`).

Each judges one move in a state after the draw and returns the referee's :data:`~loba_dsl.game.verdicts.
Judgement`; a move that empties the hand ends the turn (:func:`~loba_dsl.game.turn_end.finish`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.errors import said
from loba_dsl.game import roles
from loba_dsl.game.generation import beside
from loba_dsl.game.moves import LayOff, Meld, MoveWild, ReplaceJoker
from loba_dsl.game.state import RoundState, TableMeld, TurnInfo, replace
from loba_dsl.game.turn_end import finish, standing, take_cards, with_hand
from loba_dsl.game.verdicts import Event, Judgement, Reason, missing, reason, where
from loba_dsl.rules.model import GoingOut, Ruleset, WildMove
from loba_dsl.rules.model import LayOff as LayOffRule


def _pins(rs: Ruleset, cards: Sequence[Card], as_: Sequence[Card] | None) -> tuple[list[Card | None] | None, str]:
    """The pins a record's ``as`` gives, in the order of the wild-capable cards; or why it does not fit."""
    if as_ is None:
        return None, ""
    capable = [i for i, c in enumerate(cards) if roles.wild_capable(rs, c)]
    if len(as_) != len(capable):
        wild = " ".join(rs.deck.names_of(cards[i] for i in capable))
        return None, said("'as' names {count} card(s) but the cards hold {wild_count} wild card(s) ({wild})",
                          count=len(as_), wild_count=len(capable), wild=wild or said("none"))
    pins: list[Card | None] = [None] * len(cards)
    for i, a in zip(capable, as_, strict=True):
        if rs.deck.is_joker(a):
            return None, said("'as' must name natural cards, not a Joker")
        pins[i] = a
    return pins, ""


_END = {"low": said("low end"), "high": said("high end")}
"""A run's ends, as a reason names them."""


def _owed(info: TurnInfo, cards: Sequence[Card]) -> tuple[tuple[Card, ...], bool]:
    """Wilds still owed after putting ``cards`` down, and whether the pile card was used."""
    owed = list(info.jokers_owed)
    for c in cards:
        if c in owed:
            owed.remove(c)
    used = info.pile_card_used or (info.pile_card is not None and info.pile_card in cards)
    return tuple(owed), used


def _meld_reasons(rs: Ruleset, got: roles.Unreadable, cards: Sequence[Card]) -> list[Reason]:
    """Why ``cards`` are no meld: the rule of the kind they came closest to (:func:`roles.closest_kind`), or
    ``melds`` where two kinds came as close, with every kind's reasons."""
    shown = " ".join(rs.deck.names_of(cards))
    if got.failures:
        kind = roles.closest_kind(got.failures)
        failures = sorted(got.failures, key=lambda f: f.kind != kind)
        kinds = len({f.kind for f in failures})
        text = roles.failure_said(rs, failures, limit=max(3, kinds))
        if kind is None:
            return [Reason("melds", said("'{meld}' is not a legal meld of any kind: {why}", meld=shown, why=text),
                           where(rs, "melds"))]
        first = failures[0]
        return [Reason(f"melds.{kind}", said("'{meld}' is not a legal meld: {why}", meld=shown, why=text),
                       roles.failure_where(rs, first))]
    kind = got.kind or (rs.kinds[0].name if rs.kinds else "?")
    return [Reason(f"melds.{kind}", said("'{meld}' cannot be read that way", meld=shown), where(rs, f"melds.{kind}"))]


def _may_touch(rs: Ruleset, s: RoundState, seat: int, number: int, rule: str,
               why: bool = True) -> tuple[TableMeld | None, list[Reason]]:
    """The meld ``number`` if this player may add to it or rearrange it (``turn.lay_off`` decides whose).

    ``why=False``: a refusal comes without its reasons (the legal-move generator asks only whether).
    """
    if not 1 <= number <= len(s.melds):
        return None, [reason(rs, rule, said("there is no meld {number} on the table ({count} so far)",
                                            number=number, count=len(s.melds)))] if why else []
    m = s.melds[number - 1]
    if m.owner != seat and rs.turn.lay_off is not LayOffRule.ANY_MELDS:
        return None, [reason(rs, "turn.lay_off", said("meld {number} is {owner}'s; {player} may only add to their "
                                                      "own melds", number=number, owner=s.players[m.owner],
                                                      player=s.players[seat]))] if why else []
    if rs.turn.lay_off_after_first_meld and not any(t.owner == seat for t in s.melds):
        return None, [reason(rs, "turn.lay_off_after_first_meld",
                             said("{player} has no meld on the table yet", player=s.players[seat]))] if why else []
    return m, []


def _no_card_left(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...]) -> list[Reason]:
    if not hand and rs.turn.going_out is not GoingOut.DISCARD_OPTIONAL:
        return [reason(rs, "turn.going_out", said("{player} must keep a card to discard", player=s.players[seat]))]
    return []


def put_down(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...], melds: tuple[TableMeld, ...],
              info: TurnInfo, event: Event) -> Judgement:
    """After a meld or a lay-off: go out where the hand is empty (and the rules allow), else play on."""
    least = put_down_leaves(rs, s, seat)
    if 0 < len(hand) < least:
        return [reason(rs, "turn.go_out_on_first_lay_down", said(
            "{player} may not go out in the turn of their first lay-down: a put-down must leave at least {least} "
            "cards in hand, or the turn could not end", player=s.players[seat], least=least))], None, ()
    if not hand:
        got = finish(rs, s, seat, hand, melds, s.pile, info, discarded=False)
        return got[0], got[1], (event, *got[2])
    return [], replace(s, hands=with_hand(s, seat, hand), melds=melds, ply=s.ply + 1, info=info), (event,)


def meld(rs: Ruleset, s: RoundState, seat: int, move: Meld) -> Judgement:
    hand = take_cards(s.hands[seat], move.cards)
    if hand is None:
        return [missing(rs, s.hands[seat], move.cards, move.player)], None, ()
    pins, why = _pins(rs, move.cards, move.as_)
    if why:
        return [reason(rs, "wilds.cards", why)], None, ()
    got = roles.read(rs, move.cards, pins)
    if isinstance(got, roles.Unreadable):
        return _meld_reasons(rs, got, move.cards), None, ()
    reasons = _no_card_left(rs, s, seat, hand)
    if reasons:
        return reasons, None, ()
    number = len(s.melds) + 1
    meld = TableMeld(number, seat, got.kind, got.cards, got.stands, got.wild, got.run)
    owed, used = _owed(s.info, move.cards)
    info = replace(s.info, laid=(*s.info.laid, number), jokers_owed=owed, pile_card_used=used)
    return put_down(rs, s, seat, hand, (*s.melds, meld), info, Event("melded", move.player, got.cards, number))


def lay_off_target(rs: Ruleset, s: RoundState, seat: int, number: int,
                   why: bool = True) -> tuple[TableMeld | None, list[Reason]]:
    """The meld ``number`` if the player at ``seat`` may lay cards off onto it now, else why not (no cards asked;
    ``why=False``: without the reasons)."""
    if rs.turn.lay_off is LayOffRule.NONE:
        return None, [reason(rs, "turn.lay_off", said("this ruleset allows no lay-offs"))] if why else []
    m, reasons = _may_touch(rs, s, seat, number, "turn.lay_off", why)
    if m is None:
        return None, reasons
    if rs.deal.counted_at_end and m.owner != seat:
        return None, [reason(rs, "deal.counted_at_end", said(
            "meld {number} is {owner}'s; a card laid off onto it would count in their cards, where every player "
            "ends the round holding the cards dealt to them", number=number, owner=s.players[m.owner]))] if why \
            else []
    rule = _lay_offs_wait(rs, s, seat) if number not in s.info.laid else None
    if rule is not None:
        if not why:
            return None, []
        return None, [reason(rs, rule, said("{player} may lay off onto other melds only after their first "
                                            "lay-down", player=s.players[seat]))]
    return m, []


def _lay_offs_wait(rs: Ruleset, s: RoundState, seat: int) -> str | None:
    """The requirement that keeps the player at ``seat`` from laying off onto melds of earlier turns (or of
    other players) yet, if any: an opening minimum not yet reached, or a contract that must come first
    (``requirements.contracts.before_other_melds``) and is not yet complete."""
    if seat in s.opened:
        return None
    req = rs.requirements
    if req.opening is not None and not any(m.owner == seat and m.number not in s.info.laid for m in s.melds):
        return "requirements.opening"
    if req.contracts is not None and req.contracts.before_other_melds:
        return "requirements.contracts"
    return None


def put_down_leaves(rs: Ruleset, s: RoundState, seat: int) -> int:
    """The fewest cards a meld or a lay-off by the player at ``seat`` may leave in their hand (0: no limit).

    Under ``turn.go_out_on_first_lay_down: false`` a player in the turn of their first lay-down may not go
    out, so a put-down must leave them a card to keep after the discard (two under ``going_out:
    one_card_left``), or the turn could not end.  A put-down emptying the hand is judged as going out.
    """
    if rs.turn.go_out_on_first_lay_down or seat in s.laid_before:
        return 0
    return _keep(rs)


def _keep(rs: Ruleset) -> int:
    """The fewest cards that let a turn end with a discard without going out."""
    return 3 if rs.turn.going_out is GoingOut.ONE_CARD_LEFT else 2


def lay_off_leaves(rs: Ruleset, s: RoundState, seat: int) -> int:
    """The fewest cards a lay-off by the player at ``seat`` may leave in their hand (0: no limit).

    A player who has not met the requirements may not go out, and has put down no meld this turn that the
    discard could take back: a lay-off (allowed before the contract where ``before_other_melds`` is false)
    must leave them a card to keep after the discard (two under ``going_out: one_card_left``), or the turn
    could not end.  A lay-off emptying the hand is judged as going out.
    """
    req = rs.requirements
    if seat in s.opened or s.info.laid or (req.opening is None and req.contracts is None):
        return put_down_leaves(rs, s, seat)
    return _keep(rs)


def lay_off(rs: Ruleset, s: RoundState, seat: int, move: LayOff) -> Judgement:
    m, reasons = lay_off_target(rs, s, seat, move.meld)
    if m is None:
        return reasons, None, ()
    hand = take_cards(s.hands[seat], move.cards)
    if hand is None:
        return [missing(rs, s.hands[seat], move.cards, move.player)], None, ()
    if not move.cards:
        return [reason(rs, "turn.lay_off", said("a lay-off needs at least one card"))], None, ()
    new_pins, why = _pins(rs, move.cards, move.as_)
    if why:
        return [reason(rs, "wilds.cards", why)], None, ()
    cards = (*m.cards, *move.cards)
    pins: list[Card | None] = [*m.stands, *(new_pins or [None] * len(move.cards))]
    got = roles.read(rs, cards, pins, kind=m.kind)
    if isinstance(got, roles.Unreadable):
        if got.pinned:
            names = rs.deck.names
            wilds = [said("{card} (as {stands})", card=names[c], stands=names[st])
                     for c, st, w in zip(m.cards, m.stands, m.wild, strict=True) if w]
            moved = functools.reduce(lambda some, more: said("{some} {more}", some=some, more=more), wilds) \
                if wilds else ""
            rule = "turn.wild_move" if any(m.wild) else f"melds.{m.kind}"
            return [reason(rs, rule, said(
                "laying off {cards} onto meld {number} ({meld}) would need a wild on the table to change place: "
                "{moved}; a wild keeps its place unless moved by the rules",
                cards=" ".join(rs.deck.names_of(move.cards)), number=m.number,
                meld=" ".join(rs.deck.names_of(m.cards)), moved=moved))], None, ()
        return _meld_reasons(rs, got, cards), None, ()
    reasons = _no_card_left(rs, s, seat, hand)
    if reasons:
        return reasons, None, ()
    new = TableMeld(m.number, m.owner, got.kind, got.cards, got.stands, got.wild, got.run)
    melds = (*s.melds[:m.number - 1], new, *s.melds[m.number:])
    owed, used = _owed(s.info, move.cards)
    info = replace(s.info, jokers_owed=owed, pile_card_used=used,
                   laid_off=s.info.laid_off or m.number not in s.info.laid)
    least = lay_off_leaves(rs, s, seat)
    if 0 < len(hand) < least:
        unmet = [r for part in standing(rs, s, seat, melds, info) for r in part]
        if unmet:
            return [replace(unmet[0], message=said(
                "{reason}: until then a lay-off must leave at least {least} cards in hand, or the turn could not "
                "end without going out", reason=unmet[0].message, least=least))], None, ()
    return put_down(rs, s, seat, hand, melds, info, Event("laid_off", move.player, move.cards, m.number))


def replace_joker(rs: Ruleset, s: RoundState, seat: int, move: ReplaceJoker) -> Judgement:
    if not rs.turn.joker_replacement:
        return [reason(rs, "turn.joker_replacement", said("this ruleset does not let a wild on the table be "
                                                            "replaced"))], None, ()
    m, reasons = _may_touch(rs, s, seat, move.meld, "turn.joker_replacement")
    if m is None:
        return reasons, None, ()
    if m.owner != seat:
        return [reason(rs, "turn.joker_replacement", said("meld {number} is {owner}'s; only its owner may replace "
                                                            "a wild in it", number=m.number,
                                                            owner=s.players[m.owner]))], None, ()
    if take_cards(s.hands[seat], (move.card,)) is None:
        return [missing(rs, s.hands[seat], (move.card,), move.player)], None, ()
    q = next((q for q in range(len(m.cards)) if m.wild[q] and m.stands[q] == move.card), None)
    if q is None:
        return [reason(rs, "turn.joker_replacement", said(
            "no wild in meld {number} ({meld}) stands for {card}", number=m.number,
            meld=" ".join(rs.deck.names_of(m.cards)), card=rs.deck.name(move.card)))], None, ()
    wild_card = m.cards[q]
    cards = (*m.cards[:q], move.card, *m.cards[q + 1:])
    wild = (*m.wild[:q], False, *m.wild[q + 1:])
    got = roles.read(rs, cards, list(m.stands), kind=m.kind)
    if isinstance(got, roles.Unreadable):
        return _meld_reasons(rs, got, cards), None, ()
    new = TableMeld(m.number, m.owner, m.kind, cards, m.stands, wild, m.run)
    hand = take_cards(s.hands[seat], (move.card,))
    assert hand is not None
    hand = (*hand, wild_card)
    info = replace(s.info, jokers_owed=(*s.info.jokers_owed, wild_card),
                   pile_card_used=s.info.pile_card_used or s.info.pile_card == move.card,
                   laid_off=s.info.laid_off or m.number not in s.info.laid)
    melds = (*s.melds[:m.number - 1], new, *s.melds[m.number:])
    return [], replace(s, hands=with_hand(s, seat, hand), melds=melds, ply=s.ply + 1, info=info), (
        Event("replaced", move.player, (move.card, wild_card), m.number),)


def move_wild(rs: Ruleset, s: RoundState, seat: int, move: MoveWild) -> Judgement:
    if rs.turn.wild_move is WildMove.NONE:
        return [reason(rs, "turn.wild_move", said("this ruleset keeps every wild on the table where it is"))], \
            None, ()
    m, reasons = _may_touch(rs, s, seat, move.meld, "turn.wild_move")
    if m is None:
        return reasons, None, ()
    if not m.run:
        return [reason(rs, "turn.wild_move", said("meld {number} is a {kind}, not a run: its wilds have no ends",
                                                    number=m.number, kind=m.kind))], None, ()
    src = 0 if move.to == "high" else len(m.cards) - 1
    other = "low" if move.to == "high" else "high"
    if not m.wild[src]:
        return [reason(rs, "turn.wild_move", said(
            "meld {number} ({meld}) has no wild at its {end}; a wild in the middle stays fixed", number=m.number,
            meld=" ".join(rs.deck.names_of(m.cards)), end=_END[other]))], None, ()
    if move.to == "high":
        target = beside(rs, m.stands[-1], up=True)
        cards, stands = (*m.cards[1:], m.cards[0]), (*m.stands[1:], target)
    else:
        target = beside(rs, m.stands[0], up=False)
        cards, stands = (m.cards[-1], *m.cards[:-1]), (target, *m.stands[:-1])
    if target is None:
        return [reason(rs, "turn.wild_move", said("meld {number} cannot grow at its {end}", number=m.number,
                                                    end=_END[move.to]))], None, ()
    pins: list[Card | None] = list(stands)
    got = roles.read(rs, cards, pins, kind=m.kind)
    if isinstance(got, roles.Unreadable):
        return [reason(rs, "turn.wild_move", said(
            "moving the wild of meld {number} to stand for {card} breaks the meld: {why}", number=m.number,
            card=rs.deck.name(target), why=roles.failure_said(rs, got.failures) or said("not a legal reading")))], \
            None, ()
    new = TableMeld(m.number, m.owner, m.kind, got.cards, got.stands, got.wild, m.run)
    melds = (*s.melds[:m.number - 1], new, *s.melds[m.number:])
    return [], replace(s, melds=melds, ply=s.ply + 1), (Event("moved_wild", move.player, (), m.number),)
