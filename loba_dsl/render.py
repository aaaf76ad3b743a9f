"""Plain-text rendering of results for people (JSON comes from ``to_dict``)."""

from __future__ import annotations

from loba_dsl.jsontext import dumps as json_dumps  # json.dumps without importing json (issue 22)
from loba_dsl.rules.model import MatchEnd

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Any

    from loba_dsl.cards.deck import Card
    from loba_dsl.compare import Detail, DiffReport
    from loba_dsl.melds.check import CheckResult
    from loba_dsl.rules.model import Ruleset
    from loba_dsl.scoring.match_play import MatchResult
    from loba_dsl.scoring.requirements import Verdict
    from loba_dsl.scoring.rounds import RoundScore
    from loba_dsl.solver.api import Arrangement
    from loba_dsl.solver.arrangement import ArrangedHand, OutNote


def check_text(result: CheckResult) -> str:
    """A verdict a person can check against the rules.

    ``A♣ 2♣ JOKER: legal escalera under menos`` then the reading, the wilds,
    the points; or every reason it is not legal.
    """
    cards = " ".join(result.card_names())
    rs = result.ruleset.name
    if not result.valid:
        lines = [f"{cards}: not a legal meld under {rs}"]
        lines += [f"  - {reason}" for reason in result.reasons()]
        return "\n".join(lines)
    lines = [f"{cards}: legal {result.kind} under {rs}"]
    lines.append(f"  reading: {' '.join(result.reading_names())}")
    for w in result.wilds():
        lines.append(f"  {w['card']} stands for {w['stands_for']}")
    if result.points is not None:
        lines.append(f"  points: {result.points}")
    return "\n".join(lines)


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    plain = text and text.strip() == text and not any(c in text for c in ":#{}[],&*!|>'\"%@`") and text.lower() not in (
        "null", "true", "false", "yes", "no", "on", "off", "~") and not text[0].isdigit() and not text.startswith("-")
    return text if plain else json_dumps(text)


def ruleset_text(rs: Ruleset, *, origin: bool = False) -> str:
    """The resolved ruleset as YAML; with ``origin``, each value's ``file:line`` as a comment."""
    from pathlib import Path  # not for ``loba check``, whose start-up it would slow (issue 11)

    out: list[str] = [f"# {rs.name}: resolved from {' <- '.join(Path(f).name for f in rs.files)}"]

    def note(path: tuple[str | int, ...]) -> str:
        return f"  # {rs.where(*path)}" if origin else ""

    def emit(value: Any, path: tuple[str | int, ...], indent: int) -> None:
        pad = " " * indent
        if isinstance(value, dict):
            for k, v in value.items():
                p = (*path, k)
                if (isinstance(v, dict) and v) or (isinstance(v, list) and v):
                    out.append(f"{pad}{k}:{note(p)}")
                    emit(v, p, indent + 2)
                elif isinstance(v, str) and "\n" in v.strip("\n"):
                    out.append(f"{pad}{k}: |{note(p)}")
                    out.extend(f"{pad}  {line}" for line in v.rstrip("\n").split("\n"))
                else:
                    shown = "{}" if isinstance(v, dict) else "[]" if isinstance(v, list) else _scalar(v)
                    out.append(f"{pad}{k}: {shown}{note(p)}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                p = (*path, i)
                if isinstance(v, dict):
                    inner = json_dumps(v)
                    out.append(f"{pad}- {inner}{note(p)}")
                else:
                    out.append(f"{pad}- {_scalar(v)}{note(p)}")

    emit(rs.document, (), 0)
    return "\n".join(out) + "\n"


def round_text(score: RoundScore) -> str:
    """Each player's round score with its parts, card by card."""
    head = f"round under {score.ruleset} ({score.n_players} player{'s' * (score.n_players != 1)}"
    head += ", the stock ran out)" if score.stock_out else ")"
    lines = [head]
    for p in score.players:
        status = " (went out all at once)" if p.all_at_once else " (went out)" if p.went_out else ""
        lines.append(f"{p.name}: {p.score}{status}")
        if p.melds:
            parts = []
            for m in p.melds:
                shown = " ".join(m.cards)
                parts.append(f"{m.kind} {shown}" + (f" = {m.points}" if m.points is not None else ""))
            total = f"  → {p.meld_points}" if p.meld_points is not None else ""
            lines.append(f"  melds: {'; '.join(parts)}{total}")
        if p.hand_table is not None:
            if p.hand and p.hand_values is not None:
                cards = " + ".join(f"{c} {v}" for c, v in zip(p.hand, p.hand_values, strict=True))
                lines.append(f"  hand ({p.hand_table}): {cards}  → {p.hand_value}")
            else:
                lines.append(f"  hand ({p.hand_table}): empty  → 0")
        if p.bonus:
            lines.append(f"  bonus: {p.bonus:+d}")
    return "\n".join(lines)


def match_text(result: MatchResult) -> str:
    """Standings after every round, eliminations, re-entries and the winner."""
    rules = result.rules
    facts = []
    if rules.eliminate_at is not None:
        facts.append(f"eliminated at {rules.eliminate_at}")
    if rules.reentry is not None:
        facts.append(f"at most {rules.reentry.max} re-entries")
    if result.target is not None and rules.end is MatchEnd.TARGET:
        facts.append(f"target {result.target}")
    lines = [f"match under {result.ruleset}" + (f" ({', '.join(facts)})" if facts else "")]
    players = [p.name for p in result.players]
    width = max([len(n) for n in players] + [12])
    lines.append(("round  " + "  ".join(f"{n:<{width}}" for n in players)).rstrip())
    for r in result.rounds:
        cells = []
        for n in players:
            if n in r.scores:
                mark = " ✗" if n in r.eliminated else ""
                cells.append(f"{r.scores[n]:+d} → {r.totals[n]}{mark}")
            else:
                cells.append("—")
        lines.append((f"{r.number:<5}  " + "  ".join(f"{c:<{width}}" for c in cells)).rstrip())
        for n in r.eliminated:
            gone = " for good" if n in r.out_for_good else ""
            lines.append(f"       {n} is eliminated{gone} at {r.totals[n]}")
        for e in r.reentries:
            lines.append(f"       {e['name']} re-enters at {e['score']} (re-entry {e['reentry']})")
    if result.rounds:  # the re-entries still open right after the last round (`reenter NAME` takes one)
        for offer in result.rounds[-1].offers:
            lines.append(f"       {offer['name']} may re-enter at {offer['score']} (reenter {offer['name']})")
    if result.winners:
        lines.append(f"winner: {', '.join(result.winners)} ({result.how})")
    else:
        standing = ", ".join(f"{p.name} {p.total}" for p in result.players if p.active)
        lines.append(f"no winner yet; still in: {standing}")
    return "\n".join(lines)


def verdict_text(verdict: Verdict, ruleset: Ruleset) -> str:
    names = ruleset.deck.names
    lines = [f"{'yes' if verdict.ok else 'no'}: {verdict.summary} under {ruleset.name}"]
    for m in verdict.melds:
        shown = " ".join(names[c] for c in m.cards)
        kinds = " or ".join(m.kinds) if m.kinds else "not a legal meld"
        value = f" = {m.value}" if m.value is not None else ""
        lines.append(f"  {shown}: {kinds}{value}")
    return "\n".join(lines)


def arranged_hand_text(hand: ArrangedHand, ruleset: Ruleset) -> str:
    """``loba arrange``: a hand arranged as the player stands, whether it can go out, and why not or what it
    scores (``arrange_hand``'s answer)."""
    return arrangement_text(hand.arrangement, ruleset, discard=hand.discard, can_go_out=hand.can_go_out,
                            note=hand.note)


def arranged_hand_dict(hand: ArrangedHand, ruleset: Ruleset) -> dict[str, object]:
    """``loba arrange --json`` and ``POST /v1/arrange``: :func:`arranged_hand_text` as data."""
    return arrangement_dict(hand.arrangement, ruleset, discard=hand.discard, can_go_out=hand.can_go_out,
                            note=hand.note)


def _going_out(can_go_out: bool, note: OutNote | None) -> list[str]:
    if note is None:
        return [f"  can go out: {'yes' if can_go_out else 'no'}"]
    if not can_go_out:
        if len(note.why_not) == 1:
            return [f"  can go out: no: {note.why_not[0]}"]
        return ["  can go out: no", *(f"    - {why}" for why in note.why_not)]
    if note.score is None:
        return ["  can go out: yes"]
    wins = " and wins the match (match.instant_win)" if note.wins else ""
    return [f"  can go out: yes; going out scores {note.score}{wins}"]


def arrangement_text(arr: Arrangement, ruleset: Ruleset, *, discard: Card | None = None,
                     can_go_out: bool | None = None, note: OutNote | None = None) -> str:
    """The melds (with what each wild stands for), the cards left, their value and the round score."""
    names = ruleset.deck.names
    hand = (*arr.cards, discard) if discard is not None else arr.cards
    lines = [f"{' '.join(names[c] for c in hand)} under {ruleset.name}"]
    if discard is not None:
        lines.append(f"  discard: {names[discard]}")
    for m in arr.melds:
        r = m.reading
        shown = " ".join(names[c] for c in r.stands)
        wilds = [f"{names[m.cards[r.order[q]]]}→{names[r.stands[q]]}" for q in range(len(r.stands)) if r.wild[q]]
        extra = f"  ({', '.join(wilds)})" if wilds else ""
        points = f" = {r.points}" if r.points is not None else ""
        lines.append(f"  {r.kind}: {shown}{points}{extra}")
    left = " ".join(names[c] for c in arr.left) or "nothing"
    value = f" (worth {arr.left_value})" if arr.left_value is not None else ""
    lines.append(f"  left: {left}{value}")
    lines.append(f"  score if the round ended now: {arr.score}")
    if can_go_out is not None:
        lines.extend(_going_out(can_go_out, note))
    return "\n".join(lines)


def arrangement_dict(arr: Arrangement, ruleset: Ruleset, *, discard: Card | None = None,
                     can_go_out: bool | None = None, note: OutNote | None = None) -> dict[str, object]:
    names = ruleset.deck.names
    out: dict[str, object] = {
        "ruleset": ruleset.name,
        "cards": [names[c] for c in arr.cards],
        "melds": [
            {"kind": m.reading.kind, "cards": [names[c] for c in m.cards],
             "reading": [names[c] for c in m.reading.stands], "points": m.reading.points,
             "wilds": [{"card": names[m.cards[m.reading.order[q]]], "stands_for": names[m.reading.stands[q]]}
                       for q in range(len(m.reading.stands)) if m.reading.wild[q]]}
            for m in arr.melds
        ],
        "left": [names[c] for c in arr.left],
        "left_value": arr.left_value,
        "score": arr.score,
        "can_go_out": can_go_out,
    }
    if discard is not None:
        out["discard"] = names[discard]
    if note is not None:
        out["why_not"] = list(note.why_not)
        out["going_out"] = None if not can_go_out or note.score is None else {
            "score": note.score, "wins_match": note.wins}
    return out


# ---------------------------------------------------------------- diff reports


def diff_text(report: DiffReport) -> str:
    """A diff report for people: a headline per area, each change with both origins, its details, the
    witnesses of each change, and the play statistics as a table."""
    r = report.rules
    if report.same:
        return f"{r.left} and {r.right} have the same rules."
    areas = r.by_area()
    n = len(r.changes)
    lines = [f"{r.left} → {r.right}: {n} difference{'s' * (n != 1)} in {', '.join(areas)}", ""]
    width = max(len(a) for a in areas)
    for area in areas:
        lines.append(f"  {area:<{width}}  {r.headline(area)}")
    lines += ["", "Details"]
    for changes in areas.values():
        for c in changes:
            lines.append(f"  {c.path} ({c.kind}): {c.left or '—'} → {c.right or '—'}")
            lines.append(f"      {r.left}: {c.left_where or '—'}   {r.right}: {c.right_where or '—'}")
            for d in c.details[:12]:
                lines.append(f"      {d.subject}: {d.left} → {d.right}" + _detail_wheres(d))
            if len(c.details) > 12:
                lines.append(f"      … {len(c.details) - 12} more")
    if report.witnesses or report.searched:
        lines += ["", "Witnesses"]
        shown: set[int] = set()
        for c in r.changes:
            ws = [w for w in report.witnesses if c.key in w.changes]
            if not ws:
                continue
            lines.append(f"  {c.path}")
            for w in ws:
                line = f"{w.example} — {r.left}: {w.left}; {r.right}: {w.right}"
                lines.append(f"    {line}" if id(w) not in shown else f"    ↑ {w.example}")
                shown.add(id(w))
        silent = [c.path for c in r.changes if not any(c.key in w.changes for w in report.witnesses)]
        if silent:
            lines.append(f"  no example (not played by the engine, or none within the search bound): "
                         f"{', '.join(silent)}")
        if report.stopped:
            stops = ", ".join(f"{k} search ({v})" for k, v in report.stopped.items())
            lines.append(f"  stopped at its budget: {stops}")
    if report.stats is not None:
        lines += ["", "Play statistics", *_stats_lines(report.stats, r.left, r.right)]
    return "\n".join(lines)


def _detail_wheres(d: Detail) -> str:
    if not d.left_where and not d.right_where:
        return ""
    return f"   [{d.left_where or '—'} | {d.right_where or '—'}]"


def _stats_lines(stats: dict[str, Any], left: str, right: str) -> list[str]:
    figures = stats.get("figures")
    lines = ["  " + ", ".join(f"{k} {_stat_value(v)}" for k, v in stats.items() if k != "figures")]
    if isinstance(figures, list) and figures:
        rows = [("", left, right, "difference")]
        for f in figures:
            unit = str(f.get("unit", ""))
            rows.append((str(f.get("name", "")), _figure(f.get("a"), f.get("spread_a"), unit),
                         _figure(f.get("b"), f.get("spread_b"), unit), _figure(f.get("diff"), f.get("se"), unit, "+")))
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        for r in rows:
            lines.append(f"  {r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}  {r[2]:>{widths[2]}}  {r[3]:>{widths[3]}}")
    return lines


def _stat_value(v: Any) -> str:
    """A JSON value of the statistics in words: ``true``, ``null``, ``[1, 2]``, ``a: 1``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_stat_value(x)}" for k, x in v.items() if k not in ("description", "source"))
    if isinstance(v, list):
        return "[" + ", ".join(_stat_value(x) for x in v) + "]"
    return " ".join(str(v).split())


def _figure(value: Any, spread: Any, unit: str, sign: str = "") -> str:
    if not isinstance(value, int | float):
        return "—"
    digits = 2 if unit == "%" else 1  # rare events (going out at once) need the second decimal
    text = f"{value:{sign}.{digits}f}"
    return (f"{text} ± {spread:.{digits}f}" if isinstance(spread, int | float) else text) + unit
