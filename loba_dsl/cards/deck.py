"""Decks as data, and the compact card codes the engine works with.

A card is a small ``int``: ``rank_index * len(suits) + suit_index`` for a natural
card, and ``deck.joker_code`` (one past the last natural code) for a Joker.
Rank *order* is the order of ``Deck.ranks`` (low to high); whether the deck's
ace may also be played above the top rank is a property of a meld shape, not
of the deck.

>>> deck = Deck(
...     suits=(Suit("spades", "♠", ("s",)), Suit("hearts", "♥", ("h",))),
...     ranks=(Rank("A", 1), Rank("2", 2), Rank("3", 3)),
...     copies=2, jokers=1, ace=0)
>>> deck.code(rank=1, suit=1)
3
>>> deck.name(3), deck.name(deck.joker_code)
('2♥', 'JOKER')
>>> deck.size
13
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property

TYPE_CHECKING = False  # typing's flag, without importing typing (issue 22: start-up)
if TYPE_CHECKING:
    from dataclasses import dataclass, field
else:
    from loba_dsl.frozen import dataclass, field  # cheaper at import (issues 11 and 22)


Card = int
"""A card code; see the module documentation."""


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit: its key (``spades``), the symbol it prints with, other spellings.

    ``lang`` maps a language code to words that name this suit only in that language (Spanish
    ``picas``), like :attr:`Rank.lang`.
    """

    key: str
    symbol: str
    aliases: tuple[str, ...] = ()
    lang: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank: its key (``A``, ``10``, ``J``), the number printed on it, spellings.

    ``lang`` maps a language code to letters that name this rank only when that
    language is chosen (German ``B`` for the Jack): letters collide across
    languages, so they are never guessed.
    """

    key: str
    face: int
    aliases: tuple[str, ...] = ()
    lang: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Deck:
    """The cards of a ruleset: suits, ranks in sequence order, copies and Jokers."""

    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    copies: int = 1
    jokers: int = 0
    ace: int | None = None
    """Index in ``ranks`` of the rank that a run may play above the top rank."""
    joker_symbol: str = "JOKER"
    joker_aliases: tuple[str, ...] = ()
    languages: tuple[str, ...] = ("en",)

    @property
    def n_suits(self) -> int:
        return len(self.suits)

    @property
    def n_ranks(self) -> int:
        return len(self.ranks)

    @property
    def joker_code(self) -> Card:
        """The code every Joker has (all Jokers are alike)."""
        return len(self.ranks) * len(self.suits)

    @property
    def n_codes(self) -> int:
        """Codes run from 0 to ``n_codes - 1`` (the Joker's code included)."""
        return self.joker_code + 1

    @property
    def size(self) -> int:
        """How many physical cards the deck holds."""
        return self.joker_code * self.copies + self.jokers

    def code(self, rank: int, suit: int) -> Card:
        return rank * len(self.suits) + suit

    def rank_of(self, card: Card) -> int:
        """Rank index of a natural card (undefined for the Joker)."""
        return card // len(self.suits)

    def suit_of(self, card: Card) -> int:
        """Suit index of a natural card (undefined for the Joker)."""
        return card % len(self.suits)

    def is_joker(self, card: Card) -> bool:
        return card == self.joker_code

    def limit(self, card: Card) -> int:
        """How many physical copies of ``card`` the deck holds."""
        return self.jokers if card == self.joker_code else self.copies

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Canonical printed name of every code, indexed by code."""
        out = [f"{r.key}{s.symbol}" for r in self.ranks for s in self.suits]
        out.append(self.joker_symbol)
        return tuple(out)

    def name(self, card: Card) -> str:
        """The canonical printed form of a card (``10♠``, ``JOKER``)."""
        return self.names[card]

    def names_of(self, cards: Iterable[Card]) -> list[str]:
        names = self.names
        return [names[c] for c in cards]

    @cached_property
    def rank_index(self) -> dict[str, int]:
        """Rank key to its index in sequence order."""
        return {r.key: i for i, r in enumerate(self.ranks)}

    @cached_property
    def suit_index(self) -> dict[str, int]:
        """Suit key to its index."""
        return {s.key: i for i, s in enumerate(self.suits)}

    def all_codes(self) -> range:
        """Every code the deck can produce (the Joker's only if it has Jokers)."""
        return range(self.joker_code + (1 if self.jokers else 0))
