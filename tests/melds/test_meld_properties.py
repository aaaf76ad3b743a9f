"""Property tests of meld checking over every shipped ruleset (Hypothesis).

What must hold, and where the rules say so:

- a meld is a multiset of cards: the order they are written in never changes whether they are a
  legal meld, which kind, or how many points (rules.md §1: a pierna is "3 cards of one rank", an
  escalera "3 or more cards of one suit in consecutive rank order": nothing depends on the order
  the cards were given in; §3: points are the maximum over every legal reading);
- the rules name no suit: renaming the suits never changes the verdict (rules.md §1, §3);
- parse -> print -> parse is the identity (rules.md §5; style.md "Tests");
- a legal reading is an honest one: naturals stand for themselves, only the ruleset's wild cards
  are wild, a run's cards stand for consecutive ranks of one suit, a set's for one rank (§1, §3);
- no meld of a kind has more cards than the kind's maximum (§1: at most 13 cards in an escalera,
  a pierna is 3 or 4 cards; §3: a pierna is 3–6 cards);
- a legal Menos escalera stays legal when the next card of its suit is laid off at its top
  (§1 lay-off: "extend an escalera at either end").
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.dsl import ast as A
from loba_dsl.melds.check import CheckResult, check_cards
from loba_dsl.rules.documents import shipped_names
from loba_dsl.rules.loading import load, load_file
from loba_dsl.rules.model import Ruleset

SHIPPED = shipped_names()
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

@functools.cache
def ruleset(spec: str) -> Ruleset:
    """Each ruleset (a shipped name or a .yaml path) compiled once per test run."""
    return load_file(spec, cached=False) if spec.endswith(".yaml") else load(spec, cached=False)


def test_every_variant_of_rules_md_is_shipped() -> None:
    # rules.md §1–§4 and issue 2 ("exactly these names"): the properties below run over all of them.
    assert set(SHIPPED) >= {
        "menos", "mas", "mas-pagat", "picos", "pierna-de-cuatro", "mas-pierna-de-cuatro",
        "sin-jokers", "bazas", "uruguay", "contrato", "chinchon",
    }


# ---------------------------------------------------------------- strategies


def physical_cards(deck: Deck) -> tuple[Card, ...]:
    """Every physical card of the deck: each natural `copies` times, the Joker `jokers` times (§5)."""
    naturals = [c for c in range(deck.joker_code) for _ in range(deck.copies)]
    return (*naturals, *([deck.joker_code] * deck.jokers))


def within_limits(cards: tuple[Card, ...], deck: Deck) -> bool:
    return all(n <= deck.limit(c) for c, n in Counter(cards).items())


@st.composite
def meld_like(draw: st.DrawFn, spec: str, min_size: int = 3, max_size: int = 7) -> tuple[Card, ...]:
    """A multiset of cards within the deck's copy limits, often a legal meld and often nearly one.

    The ruleset is named, not passed: Hypothesis prints a strategy's arguments in full when a draw is
    rejected, and a whole Ruleset is 30 kB (its warning about that is an error in this suite).

    Three families: any cards at all; a run of one suit with some positions taken by wild cards
    (the ace may sit above the top rank), sometimes with one card spoilt; cards of one rank in
    any suits, mixed with wild cards.  The result is shuffled.
    """
    rs = ruleset(spec)
    deck = rs.deck
    physical = physical_cards(deck)
    wild_idx = [i for i, c in enumerate(physical) if c in rs.wilds.cards]
    n = draw(st.integers(min_size, max_size))
    family = draw(st.sampled_from(("any", "run", "set")))
    cards: tuple[Card, ...]
    if family == "any":
        idx = draw(st.lists(st.integers(0, len(physical) - 1), min_size=n, max_size=n, unique=True))
        cards = tuple(physical[i] for i in idx)
    elif family == "run":
        suit = draw(st.integers(0, deck.n_suits - 1))
        top = deck.n_ranks if deck.ace is not None else deck.n_ranks - 1  # n_ranks: the ace played high
        span = min(n, top + 1)
        start = draw(st.integers(0, top + 1 - span))
        ranks = [ace_or(deck, p) for p in range(start, start + span)]
        wild_at = draw(st.lists(st.integers(0, span - 1), max_size=min(3, len(wild_idx)), unique=True))
        wilds = draw(st.lists(st.sampled_from(wild_idx), min_size=len(wild_at), max_size=len(wild_at),
                              unique=True)) if wild_idx else []
        out = [deck.code(r, suit) for r in ranks]
        for q, i in zip(wild_at, wilds, strict=False):
            out[q] = physical[i]
        if draw(st.integers(0, 3)) == 0:  # spoil one card
            out[draw(st.integers(0, len(out) - 1))] = physical[draw(st.integers(0, len(physical) - 1))]
        cards = tuple(out)
    else:
        rank = draw(st.integers(0, deck.n_ranks - 1))
        pool = [i for i, c in enumerate(physical) if (c != deck.joker_code and deck.rank_of(c) == rank)]
        pool += [i for i in wild_idx if i not in pool] if draw(st.booleans()) else []
        if len(pool) < n:
            pool = list(range(len(physical)))
        idx = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))
        cards = tuple(physical[i] for i in idx)
    assume(within_limits(cards, deck))
    return tuple(draw(st.permutations(cards)))


def ace_or(deck: Deck, position: int) -> int:
    """The rank at a run position: position ``n_ranks`` is the ace played above the top rank."""
    return deck.ace if position == deck.n_ranks and deck.ace is not None else position


def verdict(result: CheckResult) -> tuple[bool, str | None, int | None]:
    return result.valid, result.kind, result.points


def test_strategy_reaches_legal_and_illegal_melds() -> None:
    """The properties below are only meaningful if the strategy yields both verdicts for Menos."""
    rs = ruleset("menos")
    seen: set[bool] = set()

    @given(meld_like(rs.name))
    @settings(max_examples=200, deadline=None, database=None)
    def collect(cards: tuple[Card, ...]) -> None:
        seen.add(check_cards(cards, rs).valid)

    collect()
    assert seen == {True, False}


# ---------------------------------------------------------------- (a) order


@pytest.mark.parametrize("name", SHIPPED)
def test_card_order_never_changes_the_verdict(name: str) -> None:
    rs = ruleset(name)

    @given(st.data())
    @FAST
    def prop(data: st.DataObject) -> None:
        cards = data.draw(meld_like(rs.name), label="cards")
        shuffled = data.draw(st.permutations(cards), label="shuffled")
        assert verdict(check_cards(tuple(shuffled), rs)) == verdict(check_cards(cards, rs))

    prop()


# ---------------------------------------------------------------- (b) suits


def relabel(cards: tuple[Card, ...], deck: Deck, perm: list[int]) -> tuple[Card, ...]:
    """Rename suit i to suit perm[i] on every natural card; Jokers stay Jokers."""
    return tuple(c if c == deck.joker_code else deck.code(deck.rank_of(c), perm[deck.suit_of(c)]) for c in cards)


@pytest.mark.parametrize("name", SHIPPED)
def test_renaming_suits_never_changes_the_verdict(name: str) -> None:
    rs = ruleset(name)

    @given(meld_like(rs.name), st.permutations(range(rs.deck.n_suits)))
    @FAST
    def prop(cards: tuple[Card, ...], perm: list[int]) -> None:
        renamed = relabel(cards, rs.deck, perm)
        assert verdict(check_cards(renamed, rs)) == verdict(check_cards(cards, rs))

    prop()


# ---------------------------------------------------------------- (c) notation


@st.composite
def spelled(draw: st.DrawFn, spec: str) -> tuple[tuple[Card, ...], str]:
    """Cards, and a text writing them with any of the deck's own spellings and separators (§5)."""
    rs = ruleset(spec)
    deck = rs.deck
    cards = draw(meld_like(spec, 1, 9))
    words = []
    for c in cards:
        if c == deck.joker_code:
            words.append(draw(st.sampled_from((deck.joker_symbol, *deck.joker_aliases))))
            continue
        rank, suit = deck.ranks[deck.rank_of(c)], deck.suits[deck.suit_of(c)]
        suit_words = [suit.symbol, *suit.aliases]
        suit_words += [w + "\ufe0f" for w in suit_words if not w.isascii()]  # emoji presentation form
        words.append(draw(st.sampled_from((rank.key, *rank.aliases))) + draw(st.sampled_from(suit_words)))
    seps = draw(st.lists(st.sampled_from((" ", ", ", ",", "-", " - ", "  ", "\t")),
                         min_size=len(words), max_size=len(words)))
    text = "".join(w + s for w, s in zip(words, seps, strict=True))
    return cards, text


@pytest.mark.parametrize("name", SHIPPED)
def test_parse_print_parse_is_the_identity(name: str) -> None:
    rs = ruleset(name)
    notation = rs.notation()

    @given(spelled(rs.name))
    @FAST
    def prop(case: tuple[tuple[Card, ...], str]) -> None:
        cards, text = case
        parsed = notation.parse_codes(text)
        assert parsed == cards  # every spelling of the deck reads as the card it spells
        assert notation.parse(text).cards == cards  # the slow, located path agrees
        printed = notation.format(parsed)
        assert notation.parse_codes(printed) == cards
        assert notation.format(notation.parse_codes(printed)) == printed  # the canonical form is a fixed point
        assert len(printed.split(" ")) == len(cards)

    prop()


# ---------------------------------------------------------------- (d) readings


def consecutive(ranks: list[int], deck: Deck, ace_high: bool) -> bool:
    """Ranks in sequence order; the ace may follow the top rank where the shape plays it high."""
    if all(b == a + 1 for a, b in itertools.pairwise(ranks)):
        return True
    if ace_high and deck.ace is not None:
        pos = [deck.n_ranks if r == deck.ace else r for r in ranks]
        return all(b == a + 1 for a, b in itertools.pairwise(pos))
    return False


@pytest.mark.parametrize("name", SHIPPED)
def test_a_legal_reading_is_consistent(name: str) -> None:
    rs = ruleset(name)
    deck = rs.deck

    @given(meld_like(rs.name))
    @FAST
    def prop(cards: tuple[Card, ...]) -> None:
        result = check_cards(cards, rs)
        best = result.best
        if best is None:
            assert not result.valid and result.reasons()  # rules.md issue 2: every reason it is not legal
            return
        n = len(cards)
        assert len(best.stands) == n and len(best.wild) == n  # one card stood for per input card
        assert sorted(best.order) == list(range(n))  # every input card placed exactly once
        for q, i in enumerate(best.order):
            card, stands = cards[i], best.stands[q]
            assert stands != deck.joker_code  # a wild stands for a natural card of the deck
            if best.wild[q]:
                assert card in rs.wilds.cards  # only the ruleset's wild cards are wild
            else:
                assert card != deck.joker_code  # a Joker is always wild (§1)
                assert stands == card  # a natural stands for itself
        ranks = [deck.rank_of(c) for c in best.stands]
        suits = {deck.suit_of(c) for c in best.stands}
        kind = rs.kind(best.kind)
        if kind.is_run:
            modes = [c.mode for c in kind.shape.clauses if isinstance(c, A.Ace)]
            ace_high = bool(modes) and modes[0] in ("high", "either")
            assert len(suits) == 1  # one suit (§1 escalera)
            assert consecutive(ranks, deck, ace_high), deck.names_of(best.stands)
        else:
            assert len(set(ranks)) == 1  # one rank (§1 pierna)

    prop()


# ---------------------------------------------------------------- (e) maximum size


def only_kind_text(base: str, kind: str, others: list[str]) -> str:
    """A ruleset extending ``base`` with every other meld kind removed (``null``), so that the
    verdict speaks of ``kind`` alone; formulas and requirements that name the removed kinds are
    replaced by neutral ones (they play no part in checking a meld)."""
    removed = "".join(f"  {o}: null\n" for o in others)
    return (
        f"name: only-{kind.lower()}\n"
        f"extends: {base}\n"
        f"melds:\n{removed}"
        "scoring:\n  round: '0'\n"
        "requirements:\n  opening: null\n  contracts: null\n"
        "match:\n  instant_win: null\n"
    )


# A house ruleset whose maxima bind where the shipped ones are bounded by the deck anyway:
# without the size limit, 4 distinct suits would be a "set 3..3" and 6 in a row a "run 3..5".
TIGHT = """\
name: tight
extends: menos
melds:
  trio:
    shape: set 3..3, suits distinct, no wilds
  corta:
    shape: run 3..5, ace low, wilds <= 1
  pierna: null
  escalera: null
"""


@pytest.fixture(scope="module")
def single_kind_rulesets(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Ruleset]:
    folder: Path = tmp_path_factory.mktemp("single-kind")
    (folder / "tight.yaml").write_text(TIGHT, encoding="utf-8")
    out: dict[tuple[str, str], Ruleset] = {}
    for base in (*SHIPPED, "tight.yaml"):
        spec = str(folder / base) if base.endswith(".yaml") else base
        kinds = [k.name for k in ruleset(spec).kinds]
        for kind in kinds:
            path = folder / f"{base.removesuffix('.yaml')}-only-{kind}.yaml"
            path.write_text(only_kind_text(base, kind, [k for k in kinds if k != kind]), encoding="utf-8")
            out[(base, kind)] = load_file(path, cached=False)
    return out


class Shown:
    """A ruleset handed to a strategy, shown by its name (see :func:`meld_like` on why)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs

    def __repr__(self) -> str:
        return f"<ruleset {self.rs.name}>"


@st.composite
def kind_like(draw: st.DrawFn, shown: Shown, size: int) -> tuple[Card, ...]:
    """``size`` cards, as close to the ruleset's only kind as the deck allows."""
    rs = shown.rs
    deck = rs.deck
    kind = rs.kinds[0]
    physical = physical_cards(deck)
    wild_idx = [i for i, c in enumerate(physical) if c in rs.wilds.cards]
    use_wilds = draw(st.booleans())
    if kind.is_run:
        suit = draw(st.integers(0, deck.n_suits - 1))
        if size <= deck.n_ranks:
            start = draw(st.integers(0, deck.n_ranks - size))
            window = [deck.code(r, suit) for r in range(start, start + size)]
            gaps = draw(st.lists(st.integers(0, size - 1), max_size=min(2, len(wild_idx)), unique=True))
            fill = draw(st.lists(st.sampled_from(wild_idx), min_size=len(gaps), max_size=len(gaps),
                                 unique=True)) if (wild_idx and use_wilds) else []
            for q, i in zip(gaps, fill, strict=False):
                window[q] = physical[i]
            cards = tuple(window)
            assume(within_limits(cards, deck))
            return cards
        pool = [i for i, c in enumerate(physical) if c != deck.joker_code and deck.suit_of(c) == suit]
    else:
        rank = draw(st.integers(0, deck.n_ranks - 1))
        pool = [i for i, c in enumerate(physical) if c != deck.joker_code and deck.rank_of(c) == rank]
    if use_wilds:
        pool += [i for i in wild_idx if i not in pool]
    rest = [i for i in range(len(physical)) if i not in pool]
    idx = draw(st.lists(st.sampled_from(pool), min_size=min(size, len(pool)), max_size=min(size, len(pool)),
                        unique=True))
    if len(idx) < size:
        idx += draw(st.lists(st.sampled_from(rest), min_size=size - len(idx), max_size=size - len(idx),
                             unique=True))
    return tuple(physical[i] for i in idx)


def kinds_of(base: str) -> list[tuple[str, str]]:
    if base == "tight.yaml":
        return [(base, "trio"), (base, "corta")]
    return [(base, k.name) for k in ruleset(base).kinds]


@pytest.mark.parametrize(("base", "kind"), [bk for b in (*SHIPPED, "tight.yaml") for bk in kinds_of(b)])
def test_one_card_over_the_maximum_is_never_legal(
    base: str, kind: str, single_kind_rulesets: dict[tuple[str, str], Ruleset]
) -> None:
    rs = single_kind_rulesets[(base, kind)]
    assert [k.name for k in rs.kinds] == [kind]
    top = rs.kinds[0].shape.max_size
    assert top is not None  # every kind of rules.md has a maximum (§1, §3, §4)

    @given(kind_like(Shown(rs), top), kind_like(Shown(rs), top + 1))
    @settings(max_examples=80, deadline=None)
    def prop(at_max: tuple[Card, ...], over: tuple[Card, ...]) -> None:
        assert not check_cards(over, rs).valid, rs.deck.names_of(over)
        check_cards(at_max, rs)  # the same construction at the maximum is checked without error

    prop()


def test_the_tight_maxima_bind(single_kind_rulesets: dict[tuple[str, str], Ruleset]) -> None:
    """Without its size limit each tight kind would accept these, so the property above can fail."""
    trio = single_kind_rulesets[("tight.yaml", "trio")]
    corta = single_kind_rulesets[("tight.yaml", "corta")]
    assert check_cards(trio.notation().parse_codes("7♠ 7♥ 7♦"), trio).valid
    assert not check_cards(trio.notation().parse_codes("7♠ 7♥ 7♦ 7♣"), trio).valid
    assert check_cards(corta.notation().parse_codes("4♣ 5♣ 6♣ 7♣ 8♣"), corta).valid
    assert not check_cards(corta.notation().parse_codes("4♣ 5♣ 6♣ 7♣ 8♣ 9♣"), corta).valid


# ---------------------------------------------------------------- (f) lay-off at the top


@st.composite
def menos_escalera(draw: st.DrawFn, deck: Deck) -> tuple[tuple[Card, ...], int, int]:
    """A legal Menos escalera by construction (§1: one suit, consecutive, ace low only, at most one
    Joker, 3–13 cards), whose top is below K and that has room for one more card: returns the cards
    (shuffled), their suit and the rank index of the top."""
    king = deck.n_ranks - 1
    length = draw(st.integers(3, 12))
    start = draw(st.integers(0, king - length))  # top = start + length - 1 <= Q
    suit = draw(st.integers(0, deck.n_suits - 1))
    cards = [deck.code(r, suit) for r in range(start, start + length)]
    if draw(st.booleans()):
        cards[draw(st.integers(0, length - 1))] = deck.joker_code
    return tuple(draw(st.permutations(cards))), suit, start + length - 1


def test_a_menos_escalera_takes_the_next_card_at_its_top() -> None:
    rs = ruleset("menos")
    deck = rs.deck

    @given(menos_escalera(deck))
    @settings(max_examples=150, deadline=None)
    def prop(case: tuple[tuple[Card, ...], int, int]) -> None:
        cards, suit, top = case
        before = check_cards(cards, rs)
        assert before.valid and before.kind == "escalera", deck.names_of(cards)
        extended = (*cards, deck.code(top + 1, suit))
        after = check_cards(extended, rs)
        assert after.valid and after.kind == "escalera", deck.names_of(extended)

    prop()
