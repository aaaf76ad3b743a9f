"""Witnesses: the smallest concrete examples on which two rulesets behave differently.

For each change of a :class:`~loba_dsl.compare.records.RulesDiff` a bounded,
deterministic search looks for examples, smallest first:

- **cards** a deck has and the other lacks (a JOKER under a deck without
  Jokers), or more copies of a card than the other deck holds;
- **melds** legal under one ruleset only (or legal as another kind): card
  multisets of 3, then 4, ... cards, in card order.  Every legal meld is a set
  (its natural cards of one rank) or a run (its natural cards of one suit,
  distinct ranks, within a window of the meld's length) plus cards that may be
  wild, so only those multisets are tried: the search is complete for its sizes.
  Where two shapes' size ranges part beyond those sizes (a 13-card escalera
  against at most 12), melds of natural cards at the boundary are tried too;
- **rounds** whose score differs (with both scores and their parts): one card
  left in hand, then going out with one meld, then a meld and a card in hand,
  over the round variables the formulas name (going out, all at once, the stock
  running out, the number of players); two-card hands are tried last;
- **openings** that reach the minimum under one ruleset only, and
  **contracts** fulfilled under one only: lay-downs of legal melds, fewest first;
- **match** totals and **player** counts where the match or the table differs.

Among the examples found for a change, the ones that show that change alone
(not mixed with another change) come first, then the fewest cards, then card
order; examples that differ only by a relabelling of suits count once.
Settings the engine does not play (the deal, turn rules) get no witness.

The search's state, the card universe and the searches on cards and melds are in
:mod:`loba_dsl.compare.witness_search`; this module adds the searches that score or lay
down (rounds, openings, contracts, match, players) and runs them all.  The records
(:class:`~loba_dsl.compare.records.Witness`, :class:`~loba_dsl.compare.records.Budget`) are in
:mod:`loba_dsl.compare.records`.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from loba_dsl.compare.records import Budget, Change, RulesDiff, Witness
from loba_dsl.compare.witness_search import MeldSearch
from loba_dsl.dsl.typecheck import free_names
from loba_dsl.dsl.vocabulary import round_facts
from loba_dsl.rules.model import MatchEnd, Ruleset
from loba_dsl.scoring.requirements import contract, opening
from loba_dsl.scoring.rounds import PlayerScore, hand_table, score_player


def find_witnesses(a: Ruleset, b: Ruleset, rules: RulesDiff, *, budget: Budget | None = None) -> list[Witness]:
    """The smallest examples that behave differently, up to ``budget.per_change`` per change."""
    return WitnessSearch(a, b, rules, budget or Budget()).run()


class WitnessSearch(MeldSearch):
    """The searches for one pair of rulesets; ``tried`` counts the examples each search checked."""

    def run(self) -> list[Witness]:
        changes = self.rules.changes
        self.deck_cards([c for c in changes if c.area in ("deck", "wilds")])
        self.melds([c for c in changes if c.area in ("melds", "wilds") or c.key[:2] in (
            ("deck", "ranks"), ("deck", "ace"), ("deck", "jokers"), ("deck", "copies"), ("deck", "suits"))])
        self.rounds([c for c in changes if c.area in ("values", "scoring")])
        self.openings([c for c in changes if c.key[:2] == ("requirements", "opening")])
        self.contracts([c for c in changes if c.key[:2] == ("requirements", "contracts")])
        self.match([c for c in changes if c.area == "match rules"])
        self.players([c for c in changes if c.key[0] == "players"])
        return self.choose()

    # ------------------------------------------------------------ rounds
    def score(self, s: int, melds: Sequence[tuple[int, ...]], hand: tuple[int, ...],
              env: dict[str, Any]) -> PlayerScore:
        rs = (self.a, self.b)[s]
        code = self.pair.code[s]
        names = self.pair.names
        return score_player(rs, melds=[tuple(code[names[i]] for i in m) for m in melds],
                            hand=tuple(code[names[i]] for i in hand), went_out=env["went_out"],
                            all_at_once=env["all_at_once"], stock_out=env["stock_out"], players=env["players"],
                            round_number=env["round"])

    def envs(self, went_out: bool) -> list[dict[str, Any]]:
        used = free_names(self.a.scoring.round) | free_names(self.b.scoring.round)
        lo = max(rs.players.min for rs in (self.a, self.b))
        hi = min(rs.players.max for rs in (self.a, self.b))
        usual = min(max(self.a.players.default, lo), hi)
        players = [usual] + ([lo] if "players" in used and lo != usual else [])
        out = []
        for at_once in (False, True) if went_out and "all_at_once" in used else (False,):
            for stock_out in (False, True) if "stock_out" in used else (False,):
                for n in players:
                    for rnd in (1, 2) if "round" in used else (1,):
                        out.append(round_facts(went_out=went_out, all_at_once=at_once, stock_out=stock_out,
                                               players=n, round=rnd))
        return out

    def rounds(self, changes: list[Change]) -> None:
        if not changes:
            return
        p = self.pair
        hand_tables = {hand_table(self.a), hand_table(self.b)} - {None}
        meld_tables = {self.a.scoring.meld_points, self.b.scoring.meld_points} - {None}
        keys = [c.key for c in changes if c.key[0] == "values" or c.key in (("scoring", "meld_points"),
                                                                          ("scoring", "round"))]
        common = p.common
        def stage(size: int) -> Iterator[tuple[list[tuple[int, ...]], tuple[int, ...], dict[str, Any]]]:
            """The rounds of one stage, built only when the search gets there."""
            if size == 1:
                yield from (([], (i,), e) for i in common for e in self.envs(False))
            elif size in (3, 4):
                yield from (([m], (), e) for m in self.pool(size) for e in self.envs(True))
            if size in (4, 5):
                yield from (([m], (i,), e) for m in self.pool(size - 1) for i in common for e in self.envs(False))
            if size == 2:
                yield from (([], h, e) for h in itertools.combinations_with_replacement(common, 2)
                            for e in self.envs(False))

        order = 0
        for done, size in enumerate((1, 3, 4, 5, 2)):  # two-card hands last: only formulas not sums need them
            self.stage = done
            for melds, hand, env in stage(size):
                if self.spent("rounds"):
                    return
                order += 1
                self.count("rounds")
                sa, sb = self.score(0, melds, hand, env), self.score(1, melds, hand, env)
                if sa.score == sb.score:
                    continue
                w = self.round_witness(melds, hand, env, sa, sb)
                sig = (p.signature([i for m in melds for i in m] + list(hand)), sa.score, sb.score)
                parts_differ = (sa.hand_value != sb.hand_value, (sa.meld_points or 0) != (sb.meld_points or 0),
                                sa.bonus != sb.bonus)
                pattern = (env["went_out"], env["all_at_once"], len(melds), len(hand), parts_differ, sa.bonus, sb.bonus)
                for c in changes:
                    rank = self.round_rank(c, parts_differ, hand_tables, meld_tables)
                    if rank is not None:
                        self.keep(c.key, w, rank, (size, order), sig, pattern)
            if self.enough(keys):
                return

    def round_rank(self, c: Change, differ: tuple[bool, bool, bool], hand_tables: set[str | None],
                   meld_tables: set[str | None]) -> int | None:
        hand, melds, bonus = differ
        if c.key[0] == "values":
            t = str(c.key[1])
            if (t in hand_tables and hand) or (t in meld_tables and melds):
                return 0 if not bonus else 1
            return None
        if c.key == ("scoring", "meld_points"):
            return (0 if not bonus else 1) if melds else None
        if c.key == ("scoring", "round"):
            return 0 if bonus and not (hand or melds) else 1 if bonus else 2
        return None

    def round_witness(self, melds: Sequence[tuple[int, ...]], hand: tuple[int, ...], env: dict[str, Any],
                      sa: PlayerScore, sb: PlayerScore) -> Witness:
        p = self.pair
        bits = []
        if env["went_out"]:
            bits.append("going out" + (" all at once" if env["all_at_once"] else "") + " with "
                        + " | ".join(f"{p.text(m)} ({self.meld_kind(m)})" for m in melds))
        else:
            if melds:
                bits.append("on the table " + " | ".join(f"{p.text(m)} ({self.meld_kind(m)})" for m in melds))
            bits.append(f"{p.text(hand)} left in hand")
        if env["stock_out"]:
            bits.append("the stock ran out")
        defaults = self.envs(env["went_out"])[0]
        if env["players"] != defaults["players"]:
            bits.append(f"{env['players']} players")
        if env["round"] != 1:
            bits.append(f"round {env['round']}")
        cards = tuple(p.names[i] for m in melds for i in m) + tuple(p.names[i] for i in hand)
        return Witness("round", (), ", ".join(bits), _score_text(sa, bool(melds), bool(hand)),
                       _score_text(sb, bool(melds), bool(hand)), sa.score, sb.score, cards,
                       tuple(tuple(p.names[i] for i in m) for m in melds), tuple(p.names[i] for i in hand),
                       tuple(sorted(env.items())))

    # ------------------------------------------------------------ openings and contracts
    def lay_downs(self, max_melds: int, search: str) -> Iterator[tuple[tuple[int, ...], ...]]:
        """Lay-downs of legal melds (legal under both), fewest melds and cards first."""
        single = [*self.pool(3, 4, search), *self.pool(4, 2, search)]
        for k in range(1, max_melds + 1):
            # Sorted by size, so built whole: fewer single melds where that is past the budget.
            room = 4 * self.budget.max_examples + 10_000
            usable = len(single)
            while usable > 1 and math.comb(usable + k - 1, k) > room:
                usable -= 1
            if usable < len(single):
                self.stopped.setdefault(search, "lay-downs enumerated")
            combos = sorted(itertools.combinations_with_replacement(range(usable), k),
                            key=lambda c: (sum(len(single[i]) for i in c), c))
            for combo in combos:
                melds = tuple(single[i] for i in combo)
                counts = Counter(i for m in melds for i in m)
                if all(counts[i] <= min(self.pair.limit[0][self.pair.names[i]],
                                        self.pair.limit[1][self.pair.names[i]]) for i in counts):
                    yield melds

    def openings(self, changes: list[Change]) -> None:
        if not changes:
            return
        p = self.pair
        order = 0
        for melds in self.lay_downs(2, "openings"):
            if self.spent("openings") or all(len({f.signature for f in self.found[c.key]}) >= self.budget.per_change
                                   for c in changes):
                return
            order += 1
            self.count("openings")
            verdicts = []
            for s, rs in enumerate((self.a, self.b)):
                if rs.requirements.opening is None:
                    verdicts.append((True, "opens (no minimum)"))
                    continue
                codes = [tuple(p.code[s][p.names[i]] for i in m) for m in melds]
                v = opening(rs, codes)
                verdicts.append((v.ok, ("opens: " if v.ok else "does not open: ") + v.summary))
            if verdicts[0][0] == verdicts[1][0]:
                continue
            example = "first lay-down " + " | ".join(f"{p.text(m)} ({self.meld_kind(m)})" for m in melds)
            w = Witness("opening", (), example, verdicts[0][1], verdicts[1][1], verdicts[0][0], verdicts[1][0],
                        tuple(p.names[i] for m in melds for i in m), tuple(tuple(p.names[i] for i in m) for m in melds))
            n = sum(len(m) for m in melds)
            for c in changes:
                self.keep(c.key, w, 0, (n, order), p.signature([i for m in melds for i in m]))

    def contracts(self, changes: list[Change]) -> None:
        if not changes:
            return
        p = self.pair
        n_rounds = max(len(k.rounds) if (k := rs.requirements.contracts) else 0 for rs in (self.a, self.b))
        for c in changes:
            rounds = [int(c.key[3]) + 1] if len(c.key) > 3 else list(range(1, n_rounds + 1))
            order = 0
            for rnd in rounds:
                for melds in self.lay_downs(4, "contracts"):
                    if self.spent("contracts"):
                        return
                    order += 1
                    self.count("contracts")
                    verdicts = []
                    for s, rs in enumerate((self.a, self.b)):
                        spec = rs.requirements.contracts
                        if spec is None or rnd > len(spec.rounds):
                            verdicts.append((True, "allowed (no contract)"))
                            continue
                        codes = [tuple(p.code[s][p.names[i]] for i in m) for m in melds]
                        v = contract(rs, rnd, codes)
                        verdicts.append((v.ok, str(v.summary)))
                    if verdicts[0][0] != verdicts[1][0]:
                        example = f"round {rnd}, laying down " + " | ".join(
                            f"{p.text(m)} ({self.meld_kind(m)})" for m in melds)
                        w = Witness("contract", (), example, verdicts[0][1], verdicts[1][1], verdicts[0][0],
                                    verdicts[1][0], tuple(p.names[i] for m in melds for i in m),
                                    tuple(tuple(p.names[i] for i in m) for m in melds))
                        self.keep(c.key, w, 0, (rnd, order), (rnd,))
                        break  # the smallest lay-down of this round; then the next round
                if len(self.found[c.key]) >= self.budget.per_change:
                    break

    # ------------------------------------------------------------ match and table
    def match(self, changes: list[Change]) -> None:
        if not changes:
            return

        def state(rs: Ruleset, total: int) -> tuple[str, str]:
            m = rs.match
            status = m.status(total)
            if status is MatchEnd.TARGET:
                return "target", f"reaches the target ({m.target}): the match ends"
            if status is MatchEnd.LAST_STANDING:
                return "eliminated", f"is eliminated (at {m.eliminate_at} or more)"
            return "on", "plays on"

        previous = None
        for total in range(0, 1001):
            self.count("match")
            (ca, sa), (cb, sb) = state(self.a, total), state(self.b, total)
            if (ca, cb) != previous and ca != cb:
                w = Witness("match", (), f"a total of {total}", sa, sb, total, total)
                for c in changes:
                    if c.key[1] in ("end", "eliminate_at", "target"):
                        self.keep(c.key, w, 0, (total,), (total,))
            previous = (ca, cb)

        def reentries(rs: Ruleset) -> int:
            return rs.match.max_reentries

        for k in range(1, 6):
            self.count("match")
            ra, rb = reentries(self.a), reentries(self.b)
            if (k <= ra) != (k <= rb):
                say = {True: "may re-enter", False: "is out for good"}
                w = Witness("match", (), f"a player eliminated for the {_nth(k)} time", say[k <= ra], say[k <= rb],
                            k <= ra, k <= rb)
                for c in changes:
                    if c.key[1] == "reentry":
                        self.keep(c.key, w, 0, (k,), (k,))
                break

    def players(self, changes: list[Change]) -> None:
        if not changes:
            return
        def allowed(rs: Ruleset, n: int) -> bool:
            return rs.players.allows(n)

        for n in range(1, 13):
            self.count("players")
            la, lb = allowed(self.a, n), allowed(self.b, n)
            if la != lb:
                say = {True: "may play", False: "may not play"}
                w = Witness("players", (), f"{n} players", say[la], say[lb], la, lb)
                for c in changes:
                    self.keep(c.key, w, 0, (n,), (n,))


def _nth(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(k, f"{k}th")


def _score_text(s: PlayerScore, melds: bool, hand: bool) -> str:
    parts = []
    if melds and s.meld_points is not None:
        parts.append(f"melds {s.meld_points}")
    if hand and s.hand_value is not None:
        parts.append(f"hand {s.hand_value}")
    if s.bonus:
        parts.append(f"bonus {s.bonus:+d}")
    return f"{s.score}" + (f" ({', '.join(parts)})" if parts and (melds or len(parts) > 1) else "")
