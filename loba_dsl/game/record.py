"""The game record ``loba-record/1``: JSON shared by ``loba replay``, the service and the bots.

:func:`loads` / :func:`load` read a record into a :class:`GameRecord` (card
codes of its ruleset, every move typed); a record that cannot be read raises
:class:`~loba_dsl.game.moves.RecordError` before anything is replayed.
:func:`dumps` / :func:`dump` write one; :func:`record_dict` makes one from a
:class:`~loba_dsl.game.table.Table`; :func:`view_of` hides what a player
could not see (the other hands and the stock as ``"??"``; the viewer's own
stock draws gain a ``"card"`` key).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from loba_dsl.cards.deck import Card
from loba_dsl.game.moves import Move, RecordError, card_of, cards_of, move_from_dict
from loba_dsl.rules.loading import Siblings, load_named
from loba_dsl.rules.model import Ruleset

FORMAT = "loba-record/1"
HIDDEN = "??"


@dataclass(frozen=True)
class RoundRecord:
    """One round of a record: what was dealt, then the moves in order."""

    hands: tuple[tuple[Card, ...], ...]
    upcard: Card | None
    stock: tuple[Card, ...]
    moves: tuple[Move, ...]
    dealer: str | None = None
    """The dealer the record states for this round (an added key; ``None``: not stated)."""


@dataclass(frozen=True)
class GameRecord:
    ruleset: Ruleset
    ruleset_ref: str
    """The record's ``ruleset`` as written (a shipped name or a house file's name)."""
    players: tuple[str, ...]
    dealer: str
    rounds: tuple[RoundRecord, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Top-level keys the format does not define, kept as they were."""


def _resolve(ref: str, base: Path | None) -> Ruleset:
    """A shipped name, or a house ruleset's file name beside the record (never a path elsewhere)."""
    folder = base if base is not None else Path.cwd()
    return load_named(ref, resolver=Siblings(str(folder)))


def from_dict(d: object, *, ruleset: Ruleset | None = None, base: Path | None = None) -> GameRecord:
    """Read a record's JSON object; ``base`` is the folder a house ruleset is looked for in."""
    if not isinstance(d, dict):
        raise RecordError("a record is a JSON object")
    if d.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record (format: {d.get('format')!r})")
    ref = d.get("ruleset")
    if not isinstance(ref, str) or not ref:
        raise RecordError("the record names no ruleset")
    rs = ruleset if ruleset is not None else _resolve(ref, base)
    players = d.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) and p for p in players) \
            or len(set(players)) != len(players):
        raise RecordError("players must be a list of different names, in seating order")
    dealer = d.get("dealer")
    if dealer not in players:
        raise RecordError(f"the dealer {dealer!r} is not one of the players")
    assert isinstance(dealer, str)
    rounds_raw = d.get("rounds")
    if not isinstance(rounds_raw, list):
        raise RecordError("rounds must be a list")
    rounds = []
    for r, raw in enumerate(rounds_raw, 1):
        where = f"rounds[{r}]"
        if not isinstance(raw, dict) or not isinstance(raw.get("deal"), dict):
            raise RecordError(f"{where}: a round has a 'deal' object")
        deal = raw["deal"]
        hands_raw = deal.get("hands")
        if not isinstance(hands_raw, dict) or set(hands_raw) != set(players):
            raise RecordError(f"{where}.deal.hands: one hand per player ({', '.join(players)})")
        hands = tuple(cards_of(rs, hands_raw[p], f"{where}.deal.hands.{p}") for p in players)
        up = deal.get("upcard")
        upcard = None if up is None else card_of(rs, up, f"{where}.deal.upcard")
        stock = cards_of(rs, deal.get("stock"), f"{where}.deal.stock")
        moves_raw = raw.get("moves", [])
        if not isinstance(moves_raw, list):
            raise RecordError(f"{where}.moves must be a list")
        moves = tuple(move_from_dict(rs, m, players, f"{where}.moves[{i}]") for i, m in enumerate(moves_raw, 1))
        stated = raw.get("dealer")
        if stated is not None and stated not in players:
            raise RecordError(f"{where}.dealer {stated!r} is not one of the players")
        rounds.append(RoundRecord(hands, upcard, stock, moves, stated))
    extra = {k: v for k, v in d.items() if k not in ("format", "ruleset", "players", "dealer", "rounds")}
    return GameRecord(rs, ref, tuple(players), dealer, tuple(rounds), extra)


def loads(text: str, *, ruleset: Ruleset | None = None, base: Path | None = None) -> GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    return from_dict(data, ruleset=ruleset, base=base)


def load(fp: IO[str] | str | Path, *, ruleset: Ruleset | None = None) -> GameRecord:
    """Read a record from a file (a house ruleset is looked for beside it) or an open text stream."""
    if isinstance(fp, (str, Path)):
        path = Path(fp)
        return loads(path.read_text(encoding="utf-8"), ruleset=ruleset, base=path.parent)
    return loads(fp.read(), ruleset=ruleset)


def to_dict(rec: GameRecord) -> dict[str, Any]:
    rs, names = rec.ruleset, rec.ruleset.deck.names
    rounds = []
    for r in rec.rounds:
        out: dict[str, Any] = {"deal": {
            "hands": {p: [names[c] for c in h] for p, h in zip(rec.players, r.hands, strict=True)},
            "upcard": names[r.upcard] if r.upcard is not None else None,
            "stock": [names[c] for c in r.stock],
        }, "moves": [m.to_dict(rs) for m in r.moves]}
        if r.dealer is not None:
            out["dealer"] = r.dealer
        rounds.append(out)
    return {"format": FORMAT, "ruleset": rec.ruleset_ref, "players": list(rec.players), "dealer": rec.dealer,
            "rounds": rounds, **rec.extra}


def view_of(record: Mapping[str, Any], player: str) -> dict[str, Any]:
    """``record`` as ``player`` could have seen it: other hands, the stock and reshuffles as ``??``.

    The viewer's own stock draws say which card came (``"card"``); everything on the table and the
    discard pile is public and stays.  Works on a well-formed record dict (see :func:`to_dict`).
    """
    if player not in record.get("players", ()):
        raise RecordError(f"'{player}' is not one of the record's players")
    out: dict[str, Any] = json.loads(json.dumps(record))
    out["view"] = player
    out.pop("seed", None)  # the seed would reveal every hidden card
    for rnd in out["rounds"]:
        deal = rnd["deal"]
        stock = list(deal["stock"])
        deal["hands"] = {p: (h if p == player else [HIDDEN] * len(h)) for p, h in deal["hands"].items()}
        deal["stock"] = [HIDDEN] * len(stock)
        for m in rnd["moves"]:
            if m.get("op") == "reshuffle":
                stock = list(m["stock"])
                m["stock"] = [HIDDEN] * len(stock)
            elif m.get("op") == "draw" and m.get("from") == "stock" and stock:
                card = stock.pop(0)
                if m.get("player") == player:
                    m["card"] = card
    return out


def dumps(record: Mapping[str, Any]) -> str:
    """A record as JSON text: one key per line, each hand, stock and move on one line."""
    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    lines = ["{"]
    top = [(k, v) for k, v in record.items() if k != "rounds"]
    for k, v in top:
        lines.append(f"  {one(k)}: {one(v)},")
    lines.append('  "rounds": [')
    rounds = record.get("rounds", [])
    for i, rnd in enumerate(rounds):
        lines.append("    {")
        for k, v in rnd.items():
            if k in ("deal", "moves"):
                continue
            lines.append(f"      {one(k)}: {one(v)},")
        deal = rnd["deal"]
        lines.append('      "deal": {')
        lines.append('        "hands": {')
        hands = list(deal["hands"].items())
        for j, (p, h) in enumerate(hands):
            lines.append(f"          {one(p)}: {one(h)}" + ("," if j < len(hands) - 1 else ""))
        lines.append("        },")
        extra = [(k, v) for k, v in deal.items() if k not in ("hands", "upcard", "stock")]
        for k, v in extra:
            lines.append(f"        {one(k)}: {one(v)},")
        lines.append(f'        "upcard": {one(deal.get("upcard"))},')
        lines.append(f'        "stock": {one(deal.get("stock"))}')
        lines.append("      },")
        moves = rnd.get("moves", [])
        if not moves:
            lines.append('      "moves": []')
        else:
            lines.append('      "moves": [')
            for j, m in enumerate(moves):
                lines.append(f"        {one(m)}" + ("," if j < len(moves) - 1 else ""))
            lines.append("      ]")
        lines.append("    }" + ("," if i < len(rounds) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines)


def dump(record: Mapping[str, Any], fp: IO[str]) -> None:
    fp.write(dumps(record) + "\n")


__all__ = ["FORMAT", "HIDDEN", "GameRecord", "RoundRecord", "dump", "dumps", "from_dict", "load", "loads", "to_dict",
           "view_of"]

