"""A compiled ruleset, and the one function that loads one: :func:`load_ruleset`.

Compiling checks the meaning of every DSL text (unknown names, a wild card the
deck cannot produce, a value table that leaves a card without a value) and
reports all mistakes at once, each at its ``file:line:col``.  The result is
pure data (frozen dataclasses and tuples), cached in the process and, keyed by
the content of every file read, on disk, so that a command-line call does not
pay for YAML, JSON Schema and Lark again.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any

from loba_dsl.deck import Card, Deck, Rank, Suit
from loba_dsl.dsl import ast as A
from loba_dsl.errors import DSLError, LobaError, Location, RulesetError, raise_all
from loba_dsl.settings import CACHE_VERSION

if TYPE_CHECKING:
    from loba_dsl.loader import Resolved
    from loba_dsl.notation import Notation
    from loba_dsl.yamlsafe import Path

ValueKey = tuple[int, Card, bool, int, bool]
"""(meld kind index, card, is wild, rank index it stands for, played high)."""


@dataclass(frozen=True)
class MeldKind:
    """One meld kind of a ruleset (``pierna``), with its compiled shape."""

    name: str
    description: str
    text: str
    shape: A.Shape
    where: str
    """``file:line`` of the shape."""
    clause_where: tuple[str, ...]
    """``file:line`` of each clause, in order."""
    clause_text: tuple[str, ...]
    """Source text of each clause, in order."""
    head_text: str

    @property
    def is_run(self) -> bool:
        return self.shape.kind == "run"


@dataclass(frozen=True)
class Opening:
    minimum: int
    scope: str
    table: str
    wild_value: str


@dataclass(frozen=True)
class Contracts:
    rounds: tuple[A.Contract, ...]
    texts: tuple[str, ...]
    at_once: bool
    before_other_melds: bool
    source: str


@dataclass
class Ruleset:
    """Everything the engine needs to know about one variant."""

    name: str
    description: str
    source: str
    deck: Deck
    wild_cards: frozenset[Card]
    natural_too: bool
    kinds: tuple[MeldKind, ...]
    tables: Mapping[str, Any]
    meld_points: str | None
    better: str
    round_formula: A.Expr
    opening: Opening | None
    contracts: Contracts | None
    instant_win: A.Expr | None
    settings: dict[str, Any]
    """The resolved document (after ``extends`` and defaults)."""
    origins: dict[tuple[str | int, ...], str]
    """``file:line`` of every value that a file set."""
    files: tuple[str, ...]
    hand_values: Mapping[str, tuple[int, ...]]
    """Per value table, the value of each card code in hand."""
    meld_values: Mapping[str, Mapping[ValueKey, int]] = field(default_factory=dict)
    """Per value table used on melds, the value of a card in each role."""

    @property
    def gives_meld_points(self) -> bool:
        return self.meld_points is not None

    def kind(self, name: str) -> MeldKind:
        for k in self.kinds:
            if k.name == name:
                return k
        raise KeyError(name)

    def notation(self, lang: str | None = None) -> Notation:
        """The card notation of this ruleset's deck (cached per language)."""
        return self._notations(lang)

    @cached_property
    def _notation_cache(self) -> dict[str | None, Notation]:
        return {}

    def _notations(self, lang: str | None) -> Notation:
        cache = self._notation_cache
        if lang not in cache:
            from loba_dsl.notation import Notation

            cache[lang] = Notation(self.deck, lang)
        return cache[lang]

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_notation_cache", None)
        return state

    def where(self, *path: str | int) -> str:
        return self.origins.get(tuple(path), "(default)")


# ---------------------------------------------------------------- loading with caches


def load_ruleset(spec: str) -> Ruleset:
    """Load a ruleset by shipped name or file path; compiled once, then cached.

    >>> load_ruleset("menos").kind("pierna").shape.max_size
    4
    """
    from loba_dsl.loader import locate

    path, _ = locate(spec)
    try:
        stat = path.stat()
    except OSError as e:
        raise RulesetError(f"cannot read ruleset file '{spec}': {e.strerror}", code="unreadable") from None
    return _load_cached(spec, str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=64)
def _load_cached(spec: str, _path: str, _mtime: int, _size: int) -> Ruleset:
    cached = _disk_get(spec)
    if cached is not None:
        return cached
    ruleset = compile_ruleset(spec)
    _disk_put(spec, ruleset)
    return ruleset


def _cache_dir() -> FilePath | None:
    if os.environ.get("LOBA_NO_CACHE"):
        return None
    base = os.environ.get("LOBA_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    root = FilePath(base) if base else FilePath.home() / ".cache"
    return root / "loba-dsl" if not os.environ.get("LOBA_CACHE_DIR") else root


def _fingerprint(files: tuple[str, ...]) -> str | None:
    digest = hashlib.sha256(CACHE_VERSION.encode())
    for name in files:
        try:
            digest.update(FilePath(name).read_bytes())
        except OSError:
            return None
    return digest.hexdigest()


def _cache_key(spec: str) -> str:
    from loba_dsl.loader import locate

    path, _ = locate(spec)
    return hashlib.sha256(f"{CACHE_VERSION}\0{path.resolve()}".encode()).hexdigest()[:32]


def _disk_get(spec: str) -> Ruleset | None:
    folder = _cache_dir()
    if folder is None:
        return None
    entry = folder / f"{_cache_key(spec)}.pickle"
    try:
        with entry.open("rb") as f:
            files, fingerprint, ruleset = pickle.load(f)
    except Exception:  # a missing, stale or unreadable cache entry is only a miss
        return None
    if not isinstance(ruleset, Ruleset) or _fingerprint(files) != fingerprint:
        return None
    return ruleset


def _disk_put(spec: str, ruleset: Ruleset) -> None:
    folder = _cache_dir()
    if folder is None:
        return
    fingerprint = _fingerprint(ruleset.files)
    if fingerprint is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        entry = folder / f"{_cache_key(spec)}.pickle"
        tmp = entry.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as f:
            pickle.dump((ruleset.files, fingerprint, ruleset), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, entry)
    except OSError:
        pass  # a read-only home only costs speed


# ---------------------------------------------------------------- compiling


def compile_ruleset(spec: str) -> Ruleset:
    """Read, validate, merge and compile a ruleset (no caches)."""
    from loba_dsl.loader import fill_defaults, read

    resolved = read(spec)
    fill_defaults(resolved)
    return _Compiler(resolved).run()


class _Compiler:
    def __init__(self, resolved: Resolved) -> None:
        self.r = resolved
        self.data = resolved.data
        self.errors: list[LobaError] = []

    # -- error placement
    def at(self, path: Path, pos: A.Pos | None = None, line_offset: int = 0, col_offset: int = 0) -> Location | None:
        doc = self.r.origin(path)
        if doc is None:
            return None
        if not doc.has(path):
            return doc.location(())
        if pos is None:
            return doc.location(path)
        return doc.text_location(path, pos.line + line_offset, pos.column + col_offset, pos.length)

    def problem(self, path: Path, message: str, pos: A.Pos | None = None, hint: str | None = None,
                line_offset: int = 0, col_offset: int = 0) -> None:
        self.errors.append(DSLError(message, location=self.at(path, pos, line_offset, col_offset), hint=hint))

    def guard(self, path: Path, fn: Callable[[], Any], line_offset: int = 0, col_offset: int = 0) -> Any:
        from loba_dsl.dsl.parser import DSLProblem

        try:
            return fn()
        except DSLProblem as e:
            self.problem(path, e.message, e.pos, e.hint, line_offset, col_offset)
            return None

    # -- the pieces
    def run(self) -> Ruleset:
        from loba_dsl.dsl import semantics as S
        from loba_dsl.dsl.parser import parse_contract, parse_formula

        deck = self.deck()
        raise_all(self.errors)
        kinds = self.kinds()
        names = S.Names(deck, [k.name for k in kinds], self.data.get("values", {}).keys())
        wild_cards, natural_too = self.wilds(names, deck)
        tables = self.tables(names)
        scoring = self.data.get("scoring", {})
        meld_points = scoring.get("meld_points")
        if meld_points is not None and meld_points not in tables:
            self.problem(("scoring", "meld_points"), f"unknown value table '{meld_points}'",
                         hint=_suggest(meld_points, tables))
        scope = S.Scope(S.ROUND_VARIABLES, tuple(tables), tuple(k.name for k in kinds))
        round_formula = self.guard(("scoring", "round"), lambda: parse_formula(scoring["round"]))
        if round_formula is not None:
            self.guard(("scoring", "round"), lambda: S.check_expr(round_formula, scope, "int"))
        opening = self.opening(tables)
        contracts = self.contracts(parse_contract, kinds)
        instant = self.data.get("match", {}).get("instant_win")
        instant_win = None
        if instant is not None:
            instant_win = self.guard(("match", "instant_win"), lambda: parse_formula(instant))
            if instant_win is not None:
                self.guard(("match", "instant_win"), lambda: S.check_expr(instant_win, scope, "bool"))
        raise_all(self.errors)
        on_melds = {t for t in (meld_points, opening.table if opening else None) if t}
        if round_formula is not None:
            on_melds |= _tables_on_melds(round_formula, set(tables))
        hand_values = {name: self.hand_table(name, t, deck) for name, t in tables.items()}
        meld_values = {name: self.meld_table(name, tables[name], deck, kinds, wild_cards, natural_too)
                       for name in sorted(on_melds) if name in tables}
        raise_all(self.errors)
        return Ruleset(
            name=str(self.data.get("name")),
            description=str(self.data.get("description", "")),
            source=self.r.chain[0].source,
            deck=deck,
            wild_cards=wild_cards,
            natural_too=natural_too,
            kinds=kinds,
            tables=tables,
            meld_points=meld_points,
            better=str(scoring.get("better", "lower")),
            round_formula=round_formula,
            opening=opening,
            contracts=contracts,
            instant_win=instant_win,
            settings=self.data,
            origins={p: self.r.where(p) for p in self.r.origins},
            files=self.r.files,
            hand_values=hand_values,
            meld_values=meld_values,
        )

    def deck(self) -> Deck:
        d = self.data["deck"]
        suits = tuple(Suit(k, v["symbol"], tuple(v.get("aliases", ()))) for k, v in d["suits"].items())
        ranks = tuple(
            Rank(r["key"], int(r["face"]), tuple(r.get("aliases", ())),
                 {lang: tuple(letters) for lang, letters in r.get("lang", {}).items()})
            for r in d["ranks"]
        )
        seen: dict[str, int] = {}
        for i, r in enumerate(ranks):
            if r.key in seen:
                self.problem(("deck", "ranks", i, "key"), f"rank '{r.key}' is listed twice")
            seen[r.key] = i
        ace = d.get("ace")
        if ace is not None and ace not in seen:
            self.problem(("deck", "ace"), f"'ace' names '{ace}', which is not a rank of the deck",
                         hint=_suggest(ace, seen))
        joker = d.get("joker", {})
        deck = Deck(
            suits=suits,
            ranks=ranks,
            copies=int(d.get("copies", 1)),
            jokers=int(d.get("jokers", 0)),
            ace=seen.get(ace) if ace is not None else None,
            joker_symbol=str(joker.get("symbol", "JOKER")),
            joker_aliases=tuple(joker.get("aliases", ())),
            languages=tuple(d.get("languages", ("en",))),
        )
        try:
            from loba_dsl.notation import Notation

            for lang in (None, *deck.languages):
                Notation(deck, None if lang == "en" else lang)
        except (ValueError, LobaError) as e:
            self.problem(("deck",), f"the deck's card spellings are ambiguous: {e}")
        return deck

    def kinds(self) -> tuple[MeldKind, ...]:
        from loba_dsl.dsl.parser import parse_shape

        out = []
        for name, spec in self.data.get("melds", {}).items():
            if spec is None:
                continue
            path = ("melds", name, "shape")
            text = str(spec.get("shape", ""))
            shape = self.guard(path, lambda t=text: parse_shape(t))  # type: ignore[misc]
            if shape is None:
                continue
            self.check_shape(path, shape)
            loc = self.at(path)
            where = loc.short if loc else "(default)"
            clause_where = []
            clause_text = []
            for c in shape.clauses:
                cloc = self.at(path, c.pos)
                clause_where.append(cloc.short if cloc else where)
                clause_text.append(text[c.pos.column - 1 : c.pos.column - 1 + c.pos.length])
            head_end = text.find(",")
            head = text[: head_end if head_end >= 0 else len(text)].strip()
            out.append(MeldKind(name, str(spec.get("description", "")), text, shape, where,
                                tuple(clause_where), tuple(clause_text), head))
        if not out:
            self.problem(("melds",), "the ruleset has no meld kinds")
        return tuple(out)

    def check_shape(self, path: Path, shape: A.Shape) -> None:
        n_ranks = len(self.data["deck"]["ranks"])
        n_suits = len(self.data["deck"]["suits"])
        if shape.min_size < 1:
            self.problem(path, "a meld needs at least one card", shape.pos)
        seen: set[str] = set()
        for c in shape.clauses:
            name = type(c).__name__
            if isinstance(c, A.Limit):
                name = f"limit-{c.counter}-{c.op}"
            if name in seen:
                self.problem(path, "this clause repeats an earlier one", c.pos)
            seen.add(name)
            if shape.kind == "run" and isinstance(c, A.SuitsDistinct | A.Limit) and (
                    isinstance(c, A.SuitsDistinct) or c.counter == "suits"):
                self.problem(path, "a run is of one suit: suit clauses apply to sets only", c.pos)
            if shape.kind == "set" and isinstance(c, A.Ace | A.WildsApart):
                self.problem(path, "this clause applies to runs only", c.pos)
            if isinstance(c, A.Ace) and self.data["deck"].get("ace") is None:
                self.problem(path, "the deck names no ace ('deck.ace')", c.pos)
        cap = n_ranks if shape.kind == "run" else None
        if shape.kind == "set" and any(isinstance(c, A.SuitsDistinct) for c in shape.clauses):
            cap = n_suits
        if cap is not None and shape.max_size is not None and shape.max_size > cap:
            self.problem(path, f"no such meld can have {shape.max_size} cards: at most {cap}", shape.pos)

    def wilds(self, names: Any, deck: Deck) -> tuple[frozenset[Card], bool]:
        from loba_dsl.dsl.parser import parse_cards

        spec = self.data.get("wilds", {})
        text = spec.get("cards")
        natural_too = bool(spec.get("natural_too", True))
        if text is None:
            return frozenset(), natural_too
        path = ("wilds", "cards")
        words = self.guard(path, lambda: parse_cards(str(text)))
        if words is None:
            return frozenset(), natural_too
        cards: set[Card] = set()
        for w in words:
            found = self.guard(path, lambda w=w: names.card_word(w))
            if found is None:
                continue
            what, index = found
            if what == "joker":
                if deck.jokers == 0:
                    self.problem(path, f"'{w.text}' is wild, but this deck has no Jokers", w.pos,
                                 "set wilds.cards to the wild cards this deck has, or null")
                cards.add(deck.joker_code)
            elif what == "rank":
                cards.update(deck.code(index, s) for s in range(deck.n_suits))
            else:
                cards.update(deck.code(r, index) for r in range(deck.n_ranks))
        return frozenset(cards), natural_too

    def tables(self, names: Any) -> dict[str, Any]:
        from loba_dsl.dsl import semantics as S
        from loba_dsl.dsl.parser import parse_table

        out: dict[str, S.Table] = {}
        scope = S.Scope(S.CARD_VARIABLES, allow_collections=False)
        for name, text in self.data.get("values", {}).items():
            if text is None:
                continue
            path = ("values", name)
            lines = self.guard(path, lambda t=text: parse_table(str(t)))
            if lines is None:
                continue
            rules = []
            for lineno, offset, rule in lines:
                lo, co = lineno - 1, offset
                cp = self.guard(path, lambda r=rule: S.compile_pred(r.cond, names), lo, co)
                self.guard(path, lambda r=rule: S.check_expr(r.value, scope, "int"), lo, co)
                if cp is not None:
                    rules.append(S.TableRule(cp, rule.value, A.Pos(lineno, offset + 1, rule.pos.length)))
            if not rules:
                self.problem(path, f"value table '{name}' has no lines")
            out[name] = S.Table(name, tuple(rules))
        return out

    def _table_guard(self, name: str, fn: Callable[[], int]) -> int | None:
        from loba_dsl.dsl.parser import DSLProblem

        try:
            return fn()
        except DSLProblem as e:
            self.problem(("values", name), e.message, e.pos, e.hint)
            return None

    def hand_table(self, name: str, table: Any, deck: Deck) -> tuple[int, ...]:
        from loba_dsl.dsl.semantics import IN_HAND

        values = []
        for card in range(deck.n_codes):
            if card == deck.joker_code and deck.jokers == 0:
                values.append(0)
                continue
            v = self._table_guard(name, lambda c=card: table.value(deck, c, IN_HAND))  # type: ignore[misc]
            values.append(v if v is not None else 0)
            if v is None:
                break
        return tuple(values)

    def meld_table(self, name: str, table: Any, deck: Deck, kinds: tuple[MeldKind, ...],
                   wilds: frozenset[Card], natural_too: bool) -> dict[ValueKey, int]:
        from loba_dsl.dsl.semantics import CardRole

        out: dict[ValueKey, int] = {}
        for ki, kind in enumerate(kinds):
            for key, role, card in _roles(kind, ki, deck, wilds, natural_too):
                v = self._table_guard(name, lambda c=card, r=role: table.value(deck, c, r))  # type: ignore[misc]
                if v is None:
                    return out
                out[key] = v
        _ = CardRole
        return out

    def opening(self, tables: Mapping[str, Any]) -> Opening | None:
        spec = self.data.get("requirements", {}).get("opening")
        if spec is None:
            return None
        table = str(spec.get("table", "penalty"))
        if table not in tables:
            self.problem(("requirements", "opening", "table"), f"unknown value table '{table}'",
                         hint=_suggest(table, tables))
        return Opening(int(spec.get("minimum", 0)), str(spec.get("scope", "first_turn")), table,
                       str(spec.get("wild_value", "own")))

    def contracts(self, parse: Callable[[str], A.Contract], kinds: tuple[MeldKind, ...]) -> Contracts | None:
        spec = self.data.get("requirements", {}).get("contracts")
        if spec is None:
            return None
        names = [k.name for k in kinds]
        rounds = []
        texts = []
        for i, text in enumerate(spec.get("rounds", [])):
            path = ("requirements", "contracts", "rounds", i)
            contract = self.guard(path, lambda t=text: parse(str(t)))  # type: ignore[misc]
            if contract is None:
                continue
            for term in contract.terms:
                if term.kind.text not in names:
                    self.problem(path, f"unknown meld kind '{term.kind.text}'", term.kind.pos,
                                 _suggest(term.kind.text, names))
                if term.count < 1:
                    self.problem(path, "a contract asks for at least one meld of a kind", term.kind.pos)
            rounds.append(contract)
            texts.append(str(text))
        return Contracts(tuple(rounds), tuple(texts), bool(spec.get("at_once", True)),
                         bool(spec.get("before_other_melds", True)), str(spec.get("source", "")))


def _roles(kind: MeldKind, ki: int, deck: Deck, wilds: frozenset[Card],
           natural_too: bool) -> Iterator[tuple[ValueKey, Any, Card]]:
    """Every way a card can sit in a meld of this kind: the table's whole domain."""
    from loba_dsl.dsl.semantics import CardRole

    shape = kind.shape
    run = shape.kind == "run"
    ace_mode = next((c.mode for c in shape.clauses if isinstance(c, A.Ace)), "low")
    high_ok = run and deck.ace is not None and ace_mode in ("high", "either")
    for card in deck.all_codes():
        is_joker = card == deck.joker_code
        if not is_joker and (card not in wilds or natural_too):
            rank = deck.rank_of(card)
            for high in (False, True) if (high_ok and rank == deck.ace) else (False,):
                yield (ki, card, False, rank, high), CardRole(False, rank, high, kind.name, shape.kind), card
        if card in wilds:
            for rank in range(deck.n_ranks):
                for high in (False, True) if (high_ok and rank == deck.ace) else (False,):
                    yield (ki, card, True, rank, high), CardRole(True, rank, high, kind.name, shape.kind), card


def _tables_on_melds(expr: A.Expr, tables: set[str]) -> set[str]:
    out: set[str] = set()

    def walk(e: A.Expr) -> None:
        match e:
            case A.Call(name=name, args=args):
                for arg in args:
                    if name in tables and isinstance(arg.value, A.Var) and arg.value.name == "melds":
                        out.add(name)
                    walk(arg.value)
                    if arg.where is not None:
                        walk(arg.where)
            case A.Neg(value=v) | A.Not(value=v):
                walk(v)
            case A.Arith(first=f, rest=rest):
                walk(f)
                for _, o in rest:
                    walk(o)
            case A.Compare(left=left, right=right):
                walk(left)
                walk(right)
            case A.And(items=items) | A.Or(items=items):
                for i in items:
                    walk(i)
            case A.Cond(test=t, then=a, otherwise=b):
                walk(t)
                walk(a)
                walk(b)
            case _:
                pass

    walk(expr)
    return out


def _suggest(word: str, pool: Mapping[str, Any] | Any) -> str | None:
    from loba_dsl.errors import suggest

    return suggest(word, list(pool))
