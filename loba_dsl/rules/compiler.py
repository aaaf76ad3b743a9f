"""Compile a resolved ruleset document into a :class:`~loba_dsl.rules.model.Ruleset`.

Every DSL text is parsed and its meaning checked here: unknown names, a wild
card the deck cannot produce, a clause that does not fit its shape, a value
table that leaves some card in some role without a value (tables are
evaluated over their whole finite domain).  All mistakes are collected and
reported at once, each at its ``file:line:col``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from loba_dsl.cards.deck import Card, Deck, Rank, Suit
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.names import Names
from loba_dsl.dsl.parser import DSLProblem, parse_cards, parse_contract, parse_formula, parse_shape, parse_table
from loba_dsl.dsl.predicates import IN_HAND, CardRole, Table, TableRule, compile_pred, eval_pred
from loba_dsl.dsl.typecheck import CARD_VARIABLES, ROUND_VARIABLES, Scope, check_expr
from loba_dsl.errors import DSLError, LobaError, Location, raise_all, said, suggest
from loba_dsl.rules import model as M
from loba_dsl.rules.model import Contracts, MeldKind, Opening, Ruleset, ValueKey

if TYPE_CHECKING:
    from loba_dsl.rules.documents import Resolved
    from loba_dsl.rules.yamlsafe import Path


MAX_NUMBER = 1_000_000
"""The largest number a formula or value table may write (a card's value, a bonus, a coefficient)."""
MAX_FORMULA_NODES = 200
"""The most terms one formula may have: canonical forms and the solver's objective grow with it."""
MAX_FORMULA_DEPTH = 32
"""The deepest one formula may nest."""


def compile_resolved(resolved: Resolved) -> Ruleset:
    """Compile a merged, defaulted ruleset document.

    With schema errors already found (``resolved.problems``: their values were left out), the rest is
    still compiled, so that its DSL mistakes are reported with them in one pass (issue 10).
    """
    if not resolved.problems:
        return _Compiler(resolved).run()
    errors = list(resolved.problems)
    try:
        _Compiler(resolved).run()
    except LobaError as e:
        errors.extend(getattr(e, "errors", (e,)))
    except (_LeftOut, KeyError, TypeError, ValueError, AttributeError, IndexError):
        pass  # what the schema rejected left the rest unreadable: its errors say why
    raise_all(errors)
    raise AssertionError("unreachable: problems were raised")  # pragma: no cover


class _LeftOut(Exception):
    """A value the compiler needs was left out because the schema rejected it (already reported)."""


class _Compiler:
    def __init__(self, resolved: Resolved) -> None:
        self.r = resolved
        self.data = resolved.data
        self.errors: list[LobaError] = []
        self.from_defaults: set[int] = set()
        """The errors (by ``id``) that a schema default no file set caused: they do not stop the compiling, so a
        ruleset written without ``extends`` gets every such error in one run (issue 21)."""
        self.warnings: list[M.RuleWarning] = []

    # -- error placement
    def at(self, path: Path, pos: A.Pos | None = None, line_offset: int = 0, col_offset: int = 0) -> Location | None:
        doc = self.r.origin(path)
        if doc is None:  # a value no file set (a schema default, or missing): the ruleset's own file
            return self.r.chain[0].location(())
        if not doc.has(path):
            return doc.location(())
        if pos is None:
            return doc.location(path)
        return doc.text_location(path, pos.line + line_offset, pos.column + col_offset, pos.length)

    def problem(self, path: Path, message: str, pos: A.Pos | None = None, hint: str | None = None,
                line_offset: int = 0, col_offset: int = 0) -> None:
        if self.follows_left_out(path):
            return
        default = self.defaulted(path)
        if default is None and ("Joker" in message or "JOKER" in message) and self.data["deck"].get("jokers"):
            default = self.defaulted(("deck", "jokers"))  # the Jokers themselves may be the default's
            wild = self.defaulted(("wilds", "cards"))
            if default is not None and wild is not None:  # without Jokers, the default wild card goes too
                default += f" (with deck.jokers: 0, set wilds.cards too: {wild.split(':')[0]})"
        if default is not None:
            hint = (f"{hint}; " if hint else "") + default
        error = DSLError(message, location=self.at(path, pos, line_offset, col_offset), hint=hint)
        if default is not None:
            self.from_defaults.add(id(error))
        self.errors.append(error)

    def stop_unless_defaults(self) -> None:
        """Stop at the errors so far, unless every one of them came from a schema default (see ``from_defaults``)."""
        if any(id(e) not in self.from_defaults for e in self.errors):
            raise_all(self.errors)

    def follows_left_out(self, path: Path) -> bool:
        """Whether a problem at ``path`` may only follow from a value the schema rejected (and that was
        left out): it is at or under that value, or beside it in the same meld kind or setting."""
        for bad in self.r.left_out:
            near = bad if len(bad) < 3 else bad[:-1]
            if tuple(path[: len(near)]) == tuple(near) or tuple(bad[: len(path)]) == tuple(path):
                return True
        return False

    def defaulted(self, path: Path) -> str | None:
        """For a value that no file set (the schema's default): say so, and how to change it."""
        if not path or tuple(path) in self.r.origins:
            return None
        value: Any = self.data
        for part in path:
            if not isinstance(value, dict) or part not in value:
                return None
            value = value[part]
        if isinstance(value, dict | list) or value is None:
            return None
        key = ".".join(str(p) for p in path)
        where = self.r.chain[0].location(()).source
        return f"{key} is {json.dumps(value, ensure_ascii=False)} by default: set {key} in {where} to change it"

    def guard(self, path: Path, fn: Callable[[], Any], line_offset: int = 0, col_offset: int = 0) -> Any:

        try:
            return fn()
        except DSLProblem as e:
            self.problem(path, e.message, e.pos, e.hint, line_offset, col_offset)
            return None

    def bounded(self, path: Path, expr: A.Expr | None, line_offset: int = 0, col_offset: int = 0) -> A.Expr | None:
        """``expr`` if its size, depth and numbers are within the bounds every search relies on, else ``None``."""
        if expr is None:
            return None
        nodes = 0
        stack: list[tuple[A.Expr, int]] = [(expr, 1)]
        while stack:
            node, depth = stack.pop()
            nodes += 1
            if depth > MAX_FORMULA_DEPTH or nodes > MAX_FORMULA_NODES:
                what = said("nested more than {depth} deep", depth=MAX_FORMULA_DEPTH) if depth > MAX_FORMULA_DEPTH \
                    else said("longer than {terms} terms", terms=MAX_FORMULA_NODES)
                self.problem(path, said("this formula is {what}", what=what),
                             hint=said("split it, or write it more simply"),
                             line_offset=line_offset, col_offset=col_offset)
                return None
            if isinstance(node, A.Num) and abs(node.value) > MAX_NUMBER:
                limit = f"{MAX_NUMBER:,}".replace(",", " ")
                self.problem(path, said("{number} is too large: numbers in formulas and values are at most {limit}",
                                        number=node.value, limit=limit),
                             node.pos, line_offset=line_offset, col_offset=col_offset)
                return None
            stack.extend((child, depth + 1) for child in A.children(node))
        return expr

    # -- the pieces
    def run(self) -> Ruleset:

        deck = self.deck()
        self.stop_unless_defaults()
        kinds = self.kinds()
        # Names declared, even where their text is broken: one typo gives one error, not a cascade.
        declared_kinds = tuple(k for k, v in self.data.get("melds", {}).items() if v is not None)
        declared_tables = tuple(t for t, v in self.data.get("values", {}).items() if v is not None)
        names = Names(deck, declared_kinds, declared_tables)
        wild_cards, natural_too = self.wilds(names, deck)
        tables = self.tables(names)
        scoring = self.data.get("scoring", {})
        meld_points = scoring.get("meld_points")
        if meld_points is not None and meld_points not in declared_tables:
            self.problem(("scoring", "meld_points"), said("unknown value table '{table}'", table=meld_points),
                         hint=_suggest(meld_points, tables))
        scope = Scope(ROUND_VARIABLES, declared_tables, declared_kinds)
        round_formula = None
        if scoring.get("round") is None:
            self.problem(("scoring",), said("the ruleset gives no round formula (scoring.round)"),
                         hint=said("write one, such as {example}, or 'extends' a ruleset that has one",
                                   example="'went_out ? 0 : penalty(hand)'"))
        else:
            round_formula = self.bounded(("scoring", "round"),
                                         self.guard(("scoring", "round"), lambda: parse_formula(scoring["round"])))
        if round_formula is not None:
            self.guard(("scoring", "round"), lambda: check_expr(round_formula, scope, "int"))
        opening = self.opening(tables)
        contracts = self.contracts(parse_contract, kinds)
        instant = self.data.get("match", {}).get("instant_win")
        instant_win = None
        if instant is not None:
            instant_win = self.bounded(("match", "instant_win"),
                                       self.guard(("match", "instant_win"), lambda: parse_formula(instant)))
            if instant_win is not None:
                self.guard(("match", "instant_win"), lambda: check_expr(instant_win, scope, "bool"))
        self.stop_unless_defaults()
        on_melds = {t for t in (meld_points, opening.table if opening else None) if t}
        if round_formula is not None:
            on_melds |= _tables_on_melds(round_formula, set(tables))
        hand_values = {name: self.hand_table(name, t, deck) for name, t in tables.items()}
        meld_values = {name: self.meld_table(name, tables[name], deck, kinds, wild_cards, natural_too)
                       for name in sorted(on_melds) if name in tables}
        raise_all(self.errors)
        warnings = tuple(self.warnings) + tuple(
            w for name, t in tables.items() for w in self.dead_lines(name, t, deck, kinds, wild_cards, natural_too))
        if round_formula is None:  # left out with a schema error, which compile_resolved reports
            raise _LeftOut("scoring.round")
        d = self.data
        pl = d["players"]
        if not pl["min"] <= pl["default"] <= pl["max"]:
            self.problem(("players", "default"), said("players.default is {default}, outside players.min to "
                                                      "players.max ({least} to {most})", default=pl["default"],
                                                      least=pl["min"], most=pl["max"]),
                         hint=said("set players.default to the usual table size within that range"))
            raise_all(self.errors)
        return Ruleset(
            name=str(d["name"]),
            description=str(d["description"]),
            source=self.r.chain[0].source,
            players=M.Players(int(d["players"]["min"]), int(d["players"]["max"]), int(d["players"]["default"])),
            deck=deck,
            deal=self.deal(),
            wilds=M.Wilds(wild_cards, natural_too),
            kinds=kinds,
            tables=tables,
            scoring=M.ScoringRules(M.Better(scoring["better"]), meld_points, round_formula),
            turn=self.turn(),
            requirements=M.Requirements(opening, contracts),
            match=self.match(instant_win),
            document=self.data,
            origins={p: self.r.where(p) for p in self.r.origins},
            files=self.r.files,
            hand_values=hand_values,
            meld_values=meld_values,
            warnings=warnings,
        )

    def deal(self) -> M.Deal:
        d = self.data["deal"]
        return M.Deal(int(d["cards"]), M.Direction(d["direction"]), M.FirstPlayer(d["first_player"]),
                      bool(d["upcard"]), M.NextDealer(d["next_dealer"]), bool(d.get("counted_at_end", False)),
                      tuple(sorted((int(n), int(c)) for n, c in d.get("cards_by_players", {}).items())))

    def turn(self) -> M.TurnRules:
        t = self.data["turn"]
        return M.TurnRules(
            discard_pile_take=M.PileTake(t["discard_pile_take"]),
            rediscard_single=M.Rediscard(t["rediscard_single"]),
            lay_off=M.LayOff(t["lay_off"]),
            lay_off_after_first_meld=bool(t["lay_off_after_first_meld"]),
            joker_replacement=bool(t["joker_replacement"]),
            wild_move=M.WildMove(t["wild_move"]),
            going_out=M.GoingOut(t["going_out"]),
            stock_exhausted=M.StockExhausted(t["stock_exhausted"]),
            use_pile_card=bool(t["use_pile_card"]),
            use_replaced_joker=bool(t["use_replaced_joker"]),
            discard_joker=bool(t["discard_joker"]),
            go_out_on_first_lay_down=bool(t["go_out_on_first_lay_down"]),
        )

    def match(self, instant_win: A.Expr | None) -> M.MatchRules:
        m = self.data["match"]
        r = m["reentry"]
        reentry = None if r is None else M.Reentry(int(r["max"]), M.ReentryScore(r["score"]),
                                                     int(r.get("fixed_score", 0)))
        return M.MatchRules(
            end=M.MatchEnd(m["end"]),
            eliminate_at=None if m["eliminate_at"] is None else int(m["eliminate_at"]),
            target=None if m["target"] is None else int(m["target"]),
            reentry=reentry,
            winner_if_all_out=M.AllOut(m["winner_if_all_out"]),
            instant_win=instant_win,
        )

    def deck(self) -> Deck:
        d = self.data["deck"]
        missing = [k for k in ("suits", "ranks") if not d.get(k)]
        if missing:
            self.problem(("deck",), f"the deck has no {' and no '.join(missing)} (deck.{missing[0]})",
                         hint="list them, or 'extends' a ruleset whose deck you want")
            raise_all(self.errors)
        suits = tuple(Suit(k, v["symbol"], tuple(v.get("aliases", ())),
                           {lang: tuple(words) for lang, words in v.get("lang", {}).items()})
                      for k, v in d["suits"].items())
        ranks = tuple(
            Rank(r["key"], int(r["face"]), tuple(r.get("aliases", ())),
                 {lang: tuple(letters) for lang, letters in r.get("lang", {}).items()})
            for r in d["ranks"]
        )
        seen: dict[str, int] = {}
        for i, r in enumerate(ranks):
            if r.key in seen:
                self.problem(("deck", "ranks", i, "key"), said("rank '{rank}' is listed twice", rank=r.key))
            seen[r.key] = i
        ace = d.get("ace")
        if ace is not None and ace not in seen:
            self.problem(("deck", "ace"), said("'ace' names '{ace}', which is not a rank of the deck", ace=ace),
                         hint=_suggest(ace, seen))
        joker = d.get("joker", {})
        deck = Deck(
            suits=suits,
            ranks=ranks,
            copies=int(d["copies"]),
            jokers=int(d["jokers"]),
            ace=seen.get(ace) if ace is not None else None,
            joker_symbol=str(joker.get("symbol", "JOKER")),
            joker_aliases=tuple(joker.get("aliases", ())),
            languages=tuple(d["languages"]),
        )
        try:
            from loba_dsl.cards.notation import Notation

            for lang in (None, *deck.languages):
                Notation(deck, None if lang == "en" else lang)
        except (ValueError, LobaError) as e:
            self.problem(("deck",), f"the deck's card spellings are ambiguous: {e}")
        return deck

    def kinds(self) -> tuple[MeldKind, ...]:

        out = []
        for name, spec in self.data.get("melds", {}).items():
            if spec is None:
                continue
            path = ("melds", name, "shape")
            text = str(spec.get("shape", ""))
            shape = self.guard(path, partial(parse_shape, text))
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
            self.problem(("melds",), said("the ruleset has no meld kinds"))
        return tuple(out)

    def check_shape(self, path: Path, shape: A.Shape) -> None:
        n_ranks = len(self.data["deck"]["ranks"])
        n_suits = len(self.data["deck"]["suits"])
        if shape.min_size < 1:
            self.problem(path, said("a meld needs at least one card"), shape.pos)
        seen: set[str] = set()
        for c in shape.clauses:
            name = type(c).__name__
            if isinstance(c, A.Limit):
                name = f"limit-{c.counter}-{c.op}"
            if name in seen:
                self.problem(path, said("this clause repeats an earlier one"), c.pos)
            seen.add(name)
            if shape.kind == "run" and isinstance(c, A.SuitsDistinct | A.Limit) and (
                    isinstance(c, A.SuitsDistinct) or c.counter == "suits"):
                self.problem(path, said("a run is of one suit: suit clauses apply to sets only"), c.pos)
            if shape.kind == "set" and isinstance(c, A.Ace | A.WildsApart):
                self.problem(path, said("this clause applies to runs only"), c.pos)
            if isinstance(c, A.Ace) and self.data["deck"].get("ace") is None:
                self.problem(path, said("the deck names no ace ('deck.ace')"), c.pos)
            elif isinstance(c, A.Ace) and c.mode in ("high", "either"):
                ace, ranks = self.data["deck"]["ace"], self.data["deck"]["ranks"]
                if ranks and ranks[0].get("key") != ace:
                    # High, the ace goes above the top rank; its low place is its own in the ranks. Anywhere but
                    # first, a run could hold it twice (K A and A above K).
                    self.problem(path, f"'ace {c.mode}' counts the ace ('{ace}') low at its place in 'deck.ranks' "
                                       "and high above the top rank, so it must be the first (lowest) rank there",
                                 c.pos, hint="list the ace first in deck.ranks, or write 'ace low'")
        cap = n_ranks if shape.kind == "run" else None
        if shape.kind == "set" and any(isinstance(c, A.SuitsDistinct) for c in shape.clauses):
            cap = n_suits
        if cap is not None and shape.max_size is not None and shape.max_size > cap:
            self.problem(path, said("no such meld can have {size} cards: at most {cap}", size=shape.max_size, cap=cap),
                         shape.pos)

    def wilds(self, names: Names, deck: Deck) -> tuple[frozenset[Card], bool]:

        spec = self.data["wilds"]
        text = spec["cards"]
        natural_too = bool(spec["natural_too"])
        if text is None:
            return self.jokers_wild(deck, frozenset()), natural_too
        path = ("wilds", "cards")
        words = self.guard(path, lambda: parse_cards(str(text)))
        if words is None:
            return frozenset(), natural_too
        cards: set[Card] = set()
        for w in words:
            found = self.guard(path, partial(names.card_word, w, single_cards=True))
            if found is None:
                continue
            what, index = found
            if what == "card":
                cards.add(index)
            elif what == "joker":
                if deck.jokers == 0:
                    self.problem(path, said("'{word}' is wild, but this deck has no Jokers", word=w.text), w.pos,
                                 said("set wilds.cards to the wild cards this deck has, or null"))
                cards.add(deck.joker_code)
            elif what == "rank":
                cards.update(deck.code(index, s) for s in range(deck.n_suits))
            else:
                cards.update(deck.code(r, index) for r in range(deck.n_ranks))
        return self.jokers_wild(deck, cards), natural_too

    def jokers_wild(self, deck: Deck, cards: set[Card] | frozenset[Card]) -> frozenset[Card]:
        """The wild cards, with the deck's Jokers among them whatever ``wilds.cards`` says: a Joker has no
        rank or suit, so it can stand in a meld only as a wild (the matcher, the solver and the referee all
        hold it so, and the value tables price it so).  A list that leaves them out is said in a warning."""
        if deck.jokers == 0 or deck.joker_code in cards:
            return frozenset(cards)
        listed = self.data["wilds"]["cards"]
        now = "no card is wild (wilds.cards: null)" if listed is None else f"wilds.cards is '{listed}'"
        wild = deck.joker_symbol if listed is None else f"{deck.joker_symbol}, {listed}"
        hint = f"write wilds.cards: '{wild}' to say so, or deal none with deck.jokers: 0"
        jokers_default = self.defaulted(("deck", "jokers"))
        if jokers_default is not None:
            hint += f"; {jokers_default}"
        self.warnings.append(M.RuleWarning(
            f"this deck deals {deck.jokers} Jokers and {now}: the Jokers are wild all the same, as a Joker has "
            "no rank or suit", self.at(("wilds", "cards")), hint))
        return frozenset(cards) | {deck.joker_code}

    def tables(self, names: Names) -> dict[str, Table]:

        out: dict[str, Table] = {}
        scope = Scope(CARD_VARIABLES, allow_collections=False)
        for name, text in self.data.get("values", {}).items():
            if text is None:
                continue
            path = ("values", name)
            lines = self.guard(path, partial(parse_table, str(text)))
            if lines is None:
                continue
            rules = []
            for lineno, offset, rule in lines:
                lo, co = lineno - 1, offset
                cp = self.guard(path, partial(compile_pred, rule.cond, names), lo, co)
                typed = self.guard(path, partial(check_expr, rule.value, scope, "int"), lo, co)
                if self.bounded(path, rule.value, lo, co) is None:
                    continue
                if cp is not None and typed is not None:  # a value that did not type-check is never evaluated
                    rules.append(TableRule(cp, rule.value, A.Pos(lineno, offset + 1, rule.pos.length)))
            if not rules:
                self.problem(path, said("value table '{table}' has no lines", table=name))
            out[name] = Table(name, tuple(rules))
        return out

    def _table_guard(self, name: str, fn: Callable[[], int]) -> int | None:

        try:
            return fn()
        except DSLProblem as e:
            self.problem(("values", name), e.message, e.pos, e.hint)
            return None

    def hand_table(self, name: str, table: Table, deck: Deck) -> tuple[int, ...]:

        values = []
        for card in range(deck.n_codes):
            if card == deck.joker_code and deck.jokers == 0:
                values.append(0)
                continue
            v = self._table_guard(name, partial(table.value, deck, card, IN_HAND))
            values.append(v if v is not None else 0)
            if v is None:
                break
        return tuple(values)

    def meld_table(self, name: str, table: Table, deck: Deck, kinds: tuple[MeldKind, ...],
                   wilds: frozenset[Card], natural_too: bool) -> dict[ValueKey, int]:

        out: dict[ValueKey, int] = {}
        for ki, kind in enumerate(kinds):
            for key, role, card in _roles(kind, ki, deck, wilds, natural_too):
                v = self._table_guard(name, partial(table.value, deck, card, role))
                if v is None:
                    return out
                out[key] = v
        _ = CardRole
        return out

    def dead_lines(self, name: str, table: Table, deck: Deck, kinds: tuple[MeldKind, ...],
                   wilds: frozenset[Card], natural_too: bool) -> Iterator[M.RuleWarning]:
        """A warning for each line of a table that no card, in hand or in any meld, ever reaches: the
        lines before it catch every card it would match (first match wins, rules.md §3)."""
        if self.r.origin(("values", name)) is not self.r.chain[0]:
            return  # an inherited table is its own file's business
        domain = [(card, IN_HAND) for card in deck.all_codes()]
        domain += [(card, role) for ki, kind in enumerate(kinds)
                   for _, role, card in _roles(kind, ki, deck, wilds, natural_too)]
        matches = [[eval_pred(rule.pred, deck, card, role) for card, role in domain] for rule in table.rules]
        reached = [False] * len(table.rules)
        for point in range(len(domain)):
            first = next((k for k, m in enumerate(matches) if m[point]), None)
            if first is not None:
                reached[first] = True
        for k, rule in enumerate(table.rules):
            if reached[k]:
                continue
            mine = [i for i, hit in enumerate(matches[k]) if hit]
            if not mine:
                message, hint = f"this line of value table '{name}' matches no card", None
            else:
                cover = next((j for j in range(k) if all(matches[j][i] for i in mine)), None)
                covering = table.rules[cover].where if cover is not None else None
                there = self.at(("values", name), covering) if covering is not None else None
                earlier = f"line {there.line}" if there is not None else "the lines before it"
                message = f"this line of value table '{name}' can never match: {earlier} catches every card it would"
                hint = "move it above the line that catches its cards, or remove it"
            length = rule.where.length
            yield M.RuleWarning(message, self.at(("values", name), A.Pos(rule.where.line, rule.where.column, length)),
                                hint)

    def opening(self, tables: Mapping[str, Table]) -> Opening | None:
        spec = self.data.get("requirements", {}).get("opening")
        if spec is None:
            return None
        if spec.get("table") is None:
            self.problem(("requirements", "opening"), said("an opening minimum needs the value table that counts it "
                                                           "(requirements.opening.table)"),
                         hint=said("name one of its value tables: {tables}", tables=", ".join(tables)))
            table = ""
        else:
            table = str(spec["table"])
        if table and table not in tables:
            self.problem(("requirements", "opening", "table"), said("unknown value table '{table}'", table=table),
                         hint=_suggest(table, tables))
        return Opening(int(spec["minimum"]), str(spec["scope"]), table, str(spec["wild_value"]))

    def contracts(self, parse: Callable[[str], A.Contract], kinds: tuple[MeldKind, ...]) -> Contracts | None:
        spec = self.data.get("requirements", {}).get("contracts")
        if spec is None:
            return None
        names = [k.name for k in kinds]
        rounds = []
        texts = []
        for i, text in enumerate(spec["rounds"]):
            path = ("requirements", "contracts", "rounds", i)
            contract = self.guard(path, partial(parse, str(text)))
            if contract is None:
                continue
            for term in contract.terms:
                if term.kind.text not in names:
                    self.problem(path, said("unknown meld kind '{kind}'", kind=term.kind.text), term.kind.pos,
                                 _suggest(term.kind.text, names))
                if term.count < 1:
                    self.problem(path, said("a contract asks for at least one meld of a kind"), term.kind.pos)
            rounds.append(contract)
            texts.append(str(text))
        return Contracts(tuple(rounds), tuple(texts), bool(spec["at_once"]),
                         bool(spec["before_other_melds"]), str(spec["source"]),
                         other_melds_same_turn=bool(spec["other_melds_same_turn"]))


def _roles(kind: MeldKind, ki: int, deck: Deck, wilds: frozenset[Card],
           natural_too: bool) -> Iterator[tuple[ValueKey, CardRole, Card]]:
    """Every way a card can sit in a meld of this kind: the table's whole domain."""

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
    """The value tables a formula applies to the melds."""
    return {
        e.name for e in A.walk(expr) if isinstance(e, A.Call) and e.name in tables
        and any(isinstance(arg.value, A.Var) and arg.value.name == "melds" for arg in e.args)
    }


def _suggest(word: str, pool: Mapping[str, Any] | Any) -> str | None:

    return suggest(word, list(pool))
