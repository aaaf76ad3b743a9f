"""The game record ``loba-record/1``: JSON shared by ``loba replay``, the service and the bots; its one codec.

:func:`loads` / :func:`load` read a record into a :class:`GameRecord` (card codes of its ruleset, every
move typed); :func:`dumps` / :func:`dump` write a :class:`GameRecord` (or a record dict, or a
:class:`~loba_dsl.game.table.Table`'s game) back, so ``dumps(loads(text))`` is the same record.  A
record that cannot be read raises :class:`~loba_dsl.game.moves.RecordError` before anything is replayed:
bounded (:data:`MAX_BYTES`, :data:`MAX_DEPTH`), a regular file only, player names that print.

:meth:`Table.record() <loba_dsl.game.table.Table.record>` is the record of a table's game; :func:`view_of`
hides what a player could not see; :func:`record_digest` is the digest a table keeps of its record
(:attr:`Table.digest <loba_dsl.game.table.Table.digest>`).

Beyond the deal and the moves a round may say who played it (``"players"``, when players out of the
match sat it out), the re-entry decisions right after it (``"reentries"``: ``{"player", "accepted"}``),
the hands shown at its end where a hand-dealt record did not know them (``"shown"``), and, written by
the library and not read back, its ``"result"`` and the match ``"standings"`` after it.  A hand-dealt
record may leave the stock ``null`` and hidden cards ``"??"``; a stock draw then states its ``"card"``.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping, Sequence

from loba_dsl import jsontext  # json without importing json (issue 22: start-up)
from loba_dsl.cards.deck import Card
from loba_dsl.errors import decode_utf8
from loba_dsl.game.moves import (
    HIDDEN,
    UNKNOWN,
    Move,
    RecordError,
    card_of,
    cards_of,
    check_player_name,
    move_from_dict,
)
from loba_dsl.rules.loading import Siblings, load_named
from loba_dsl.rules.model import Ruleset
from loba_dsl.rules.sources import sha256  # the interpreter's own: hashlib loads OpenSSL (start-up)

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass, field
    from pathlib import Path
    from typing import IO, Any, Protocol
else:
    from loba_dsl.frozen import dataclass, field  # built without importing dataclasses (issue 22)

    Protocol = object  # at run time a plain base class: a protocol is read by type checkers only


class _HasRecord(Protocol):
    def record(self) -> dict[str, Any]: ...

FORMAT = "loba-record/1"
MAX_BYTES = 8 * 1024 * 1024
"""The largest record read (a 100,000-move record is about 5.4 MB; 8 MiB of the most memory-hungry JSON,
``[{}, {}, ...]``, parses into about 250 MB before it is refused)."""
MAX_DEPTH = 32
"""The deepest nesting of JSON a record may hold (a record itself needs 6)."""
_KEYS = ("format", "ruleset", "players", "dealer", "rounds", "target")
_ROUND_KEYS = ("dealer", "players", "deal", "moves", "reentries", "shown")


@dataclass(frozen=True)
class RoundRecord:
    """One round of a record: who played, what was dealt, the moves in order, what followed."""

    hands: tuple[tuple[Card, ...], ...]
    """One hand per player of the round (``UNKNOWN`` for a card the record does not know)."""
    upcard: Card | None
    stock: tuple[Card, ...] | None
    """Top first; ``None``: not known (a hand-dealt game)."""
    moves: tuple[Move, ...]
    dealer: str | None = None
    """The dealer the record states for this round (``None``: not stated)."""
    players: tuple[str, ...] | None = None
    """Who played the round, where not every player of the record did (``None``: all of them)."""
    reentries: tuple[tuple[str, bool], ...] = ()
    """The re-entry decisions right after the round: (player, accepted)."""
    shown: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    """Hands shown at the round's end where the record did not know them."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Keys of the round the format does not read (``result``, ``standings``...), kept as they were."""


@dataclass(frozen=True)
class GameRecord:
    """A whole ``loba-record/1`` record: its ruleset, the players, the first dealer and every round."""

    ruleset: Ruleset
    ruleset_ref: str
    """The record's ``ruleset`` as written (a shipped name or a house file's name)."""
    players: tuple[str, ...]
    dealer: str
    rounds: tuple[RoundRecord, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Top-level keys the format does not define, kept as they were."""
    target: int | None = None
    """The match's target where it is not the ruleset's (``match.target``)."""

    def to_dict(self) -> dict[str, Any]:
        return to_dict(self)


# ---------------------------------------------------------------- reading


def _resolve(ref: str, base: str | os.PathLike[str] | None) -> Ruleset:
    """A shipped name, or a house ruleset's file name beside the record (never a path elsewhere)."""
    folder = os.fspath(base) if base is not None else os.getcwd()
    return load_named(ref, resolver=Siblings(folder))


def _depth(value: Any, limit: int) -> bool:
    """Whether ``value`` nests at most ``limit`` deep (lists and objects)."""
    if limit < 0:
        return False
    if isinstance(value, dict):
        return all(_depth(v, limit - 1) for v in value.values())
    if isinstance(value, list):
        return all(_depth(v, limit - 1) for v in value)
    return True


def _kept(d: Mapping[str, Any], known: Sequence[str], where: str) -> dict[str, Any]:
    out = {k: v for k, v in d.items() if k not in known}
    if not _depth(out, MAX_DEPTH - 3):
        raise RecordError(f"{where}: nested deeper than {MAX_DEPTH} levels")
    return out


def from_dict(d: object, *, ruleset: Ruleset | None = None, base: str | os.PathLike[str] | None = None
              ) -> GameRecord:
    """Read a record's JSON object; ``base`` is the folder a house ruleset is looked for in."""
    if not isinstance(d, dict):
        raise RecordError("a record is a JSON object")
    if d.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record (format: {str(d.get('format'))[:40]!r})")
    ref = d.get("ruleset")
    if not isinstance(ref, str) or not ref:
        raise RecordError("the record names no ruleset")
    players = d.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError("players must be a list of different names, in seating order")
    for i, p in enumerate(players):
        check_player_name(p, f"players[{i}]")
    if len(set(players)) != len(players):
        raise RecordError("players must be a list of different names, in seating order")
    dealer = d.get("dealer")
    if dealer not in players:
        raise RecordError(f"the dealer {str(dealer)[:40]!r} is not one of the players")
    assert isinstance(dealer, str)
    target = d.get("target")
    if target is not None and (not isinstance(target, int) or isinstance(target, bool) or target <= 0):
        raise RecordError(f"target: a positive whole number, not {target!r}")
    rounds_raw = d.get("rounds")
    if not isinstance(rounds_raw, list):
        raise RecordError("rounds must be a list")
    rs = ruleset if ruleset is not None else _resolve(ref, base)
    rounds = [_round(rs, raw, players, f"rounds[{r}]") for r, raw in enumerate(rounds_raw, 1)]
    return GameRecord(rs, ref, tuple(players), dealer, tuple(rounds), _kept(d, _KEYS, "the record"), target)


def _round(rs: Ruleset, raw: object, everyone: list[str], where: str) -> RoundRecord:
    if not isinstance(raw, dict) or not isinstance(raw.get("deal"), dict):
        raise RecordError(f"{where}: a round has a 'deal' object")
    stated_players = raw.get("players")
    if stated_players is None:
        players = everyone
    elif (not isinstance(stated_players, list) or not stated_players
          or any(p not in everyone for p in stated_players)
          or [p for p in everyone if p in stated_players] != stated_players):
        raise RecordError(f"{where}.players: the players of the round, in the record's seating order")
    else:
        players = stated_players
    deal = raw["deal"]
    hands_raw = deal.get("hands")
    if not isinstance(hands_raw, dict) or set(hands_raw) != set(players):
        raise RecordError(f"{where}.deal.hands: one hand per player of the round ({', '.join(players)})")
    hands = tuple(cards_of(rs, hands_raw[p], f"{where}.deal.hands.{p}", unknown=True) for p in players)
    up = deal.get("upcard")
    upcard = None if up is None else card_of(rs, up, f"{where}.deal.upcard")
    stock_raw = deal.get("stock")
    stock = None if stock_raw is None else cards_of(rs, stock_raw, f"{where}.deal.stock", unknown=True)
    moves_raw = raw.get("moves", [])
    if not isinstance(moves_raw, list):
        raise RecordError(f"{where}.moves must be a list")
    moves = tuple(move_from_dict(rs, m, players, f"{where}.moves[{i}]") for i, m in enumerate(moves_raw, 1))
    stated = raw.get("dealer")
    if stated is not None and stated not in everyone:
        raise RecordError(f"{where}.dealer {str(stated)[:40]!r} is not one of the players")
    reentries = []
    for i, e in enumerate(raw.get("reentries") or (), 1):
        if not isinstance(e, dict) or e.get("player") not in everyone or not isinstance(e.get("accepted"), bool):
            raise RecordError(f"{where}.reentries[{i}]: {{\"player\": a player, \"accepted\": true or false}}")
        reentries.append((e["player"], e["accepted"]))
    shown_raw = raw.get("shown") or {}
    if not isinstance(shown_raw, dict) or any(p not in players for p in shown_raw):
        raise RecordError(f"{where}.shown: the hands shown at the end, by player of the round")
    shown = {p: cards_of(rs, c, f"{where}.shown.{p}") for p, c in shown_raw.items()}
    return RoundRecord(hands, upcard, stock, moves, stated, None if stated_players is None else tuple(players),
                       tuple(reentries), shown, _kept(raw, _ROUND_KEYS, where))


def loads(text: str | bytes, *, ruleset: Ruleset | None = None, base: str | os.PathLike[str] | None = None,
          source: str = "<record>") -> GameRecord:
    """Read a record from JSON text (at most :data:`MAX_BYTES`, nested at most :data:`MAX_DEPTH` deep);
    ``source`` names it in the error of bytes that are not UTF-8 (the one wording of every command)."""
    if len(text) > MAX_BYTES:
        raise RecordError(f"the record is over {MAX_BYTES:,} bytes (MAX_BYTES)")
    if isinstance(text, bytes):
        text = decode_utf8(text, source, error=RecordError)
    try:
        data = jsontext.loads(text)
    except RecursionError:
        raise RecordError(f"the record is nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:
        import json  # its error is json's own (loba_dsl.jsontext leaves bad text to json)

        if not isinstance(e, json.JSONDecodeError):
            raise
        raise RecordError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    return from_dict(data, ruleset=ruleset, base=base)


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a record file: a regular file (a FIFO or a device is refused, never waited on) of at most
    :data:`MAX_BYTES`."""
    name = os.fspath(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags)
    except OSError as e:
        if e.errno == errno.ENOENT:
            raise RecordError(f"no such file: {name}") from None
        raise RecordError(f"cannot read {name}: {e.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{name} is not a regular file; it is not read")
        if info.st_size > MAX_BYTES:
            raise RecordError(f"{name} is {info.st_size:,} bytes, over the {MAX_BYTES:,}-byte limit (MAX_BYTES)")
        chunks, size = [], 0
        while chunk := os.read(fd, MAX_BYTES + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_BYTES:
                raise RecordError(f"{name} is over the {MAX_BYTES:,}-byte limit (MAX_BYTES)")
    except OSError as e:
        raise RecordError(f"cannot read {name}: {e.strerror}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def load(fp: IO[str] | IO[bytes] | str | Path, *, ruleset: Ruleset | None = None,
         source: str = "<stdin>") -> GameRecord:
    """Read a record from a file (a house ruleset is looked for beside it) or an open stream (text or bytes,
    named ``source`` in errors)."""
    if isinstance(fp, (str, os.PathLike)):
        data = read_bytes(fp).removeprefix(b"\xef\xbb\xbf")
        if not data.strip():
            raise RecordError(f"{os.fspath(fp)} is empty: give a loba-record/1 JSON object")
        return loads(data, ruleset=ruleset, base=os.path.dirname(os.fspath(fp)) or os.curdir, source=os.fspath(fp))
    text = fp.read(MAX_BYTES + 1)
    if not text.strip():
        raise RecordError("the record is empty: give a loba-record/1 JSON object")
    if isinstance(text, bytes):
        return loads(text.removeprefix(b"\xef\xbb\xbf"), ruleset=ruleset, source=source)
    return loads(text.removeprefix("\ufeff"), ruleset=ruleset, source=source)


# ---------------------------------------------------------------- writing


def _names(rs: Ruleset, cards: Sequence[Card]) -> list[str]:
    names = rs.deck.names
    return [HIDDEN if c == UNKNOWN else names[c] for c in cards]


def to_dict(rec: GameRecord) -> dict[str, Any]:
    """A read record as its JSON object again (keys it did not read kept as they were)."""
    rs = rec.ruleset
    rounds = []
    for r in rec.rounds:
        playing = r.players or rec.players
        out: dict[str, Any] = {}
        if r.dealer is not None:
            out["dealer"] = r.dealer
        if r.players is not None:
            out["players"] = list(r.players)
        out["deal"] = {"hands": {p: _names(rs, h) for p, h in zip(playing, r.hands, strict=True)},
                       "upcard": _names(rs, (r.upcard,))[0] if r.upcard is not None else None,
                       "stock": None if r.stock is None else _names(rs, r.stock)}
        out["moves"] = [m.to_dict(rs) for m in r.moves]
        if r.shown:
            out["shown"] = {p: _names(rs, c) for p, c in r.shown.items()}
        if r.reentries:
            out["reentries"] = [{"player": p, "accepted": a} for p, a in r.reentries]
        out.update(r.extra)
        rounds.append(out)
    head: dict[str, Any] = {"format": FORMAT, "ruleset": rec.ruleset_ref, "players": list(rec.players),
                            "dealer": rec.dealer}
    if rec.target is not None:
        head["target"] = rec.target
    return {**head, "rounds": rounds, **rec.extra}


def piece(entry: Any) -> bytes:
    """One entry of the record as the digest reads it: compact JSON, UTF-8."""
    return jsontext.dumps(entry, separators=(",", ":")).encode("utf-8", "surrogatepass")


def deal_entry(players: Sequence[str], dealer: str | None, hands: Sequence[Any], upcard: Any, stock: Any) -> dict[
        str, Any]:
    """What the digest reads of a round's deal (hands in the round's seating order)."""
    return {"players": list(players), "dealer": dealer, "hands": list(hands), "upcard": upcard, "stock": stock}


def tail_entry(reentries: Sequence[Sequence[Any]], shown: Mapping[str, Any]) -> dict[str, Any]:
    """What the digest reads of what followed a round: re-entry decisions, hands shown."""
    return {"reentries": [list(e) for e in reentries], "shown": dict(shown)}


def record_digest(record: Mapping[str, Any] | GameRecord) -> str:
    """The digest of a record's game: SHA-256 of its header, then each round's deal, its moves (as one JSON
    list, written as they are) and what followed it (re-entries, shown hands); not the derived ``result``,
    ``standings`` or ``winner``, not keys the format does not read.

    It equals :attr:`Table.digest <loba_dsl.game.table.Table.digest>` of the table whose record it is, which
    the table extends move by move, so a cache of table snapshots can be keyed by it.  One pass over the
    record, its moves encoded by one call per round.
    """
    d = to_dict(record) if isinstance(record, GameRecord) else record
    players = list(d.get("players") or [])
    h = sha256(piece({"ruleset": d.get("ruleset"), "players": players, "target": d.get("target")}))
    dealer = d.get("dealer")
    for rnd in d.get("rounds") or []:
        deal = rnd.get("deal") or {}
        playing = rnd.get("players") or players
        hands = deal.get("hands") or {}
        h.update(b"\n" + piece(deal_entry(playing, rnd.get("dealer", dealer), [hands.get(p) for p in playing],
                                          deal.get("upcard"), deal.get("stock"))) + b"\n")
        h.update(piece(rnd.get("moves") or [])[1:-1])
        if rnd.get("reentries") or rnd.get("shown"):
            h.update(b"\n" + piece(tail_entry([[e.get("player"), e.get("accepted")]
                                                for e in rnd.get("reentries") or []], rnd.get("shown") or {})))
        dealer = None
    return h.hexdigest()


def view_of(record: Mapping[str, Any], player: str | None) -> dict[str, Any]:
    """``record`` as ``player`` could have seen it (see :func:`loba_dsl.game.view.hide_record`)."""
    from loba_dsl.game.view import hide_record

    return hide_record(record, player)


def dumps(record: GameRecord | Mapping[str, Any] | _HasRecord) -> str:
    """A record as JSON text: one key per line, each hand, stock and move on one line."""
    if isinstance(record, GameRecord):
        record = to_dict(record)
    elif not isinstance(record, Mapping):
        record = record.record()

    def one(v: Any) -> str:
        return jsontext.dumps(v)

    lines = ["{"]
    top = [(k, v) for k, v in record.items() if k != "rounds"]
    for k, v in top:
        lines.append(f"  {one(k)}: {one(v)},")
    lines.append('  "rounds": [')
    rounds = record.get("rounds", [])
    for i, rnd in enumerate(rounds):
        parts: list[str] = []  # each key of the round, written in order: who, the deal, the moves, what followed
        for k, v in rnd.items():
            if k in ("dealer", "players"):
                parts.append(f"      {one(k)}: {one(v)}")
        deal = rnd["deal"]
        hands = list(deal["hands"].items())
        inner = [f"          {one(p)}: {one(h)}" for p, h in hands]
        deal_lines = ['      "deal": {', '        "hands": {', ",\n".join(inner), "        },"]
        for k, v in deal.items():
            if k not in ("hands", "upcard", "stock"):
                deal_lines.append(f"        {one(k)}: {one(v)},")
        deal_lines += [f'        "upcard": {one(deal.get("upcard"))},', f'        "stock": {one(deal.get("stock"))}',
                       "      }"]
        parts.append("\n".join(line for line in deal_lines if line))
        moves = rnd.get("moves", [])
        if not moves:
            parts.append('      "moves": []')
        else:
            parts.append('      "moves": [\n' + ",\n".join(f"        {one(m)}" for m in moves) + "\n      ]")
        for k, v in rnd.items():
            if k not in ("dealer", "players", "deal", "moves"):
                parts.append(f"      {one(k)}: {one(v)}")
        lines.append("    {")
        lines.append(",\n".join(parts))
        lines.append("    }" + ("," if i < len(rounds) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines)


def dump(record: GameRecord | Mapping[str, Any] | _HasRecord, fp: IO[str]) -> None:
    fp.write(dumps(record) + "\n")


__all__ = ["FORMAT", "HIDDEN", "MAX_BYTES", "MAX_DEPTH", "GameRecord", "RoundRecord", "deal_entry", "dump", "dumps",
           "from_dict", "load", "loads", "piece", "read_bytes", "record_digest", "tail_entry", "to_dict", "view_of"]
