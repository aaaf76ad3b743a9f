"""The rules diff: every rule that differs between two resolved rulesets, by meaning, not by text.

:func:`diff_rules` compares two *resolved* rulesets (after ``extends`` and
defaults).  Every setting, meld shape, wild card, value table and formula that
was added, removed or changed becomes one frozen :class:`~loba_dsl.compare.records.Change`,
keyed by its path in the ruleset (``("values", "penalty")``), grouped by area,
with the ``file:line`` it comes from on both sides.

- Settings compare as data: key order does not matter, nor does the order of
  alias lists.  The walk over settings reads the resolved document
  (``Ruleset.document``), so a setting the typed model does not know yet still shows.
- Meld shapes compare in a canonical form (:func:`~loba_dsl.dsl.canon.canonical_shape`):
  clause order, ``no wilds`` / ``wilds <= 0`` / ``wilds == 0``, ``3..3`` / ``3``
  and limits a shape cannot exceed anyway do not count.
- Wild cards compare as the set of cards that may be wild.
- Value tables compare by their values on every card, in hand and, for tables
  used on melds, in every role a card can take in a meld (tables are finite);
  the cards whose values differ are listed.  A table only renamed is the same.
- Formulas compare in a canonical form (:func:`~loba_dsl.dsl.canon.canonical`):
  sums and products become polynomials (terms in any order, constants folded,
  ``a - b`` is ``a + (-1)*b``), comparisons become ``p >= 0`` or ``p == 0`` with
  integer normal forms, and conditions, ``and``/``or``/``not`` become an ordered
  decision diagram whose leaves are polynomials.

>>> from loba_dsl.rules.loading import load
>>> from loba_dsl.defaults import DEFAULT_RULESET
>>> diff_rules(load(DEFAULT_RULESET), load(DEFAULT_RULESET)).same
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from loba_dsl.compare.records import AREA_OF, AREAS, Change, ChangeKind, Detail, Key, RulesDiff
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.canon import canonical, canonical_shape, is_exact
from loba_dsl.dsl.predicates import CardRole, eval_pred
from loba_dsl.rules.model import Ruleset

_IGNORED = {"name", "description", "extends"}
_UNORDERED = {"aliases", "languages"}
"""Lists whose order means nothing (spellings)."""
_PROSE = {"description", "source"}
"""Keys that are words for people, not rules (``requirements.contracts.source``, meld descriptions)."""


# ================================================================ the rules diff

# How a shape reads on a part that canonical_shape leaves out (the part is at its default).
_UNSAID = {"wilds": "any number of wilds", "naturals": "any number of naturals", "suits": "any suits",
           "wilds apart": "wilds may touch"}


class _Side:
    """One ruleset seen by the diff: card names, value tables, provenance."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        deck = rs.deck
        self.cards = {deck.name(c): c for c in deck.all_codes()}
        self.wilds = frozenset(deck.name(c) for c in rs.wilds.cards if c in self.cards.values())
        if deck.jokers:  # the matcher always takes a Joker as wild
            self.wilds |= {deck.name(deck.joker_code)}

    def where(self, path: Key) -> str:
        return self.rs.where(*path)

    def roles(self, table: str) -> dict[tuple[Any, ...], int] | None:
        values = self.rs.meld_values.get(table)
        if values is None:
            return None
        deck, kinds = self.rs.deck, self.rs.kinds
        return {(kinds[ki].name, deck.name(card), wild, deck.ranks[rank].key, high): v
                for (ki, card, wild, rank, high), v in values.items()}

    def hand(self, table: str) -> dict[str, int]:
        values = self.rs.hand_values[table]
        return {name: values[code] for name, code in self.cards.items()}

    def rule_of(self, table: str, card_name: str, role: CardRole) -> int | None:
        t = self.rs.tables[table]
        code = self.cards[card_name]
        for i, rule in enumerate(t.rules):
            if eval_pred(rule.pred, self.rs.deck, code, role):
                return i
        return None

    def rule_text(self, table: str, index: int | None) -> tuple[str, str]:
        """The text of a table line, and its ``file:line`` (exact for ``|`` blocks)."""
        base = self.where(("values", table))
        if index is None:
            return "", base
        rule = self.rs.tables[table].rules[index]
        text = str(self.rs.document["values"][table])
        rows = text.split("\n")
        row = rows[rule.where.line - 1] if rule.where.line <= len(rows) else ""
        piece = row[rule.where.column - 1 :].split(";")[0].split("#")[0].strip()
        m = re.fullmatch(r"(.*):(\d+)", base)
        if m and len(rows) > 1:
            base = f"{m.group(1)}:{int(m.group(2)) + rule.where.line}"
        return piece, base


def diff_rules(a: Ruleset, b: Ruleset) -> RulesDiff:
    """Every rule that differs between two resolved rulesets, by meaning.

    >>> from loba_dsl.rules.loading import load
    >>> from loba_dsl.defaults import DEFAULT_RULESET
    >>> d = diff_rules(load(DEFAULT_RULESET), load(DEFAULT_RULESET))
    >>> d.changes
    ()
    """
    return _RulesDiffer(a, b).run()


class _RulesDiffer:
    def __init__(self, a: Ruleset, b: Ruleset) -> None:
        self.a, self.b = _Side(a), _Side(b)
        self.out: list[Change] = []
        self.labels_a, self.labels_b, self.renamed = self._table_labels()

    def run(self) -> RulesDiff:
        sa, sb = self.a.rs.document, self.b.rs.document
        for key in sorted(set(sa) | set(sb)):
            if key in _IGNORED or key not in AREA_OF:
                continue
            self.walk((key,), sa.get(key), sb.get(key))
        order = {area: i for i, area in enumerate(AREAS)}
        changes = sorted(self.out, key=lambda c: (order[c.area], _key_order(c.key)))
        return RulesDiff(_label(self.a.rs, self.b.rs), _label(self.b.rs, self.a.rs), tuple(changes))

    # -- generic settings
    def walk(self, path: Key, x: Any, y: Any) -> None:
        specials: dict[Key, Callable[[Key, Any, Any], None]] = {
            ("deck", "ranks"): self.ranks,
            ("wilds",): self.wilds,
            ("melds",): self.melds,
            ("values",): self.values,
            ("scoring", "round"): self.formula,
            ("match", "instant_win"): self.formula,
            ("scoring", "meld_points"): self.table_ref,
            ("requirements", "opening", "table"): self.table_ref,
            ("requirements", "contracts", "rounds"): self.contracts,
        }
        special = specials.get(path)
        if special is not None:
            special(path, x, y)
            return
        if path[-1] in _PROSE and len(path) > 1:
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for k in _union(x, y):
                self.walk((*path, k), x.get(k), y.get(k))
            return
        if _norm(path, x) != _norm(path, y):
            summary = None
            if path in (("deck", "jokers"), ("deck", "copies")):
                sa, sb = self.a.rs.deck.size, self.b.rs.deck.size
                summary = f"{path[-1]} {_show(x)} → {_show(y)}" + (f" ({sa} → {sb} cards)" if sa != sb else "")
            self.add(path, x, y, summary=summary)

    def add(self, path: Key, x: Any, y: Any, *, left: str | None = None, right: str | None = None,
            summary: str | None = None, details: Iterable[Detail] = (),
            where: tuple[str, str] | None = None) -> None:
        kind: ChangeKind = "added" if x is None else "removed" if y is None else "changed"
        lt = left if left is not None else None if x is None else _show(x)
        rt = right if right is not None else None if y is None else _show(y)
        lw, rw = where or (self.a.where(path), self.b.where(path))
        name = ".".join(str(p) for p in path)
        if path[0] in ("deck", "deal", "wilds", "scoring", "turn", "match") and len(path) > 1:
            name = ".".join(str(p) for p in path[1:])  # the area says the rest
        if summary is None:
            summary = f"{name}: {lt or '—'} → {rt or '—'}"
        self.out.append(Change(path, AREA_OF[str(path[0])], kind, lt, rt, lw, rw, summary, tuple(details)))

    # -- deck ranks: keyed by rank key, plus their order
    def ranks(self, path: Key, x: Any, y: Any) -> None:
        ka = [r["key"] for r in x or []]
        kb = [r["key"] for r in y or []]
        if ka != kb:
            self.add((*path, "order"), " ".join(ka), " ".join(kb), where=(self.a.where(path), self.b.where(path)))
        ia, ib = {k: i for i, k in enumerate(ka)}, {k: i for i, k in enumerate(kb)}
        for k in [*ka, *[k for k in kb if k not in ia]]:
            ra = x[ia[k]] if k in ia else None
            rb = y[ib[k]] if k in ib else None
            na, nb = _norm(path, ra), _norm(path, rb)
            if na != nb:
                wa = self.a.where((*path, ia[k])) if k in ia else "—"
                wb = self.b.where((*path, ib[k])) if k in ib else "—"
                self.add((*path, k), ra, rb, where=(wa, wb))

    # -- wild cards: the set of cards that may be wild
    def wilds(self, path: Key, x: Any, y: Any) -> None:
        wa, wb = self.a.wilds, self.b.wilds
        names = _card_order(self.a, self.b)
        has_rank = [n for n in wa | wb if n not in (self.a.rs.deck.joker_symbol, self.b.rs.deck.joker_symbol)]
        nat_a, nat_b = self.a.rs.wilds.natural_too, self.b.rs.wilds.natural_too
        details = []
        gained = [n for n in names if n in wb and n not in wa]
        lost = [n for n in names if n in wa and n not in wb]

        def state(side: _Side, n: str, wild: frozenset[str], natural_too: bool) -> str:
            if n not in side.cards:
                return "not in the deck"
            if n not in wild:
                return "natural"
            return "wild or natural" if natural_too and n != side.rs.deck.joker_symbol else "wild"

        for group, _ in _groups([(n, (state(self.a, n, wa, nat_a), state(self.b, n, wb, nat_b)))
                                 for n in [*gained, *lost]], self.a, self.b):
            n0 = group[0]
            details.append(Detail(_cards_text(group, self.a, self.b), state(self.a, n0, wa, nat_a),
                                  state(self.b, n0, wb, nat_b), self.a.where((*path, "cards")),
                                  self.b.where((*path, "cards")), tuple(group)))
        xa, xb = (x or {}).get("cards"), (y or {}).get("cards")
        if gained or lost:
            parts = []
            if gained:
                parts.append(f"{_cards_text(gained, self.a, self.b)} become wild")
            if lost:
                parts.append(f"{_cards_text(lost, self.a, self.b)} no longer wild")
            self.add((*path, "cards"), xa, xb, left=_show(xa) if xa else "none", right=_show(xb) if xb else "none",
                     summary="; ".join(parts), details=details)
        if nat_a != nat_b and any(n in wa and n in wb for n in has_rank):
            both = [n for n in names if n in wa and n in wb and n in has_rank]
            self.add((*path, "natural_too"), nat_a, nat_b,
                     summary=f"a wild {_cards_text(both, self.a, self.b)} "
                             f"{'may no longer' if nat_a else 'may now'} stand as itself")

    # -- meld kinds: canonical shapes
    def melds(self, path: Key, x: Any, y: Any) -> None:
        da = self.a.rs.deck
        db = self.b.rs.deck
        kinds_a = {k.name: k for k in self.a.rs.kinds}
        kinds_b = {k.name: k for k in self.b.rs.kinds}
        for name in _union(kinds_a, kinds_b):
            ka, kb = kinds_a.get(name), kinds_b.get(name)
            p = (*path, name, "shape")
            if ka is None or kb is None:
                self.add((*path, name), ka and ka.text, kb and kb.text,
                         summary=f"meld kind {name} {'added' if ka is None else 'removed'}",
                         where=(ka.where if ka else self.a.where((*path, name)),
                                kb.where if kb else self.b.where((*path, name))))
                continue
            fa = canonical_shape(ka.shape, da.n_ranks, da.n_suits)
            fb = canonical_shape(kb.shape, db.n_ranks, db.n_suits)
            if fa.key == fb.key:
                continue
            details = []
            for part in _union(fa.parts, fb.parts):
                ta, ca = fa.parts.get(part, (_UNSAID.get(part, "no such rule"), None))
                tb, cb = fb.parts.get(part, (_UNSAID.get(part, "no such rule"), None))
                if ta != tb:
                    details.append(Detail(part, ta, tb, ka.clause_where[ca] if ca is not None else ka.where,
                                          kb.clause_where[cb] if cb is not None else kb.where))
            shown = ", ".join(f"{d.left} → {d.right}" for d in details)
            self.add(p, ka.text, kb.text, summary=f"{name}: {shown}", details=details, where=(ka.where, kb.where))

    # -- value tables: by their values
    def _table_labels(self) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
        ta, tb = self.a.rs.tables, self.b.rs.tables
        labels_a = {t: t for t in ta}
        labels_b = {t: t for t in tb}
        renamed: dict[str, str] = {}
        only_a = [t for t in ta if t not in tb]
        for u in [t for t in tb if t not in ta]:
            for t in only_a:
                if t not in renamed and not self._table_details(t, u):
                    renamed[t] = u
                    labels_b[u] = t
                    break
        return labels_a, labels_b, renamed

    def _table_details(self, t: str, u: str) -> list[Detail]:
        """The cards (and roles) whose values differ between table ``t`` of a and ``u`` of b."""
        ha, hb = self.a.hand(t), self.b.hand(u)
        rows = [(n, (ha[n], hb[n])) for n in _card_order(self.a, self.b) if n in ha and n in hb and ha[n] != hb[n]]
        out = []
        for group, (va, vb) in _groups(rows, self.a, self.b):
            la, wa = self.a.rule_text(t, self.a.rule_of(t, group[0], CardRole()))
            lb, wb = self.b.rule_text(u, self.b.rule_of(u, group[0], CardRole()))
            out.append(Detail(f"{_cards_text(group, self.a, self.b)} in hand", f"{va} ({la})", f"{vb} ({lb})",
                              wa, wb, tuple(group)))
        ra, rb = self.a.roles(t), self.b.roles(u)
        if ra is not None and rb is not None:
            by_role: dict[tuple[Any, ...], list[tuple[str, tuple[int, int]]]] = {}
            for key in sorted(set(ra) & set(rb), key=repr):
                if ra[key] != rb[key]:
                    kind, card, wild, stands, high = key
                    role = (kind, wild, stands if wild else "", high)
                    by_role.setdefault(role, []).append((card, (ra[key], rb[key])))
            for (kind, wild, stands, high), rows2 in by_role.items():
                how = f"wild as {stands}{' high' if high else ''}" if wild else f"natural{' high' if high else ''}"
                for group, (va, vb) in _groups(rows2, self.a, self.b):
                    out.append(Detail(f"{_cards_text(group, self.a, self.b)} {how} in {kind}", str(va), str(vb),
                                      self.a.where(("values", t)), self.b.where(("values", u)), tuple(group)))
        return out

    def values(self, path: Key, x: Any, y: Any) -> None:
        ta, tb = self.a.rs.tables, self.b.rs.tables
        for name in _union(ta, tb):
            p = (*path, name)
            if name in ta and name in tb:
                details = self._table_details(name, name)
                if details:
                    n = sum(len(d.cards) for d in details if d.subject.endswith("in hand"))
                    head = "; ".join(f"{d.subject.removesuffix(' in hand')} {d.left.split()[0]} → "
                                     f"{d.right.split()[0]}" for d in details[:3])
                    more = f" (+{len(details) - 3} more)" if len(details) > 3 else ""
                    summary = f"{name}: {head}{more}" if n or len(details) <= 3 else f"{name}: {len(details)} values"
                    self.add(p, x[name], y[name], left=_table_text(x[name]), right=_table_text(y[name]),
                             summary=summary, details=details)
            elif name in ta and name not in self.renamed:
                self.add(p, x[name], None, left=_table_text(x[name]), summary=f"table {name} removed")
            elif name in tb and self.labels_b[name] == name:
                self.add(p, None, y[name], right=_table_text(y[name]), summary=f"table {name} added")

    def table_ref(self, path: Key, x: Any, y: Any) -> None:
        la = None if x is None else self.labels_a.get(x, x)
        lb = None if y is None else self.labels_b.get(y, y)
        if la != lb:
            self.add(path, x, y)

    # -- formulas: canonical forms
    def formula(self, path: Key, x: Any, y: Any) -> None:
        fa = self.a.rs.scoring.round if path[-1] == "round" else self.a.rs.match.instant_win
        fb = self.b.rs.scoring.round if path[-1] == "round" else self.b.rs.match.instant_win
        ca = None if fa is None else canonical(fa, self.labels_a)
        cb = None if fb is None else canonical(fb, self.labels_b)
        if ca != cb:
            label = "round formula" if path[-1] == "round" else "instant win"
            as_written = any(c is not None and not is_exact(c) for c in (ca, cb))
            self.add(path, x, y, summary=f"{label} {'changed' if x and y else 'added' if y else 'removed'}"
                                         + (" (compared as written: too large to compare by meaning)"
                                            if as_written else ""))

    def contracts(self, path: Key, x: Any, y: Any) -> None:
        ca = self.a.rs.requirements.contracts.rounds if self.a.rs.requirements.contracts else ()
        cb = self.b.rs.requirements.contracts.rounds if self.b.rs.requirements.contracts else ()
        xs, ys = list(x or []), list(y or [])
        for i in range(max(len(ca), len(cb))):
            wa = _contract_key(ca[i]) if i < len(ca) else None
            wb = _contract_key(cb[i]) if i < len(cb) else None
            if wa != wb:
                self.add((*path, i), xs[i] if i < len(xs) else None, ys[i] if i < len(ys) else None,
                         summary=f"round {i + 1}'s contract: {xs[i] if i < len(xs) else '—'} → "
                                 f"{ys[i] if i < len(ys) else '—'}")


def _contract_key(c: A.Contract) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for t in c.terms:
        counts[t.kind.text] = counts.get(t.kind.text, 0) + t.count
    return tuple(sorted(counts.items()))


def _label(rs: Ruleset, other: Ruleset) -> str:
    return rs.name if rs.name != other.name or rs.source == other.source else rs.source


def _union(x: Mapping[Any, Any], y: Mapping[Any, Any]) -> list[Any]:
    return [*x, *[k for k in y if k not in x]]


def _key_order(key: Key) -> tuple[str, ...]:
    return tuple(str(k) for k in key)


def _norm(path: Key, v: Any) -> Any:
    """A value with meaningless order removed (mappings, spelling lists), hashable."""
    if isinstance(v, dict):
        return tuple(sorted((k, _norm((*path, k), x)) for k, x in v.items() if k not in _PROSE))
    if isinstance(v, list):
        items = tuple(_norm(path, x) for x in v)
        unordered = path[-1] in _UNORDERED or (len(path) >= 2 and path[-2] == "lang")
        return tuple(sorted(items, key=repr)) if unordered else items
    return v


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_show(x)}" for k, x in v.items() if k not in _PROSE)
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return " ".join(str(v).split())


def _table_text(text: Any) -> str:
    rows = [r.split("#", 1)[0].strip() for r in str(text).replace(";", "\n").split("\n")]
    return "; ".join(r for r in rows if r)


def _card_order(a: _Side, b: _Side) -> list[str]:
    return [*a.cards, *[n for n in b.cards if n not in a.cards]]


def _rank_suit(name: str, a: _Side, b: _Side) -> tuple[str, str] | None:
    for side in (a, b):
        code = side.cards.get(name)
        if code is not None and code != side.rs.deck.joker_code:
            deck = side.rs.deck
            return deck.ranks[deck.rank_of(code)].key, deck.suits[deck.suit_of(code)].key
    return None


def _groups(rows: Sequence[tuple[str, Any]], a: _Side, b: _Side) -> list[tuple[list[str], Any]]:
    """Cards with the same value pair together, in card order."""
    out: dict[Any, list[str]] = {}
    for name, value in rows:
        out.setdefault(value, []).append(name)
    return [(names, value) for value, names in out.items()]


def _cards_text(names: Sequence[str], a: _Side, b: _Side) -> str:
    """Card names, with every suit of a rank written ``any 2``."""
    suits_of: dict[str, set[str]] = {}
    for side in (a, b):
        for n in side.cards:
            rs = _rank_suit(n, a, b)
            if rs is not None:
                suits_of.setdefault(rs[0], set()).add(n)
    chosen = set(names)
    parts: list[str] = []
    done: set[str] = set()
    for n in names:
        rs = _rank_suit(n, a, b)
        if n in done:
            continue
        if rs is not None and len(suits_of[rs[0]]) > 1 and suits_of[rs[0]] <= chosen:
            parts.append(f"any {rs[0]}")
            done |= suits_of[rs[0]]
        else:
            parts.append(n)
            done.add(n)
    return " ".join(parts) if len(parts) <= 8 else f"{' '.join(parts[:8])} … ({len(chosen)} cards)"
