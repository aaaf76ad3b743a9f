"""Helpers for the live tables' tests (tests/service/test_tables_*.py): a random legal player that picks
from a view's ``legal``, and what the library itself says a seat sees at a ply of a whole record.

Not a test module itself: ``from table_play import choose, library_view, secret_names``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from loba_dsl.game.moves import move_from_dict
from loba_dsl.game.record import from_dict
from loba_dsl.game.replay import from_record

PLAYERS = ["Ana", "Beto", "Carla"]


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action of the view, eager to put cards down (so that random rounds end)."""
    legal = view["legal"]
    assert legal, f"{view['seat']} has no legal action at ply {view['ply']}"
    down = [m for m in legal if m["op"] in ("meld", "lay_off")]
    if down and rng.random() < 0.9:
        return dict(rng.choice(down))
    return dict(rng.choice(legal))


_TABLES: dict[tuple[str, int], Any] = {}


def table_at(record: dict[str, Any], ply: int) -> Any:
    """The library's table after the first ``ply`` moves of a one-round record (replayed by the referee; kept,
    as the tests ask for the same ply once per connection).  Do not change the table it gives."""
    key = (json.dumps(record["rounds"][0]["deal"]), ply)
    got = _TABLES.get(key)
    if got is None:
        if len(_TABLES) > 2_000:
            _TABLES.clear()
        before = _TABLES.get((key[0], ply - 1))
        if before is not None:  # one move on from the ply before: the referee plays the record's next move
            got = before.copy()
            got.play(move_from_dict(got.rs, record["rounds"][0]["moves"][ply - 1], got.players))
        else:
            got = _replayed(record, ply)
        _TABLES[key] = got
    return got


def _replayed(record: dict[str, Any], ply: int) -> Any:
    cut = {**record, "rounds": [{**record["rounds"][0], "moves": record["rounds"][0]["moves"][:ply]}]}
    for key in ("winner",):
        cut.pop(key, None)
    cut["rounds"][0].pop("result", None)
    cut["rounds"][0].pop("standings", None)
    return from_record(from_dict(cut))


def library_view(record: dict[str, Any], ply: int, seat: str | None) -> dict[str, Any]:
    """``PlayerView.to_dict()`` of ``seat`` after ``ply`` moves of the whole record."""
    out: dict[str, Any] = table_at(record, ply).view(seat).to_dict()
    return out


def secret_names(record: dict[str, Any], ply: int, seat: str | None) -> set[str]:
    """Card names ``seat`` may not see at ``ply``: in another hand or the stock, and nowhere it may look
    (its own hand, the pile, the melds: a double deck has two of most cards)."""
    t = table_at(record, ply)
    s = t.state
    names = t.rs.deck.names
    hidden: Counter[str] = Counter()
    seen: set[str] = set()
    for i, p in enumerate(s.players):
        for c in s.hands[i]:
            (seen.add(names[c]) if p == seat else hidden.update([names[c]]))
    hidden.update(names[c] for c in s.stock)
    seen.update(names[c] for c in s.pile)
    seen.update(names[c] for m in s.melds for c in (*m.cards, *m.stands))
    # cards that left the stock or a hand earlier and were seen (discards since taken, melds' wilds)
    for st in t.rounds[-1].states:
        seen.update(names[c] for c in st.pile)
        seen.update(names[c] for m in st.melds for c in (*m.cards, *m.stands))
    return {n for n in hidden if n not in seen}
