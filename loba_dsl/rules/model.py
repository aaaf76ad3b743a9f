"""The compiled ruleset: what the engine knows about one variant (types only; see ``loading``).

Compiling checks the meaning of every DSL text (unknown names, a wild card the
deck cannot produce, a value table that leaves a card without a value) and
reports all mistakes at once, each at its ``file:line:col``.  The result is
pure data (frozen dataclasses and tuples), cached in the process and, keyed by
the content of every file read, on disk, so that a command-line call does not
pay for YAML, JSON Schema and Lark again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from enum import StrEnum

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.dsl import ast as A
from loba_dsl.errors import Location

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass, field
    from typing import Any, TypeVar

    from loba_dsl.cards.notation import Notation
    from loba_dsl.dsl.predicates import Table

    T = TypeVar("T")
else:  # the same classes, built for less at import (issues 11 and 22)
    from loba_dsl.frozen import dataclass, field

ValueKey = tuple[int, Card, bool, int, bool]
"""(meld kind index, card, is wild, rank index it stands for, played high)."""


@dataclass(frozen=True)
class MeldKind:
    """One meld kind of a ruleset (``pierna``), with its compiled shape."""

    name: str
    description: str
    text: str
    shape: A.Shape
    where: str
    """``file:line`` of the shape."""
    clause_where: tuple[str, ...]
    """``file:line`` of each clause, in order."""
    clause_text: tuple[str, ...]
    """Source text of each clause, in order."""
    head_text: str

    @property
    def is_run(self) -> bool:
        return self.shape.kind == "run"


class Direction(StrEnum):
    """Which way the deal and the play go round the table (``deal.direction``)."""

    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


class FirstPlayer(StrEnum):
    """Who plays first (``deal.first_player``)."""

    DEALER_LEFT = "dealer_left"
    DEALER_RIGHT = "dealer_right"


class NextDealer(StrEnum):
    """Who deals the next round (``deal.next_dealer``)."""

    WENT_OUT = "went_out"
    ROTATE = "rotate"


class PileTake(StrEnum):
    """What a draw from the discard pile takes (``turn.discard_pile_take``)."""

    TOP_CARD = "top_card"
    WHOLE_PILE = "whole_pile"


class Rediscard(StrEnum):
    """Whether the card just taken from the pile may be discarded again (``turn.rediscard_single``)."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class LayOff(StrEnum):
    """Onto whose melds a player may lay off cards (``turn.lay_off``)."""

    OWN_MELDS = "own_melds"
    ANY_MELDS = "any_melds"
    NONE = "none"


class WildMove(StrEnum):
    """Whether a wild card on the table may be moved (``turn.wild_move``)."""

    NONE = "none"
    ENDS = "ends"


class GoingOut(StrEnum):
    """What going out asks of the last cards (``turn.going_out``)."""

    DISCARD_REQUIRED = "discard_required"
    DISCARD_OPTIONAL = "discard_optional"
    ONE_CARD_LEFT = "one_card_left"


class StockExhausted(StrEnum):
    """What happens when the stock runs out (``turn.stock_exhausted``)."""

    RESHUFFLE_DISCARDS = "reshuffle_discards"
    END_ROUND = "end_round"


class Better(StrEnum):
    """Whether a lower or a higher score is better (``scoring.better``)."""

    LOWER = "lower"
    HIGHER = "higher"

    @property
    def sign(self) -> int:
        """+1 where higher is better, -1 where lower is: ``sign * score`` is a utility to maximise."""
        return 1 if self is Better.HIGHER else -1


class MatchEnd(StrEnum):
    """How a match ends (``match.end``)."""

    LAST_STANDING = "last_standing"
    TARGET = "target"


class ReentryScore(StrEnum):
    """The total a re-entering player starts again from (``match.reentry.score``)."""

    HIGHEST_REMAINING = "highest_remaining"
    HIGHEST_PLUS_ONE = "highest_plus_one"
    FIXED = "fixed"


class AllOut(StrEnum):
    """Who wins when every player is eliminated in the same round (``match.winner_if_all_out``)."""

    LOWEST_TOTAL = "lowest_total"
    SHARED = "shared"


@dataclass(frozen=True)
class Players:
    """How many may play (``players``)."""

    min: int
    max: int
    default: int
    """The table size assumed where none is given (a lone hand, ``loba arrange``)."""

    def allows(self, n: int) -> bool:
        return self.min <= n <= self.max


@dataclass(frozen=True)
class Deal:
    """The deal (``deal``)."""

    cards: int
    direction: Direction
    first_player: FirstPlayer
    upcard: bool
    next_dealer: NextDealer
    counted_at_end: bool = False
    """Every player ends a round holding exactly the dealt cards, table and hand together (Chinchón)."""
    by_players: tuple[tuple[int, int], ...] = ()
    """``deal.cards_by_players``: (players, cards) pairs that override ``cards`` for that table size."""

    def cards_for(self, players: int) -> int:
        """How many cards each player is dealt at a table of ``players``."""
        return dict(self.by_players).get(players, self.cards)


@dataclass(frozen=True)
class Wilds:
    """Which cards are wild (``wilds``)."""

    cards: frozenset[Card]
    """Card codes that may stand for another card (the Joker among them where it is wild)."""
    natural_too: bool
    """Whether a wild card that is not a Joker may also count as itself."""


@dataclass(frozen=True)
class ScoringRules:
    """How a round is scored (``scoring``)."""

    better: Better
    meld_points: str | None
    """The value table that gives a meld's points, or ``None``."""
    round: A.Expr
    """The round formula, checked."""


@dataclass(frozen=True)
class TurnRules:
    """What a player may do on a turn (``turn``)."""

    discard_pile_take: PileTake
    rediscard_single: Rediscard
    lay_off: LayOff
    lay_off_after_first_meld: bool
    joker_replacement: bool
    wild_move: WildMove
    going_out: GoingOut
    stock_exhausted: StockExhausted
    use_pile_card: bool = False
    use_replaced_joker: bool = False
    discard_joker: bool = True
    go_out_on_first_lay_down: bool = True


@dataclass(frozen=True)
class Opening:
    """The opening minimum (``requirements.opening``)."""

    minimum: int
    scope: str
    table: str
    wild_value: str


@dataclass(frozen=True)
class Contracts:
    """The contract of each round (``requirements.contracts``)."""

    rounds: tuple[A.Contract, ...]
    texts: tuple[str, ...]
    at_once: bool
    before_other_melds: bool
    source: str
    other_melds_same_turn: bool
    """Other melds may go down beside the contract in its turn (otherwise the contract alone, rules.md §4)."""


@dataclass(frozen=True)
class Requirements:
    """What a lay-down must reach (``requirements``)."""

    opening: Opening | None
    contracts: Contracts | None


@dataclass(frozen=True)
class Reentry:
    """Re-entering a match after elimination (``match.reentry``)."""

    max: int
    score: ReentryScore
    fixed_score: int = 0
    """The restart total when ``score`` is ``fixed``."""


@dataclass(frozen=True)
class MatchRules:
    """How rounds add up to a match (``match``)."""

    end: MatchEnd
    eliminate_at: int | None
    target: int | None
    reentry: Reentry | None
    winner_if_all_out: AllOut
    instant_win: A.Expr | None
    """A condition on one player's round that wins the match outright, checked."""

    @property
    def max_reentries(self) -> int:
        return self.reentry.max if self.reentry is not None else 0

    def status(self, total: int) -> MatchEnd | None:
        """What a running total means: the target reached, eliminated, or ``None`` (plays on)."""
        if self.end is MatchEnd.TARGET and self.target is not None and total >= self.target:
            return MatchEnd.TARGET
        if self.eliminate_at is not None and total >= self.eliminate_at:
            return MatchEnd.LAST_STANDING
        return None


@dataclass(frozen=True)
class RuleWarning:
    """A warning about a ruleset: legal, but surely not what its author meant."""

    message: str
    location: Location | None = None
    hint: str | None = None

    def render(self) -> str:
        """As an error renders (``file:line:col``, the line and a caret), marked ``warning``."""
        from loba_dsl.errors import LobaError

        return LobaError(self.message, location=self.location, hint=self.hint).render().replace(
            "error: ", "warning: ", 1)


@dataclass(frozen=True, eq=False, repr=False)
class Ruleset:
    """Everything the engine needs to know about one variant, typed and frozen.

    One field per section of the schema.  The schema is the only source of
    defaults: the compiler reads the defaulted document and nothing else.
    """

    name: str
    description: str
    source: str
    players: Players
    deck: Deck
    deal: Deal
    wilds: Wilds
    kinds: tuple[MeldKind, ...]
    """The meld kinds (``melds``), in the ruleset's order."""
    tables: Mapping[str, Table]
    """The value tables (``values``), compiled."""
    scoring: ScoringRules
    turn: TurnRules
    requirements: Requirements
    match: MatchRules
    document: Mapping[str, Any]
    """The resolved document (after ``extends`` and defaults): for rendering and the rules diff only.
    Read-only, as ``tables`` and ``origins`` are: ``load(name)`` hands one ruleset to every caller."""
    origins: Mapping[tuple[str | int, ...], str]
    """``file:line`` of every value that a file set."""
    files: tuple[str, ...]
    hand_values: Mapping[str, tuple[int, ...]]
    """Per value table, the value of each card code in hand."""
    meld_values: Mapping[str, Mapping[ValueKey, int]] = field(default_factory=dict)
    """Per value table used on melds, the value of a card in each role."""
    warnings: tuple[RuleWarning, ...] = ()
    """What is legal but surely not meant (a value-table line that can never match); ``loba validate``
    prints them."""
    _memo: dict[Hashable, Any] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self._freeze()

    def _freeze(self) -> None:
        """``document`` (at every depth), ``tables`` and ``origins`` made read-only (:mod:`loba_dsl.readonly`)."""
        from loba_dsl.readonly import ReadOnlyDict, read_only

        object.__setattr__(self, "document", read_only(self.document))
        for name in ("tables", "origins"):
            value = getattr(self, name)
            if not isinstance(value, ReadOnlyDict):
                object.__setattr__(self, name, ReadOnlyDict(value))

    def kind(self, name: str) -> MeldKind:
        for k in self.kinds:
            if k.name == name:
                return k
        raise KeyError(name)

    def notation(self, lang: str | None = None) -> Notation:
        """The card notation of this ruleset's deck (cached per language)."""
        return self.memo(("notation", lang), _notation, self.deck, lang)

    def memo(self, key: Hashable, build: Callable[..., T], *args: Any) -> T:
        """What other modules derive from this ruleset (matchers, compiled formulas), built once.

        ``build(*args)`` runs only the first time ``key`` is asked for (no closure
        is made per call: this sits on hot paths).  Kept on the ruleset itself, so
        it lives exactly as long as the ruleset, and left out of any serialised form.
        """
        cache = self._memo
        try:
            found: T = cache[key]
        except KeyError:
            found = cache[key] = build(*args)
        return found

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_memo"] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._freeze()  # a ruleset pickled before they were read-only is read-only too

    def __repr__(self) -> str:
        return f"<Ruleset {self.name!r} from {self.source}>"

    def where(self, *path: str | int) -> str:
        """``file:line`` that set this key, or ``(default)`` where the schema's default applies."""
        return self.origins.get(tuple(path), "(default)")


def _notation(deck: Deck, lang: str | None) -> Notation:
    from loba_dsl.cards.notation import Notation

    return Notation(deck, lang)
