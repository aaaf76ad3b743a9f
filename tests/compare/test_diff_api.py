"""The diff's facade, ``loba_dsl.compare.diff(a, b)``: two loaded rulesets in, a ``DiffReport`` out (issue 8 §7).

Expected values come from the rules, never from the code's output:

- rules.md §1 (Loba de Menos): wild cards are Jokers only; penalties Joker 25, Ace 15, J/Q/K 10, 2–10 face;
- rules.md §4 (uruguay): "Ace 20, face cards 10; 2s are wild and cost 25 in hand"; "Joker unchanged (25,
  wild in escaleras); everything else Menos" — so the same deck and the same deal as Menos;
- issue 5's acceptance, cited by tests/compare/test_diff.py: ``5♥ 2♣ 7♥`` is an escalera only under uruguay, an
  ``A♠`` left in hand costs 15 against 20, a ``2♣`` 2 against 25;
- style.md "Tests": a diff of a ruleset with itself is empty;
- issue 8 §2 and §6: no argument is "a name or maybe a path"; data flows one way inside ``diff/``, with no
  private name imported across modules.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import loba_dsl.compare
from loba_dsl.compare import AREAS, DiffReport, diff, play_stats
from loba_dsl.errors import InputError, LobaError
from loba_dsl.melds.check import check_cards
from loba_dsl.render import diff_text
from loba_dsl.rules.loading import load
from loba_dsl.rules.model import Ruleset

SUITS = ("♠", "♥", "♦", "♣")  # rules.md §5


@pytest.fixture(scope="module")
def menos() -> Ruleset:
    return load("menos")


@pytest.fixture(scope="module")
def uruguay() -> Ruleset:
    return load("uruguay")


@pytest.fixture(scope="module")
def report(menos: Ruleset, uruguay: Ruleset) -> DiffReport:
    return diff(menos, uruguay)


# ---------------------------------------------------------------- menos against uruguay


def test_facade_returns_a_report_of_the_uruguayan_changes(report: DiffReport) -> None:
    # rules.md §4: the 2s become wild and the penalty table changes; "everything else Menos".
    assert isinstance(report, DiffReport)
    assert not report.same
    assert (report.rules.left, report.rules.right) == ("menos", "uruguay")
    assert set(report.rules.keys()) == {("wilds", "cards"), ("values", "penalty")}
    assert list(report.rules.by_area()) == ["wilds", "values"]  # in the report's area order
    assert [a for a in AREAS if a in report.rules.by_area()] == ["wilds", "values"]


def test_the_values_that_change_are_the_aces_and_the_twos(report: DiffReport) -> None:
    # rules.md §1 → §4: Ace 15 → 20, a 2 its face 2 → 25; J/Q/K 10 and the Joker 25 on both sides.
    penalty = report.rules.get("values", "penalty")
    assert penalty is not None and penalty.kind == "changed"
    values = {card: (int(d.left.split()[0]), int(d.right.split()[0])) for d in penalty.details for card in d.cards}
    assert values == {**{f"A{s}": (15, 20) for s in SUITS}, **{f"2{s}": (2, 25) for s in SUITS}}


def test_the_twos_become_wild(report: DiffReport) -> None:
    # rules.md §1: wild cards are Jokers only; §4: "2s are wild" (and may still be natural, natural_too).
    wilds = report.rules.get("wilds", "cards")
    assert wilds is not None
    assert {c for d in wilds.details for c in d.cards} == {f"2{s}" for s in SUITS}
    assert all(d.left == "natural" and "wild" in d.right for d in wilds.details)


def test_witnesses_show_the_hand_values_and_a_wild_two(report: DiffReport, menos: Ruleset,
                                                       uruguay: Ruleset) -> None:
    # Issue 5: an Ace left in hand 15 against 20, a 2 left in hand 2 against 25.
    hands = {w.hand[0][0]: (w.left_value, w.right_value)
             for w in report.witnesses_for("values", "penalty") if w.kind == "round" and len(w.hand) == 1}
    assert hands == {"A": (15, 20), "2": (2, 25)}
    # Issue 5: a three-card escalera with a 2 standing wild is legal under uruguay only; check it again.
    melds = [w for w in report.witnesses_for("wilds", "cards") if w.kind == "meld"]
    assert melds
    for w in melds:
        assert w.size == 3 and any(c.startswith("2") for c in w.cards)
        assert (w.left_value, w.right_value) == (False, True)
        for rs, legal in ((menos, False), (uruguay, True)):
            assert check_cards(rs.notation().parse_codes(" ".join(w.cards)), rs).valid is legal


def test_report_is_json_ready_and_renders(report: DiffReport) -> None:
    data = json.loads(json.dumps(report.to_dict(), ensure_ascii=False))
    assert data["same"] is False and (data["left"], data["right"]) == ("menos", "uruguay")
    assert list(data["areas"]) == ["wilds", "values"]
    assert data["stats"] is None  # no statistics unless asked for
    text = diff_text(report)
    assert text.startswith("menos → uruguay: 2 differences in wilds, values")
    assert "A♠ left in hand — menos: 15; uruguay: 20" in text


def test_witnesses_off(menos: Ruleset, uruguay: Ruleset) -> None:
    quiet = diff(menos, uruguay, witnesses=False)
    assert quiet.witnesses == () and quiet.searched == {}
    assert set(quiet.rules.keys()) == {("wilds", "cards"), ("values", "penalty")}


def test_deals_give_the_play_statistics(menos: Ruleset, uruguay: Ruleset) -> None:
    # rules.md §4 "everything else Menos": the same deck and deal, so both rulesets get the same hands.
    first = diff(menos, uruguay, witnesses=False, deals=20, seed=3, workers=1)
    assert first.stats is not None
    assert first.stats["deals"] == 20 and first.stats["seed"] == 3 and first.stats["paired"] is True
    assert first.stats == play_stats(menos, uruguay, deals=20, seed=3, workers=1).to_dict()
    assert diff(menos, uruguay, witnesses=False, deals=20, seed=3, workers=1).stats == first.stats


# ---------------------------------------------------------------- a ruleset against itself


@pytest.mark.parametrize("name", ["menos", "uruguay", "mas-pagat", "contrato", "chinchon"])
def test_a_ruleset_against_itself_is_empty(name: str) -> None:
    # style.md "Tests": a diff of a ruleset with itself is empty, loaded once or twice.
    rs = load(name)
    for other in (rs, load(name)):
        same = diff(rs, other)
        assert same.same and same.rules.changes == () and same.witnesses == ()
        assert same.to_dict()["areas"] == {}
        assert diff_text(same) == f"{name} and {name} have the same rules."


# ---------------------------------------------------------------- arguments


def test_names_are_not_rulesets(menos: Ruleset) -> None:
    # Issue 8 §2: no argument is "a name or maybe a path"; the caller loads first.
    for a, b in (("menos", menos), (menos, "rulesets/uruguay.yaml")):
        with pytest.raises(InputError) as caught:
            diff(a, b)  # type: ignore[arg-type]
        assert isinstance(caught.value, LobaError) and "str" in caught.value.message


def test_bad_statistics_arguments(menos: Ruleset, uruguay: Ruleset) -> None:
    with pytest.raises(InputError):
        diff(menos, uruguay, witnesses=False, deals=-1)
    with pytest.raises(InputError):
        diff(menos, uruguay, witnesses=False, deals=5, stats=lambda a, b: {})


def test_an_unbounded_number_of_deals_is_refused_before_any_is_dealt(menos: Ruleset, uruguay: Ruleset,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # A hundred million deals would take hours and, dealt at once, gigabytes: the count is bounded, and a
    # count past the bound is refused before the witness search or any deal (nothing is dealt here).
    import loba_dsl.compare.stats as stats

    def no_dealing(*args: object) -> object:
        raise AssertionError("dealt before the count was checked")

    monkeypatch.setattr(stats, "deal", no_dealing)
    monkeypatch.setattr(stats, "deal_chunks", no_dealing, raising=False)
    for call in (lambda: diff(menos, uruguay, deals=100_000_000),
                 lambda: play_stats(menos, uruguay, deals=100_000_000)):
        with pytest.raises(InputError) as caught:
            call()
        assert "100,000,000" in caught.value.message and f"{stats.MAX_DEALS:,}" in caught.value.message


def test_deals_are_dealt_a_chunk_at_a_time(menos: Ruleset) -> None:
    # Memory holds a chunk of hands, not every hand: the chunks are those of one seeded deal, in order.
    import loba_dsl.compare.stats as stats

    n = 2 * stats.CHUNK + 7
    chunks = list(stats.deal_chunks(menos, n, 5))
    assert [len(c) for c in chunks] == [stats.CHUNK, stats.CHUNK, 7]
    assert [h for c in chunks for h in c] == stats.deal(menos, n, 5)
    assert all(len(h) == menos.deal.cards for h in stats.deal(menos, n, 5))  # rules.md §1: nine cards each


def test_the_facades_budget_is_what_diff_takes(menos: Ruleset, uruguay: Ruleset) -> None:
    # loba_dsl.Budget, the budget of every search, bounds the witness search too: its seconds the time, its
    # steps the examples tried.  rules.md §4 uruguay: the 2s become wild and A/2 change value (menos §1).
    import loba_dsl as loba

    timed = loba.diff(menos, uruguay, budget=loba.Budget(seconds=60))
    assert not timed.same and timed.witnesses
    assert timed.to_dict() == diff(menos, uruguay, budget=60.0).to_dict()
    one = loba.diff(menos, uruguay, budget=loba.Budget(steps=1))
    assert one.stopped and set(one.stopped.values()) == {"1 examples"}
    assert len(one.witnesses) <= 1
    for wrong in ("fast", True, -1.0):
        with pytest.raises(InputError):
            loba.diff(menos, uruguay, budget=wrong)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the layout (issue 8 §6)

ORDER = ["records", "rules", "witness_search", "witness", "stats", "report", "__init__"]
"""The modules of loba_dsl.compare, in the one direction data flows: each may import only those before it."""


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """Every ``from loba_dsl... import names`` in a module, at any depth (function-local ones too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.module, [a.name for a in node.names]) for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("loba_dsl")]


def test_diff_modules_import_one_way_and_nothing_private() -> None:
    folder = Path(loba_dsl.compare.__file__).parent
    assert sorted(p.stem for p in folder.glob("*.py")) == sorted(ORDER)
    for i, stem in enumerate(ORDER):
        path = folder / f"{stem}.py"
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 600, stem
        for module, names in _imports(path):
            private = [n for n in names if n.startswith("_")]
            assert not private, f"{stem} imports {private} from {module}"
            if module == "loba_dsl.compare" or module.startswith("loba_dsl.compare."):
                target = module.removeprefix("loba_dsl.compare").lstrip(".") or "__init__"
                assert target in ORDER[:i], f"{stem} imports {module}: against the flow"
