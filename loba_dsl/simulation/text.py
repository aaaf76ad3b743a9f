"""A simulation's report as text for people: each figure with its 95% interval, side by side with ``--vs``.

>>> from loba_dsl.simulation.figures import Estimate
>>> print(_cell(Estimate(7.5, 0.5, 40), ""))
7.50 [6.52, 8.48]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loba_dsl.simulation.figures import Estimate

if TYPE_CHECKING:
    from loba_dsl.simulation import SimReport

__all__ = ["simulation_text"]


def _num(v: float, unit: str, sign: bool = False) -> str:
    text = f"{v:+.1f}" if sign and unit == "%" else f"{v:.1f}" if unit == "%" else f"{v:+.2f}" if sign else f"{v:.2f}"
    return text


def _cell(e: Estimate | None, unit: str, sign: bool = False) -> str:
    if e is None or e.value is None:
        return "—"
    if e.se is None or e.low is None or e.high is None:
        return _num(e.value, unit, sign)
    low, high = e.low, e.high
    if unit == "%" and not sign:
        low, high = max(0.0, low), min(100.0, high)
    return f"{_num(e.value, unit, sign)} [{_num(low, unit, sign)}, {_num(high, unit, sign)}]"


def simulation_text(report: SimReport) -> str:
    """The figures of ``report``: value [95% interval] per ruleset, and the difference with ``--vs``."""
    what = "matches" if report.match else "rounds"
    bots = ",".join(report.bots)
    head = (f"{' vs '.join(report.rulesets)}: {report.games:,} {what}, bots {bots} (seated in rotation), "
            f"seed {report.seed}")
    lines = [head]
    if len(report.rulesets) == 2:
        lines.append("the same seeds under both rulesets" + (" (the very same deals)" if report.paired else
                                                           " (their decks or deals differ: not the same cards)"))
    lines.append("each figure: value [95% interval]")
    for name, n in zip(report.rulesets, report.unfinished, strict=True):
        if n:
            lines.append(f"{name}: {n} game(s) did not finish (a round no player could ever go out of, or stopped "
                         "at the move limit) and count nowhere")
    header = ["", *report.rulesets]
    if len(report.rulesets) == 2:
        header.append(f"{report.rulesets[1]} − {report.rulesets[0]}")
    rows = [header]
    for f in report.figures:
        row = [f.name + (" (%)" if f.unit == "%" else "")]
        row += [_cell(e, f.unit) for e in f.sides]
        if len(report.rulesets) == 2:
            row.append(_cell(f.diff, f.unit, sign=True) if f.diff is not None else "not comparable")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines.append("")
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)
