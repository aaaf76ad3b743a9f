"""The referee's words: why a move is illegal (:class:`Reason`, :class:`IllegalMove`), what a move made happen
(:class:`Event`), and where a rule key is written in the ruleset (:func:`where`).

Each rejection is a :class:`Reason` naming the ruleset key that forbids the move (``turn.lay_off``), the
reason in words and the ruleset ``file:line`` of that key; two keys belong to no ruleset: ``turn.order`` (not
this player's turn or phase) and ``cards.in_hand`` (a card the player does not hold).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.errors import LobaError, Said, clean, said
from loba_dsl.game.moves import Move
from loba_dsl.game.state import RoundState, slot_init
from loba_dsl.rules.model import Ruleset

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    from loba_dsl.frozen import dataclass  # built without importing dataclasses (issue 22)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move is illegal: the ruleset key, the words, and where the ruleset says it."""

    rule: str
    message: str
    where: str
    value: str = ""
    """The setting's value in this ruleset (``own_melds``), where the rule is a setting."""

    def text(self, lang: str = "en") -> str:
        """The reason with its rule cited: ``... (turn.lay_off: own_melds at rulesets/menos.yaml:75)``;
        ``lang``: ``en`` or ``es`` (the message, and the words around the rule, in that language; the rule
        key, the ruleset's value and its ``file:line`` stay as written)."""
        if lang == "en":
            value = f": {self.value}" if self.value else ""
            return f"{self.message} ({self.rule}{value} at {self.where})"
        value = f": {_say(self.value, lang)}" if self.value else ""
        return _say(said("{message} ({rule}{value} at {where})", message=self.message, rule=self.rule,
                         value=value, where=self.where), lang)

    def message_in(self, lang: str = "en") -> str:
        """The reason's words alone in ``lang`` (English where a message has no words in ``lang``)."""
        return _say(self.message, lang)

    def to_dict(self, lang: str = "en") -> dict[str, str]:
        """``rule``, ``message`` (:meth:`text` in ``lang``) and ``where`` (the ruleset's ``file:line``)."""
        return {"rule": self.rule, "message": self.text(lang), "where": self.where}


def _say(text: str, lang: str) -> str:
    """``text`` in ``lang`` where it is :class:`Said` words (a reason's message, its value); else as is."""
    return text.say(lang) if isinstance(text, Said) and lang != "en" else str(text)


class IllegalMove(LobaError):
    """A move the rules forbid; ``reasons`` says which rule, why and where."""

    code = "illegal-move"

    def __init__(self, move: Move, reasons: Sequence[Reason]) -> None:
        self.move = move
        self.reasons = tuple(reasons)
        super().__init__("; ".join(r.text() for r in self.reasons))

    def message_in(self, lang: str = "en") -> str:
        """The reasons in ``lang`` (``en``: :attr:`message` itself), each with its rule cited."""
        return self.message if lang == "en" else clean("; ".join(r.text(lang) for r in self.reasons))

    @property
    def rule(self) -> str:
        return self.reasons[0].rule


@slot_init
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
        if rs.deal.direction == "clockwise":
            return said("play goes clockwise")
        return said("play goes counterclockwise")
    section, _, key = rule.partition(".")
    obj = {"turn": rs.turn, "deal": rs.deal}.get(section)
    v = getattr(obj, key, None) if obj is not None else None
    if v is None:
        return ""
    return str(v).lower() if isinstance(v, bool) else str(v)


def reason(rs: Ruleset, rule: str, message: str) -> Reason:
    """Why a move is illegal under ``rule``: ``message`` (:class:`~loba_dsl.errors.Said` words, made only where
    a move is refused, so they can be said in another language), with where the ruleset says the rule."""
    return Reason(rule, message, where(rs, rule), _value(rs, rule))


def missing(rs: Ruleset, hand: tuple[Card, ...], cards: Sequence[Card], player: str) -> Reason:
    have = Counter(hand)
    lacking = [c for c, k in Counter(cards).items() if k > have[c]]
    names = " ".join(rs.deck.names_of(lacking))
    return Reason("cards.in_hand", said("{player} does not hold {cards}", player=player, cards=names), rs.source)
