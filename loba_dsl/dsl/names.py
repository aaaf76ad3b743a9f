"""What the words of one ruleset mean: ranks, suits, the Joker, meld kinds and value tables.

The language's own names (variables, attributes, functions) are in :mod:`loba_dsl.dsl.vocabulary`;
the names here depend on the ruleset (its deck, its meld kinds, its tables) and are resolved when it
loads, so that a typo is reported with a position and a "did you mean".

A card word is a rank key (``K``), a suit by its key or as the deck writes it (``hearts``, ``♥``,
``h``), the Joker, or (where single cards are allowed: the wild-card list) one card written as in
card notation (``J♠``, ``Js``), docs/rules.md §5.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

from loba_dsl.cards.deck import Card, Deck
from loba_dsl.cards.notation import Notation
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.parser import DSLProblem
from loba_dsl.errors import LobaError, said, suggest

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

    CardWord: TypeAlias = Literal["rank", "suit", "joker", "card"]
"""What a card word names: every card of a rank or of a suit, the Joker, or one card."""

_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f"))  # text/emoji presentation selectors


class Names:
    """What names mean in one ruleset: ranks, suits, Joker, meld kinds, tables."""

    def __init__(self, deck: Deck, kinds: Iterable[str], tables: Iterable[str]) -> None:
        self.deck = deck
        self.kinds = tuple(kinds)
        self.tables = tuple(tables)
        self.joker = deck.joker_symbol

    def rank(self, word: A.Word) -> int:
        index = self.deck.rank_index.get(word.text)
        if index is None:
            raise DSLProblem(said("unknown rank '{rank}'", rank=word.text), word.pos,
                             self._hint(word.text, self.deck.rank_index))
        return index

    def _hint(self, text: str, pool: Iterable[str]) -> str | None:
        """A rank written as its number (``1`` for the ace) suggests that rank first."""
        if text.isascii() and text.isdigit():
            for r in self.deck.ranks:
                if r.face == int(text):
                    return said("did you mean '{word}'?", word=r.key)
        return suggest(text, pool)

    @cached_property
    def suit_spellings(self) -> dict[str, int]:
        """A suit's symbol and its aliases (``♥``, ``♡``, ``h``), as written, to its index."""
        out: dict[str, int] = {}
        for i, s in enumerate(self.deck.suits):
            for spelling in (s.symbol, *s.aliases):
                out.setdefault(spelling.translate(_INVISIBLE), i)
        return out

    @cached_property
    def _notation(self) -> Notation | None:
        try:
            return Notation(self.deck)
        except (LobaError, ValueError):  # ambiguous spellings: the deck's own error says so
            return None

    def _one_card(self, text: str) -> Card | None:
        """The card ``text`` names in the deck's English notation (``J♠``, ``Js``), or None."""
        if self._notation is None:
            return None
        try:
            codes = self._notation.parse_codes(text)
        except LobaError:
            return None
        return codes[0] if len(codes) == 1 else None

    def card_word(self, word: A.Word, single_cards: bool = False) -> tuple[CardWord, int]:
        """Resolve a word naming cards: ``("rank", i)``, ``("suit", i)``, ``("joker", 0)``, or, with
        ``single_cards``, ``("card", code)`` for one card such as ``J♠``."""
        text = word.text
        if text in self.deck.rank_index:
            return "rank", self.deck.rank_index[text]
        if text in self.deck.suit_index:
            return "suit", self.deck.suit_index[text]
        if text == self.joker or text.upper() == self.joker.upper():
            return "joker", 0
        bare = text.translate(_INVISIBLE)
        if bare in self.suit_spellings:
            return "suit", self.suit_spellings[bare]
        card = self._one_card(text)
        if card is not None and card == self.deck.joker_code:
            return "joker", 0
        if card is not None:
            if single_cards:
                return "card", card
            rank = self.deck.ranks[self.deck.rank_of(card)].key
            suit = self.deck.suits[self.deck.suit_of(card)].symbol
            raise DSLProblem(f"'{text}' is one card: here a word names every card of a rank or a suit",
                             word.pos, f"write '{rank} and {suit}' for the {self.deck.name(card)} alone")
        pool = [*self.deck.rank_index, *self.deck.suit_index, *self.suit_spellings, self.joker]
        raise DSLProblem(
            said("'{word}' is not a rank, suit or Joker of this deck", word=text), word.pos, self._hint(text, pool)
        )
