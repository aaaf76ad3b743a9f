"""Random house rulesets, and hands, rounds, matches, games and records under them, through the public API
(``import loba_dsl as loba``) as a user's program calls it (not a test module itself).

Shared by the fast fuzz test (tests/project/test_fuzz_public_api.py: a fixed seed, a bounded time) and the
long run ``make fuzz`` (benchmarks/fuzz.py).  The promise under test (issue 9, "One error family, always"):
whatever a caller passes, only :class:`loba_dsl.LobaError` escapes, and whatever comes back prints (its
text and its JSON encode as UTF-8).

A :class:`Pool` keeps the rulesets compiled so far: the shipped ones, and the random house rulesets that
loaded (each a few settings over a shipped ruleset, drawn from the schema's own choices, with random
shapes, value tables, formulas and wild cards).  The cheap jobs (a meld, a hand, a round, a match, a
move, a record) run under a ruleset of the pool, so most inputs exercise a house ruleset without paying
for its compilation each time.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import fuzz_inputs as F

import loba_dsl as loba
from loba_dsl.rules.documents import shipped_dir

Job = tuple[str, Callable[[], None], Any]
"""(generator's name, the call to make, what to show of the input if it raises)."""

BUDGET = loba.Budget(seconds=1.0)
"""Every search a job asks for is bounded (a search past it is a BudgetExceeded, one of the family)."""
PLAYERS = ("Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gala", "Hugo", "Inés", "Juan")


@functools.cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((shipped_dir() / "schema.json").read_text(encoding="utf-8"))
    return data


def _printable(*texts: str) -> None:
    for text in texts:
        text.encode("utf-8")


def _json(data: Any) -> None:
    json.dumps(data, ensure_ascii=False).encode("utf-8")


# ---------------------------------------------------------------- random house rulesets

WILDS = ["JOKER", "JOKER, 2", "JOKER, K", "K", "2", None, "JOKER, J♠", "hearts", "JOKER, 2, 3", "JOKER, A",
         "JOKER, 10, J", "♠", "JOKER, Q♥, Q♦"]
SET_CLAUSES = ["suits distinct", "no wilds", "wilds <= 1", "wilds <= 2", "naturals >= 1", "naturals >= 2",
               "suits == 3", "suits <= 2", "suits >= 2", "wilds apart"]
RUN_CLAUSES = ["ace low", "ace high", "ace high or low", "ace wrap", "wilds <= 1", "wilds <= 2", "wilds <= 3",
               "no wilds", "wilds apart", "naturals >= 1", "naturals >= 2", "suits == 1"]
TABLE_LINES = ["JOKER -> 25", "JOKER -> 50", "A -> 15", "A -> 1", "J Q K -> 10", "2 -> 20", "wild -> 3",
               "wild and high -> 5", "A and (high or in set) -> 3", "K Q J 10 9 8 -> 2", "♥ -> 1",
               "as K Q -> 4", "in escalera -> 2", "natural -> face"]
CATCH_ALL = ["_ -> face", "_ -> 0", "_ -> 1", "_ -> 10", "_ -> stands_face"]


def shape_text(rnd: random.Random) -> str:
    """A meld shape of the DSL: mostly well formed, sometimes with clauses that contradict each other."""
    if rnd.random() < 0.5:
        lo = rnd.randint(2, 4)
        size = f"{lo}..{lo + rnd.randint(0, 5)}" if rnd.random() < 0.8 else f"{lo}+"
        clauses = rnd.sample(SET_CLAUSES, rnd.randint(0, 3))
        return ", ".join([f"set {size}", *clauses])
    lo = rnd.randint(2, 5)
    size = f"{lo}..{rnd.randint(lo, 14)}" if rnd.random() < 0.8 else f"{lo}+"
    clauses = rnd.sample(RUN_CLAUSES, rnd.randint(0, 3))
    return ", ".join([f"run {size}", *clauses])


def table_text(rnd: random.Random) -> str:
    lines = rnd.sample(TABLE_LINES, rnd.randint(0, 5))
    return "\n".join([*lines, rnd.choice(CATCH_ALL)]) + "\n"


def _schema_value(rnd: random.Random, spec: dict[str, Any]) -> Any:
    """A random value that the schema allows for a scalar setting (its enum, a boolean, an integer in range)."""
    if "enum" in spec:
        return rnd.choice(spec["enum"])
    kinds = spec.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "boolean" in kinds:
        return rnd.random() < 0.5
    if "integer" in kinds:
        lo, hi = spec.get("minimum", 0), min(spec.get("maximum", 200), 200)
        if "null" in kinds and rnd.random() < 0.2:
            return None
        return rnd.choice([lo, hi, rnd.randint(lo, hi), rnd.randint(lo, min(hi, lo + 12))])
    return None


def house_document(rnd: random.Random) -> dict[str, Any]:
    """A house ruleset: a shipped one to extend and a few settings over it."""
    base = rnd.choice(F.SHIPPED)
    parent = F.shipped_document(base)
    doc: dict[str, Any] = {"name": f"house-{rnd.randrange(1000)}", "extends": base}
    props = schema()["properties"]
    for section in rnd.sample(["deal", "turn", "match", "players"], rnd.randint(0, 3)):
        keys = [k for k, v in props[section]["properties"].items() if "enum" in v or v.get("type") in (
            "boolean", "integer", ["integer", "null"])]
        doc[section] = {k: _schema_value(rnd, props[section]["properties"][k])
                        for k in rnd.sample(keys, rnd.randint(1, min(4, len(keys))))}
    if rnd.random() < 0.4:
        doc["deck"] = {k: v for k, v in (("jokers", rnd.choice([0, 1, 2, 4, 8, 16])),
                                         ("copies", rnd.choice([1, 2, 3]))) if rnd.random() < 0.7}
    if rnd.random() < 0.5:
        doc["wilds"] = {"cards": rnd.choice(WILDS), "natural_too": rnd.random() < 0.6}
    kinds = list(parent.get("melds", {}))
    if rnd.random() < 0.6 and kinds:
        doc["melds"] = {k: {"description": "a house meld", "shape": shape_text(rnd)}
                        for k in rnd.sample(kinds, rnd.randint(1, len(kinds)))}
        if rnd.random() < 0.2:
            doc["melds"]["extra"] = {"description": "one more kind", "shape": shape_text(rnd)}
    tables = [t for t, v in parent.get("values", {}).items() if v is not None]
    if rnd.random() < 0.4 and tables:
        doc["values"] = {t: table_text(rnd) for t in rnd.sample(tables, rnd.randint(1, len(tables)))}
    if rnd.random() < 0.3:
        scoring: dict[str, Any] = {}
        if rnd.random() < 0.5:
            scoring["round"] = F.formula_text(rnd, rnd.randrange(1, 4))
        if rnd.random() < 0.5:
            scoring["meld_points"] = rnd.choice([*tables, None])
        if rnd.random() < 0.3:
            scoring["better"] = rnd.choice(["lower", "higher"])
        doc["scoring"] = scoring
    if rnd.random() < 0.25 and tables:
        doc["requirements"] = {"opening": {"minimum": rnd.choice([0, 10, 30, 50, 51, 120]),
                                           "table": rnd.choice(tables), "scope": rnd.choice(["meld", "first_turn"]),
                                           "wild_value": rnd.choice(["own", "represented"])}}
    return doc


def house_text(rnd: random.Random) -> str:
    """A house ruleset as a user writes it (JSON is YAML), now and then with a few random edits."""
    text = json.dumps(house_document(rnd), ensure_ascii=rnd.random() < 0.5)
    return F.mutate_text(rnd, text, rnd.choice([1, 2])) if rnd.random() < 0.1 else text


@dataclass
class Pool:
    """The rulesets compiled so far: every shipped one, and the house rulesets that loaded."""

    rulesets: list[loba.Ruleset] = field(default_factory=list)
    records: list[tuple[loba.Ruleset, str]] = field(default_factory=list)
    """Records of games played by :func:`table_play` (for :func:`record_job` to mutate)."""
    limit: int = 64

    def __post_init__(self) -> None:
        if not self.rulesets:
            self.rulesets = [loba.load(name) for name in F.SHIPPED]

    def add(self, rs: loba.Ruleset, rnd: random.Random) -> None:
        if len(self.rulesets) < self.limit:
            self.rulesets.append(rs)
        else:
            self.rulesets[rnd.randrange(len(F.SHIPPED), self.limit)] = rs

    def add_record(self, rs: loba.Ruleset, text: str, rnd: random.Random) -> None:
        if len(self.records) < self.limit:
            self.records.append((rs, text))
        else:
            self.records[rnd.randrange(self.limit)] = (rs, text)

    def pick(self, rnd: random.Random) -> loba.Ruleset:
        # Half the time a house ruleset where there is one: those are what the shipped tests do not cover.
        shipped = len(F.SHIPPED)
        if len(self.rulesets) > shipped and rnd.random() < 0.5:
            return self.rulesets[rnd.randrange(shipped, len(self.rulesets))]
        return rnd.choice(self.rulesets)


# ---------------------------------------------------------------- hands and melds of a ruleset's deck


def pack(rs: loba.Ruleset) -> list[int]:
    d = rs.deck
    return [c for c in range(d.joker_code) for _ in range(d.copies)] + [d.joker_code] * d.jokers


def hand(rnd: random.Random, rs: loba.Ruleset, lo: int = 1, hi: int = 12) -> list[int]:
    """Cards of the deck (never more copies than it holds), often with a near-meld in them."""
    cards = pack(rs)
    n = min(len(cards), rnd.randint(lo, hi))
    out = rnd.sample(cards, n)
    d = rs.deck
    if rnd.random() < 0.5 and d.n_ranks and d.n_suits:
        r, s = rnd.randrange(d.n_ranks), rnd.randrange(d.n_suits)
        if rnd.random() < 0.5:  # a run of one suit
            near = [d.code((r + i) % d.n_ranks, s) for i in range(rnd.randint(2, 5))]
        else:  # a set of one rank
            near = [d.code(r, (s + i) % d.n_suits) for i in range(rnd.randint(2, 4))]
        out = near + out[: max(0, n - len(near))]
    held: dict[int, int] = {}
    limit = {c: cards.count(c) for c in set(cards)}
    kept = []
    for c in out:
        if held.get(c, 0) < limit.get(c, 0):
            held[c] = held.get(c, 0) + 1
            kept.append(c)
    return kept


def cards_text(rnd: random.Random, rs: loba.Ruleset, cards: list[int]) -> str:
    words = list(rs.deck.names_of(cards))
    if rnd.random() < 0.1 and words:  # now and then a word that is not a card, or a card twice too often
        words[rnd.randrange(len(words))] = rnd.choice(F.CARD_WORDS)
    return rnd.choice([" ", ", ", "-"]).join(words)


# ---------------------------------------------------------------- jobs


def house_load(rnd: random.Random, pool: Pool) -> Job:
    text = house_text(rnd)

    def job() -> None:
        try:
            rs = loba.loads(text, source="<house>", cached=False)
        except loba.LobaError as err:
            _printable(err.render())
            _json(err.to_dict())
            return
        _printable(loba.ruleset_text(rs), *(w.render() for w in rs.warnings))
        _json(rs.document)
        pool.add(rs, rnd)

    return "house ruleset", job, text


def house_check(rnd: random.Random, pool: Pool) -> Job:
    rs = pool.pick(rnd)
    text = cards_text(rnd, rs, hand(rnd, rs, 1, 8))

    def job() -> None:
        try:
            result = loba.check(text, ruleset=rs)
        except loba.LobaError as err:
            _printable(err.render())
            return
        _printable(loba.check_text(result))
        _json(result.to_dict())

    return "house check", job, (rs.name, text)


def house_arrange(rnd: random.Random, pool: Pool) -> Job:
    rs = pool.pick(rnd)
    cards = hand(rnd, rs, 1, rnd.choice([10, 14, 20]))
    opened, discard = rnd.random() < 0.5, rnd.random() < 0.3
    text = cards_text(rnd, rs, cards)

    def job() -> None:
        solver = loba.Solver(rs)
        try:
            found = solver.arrange(cards, budget=BUDGET)
            _printable(loba.arrangement_text(found, rs))
            _json(loba.arrangement_dict(found, rs))
        except loba.LobaError as err:
            _printable(err.render())
        try:
            advice = loba.arrange_hand(solver, text, opened=opened, discard=discard, budget=BUDGET)
            _printable(loba.arrangement_text(advice.arrangement, rs, discard=advice.discard,
                                             can_go_out=advice.can_go_out))
            _json(loba.arrangement_dict(advice.arrangement, rs, discard=advice.discard, can_go_out=advice.can_go_out))
        except loba.LobaError as err:
            _printable(err.render())

    return "house arrange", job, (rs.name, text, opened)


def _melds(rnd: random.Random, rs: loba.Ruleset, n: int) -> list[tuple[int, ...]]:
    return [tuple(hand(rnd, rs, 2, 5)) for _ in range(n)]


def house_score(rnd: random.Random, pool: Pool) -> Job:
    rs = pool.pick(rnd)
    n = rnd.randint(1, 5)
    out = rnd.randrange(n + 1)
    players = [loba.PlayerRound(PLAYERS[i], melds=tuple(_melds(rnd, rs, rnd.randint(0, 3))),
                                hand=() if i == out else tuple(hand(rnd, rs, 0, 9)), went_out=i == out,
                                all_at_once=i == out and rnd.random() < 0.2) for i in range(n)]
    facts = loba.RoundFacts(players=rnd.choice([n, n, n + 1, 0]), round=rnd.choice([1, 2, 3, 7, 0]),
                            stock_out=rnd.random() < 0.1)
    lay_down = " | ".join(cards_text(rnd, rs, list(m)) for m in _melds(rnd, rs, rnd.randint(1, 3)))
    round_number = rnd.choice([1, 2, 5, 9, 0, -1])

    def job() -> None:
        try:
            score = loba.score_round(ruleset=rs, players=players, facts=facts)
            _printable(loba.round_text(score))
            _json(score.to_dict())
        except loba.LobaError as err:
            _printable(err.render())
        try:
            melds = loba.parse_lay_down(rs, lay_down)
        except loba.LobaError as err:
            _printable(err.render())
            return
        for which in ("opening", "contract"):
            try:
                verdict = loba.check_opening(rs, melds) if which == "opening" else \
                    loba.check_contract(rs, round_number, melds)
                _printable(loba.verdict_text(verdict, rs))
            except loba.LobaError as err:
                _printable(err.render())

    return "house score", job, (rs.name, players, facts, lay_down, round_number)


def house_match(rnd: random.Random, pool: Pool) -> Job:
    rs = pool.pick(rnd)
    names = list(PLAYERS[: rnd.randint(2, 5)])
    events: list[Any] = []
    for _ in range(rnd.randint(1, 12)):
        if rnd.random() < 0.1:
            events.append(loba.Reentry(rnd.choice(names)))
            continue
        points = [loba.PlayerPoints(p, rnd.choice([0, 5, 25, 60, 101, -10, 150, 10**6])) if rnd.random() < 0.95
                  else loba.PlayerPoints(p, rnd.choice([0, 1]), went_out=True) for p in names]
        events.append(loba.MatchRound(tuple(points), stock_out=rnd.random() < 0.05))
    target = rnd.choice([None, None, 50, 150, 1])

    def job() -> None:
        try:
            result = loba.play_match(ruleset=rs, rounds=events, players=names, target=target)
        except loba.LobaError as err:
            _printable(err.render())
            return
        _printable(loba.match_text(result))
        _json(result.to_dict())

    return "house match", job, (rs.name, events, target)


def _bogus_move(rnd: random.Random, rs: loba.Ruleset, table: loba.Table) -> Any:
    """A move a client might send: of a player at the table or not, with cards held or not, or none at all."""
    from loba_dsl.game import Discard, Draw, LayOff, Meld, MoveWild, ReplaceJoker

    player = rnd.choice([*table.players, "Zoë", ""]) if rnd.random() < 0.3 else (table.to_move or "Ana")
    deck = rs.deck
    card: Any = rnd.choice([rnd.randrange(deck.n_codes), rnd.choice(["K♦", "JOKER", "zz", ""]), -1, 10**6])
    cards = tuple(rnd.randrange(deck.n_codes) for _ in range(rnd.randint(0, 5)))
    meld = rnd.choice([0, 1, 2, -1, 99])
    source: Any = rnd.choice(["stock", "pile", "discard", "x"])
    end: Any = rnd.choice(["low", "high", "middle"])
    kind = rnd.randrange(6)
    if kind == 0:
        return Draw(player, source)
    if kind == 1:
        return Discard(player, card)
    if kind == 2:
        return Meld(player, cards, None if rnd.random() < 0.7 else cards[::-1])
    if kind == 3:
        return LayOff(player, meld, cards)
    if kind == 4:
        return ReplaceJoker(player, meld, card)
    return MoveWild(player, meld, end)


def table_play(rnd: random.Random, pool: Pool) -> Job:
    rs = pool.pick(rnd)
    n = rnd.randint(rs.players.min, rs.players.max)
    names = list(PLAYERS[:n])
    seed = rnd.randrange(10**6)
    plies = rnd.choice([10, 40, 40, 120, 400])
    script = random.Random(rnd.randrange(10**9))

    def job() -> None:
        try:
            table = loba.Table.deal(rs, players=names, dealer=names[-1], seed=seed)
        except loba.LobaError as err:
            _printable(err.render())
            return
        for _ in range(plies):
            if table.to_move is None:
                if script.random() < 0.5:
                    break
                try:
                    table.deal_next(script.randrange(10**6))
                except loba.LobaError as err:
                    _printable(err.render())
                    break
                continue
            if script.random() < 0.15:
                move = _bogus_move(script, rs, table)
                try:
                    table.check(move)
                    table.play(move)
                except loba.LobaError as err:
                    _printable(err.render())
                continue
            try:
                moves = list(itertools.islice(table.legal(budget=BUDGET, limit=300), 300))
            except loba.LobaError as err:
                _printable(err.render())
                break
            if not moves:
                break
            move = script.choice(moves)
            line = loba.format_move(move, rs)
            _printable(line)
            try:
                again = loba.parse_move(line, rs, players=names)
                table.play(again if script.random() < 0.5 else move)
            except loba.LobaError as err:
                _printable(err.render())
            if script.random() < 0.05:
                try:
                    table.undo()
                except loba.LobaError as err:
                    _printable(err.render())
        for who in (*names, None):
            _json(table.view(who).to_dict())
        text = loba.dump_record(table.record())
        pool.add_record(rs, text, rnd)
        _replay(text, rs)

    return "table moves", job, (rs.name, names, seed, plies)


def _replay(text: str, rs: loba.Ruleset) -> None:
    try:
        rec = loba.load_record(text, ruleset=rs)
        done = loba.replay(rec)
    except loba.LobaError as err:
        _printable(err.render())
        return
    _json(done.to_dict())
    _printable(loba.replay_text(done))


def _mutate_json(rnd: random.Random, data: Any, rs: loba.Ruleset) -> Any:
    """``data`` with one leaf replaced, an item dropped or doubled."""
    node, path = data, []
    while isinstance(node, (dict, list)) and node and rnd.random() < 0.85:
        key = rnd.choice(list(node)) if isinstance(node, dict) else rnd.randrange(len(node))
        path.append((node, key))
        node = node[key]
    if not path:
        return data
    parent, key = path[-1]
    op = rnd.randrange(4)
    if op == 0 and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif op == 1:
        del parent[key]
    else:
        parent[key] = rnd.choice([None, 0, -1, 1, 2, 10**9, "", "??", "JOKER", "K♦", "Ana", "Zoë", "stock",
                                  "pile", "meld", "discard", [], {}, [rs.deck.name(0)] * 3, "\ud800", 1.5, True])
    return data


def record_job(rnd: random.Random, pool: Pool) -> Job:
    if not pool.records:
        return table_play(rnd, pool)
    rs, text = rnd.choice(pool.records)
    if rnd.random() < 0.5:
        changed = F.mutate_text(rnd, text, rnd.choice([1, 2, 4]))
    else:
        data = json.loads(text)
        for _ in range(rnd.choice([1, 1, 2, 3])):
            data = _mutate_json(rnd, data, rs)
        changed = json.dumps(data, ensure_ascii=False)
    return "record", lambda: _replay(changed, rs), changed


def move_text(rnd: random.Random, pool: Pool) -> Job:
    rs = pool.pick(rnd)
    player = rnd.choice(PLAYERS)
    words = rnd.choice(["draws from the stock", "draws from the pile", "discards", "melds", "lays off",
                        "replaces the Joker of", "moves the wild of", "takes the pile", "x"])
    tail = cards_text(rnd, rs, hand(rnd, rs, 0, 4)) + rnd.choice(["", " on 1", " on 0", " on 99", " as 3♣", " to low"])
    line = F.mutate_text(rnd, f"{player} {words} {tail}", rnd.choice([0, 0, 1, 2]))

    def job() -> None:
        try:
            move = loba.parse_move(line, rs, players=list(PLAYERS))
        except loba.LobaError as err:
            _printable(err.render())
            return
        _printable(loba.format_move(move, rs))

    return "move text", job, (rs.name, line)


MAKERS: list[tuple[int, Callable[[random.Random, Pool], Job]]] = [
    (20, house_load), (400, house_check), (120, house_arrange), (250, house_score), (150, house_match),
    (25, table_play), (120, record_job), (300, move_text),
]
"""The public-API jobs and their shares (per ten thousand inputs of the long run; the fast test draws
from them alone)."""
