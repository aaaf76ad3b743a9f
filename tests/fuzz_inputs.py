"""Generated and mutated inputs for the fuzzers, and what runs each one (not a test module itself).

Shared by the Hypothesis fuzz tests (tests/test_fuzz_*.py, which drive these generators with
``st.randoms()`` and add their own strategies) and the long run ``make fuzz`` (benchmarks/fuzz.py).
Every generator takes a :class:`random.Random` and returns one input; every ``run_*`` function feeds
one input to the library the way the CLI does, down to the text and JSON it prints. The promise under
test (issue 9, "One error family, always"): only :class:`~loba_dsl.errors.LobaError` escapes the
library (the DSL parser's own :class:`~loba_dsl.dsl.parser.DSLProblem` too, at the DSL layer).
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable
from typing import Any

from loba_dsl.compare import Budget, diff
from loba_dsl.dsl.parser import DSLProblem, parse_cards, parse_contract, parse_formula, parse_shape, parse_table
from loba_dsl.errors import LobaError
from loba_dsl.melds.check import check
from loba_dsl.render import check_text, diff_text, match_text, round_text, ruleset_text
from loba_dsl.rules.documents import shipped_dir
from loba_dsl.rules.loading import load, loads
from loba_dsl.rules.model import Ruleset
from loba_dsl.scoring.score_sheets import play_match_sheet, read_match, read_round, score_round_sheet

SHIPPED = sorted(p.stem for p in shipped_dir().glob("*.yaml"))
"""The shipped rulesets' names."""

# ---------------------------------------------------------------- pieces

CARD_WORDS = ["A♠", "10♥", "T♦", "JOKER", "JK", "🃏", "Joker", "7♠", "K♣", "Q♦", "2♣", "as", "Comodín",
              "♥️", "1o", "Rb", "sota", "B♠", "JOKR", "10", "♠", "-", ",", " ", "  ", "\n", "A♥", "3♥",
              "4♥", "5♥", "6♥", "9♠", "J♣", "AS", "kh", "10h", "0♠", "11♠", "A♠♠", "\t", "é", "\x00",
              "\u2028", "\ufe0f", "\ud800", "\x1b[2J", "×16", "x3"]
CARD_CHARS = "A23456789TJQK10♠♥♦♣♤♡♢♧shdcSHDC,-– \n\t\ufe0f\ufe0e\ufeffJOKERjoker🃏BDVHxÍ\u0301é\x00\u2028"
NUMBERS = ["0", "1", "-1", "3", "13", "25", "101", "999999", "1000000", "1000001", "99999999999999999999",
           "9" * 50, "-" + "9" * 30, "1e9", "0x10", "1_000", "007", "+5", "١٢"]

DSL_TOKENS = [
    "set", "run", "3..4", "3", "13", "3+", "..", ",", "wilds", "naturals", "suits", "size", "distinct",
    "ace", "low", "high", "either", "wrap", "or", "and", "not", "no", "apart", "<=", ">=", "==", "!=", "<",
    ">", "?", ":", "(", ")", "->", "_", "JOKER", "A", "K", "10", "2", "face", "stands_face", "wild",
    "natural", "as", "in", "went_out", "penalty", "hand", "melds", "count", "where", "max", "min", "abs",
    "+", "-", "*", "true", "false", "pierna", "escalera", "#", "\n", ";", " ", "players", "round",
    "all_at_once", "stock_out", "card", "99999999", "1000000", "é", "'", "♠", "♥",
]
FORMULA_ATOMS = ["1", "0", "3", "25", "went_out", "all_at_once", "stock_out", "players", "round",
                 "count(hand)", "count(melds)", "penalty(hand)", "count(melds where pierna)",
                 "count(melds where size > 3)", "count(melds where wilds >= 1)", "max(1, players)",
                 "abs(round - 3)", "min(count(hand), 5)"]

SHAPES = ["set 3..4, suits distinct, no wilds", "run 3..13, ace low, wilds <= 1", "run 3+", "set 3",
          "run 3..13, ace high or low, wilds apart", "set 3..6, wilds <= 2, naturals >= 2", "run 4..20",
          "set 3..99999999", "run 3..2", "set 0", "run 3..13, wilds == 0, suits == 1"]
TABLES = ["JOKER -> 25\nA -> 15\nJ Q K -> 10\n_ -> face", "_ -> face", "_ -> 0", "A -> 1\n_ -> 2",
          "JOKER -> -25\n_ -> -face", "_ -> 1000000", "_ -> 1000001", "♠ -> 1\n_ -> face", "wild -> 3\n_ -> face"]

YAML_TOKENS = [
    "name", "description", "extends", "deck", "suits", "ranks", "key", "face", "copies", "jokers", "ace",
    "wilds", "cards", "melds", "pierna", "shape", "values", "penalty", "scoring", "round", "meld_points",
    "match", "turn", "deal", "players", "min", "max", ":", ": ", " ", "  ", "\n", "\n  ", "\n    ", "- ",
    "{", "}", "[", "]", ",", "|", ">", "&a ", "*a", "!!str ", "!!python/object ", "'", '"', "#", "---",
    "...", "extends: menos", "null", "~", "true", "yes", "\t", "? ", "<<: ", "\x00", "\ufeff", "é", "\r",
    "\u2028", '"\\ud800"', '"\\U0010FFFF"', '"\\x1b"',
]

# ---------------------------------------------------------------- generators


def card_text(rnd: random.Random) -> str:
    """A line of cards: words of card notation, characters of it, or anything."""
    kind = rnd.randrange(5)
    if kind == 0:
        return " ".join(rnd.choice(CARD_WORDS) for _ in range(rnd.randrange(12)))
    if kind == 1:
        return "".join(rnd.choice(CARD_WORDS) for _ in range(rnd.randrange(8)))
    if kind == 2:
        return "".join(rnd.choice(CARD_CHARS) for _ in range(rnd.randrange(30)))
    if kind == 3:
        return "".join(chr(rnd.randrange(0x20, 0x3000)) for _ in range(rnd.randrange(20)))
    return rnd.choice(CARD_WORDS) * rnd.choice([1, 2, 50, 400])


def formula_text(rnd: random.Random, depth: int = 3) -> str:
    """A formula over the vocabulary, mostly well formed, sometimes not."""
    if depth == 0 or rnd.random() < 0.3:
        return rnd.choice(FORMULA_ATOMS + NUMBERS[:8])
    a, b = formula_text(rnd, depth - 1), formula_text(rnd, depth - 1)
    form = rnd.randrange(9)
    if form == 0:
        return f"{a} {rnd.choice('+-*')} {b}"
    if form == 1:
        return f"({a} {rnd.choice(['>', '<', '>=', '<=', '==', '!='])} {b} ? {a} : {b})"
    if form == 2:
        return f"-{a}"
    if form == 3:
        return f"{rnd.choice(['max', 'min'])}({a}, {b})"
    if form == 4:
        return " + ".join(f"({formula_text(rnd, 0)} > {i} ? 1 : 0)" for i in range(rnd.randrange(1, 12)))
    if form == 5:
        return " * ".join(f"({formula_text(rnd, 0)} + {i})" for i in range(rnd.randrange(1, 8)))
    if form == 6:
        return f"{a} and {b}" if rnd.random() < 0.5 else f"not ({a} or {b})"
    if form == 7:
        return "(" * rnd.randrange(40) + a
    return f"went_out ? 0 : {a}"


def dsl_text(rnd: random.Random) -> tuple[str, str]:
    """``(start symbol, text)`` for the DSL parser."""
    start = rnd.choice(["formula", "shape", "table", "cards", "contract"])
    kind = rnd.randrange(4)
    if kind == 0:
        text = " ".join(rnd.choice(DSL_TOKENS) for _ in range(rnd.randrange(20)))
    elif kind == 1 and start == "formula":
        text = formula_text(rnd)
    elif kind == 1 and start == "shape":
        text = rnd.choice(SHAPES)
    elif kind == 1 and start == "table":
        text = rnd.choice(TABLES)
    else:
        text = mutate_text(rnd, rnd.choice([formula_text(rnd), rnd.choice(SHAPES), rnd.choice(TABLES)]), 3)
    return start, text


@functools.cache
def shipped_text(name: str) -> str:
    return (shipped_dir() / f"{name}.yaml").read_text(encoding="utf-8")


@functools.cache
def shipped_document(name: str) -> dict[str, Any]:
    """The resolved document of a shipped ruleset, as plain JSON data."""
    data: dict[str, Any] = json.loads(json.dumps(load(name).document))
    return data


def mutate_text(rnd: random.Random, text: str, n: int) -> str:
    """``text`` with ``n`` random edits: characters and tokens inserted, deleted, swapped, lines doubled."""
    for _ in range(n):
        if not text:
            text = rnd.choice(YAML_TOKENS)
            continue
        i = rnd.randrange(len(text) + 1)
        op = rnd.randrange(8)
        if op == 0:
            text = text[:i] + text[i + rnd.randrange(1, 8):]
        elif op == 1:
            text = text[:i] + rnd.choice(YAML_TOKENS + DSL_TOKENS + NUMBERS) + text[i:]
        elif op == 2:
            text = text[:i] + chr(rnd.randrange(0, 0x250)) + text[i:]
        elif op == 3:
            lines = text.split("\n")
            j = rnd.randrange(len(lines))
            lines.insert(j, lines[rnd.randrange(len(lines))])
            text = "\n".join(lines)
        elif op == 4:
            lines = text.split("\n")
            del lines[rnd.randrange(len(lines))]
            text = "\n".join(lines)
        elif op == 5:  # a number somewhere becomes another
            digits = [k for k, ch in enumerate(text) if ch.isdigit()]
            if digits:
                k = rnd.choice(digits)
                text = text[:k] + rnd.choice(NUMBERS) + text[k + 1:]
        elif op == 6:
            j = rnd.randrange(len(text) + 1)
            a, b = sorted((i, j))
            text = text[:a] + text[b:a + 2 * (b - a)] + text[a:]
        else:
            text = text[:i] + rnd.choice([" ", "  ", "\n", "\t", ":", "- "]) + text[i:]
    return text


def yaml_mutation(rnd: random.Random) -> str:
    """A shipped ruleset's file with a few random edits (or, sometimes, YAML-ish text from nothing)."""
    if rnd.random() < 0.1:
        return "".join(rnd.choice(YAML_TOKENS) for _ in range(rnd.randrange(40)))
    text = shipped_text(rnd.choice(SHIPPED))
    return mutate_text(rnd, text, rnd.choice([1, 1, 2, 3, 5, 10]))


def _random_value(rnd: random.Random, like: Any) -> Any:
    choices: list[Any] = [None, True, 0, -1, 1, 2, 13, 10**6, 10**6 + 1, 10**30, -(10**30), 1.5, float("inf"),
                          "", "x", "JOKER", "A", "menos", "\ud800", "\x1b[2J", "é" * 40, [], {}, [1, 2],
                          {"a": 1}, formula_text(rnd), rnd.choice(SHAPES), rnd.choice(TABLES)]
    if isinstance(like, int) and not isinstance(like, bool):
        choices += [like + 1, like - 1, like * 1000, -like]
    if isinstance(like, str):
        choices += [mutate_text(rnd, like, 2), like * 100, like.upper()]
    if isinstance(like, list) and like:
        choices += [like * 20, like[:1], like[::-1]]
    return rnd.choice(choices)


def structural_mutation(rnd: random.Random) -> str:
    """A shipped ruleset's resolved document with a few leaves replaced, keys dropped or added, as
    JSON (which is YAML): no ``extends``, so every setting is the mutated one."""
    doc = copy.deepcopy(shipped_document(rnd.choice(SHIPPED)))
    doc.pop("extends", None)
    for _ in range(rnd.choice([1, 1, 2, 3, 6])):
        node: Any = doc
        path: list[Any] = []
        while isinstance(node, (dict, list)) and node and rnd.random() < 0.8:
            key = rnd.choice(list(node)) if isinstance(node, dict) else rnd.randrange(len(node))
            path.append((node, key))
            node = node[key]
        if not path:
            continue
        parent, key = path[-1]
        op = rnd.randrange(6)
        if op == 0 and isinstance(parent, dict):
            del parent[key]
        elif op == 1 and isinstance(parent, dict):
            parent[rnd.choice(["extra", "ranks", "jokers", "foo", str(key) + "_"])] = _random_value(rnd, node)
        elif op == 2 and isinstance(parent, list):
            parent.append(copy.deepcopy(node))
        else:
            parent[key] = _random_value(rnd, node)
    return json.dumps(doc, ensure_ascii=rnd.random() < 0.5)


ROUND_LINES = ["players: {n}", "stock ran out", "player {p}: went out", "player {p}: went out all at once",
               "player {p}", "  table: {c} | {c}", "  table: {c}", "  hand: {c}", "  hand:", "round {n}",
               "  {p}: {n}", "  {p}: out", "  {p}: out {n}", "reenter {p}", "target: {n}",
               "players: {p}, {p}", "players: Ana, Beto, Carla", "# a comment", ""]
NAMES = ["Ana", "Beto", "Carla", "Dani", "ana", "Ana-2", "Zoë", "x" * 40, "1a", "player", "out"]
MELDS = ["A♠ 2♠ 3♠", "7♠ 7♥ 7♦", "Q♥ K♥ A♥", "4♣ 5♣ 6♣", "JOKER 2♠ 3♠", "7♠ 7♠ 7♠", "10♥ J♥ Q♥ K♥",
         "5♥", "K♦ 7♣ JOKER A♠", "A♠ A♠ A♠ A♠ A♠"]


def sheet_text(rnd: random.Random, match: bool) -> str:
    """A round file (``match`` false) or a match file, mostly well formed, with random edits."""
    lines = []
    for _ in range(rnd.randrange(1, 14)):
        line = rnd.choice(ROUND_LINES)
        for _ in range(4):  # each template has at most two of a placeholder (a card text may hold a "{")
            line = (line.replace("{n}", rnd.choice(NUMBERS), 1).replace("{p}", rnd.choice(NAMES), 1)
                    .replace("{c}", rnd.choice(MELDS) if rnd.random() < 0.8 else card_text(rnd), 1))
        lines.append(line)
    text = "\n".join(lines)
    if not match and rnd.random() < 0.2:
        return card_text(rnd)  # a bare hand
    return mutate_text(rnd, text, rnd.choice([0, 0, 1, 3]))


# ---------------------------------------------------------------- runners


def _printable(text: str) -> None:
    """What the CLI prints must encode as UTF-8 (a lone surrogate would not)."""
    text.encode("utf-8")


def run_cards(text: str, ruleset: Ruleset | None = None) -> None:
    rs = ruleset or load("menos")
    try:
        result = check(text, rs)
    except LobaError as err:
        _printable(err.render())
        return
    _printable(check_text(result))
    _printable(json.dumps(result.to_dict(), ensure_ascii=False))


PARSERS: dict[str, Callable[[str], object]] = {"formula": parse_formula, "shape": parse_shape, "table": parse_table,
                                              "cards": parse_cards, "contract": parse_contract}


def run_dsl(start: str, text: str) -> None:
    try:
        PARSERS[start](text)
    except DSLProblem as problem:
        assert problem.message


FUZZ_BUDGET = Budget(per_change=1, max_meld_cards=4, max_examples=300, max_seconds=2.0)


def run_ruleset(text: str, *, deep: bool = True) -> None:
    """Load a ruleset text; if it loads, print it, check and score with it, and diff it against Menos."""
    try:
        rs = loads(text, source="<fuzz>", cached=False)
    except LobaError as err:
        _printable(err.render())
        json.dumps(err.to_dict())
        return
    _printable(ruleset_text(rs))
    _printable(json.dumps(rs.document, ensure_ascii=False))
    if not deep:
        return
    for cards in ("A♠ 2♠ 3♠", "7♠ 7♥ 7♦", "JOKER 5♥ 6♥", "2♣ 2♦ 2♥"):
        run_cards(cards, rs)
    run_sheet("player Ana: went out\n  table: A♠ 2♠ 3♠\nplayer Beto\n  hand: K♦ 7♣\n", False, rs)
    run_sheet("round 1\n  Ana: out\n  Beto: 34\nround 2\n  Ana: 120\n  Beto: out\n", True, rs)
    try:
        report = diff(load("menos"), rs, budget=FUZZ_BUDGET)
    except LobaError as err:
        _printable(err.render())
        return
    _printable(diff_text(report))
    _printable(json.dumps(report.to_dict(), ensure_ascii=False))


def run_sheet(text: str, match: bool, ruleset: Ruleset | None = None) -> None:
    rs = ruleset or load("menos")
    try:
        if match:
            _printable(match_text(play_match_sheet(read_match(text, rs), rs)))
        else:
            _printable(round_text(score_round_sheet(read_round(text, rs), rs)))
    except LobaError as err:
        _printable(err.render())
