"""The synchronous work behind the endpoints (called on the event loop when it is quick, in a thread when
it is not, in a solver process when it is heavy): each takes decoded bodies and a ruleset and gives the
library's own JSON-ready objects, the ones ``loba ... --json`` prints."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from loba_dsl import Card, InputError, LobaError, LobaErrors, Ruleset, check_copies, kind_verdicts
from loba_dsl import check as check_meld
from loba_service.bodies import MatchRoundIn, PlayerIn, ScoreMatchRequest, ScoreRoundRequest
from loba_service.limits import Limits
from loba_service.problems import ServiceError, error_items, plain
from loba_service.work import Deadline

__all__ = ["check_many", "check_one", "kind_verdicts", "ndjson_lines", "parse_hand", "score_match", "score_round",
           "validate"]


def _too_many(what: str, n: int, limit: int) -> ServiceError:
    from loba_service.problems import ErrorItem

    message = f"{what} has {n} cards; at most {limit} are accepted"
    return ServiceError(422, "limit", "A limit of the service was passed", message,
                        [ErrorItem(code="limit", message=message)])


def _count(rs: Ruleset, text: str, lang: str | None, limit: int, what: str) -> None:
    """Refuse more than ``limit`` cards before any matching (a card is at least one character)."""
    if len(text) <= limit:
        return
    n = len(rs.notation(lang).parse(text, source="<cards>").cards)
    if n > limit:
        raise _too_many(what, n, limit)


def check_one(text: str, rs: Ruleset, lang: str | None, limits: Limits, *, explain_all: bool = False,
              source: str = "<cards>", messages: str = "en") -> dict[str, Any]:
    """``loba check --json`` for one meld; ``explain_all`` adds every kind's verdict; ``messages``: the
    language of the reasons (``en`` or ``es``)."""
    _count(rs, text, lang, limits.max_cards, "the meld")
    result = check_meld(text, rs, lang=lang, source=source)  # no cards at all: the library's "no cards given"
    out = result.to_dict(messages)
    if explain_all:
        out["explain"] = kind_verdicts(rs, result.cards, messages)
    return out


def check_many(items: Iterable[tuple[str, str]], rs: Ruleset, lang: str | None,
               limits: Limits, deadline: Deadline | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """(id, result or error) for each (id, cards); a bad item does not stop the others.  ``deadline``: the
    request's budget, looked at between two melds (past it, or once the client has gone, the batch stops)."""
    seen: dict[str, dict[str, Any]] = {}
    for key, text in items:
        if deadline is not None:
            deadline.check()
        hit = seen.get(text)
        if hit is None:
            try:
                hit = check_one(text, rs, lang, limits)
            except LobaError as e:
                hit = {"input": text, "valid": None, "errors": plain(error_items(e))}
            except ServiceError as e:
                hit = {"input": text, "valid": None, "errors": plain(e.problem().errors)}
            seen[text] = hit
        yield key, hit


def ndjson_lines(results: Iterable[tuple[str, dict[str, Any]]]) -> bytes:
    """The NDJSON answer of a batch: one ``{"id", ...result}`` per line."""
    import msgspec

    enc = msgspec.json.Encoder()
    out = bytearray()
    for key, result in results:
        out += enc.encode({"id": key, **result})
        out += b"\n"
    return bytes(out)


def validate(cache: Any, file: str, text: str, messages: str = "en") -> dict[str, Any]:
    """``loba validate --json`` of a house ruleset (compiled through ``cache``, a ``RulesetCache``); ``messages``:
    the language of the problems' words."""
    from loba_dsl import validation_dict

    try:
        return dict(validation_dict(file, cache.house(file, text)))
    except LobaError as e:
        return dict(validation_dict(file, e, messages))


def parse_hand(rs: Ruleset, text: str, lang: str | None, limit: int, source: str = "<cards>") -> tuple[Card, ...]:
    """Cards of a hand, read and checked against the deck's copies; at most ``limit``."""
    _count(rs, text, lang, limit, "the hand")
    parsed = rs.notation(lang).parse(text, source=source)
    if len(parsed.cards) > limit:
        raise _too_many("the hand", len(parsed.cards), limit)
    check_copies(parsed, rs.deck, source=source, text=text, ruleset=rs.name)
    return parsed.cards


def _player(rs: Ruleset, p: PlayerIn, where: str, lang: str | None, limits: Limits) -> Any:
    from loba_dsl import PlayerRound

    errors: list[LobaError] = []
    melds: list[tuple[Card, ...]] = []
    for j, m in enumerate(p.melds):
        try:
            _count(rs, m, lang, limits.max_cards, f"{where}.melds[{j}]")
            cards = rs.notation(lang).parse(m, source=f"<{where}.melds[{j}]>").cards
        except LobaError as e:
            errors.append(e)
            continue
        if cards:
            melds.append(cards)
    hand: tuple[Card, ...] = ()
    try:
        _count(rs, p.hand, lang, limits.max_cards, f"{where}.hand")
        hand = rs.notation(lang).parse(p.hand, source=f"<{where}.hand>").cards
    except LobaError as e:
        errors.append(e)
    if errors:
        raise errors[0] if len(errors) == 1 else LobaErrors(errors)
    return PlayerRound(p.name, tuple(melds), hand, p.went_out, p.all_at_once)


def _players(rs: Ruleset, players: list[PlayerIn], where: str, lang: str | None, limits: Limits) -> list[Any]:
    errors: list[LobaError] = []
    out = []
    for i, p in enumerate(players):
        try:
            out.append(_player(rs, p, f"{where}[{i}]", lang, limits))
        except LobaError as e:
            errors.extend(e.errors if isinstance(e, LobaErrors) else (e,))
    if errors:
        raise errors[0] if len(errors) == 1 else LobaErrors(errors)
    return out


def _one_of(a: object, b: object, names: str) -> None:
    if (a is None) == (b is None):
        raise InputError(f"give exactly one of {names}")


def score_round(req: ScoreRoundRequest, rs: Ruleset, limits: Limits) -> dict[str, Any]:
    """``loba score --json``: from a round file's text, or from the players' cards."""
    from loba_dsl import RoundFacts, read_round, score_round_sheet
    from loba_dsl import score_round as score

    _one_of(req.sheet, req.players, "'sheet' and 'players'")
    if req.sheet is not None:
        return score_round_sheet(read_round(req.sheet, rs, source="<sheet>", lang=req.lang), rs).to_dict()
    assert req.players is not None
    players = _players(rs, req.players, "players", req.lang, limits)
    facts = RoundFacts(players=req.table or len(players), round=req.round, stock_out=req.stock_out)
    return score(rs, players, facts).to_dict()


def _events(rs: Ruleset, rounds: list[MatchRoundIn], lang: str | None, limits: Limits) -> list[Any]:
    from loba_dsl import MatchRound, PlayerPoints, Reentry

    events: list[Any] = []
    for i, r in enumerate(rounds):
        _one_of(r.players, r.points, f"'players' and 'points' in rounds[{i}]")
        if r.players is not None:
            players: tuple[Any, ...] = tuple(_players(rs, r.players, f"rounds[{i}].players", lang, limits))
        else:
            assert r.points is not None
            players = tuple(PlayerPoints(p.name, p.points, p.went_out) for p in r.points)
        events.append(MatchRound(players, r.number, r.stock_out))
        events.extend(Reentry(name) for name in r.reenter)
    return events


def score_match(req: ScoreMatchRequest, rs: Ruleset, limits: Limits) -> dict[str, Any]:
    """``loba match --json``: from a match file's text, or from the rounds."""
    from loba_dsl import play_match, play_match_sheet, read_match

    _one_of(req.sheet, req.rounds, "'sheet' and 'rounds'")
    if req.sheet is not None:
        sheet = read_match(req.sheet, rs, source="<sheet>", lang=req.lang)
        return play_match_sheet(sheet, rs, target=req.target).to_dict()
    assert req.rounds is not None
    events = _events(rs, req.rounds, req.lang, limits)
    return play_match(rs, events, players=req.players, target=req.target).to_dict()
