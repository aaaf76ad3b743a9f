"""Listing legal moves: generated (``Table.legal()``, loba_dsl/game/legal.py) against the old way (every
candidate judged by the referee), side by side in one run; CPU time, best of ``--runs``.

1. ``legal()`` per state: the states of random 4-player menos rounds, listed both ways (the same states).
2. A random 4-player menos move (listing + choice + play, as ``game.simulate.play_round`` plays it) and
   rounds per second, with the listing done each way (the same seeds; the new way lists more moves, so
   the rounds differ after the first multi-card lay-off).

The old way is kept here as it was in loba_dsl/game/referee.py (``legal_moves``): melds from windows of
each suit with up to two wilds and single-card lay-offs, each candidate run through the full ``judge``.

Run: ``python benchmarks/bench_legal.py [--runs 5] [--rounds 20]``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence

from loba_dsl.cards.deck import Card
from loba_dsl.game import Table, referee
from loba_dsl.game.generation import beside
from loba_dsl.game.moves import Discard, Draw, LayOff, Meld, Move, MoveWild, ReplaceJoker
from loba_dsl.game.players import PUT_DOWN
from loba_dsl.game.state import Phase, RoundState
from loba_dsl.game.table import UndoRefused, _can_reshuffle
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import LayOff as LayOffRule
from loba_dsl.rules.model import Ruleset, WildMove

PLAYERS = ["Ana", "Beto", "Carla", "Dora"]


# ---------------------------------------------------------------- the old way (as it was in referee.py)


MAX_MELD_WILDS = 2
"""The old listing added at most this many wild cards to a meld candidate."""


def old_meld_candidates(rs: Ruleset, hand: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Card groups of ``hand`` that may be melds: sets by rank, runs by suit, with up to two wilds.

    Bounded: a set takes any multiset of one rank's cards, a run one card per rank of a window of
    consecutive ranks; wilds fill gaps or extend the ends.  Every group is checked by the caller.
    """
    deck = rs.deck
    counts = Counter(hand)
    joker = deck.joker_code
    wildset = rs.wilds.cards
    natural_ok = [c for c in counts if c != joker and (c not in wildset or rs.wilds.natural_too)]
    seen: set[tuple[Card, ...]] = set()
    smallest = min((k.shape.min_size for k in rs.kinds), default=3)

    def with_wilds(base: Sequence[Card], gaps: int, extra: int) -> Iterator[tuple[Card, ...]]:
        left = counts.copy()
        left.subtract(base)
        pool = sorted(c for c in left.elements() if c in wildset)
        for w in range(gaps, min(gaps + extra, len(pool), MAX_MELD_WILDS) + 1):
            for combo in set(itertools.combinations(pool, w)):
                group = tuple(sorted((*base, *combo)))
                if len(group) >= smallest and group not in seen:
                    seen.add(group)
                    yield group

    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[int, set[int]] = {}
    for c in natural_ok:
        by_rank.setdefault(deck.rank_of(c), []).append(c)
        by_suit.setdefault(deck.suit_of(c), set()).add(deck.rank_of(c))
    for codes in by_rank.values():
        for choice in itertools.product(*(range(counts[c] + 1) for c in codes)):
            base = [c for c, k in zip(codes, choice, strict=True) for _ in range(k)]
            if base:
                yield from with_wilds(base, 0, MAX_MELD_WILDS)
    top = deck.n_ranks + (1 if deck.ace is not None else 0)
    for suit, ranks in by_suit.items():
        positions = set(ranks) | ({deck.n_ranks} if deck.ace in ranks else set())
        for a in range(top):
            for b in range(a + 1, top):
                inside = [p for p in range(a, b + 1) if p in positions]
                if not inside:
                    continue
                gaps = (b - a + 1) - len(inside)
                if gaps > MAX_MELD_WILDS:
                    break
                base = [deck.code(p if p < deck.n_ranks or deck.ace is None else deck.ace, suit) for p in inside]
                if len(set(base)) < len(base):
                    continue
                yield from with_wilds(base, gaps, 0)


def old_legal_moves(rs: Ruleset, s: RoundState) -> Iterator[Move]:
    """The legal moves of the player to move, each checked by :func:`judge` (lazy).

    Complete for draws, discards, single-card lay-offs, Joker replacements and wild moves; melds
    come from :func:`meld_candidates` (bounded), so a legal meld of an unusual shape may be missing.
    """
    if s.phase is Phase.OVER:
        return
    seat = s.turn
    player = s.players[seat]
    hand = s.hands[seat]
    candidates: list[Move] = []
    if s.phase is Phase.DRAW:
        candidates = [Draw(player, "stock"), Draw(player, "discard")]
    else:
        distinct = sorted(set(hand))
        candidates.extend(Meld(player, g) for g in old_meld_candidates(rs, hand))
        if rs.turn.lay_off is not LayOffRule.NONE:
            for m in s.melds:
                candidates.extend(LayOff(player, m.number, (c,)) for c in distinct)
                if m.run:  # a wild laid off onto a run, at either end
                    ends = (beside(rs, m.stands[0], up=False), beside(rs, m.stands[-1], up=True))
                    candidates.extend(LayOff(player, m.number, (c,), (e,)) for c in distinct
                                      if c in rs.wilds.cards for e in ends if e is not None)
        if rs.turn.joker_replacement:
            for m in s.melds:
                candidates.extend(ReplaceJoker(player, m.number, st) for st, w in zip(m.stands, m.wild, strict=True)
                                  if w and st in hand)
        if rs.turn.wild_move is not WildMove.NONE:
            for m in s.melds:
                if m.run:
                    candidates.extend(MoveWild(player, m.number, to) for to in ("low", "high"))
        candidates.extend(Discard(player, c) for c in distinct)
    for mv in candidates:
        if not referee.judge(rs, s, mv)[0]:
            yield mv


def old_listing(t: Table) -> Iterator[Move]:
    """The old ``Table.legal()`` iteration: the dealer's reshuffle first where the stock is empty, then the
    judged candidates."""
    s = t.state
    if t.rng is not None and s.phase is Phase.DRAW and not s.stock and _can_reshuffle(t.rs, s):
        yield Draw(s.players[s.turn], "stock", deck=t.rs.deck)
    yield from old_legal_moves(t.rs, s)


def new_listing(t: Table) -> Iterable[Move]:
    return t.legal()


# ---------------------------------------------------------------- measures


def play_round(t: Table, rng: random.Random, listing: Callable[[Table], Iterable[Move]], max_plies: int = 5_000
               ) -> int:
    """``game.simulate.play_round`` with the listing given (the same choice and play)."""
    tabu: set[Move] = set()
    plies = 0
    while t.state.phase is not Phase.OVER and plies < max_plies:
        moves = [m for m in listing(t) if m not in tabu]
        if not moves:
            try:
                tabu.add(t.undo())
            except UndoRefused:
                break
            plies -= 1
            continue
        puts = [m for m in moves if m.op in PUT_DOWN]
        move = rng.choice(puts) if puts and rng.random() < 0.8 else rng.choice(moves)
        turn = t.state.turn
        t.play(move)
        plies += 1
        if t.state.turn != turn:
            tabu.clear()
    return plies


def sample_tables(rs: Ruleset, rounds: int) -> list[Table]:
    """A copy of the table before every move of ``rounds`` random 4-player menos rounds."""
    out: list[Table] = []
    for seed in range(rounds):
        t = Table.deal(rs, PLAYERS, PLAYERS[seed % 4], seed)
        rng = random.Random(seed)
        while t.state.phase is not Phase.OVER and len(out) < 100_000:
            out.append(t.copy())
            if play_round(t, rng, new_listing, max_plies=1) == 0:
                break
    return out


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


WAYS: dict[str, Callable[[Table], Iterable[Move]]] = {"old: every candidate judged": old_listing,
                                                      "new: generated": new_listing}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--states-rounds", type=int, default=4)
    args = ap.parse_args()
    rs = load("menos")
    tables = sample_tables(rs, args.states_rounds)
    listed = {name: sum(len(list(fn(t))) for t in tables) for name, fn in WAYS.items()}
    plies = {name: 0 for name in WAYS}

    def listing(fn: Callable[[Table], Iterable[Move]]) -> None:
        for t in tables:
            list(fn(t))

    def rounds(name: str) -> None:
        plies[name] = 0
        for seed in range(args.rounds):
            t = Table.deal(rs, PLAYERS, PLAYERS[seed % 4], seed)
            plies[name] += play_round(t, random.Random(seed), WAYS[name])

    best_list = {name: float("inf") for name in WAYS}
    best_rounds = {name: float("inf") for name in WAYS}
    for _ in range(args.runs):  # interleaved: each run measures both ways under the same load
        for name, fn in WAYS.items():
            best_list[name] = min(best_list[name], cpu(lambda fn=fn: listing(fn)))  # type: ignore[misc]
            best_rounds[name] = min(best_rounds[name], cpu(lambda name=name: rounds(name)))  # type: ignore[misc]
    print(f"legal() on {len(tables)} states of {args.states_rounds} random 4-player menos rounds "
          f"(CPU time, best of {args.runs} interleaved runs):")
    for name in WAYS:
        print(f"  {name:30} {best_list[name] / len(tables) * 1e6:8.1f} us a state")
    print(f"  moves listed: old {listed['old: every candidate judged']:,}, new {listed['new: generated']:,}")
    print(f"random 4-player menos rounds, {args.rounds} seeds (listing + choice + play; CPU time, best of "
          f"{args.runs} interleaved runs):")
    for name in WAYS:
        took = best_rounds[name]
        print(f"  {name:30} {took / plies[name] * 1e6:8.1f} us a move, {args.rounds / took:7.1f} rounds/s "
              f"({plies[name] / args.rounds:.0f} moves a round)")
    old, new = (best_rounds[n] / plies[n] for n in WAYS)
    print(f"  a move: {old / new:.1f}x faster")


if __name__ == "__main__":
    main()
