"""What ``loba arrange`` answers: the best arrangement of a hand *as the player stands in the round*.

The solver's :meth:`~loba_dsl.solver.api.Solver.arrange_text` arranges a hand as
if any legal melds could go down.  Under a ruleset with ``requirements``
(rules.md §4) that is only true once the player has opened:

- an opening minimum (``requirements.opening``): a player who has not
  opened yet can put down only a lay-down that reaches the minimum
  (:meth:`~loba_dsl.solver.api.Solver.best_opening`), or nothing;
- contracts (``requirements.contracts``): a player who has not opened
  yet must put down round N's contract first
  (:meth:`~loba_dsl.solver.api.Solver.contract`).  Whether other melds may
  follow it in the same turn is ``requirements.contracts.other_melds_same_turn``,
  read here as the referee reads it: under ``false`` (the shipped decision,
  rules.md §4) the arrangement is the contract's melds alone (the whole hand
  where the contract can hold it all; else the contract's melds, each made as
  long as the cards left allow, one card at a time), under ``true`` the contract
  and then the best arrangement of the rest.

:func:`arrange_hand` is the one function behind ``loba arrange`` (and a service's
equivalent): it reads the hand, applies the requirements unless ``opened``, and
says whether the hand can go out honouring them: exactly, by a search over
every partition of the hand into legal melds
(:func:`~loba_dsl.solver.going_out.go_out_meeting`), not only over the
requirement's best arrangement.  Both that search and
:meth:`~loba_dsl.solver.api.Solver.can_go_out` (no requirement in force) leave
unmelded only what the referee lets stay when going out
(:mod:`loba_dsl.solver.last_cards`).  ``round_number`` is the round being played
(1-based); a ruleset with contracts needs it until the player has opened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from loba_dsl.budget import BudgetLike, Clock, as_budget
from loba_dsl.cards.deck import Card
from loba_dsl.cards.notation import check_copies
from loba_dsl.errors import InputError, said
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.requirements import ContractRule, OpeningRule, contract, contract_rule, opening_rule
from loba_dsl.scoring.rounds import score_player
from loba_dsl.solver.api import ArrangedHand, Arrangement, PlacedMeld, Solver
from loba_dsl.solver.going_out import FullPartitions, go_out_meeting
from loba_dsl.solver.last_cards import discard_choices
from loba_dsl.solver.out_notes import out_note

__all__ = ["arrange_hand", "requirement_in_force"]


def requirement_in_force(ruleset: Ruleset, *, opened: bool, round_number: int | None) -> str | None:
    """``"opening"``, ``"contract"`` or ``None``: what the player's next lay-down must satisfy.

    A ruleset with contracts and a player who has not opened needs ``round_number``
    (an :class:`~loba_dsl.errors.InputError` says so).
    """
    if opened:
        return None
    req = ruleset.requirements
    if req.contracts is not None:
        if round_number is None:
            raise InputError(f"{ruleset.name} has a contract for each round (requirements.contracts): say which "
                             "round is being played, or that the player has already opened",
                             hint="loba arrange ... --round N, or --opened")
        return "contract"
    if req.opening is not None:
        return "opening"
    return None


def arrange_hand(solver: Solver, text: str, *, opened: bool = False, round_number: int | None = None,
                 lang: str | None = None, source: str = "<cards>", line: int = 1,
                 discard: bool = False, budget: BudgetLike | Clock = None) -> ArrangedHand:
    """Read a hand (``line`` of ``source``) and arrange it as the player stands: see the module's doc.

    Without requirements in force this is :meth:`Solver.arrange_text`.  With
    them, the arrangement holds only what the player may put down now (a
    lay-down reaching the opening minimum, or the round's contract, and then any
    other melds where ``requirements.contracts.other_melds_same_turn`` allows
    them), and ``can_go_out`` says whether the whole hand can go out with such a
    lay-down.  ``discard=True``: the hand has just drawn, so every discard
    is tried first (never a Joker under ``turn.discard_joker: false`` while another card may
    go).  ``budget`` (default: the solver's) bounds the whole answer.

    ``can_go_out`` is the referee's answer for the hand after the draw, going out this
    turn (:mod:`loba_dsl.solver.last_cards`: the discard, the card kept under
    ``one_card_left``, ``turn.discard_joker``, ``turn.go_out_on_first_lay_down``;
    ``opened`` means cards put down in an earlier turn, so that last key no longer
    applies): :meth:`Solver.can_go_out` where no requirement is in force,
    :func:`go_out_meeting` where one is.
    """
    rs = solver.rs
    need = requirement_in_force(rs, opened=opened, round_number=round_number)
    if need is None:
        clock = budget if isinstance(budget, Clock) else (
            solver.budget if budget is None else as_budget(budget)).start("arranging the hand")
        hand = solver.arrange_text(text, lang=lang, source=source, line=line, discard=discard, opened=opened,
                                   budget=clock)
        note = out_note(solver, hand.cards, hand.can_go_out, opened=opened, rule=None, budget=clock)
        return replace(hand, note=note)
    rule: OpeningRule | ContractRule
    if need == "contract":
        assert round_number is not None
        rule = contract_rule(rs, round_number)  # a round outside the list is an InputError before any search
    else:
        rule = opening_rule(rs)
    parsed = rs.notation(lang).parse(text, source=source, first_line=line)
    check_copies(parsed, rs.deck, source=source, text="\n" * (line - 1) + text, ruleset=rs.name)
    cards = parsed.cards
    if not cards:
        raise InputError(said("no cards given"), hint=said("e.g. {example}",
                                                       example='loba arrange "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠"'))
    clock = budget if isinstance(budget, Clock) else (
        solver.budget if budget is None else as_budget(budget)).start("arranging the hand")

    parts: FullPartitions | None = None

    def contract_alone(hand: Sequence[Card], aside: Card | None) -> list[Sequence[Card]] | None:
        """The contract's melds holding all of ``hand`` (``cards`` less ``aside``), if they can."""
        nonlocal parts
        assert isinstance(rule, ContractRule)
        if parts is None:
            parts = FullPartitions(solver, cards, clock)
        key = parts.key(aside)
        kinds = tuple(sorted(rule.wanted))
        need = tuple(rule.wanted[k] for k in kinds)
        if key is None or not hand or not parts.partition(key, need, parts.kinds_of(kinds), False):
            return None
        return list(parts.partition_melds(key, need, False))

    def best(hand: Sequence[Card], aside: Card | None = None) -> Arrangement:
        if need == "opening":
            found = solver.best_opening(hand, budget=clock)
            return found if found is not None else _arranged(solver, hand, [])
        assert round_number is not None and isinstance(rule, ContractRule)
        if not rule.others:
            whole = contract_alone(hand, aside)
            if whole is not None:
                return _arranged(solver, hand, whole)
        done = solver.contract(hand, round_number, budget=clock)
        if done is None:
            return _arranged(solver, hand, [])
        if not rule.others:
            return _arranged(solver, hand, _lengthened(solver, rule, [m.cards for m in done.melds], done.left))
        rest = solver.arrange(done.left, budget=clock)
        return _arranged(solver, hand, [*(m.cards for m in done.melds), *(m.cards for m in rest.melds)])

    dropped: Card | None = None
    if discard:
        choice: tuple[int, Card, Arrangement] | None = None
        for card in discard_choices(rs, cards):
            arr = best(_without(cards, card), card)
            if choice is None or _better(rs, arr.score, choice[0]):
                choice = (arr.score, card, arr)
        assert choice is not None
        dropped, arrangement = choice[1], choice[2]
    else:
        arrangement = best(cards)
    way = go_out_meeting(solver, cards, rule, budget=clock)
    note = out_note(solver, cards, way is not None, opened=opened, rule=rule, way=way, budget=clock)
    return ArrangedHand(cards, arrangement, dropped, way is not None, note)


def _lengthened(solver: Solver, rule: ContractRule, melds: Sequence[Sequence[Card]],
                left: Sequence[Card]) -> list[Sequence[Card]]:
    """The contract's melds with each card left added to the first meld it keeps the contract whole in.

    One card at a time, in order: a longer set or run is still one meld of its kind, so the
    lay-down is still the contract alone (rules.md §4, ``other_melds_same_turn: false``).
    """
    out = [tuple(m) for m in melds]
    for card in left:
        for i, m in enumerate(out):
            tried = [*out[:i], (*m, card), *out[i + 1:]]
            if contract(solver.rs, rule.round_number, tried).ok:
                out = tried
                break
    return list(out)


def _better(rs: Ruleset, score: int, than: int) -> bool:
    from loba_dsl.rules.model import Better

    return score > than if rs.scoring.better is Better.HIGHER else score < than


def _without(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    out = list(cards)
    out.remove(card)
    return tuple(out)


def _arranged(solver: Solver, cards: Sequence[Card], melds: Sequence[Sequence[Card]]) -> Arrangement:
    """The arrangement of ``cards`` with these melds down, scored by the ruleset's formula."""
    placed = []
    left = list(cards)
    for m in melds:
        g = solver.gain(tuple(m))
        assert g is not None, "every meld put down is legal"
        placed.append(PlacedMeld(tuple(m), g[1], g[0]))
        for c in m:
            left.remove(c)
    rest = tuple(sorted(left))
    scored = score_player(solver.rs, melds=[tuple(m) for m in melds], hand=rest, players=solver.players)
    return Arrangement(tuple(cards), tuple(placed), rest, scored.hand_value, scored.score, not rest)
