"""One live table: the library's :class:`~loba_dsl.Table` played action by action, its seats' views.

Everything here is pure (no I/O): the store keeps the actions, the hub sends the views.  A table is
rebuilt from its creation (ruleset, players, dealer, seed) and its actions in order: the dealer's
reshuffles and the next rounds' deals come from the table's own generator (``random.Random(seed)``), so
the same actions give the same game, and each action's record digest is kept to prove it.

An action is a move as in ``loba-record/1`` (``{"op": "draw", "player": "Ana", "from": "stock"}``...),
a re-entry decision ``{"op": "reenter", "player": P, "accepted": true|false}`` (a match table, after a
round that eliminated ``P``), or ``{"op": "undo", "player": P}``, offered only to a player whose own
moves this turn left them no legal move (a lay-down short of a requirement).

The table's ``ply`` counts every action taken since the deal, across rounds (a reshuffle the dealer
makes before a stock draw counts too, as it does in the record), and never goes back: an ``undo`` takes
moves out of the record but is itself an action, so the table's ply still grows by one (the store keys
actions by the ply they were taken at, and a screen showing an earlier ply is stale).  Until an undo, in the
first round, it is the round's ply, the number of the record's moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loba_dsl import UNKNOWN_CARD as UNKNOWN
from loba_dsl import Budget, Draw, IllegalMove, LobaError, Ruleset, Table, move_from_dict, turn_moves
from loba_dsl import record_view as view_of
from loba_service.problems import LANGUAGES

__all__ = ["HIDDEN", "LISTING_BUDGET", "MAX_LEGAL", "ActionRefused", "LiveTable", "Spec"]

HIDDEN = "??"
MAX_LEGAL = 1_000
"""Most legal moves listed in a view (``legal_truncated`` says when there were more)."""
LISTING_BUDGET = Budget(seconds=0.25)
"""Longest the legal moves of one ply are listed (on the event loop, once a ply, for the seat to move; the
library's default is 2 s): past it the view lists the moves found and says ``legal_truncated`` (a move not
listed is still judged exactly when played).  A house ruleset's cost is its author's choice; this bounds what
one ply of it takes from every other table."""


@dataclass(frozen=True)
class Spec:
    """What a table was created from (kept by the store; the seed is secret unless ``seed_given``)."""

    ruleset: Any
    """A shipped ruleset's name, or ``{"yaml": TEXT, "file": NAME}``."""
    players: tuple[str, ...]
    dealer: str
    seed: int
    seed_given: bool
    match: bool
    bots: dict[str, str] = field(default_factory=dict)
    """The seats the server plays, and the bot at each (``{"Carla": "greedy"}``)."""

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "players": list(self.players), "dealer": self.dealer,
                "seed": str(self.seed), "seed_given": self.seed_given, "match": self.match, "bots": dict(self.bots)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Spec:
        return cls(d["ruleset"], tuple(d["players"]), d["dealer"], int(d["seed"]), bool(d["seed_given"]),
                   bool(d["match"]), dict(d.get("bots") or {}))


class ActionRefused(Exception):
    """An action the table does not take: ``status`` 403 (another seat's), 422 (illegal: ``reasons``)."""

    def __init__(self, status: int, slug: str, message: str, reasons: list[dict[str, str]] | None = None,
                 spoken: dict[str, tuple[str, list[dict[str, str]]]] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.slug = slug
        self.message = message
        self.reasons = reasons or [{"rule": slug, "message": message, "where": ""}]
        self.spoken = spoken or {}
        """The message and reasons in other languages than English, where the referee gave them (by language)."""

    def said_in(self, lang: str) -> tuple[str, list[dict[str, str]]]:
        """The message and the reasons in ``lang`` (English where they have no words in ``lang``)."""
        return self.spoken.get(lang, (self.message, self.reasons))


def refused(e: IllegalMove) -> ActionRefused:
    """The referee's refusal as a 422, its reasons in every language they are said in (made only here, on a
    refusal)."""
    spoken = {lang: (e.message_in(lang), [r.to_dict(lang) for r in e.reasons]) for lang in LANGUAGES if lang != "en"}
    return ActionRefused(422, "illegal-move", e.message, [r.to_dict() for r in e.reasons], spoken)


def _reentry_refused(e: LobaError) -> ActionRefused:
    """A re-entry decision the match does not take (``match.reentry``), in every language its words have."""
    def words(lang: str) -> tuple[str, list[dict[str, str]]]:
        return e.message_in(lang), [{"rule": "match.reentry", "message": e.message_in(lang), "where": ""}]

    message, reasons = words("en")
    return ActionRefused(422, "illegal-move", message, reasons,
                         {lang: words(lang) for lang in LANGUAGES if lang != "en"})


class LiveTable:
    """A table being played: the library's table, who sits where, and the views of the current state."""

    def __init__(self, table_id: str, spec: Spec, rs: Ruleset) -> None:
        self.id = table_id
        self.spec = spec
        self.rs = rs
        self.table = Table.deal(rs, list(spec.players), spec.dealer, spec.seed)
        if not spec.seed_given:
            self.table.seed = None  # the record never shows a secret seed (it would show every card)
        self.ply = 0
        self.finished = False
        self.last_events: list[Any] = []
        """The library events of the last action, and ``("new_round", n)`` / re-entry markers."""
        self._views: dict[str | None, dict[str, Any]] = {}
        self._legal: list[dict[str, Any]] | None = None
        self._truncated = False

    # ------------------------------------------------------------ actions

    def act(self, seat: str, action: dict[str, Any]) -> None:
        """Take ``seat``'s action; :class:`ActionRefused` changes nothing."""
        if not isinstance(action, dict):
            raise ActionRefused(422, "bad-move", "a move is a JSON object as in loba-record/1")
        player = action.get("player", seat)
        if player != seat:
            raise ActionRefused(403, "not-your-seat", f"this seat is {seat}'s: it cannot move for "
                                f"{str(player)[:40]!r}")
        if self.finished:
            raise ActionRefused(422, "game-over", "the game at this table is over")
        action = {**action, "player": seat}
        op = action.get("op")
        t = self.table
        events: list[Any] = []
        if op == "reenter":
            accepted = action.get("accepted")
            if not isinstance(accepted, bool):
                raise ActionRefused(422, "bad-move", 'a re-entry decision is {"op": "reenter", "accepted": '
                                    'true|false}')
            asked = self.offer_asked()
            if asked is not None and asked != seat and seat in self._offered():
                why = f"re-entries are offered in seating order: {asked} decides first"
                raise ActionRefused(422, "illegal-move", f"{why} (match.reentry)",
                                    [{"rule": "match.reentry", "message": why, "where": ""}])
            try:
                t.reenter(seat, accepted)
            except LobaError as e:
                raise _reentry_refused(e) from None
            events.append(("reentered" if accepted else "stayed_out", seat))
        elif op == "undo":
            if t.to_move != seat or self._legal_moves() or self._truncated:
                raise ActionRefused(422, "illegal-move", "undo is offered only to the player to move when "
                                    "their own moves this turn left them no legal move",
                                    [{"rule": "turn.order", "message": "nothing to undo", "where": ""}])
            try:
                t.undo()
            except LobaError as e:
                raise ActionRefused(422, "illegal-move", e.message) from None
            events.append(("undone", seat))
        else:
            try:
                move = move_from_dict(self.rs, action, t.players, "move")
            except LobaError as e:
                raise ActionRefused(422, "bad-move", e.message) from None
            if op == "reshuffle":
                raise ActionRefused(422, "bad-move", "the dealer's reshuffle is the table's to make, before a "
                                    "stock draw from an empty stock")
            try:
                events += t.play(move)
            except IllegalMove as e:
                raise refused(e) from None
        events += self._advance()
        self.ply = max(self.ply + 1, self._count())  # the moves (a reshuffle too) or one more: never back
        self.last_events = events
        self._views.clear()
        self._legal = None

    def _advance(self) -> list[Any]:
        """Between rounds: end the game, wait for re-entry decisions, or deal the next round."""
        t = self.table
        if t.state.phase.value != "over" or t.outcome() is None:
            return []
        if not self.spec.match:
            self.finished = True
            return []
        st = t.standings()
        if st.offers:
            return []
        if st.over:
            self.finished = True
            return []
        t.next_round()
        return [("new_round", t.round_number)]

    def _count(self) -> int:
        return sum(len(log.moves) + len(log.reentries) for log in self.table.rounds)

    @property
    def digest(self) -> str:
        return self.table.digest

    # ------------------------------------------------------------ what a seat sees

    def _legal_moves(self) -> list[dict[str, Any]]:
        if self._legal is None:
            out: list[dict[str, Any]] = []
            self._truncated = False
            if not self.finished and self.table.to_move is not None:
                try:
                    for m in self.table.legal(budget=LISTING_BUDGET):
                        if len(out) >= MAX_LEGAL:
                            self._truncated = True
                            break
                        out.append(m.to_dict(self.rs))
                except LobaError:  # past the listing's budget (a house's hand of many wilds): what was found
                    self._truncated = True
            self._legal = out
        return self._legal

    def _offered(self) -> list[str]:
        """The players offered a re-entry now, in seating order."""
        t = self.table
        if t.state.phase.value != "over":
            return []
        waiting = {o.player for o in t.reentry_offers()}
        return [p for p in t.players if p in waiting]

    def offer_asked(self) -> str | None:
        """The player whose re-entry offer is asked now: offers are made in seating order, one at a time
        (docs/rules.md §7), so a later seat's offer waits for the earlier seats' answers."""
        offered = self._offered()
        return offered[0] if offered else None

    def legal_for(self, seat: str | None) -> list[dict[str, Any]]:
        """The actions ``seat`` may take now (empty for a spectator and when it is not their turn)."""
        if seat is None or self.finished:
            return []
        t = self.table
        if self.offer_asked() == seat:
            return [{"op": "reenter", "player": seat, "accepted": True},
                    {"op": "reenter", "player": seat, "accepted": False}]
        if t.to_move != seat or t.state.phase.value == "over":
            return []
        moves = self._legal_moves()
        if not moves and not self._truncated:  # (a listing cut short proves nothing)
            return [{"op": "undo", "player": seat}]
        return moves

    def view(self, seat: str | None) -> dict[str, Any]:
        """``seat``'s view (``None``: a spectator): the library's :class:`~loba_dsl.PlayerView` as JSON, with the
        table's ``ply``, the seat's ``legal`` actions and the table's state.

        The public part (melds, pile, counts, standings...) is built once a ply and shared by every seat's view;
        a seat adds its hand and its legal actions, and the player whose own stock draw is in the current turn
        sees that turn as the library shows it to them (everybody else sees the draw without its card).
        """
        got = self._views.get(seat)
        if got is not None:
            return got
        public = self._public()
        if seat is None:
            v = public
        else:
            t = self.table
            s = t.state
            if self._sees_own_draw(seat):
                v = {**public, **self._extras(t.view(seat).to_dict())}
            else:
                v = dict(public)
                v["player"] = v["seat"] = seat
                v["hand"] = self._names(s.hands[s.players.index(seat)]) if seat in s.players else []
            v["legal"] = self.legal_for(seat)
            v["legal_truncated"] = self._truncated and self.table.to_move == seat
        self._views[seat] = v
        return v

    def _public(self) -> dict[str, Any]:
        """The view of someone at no seat (no hand, no legal action): the part every seat's view shares."""
        got = self._views.get(None)
        if got is None:
            got = self._views[None] = self._extras(self.table.view(None).to_dict())
            got["legal"] = []
            got["legal_truncated"] = False
        return got

    def _extras(self, v: dict[str, Any]) -> dict[str, Any]:
        """The library's view with the table's own keys."""
        t = self.table
        v["round_ply"] = v["ply"]
        v["ply"] = self.ply
        v["table"] = self.id
        v["seat"] = v["player"]
        v["ruleset"] = t.ruleset_ref
        v["match"] = self.spec.match
        v["over"] = self.finished
        v["previous"] = t.results[-1].to_dict() if t.results and t.rounds[-1].result is None else None
        v["winners"] = list(t.standings().winners) if self.spec.match and t.results else []
        return v

    def _sees_own_draw(self, seat: str) -> bool:
        """Whether the current turn holds ``seat``'s own stock draw (whose card only ``seat`` sees)."""
        return any(isinstance(m, Draw) and m.card is not None and m.player == seat
                   for m in turn_moves(self.table.rounds[-1].moves, self.table.rounds[-1].states))

    def _names(self, cards: Any) -> list[str]:
        names = self.rs.deck.names
        return [HIDDEN if c == UNKNOWN else names[c] for c in cards]

    def events_for(self, seat: str | None) -> list[dict[str, Any]]:
        """The last action's events as ``seat`` saw them: another player's stock draw shows no card."""
        names = self.rs.deck.names_of
        out: list[dict[str, Any]] = []
        for e in self.last_events:
            if isinstance(e, tuple):
                kind, what = e
                if kind == "new_round":
                    out.append({"kind": kind, "player": None, "cards": [], "meld": None, "round": what})
                else:
                    out.append({"kind": kind, "player": what, "cards": [], "meld": None})
                continue
            cards = names(e.cards)
            if e.kind == "drew" and e.player != seat:
                cards = [HIDDEN] * len(cards)
            out.append({"kind": e.kind, "player": e.player, "cards": cards, "meld": e.meld})
        return out

    def record(self, seat: str | None, whole: bool) -> dict[str, Any]:
        """The ``loba-record/1`` record: whole, or as ``seat`` may see it (``None``: at no seat)."""
        full = self.table.record()
        return full if whole else view_of(full, seat)
