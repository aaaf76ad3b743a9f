"""Scoring a round: every formula comes from the ruleset's DSL.

:func:`score_player` is the in-process API (cards already parsed);
:func:`score_round` scores a parsed round file, after checking that every meld
on a table is legal and that all the cards together fit the deck.

The parts shown beside a score are generic, not per variant: the meld points
(the ruleset's ``scoring.meld_points`` table over each meld's best reading),
the value of the hand (the first value table the round formula applies to
``hand``), and the bonus, which is whatever the formula adds beyond those two
(``score - (meld points - hand)`` where higher totals are better,
``score - (hand - meld points)`` where lower ones are).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from loba_dsl.cards.deck import Card
from loba_dsl.dsl import ast as A
from loba_dsl.errors import InputError, LobaError, raise_all
from loba_dsl.melds.matcher import Reading
from loba_dsl.melds.matcher import matcher_for as matcher
from loba_dsl.rules.model import Better, GoingOut

if TYPE_CHECKING:
    from loba_dsl.rules.model import Ruleset
    from loba_dsl.scoring.score_sheets import RoundSheet

class ScoredMeld:
    """A meld on a table, read the best way; what formulas can ask of it."""

    __slots__ = ("_ruleset", "cards", "kind", "reading")

    def __init__(self, ruleset: Ruleset, cards: tuple[Card, ...], reading: Reading) -> None:
        self._ruleset = ruleset
        self.cards = cards
        self.reading = reading
        self.kind = reading.kind

    @property
    def shape(self) -> str:
        return self._ruleset.kinds[self.reading.kind_index].shape.kind

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def suits(self) -> int:
        deck = self._ruleset.deck
        return len({deck.suit_of(c) for c in self.reading.stands})

    @property
    def wilds(self) -> int:
        return self.reading.wilds

    @property
    def naturals(self) -> int:
        return self.reading.naturals

    @property
    def points(self) -> int | None:
        return self.reading.points


def read_meld(ruleset: Ruleset, cards: Sequence[Card]) -> ScoredMeld | None:
    """The best legal reading of ``cards`` as a meld, or ``None`` if it is not legal."""
    best = matcher(ruleset).match(cards, reasons=False).best
    if best is None:
        return None
    return ScoredMeld(ruleset, tuple(cards), best)


@dataclass(frozen=True)
class PlayerScore:
    """A player's round score, with the parts a person can check card by card."""

    name: str
    score: int
    went_out: bool
    all_at_once: bool
    melds: tuple[ScoredMeld, ...]
    meld_points: int | None
    hand: tuple[Card, ...]
    hand_values: tuple[int, ...] | None
    hand_value: int | None
    hand_table: str | None
    bonus: int

    def to_dict(self, ruleset: Ruleset) -> dict[str, Any]:
        names = ruleset.deck.names
        return {
            "name": self.name,
            "score": self.score,
            "went_out": self.went_out,
            "all_at_once": self.all_at_once,
            "melds": [
                {"kind": m.kind, "cards": [names[c] for c in m.cards],
                 "reading": [names[c] for c in m.reading.stands], "points": m.points}
                for m in self.melds
            ],
            "meld_points": self.meld_points,
            "hand": [names[c] for c in self.hand],
            "hand_values": list(self.hand_values) if self.hand_values is not None else None,
            "hand_value": self.hand_value,
            "hand_table": self.hand_table,
            "bonus": self.bonus,
        }


@dataclass(frozen=True)
class RoundScore:
    ruleset: Ruleset
    players: tuple[PlayerScore, ...]
    stock_out: bool
    n_players: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset.name,
            "players": [p.to_dict(self.ruleset) for p in self.players],
            "stock_out": self.stock_out,
            "n_players": self.n_players,
        }


class _Env:
    """What a round formula sees for one player."""

    __slots__ = ("hand", "melds", "ruleset", "vars")

    def __init__(self, ruleset: Ruleset, hand: tuple[Card, ...], melds: tuple[ScoredMeld, ...],
                 variables: dict[str, int | bool]) -> None:
        self.ruleset = ruleset
        self.hand = hand
        self.melds = melds
        self.vars = variables

    def variable(self, name: str) -> Any:
        if name == "hand":
            return self.hand
        if name == "melds":
            return self.melds
        return self.vars[name]

    def card_value(self, table: str, card: Card) -> int:
        return self.ruleset.hand_values[table][card]

    def card_values(self, table: str) -> Sequence[int]:
        return self.ruleset.hand_values[table]

    def meld_value(self, table: str, meld: Any) -> int:
        assert isinstance(meld, ScoredMeld)
        if table == self.ruleset.scoring.meld_points and meld.points is not None:
            return meld.points
        best = matcher(self.ruleset, table).match(meld.cards, reasons=False).best
        assert best is not None and best.points is not None, "a scored meld is legal"
        return best.points


def hand_table(ruleset: Ruleset) -> str | None:
    """The first value table the round formula applies to the hand."""
    for e in A.walk(ruleset.scoring.round):
        if isinstance(e, A.Call) and e.name in ruleset.tables and any(
                isinstance(arg.value, A.Var) and arg.value.name == "hand" for arg in e.args):
            return e.name
    return None


def score_player(
    ruleset: Ruleset,
    *,
    name: str = "player",
    melds: Sequence[Sequence[Card]] = (),
    hand: Sequence[Card] = (),
    went_out: bool = False,
    all_at_once: bool = False,
    stock_out: bool = False,
    players: int = 4,
    round_number: int = 1,
) -> PlayerScore:
    """Score one player's round.  An illegal meld raises :class:`InputError`."""
    scored = []
    for cards in melds:
        meld = read_meld(ruleset, cards)
        if meld is None:
            shown = " ".join(ruleset.deck.names_of(cards))
            raise InputError(f"{name}'s meld '{shown}' is not legal under {ruleset.name}")
        scored.append(meld)
    return _score(ruleset, name, tuple(scored), tuple(hand), went_out, all_at_once, stock_out, players, round_number)


def _score(ruleset: Ruleset, name: str, melds: tuple[ScoredMeld, ...], hand: tuple[Card, ...], went_out: bool,
           all_at_once: bool, stock_out: bool, players: int, round_number: int) -> PlayerScore:
    variables: dict[str, int | bool] = {
        "went_out": went_out, "all_at_once": all_at_once, "stock_out": stock_out,
        "players": players, "round": round_number,
    }
    score = int(_formula(ruleset)(_Env(ruleset, hand, melds, variables)))
    meld_points = sum(m.points or 0 for m in melds) if ruleset.scoring.meld_points is not None else None
    table = _hand_table_cached(ruleset)
    values = tuple(ruleset.hand_values[table][c] for c in hand) if table is not None else None
    hand_value = sum(values) if values is not None else None
    base = (meld_points or 0) - (hand_value or 0)
    if ruleset.scoring.better is not Better.HIGHER:
        base = -base
    return PlayerScore(name, score, went_out, all_at_once, melds, meld_points, hand, values, hand_value, table,
                       score - base)


def _formula(ruleset: Ruleset) -> Callable[[Any], Any]:
    """The round formula as closures, built once per ruleset in this process."""
    return ruleset.memo("round formula", _compile_round, ruleset)


def _compile_round(ruleset: Ruleset) -> Callable[[Any], Any]:
    from loba_dsl.dsl.evaluate import compile_formula

    return compile_formula(ruleset.scoring.round)


def _hand_table_cached(ruleset: Ruleset) -> str | None:
    return ruleset.memo("hand table", hand_table, ruleset)


def score_round(sheet: RoundSheet, ruleset: Ruleset, *, players: int | None = None,
                round_number: int | None = None) -> RoundScore:
    """Score every player of a parsed round, after checking melds and the deck."""
    from loba_dsl.cards.notation import ParsedCards, check_copies

    errors: list[LobaError] = []
    n = players or sheet.n_players or len(sheet.players)
    if not players and sheet.n_players is None:
        # Not said: the players listed, and at least as many as the ruleset's minimum.
        n = max(n, ruleset.players.min)
    if not sheet.bare:
        errors.extend(_check_table(sheet, ruleset, n))
    scored_players: list[tuple[Any, tuple[ScoredMeld, ...]]] = []
    all_cards: list[Card] = []
    all_spans: list[Any] = []
    for p in sheet.players:
        melds = []
        for m in p.melds:
            meld = read_meld(ruleset, m.cards)
            if meld is None:
                from loba_dsl.melds.check import check_cards, explain

                outcome = check_cards(m.cards, ruleset).outcome
                why = "; ".join(explain(ruleset, f) for f in outcome.failures[:3])
                errors.append(InputError(
                    f"{p.name}'s meld '{' '.join(ruleset.deck.names_of(m.cards))}' is not legal under "
                    f"{ruleset.name}", location=m.where, hint=why or None))
            else:
                melds.append(meld)
            all_cards.extend(m.cards)
            all_spans.extend(m.spans)
        all_cards.extend(p.hand)
        all_spans.extend(p.hand_spans)
        scored_players.append((p, tuple(melds)))
    if all_cards:
        try:
            check_copies(ParsedCards(tuple(all_cards), tuple(all_spans)), ruleset.deck,
                         source=sheet.where.source, text=sheet.text, ruleset=ruleset.name)
        except LobaError as e:
            errors.append(e)
    raise_all(errors)
    out = tuple(
        _score(ruleset, p.name, melds, p.hand, p.went_out, p.all_at_once, sheet.stock_out, n,
               round_number or sheet.number or 1)
        for p, melds in scored_players
    )
    return RoundScore(ruleset, out, sheet.stock_out, n)


def _check_table(sheet: RoundSheet, ruleset: Ruleset, n: int) -> list[LobaError]:
    """The ruleset's number of players, and what a player who went out may keep."""
    errors: list[LobaError] = []
    lo, hi = ruleset.players.min, ruleset.players.max
    if not lo <= n <= hi:
        errors.append(InputError(f"{ruleset.name} is played by {lo} to {hi} players, not {n}", location=sheet.where))
    elif len(sheet.players) > n:
        errors.append(InputError(f"the round lists {len(sheet.players)} players but says there are {n}",
                                 location=sheet.players[n].where))
    going_out = ruleset.turn.going_out
    keep = 1 if going_out is GoingOut.ONE_CARD_LEFT else 0
    for p in sheet.players:
        if p.went_out and len(p.hand) > keep:
            allowed = "one card" if keep else "no cards"
            errors.append(InputError(
                f"{p.name} went out, so keeps {allowed} in hand under {ruleset.name} (turn.going_out: {going_out}), "
                f"but has {len(p.hand)}", location=p.where))
    return errors
