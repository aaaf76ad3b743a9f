"""Could a round, as reported, have happened under a ruleset?  Checked before anything in it is scored.

- No player is listed twice.
- The number of players is within ``players`` (``min`` to ``max``), and no
  more players are listed than play.
- Only one player goes out in a round (a round ends when *a* player goes out).
- Where ``turn.stock_exhausted`` is ``end_round``, a round whose stock ran out
  ended without anybody going out.  (Where the discards are reshuffled into a
  new stock, the stock may run out and someone go out later.)
- A player who went out keeps what ``turn.going_out`` allows: one card with
  ``one_card_left``, none otherwise.
- Where ``deal.counted_at_end`` (Chinchón), every player ends the round with
  exactly the cards dealt (``deal.cards``, or ``deal.cards_by_players`` for
  the table's size) between table and hand; a player who lists only a hand
  holds at most that many (their melds may be left out).
- The cards of all players together fit the deck: no card more often than its
  copies (rules.md §5: ``7♠ 7♠`` is two physical cards).
- Under ``requirements`` (rules.md §4), a player with melds on the table has opened, so the table holds a
  first lay-down that met the requirement: under an opening minimum the table is worth at least it (a first
  lay-down is part of the table, and lay-offs only add to it); under contracts it holds melds of the
  round's contract, as many of each kind as it asks.

Every problem is a :class:`~loba_dsl.scoring.model.PartError` naming the player
(and the meld or card) by position.  :func:`loba_dsl.scoring.rounds.score_round`
runs these checks, so a round file gets them through it; a referee can ask them
of a round it is about to end.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.errors import said
from loba_dsl.rules.model import GoingOut, Ruleset, StockExhausted
from loba_dsl.scoring.model import Part, PartError, PlayerPoints, PlayerRound, RoundFacts

__all__ = ["cards_fit_the_deck", "dealt_cards", "distinct_names", "going_out", "requirements_met", "round_problems",
           "table_size"]


def round_problems(ruleset: Ruleset, players: Sequence[PlayerRound], facts: RoundFacts) -> list[PartError]:
    """Every reason this round cannot have happened under ``ruleset`` (meld legality apart), in reading order."""
    return [*distinct_names(players), *table_size(ruleset, len(players), facts.players),
            *going_out(ruleset, players, facts.stock_out), *dealt_cards(ruleset, players, facts.players),
            *cards_fit_the_deck(ruleset, players), *requirements_met(ruleset, players, facts.round)]


def distinct_names(players: Sequence[PlayerRound | PlayerPoints]) -> list[PartError]:
    """No player is listed twice in one round."""
    seen: set[str] = set()
    errors = []
    for i, p in enumerate(players):
        if p.name in seen:
            errors.append(PartError(said("player '{name}' appears twice in this round", name=p.name),
                                    part=Part(player=i)))
        seen.add(p.name)
    return errors


def table_size(ruleset: Ruleset, listed: int, players: int) -> list[PartError]:
    """``players`` play (within the ruleset's range), and no more than that are listed."""
    lo, hi = ruleset.players.min, ruleset.players.max
    if not ruleset.players.allows(players):
        return [PartError(said("{ruleset} is played by {least} to {most} players, not {players}", ruleset=ruleset.name,
                               least=lo, most=hi, players=players))]
    if listed > players:
        return [PartError(said("the round lists {listed} players but says there are {players}", listed=listed,
                               players=players),
                          part=Part(player=players))]
    return []


def going_out(ruleset: Ruleset, players: Sequence[PlayerRound | PlayerPoints], stock_out: bool) -> list[PartError]:
    """One player at most went out, nobody did if the stock ran out and that ends the round, and the one who
    went out kept no more cards than ``turn.going_out`` allows."""
    errors: list[PartError] = []
    out = [i for i, p in enumerate(players) if p.went_out]
    if len(out) > 1:
        names = ", ".join(players[i].name for i in out)
        errors.append(PartError(said("only one player can go out in a round, but {names} did", names=names),
                                part=Part(player=out[1])))
    if stock_out and out and ruleset.turn.stock_exhausted is StockExhausted.END_ROUND:
        errors.append(PartError(
            said("the stock ran out, so nobody went out, but {name} did", name=players[out[0]].name),
            part=Part(player=out[0]),
            hint=said("under {ruleset} the round ends when the stock runs out (turn.stock_exhausted: end_round)",
                      ruleset=ruleset.name)))
    rule = ruleset.turn.going_out
    keep = 1 if rule is GoingOut.ONE_CARD_LEFT else 0
    for i in out:
        p = players[i]
        if isinstance(p, PlayerRound) and len(p.hand) > keep:
            allowed = said("one card") if keep else said("no cards")
            errors.append(PartError(
                said("{name} went out, so keeps {allowed} in hand under {ruleset} (turn.going_out: {rule}), "
                     "but has {held}", name=p.name, allowed=allowed, ruleset=ruleset.name, rule=rule,
                     held=len(p.hand)), part=Part(player=i)))
    return errors


def cards_fit_the_deck(ruleset: Ruleset, players: Sequence[PlayerRound]) -> list[PartError]:
    """No card is held (on tables and in hands together) more often than the deck has copies of it.

    Each offending card is reported once, at its first occurrence beyond the
    deck's copies (melds before hand, player by player).
    """
    deck = ruleset.deck
    counts: dict[Card, int] = {}
    first_excess: dict[Card, Part] = {}

    def count(card: Card, part: Part) -> None:
        n = counts[card] = counts.get(card, 0) + 1
        if n > deck.limit(card) and card not in first_excess:
            first_excess[card] = part

    for i, p in enumerate(players):
        for j, meld in enumerate(p.melds):
            for k, card in enumerate(meld):
                count(card, Part(player=i, meld=j, card=k))
        for k, card in enumerate(p.hand):
            count(card, Part(player=i, card=k))
    errors = []
    for card, part in first_excess.items():
        limit, name = deck.limit(card), deck.name(card)
        of = said(" of '{ruleset}'", ruleset=ruleset.name)  # the words of a card's copies in cards/notation.py
        if limit == 0:
            message = said("the deck{of} has no {card}", of=of, card=name)
        else:
            copies = said("copy") if limit == 1 else said("copies")
            message = said("{card} appears {count} times but the deck{of} holds {limit} {copies}", card=name,
                           count=counts[card], of=of, limit=limit, copies=copies)
        errors.append(PartError(message, part=part))
    return errors


def dealt_cards(ruleset: Ruleset, players: Sequence[PlayerRound], table: int) -> list[PartError]:
    """Where ``deal.counted_at_end``, each player's table and hand add up to the cards dealt."""
    deal = ruleset.deal
    if not deal.counted_at_end:
        return []
    dealt = deal.cards_for(table)
    errors = []
    for i, p in enumerate(players):
        held = sum(len(m) for m in p.melds) + len(p.hand)
        shown = bool(p.melds) or p.went_out
        if held == dealt or (not shown and held < dealt):
            continue
        where = said("on the table and in hand") if p.melds else said("in hand")
        fields = {"name": p.name, "held": held, "where": where, "ruleset": ruleset.name, "dealt": dealt}
        message = said("{name} holds {held} card {where}, but under {ruleset} every player ends the round with the "
                       "{dealt} cards dealt", **fields) if held == 1 else \
            said("{name} holds {held} cards {where}, but under {ruleset} every player ends the round with the "
                 "{dealt} cards dealt", **fields)
        errors.append(PartError(
            message, part=Part(player=i),
            hint=said("list every card: the melds put down on 'table:' and the rest on 'hand:' "
                      "(deal.cards, deal.counted_at_end)")))
    return errors


MAX_CONTRACT_READINGS = 4096
"""Past this many ways of reading a table's melds as kinds, the contract check is not made (never a slow round)."""


def requirements_met(ruleset: Ruleset, players: Sequence[PlayerRound], round_number: int) -> list[PartError]:
    """Every player with melds on the table met the opening minimum or the round's contract (see the module).

    A table with an illegal meld is left to the meld check, which reports it."""
    from loba_dsl.errors import InputError
    from loba_dsl.scoring.requirements import contract_rule, legal_kinds, opening, opening_rule

    req = ruleset.requirements
    if req.opening is None and req.contracts is None:
        return []
    errors: list[PartError] = []
    for i, p in enumerate(players):
        if not p.melds:
            continue
        kinds = [legal_kinds(ruleset, m) for m in p.melds]
        if not all(kinds):
            continue
        if req.contracts is not None:
            try:
                rule = contract_rule(ruleset, round_number)
            except InputError as e:
                return [PartError(e.said or e.message, part=Part(), hint=e.hint_said or e.hint)]
            readings = 1
            for k in kinds:
                readings *= len(k)
            if readings > MAX_CONTRACT_READINGS:
                continue
            if not any(rule.fulfilled_by(choice, others=True) for choice in itertools.product(*kinds)):
                errors.append(PartError(
                    said("{name}'s table does not hold round {number}'s contract, {contract}, which is the first "
                         "lay-down under {ruleset} (requirements.contracts)", name=p.name, number=round_number,
                         contract=rule.in_words, ruleset=ruleset.name), part=Part(player=i),
                    hint=said("a round file names its round with 'round: N' (round 1 when it does not)")))
        elif req.opening is not None:
            verdict = opening(ruleset, p.melds)
            if not verdict.ok:
                minimum = opening_rule(ruleset).minimum
                errors.append(PartError(
                    said("{name}'s table is worth {value} by the opening's count, below the opening minimum of "
                         "{minimum} under {ruleset}: no first lay-down from it reached the minimum "
                         "(requirements.opening)", name=p.name, value=verdict.value, minimum=minimum,
                         ruleset=ruleset.name), part=Part(player=i)))
    return errors
