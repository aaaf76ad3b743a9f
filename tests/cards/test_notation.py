"""Card notation (loba_dsl.cards.notation): every expected value comes from rules.md §5 (card notation),
§1 (the Menos deck, seed 004) and §4 (sin-jokers; the chinchon row's Spanish deck)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loba_dsl.cards.deck import Card, Deck, Rank, Suit
from loba_dsl.cards.notation import (
    MAX_ERRORS,
    MAX_HINTED_TOKEN,
    MAX_SHOWN_TOKEN,
    Notation,
    ParsedCards,
    Span,
    check_copies,
)
from loba_dsl.errors import InputError, LobaError, LobaErrors, clean

# rules.md §1 / seed 004: two 52-card decks plus 4 Jokers; ranks low to high A 2 … 10 J Q K.
# rules.md §5: suits ♠ ♥ ♦ ♣, text variants ♤ ♡ ♢ ♧, ASCII s h d c; T for ten; German B D K,
# Dutch B V H (only with an explicit language); Jokers JOKER, Joker, JK, 🃏, Italian Jolly, Spanish comodín.
FRENCH = Deck(
    suits=(
        Suit("spades", "♠", ("♤", "s")),
        Suit("hearts", "♥", ("♡", "h")),
        Suit("diamonds", "♦", ("♢", "d")),
        Suit("clubs", "♣", ("♧", "c")),
    ),
    ranks=(
        Rank("A", 1),
        *(Rank(str(n), n) for n in range(2, 10)),
        Rank("10", 10, ("T",)),
        Rank("J", 11, lang={"de": ("B",), "nl": ("B",)}),
        Rank("Q", 12, lang={"de": ("D",), "nl": ("V",)}),
        Rank("K", 13, lang={"nl": ("H",)}),
    ),
    copies=2,
    jokers=4,
    ace=0,
    joker_symbol="JOKER",
    joker_aliases=("JK", "🃏", "Joker", "Jolly", "Comodín", "Comodin"),
    languages=("en", "de", "nl", "it", "es"),
)

# rules.md §4 (sin-jokers): no Jokers, 104 cards; "JOKER in any input is an error".
NO_JOKERS = Deck(
    suits=FRENCH.suits, ranks=FRENCH.ranks, copies=2, jokers=0, ace=0,
    joker_symbol=FRENCH.joker_symbol, joker_aliases=FRENCH.joker_aliases, languages=FRENCH.languages,
)

# rules.md §4 chinchon row and §5: 40-card Spanish deck, suits oros copas espadas bastos,
# ranks 1–7, sota, caballo, rey (sota follows 7).
SPANISH = Deck(
    suits=(
        Suit("oros", "o", ("oros",)),
        Suit("copas", "c", ("copas",)),
        Suit("espadas", "e", ("espadas",)),
        Suit("bastos", "b", ("bastos",)),
    ),
    ranks=(
        *(Rank(str(n), n) for n in range(1, 8)),
        Rank("S", 10, ("10", "sota")),
        Rank("C", 11, ("11", "caballo")),
        Rank("R", 12, ("12", "rey")),
    ),
    copies=1,
    jokers=0,
    ace=0,
)

EN = Notation(FRENCH)


def card(deck: Deck, rank: str, suit: str) -> Card:
    """The code of a natural card, by the rank and suit keys of the rules (not via the notation)."""
    return deck.code(deck.rank_index[rank], deck.suit_index[suit])


def errors_of(exc: LobaError) -> tuple[LobaError, ...]:
    return exc.errors if isinstance(exc, LobaErrors) else (exc,)


# --- spellings (rules.md §5) ---------------------------------------------------------------------

SPELLINGS = [
    ("A♠", "A", "spades"), ("A♤", "A", "spades"), ("A♠\ufe0f", "A", "spades"), ("A♠\ufe0e", "A", "spades"),
    ("As", "A", "spades"), ("AS", "A", "spades"), ("as", "A", "spades"), ("aS", "A", "spades"),
    ("10♥", "10", "hearts"), ("10♡", "10", "hearts"), ("10♥️", "10", "hearts"), ("10h", "10", "hearts"),
    ("10H", "10", "hearts"), ("T♥", "10", "hearts"), ("th", "10", "hearts"), ("Th", "10", "hearts"),
    ("Q♦", "Q", "diamonds"), ("Q♢", "Q", "diamonds"), ("qd", "Q", "diamonds"), ("QD", "Q", "diamonds"),
    ("K♣", "K", "clubs"), ("K♧", "K", "clubs"), ("kc", "K", "clubs"), ("J♣️", "J", "clubs"),
    ("7♠", "7", "spades"), ("10S", "10", "spades"), ("kh", "K", "hearts"), ("2♦", "2", "diamonds"),
]


@pytest.mark.parametrize(("text", "rank", "suit"), SPELLINGS)
def test_every_card_spelling(text: str, rank: str, suit: str) -> None:
    # rules.md §5: rank first, then the suit; symbols, white forms, emoji, ASCII letters, T for ten.
    expected = (card(FRENCH, rank, suit),)
    assert EN.parse_codes(text) == expected
    assert EN.parse(text).cards == expected


@pytest.mark.parametrize(
    "text", ["JOKER", "Joker", "joker", "jOkEr", "JK", "jk", "Jk", "🃏", "Jolly", "JOLLY", "Comodín",
             "comodín", "COMODÍN", "Comodin", "Comodi\u0301n"],
)
def test_joker_spellings(text: str) -> None:
    # rules.md §5: JOKER, Joker, JK, 🃏; Italian Jolly, Spanish comodín (any case; NFC for the accent).
    assert EN.parse_codes(text) == (FRENCH.joker_code,)
    assert EN.parse(text).cards == (FRENCH.joker_code,)


def test_separators_spaces_commas_hyphens_newlines() -> None:
    # Seed 004 writes melds as "7♠, 7♥, 7♦" and "A-2-3": commas and hyphens separate like spaces.
    text = " A♠ 2♠,3♠-4♠\n5♠\t6♠ , - 7♠\r\n8♠,\n"
    expected = tuple(card(FRENCH, r, "spades") for r in "A2345678")
    assert EN.parse_codes(text) == expected
    assert EN.parse(text).cards == expected
    assert EN.parse_codes("") == ()
    assert EN.parse(" ,-\n") == ParsedCards((), ())


def test_two_copies_are_two_cards() -> None:
    # rules.md §5: with two decks `7♠ 7♠` is two distinct physical cards, never one.
    seven = card(FRENCH, "7", "spades")
    parsed = EN.parse("7♠ 7♠")
    assert parsed.cards == (seven, seven)
    check_copies(parsed, FRENCH, ruleset="menos")  # 2 copies allowed (rules.md §1: 2 × 52)


def test_spans_are_one_based_characters() -> None:
    parsed = EN.parse("A♠  10♥️\n 🃏")
    assert parsed.spans == (Span(1, 1, 2), Span(1, 5, 4), Span(2, 2, 1))


def test_format_prints_canonical_names() -> None:
    # rules.md §5: the canonical forms are the symbols (`10♠`, `JOKER`).
    assert EN.format(EN.parse_codes("as, t♡-jk 7♧ Comodín")) == "A♠ 10♥ JOKER 7♣ JOKER"
    assert EN.format([]) == ""
    with pytest.raises(ValueError):
        EN.format([FRENCH.joker_code + 1])
    with pytest.raises(ValueError):
        EN.format([-1])


# --- languages (rules.md §5: language letters need an explicit choice, never a guess) --------------


def test_german_and_dutch_letters_with_lang() -> None:
    # German B D K = Bube, Dame, König; Dutch B V H = boer, vrouw, heer.
    jack, queen, king = card(FRENCH, "J", "spades"), card(FRENCH, "Q", "hearts"), card(FRENCH, "K", "clubs")
    assert Notation(FRENCH, "de").parse_codes("B♠ D♥ K♣") == (jack, queen, king)
    assert Notation(FRENCH, "nl").parse_codes("B♠ V♥ H♣") == (jack, queen, king)
    # Collisions named in §5: H is a Dutch King and hearts, D a German Queen and diamonds.
    assert Notation(FRENCH, "nl").parse_codes("Hh") == (card(FRENCH, "K", "hearts"),)
    assert Notation(FRENCH, "de").parse_codes("Dd") == (card(FRENCH, "Q", "diamonds"),)
    # Italian writes J Q K like English (§5).
    assert Notation(FRENCH, "it").parse_codes("J♠ Q♥ K♣") == (jack, queen, king)


def test_language_letters_need_the_language() -> None:
    with pytest.raises(LobaError) as raised:
        EN.parse("B♠ H♣ D♦")
    hints = [e.hint for e in errors_of(raised.value)]
    assert hints == [
        "'B' is a rank only with --lang de or nl",
        "'H' is a rank only with --lang nl",
        "'D' is a rank only with --lang de",
    ]
    with pytest.raises(LobaError) as raised:
        Notation(FRENCH, "de").parse("V♥")  # V is Dutch only
    assert raised.value.hint == "'V' is a rank only with --lang nl"


def test_unknown_language() -> None:
    with pytest.raises(InputError) as raised:
        Notation(FRENCH, "fr")
    assert "'fr'" in raised.value.message
    assert raised.value.hint is not None
    for lang in FRENCH.languages:
        assert lang in raised.value.hint


# --- errors ----------------------------------------------------------------------------------------


def test_every_bad_token_reported_at_once() -> None:
    text = "A♠ X♠ 2♠\n  JOKR 3♠ Zz"
    with pytest.raises(LobaErrors) as raised:
        EN.parse(text, source="hand.txt")
    where = [(e.location.line, e.location.column, e.location.length, e.location.text)
             for e in raised.value.errors if e.location is not None]
    assert where == [(1, 4, 2, "A♠ X♠ 2♠"), (2, 3, 4, "  JOKR 3♠ Zz"), (2, 11, 2, "  JOKR 3♠ Zz")]
    assert [e.message for e in raised.value.errors] == [
        "unknown card 'X♠'", "unknown card 'JOKR'", "unknown card 'Zz'"]
    assert all(isinstance(e, InputError) and e.hint for e in raised.value.errors)
    assert str(raised.value.errors[1].location) == "hand.txt:2:3"
    # The fast path reports the same errors.
    with pytest.raises(LobaErrors) as fast:
        EN.parse_codes(text)
    assert [e.message for e in fast.value.errors] == [e.message for e in raised.value.errors]


def test_first_line_offsets_lines() -> None:
    with pytest.raises(InputError) as raised:
        EN.parse("A♠\n♠♠", source="game.txt", first_line=5)
    assert str(raised.value.location) == "game.txt:6:1"


def test_joker_typo_suggestion() -> None:
    with pytest.raises(InputError) as raised:
        EN.parse("JOKR")
    assert raised.value.message == "unknown card 'JOKR'"
    assert raised.value.hint == "did you mean 'JOKER'?"


@pytest.mark.parametrize(
    ("text", "meant"), [("7spades", "7♠"), ("10♠♠", "10♠"), ("♠7", "7♠"), ("1♣", "A♣"), ("7♠7♥", "7♠ 7♥")],
)
def test_suggestions_for_near_misses(text: str, meant: str) -> None:
    # A good rank with a bad suit, a suit written first (§5: rank then suit), 1 for the ace,
    # two cards glued together: the hint names the card(s) meant.
    with pytest.raises(InputError) as raised:
        EN.parse(text)
    assert raised.value.hint is not None and f"'{meant}'" in raised.value.hint


def test_bad_suit_lists_the_suits() -> None:
    with pytest.raises(InputError) as raised:
        EN.parse("7x")
    assert raised.value.hint is not None and "♠ ♥ ♦ ♣" in raised.value.hint


def test_no_joker_symbol_means_no_joker() -> None:
    deck = Deck(suits=FRENCH.suits, ranks=FRENCH.ranks, copies=2, jokers=0, joker_symbol="")
    with pytest.raises(InputError):
        Notation(deck).parse("JOKER")


def test_ambiguous_deck_data_is_a_value_error() -> None:
    two_suits_s = (Suit("spades", "♠", ("s",)), Suit("stars", "★", ("s",)))
    with pytest.raises(ValueError):
        Notation(Deck(suits=two_suits_s, ranks=(Rank("A", 1),)))
    # "1" + "1s" and "11" + "s" spell the same token for two different cards.
    glued = Deck(suits=(Suit("a", "s"), Suit("b", "1s")), ranks=(Rank("1", 1), Rank("11", 11)))
    with pytest.raises(ValueError):
        Notation(glued)
    with pytest.raises(ValueError):
        Notation(Deck(suits=FRENCH.suits, ranks=FRENCH.ranks, jokers=2, joker_symbol=""))
    with pytest.raises(ValueError):
        Notation(Deck(suits=(Suit("spades", "♠", ("s p",)),), ranks=FRENCH.ranks))


# --- copies (rules.md §5: two decks, two copies; §4 sin-jokers: JOKER is an error) ----------------


def test_three_copies_with_two_decks() -> None:
    text = "7♠ K♥ 7♠\n7♠ K♥ K♥"
    with pytest.raises(LobaErrors) as raised:
        check_copies(EN.parse(text), FRENCH, text=text, ruleset="menos")
    first, second = raised.value.errors
    assert first.message == "7♠ appears 3 times but the deck of 'menos' holds 2 copies"
    assert first.location is not None
    assert (first.location.line, first.location.column, first.location.text) == (2, 1, "7♠ K♥ K♥")
    assert second.message == "K♥ appears 3 times but the deck of 'menos' holds 2 copies"
    assert second.location is not None and (second.location.line, second.location.column) == (2, 7)


def test_jokers_limit_and_no_joker_deck() -> None:
    # rules.md §1: 4 Jokers; §4 sin-jokers: none.
    check_copies(EN.parse("JOKER JK 🃏 Joker"), FRENCH, ruleset="menos")
    with pytest.raises(InputError) as raised:
        check_copies(EN.parse("JOKER JK 🃏 Joker Jolly"), FRENCH, ruleset="menos")
    assert raised.value.message == "JOKER appears 5 times but the deck of 'menos' holds 4 copies"
    text = "A♠ JOKER 2♠ JK"
    parsed = Notation(NO_JOKERS).parse(text)  # a Joker spelling is still read (to be named)
    with pytest.raises(InputError) as raised:
        check_copies(parsed, NO_JOKERS, text=text, ruleset="sin-jokers")
    assert raised.value.message == "the deck of 'sin-jokers' has no JOKER"
    assert raised.value.location is not None and raised.value.location.column == 4


# --- the Spanish deck (rules.md §4 chinchon row, §5) -------------------------------------------------


def test_spanish_deck() -> None:
    es = Notation(SPANISH)
    assert es.parse_codes("1o 7c So 10o Cb 11b caballoespadas Re 12e reyoros 1OROS") == (
        card(SPANISH, "1", "oros"), card(SPANISH, "7", "copas"), card(SPANISH, "S", "oros"),
        card(SPANISH, "S", "oros"), card(SPANISH, "C", "bastos"), card(SPANISH, "C", "bastos"),
        card(SPANISH, "C", "espadas"), card(SPANISH, "R", "espadas"), card(SPANISH, "R", "espadas"),
        card(SPANISH, "R", "oros"), card(SPANISH, "1", "oros"),
    )
    assert es.format([card(SPANISH, "S", "oros"), card(SPANISH, "R", "bastos")]) == "So Rb"
    with pytest.raises(InputError) as raised:
        es.parse("1o K♣")  # a French card is no card of the Spanish deck
    assert raised.value.message == "unknown card 'K♣'"
    assert raised.value.location is not None and raised.value.location.column == 4


def test_a_rank_and_its_suit_as_two_words() -> None:
    # rules.md §4/§5: the Spanish deck's suits are words (oros, copas, espadas, bastos): "1 oros" is one card,
    # its span covering both words.
    es = Notation(SPANISH)
    parsed = es.parse("1 oros, sota copas\nrey bastos")
    assert parsed.cards == (card(SPANISH, "1", "oros"), card(SPANISH, "S", "copas"), card(SPANISH, "R", "bastos"))
    assert parsed.spans == (Span(1, 1, 6), Span(1, 9, 10), Span(2, 1, 10))
    assert es.parse_codes("7 oros 7o") == (card(SPANISH, "7", "oros"),) * 2


def test_spaced_spanish_suit_names_with_lang_es() -> None:
    # The shipped menos deck names its suits in Spanish (picas, corazones, diamantes, tréboles) for --lang es;
    # rules.md §1: 7♠ 7♥ 7♦ is a pierna (3 cards of one rank in 3 different suits).
    from loba_dsl import check, load

    menos = load("menos")
    result = check("7 picas 7 corazones 7 diamantes", menos, lang="es")
    assert result.valid and result.kind == "pierna" and result.card_names() == ["7♠", "7♥", "7♦"]
    assert menos.notation("es").parse_codes("7 picas, 7picas 7 ♠") == menos.notation().parse_codes("7♠ 7♠ 7♠")
    # Without --lang es the words are no suits: one error for each rank and word, saying which language.
    with pytest.raises(LobaErrors) as raised:
        menos.notation().parse("7 picas 7 corazones")
    assert [e.message for e in raised.value.errors] == ["unknown card '7 picas'", "unknown card '7 corazones'"]
    assert raised.value.errors[0].hint == "'picas' is a suit only with --lang es"
    assert raised.value.errors[1].location is not None and raised.value.errors[1].location.column == 9


# --- properties ------------------------------------------------------------------------------------

NOTATIONS = [(FRENCH, EN), (FRENCH, Notation(FRENCH, "de")), (FRENCH, Notation(FRENCH, "nl")),
             (SPANISH, Notation(SPANISH))]


@given(st.sampled_from(NOTATIONS).flatmap(
    lambda dn: st.tuples(st.just(dn[1]), st.lists(st.sampled_from(list(dn[0].all_codes())), max_size=30))))
def test_parse_format_roundtrip(case: tuple[Notation, list[Card]]) -> None:
    notation, cards = case
    printed = notation.format(cards)
    assert notation.parse_codes(printed) == tuple(cards)
    assert notation.parse(printed).cards == tuple(cards)
    assert notation.format(notation.parse_codes(printed)) == printed


# rules.md §5 spellings, independently of the deck object.
RANK_SPELLINGS = {"A": ["A", "a"], "10": ["10", "T", "t"], "J": ["J", "j"], "Q": ["Q", "q"], "K": ["K", "k"],
                  **{str(n): [str(n)] for n in range(2, 10)}}
SUIT_SPELLINGS = {"spades": ["♠", "♤", "♠\ufe0f", "s", "S"], "hearts": ["♥", "♡", "♥️", "h", "H"],
                  "diamonds": ["♦", "♢", "d", "D"], "clubs": ["♣", "♧", "c", "C"]}
JOKER_SPELLINGS = ["JOKER", "Joker", "JK", "🃏", "Jolly", "comodín"]


@st.composite
def spelled_hand(draw: st.DrawFn) -> tuple[str, tuple[Card, ...]]:
    parts: list[str] = []
    cards: list[Card] = []
    for _ in range(draw(st.integers(0, 12))):
        if draw(st.integers(0, 9)) == 0:
            parts.append(draw(st.sampled_from(JOKER_SPELLINGS)))
            cards.append(FRENCH.joker_code)
        else:
            rank = draw(st.sampled_from(sorted(RANK_SPELLINGS)))
            suit = draw(st.sampled_from(sorted(SUIT_SPELLINGS)))
            parts.append(draw(st.sampled_from(RANK_SPELLINGS[rank])))
            parts.append(draw(st.sampled_from(SUIT_SPELLINGS[suit])))
            cards.append(card(FRENCH, rank, suit))
        parts.append(draw(st.sampled_from([" ", ",", "-", "\n", ", ", " - ", "\t"])))
    return "".join(parts), tuple(cards)


@given(spelled_hand())
def test_any_spelling_any_separator(hand: tuple[str, tuple[Card, ...]]) -> None:
    text, cards = hand
    assert EN.parse_codes(text) == cards
    parsed = EN.parse(text)
    assert parsed.cards == cards
    lines = text.split("\n")
    for span in parsed.spans:  # every span covers exactly one token
        token = lines[span.line - 1][span.column - 1:span.column - 1 + span.length]
        assert token and not re.search(r"[\s,\-]", token)


@given(st.one_of(st.text(), st.text(alphabet=st.sampled_from(list("A♠♥10JKsh,- \n\ufe0fJOKER🃏BxÍ\u0301")))))
def test_only_our_errors_escape(text: str) -> None:
    # style.md: fuzz the card parser; only the LobaError family may escape.
    try:
        parsed = EN.parse(text)
    except LobaError as exc:
        assert isinstance(exc, InputError) or (isinstance(exc, LobaErrors) and exc.is_input_error)
        errors = errors_of(exc)
        for error in errors:
            loc = error.location
            assert loc is not None
            if error.message.startswith("… and "):  # issue 9: past MAX_ERRORS bad tokens, one summary
                assert error is errors[-1] and len(errors) == MAX_ERRORS + 1
                continue
            assert loc.text is not None
            token = loc.text[loc.column - 1:loc.column - 1 + loc.length]
            if len(token) > MAX_HINTED_TOKEN:  # issue 9: a long token is quoted in part, with its length
                assert error.message.startswith(f"unknown card '{clean(token[:MAX_SHOWN_TOKEN])}")
                assert error.message.endswith(f"({len(token)} characters)")
            else:  # issue 9: control characters never reach a terminal
                assert error.message == f"unknown card '{clean(token)}'"
        with pytest.raises(LobaError):
            EN.parse_codes(text)
    else:
        assert EN.parse_codes(text) == parsed.cards
