"""What the words of one ruleset mean: ranks, suits, the Joker, meld kinds and value tables.

The language's own names (variables, attributes, functions) are in :mod:`loba_dsl.dsl.vocabulary`;
the names here depend on the ruleset (its deck, its meld kinds, its tables) and are resolved when it
loads, so that a typo is reported with a position and a "did you mean".
"""

from __future__ import annotations

from collections.abc import Iterable

from loba_dsl.cards.deck import Deck
from loba_dsl.dsl import ast as A
from loba_dsl.dsl.parser import DSLProblem
from loba_dsl.errors import suggest


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
            raise DSLProblem(f"unknown rank '{word.text}'", word.pos, self._hint(word.text, self.deck.rank_index))
        return index

    def _hint(self, text: str, pool: Iterable[str]) -> str | None:
        """A rank written as its number (``1`` for the ace) suggests that rank first."""
        if text.isascii() and text.isdigit():
            for r in self.deck.ranks:
                if r.face == int(text):
                    return f"did you mean '{r.key}'?"
        return suggest(text, pool)

    def card_word(self, word: A.Word) -> tuple[str, int]:
        """Resolve a word naming cards: ``("rank", i)``, ``("suit", i)`` or ``("joker", 0)``."""
        if word.text in self.deck.rank_index:
            return "rank", self.deck.rank_index[word.text]
        if word.text in self.deck.suit_index:
            return "suit", self.deck.suit_index[word.text]
        if word.text == self.joker or word.text.upper() == self.joker.upper():
            return "joker", 0
        pool = [*self.deck.rank_index, *self.deck.suit_index, self.joker]
        raise DSLProblem(
            f"'{word.text}' is not a rank, suit or Joker of this deck", word.pos, self._hint(word.text, pool)
        )
