"""Cards as people type them, read and printed from the deck's own data (rules.md §5).

A card is a rank spelling followed by a suit spelling (``A♠``, ``as``, ``T♡``,
``10♥️``) or a Joker spelling (``JOKER``, ``JK``, ``🃏``); tokens are separated by
white space, commas or hyphens.  A rank and its suit may also be two words (``7 picas``
with ``--lang es``, ``1 oros``): a rank alone is never a card, so the word after it is read
as its suit.  Every spelling of every card is put once in a dict, so parsing is one split
and one dict look-up per token; only a bad token sends the text to the slow pass that
locates every bad token at once.

>>> from loba_dsl.cards.deck import Deck, Rank, Suit
>>> deck = Deck(suits=(Suit("spades", "♠", ("♤", "s")), Suit("hearts", "♥", ("♡", "h"))),
...             ranks=(Rank("A", 1), Rank("10", 10, ("T",)), Rank("J", 11, lang={"de": ("B",)})),
...             copies=2, jokers=1, joker_aliases=("JK",), languages=("en", "de"))
>>> notation = Notation(deck)
>>> notation.format(notation.parse_codes("as, T♡-jk 10♥️"))
'A♠ 10♥ JOKER 10♥'
>>> Notation(deck, "de").format(Notation(deck, "de").parse_codes("B♠"))
'J♠'
>>> try:
...     notation.parse("A♠ B♠\\n1h")
... except LobaError as err:
...     print(err.render())
<input>:1:4: error: unknown card 'B♠' ('B' is a rank only with --lang de)
    1 | A♠ B♠
      |    ^^
<input>:2:1: error: unknown card '1h' (did you mean 'A♥'?)
    2 | 1h
      | ^^
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.errors import InputError, LobaError, Location, Said, raise_all, said, suggest

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    from loba_dsl.frozen import dataclass  # cheaper at import (issue 11)


__all__ = ["Notation", "ParsedCards", "Span", "check_copies", "normalise"]

_DASHES = ",-\u2010\u2011\u2013"  # comma, hyphen-minus, hyphen, non-breaking hyphen, en dash
_DASHES_TO_SPACE = dict.fromkeys(map(ord, _DASHES), " ")
"""``str.translate`` table: every dash a space, so that ``split()`` gives the tokens (no regular expression
to compile at start-up, issue 22)."""
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\ufeff"))  # text/emoji presentation, BOM
_SKIP = -1  # a token made only of invisible characters: not a card, not an error

MAX_HINTED_TOKEN = 32
"""A longer unknown token gets no "did you mean" search (which costs time in the token's length)."""
MAX_SHOWN_TOKEN = 40
"""An unknown token is quoted in messages up to this many characters."""
MAX_ERRORS = 20
"""Bad tokens reported one by one per text; past that, one summary error counts the rest."""


class _Token:
    """One token of a line (what ``re.finditer`` gave before: its text and where it starts and ends)."""

    __slots__ = ("_end", "_line", "_start")

    def __init__(self, line: str, start: int, end: int) -> None:
        self._line, self._start, self._end = line, start, end

    def group(self) -> str:
        return self._line[self._start:self._end]

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end


def _tokens(line: str) -> list[_Token]:
    """The tokens of ``line``: its longest runs of characters that are neither white space nor a dash.

    >>> [(t.group(), t.start(), t.end()) for t in _tokens(" A♣-2♣  ,JOKER")]
    [('A♣', 1, 3), ('2♣', 4, 6), ('JOKER', 9, 14)]
    """
    spaced = line.translate(_DASHES_TO_SPACE)
    found = []
    at = 0
    for word in spaced.split():  # str.split() and a regular expression's \s agree on what white space is
        at = spaced.find(word, at)  # only white space lies between ``at`` and the word: this is its start
        found.append(_Token(line, at, at + len(word)))
        at += len(word)
    return found


def _is_word(text: str) -> bool:
    """Whether ``text`` is one token: not empty, without white space or a dash."""
    return bool(text) and not any(ch.isspace() or ch in _DASHES for ch in text)


def normalise(spelling: str) -> str:
    """The form every spelling is compared in: no variation selectors, casefolded, NFC."""
    return unicodedata.normalize("NFC", spelling.translate(_INVISIBLE).casefold())


def _forms(spelling: str) -> set[str]:
    """Ways people commonly type a spelling, cached in the fast dict."""
    return {spelling, spelling.upper(), spelling.lower(), spelling.capitalize()}


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else said("{some} or {last}", some=", ".join(words[:-1]), last=words[-1])


@dataclass(frozen=True, slots=True)
class Span:
    """Where a card token is in the input text."""

    line: int
    """1-based."""
    column: int
    """1-based, in characters."""
    length: int


@dataclass(frozen=True, slots=True)
class ParsedCards:
    """Cards in input order, and where each one was written."""

    cards: tuple[Card, ...]
    spans: tuple[Span, ...]


class Notation:
    """Reads and prints the cards of one deck, in one language (``None``: English)."""

    def __init__(self, deck: Deck, lang: str | None = None) -> None:
        if lang is not None and lang not in deck.languages:
            known = ", ".join(deck.languages)
            did_you_mean = suggest(lang, deck.languages)
            raise InputError(
                said("unknown language '{lang}'", lang=lang),
                hint=said("{suggestion} known languages: {known}", suggestion=did_you_mean, known=known)
                if did_you_mean else said("known languages: {known}", known=known),
            )
        self.deck = deck
        self.lang = lang
        chosen = lang or "en"
        names = deck.names
        codes: dict[str, Card] = {}
        rank_sp: dict[str, int] = {}
        suit_sp: dict[str, int] = {}

        def spelling(word: str) -> str:
            key = normalise(word)
            if not _is_word(word) or not _is_word(key):
                raise ValueError(f"deck spelling {word!r} is empty or holds a separator")
            return key

        def add(key: str, code: Card) -> None:
            if codes.setdefault(key, code) != code:
                raise ValueError(f"deck spelling {key!r} names both {names[codes[key]]} and {names[code]}")

        rank_words = [(r.key, *r.aliases, *r.lang.get(chosen, ())) for r in deck.ranks]
        suit_words = [(s.symbol, *s.aliases, *s.lang.get(chosen, ())) for s in deck.suits]
        for table, all_words, kind in ((rank_sp, rank_words, "rank"), (suit_sp, suit_words, "suit")):
            for index, words in enumerate(all_words):
                for word in words:
                    if table.setdefault(spelling(word), index) != index:
                        raise ValueError(f"deck spelling {word!r} names two {kind}s")
        for rank_key, rank in rank_sp.items():
            for suit_key, suit in suit_sp.items():
                add(rank_key + suit_key, deck.code(rank, suit))
        joker_words = (deck.joker_symbol, *deck.joker_aliases) if deck.joker_symbol else ()
        if deck.jokers and not joker_words:
            raise ValueError("the deck has Jokers but no joker symbol to write them with")
        for word in joker_words:
            add(spelling(word), deck.joker_code)

        # The fast dict caches the usual raw forms, so a hot loop needs no normalisation.
        raw = [r + s for rw in rank_words for w in rw for r in _forms(w)
               for sw in suit_words for v in sw for s in (*_forms(v), v + "\ufe0f")]
        raw += [f for w in joker_words for v in (w, w + "\ufe0f") for f in _forms(v)]
        self._fast = {w: codes[normalise(w)] for w in (*codes, *raw) if normalise(w) in codes}
        self._codes = codes
        self._rank_sp = rank_sp
        self._suit_sp = suit_sp
        self._suit_words = {**{normalise(s.key): i for i, s in enumerate(deck.suits)}, **suit_sp}
        self._faces = {r.face: i for i, r in reversed(list(enumerate(deck.ranks)))}
        self._names = {code: names[code] for code in set(codes.values())}
        self._other_lang: dict[str, tuple[str, list[str]]] = {}
        self._other_suit: dict[str, tuple[str, list[str]]] = {}
        for lg in (lg for lg in deck.languages if lg != chosen):
            for letter in (letter for r in deck.ranks for letter in r.lang.get(lg, ())):
                key = normalise(letter)
                if key and key not in rank_sp:
                    langs = self._other_lang.setdefault(key, (letter, []))[1]
                    if lg not in langs:
                        langs.append(lg)
            for word in (w for st in deck.suits for w in st.lang.get(lg, ())):
                key = normalise(word)
                if key and key not in suit_sp:
                    langs = self._other_suit.setdefault(key, (word, []))[1]
                    if lg not in langs:
                        langs.append(lg)

    def parse(self, text: str, *, source: str = "<input>", first_line: int = 1) -> ParsedCards:
        """Every card of ``text`` with its place; every bad token reported at once."""
        cards: list[Card] = []
        spans: list[Span] = []
        errors: list[LobaError] = []
        more = 0
        for number, line in enumerate(text.split("\n"), first_line):
            matches = _tokens(line)
            joined = -1  # the index of a suit word already read as part of the card before it
            for index, match in enumerate(matches):
                if index == joined:
                    continue
                token = match.group()
                code = self._lookup(token)
                if code is None and index + 1 < len(matches):
                    spaced = self._spaced(token, matches[index + 1].group())
                    if spaced is not None:  # "7 picas": a rank, then its suit as a word of its own
                        following = matches[index + 1]
                        cards.append(spaced)
                        spans.append(Span(number, match.start() + 1, following.end() - match.start()))
                        joined = index + 1
                        continue
                    elsewhere = self._suit_elsewhere(token, matches[index + 1].group())
                    if elsewhere is not None and len(errors) < MAX_ERRORS:  # "7 picas" without --lang es
                        following = matches[index + 1]
                        where = Location(source, number, match.start() + 1, line, following.end() - match.start())
                        errors.append(InputError(said("unknown card '{token}'",
                                                      token=line[match.start():following.end()]),
                                                 location=where, hint=elsewhere))
                        joined = index + 1
                        continue
                if code is None:
                    if len(errors) >= MAX_ERRORS:
                        more += 1
                        continue
                    where = Location(source, number, match.start() + 1, line, len(token))
                    if len(token) > MAX_HINTED_TOKEN:
                        shown = token[:MAX_SHOWN_TOKEN] + ("…" if len(token) > MAX_SHOWN_TOKEN else "")
                        errors.append(InputError(said("unknown card '{token}' ({length} characters)", token=shown,
                                                      length=len(token)),
                                                 location=where, hint=said("a card is a rank followed by a suit")))
                        continue
                    hint = self._hint(token)
                    errors.append(InputError(said("unknown card '{token}'", token=token), location=where, hint=hint))
                elif code != _SKIP:
                    cards.append(code)
                    spans.append(Span(number, match.start() + 1, len(token)))
        if more:
            summary = (said("… and {more} more unknown cards (only the first {shown} are shown)", more=more,
                            shown=MAX_ERRORS) if more > 1 else
                       said("… and {more} more unknown card (only the first {shown} are shown)", more=more,
                            shown=MAX_ERRORS))
            errors.append(InputError(summary, location=Location(source, first_line, 1)))
        raise_all(errors)
        return ParsedCards(tuple(cards), tuple(spans))

    def parse_melds(self, text: str, *, source: str = "<input>") -> tuple[ParsedCards, ...]:
        """The melds of a lay-down written with ``|`` between them (``A♣ 2♣ JOKER | 7♠ 7♥ 7♦``), each
        card keeping its column in ``text``; empty parts are skipped.  Copies are not checked here."""
        melds: list[ParsedCards] = []
        offset = 0
        for part in text.split("|"):
            parsed = self.parse(" " * offset + part, source=source)
            if parsed.cards:
                melds.append(parsed)
            offset += len(part) + 1
        return tuple(melds)

    def parse_codes(self, text: str) -> tuple[Card, ...]:
        """The cards of ``text`` only: the fast path for hot loops (same errors as :meth:`parse`)."""
        tokens = text.translate(_DASHES_TO_SPACE).split()
        try:
            return tuple(map(self._fast.__getitem__, tokens))
        except KeyError:  # an unusual spelling (``jOkEr``) or a bad token
            codes = [self._lookup(token) for token in tokens]
        if None in codes:
            return self.parse(text).cards
        return tuple(code for code in codes if code is not None and code != _SKIP)

    def quick_codes(self, text: str) -> tuple[Card, ...] | None:
        """The cards of ``text`` when every token is a card in its usual spelling, else ``None``.

        The batch fast path: no spans, no errors; on ``None`` the caller parses
        with :meth:`parse`, which locates and explains whatever is unusual.
        """
        try:
            return tuple(map(self._fast.__getitem__, text.translate(_DASHES_TO_SPACE).split()))
        except KeyError:
            return None

    def format(self, cards: Iterable[Card]) -> str:
        """Canonical names joined by single spaces (``10♠ JOKER``)."""
        try:
            return " ".join([self._names[card] for card in cards])
        except KeyError as missing:
            raise ValueError(f"{missing.args[0]!r} is not a card code of this deck") from None

    def _lookup(self, token: str) -> Card | None:
        code = self._fast.get(token)
        if code is None:
            key = normalise(token)
            return self._codes.get(key) if key else _SKIP
        return code

    def _spaced(self, rank: str, suit: str) -> Card | None:
        """The card of a rank and a suit written as two words (``7 picas``, ``1 oros``, ``10 ♥``), or ``None``."""
        r = self._rank_sp.get(normalise(rank))
        if r is None:
            return None
        u = self._suit_sp.get(normalise(suit))
        return None if u is None else self.deck.code(r, u)

    def _suit_elsewhere(self, rank: str, suit: str) -> str | None:
        """Why a rank and a suit word of another language are no card here (``7 picas`` without ``--lang es``)."""
        if normalise(rank) not in self._rank_sp or normalise(suit) not in self._other_suit:
            return None
        word, langs = self._other_suit[normalise(suit)]
        return said("'{word}' is a suit only with --lang {langs}", word=word, langs=_either(langs))

    def _hint(self, token: str) -> Said:
        """Why ``token`` is no card, and which card it might have meant."""
        deck, word = self.deck, normalise(token)
        splits = [(word[:i], word[i:]) for i in range(len(word) - 1, 0, -1)]

        def mean(rank: int, suit: int) -> Said:
            return said("did you mean '{word}'?", word=deck.name(deck.code(rank, suit)))

        for head, tail in splits:
            if head in self._codes and tail in self._codes:
                return said("separate the cards: '{cards}'", cards=self.format((self._codes[head], self._codes[tail])))
            if head in self._suit_sp and tail in self._rank_sp:
                return said("the rank comes first: {suggestion}",
                            suggestion=mean(self._rank_sp[tail], self._suit_sp[head]))
        for head, tail in splits:
            if tail in self._suit_sp:
                if head in self._other_lang:
                    letter, langs = self._other_lang[head]
                    return said("'{letter}' is a rank only with --lang {langs}", letter=letter, langs=_either(langs))
                rank = self._faces.get(int(head)) if head.isascii() and head.isdigit() else None
                close = _close_matches(head, self._rank_sp)
                if rank is None and close:
                    rank = self._rank_sp[close[0]]
                if rank is not None:
                    return mean(rank, self._suit_sp[tail])
        suits = " ".join(s.symbol for s in deck.suits)
        ranks = " ".join(r.key for r in deck.ranks)
        if word in self._suit_sp:
            return said("a rank must come before the suit: one of {ranks}", ranks=ranks)
        bad_suit = None
        for head, tail in [(word, ""), *splits]:
            if head in self._rank_sp:
                if not tail:
                    return said("a suit must follow the rank: one of {suits}", suits=suits)
                close = _close_matches(tail, self._suit_words)
                if close:
                    return mean(self._rank_sp[head], self._suit_words[close[0]])
                bad_suit = tail
                break
        did_you_mean = suggest(token.translate(_INVISIBLE), self._names.values())
        if did_you_mean:
            return did_you_mean
        if bad_suit is not None:
            if bad_suit in self._other_suit:
                word, langs = self._other_suit[bad_suit]
                return said("'{word}' is a suit only with --lang {langs}", word=word, langs=_either(langs))
            return said("'{suit}' is not a suit; suits are {suits}", suit=bad_suit, suits=suits)
        joker = said(", or {joker}", joker=deck.joker_symbol) if deck.joker_symbol and deck.jokers else ""
        return said("a card is a rank ({ranks}) followed by a suit ({suits}){joker}", ranks=ranks, suits=suits,
                    joker=joker)


def check_copies(
    parsed: ParsedCards,
    deck: Deck,
    *,
    source: str = "<input>",
    text: str | None = None,
    ruleset: str = "",
    first_line: int = 1,
) -> None:
    """Reject more physical copies of a card than ``deck`` holds (rules.md §5: ``7♠ 7♠`` is two cards).

    Each offending card is reported once, located at its first excess occurrence.
    ``text`` is the source text whose first line is line ``first_line`` of the spans
    (it gives the caret display; a batch passes one line and its number, never padding).

    >>> from loba_dsl.cards.deck import Deck, Rank, Suit
    >>> deck = Deck(suits=(Suit("spades", "♠"),), ranks=(Rank("7", 7),), copies=2)
    >>> check_copies(Notation(deck).parse("7♠ 7♠ 7♠ JOKER"), deck, ruleset="house")
    Traceback (most recent call last):
    ...
    loba_dsl.errors.LobaErrors: <input>:1:7: error: 7♠ appears 3 times but the deck of 'house' holds 2 copies
    <input>:1:10: error: the deck of 'house' has no JOKER
    """
    counts: dict[Card, int] = {}
    first_excess: dict[Card, Span] = {}
    for card, span in zip(parsed.cards, parsed.spans, strict=True):
        counts[card] = counts.get(card, 0) + 1
        if counts[card] > deck.limit(card):
            first_excess.setdefault(card, span)
    if not first_excess:
        return  # the common case: nothing to report, nothing to split
    lines = text.split("\n") if text is not None else []
    of = said(" of '{ruleset}'", ruleset=ruleset) if ruleset else ""
    errors: list[LobaError] = []
    for card, span in first_excess.items():
        limit, name = deck.limit(card), deck.name(card)
        at = span.line - first_line
        line = lines[at] if 0 <= at < len(lines) else None
        where = Location(source, span.line, span.column, line, span.length)
        if limit == 0:
            message = said("the deck{of} has no {card}", of=of, card=name)
        else:
            copies = said("copy") if limit == 1 else said("copies")
            message = said("{card} appears {count} times but the deck{of} holds {limit} {copies}", card=name,
                           count=counts[card], of=of, limit=limit, copies=copies)
        errors.append(InputError(message, location=where))
    raise_all(errors)


def _close_matches(word: str, candidates: Iterable[str]) -> list[str]:
    """The closest candidate, if any (difflib is imported only when a card is misspelt)."""
    import difflib

    return difflib.get_close_matches(word, candidates, n=1)
