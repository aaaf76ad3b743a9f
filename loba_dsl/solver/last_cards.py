"""What going out may leave unmelded: the referee's reading of ``turn``, for the solver's searches.

One place for the rule both "can go out" searches follow
(:meth:`~loba_dsl.solver.api.Solver.can_go_out`, once the player has opened or where
nothing is required, and :func:`~loba_dsl.solver.going_out.go_out_meeting`, before the
first lay-down), so neither can drift from the other or from the referee
(:mod:`loba_dsl.game.referee`, which ends a turn on the discard, or on a meld or
lay-off that empties the hand):

- ``turn.going_out: discard_required`` (rules.md §1): everything is melded but one
  card, which is discarded; a meld or lay-off may never empty the hand;
- ``discard_optional`` (rules.md §3): everything is melded, the last meld emptying
  the hand, or everything but one card, which is discarded;
- ``one_card_left`` (rules.md §4, closing): a discard is required as under
  ``discard_required``, and one more card may stay in hand, unmelded (it is counted):
  melding everything but the discard, or everything but the discard and one card;
- ``turn.discard_joker: false`` (rules.md §1): a Joker is never the discard (it may be
  the card kept);
- ``turn.go_out_on_first_lay_down: false`` (rules.md §1): a player who has put nothing
  down in an earlier turn of the round (melds or lay-offs) does not go out this turn,
  whatever they put down now.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.rules.model import GoingOut, Ruleset

__all__ = ["cards_kept", "discard_choices", "discards", "may_discard", "may_go_out"]


def may_go_out(rs: Ruleset, *, laid_before: bool) -> bool:
    """May the player go out this turn at all (``turn.go_out_on_first_lay_down``)?

    ``laid_before``: the player put melds down (or laid off) in an earlier turn of
    the round, so this turn's lay-down is not their first.
    """
    return laid_before or rs.turn.go_out_on_first_lay_down


def discards(rs: Ruleset, cards: Sequence[Card]) -> Iterator[Card | None]:
    """The discards going out may end with, in the order of ``cards`` (each distinct card once).

    ``None`` first under ``discard_optional``: no discard, the last meld empties the
    hand.  Then every card but a Joker under ``turn.discard_joker: false``.
    """
    if rs.turn.going_out is GoingOut.DISCARD_OPTIONAL:
        yield None
    for card in dict.fromkeys(cards):
        if may_discard(rs, card):
            yield card


def may_discard(rs: Ruleset, card: Card) -> bool:
    """May ``card`` be discarded at all (never a Joker under ``turn.discard_joker: false``)?"""
    return rs.turn.discard_joker or not rs.deck.is_joker(card)


def discard_choices(rs: Ruleset, cards: Sequence[Card]) -> list[Card]:
    """The distinct cards of a hand that has drawn that its discard may be, in the order of ``cards``.

    Every card :func:`may_discard`; a hand holding only cards that may not be
    discarded (Jokers alone) keeps them all as choices: a turn ends on a discard.
    """
    distinct = list(dict.fromkeys(cards))
    return [c for c in distinct if may_discard(rs, c)] or distinct


def cards_kept(rs: Ruleset) -> int:
    """How many cards beside the discard may stay in hand, unmelded, when going out (1 under ``one_card_left``)."""
    return 1 if rs.turn.going_out is GoingOut.ONE_CARD_LEFT else 0
