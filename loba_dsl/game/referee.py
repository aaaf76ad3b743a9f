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
from collections.abc import Sequence
from dataclasses import dataclass

from loba_dsl.budget import Budget
from loba_dsl.cards.deck import Card
from loba_dsl.errors import LobaError
from loba_dsl.game import outcome, roles
from loba_dsl.game.generation import beside, generator_for
from loba_dsl.game.moves import UNKNOWN, Discard, Draw, LayOff, Meld, Move, MoveWild, ReplaceJoker, Reshuffle
from loba_dsl.game.state import Phase, RoundState, TableMeld, TurnInfo, replace
from loba_dsl.rules.model import (
    Direction,
    FirstPlayer,
    GoingOut,
    PileTake,
    Rediscard,
    Ruleset,
    StockExhausted,
    WildMove,
)
from loba_dsl.rules.model import LayOff as LayOffRule


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move is illegal: the ruleset key, the words, and where the ruleset says it."""

    rule: str
    message: str
    where: str
    value: str = ""
    """The setting's value in this ruleset (``own_melds``), where the rule is a setting."""

    def text(self) -> str:
        """The reason with its rule cited: ``... (turn.lay_off: own_melds at rulesets/menos.yaml:75)``."""
        value = f": {self.value}" if self.value else ""
        return f"{self.message} ({self.rule}{value} at {self.where})"

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "message": self.text(), "where": self.where}


class IllegalMove(LobaError):
    """A move the rules forbid; ``reasons`` says which rule, why and where."""

    code = "illegal-move"

    def __init__(self, move: Move, reasons: Sequence[Reason]) -> None:
        self.move = move
        self.reasons = tuple(reasons)
        super().__init__("; ".join(r.text() for r in self.reasons))

    @property
    def rule(self) -> str:
        return self.reasons[0].rule


@dataclass(frozen=True, slots=True)
class Event:
    """Something a move made happen, for the caller to show (``drew``, ``went_out``, ``round_over``...)."""

    kind: str
    player: str | None = None
    cards: tuple[Card, ...] = ()
    meld: int | None = None
    why: str = ""
    """Why it happened, where a rule made it (``took_back``: the requirement the lay-down fell short of)."""


Judgement = tuple[list[Reason], RoundState | None, tuple[Event, ...]]


# ---------------------------------------------------------------- seats and the deal


def step(rs: Ruleset) -> int:
    """+1 where play passes to the next player in the list (clockwise), -1 where to the previous."""
    return 1 if rs.deal.direction is Direction.CLOCKWISE else -1


def first_seat(rs: Ruleset, dealer: int, n: int) -> int:
    """The seat that plays first: the dealer's left is the next in the list, the right the previous."""
    return (dealer + (1 if rs.deal.first_player is FirstPlayer.DEALER_LEFT else -1)) % n


def deck_cards(rs: Ruleset) -> list[Card]:
    """Every physical card of the deck, in code order."""
    deck = rs.deck
    return [c for c in deck.all_codes() for _ in range(deck.limit(c))]


def where(rs: Ruleset, rule: str) -> str:
    """``file:line`` of a rule key (``turn.lay_off``, ``melds.escalera``), or where its default comes from."""
    if rule == "turn.order":
        return where(rs, "deal.direction")
    section, _, key = rule.partition(".")
    if section == "melds":
        try:
            return rs.kind(key).where
        except KeyError:
            return rs.source
    if section in ("turn", "deal", "requirements", "wilds"):
        found = rs.where(section, key)
        return found if found != "(default)" else f"schema.json default of {rule} ({rs.name} does not set it)"
    return rs.source


def _value(rs: Ruleset, rule: str) -> str:
    if rule == "turn.order":
        return f"play goes {rs.deal.direction}"
    section, _, key = rule.partition(".")
    obj = {"turn": rs.turn, "deal": rs.deal}.get(section)
    v = getattr(obj, key, None) if obj is not None else None
    if v is None:
        return ""
    return str(v).lower() if isinstance(v, bool) else str(v)


def reason(rs: Ruleset, rule: str, message: str) -> Reason:
    return Reason(rule, message, where(rs, rule), _value(rs, rule))


def deal_problems(rs: Ruleset, hands: Sequence[Sequence[Card]], upcard: Card | None,
                  stock: Sequence[Card], players: Sequence[str]) -> list[Reason]:
    """Whether a deal is one the ruleset could have dealt: hand sizes, the up-card, the whole deck once."""
    out: list[Reason] = []
    if not rs.players.allows(len(players)):
        out.append(reason(rs, "players.count", f"{rs.name} is played by {rs.players.min} to {rs.players.max} "
                          f"players, not {len(players)}"))
    each = rs.deal.cards_for(len(players))
    rule = "deal.cards_by_players" if each != rs.deal.cards else "deal.cards"
    for name, hand in zip(players, hands, strict=True):
        if len(hand) != each:
            out.append(reason(rs, rule, f"{name} was dealt {len(hand)} cards, not the {each} dealt to each of "
                              f"{len(players)} players"))
    if rs.deal.upcard and upcard is None:
        out.append(reason(rs, "deal.upcard", "the deal turns up a card to start the discard pile, but none is given"))
    if not rs.deal.upcard and upcard is not None:
        out.append(reason(rs, "deal.upcard", f"the deal turns up no card, but {rs.deck.name(upcard)} is given"))
    have = Counter(c for h in hands for c in h)
    have.update(stock)
    if upcard is not None:
        have[upcard] += 1
    unknown = have.pop(UNKNOWN, 0)  # a hand-dealt game: cards the record does not know
    want = Counter(deck_cards(rs))
    extra, missing = have - want, want - have
    if unknown and not extra:
        if sum(missing.values()) != unknown:
            known = sum(have.values())
            out.append(Reason("deck", f"hands, up-card and stock hold {known + unknown} cards ({unknown} of them "
                              f"unknown), but {rs.name}'s deck has {rs.deck.size}", rs.where("deck")))
    elif extra or missing:
        names = rs.deck.names
        parts = []
        if extra:
            parts.append("more copies than the deck holds of " + " ".join(names[c] for c in sorted(extra.elements())))
        if missing:
            parts.append(f"{sum(missing.values())} card(s) of the deck missing: "
                         + " ".join(names[c] for c in sorted(missing.elements())[:12]))
        out.append(Reason("deck", f"hands, up-card and stock must be exactly {rs.name}'s deck of {rs.deck.size} "
                          f"cards: {'; '.join(parts)}", rs.where("deck")))
    return out


def start(rs: Ruleset, players: Sequence[str], dealer: int, hands: Sequence[Sequence[Card]], upcard: Card | None,
          stock: Sequence[Card], round_number: int = 1) -> RoundState:
    """The state after the deal (call :func:`deal_problems` first)."""
    n = len(players)
    return RoundState(tuple(players), dealer, round_number, tuple(tuple(h) for h in hands), tuple(stock),
                      (upcard,) if upcard is not None else (), turn=first_seat(rs, dealer, n))


def next_dealer(rs: Ruleset, s: RoundState) -> int:
    """Who deals the round after ``s`` (``deal.next_dealer``; with nobody out, the deal rotates)."""
    from loba_dsl.rules.model import NextDealer

    if rs.deal.next_dealer is NextDealer.WENT_OUT and s.went_out is not None:
        return s.went_out
    return (s.dealer + step(rs)) % len(s.players)


# ---------------------------------------------------------------- helpers


def _take(hand: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...] | None:
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


def _missing(rs: Ruleset, hand: tuple[Card, ...], cards: Sequence[Card], player: str) -> Reason:
    have = Counter(hand)
    lacking = [c for c, k in Counter(cards).items() if k > have[c]]
    names = " ".join(rs.deck.names_of(lacking))
    return Reason("cards.in_hand", f"{player} does not hold {names}", rs.source)


def _with_hand(s: RoundState, seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return (*s.hands[:seat], hand, *s.hands[seat + 1:])


def _pins(rs: Ruleset, cards: Sequence[Card], as_: Sequence[Card] | None) -> tuple[list[Card | None] | None, str]:
    """The pins a record's ``as`` gives, in the order of the wild-capable cards; or why it does not fit."""
    if as_ is None:
        return None, ""
    capable = [i for i, c in enumerate(cards) if roles.wild_capable(rs, c)]
    if len(as_) != len(capable):
        return None, (f"'as' names {len(as_)} card(s) but the cards hold {len(capable)} wild card(s) "
                      f"({' '.join(rs.deck.names_of(cards[i] for i in capable)) or 'none'})")
    pins: list[Card | None] = [None] * len(cards)
    for i, a in zip(capable, as_, strict=True):
        if rs.deck.is_joker(a):
            return None, "'as' must name natural cards, not a Joker"
        pins[i] = a
    return pins, ""


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
        text = roles.failure_text(rs, failures, limit=max(3, kinds))
        if kind is None:
            return [Reason("melds", f"'{shown}' is not a legal meld of any kind: {text}", where(rs, "melds"))]
        first = failures[0]
        return [Reason(f"melds.{kind}", f"'{shown}' is not a legal meld: {text}", roles.failure_where(rs, first))]
    kind = got.kind or (rs.kinds[0].name if rs.kinds else "?")
    return [Reason(f"melds.{kind}", f"'{shown}' cannot be read that way", where(rs, f"melds.{kind}"))]


def _may_touch(rs: Ruleset, s: RoundState, seat: int, number: int, rule: str,
               why: bool = True) -> tuple[TableMeld | None, list[Reason]]:
    """The meld ``number`` if this player may add to it or rearrange it (``turn.lay_off`` decides whose).

    ``why=False``: a refusal comes without its reasons (the legal-move generator asks only whether).
    """
    if not 1 <= number <= len(s.melds):
        return None, [reason(rs, rule, f"there is no meld {number} on the table ({len(s.melds)} so far)")] if why \
            else []
    m = s.melds[number - 1]
    if m.owner != seat and rs.turn.lay_off is not LayOffRule.ANY_MELDS:
        return None, [reason(rs, "turn.lay_off", f"meld {number} is {s.players[m.owner]}'s; {s.players[seat]} "
                             "may only add to their own melds")] if why else []
    if rs.turn.lay_off_after_first_meld and not any(t.owner == seat for t in s.melds):
        return None, [reason(rs, "turn.lay_off_after_first_meld",
                             f"{s.players[seat]} has no meld on the table yet")] if why else []
    return m, []


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
            out.append(reason(rs, "deal.counted_at_end", f"{name} would end the turn holding {held} cards, table "
                              f"and hand together, where every player holds the {dealt} cards dealt"))
    if t.use_pile_card and info.pile_card is not None and not info.pile_card_used:
        out.append(reason(rs, "turn.use_pile_card", f"{name} took {rs.deck.name(info.pile_card)} from the discard "
                          "pile and must put it down this turn"))
    if t.use_replaced_joker and info.jokers_owed:
        out.append(reason(rs, "turn.use_replaced_joker", f"{name} took back "
                          f"{' '.join(rs.deck.names_of(info.jokers_owed))} and must put it down this turn"))
    return out


def _standing(rs: Ruleset, s: RoundState, seat: int, melds: tuple[TableMeld, ...],
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
                short.append(reason(rs, v.rule, f"{name}'s first lay-down ({_shown(rs, laid)}) {v.summary}"))
        else:
            unmet.append(reason(rs, "requirements.opening", f"{name} has not put down a first lay-down worth "
                                f"{req.opening.minimum} yet"))
    c = req.contracts
    if c is not None:
        pool = laid if c.at_once else [m.cards for m in melds if m.owner == seat]  # at_once: false, every meld
        got = outcome.contract(rs, pool, s.round_number) if pool else None
        if got is None or not got.ok:
            kept = got is not None and got.partial and not c.at_once
            if got is not None and laid and c.before_other_melds and not kept:
                what = "first lay-down" if c.at_once else "melds"
                short.append(reason(rs, got.rule, f"{name}'s {what} ({_shown(rs, pool)}) {got.summary}"))
            else:
                unmet.append(reason(rs, "requirements.contracts", f"{name} has not put down round "
                                    f"{s.round_number}'s contract ({outcome.contract_words(rs, s.round_number)})"))
    return short, unmet


def _shown(rs: Ruleset, melds: Sequence[Sequence[Card]]) -> str:
    return " | ".join(" ".join(rs.deck.names_of(c)) for c in melds)


@dataclass(frozen=True, slots=True)
class _Settled:
    """How a turn ends (:func:`_settle`)."""

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
    short, unmet = _standing(rs, s, seat, melds, info)
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

    The verdict of :func:`_finish` without the next state (the legal-move generator asks it of each discard).
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
                              f"{s.players[seat]} may not go out in the turn of their first lay-down"))
    return reasons


def _finish(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...], melds: tuple[TableMeld, ...],
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
    hands = _with_hand(s, seat, hand)
    opened = s.opened | {seat} if opened_now else s.opened
    laid_before = s.laid_before | {seat} if info.laid or info.laid_off else s.laid_before
    if out:
        all_at_once = seat not in s.opened and not _laid_before(s, seat)
        return [], replace(s, hands=hands, melds=melds, pile=pile, ply=s.ply + 1, opened=opened,
                           laid_before=laid_before, info=_NEW_TURN, phase=Phase.OVER, went_out=seat,
                           all_at_once=all_at_once), (Event("went_out", name), Event("round_over"))
    if not s.stock and (rs.turn.stock_exhausted is StockExhausted.END_ROUND or len(pile) <= 1):
        return [], replace(s, hands=hands, melds=melds, pile=pile, ply=s.ply + 1, opened=opened,
                           laid_before=laid_before, info=_NEW_TURN, phase=Phase.OVER, stock_out=True), (
            Event("stock_out"), Event("round_over"))
    nxt = (seat + step(rs)) % len(s.players)
    return [], replace(s, hands=hands, melds=melds, pile=pile, ply=s.ply + 1, opened=opened,
                       laid_before=laid_before, info=_NEW_TURN, turn=nxt, phase=Phase.DRAW), ()


_NEW_TURN = TurnInfo()
"""What a turn has done before its draw (immutable: shared by every state)."""
_DREW_STOCK = TurnInfo(drew="stock")


def _laid_before(s: RoundState, seat: int) -> bool:
    """Whether the player put anything down before this turn (a meld of theirs, or a lay-off)."""
    return seat in s.laid_before


# ---------------------------------------------------------------- the judge


def judge(rs: Ruleset, s: RoundState, move: Move) -> Judgement:
    """The reasons ``move`` is illegal in ``s`` (empty if legal), the next state, and its events."""
    if isinstance(move, Reshuffle):
        return _reshuffle(rs, s, move)
    if s.phase is Phase.OVER:
        return [reason(rs, "turn.order", "the round is over")], None, ()
    seat = s.turn
    if move.player != s.players[seat]:
        return [reason(rs, "turn.order", f"it is {s.players[seat]}'s turn, not {move.player}'s")], None, ()
    if isinstance(move, Draw):
        if s.phase is not Phase.DRAW:
            return [reason(rs, "turn.order", f"{move.player} has drawn already this turn")], \
                None, ()
        return _draw(rs, s, seat, move)
    if s.phase is Phase.DRAW:
        return [reason(rs, "turn.order", f"{move.player} must draw first (from the stock or the discard pile)")], \
            None, ()
    owed = pile_card_owed(rs, s)
    if owed is not None and not isinstance(move, Discard) and owed not in put_cards(move):
        return [reason(rs, "turn.use_pile_card", f"{move.player} took {rs.deck.name(owed)} from the discard pile "
                       "and must put it down before anything else this turn")], None, ()
    if isinstance(move, Meld):
        return _meld(rs, s, seat, move)
    if isinstance(move, LayOff):
        return _lay_off(rs, s, seat, move)
    if isinstance(move, ReplaceJoker):
        return _replace(rs, s, seat, move)
    if isinstance(move, MoveWild):
        return _move_wild(rs, s, seat, move)
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
        return [reason(rs, "turn.order", "a reshuffle comes only before a draw")], None, ()
    if rs.turn.stock_exhausted is not StockExhausted.RESHUFFLE_DISCARDS:
        return [reason(rs, "turn.stock_exhausted", "this ruleset never reshuffles the discard pile")], None, ()
    if s.stock:
        return [reason(rs, "turn.stock_exhausted", f"the stock still has {len(s.stock)} card(s)")], None, ()
    if move.stock is None:  # a hand-dealt game: the new stock's order is not known
        stock: tuple[Card, ...] = (UNKNOWN,) * (len(s.pile) - 1)
    elif Counter(move.stock) != Counter(s.pile[1:]):
        return [reason(rs, "turn.stock_exhausted", f"the new stock must be the discard pile but its top card "
                       f"({len(s.pile) - 1} cards), each once")], None, ()
    else:
        stock = move.stock
    return [], replace(s, stock=stock, pile=s.pile[:1], ply=s.ply + 1), (Event("reshuffle"),)


def _draw(rs: Ruleset, s: RoundState, seat: int, move: Draw) -> Judgement:
    hand = s.hands[seat]
    if move.source == "stock":
        if not s.stock:
            return [reason(rs, "turn.stock_exhausted", "the stock is empty: a reshuffle entry must come first")], \
                None, ()
        card = s.stock[0]
        if move.card is not None and card != UNKNOWN and move.card != card:
            return [Reason("cards.stock", f"{move.player} drew {rs.deck.name(move.card)} by the record, but the "
                           f"stock's top card is {rs.deck.name(card)}", rs.source)], None, ()
        if card == UNKNOWN and move.card is not None:  # a hand-dealt game: the record says which card came
            card = move.card
        ns = replace(s, hands=_with_hand(s, seat, (*hand, card)), stock=s.stock[1:], phase=Phase.PLAY,
                     ply=s.ply + 1, info=_DREW_STOCK)
        return [], ns, (Event("drew", move.player, () if card == UNKNOWN else (card,)),)
    if not s.pile:
        return [reason(rs, "turn.discard_pile_take", "the discard pile is empty")], None, ()
    taken = s.pile if rs.turn.discard_pile_take is PileTake.WHOLE_PILE else s.pile[:1]
    if rs.deal.counted_at_end and len(taken) > 1:
        return [reason(rs, "deal.counted_at_end", f"every player ends the round holding the "
                       f"{rs.deal.cards_for(len(s.players))} cards dealt, table and hand together: taking the "
                       f"{len(taken)} cards of the discard pile would break it")], None, ()
    info = TurnInfo(drew="discard", pile_card=s.pile[0], pile_taken=len(taken), pile_size=len(s.pile))
    ns = replace(s, hands=_with_hand(s, seat, (*hand, *taken)), pile=s.pile[len(taken):], phase=Phase.PLAY,
                 ply=s.ply + 1, info=info)
    if rs.turn.use_pile_card and not _can_put_down_pile_card(rs, ns):
        return [reason(rs, "turn.use_pile_card", f"{move.player} could not put {rs.deck.name(s.pile[0])} down "
                       "this turn (in a meld or a lay-off), as the card taken from the discard pile must be")], None, ()
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


def _no_card_left(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...]) -> list[Reason]:
    if not hand and rs.turn.going_out is not GoingOut.DISCARD_OPTIONAL:
        return [reason(rs, "turn.going_out", f"{s.players[seat]} must keep a card to discard")]
    return []


def _put_down(rs: Ruleset, s: RoundState, seat: int, hand: tuple[Card, ...], melds: tuple[TableMeld, ...],
              info: TurnInfo, event: Event) -> Judgement:
    """After a meld or a lay-off: go out where the hand is empty (and the rules allow), else play on."""
    if not hand:
        got = _finish(rs, s, seat, hand, melds, s.pile, info, discarded=False)
        return got[0], got[1], (event, *got[2])
    return [], replace(s, hands=_with_hand(s, seat, hand), melds=melds, ply=s.ply + 1, info=info), (event,)


def _meld(rs: Ruleset, s: RoundState, seat: int, move: Meld) -> Judgement:
    hand = _take(s.hands[seat], move.cards)
    if hand is None:
        return [_missing(rs, s.hands[seat], move.cards, move.player)], None, ()
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
    return _put_down(rs, s, seat, hand, (*s.melds, meld), info, Event("melded", move.player, got.cards, number))


def lay_off_target(rs: Ruleset, s: RoundState, seat: int, number: int,
                   why: bool = True) -> tuple[TableMeld | None, list[Reason]]:
    """The meld ``number`` if the player at ``seat`` may lay cards off onto it now, else why not (no cards asked;
    ``why=False``: without the reasons)."""
    if rs.turn.lay_off is LayOffRule.NONE:
        return None, [reason(rs, "turn.lay_off", "this ruleset allows no lay-offs")] if why else []
    m, reasons = _may_touch(rs, s, seat, number, "turn.lay_off", why)
    if m is None:
        return None, reasons
    if rs.deal.counted_at_end and m.owner != seat:
        return None, [reason(rs, "deal.counted_at_end", f"meld {number} is {s.players[m.owner]}'s; a card laid "
                             f"off onto it would count in their cards, where every player ends the round holding "
                             f"the cards dealt to them")] if why else []
    rule = _lay_offs_wait(rs, s, seat) if number not in s.info.laid else None
    if rule is not None:
        if not why:
            return None, []
        return None, [reason(rs, rule, f"{s.players[seat]} may lay off onto other melds only after their first "
                             "lay-down")]
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


def lay_off_leaves(rs: Ruleset, s: RoundState, seat: int) -> int:
    """The fewest cards a lay-off by the player at ``seat`` may leave in their hand (0: no limit).

    A player who has not met the requirements may not go out, and has put down no meld this turn that the
    discard could take back: a lay-off (allowed before the contract where ``before_other_melds`` is false)
    must leave them a card to keep after the discard (two under ``going_out: one_card_left``), or the turn
    could not end.  A lay-off emptying the hand is judged as going out.
    """
    req = rs.requirements
    if seat in s.opened or s.info.laid or (req.opening is None and req.contracts is None):
        return 0
    return 3 if rs.turn.going_out is GoingOut.ONE_CARD_LEFT else 2


def _lay_off(rs: Ruleset, s: RoundState, seat: int, move: LayOff) -> Judgement:
    m, reasons = lay_off_target(rs, s, seat, move.meld)
    if m is None:
        return reasons, None, ()
    hand = _take(s.hands[seat], move.cards)
    if hand is None:
        return [_missing(rs, s.hands[seat], move.cards, move.player)], None, ()
    if not move.cards:
        return [reason(rs, "turn.lay_off", "a lay-off needs at least one card")], None, ()
    new_pins, why = _pins(rs, move.cards, move.as_)
    if why:
        return [reason(rs, "wilds.cards", why)], None, ()
    cards = (*m.cards, *move.cards)
    pins: list[Card | None] = [*m.stands, *(new_pins or [None] * len(move.cards))]
    got = roles.read(rs, cards, pins, kind=m.kind)
    if isinstance(got, roles.Unreadable):
        if got.pinned:
            names = rs.deck.names
            moved = " ".join(f"{names[c]} (as {names[st]})" for c, st, w in zip(m.cards, m.stands, m.wild,
                                                                                strict=True) if w)
            rule = "turn.wild_move" if any(m.wild) else f"melds.{m.kind}"
            return [reason(rs, rule, f"laying off {' '.join(rs.deck.names_of(move.cards))} onto meld {m.number} "
                           f"({' '.join(rs.deck.names_of(m.cards))}) would need a wild on the table to change "
                           f"place: {moved}; a wild keeps its place unless moved by the rules")], None, ()
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
        unmet = [r for part in _standing(rs, s, seat, melds, info) for r in part]
        if unmet:
            return [replace(unmet[0], message=f"{unmet[0].message}: until then a lay-off must leave at least "
                            f"{least} cards in hand, or the turn could not end without going out")], None, ()
    return _put_down(rs, s, seat, hand, melds, info, Event("laid_off", move.player, move.cards, m.number))


def _replace(rs: Ruleset, s: RoundState, seat: int, move: ReplaceJoker) -> Judgement:
    if not rs.turn.joker_replacement:
        return [reason(rs, "turn.joker_replacement", "this ruleset does not let a wild on the table be replaced")], \
            None, ()
    m, reasons = _may_touch(rs, s, seat, move.meld, "turn.joker_replacement")
    if m is None:
        return reasons, None, ()
    if m.owner != seat:
        return [reason(rs, "turn.joker_replacement", f"meld {m.number} is {s.players[m.owner]}'s; only its owner "
                       "may replace a wild in it")], None, ()
    if _take(s.hands[seat], (move.card,)) is None:
        return [_missing(rs, s.hands[seat], (move.card,), move.player)], None, ()
    q = next((q for q in range(len(m.cards)) if m.wild[q] and m.stands[q] == move.card), None)
    if q is None:
        return [reason(rs, "turn.joker_replacement", f"no wild in meld {m.number} "
                       f"({' '.join(rs.deck.names_of(m.cards))}) stands for {rs.deck.name(move.card)}")], None, ()
    wild_card = m.cards[q]
    cards = (*m.cards[:q], move.card, *m.cards[q + 1:])
    wild = (*m.wild[:q], False, *m.wild[q + 1:])
    got = roles.read(rs, cards, list(m.stands), kind=m.kind)
    if isinstance(got, roles.Unreadable):
        return _meld_reasons(rs, got, cards), None, ()
    new = TableMeld(m.number, m.owner, m.kind, cards, m.stands, wild, m.run)
    hand = _take(s.hands[seat], (move.card,))
    assert hand is not None
    hand = (*hand, wild_card)
    info = replace(s.info, jokers_owed=(*s.info.jokers_owed, wild_card),
                   pile_card_used=s.info.pile_card_used or s.info.pile_card == move.card,
                   laid_off=s.info.laid_off or m.number not in s.info.laid)
    melds = (*s.melds[:m.number - 1], new, *s.melds[m.number:])
    return [], replace(s, hands=_with_hand(s, seat, hand), melds=melds, ply=s.ply + 1, info=info), (
        Event("replaced", move.player, (move.card, wild_card), m.number),)


def _move_wild(rs: Ruleset, s: RoundState, seat: int, move: MoveWild) -> Judgement:
    if rs.turn.wild_move is WildMove.NONE:
        return [reason(rs, "turn.wild_move", "this ruleset keeps every wild on the table where it is")], None, ()
    m, reasons = _may_touch(rs, s, seat, move.meld, "turn.wild_move")
    if m is None:
        return reasons, None, ()
    if not m.run:
        return [reason(rs, "turn.wild_move", f"meld {m.number} is a {m.kind}, not a run: its wilds have no ends")], \
            None, ()
    src = 0 if move.to == "high" else len(m.cards) - 1
    other = "low" if move.to == "high" else "high"
    if not m.wild[src]:
        return [reason(rs, "turn.wild_move", f"meld {m.number} ({' '.join(rs.deck.names_of(m.cards))}) has no wild "
                       f"at its {other} end; a wild in the middle stays fixed")], None, ()
    if move.to == "high":
        target = beside(rs, m.stands[-1], up=True)
        cards, stands = (*m.cards[1:], m.cards[0]), (*m.stands[1:], target)
    else:
        target = beside(rs, m.stands[0], up=False)
        cards, stands = (m.cards[-1], *m.cards[:-1]), (target, *m.stands[:-1])
    if target is None:
        return [reason(rs, "turn.wild_move", f"meld {m.number} cannot grow at its {move.to} end")], None, ()
    pins: list[Card | None] = list(stands)
    got = roles.read(rs, cards, pins, kind=m.kind)
    if isinstance(got, roles.Unreadable):
        return [reason(rs, "turn.wild_move", f"moving the wild of meld {m.number} to stand for "
                       f"{rs.deck.name(target)} breaks the meld: "
                       + (roles.failure_text(rs, got.failures) or "not a legal reading"))], None, ()
    new = TableMeld(m.number, m.owner, m.kind, got.cards, got.stands, got.wild, m.run)
    melds = (*s.melds[:m.number - 1], new, *s.melds[m.number:])
    return [], replace(s, melds=melds, ply=s.ply + 1), (Event("moved_wild", move.player, (), m.number),)


def discard_reasons(rs: Ruleset, s: RoundState, seat: int, card: Card) -> list[Reason]:
    """Why the player at ``seat`` may not discard ``card`` (a card they hold), the end of the turn aside."""
    if not rs.turn.discard_joker and rs.deck.is_joker(card):
        return [reason(rs, "turn.discard_joker", "a Joker may not be discarded")]
    info = s.info
    if (rs.turn.rediscard_single is Rediscard.FORBIDDEN and info.pile_size == 1 and info.pile_card == card
            and s.hands[seat].count(card) == 1):
        return [reason(rs, "turn.rediscard_single", f"{s.players[seat]} took {rs.deck.name(card)}, the only card "
                       "of the discard pile, and may not discard it again this turn")]
    return []


def _discard(rs: Ruleset, s: RoundState, seat: int, move: Discard) -> Judgement:
    held = s.hands[seat]
    hand = _take(held, (move.card,))
    if hand is None:
        return [_missing(rs, held, (move.card,), move.player)], None, ()
    reasons = discard_reasons(rs, s, seat, move.card)
    if reasons:
        return reasons, None, ()
    info = s.info
    got = _finish(rs, s, seat, hand, s.melds, (move.card, *s.pile), info, discarded=True)
    return got[0], got[1], (Event("discarded", move.player, (move.card,)), *got[2])


# ---------------------------------------------------------------- the API


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
        got = _finish(rs, s, seat, tuple(rest), s.melds, (move.card, *s.pile), s.info, discarded=True,
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
