"""Scoring a round: every formula comes from the ruleset's DSL.

:func:`score_round` scores a whole round given as domain objects
(:class:`~loba_dsl.scoring.model.PlayerRound` per player and the
:class:`~loba_dsl.scoring.model.RoundFacts`), after checking that it can have
happened (:mod:`loba_dsl.scoring.round_checks`) and that every meld on a table is
legal.  :func:`score_player` scores one player's cards without those checks
(the solver's and the rules diff's hot path; an illegal meld still raises).

The parts shown beside a score are generic, not per variant: the meld points
(the ruleset's ``scoring.meld_points`` table over each meld's best reading),
the value of the hand (the first value table the round formula applies to
``hand``), and the bonus, which is whatever the formula adds beyond those two
(``score - (meld points - hand)`` where higher totals are better,
``score - (hand - meld points)`` where lower ones are).

Results are frozen and carry card names, so they read without the ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property

from loba_dsl.cards.deck import Card
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.vocabulary import round_facts
from loba_dsl.errors import LobaError, Said, raise_all, said
from loba_dsl.melds.explain import explain
from loba_dsl.melds.matcher import Reading
from loba_dsl.melds.matcher import matcher_for as matcher
from loba_dsl.rules.model import Better, Ruleset
from loba_dsl.scoring import round_checks
from loba_dsl.scoring.model import SCHEMA_VERSION, Part, PartError, PlayerRound, RoundFacts

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass, field
    from typing import Any, NamedTuple
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)
    from loba_dsl.named_tuple import NamedTuple  # typing's, without typing (issue 22)

__all__ = ["MeldScore", "PlayerScore", "RoundEnv", "RoundScore", "ScoredMeld", "going_out_score", "hand_table",
           "read_meld", "score_player", "score_round"]


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


def _illegal_meld(ruleset: Ruleset, name: str, cards: Sequence[Card], part: Part) -> PartError:
    """``name``'s meld is not legal: the error, with up to three reasons why."""
    from loba_dsl.melds.reason_words import LANGUAGES

    failures = matcher(ruleset).match(cards).failures[:3]
    why = Said.in_languages({lang: "; ".join(explain(ruleset, f, lang) for f in failures) for lang in LANGUAGES})
    shown = " ".join(ruleset.deck.names_of(cards))
    return PartError(said("{name}'s meld '{meld}' is not legal under {ruleset}", name=name, meld=shown,
                          ruleset=ruleset.name), part=part, hint=why or None)


class MeldScore(NamedTuple):
    """A meld on a player's table as scored: its kind, its cards, what they stand for, its points."""

    kind: str
    cards: tuple[str, ...]
    reading: tuple[str, ...]
    """The card each one stands for (a wild's stand-in), in meld order."""
    points: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": list(self.cards), "reading": list(self.reading), "points": self.points}


@dataclass(frozen=True)
class PlayerScore:
    """A player's round score, with the parts a person can check card by card.

    ``melds`` and ``hand`` give cards by name; they are read from the deck's
    names (carried inside, so no ruleset is needed) the first time they are asked
    for, since the solver and the rules diff score many rounds and read only the
    numbers.
    """

    name: str
    score: int
    went_out: bool
    all_at_once: bool
    meld_points: int | None
    hand_values: tuple[int, ...] | None
    """The value of each card in hand, by ``hand_table``, in hand order."""
    hand_value: int | None
    hand_table: str | None
    bonus: int
    _names: tuple[str, ...] = field(repr=False, compare=False)
    _hand: tuple[Card, ...] = field(repr=False)
    _melds: tuple[tuple[tuple[Card, ...], Reading], ...] = field(repr=False)

    @cached_property
    def melds(self) -> tuple[MeldScore, ...]:
        """The melds on the player's table, each read the best way."""
        name_of = self._names.__getitem__
        return tuple([MeldScore(r.kind, tuple(map(name_of, cards)), tuple(map(name_of, r.stands)), r.points)
                      for cards, r in self._melds])

    @cached_property
    def hand(self) -> tuple[str, ...]:
        """The cards left in hand, by name."""
        return tuple(map(self._names.__getitem__, self._hand))

    def to_dict(self) -> dict[str, Any]:
        return {"schema_version": SCHEMA_VERSION, **self._fields()}

    def _fields(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "score": self.score,
            "went_out": self.went_out,
            "all_at_once": self.all_at_once,
            "melds": [m.to_dict() for m in self.melds],
            "meld_points": self.meld_points,
            "hand": list(self.hand),
            "hand_values": list(self.hand_values) if self.hand_values is not None else None,
            "hand_value": self.hand_value,
            "hand_table": self.hand_table,
            "bonus": self.bonus,
        }


@dataclass(frozen=True)
class RoundScore:
    """Every player's score in one round, under the ruleset named ``ruleset``."""

    ruleset: str
    players: tuple[PlayerScore, ...]
    stock_out: bool
    n_players: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "ruleset": self.ruleset,
            "players": [p._fields() for p in self.players],
            "stock_out": self.stock_out,
            "n_players": self.n_players,
        }


class RoundEnv:
    """What a round formula (or ``match.instant_win``) sees for one player."""

    __slots__ = ("hand", "melds", "ruleset", "vars")

    def __init__(self, ruleset: Ruleset, hand: tuple[Card, ...], melds: tuple[ScoredMeld, ...],
                 variables: dict[str, int | bool]) -> None:
        self.ruleset = ruleset
        self.hand = hand
        self.melds = melds
        self.vars = variables

    @classmethod
    def of(cls, ruleset: Ruleset, player: PlayerRound, facts: RoundFacts) -> RoundEnv:
        """The environment of one player's round; an illegal meld raises :class:`PartError`."""
        melds = []
        for j, cards in enumerate(player.melds):
            meld = read_meld(ruleset, cards)
            if meld is None:
                raise _illegal_meld(ruleset, player.name, cards, Part(meld=j))
            melds.append(meld)
        return cls(ruleset, player.hand, tuple(melds), _variables(player.went_out, player.all_at_once, facts.stock_out,
                                                                  facts.players, facts.round))

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


def _variables(went_out: bool, all_at_once: bool, stock_out: bool, players: int,
               round_number: int) -> dict[str, int | bool]:
    return round_facts(went_out=went_out, all_at_once=all_at_once, stock_out=stock_out, players=players,
                       round=round_number)


def score_round(ruleset: Ruleset, players: Sequence[PlayerRound], facts: RoundFacts) -> RoundScore:
    """Score every player of a round, after checking that the round can have happened and its melds are legal.

    Every problem is reported at once (a :class:`~loba_dsl.scoring.model.PartError`,
    or several in a :class:`~loba_dsl.errors.LobaErrors`), each naming the
    player, meld or card by position.
    """
    errors: list[LobaError] = [*round_checks.distinct_names(players),
                               *round_checks.table_size(ruleset, len(players), facts.players),
                               *round_checks.going_out(ruleset, players, facts.stock_out),
                               *round_checks.dealt_cards(ruleset, players, facts.players)]
    read: list[tuple[ScoredMeld, ...]] = []
    for i, p in enumerate(players):
        melds = []
        for j, cards in enumerate(p.melds):
            meld = read_meld(ruleset, cards)
            if meld is None:
                errors.append(_illegal_meld(ruleset, p.name, cards, Part(player=i, meld=j)))
            else:
                melds.append(meld)
        read.append(tuple(melds))
    errors.extend(round_checks.cards_fit_the_deck(ruleset, players))
    errors.extend(round_checks.requirements_met(ruleset, players, facts.round))
    raise_all(errors)
    out = tuple(_score(ruleset, p.name, melds, p.hand, p.went_out, p.all_at_once, facts.stock_out, facts.players,
                       facts.round) for p, melds in zip(players, read, strict=True))
    return RoundScore(ruleset.name, out, facts.stock_out, facts.players)


def score_player(
    ruleset: Ruleset,
    *,
    name: str = "player",
    melds: Sequence[Sequence[Card]] = (),
    hand: Sequence[Card] = (),
    went_out: bool = False,
    all_at_once: bool = False,
    stock_out: bool = False,
    players: int | None = None,
    round_number: int = 1,
) -> PlayerScore:
    """Score one player's round, without the round's checks; ``players`` defaults to ``players.default``.

    An illegal meld raises :class:`~loba_dsl.scoring.model.PartError`.
    """
    scored = []
    for j, cards in enumerate(melds):
        meld = read_meld(ruleset, cards)
        if meld is None:
            raise _illegal_meld(ruleset, name, cards, Part(meld=j))
        scored.append(meld)
    n = ruleset.players.default if players is None else players
    return _score(ruleset, name, tuple(scored), tuple(hand), went_out, all_at_once, stock_out, n, round_number)


def going_out_score(ruleset: Ruleset, melds: Sequence[Sequence[Card]], hand: Sequence[Card], *,
                    all_at_once: bool = False, players: int | None = None, round_number: int = 1) -> tuple[int, bool]:
    """A player going out with ``melds`` down and ``hand`` kept (under ``turn.going_out: one_card_left``): their
    round score, and whether that round wins the match outright (``match.instant_win``, e.g. a chinchón)."""
    scored = score_player(ruleset, melds=melds, hand=hand, went_out=True, all_at_once=all_at_once, players=players,
                          round_number=round_number)
    wins = False
    if ruleset.match.instant_win is not None:
        from loba_dsl.dsl.evaluate import compile_formula

        n = ruleset.players.default if players is None else players
        read = tuple(m for m in (read_meld(ruleset, c) for c in melds) if m is not None)
        env = RoundEnv(ruleset, tuple(hand), read, _variables(True, all_at_once, False, n, round_number))
        wins = bool(ruleset.memo("instant win", compile_formula, ruleset.match.instant_win)(env))
    return scored.score, wins


def _score(ruleset: Ruleset, name: str, melds: tuple[ScoredMeld, ...], hand: tuple[Card, ...], went_out: bool,
           all_at_once: bool, stock_out: bool, players: int, round_number: int) -> PlayerScore:
    # The hot path of the solver and the rules diff: card names read only when asked for.
    variables = round_facts(went_out=went_out, all_at_once=all_at_once, stock_out=stock_out, players=players,
                            round=round_number)
    score = int(_formula(ruleset)(RoundEnv(ruleset, hand, melds, variables)))
    meld_points = sum(m.points or 0 for m in melds) if ruleset.scoring.meld_points is not None else None
    table = _hand_table_cached(ruleset)
    values = tuple(map(ruleset.hand_values[table].__getitem__, hand)) if table is not None else None
    hand_value = sum(values) if values is not None else None
    base = (meld_points or 0) - (hand_value or 0)
    if ruleset.scoring.better is not Better.HIGHER:
        base = -base
    return PlayerScore(name, score, went_out, all_at_once, meld_points, values, hand_value, table, score - base,
                       ruleset.deck.names, hand, tuple([(m.cards, m.reading) for m in melds]))


def hand_table(ruleset: Ruleset) -> str | None:
    """The first value table the round formula applies to the hand."""
    for e in A.walk(ruleset.scoring.round):
        if isinstance(e, A.Call) and e.name in ruleset.tables and any(
                isinstance(arg.value, A.Var) and arg.value.name == "hand" for arg in e.args):
            return e.name
    return None


def _formula(ruleset: Ruleset) -> Callable[[Any], Any]:
    """The round formula as closures, built once per ruleset in this process."""
    return ruleset.memo("round formula", _compile_round, ruleset)


def _compile_round(ruleset: Ruleset) -> Callable[[Any], Any]:
    from loba_dsl.dsl.evaluate import compile_formula

    return compile_formula(ruleset.scoring.round)


def _hand_table_cached(ruleset: Ruleset) -> str | None:
    return ruleset.memo("hand table", hand_table, ruleset)


