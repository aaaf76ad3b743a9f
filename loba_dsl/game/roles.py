"""Reading cards as a meld while keeping the roles some of them already have.

The matcher is stateless: asked about ``4♣ JOKER 6♣ 5♣`` it finds the Joker a
new place (3♣ or 7♣).  On the table that would move a wild the rules keep
fixed, so a lay-off is judged with every card already on the table *pinned*
to what it stands for.  A pinned wild is replaced by the natural card it
stands for, and the cards must still form the same kind of meld with every
pin honoured; the real cards must form that kind too, and the shape's wild
clauses (``no wilds``, ``wilds <= N``, ``naturals >= N``, ``wilds apart``)
are counted on the roles the reading gives, a pinned wild counting as a wild
(:func:`wild_clauses`).  The same pins carry a record's ``as``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.dsl.evaluate import compare
from loba_dsl.errors import Said
from loba_dsl.melds.check import explain
from loba_dsl.melds.matcher import HEAD, CompiledShape, Failure, matcher_for
from loba_dsl.rules.model import Ruleset

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    from loba_dsl.frozen import dataclass  # built without importing dataclasses (issue 22)


@dataclass(frozen=True, slots=True)
class Placed:
    """A legal reading: the kind and each position's card, what it stands for, and whether it is wild."""

    kind: str
    run: bool
    cards: tuple[Card, ...]
    stands: tuple[Card, ...]
    wild: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Unreadable:
    """Why the cards are no meld (``failures``), or why the pins cannot all be kept (``pinned``)."""

    failures: tuple[Failure, ...]
    pinned: bool = False
    kind: str | None = None


def failure_where(rs: Ruleset, f: Failure) -> str:
    kind = rs.kinds[f.kind_index]
    return kind.where if f.clause == HEAD else kind.clause_where[f.clause]


def closest_kind(failures: Sequence[Failure]) -> str | None:
    """The meld kind the cards came closest to: the fewest broken clauses of structure (one rank, one suit, a
    sequence), then the fewest broken clauses in all; ``None`` where two kinds tie."""
    by_kind: dict[str, list[int]] = {}
    for f in failures:
        counts = by_kind.setdefault(f.kind, [0, 0])
        counts[0] += f.structural
        counts[1] += 1
    ranked = sorted(by_kind.items(), key=lambda kv: kv[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0] if ranked else None


def failure_text(rs: Ruleset, failures: Sequence[Failure], limit: int = 3) -> str:
    return "; ".join(explain(rs, f) for f in failures[:limit])


def failure_said(rs: Ruleset, failures: Sequence[Failure], limit: int = 3) -> Said:
    """:func:`failure_text` in every language a meld's reasons are given in (for a refusal's words)."""
    from loba_dsl.melds.reason_words import LANGUAGES

    return Said.in_languages({lang: "; ".join(explain(rs, f, lang) for f in failures[:limit]) for lang in LANGUAGES})


READINGS_KEPT = 4096
"""The most readings :func:`read` keeps per ruleset (past it, the kept ones are forgotten)."""


def read(rs: Ruleset, cards: Sequence[Card], pins: Sequence[Card | None] | None = None,
         kind: str | None = None) -> Placed | Unreadable:
    """The reading of ``cards`` (of ``kind``, if given) that honours ``pins``, or why there is none.

    ``pins[i]`` is the card ``cards[i]`` must stand for (itself: natural), or ``None`` for free.  A reading is
    a value of its arguments alone (both answers are frozen): the last :data:`READINGS_KEPT` are kept on the
    ruleset, since play asks the same ones again and again (a meld on the table and the cards of a hand that
    extend it, listed turn after turn, then judged when played).
    """
    cards = tuple(cards)
    key = (cards, None if pins is None else tuple(pins), kind)
    kept: dict[tuple[tuple[Card, ...], tuple[Card | None, ...] | None, str | None], Placed | Unreadable] = \
        rs.memo("pinned-readings", dict)
    found = kept.get(key)
    if found is None:
        found = _read(rs, cards, pins, kind)
        if len(kept) >= READINGS_KEPT:
            kept.clear()
        kept[key] = found
    return found


def _read(rs: Ruleset, cards: tuple[Card, ...], pins: Sequence[Card | None] | None,
          kind: str | None) -> Placed | Unreadable:
    free = pins is None or all(p is None for p in pins)
    if free:  # the reading `loba check` shows: the scored matcher's best
        shown = matcher_for(rs)
        got = shown.match(cards, tuple(k for k in shown.specs if kind is None or k.name == kind))
        if got.best is None:
            return Unreadable(got.failures, kind=kind)
        b = got.best
        return Placed(b.kind, rs.kinds[b.kind_index].is_run, tuple(cards[i] for i in b.order), b.stands, b.wild)
    assert pins is not None
    m = matcher_for(rs, scored=False)
    kinds = [k for k in m.specs if kind is None or k.name == kind]
    pinned = tuple(c if p is None else p for c, p in zip(cards, pins, strict=True))
    real = m.match(cards, tuple(kinds))
    if real.best is None:
        return Unreadable(real.failures, kind=kind)
    if pinned == cards and not any(wild_capable(rs, c) for c in cards):
        b = real.best  # every card natural and itself: the pins hold in any reading
        return Placed(b.kind, rs.kinds[b.kind_index].is_run, tuple(cards[i] for i in b.order), b.stands, b.wild)
    tried: list[Failure] = []
    limits: list[Failure] = []  # readings that keep every pin but break a wild clause of the kind
    first = real.best.kind
    for spec in sorted(kinds, key=lambda s: s.name != first):
        if spec.name != first and m.match(cards, (spec,), reasons=False).best is None:
            continue
        got = m.match(pinned, (spec,))
        r = got.best
        if r is None:
            tried.extend(got.failures)
            continue
        if any(pins[i] is not None and r.stands[q] != pins[i] for q, i in enumerate(r.order)):
            continue
        wild = tuple(r.wild[q] or (pins[i] is not None and (cards[i] != pins[i] or m.always_wild[cards[i]]))
                     for q, i in enumerate(r.order))
        broken = wild_clauses(spec, tuple(cards[i] for i in r.order), wild)
        if broken:
            limits.extend(broken)
            continue
        return Placed(r.kind, rs.kinds[r.kind_index].is_run, tuple(cards[i] for i in r.order), r.stands, wild)
    if limits:
        return Unreadable(tuple(limits), kind=real.best.kind)
    return Unreadable(tuple(tried), pinned=True, kind=real.best.kind)


def wild_clauses(spec: CompiledShape, cards: Sequence[Card], wild: Sequence[bool]) -> list[Failure]:
    """The wild clauses of a kind that a reading with these roles breaks (``cards`` in meld order)."""
    n, wilds = len(wild), sum(wild)
    used = tuple(c for c, w in zip(cards, wild, strict=True) if w)
    out: list[Failure] = []
    if wilds and spec.no_wilds is not None:
        out.append(Failure(spec.name, spec.index, spec.no_wilds, "allows no wild cards, but {cards} would be wild",
                           used))
    for counter, op, v, ci in spec.limits:
        got = {"wilds": wilds, "naturals": n - wilds, "size": n}.get(counter)
        if got is not None and not compare(op, got, v):
            out.append(Failure(spec.name, spec.index, ci, "needs {0} {1} {2}, but has {3}",
                               values=(counter, op, v, got)))
    if spec.apart is not None and spec.run and any(a and b for a, b in itertools.pairwise(wild)):
        out.append(Failure(spec.name, spec.index, spec.apart, "would need two wild cards side by side"))
    return out


def wild_capable(rs: Ruleset, card: Card) -> bool:
    """Whether a card may stand for another (the ``as`` of a record names one entry per such card)."""
    return card in rs.wilds.cards
