"""What ``loba arrange`` says about going out: why a hand cannot (the opening minimum, the round's contract, the
cards left, a first lay-down that may not go out), and, when it can, what going out scores and whether it wins
the match outright (``match.instant_win``: a chinchón closes with a seven-card run).

Every figure comes from the ruleset (``turn.going_out``, ``requirements``, ``scoring.round``,
``match.instant_win``); no variant is named here.
"""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.budget import BudgetLike, Clock
from loba_dsl.cards.deck import Card
from loba_dsl.rules.model import Better, GoingOut, Ruleset
from loba_dsl.scoring.requirements import ContractRule, OpeningRule
from loba_dsl.scoring.rounds import going_out_score
from loba_dsl.solver.api import Solver
from loba_dsl.solver.arrangement import OutNote
from loba_dsl.solver.going_out import WayOut
from loba_dsl.solver.last_cards import cards_kept, discard_choices, may_go_out

__all__ = ["OutNote", "out_note"]


def _names(rs: Ruleset, cards: Sequence[Card]) -> str:
    return " ".join(rs.deck.names_of(sorted(cards)))


def _leaves(rs: Ruleset) -> str:
    """What going out may leave unmelded, in words (``turn.going_out``)."""
    if rs.turn.going_out is GoingOut.DISCARD_OPTIONAL:
        return "going out melds every card, or every card but the one discarded"
    if cards_kept(rs):
        return "going out melds every card but the one discarded and at most one kept in hand"
    return "going out melds every card but the one discarded"


def out_note(solver: Solver, cards: Sequence[Card], can_go_out: bool, *, opened: bool,
             rule: OpeningRule | ContractRule | None, way: WayOut | None = None,
             budget: BudgetLike | Clock = None) -> OutNote:
    """The note on going out for a hand after the draw (``cards``) that can, or cannot, go out this turn.

    ``rule``: the requirement in force (the player has not opened), whose way out, when there is one, is ``way``
    (:func:`~loba_dsl.solver.going_out.go_out_meeting`'s); without a requirement the best way out is searched."""
    rs = solver.rs
    if can_go_out and way is not None:
        kept = () if way.kept is None else (way.kept,)
        score, wins = going_out_score(rs, way.melds, kept, all_at_once=not opened, players=solver.players)
        return OutNote((), score, wins)
    if can_go_out:
        return _best_way_out(solver, cards, opened=opened, budget=budget)
    if not may_go_out(rs, laid_before=opened):
        return OutNote((f"under {rs.name} no one goes out in the turn of their first lay-down "
                        "(turn.go_out_on_first_lay_down: false): put cards down now, go out in a later turn",))
    reasons: list[str] = []
    if isinstance(rule, OpeningRule) and solver.best_opening(cards, budget=budget) is None:
        reasons.append(f"no lay-down of this hand reaches the opening minimum of {rule.minimum} "
                       "(requirements.opening)")
    if isinstance(rule, ContractRule) and solver.contract(cards, rule.round_number, budget=budget) is None:
        reasons.append(f"the hand does not hold round {rule.round_number}'s contract, {rule.in_words} "
                       "(requirements.contracts)")
    melded, best = solver.max_melded(cards, budget=budget)
    allowed = 1 + cards_kept(rs)
    left = len(cards) - melded
    if left > allowed:
        reasons.append(f"at best {left} cards stay unmelded ({_names(rs, best.left)}); {_leaves(rs)}")
    if not reasons:
        if isinstance(rule, ContractRule) and not rule.others:
            reasons.append(f"round {rule.round_number}'s contract ({rule.in_words}) goes down alone "
                           "(requirements.contracts.other_melds_same_turn: false), and it cannot hold every card "
                           "that going out must meld")
        elif isinstance(rule, ContractRule):
            reasons.append(f"no way of melding the hand for going out holds round {rule.round_number}'s contract "
                           f"({rule.in_words})")
        elif isinstance(rule, OpeningRule):
            reasons.append(f"no way of melding the hand for going out reaches the opening minimum of "
                           f"{rule.minimum} (requirements.opening)")
        else:
            reasons.append(_leaves(rs))
    return OutNote(tuple(reasons))


def _best_way_out(solver: Solver, cards: Sequence[Card], *, opened: bool, budget: BudgetLike | Clock) -> OutNote:
    """The best round score among the ways out (each discard, the best melds of the rest), and whether it wins.

    Scored as the round formula scores a player who went out; put down all at once when the player had
    not opened (nothing down before this turn)."""
    rs = solver.rs
    keep = cards_kept(rs)
    choices: list[Card | None] = [None] if rs.turn.going_out is GoingOut.DISCARD_OPTIONAL else []
    choices += discard_choices(rs, cards)
    best: tuple[int, bool] | None = None
    for aside in choices:
        rest = list(cards)
        if aside is not None:
            rest.remove(aside)
        if not rest:
            found = going_out_score(rs, (), (), all_at_once=not opened, players=solver.players)
        else:
            arranged = solver.arrange(rest, budget=budget)
            if len(arranged.left) > keep:
                continue
            found = going_out_score(rs, [m.cards for m in arranged.melds], arranged.left, all_at_once=not opened,
                                    players=solver.players)
        if best is None or found[1] > best[1] or (found[1] == best[1] and _better(rs, found[0], best[0])):
            best = found
    if best is None:  # no best arrangement of the rest goes out (a search stopped short): no figure given
        return OutNote()
    return OutNote((), best[0], best[1])


def _better(rs: Ruleset, score: int, than: int) -> bool:
    return score > than if rs.scoring.better is Better.HIGHER else score < than
