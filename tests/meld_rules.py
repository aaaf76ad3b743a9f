"""A second reading of a meld on the table, written from the rules alone (never the matcher).

The referee, the legal-move listing, the replay and the scoring all judge a meld through one matcher
(``loba_dsl.melds.matcher`` and ``loba_dsl.game.roles``), so a mistake there is invisible to a test that
compares them.  :func:`table_meld_problems` reads a :class:`~loba_dsl.game.state.TableMeld` the simple
way, position by position, from the meld kind's shape as the ruleset writes it (docs/rules.md §1 for
the words: a pierna is one rank, an escalera one suit in sequence; a wild stands for a natural card;
``wilds <= N``, ``naturals >= N``, ``no wilds``, ``wilds apart``, ``suits distinct``, ``suits == N``,
the ace low / high / either / wrap).  It knows nothing of scoring or of which reading is best: it
only asks whether the roles the table gives are a legal meld of its kind.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence

from loba_dsl.dsl import ast as A
from loba_dsl.game.state import TableMeld
from loba_dsl.rules.model import Ruleset

_OPS: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt,
}


def _run_in_sequence(rs: Ruleset, ranks: Sequence[int], mode: str) -> bool:
    """Whether ranks (low to high, as the meld lays them) follow each other, the ace placed as ``mode`` says."""
    deck = rs.deck
    n = deck.n_ranks
    ace = deck.ace

    def places(r: int) -> set[int]:
        if r != ace:
            return {r}
        # The ace sits where the deck lists it (low) or after the top rank (high).
        return {"low": {r}, "high": {n}, "either": {r, n}, "wrap": {r}}[mode]

    for first in places(ranks[0]):
        at = [first + i for i in range(len(ranks))]
        if mode == "wrap":
            if len(ranks) > n:
                continue
            at = [p % n for p in at]
        if all(p in places(r) for p, r in zip(at, ranks, strict=True)):
            return True
    return False


def table_meld_problems(rs: Ruleset, m: TableMeld) -> list[str]:
    """What is wrong with meld ``m`` on the table under ``rs`` (empty: it is a legal meld of its kind)."""
    deck = rs.deck
    names = deck.names
    out: list[str] = []
    n = len(m.cards)
    if not len(m.stands) == len(m.wild) == n:
        return [f"meld {m.number}: {n} cards, {len(m.stands)} roles, {len(m.wild)} wild flags"]
    kind = next((k for k in rs.kinds if k.name == m.kind), None)
    if kind is None:
        return [f"meld {m.number}: no meld kind {m.kind!r} in {rs.name}"]
    shape = kind.shape
    label = f"meld {m.number} ({' '.join(names[c] for c in m.cards)} as {' '.join(names[c] for c in m.stands)})"
    # Each position: a natural card stands for itself; a wild is a card the ruleset lets stand for another.
    for card, stands, wild in zip(m.cards, m.stands, m.wild, strict=True):
        if deck.is_joker(stands):
            out.append(f"{label}: a position stands for a Joker")
        if wild and card not in rs.wilds.cards and not deck.is_joker(card):
            out.append(f"{label}: {names[card]} is used as a wild but the ruleset's wilds are not it")
        if not wild:
            if card != stands:
                out.append(f"{label}: natural {names[card]} stands for {names[stands]}")
            if deck.is_joker(card) or (card in rs.wilds.cards and not rs.wilds.natural_too):
                out.append(f"{label}: {names[card]} is always wild but is read as natural")
    wilds = sum(m.wild)
    naturals = n - wilds
    top = shape.max_size if shape.max_size is not None else (deck.n_ranks if shape.kind == "run" else n)
    if not shape.min_size <= n <= top:
        out.append(f"{label}: {n} cards, the {m.kind} takes {shape.min_size}..{top}")
    if (shape.kind == "run") != m.run:
        out.append(f"{label}: the table calls it {'a run' if m.run else 'a set'}, its kind is a {shape.kind}")
    suits = [deck.suit_of(c) for c in m.stands if not deck.is_joker(c)]
    ranks = [deck.rank_of(c) for c in m.stands if not deck.is_joker(c)]
    ace_mode = "low"
    for clause in shape.clauses:
        match clause:
            case A.Ace(mode=mode):
                ace_mode = mode
            case A.NoWilds():
                if wilds:
                    out.append(f"{label}: the {m.kind} takes no wild, it has {wilds}")
            case A.WildsApart():
                if shape.kind == "run" and any(a and b for a, b in itertools.pairwise(m.wild)):
                    out.append(f"{label}: two wilds side by side")
            case A.SuitsDistinct():
                if len(set(suits)) != len(suits):
                    out.append(f"{label}: a suit repeats")
            case A.Limit(counter=counter, op=op, value=v):
                got = {"wilds": wilds, "naturals": naturals, "size": n, "suits": len(set(suits))}[counter]
                if not _OPS[op](got, v):
                    out.append(f"{label}: {counter} {got}, the {m.kind} needs {counter} {op} {v}")
    if len(ranks) == n:
        if shape.kind == "set" and len(set(ranks)) != 1:
            out.append(f"{label}: a set of more than one rank")
        if shape.kind == "run":
            if len(set(suits)) != 1:
                out.append(f"{label}: a run of more than one suit")
            if not _run_in_sequence(rs, ranks, ace_mode):
                out.append(f"{label}: not in sequence with the ace {ace_mode}")
    return out
