"""Request and response bodies as msgspec ``Struct``s: they decode and validate each request, and they
are the schemas of the OpenAPI document (``/openapi.json``).

Responses are encoded from the library's own ``to_dict()`` forms (the objects ``loba ... --json``
prints); the response structs here describe them, and the schema tests hold the two together.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import UNSET, Meta, Struct, UnsetType

from loba_dsl import DEFAULT_RULESET
from loba_service.limits import Limits
from loba_service.problems import ErrorItem, ErrorLocation

_L = Limits.from_env()
"""The limits the bodies' bounds are read from: the server's own (``LOBA_SERVICE_<NAME>`` variables, read when
this module is first imported, as ``loba serve`` reads them), so a limit raised there is not refused here."""

ShippedName = Annotated[str, Meta(min_length=1, max_length=64, examples=[DEFAULT_RULESET],
                                  description="A shipped ruleset's name (GET /v1/rulesets lists them).")]
CardsText = Annotated[str, Meta(max_length=2_000, examples=["A♣ 2♣ JOKER"],
                                description="Cards in the ruleset's notation, separated by spaces or commas "
                                            f"(at most {_L.max_cards} cards).")]
Lang = Annotated[str, Meta(min_length=1, max_length=8, examples=["de"],
                           description="Read language-specific rank letters: de (B D K), nl (B V H), it, es.")]
Messages = Annotated[Literal["en", "es"], Meta(description="The language of the reasons' words and of the error "
                                                             "messages of a user's input (bad cards, a house "
                                                             "ruleset's YAML): en or es (card, kind and rule names "
                                                             "stay the ruleset's own).")]
Name = Annotated[str, Meta(min_length=1, max_length=40, examples=["Ana"])]
SheetText = Annotated[str, Meta(max_length=_L.max_text, description="A round or match file, as `loba score` / "
                                                                    "`loba match` read it.")]
BudgetMs = Annotated[int, Meta(ge=1, le=_L.max_budget_ms,
                               description=f"Time budget of the solver, ms (default {_L.solver_budget_ms}, "
                                           f"at most {_L.max_budget_ms}); past it the answer is a 422 "
                                           "`budget-exceeded` and the solver process is stopped.")]
RoundNumber = Annotated[int, Meta(ge=1, le=1_000)]
TableSize = Annotated[int, Meta(ge=1, le=20)]


class HouseRuleset(Struct, forbid_unknown_fields=True):
    """A house ruleset carried in the request, as YAML text.  Its ``extends`` may name shipped rulesets
    only; it is compiled once per content (a bounded cache) and errors point into it."""

    yaml: Annotated[str, Meta(max_length=_L.max_yaml, examples=["name: casa\nextends: menos\n"])]
    file: Annotated[str, Meta(pattern=r"^[A-Za-z0-9_.\-]{1,64}$",
                              description="The name errors give the text (left out: <yaml>).")] | None = None


UNNAMED_RULESET = "<yaml>"
"""The source name of a house ruleset sent without a ``file`` name (errors never name a file that was not sent)."""

RulesetRef = ShippedName | HouseRuleset
"""A shipped ruleset's name or a house ruleset."""


# ---------------------------------------------------------------- check


class CheckRequest(Struct, forbid_unknown_fields=True):
    """One meld to check."""

    cards: CardsText
    ruleset: RulesetRef = DEFAULT_RULESET
    lang: Lang | None = None
    messages: Messages = "en"


class Wild(Struct):
    card: str
    stands_for: str


class KindVerdict(Struct):
    """``?explain=true``: the verdict of each meld kind of the ruleset on these cards."""

    kind: str
    valid: bool
    reasons: list[str]


class CheckResult(Struct):
    """The same object as ``loba check --json``."""

    input: str
    ruleset: str
    valid: bool
    kind: str | None
    cards: list[str]
    reading: list[str] | None
    wilds: list[Wild]
    points: int | None
    reasons: list[str]
    explain: list[KindVerdict] | UnsetType = UNSET


class CheckBatchRequest(Struct, forbid_unknown_fields=True):
    """Many melds under one ruleset, each under an id of the caller's choosing."""

    inputs: Annotated[dict[Annotated[str, Meta(max_length=200)], CardsText],
                      Meta(max_length=_L.max_batch, description=f"At most {_L.max_batch} melds.")]
    ruleset: RulesetRef = DEFAULT_RULESET
    lang: Lang | None = None


class BatchItemError(Struct):
    """A batch item that is not cards (the rest of the batch is still answered)."""

    input: str
    valid: None
    errors: list[ErrorItem]


class CheckBatchResponse(Struct):
    ruleset: str
    results: dict[str, Any]


class NdjsonLine(Struct, forbid_unknown_fields=True):
    """One line of an NDJSON batch."""

    cards: CardsText
    id: Annotated[str, Meta(max_length=200)] | None = None


# ---------------------------------------------------------------- score


class PlayerIn(Struct, forbid_unknown_fields=True):
    """One player's round: the melds on their table, the cards left in hand."""

    name: Name
    melds: Annotated[list[CardsText], Meta(max_length=40)] = []
    hand: CardsText = ""
    went_out: bool = False
    all_at_once: bool = False


class ScoreRoundRequest(Struct, forbid_unknown_fields=True):
    """A round: either ``sheet`` (the text of a round file, as ``loba score`` reads it) or ``players``."""

    ruleset: RulesetRef = DEFAULT_RULESET
    lang: Lang | None = None
    sheet: SheetText | None = None
    players: Annotated[list[PlayerIn], Meta(max_length=20)] | None = None
    round: RoundNumber = 1
    stock_out: bool = False
    table: TableSize | None = None
    """How many play at the table (default: the players listed)."""
    messages: Messages = "en"


class MeldOut(Struct):
    kind: str | None
    cards: list[str]
    reading: list[str] | None
    points: int | None


class PlayerScoreOut(Struct):
    name: str
    score: int
    went_out: bool
    all_at_once: bool
    melds: list[MeldOut]
    meld_points: int | None
    hand: list[str]
    hand_values: list[int]
    hand_value: int | None
    hand_table: str | None
    bonus: int | None


class RoundScoreOut(Struct):
    """The same object as ``loba score --json``."""

    schema_version: int
    ruleset: str
    players: list[PlayerScoreOut]
    stock_out: bool
    n_players: int


class PointsIn(Struct, forbid_unknown_fields=True):
    """A player's round score as written down."""

    name: Name
    points: Annotated[int, Meta(ge=-100_000, le=100_000)] = 0
    went_out: bool = False


class MatchRoundIn(Struct, forbid_unknown_fields=True):
    """A round of a match: every player's cards (``players``) or every player's points (``points``),
    and who re-enters right after it (``reenter``)."""

    players: Annotated[list[PlayerIn], Meta(max_length=20)] | None = None
    points: Annotated[list[PointsIn], Meta(max_length=20)] | None = None
    number: RoundNumber | None = None
    stock_out: bool = False
    reenter: Annotated[list[Name], Meta(max_length=20)] = []


class ScoreMatchRequest(Struct, forbid_unknown_fields=True):
    """A match: either ``sheet`` (the text of a match file, as ``loba match`` reads it) or ``rounds``."""

    ruleset: RulesetRef = DEFAULT_RULESET
    lang: Lang | None = None
    sheet: SheetText | None = None
    rounds: Annotated[list[MatchRoundIn], Meta(max_length=200)] | None = None
    players: Annotated[list[Name], Meta(max_length=20)] | None = None
    target: Annotated[int, Meta(ge=1, le=100_000)] | None = None
    messages: Messages = "en"


class ReentryOut(Struct):
    name: str
    score: int
    reentry: int


class OfferOut(Struct):
    """A re-entry still open right after a round: the player eliminated in it, and the total the rules
    (``match.reentry.score``) would set them."""

    name: str
    score: int


class StandingOut(Struct):
    name: str
    total: int
    status: str
    reentries: int


class MatchRoundOut(Struct):
    round: int
    scores: dict[str, int]
    totals: dict[str, int]
    eliminated: list[str]
    out_for_good: list[str]
    reentries: list[ReentryOut]
    offers: list[OfferOut]
    standings: list[StandingOut]


class MatchOut(Struct):
    """The same object as ``loba match --json``."""

    schema_version: int
    ruleset: str
    target: int | None
    rounds: list[MatchRoundOut]
    standings: list[StandingOut]
    winner: list[str] | None
    """The winners (a shared win lists several), once the match is over."""
    over: bool
    how: str


# ---------------------------------------------------------------- arrange


class ArrangeRequest(Struct, forbid_unknown_fields=True):
    """A hand to arrange into melds."""

    cards: CardsText
    ruleset: RulesetRef = DEFAULT_RULESET
    lang: Lang | None = None
    discard: bool = False
    """The hand has just drawn: choose the best discard first (exact)."""
    opening: bool = False
    """Also give the best arrangement that reaches the opening minimum (``requirements.opening``)."""
    contract: RoundNumber | None = None
    """Also give melds that fulfil this round's contract (``requirements.contracts``)."""
    opened: bool | None = None
    """Whether the player has opened (``loba arrange --opened``).  Left out or ``false``, the default of
    ``loba arrange`` and the rules': not opened yet, so only a lay-down meeting the opening minimum or the
    round's contract may go down (and ``can_go_out`` says whether one can go out); ``true``, any legal melds."""
    round: RoundNumber | None = None
    """The round being played (the contract in force for a player who has not opened): as ``loba arrange
    --round``; a ruleset with contracts needs it until the player has opened."""
    players: Annotated[int, Meta(ge=2, le=12)] | None = None
    budget_ms: BudgetMs | None = None
    messages: Messages = "en"


class PlacedMeldOut(Struct):
    kind: str
    cards: list[str]
    reading: list[str]
    points: int | None
    wilds: list[Wild]


class ArrangementOut(Struct):
    """The same object as ``loba arrange --json``."""

    ruleset: str
    cards: list[str]
    melds: list[PlacedMeldOut]
    left: list[str]
    left_value: int | None
    score: int
    can_go_out: bool | None
    discard: str | UnsetType = UNSET


class RequirementOut(Struct):
    possible: bool
    arrangement: ArrangementOut | None


class GoingOutOut(Struct):
    """What going out this turn scores (the round formula), and whether it wins the match (``match.instant_win``)."""

    score: int
    wins_match: bool


class ArrangeResponse(ArrangementOut):
    why_not: list[str] | UnsetType = UNSET
    """When the hand cannot go out: why (the opening minimum, the round's contract, the cards left)."""
    going_out: GoingOutOut | UnsetType | None = UNSET
    """When it can: what going out scores and whether it wins the match; else ``null``."""
    opening: RequirementOut | UnsetType = UNSET
    contract: RequirementOut | UnsetType = UNSET
    elapsed_ms: float = 0.0


# ---------------------------------------------------------------- diff


class DiffRequest(Struct, forbid_unknown_fields=True):
    """Two rulesets to compare."""

    left: RulesetRef
    right: RulesetRef
    witnesses: bool = True
    deals: Annotated[int, Meta(ge=0, le=_L.max_deals,
                               description=f"Deal and solve this many hands under each ruleset "
                                           f"(at most {_L.max_deals}); 0: no play statistics.")] = 0
    seed: Annotated[int, Meta(ge=0, le=2**31 - 1)] = 1
    budget_ms: BudgetMs | None = None
    messages: Messages = "en"


class DiffOut(Struct):
    """The same object as ``loba diff --json``."""

    left: str
    right: str
    same: bool
    areas: dict[str, Any]
    witnesses: list[Any]
    searched: Any
    stats: Any
    elapsed_ms: float = 0.0


# ---------------------------------------------------------------- rulesets


class RulesetSummary(Struct):
    name: str
    description: str
    default: bool = False
    """Whether this is the ruleset used when none is named."""


class RulesetList(Struct):
    default: str
    rulesets: list[RulesetSummary]


class SuitOut(Struct):
    """A suit of the deck, and its cards as they are written (rank order)."""

    key: str
    """The suit's name in the ruleset (``spades``, ``oros``)."""
    symbol: str
    words: dict[str, list[str]]
    """Words that name the suit in a language (``{"es": ["picas"]}``), from the ruleset's ``lang``."""
    cards: list[str]


class DeckOut(Struct):
    """The ruleset's own deck, as a card picker shows it: each suit's cards, the Jokers, the wild cards."""

    ranks: list[str]
    suits: list[SuitOut]
    copies: int
    """How many copies of each natural card the deck holds."""
    jokers: int
    joker: str
    """How a Joker is written (when ``jokers`` is above 0)."""
    wilds: list[str]
    """The cards that may stand for another (``wilds.cards``)."""
    size: int
    """How many physical cards the deck holds."""


class RulesetShow(Struct):
    """A ruleset as resolved (after ``extends`` and defaults), and where each value comes from."""

    name: str
    ruleset: dict[str, Any]
    origins: dict[str, str]
    files: list[str]
    deck: DeckOut


class ValidateRequest(Struct, forbid_unknown_fields=True):
    """A house ruleset to validate (or send the YAML itself as ``application/yaml``)."""

    yaml: Annotated[str, Meta(max_length=_L.max_yaml)]
    file: Annotated[str, Meta(pattern=r"^[A-Za-z0-9_.\-]{1,64}$",
                              description="The name errors give the text (left out: <yaml>).")] | None = None
    messages: Messages = "en"


class ValidationItem(Struct):
    """A problem or warning of a ruleset: ``location`` as an object, and the same four fields flat (the form
    ``loba validate --json`` printed before the two were one)."""

    code: str
    message: str
    hint: str | None
    rule: str | None
    location: ErrorLocation | None
    path: str | None
    file: str | None
    source: str | None
    line: int | None
    column: int | None
    length: int | None


class ValidateOut(Struct):
    """The object ``loba validate --json`` prints: every problem with its file, line, column and length
    (``error``: the first); when valid, the warnings (legal, but surely not meant), the shipped ruleset its
    ``extends`` names (to compare it with: ``/v1/diff``) and its deck."""

    file: str
    valid: bool
    name: str | None
    kinds: list[str]
    errors: list[ValidationItem]
    warnings: list[ValidationItem] = []
    error: ValidationItem | None = None
    extends: str | None = None
    deck: DeckOut | None = None


class Health(Struct):
    status: Literal["ok"]
    version: str
    solvers: int
