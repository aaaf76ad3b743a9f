"""A ruleset's meld kinds compiled for the hot loops: each kind's shape as plain fields
(:class:`CompiledShape`), and the meld tables (:class:`MeldTables`) whose packed card summaries rule
kinds out before any reading is tried.  Used by the matcher, the solver's candidates and the legal-move
listing."""

from __future__ import annotations

from collections.abc import Sequence

from loba_dsl.cards.deck import Deck
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.evaluate import compare

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass

    from loba_dsl.rules.model import MeldKind
else:
    from loba_dsl.frozen import dataclass

__all__ = ["PACK_MAX", "PACK_WIDTH", "CompiledShape", "MeldTables", "ShapeTable", "build_tables", "compile_shape"]


@dataclass(frozen=True, slots=True)
class CompiledShape:
    """A meld kind's shape reduced to what the hot loops need (the matcher's and the solver's candidates)."""

    index: int
    name: str
    run: bool
    lo: int
    hi: int
    distinct: int | None
    no_wilds: int | None
    apart: int | None
    ace: str
    ace_clause: int | None
    suit_limits: tuple[tuple[str, int, int], ...]
    limits: tuple[tuple[str, str, int, int], ...]


def compile_shape(index: int, kind: MeldKind, deck: Deck) -> CompiledShape:
    """A meld kind's shape as the fields the hot loops read: clause indices, ace mode, limits, size bounds."""
    distinct = no_wilds = apart = ace_clause = None
    ace = "low"
    suit_limits: list[tuple[str, int, int]] = []
    limits: list[tuple[str, str, int, int]] = []
    for i, c in enumerate(kind.shape.clauses):
        match c:
            case A.SuitsDistinct():
                distinct = i
            case A.NoWilds():
                no_wilds = i
            case A.WildsApart():
                apart = i
            case A.Ace(mode=mode):
                ace, ace_clause = mode, i
            case A.Limit(counter="suits", op=op, value=v):
                suit_limits.append((op, v, i))
            case A.Limit(counter=counter, op=op, value=v):
                if counter == "wilds" and ((op in ("==", "<=") and v == 0) or (op == "<" and v == 1)):
                    no_wilds = i
                else:
                    limits.append((counter, op, v, i))
    hi = kind.shape.max_size if kind.shape.max_size is not None else deck.n_ranks if kind.is_run else 10**6
    return CompiledShape(index, kind.name, kind.is_run, kind.shape.min_size, hi, distinct, no_wilds, apart, ace,
                         ace_clause, tuple(suit_limits), tuple(limits))


PACK_WIDTH = 4
"""Bits per field of a packed meld summary (:class:`MeldTables`)."""

PACK_MAX = (1 << PACK_WIDTH) - 1
"""Melds of more cards than this skip the tables (a field could overflow) and go to the general matcher."""


@dataclass(frozen=True, slots=True)
class ShapeTable:
    """One kind's cheap necessary conditions for a reading, compiled from its shape.

    ``counts[plain | forced << 4 | ambiguous << 8]`` is 1 when some split of
    the cards that may be wild into wild and natural passes the kind's size
    bounds, its wild rule and its limits (and, for a set with distinct suits,
    has no more cards than suits).
    """

    shape: CompiledShape
    counts: bytes
    span: bool
    """A run with the ace low (or no ace): its naturals lie within as many consecutive ranks as it has cards."""


@dataclass(frozen=True, slots=True)
class MeldTables:
    """A ruleset's meld tables: per card a packed summary, per kind its necessary conditions.

    A meld's summary is the sum of its cards' ``packed`` numbers: 4-bit fields
    counting its plain naturals, its cards that are always wild, those that may
    be wild, then the plain naturals of each rank and of each suit.  Built from
    the ruleset's deck, wild cards and shapes alone, once per matcher; its size
    is fixed by the deck (a number per card code, 4,096 bytes per kind).
    """

    packed: tuple[int, ...]
    natural: tuple[bool, ...]
    """Per card code: plainly natural (neither always nor maybe wild)."""
    shapes: tuple[ShapeTable, ...]
    rank_shift: int
    rank_mask: int
    rank_high: int
    """The bits of every rank field above its lowest: set when a rank is held twice."""
    suit_shift: int
    suit_mask: int
    suit_high: int


def _counts_ok(k: CompiledShape, plain: int, forced: int, ambiguous: int, n_suits: int,
               limits_met: dict[tuple[int, int], bool]) -> bool:
    """Whether a meld of these counts can be of kind ``k``; ``limits_met`` keeps, per size and number of wilds,
    whether the kind's limits hold (the same pairs come back for many counts: issue 22, start-up)."""
    n = plain + forced + ambiguous
    if not k.lo <= n <= k.hi or (k.distinct is not None and not k.run and n > n_suits):
        return False
    for wilds in range(forced, forced + ambiguous + 1):
        if wilds and k.no_wilds is not None:
            continue
        met = limits_met.get((n, wilds))
        if met is None:
            got = {"wilds": wilds, "naturals": n - wilds, "size": n}
            met = limits_met[n, wilds] = all(compare(op, got.get(counter, 0), v) for counter, op, v, _ in k.limits)
        if met:
            return True
    return False


def build_tables(specs: Sequence[CompiledShape], deck: Deck, always_wild: Sequence[bool],
                 maybe_wild: Sequence[bool]) -> MeldTables:
    """The meld tables of a ruleset's compiled shapes (see :class:`MeldTables`)."""
    S, R = deck.n_suits, deck.n_ranks
    rank_shift, suit_shift = 3 * PACK_WIDTH, (3 + R) * PACK_WIDTH
    packed = []
    for c in range(deck.n_codes):
        if always_wild[c]:
            packed.append(1 << PACK_WIDTH)
        elif maybe_wild[c]:
            packed.append(1 << 2 * PACK_WIDTH)
        else:
            packed.append(1 | 1 << (rank_shift + PACK_WIDTH * (c // S)) | 1 << (suit_shift + PACK_WIDTH * (c % S)))
    shapes = []
    for k in specs:
        counts = bytearray(1 << 3 * PACK_WIDTH)  # 0 wherever the cards are too few or too many for the kind
        limits_met: dict[tuple[int, int], bool] = {}
        for forced in range(min(PACK_MAX, k.hi) + 1):
            for ambiguous in range(min(PACK_MAX, k.hi - forced) + 1):
                for plain in range(max(0, k.lo - forced - ambiguous), min(PACK_MAX, k.hi - forced - ambiguous) + 1):
                    if _counts_ok(k, plain, forced, ambiguous, S, limits_met):
                        counts[plain | forced << PACK_WIDTH | ambiguous << 2 * PACK_WIDTH] = 1
        span = k.run and (k.ace == "low" or (deck.ace is None and k.ace != "wrap"))
        shapes.append(ShapeTable(k, bytes(counts), span))
    field_high = PACK_MAX - 1
    natural = tuple(not (always_wild[c] or maybe_wild[c]) for c in range(deck.n_codes))
    return MeldTables(
        tuple(packed), natural, tuple(shapes),
        rank_shift, (1 << R * PACK_WIDTH) - 1, sum(field_high << PACK_WIDTH * r for r in range(R)),
        suit_shift, (1 << S * PACK_WIDTH) - 1, sum(field_high << PACK_WIDTH * s for s in range(S)))
