"""Typed stub of the C candidate generator (native_candidates.c); its twin: CandidateGenerator.pure_hand_candidates."""

from collections.abc import Callable, Mapping, Sequence

MAX_CODES: int
"""The most card codes (the Joker's included) the C generator takes."""
MAX_RANKS: int
"""The most ranks a suit may have for the C generator."""
MAX_SUITS: int
"""The most suits the C generator takes."""

ShapeSpec = tuple[bool, int, int, bool, bool, int, Sequence[Sequence[int]]]
"""(run, least size, most size, suits distinct, no wilds, most wilds, run windows' ranks smallest first)."""

class CandidateTables:
    """A deck's and ruleset's candidate-meld data, built once."""

    def __init__(
        self,
        order: Sequence[int],
        rank: Sequence[int],
        suit: Sequence[int],
        wild_capable: Sequence[bool],
        set_natural: Sequence[bool],
        suit_codes: Sequence[Sequence[int]],
        joker: int,
        shapes: Sequence[ShapeSpec],
    ) -> None: ...
    def candidates(self, hand: Sequence[int], pooled: bool, /) -> list[tuple[int, ...]]: ...
    def light_gain(
        self,
        hand: Sequence[int],
        table: Mapping[tuple[int, ...], int | None],
        gain: Callable[[tuple[int, ...]], int | None],
        limit: int,
        search: Callable[..., tuple[int, list[int]] | None],
        position: tuple[int, ...],
        joker: int,
        pooled: frozenset[int],
        tick: Callable[[int], object] | None,
        /,
    ) -> int | None:
        """The light search's best gain of ``hand`` (no pooled wilds), or None: too many melds, or a key too wide."""
