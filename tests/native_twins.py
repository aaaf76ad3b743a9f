"""What the tests of the solver's C twins share: skipping (or failing, in CI) where a twin is not built, and
switching twins on or off for the Solvers and generators built meanwhile."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import pytest

from loba_dsl.budget import Clock
from loba_dsl.solver import candidates, packing
from loba_dsl.solver.searches import Searches


def missing(why: str) -> NoReturn:
    """Skip the test, saying ``why``: a twin is not built here (a machine without a C compiler installs the
    pure-Python code alone); under ``LOBA_DSL_REQUIRE_NATIVE=1`` (CI, which builds them) fail instead."""
    if os.environ.get("LOBA_DSL_REQUIRE_NATIVE") == "1":
        pytest.fail(f"LOBA_DSL_REQUIRE_NATIVE=1 but {why}")
    print(why)
    pytest.skip(why)


@contextmanager
def switched(*, live: bool | None = None, candidates_: bool | None = None, packing_: bool | None = None
             ) -> Iterator[None]:
    """The C twins of the live cards, of the candidate melds and of the packing searches on (``True``) or off
    (``False``) meanwhile; ``None`` leaves one as it is.  Generators read their switches when they are built,
    the packing searches at each call."""
    saved = candidates.NATIVE_LIVE, candidates.NATIVE_CANDIDATES, packing.NATIVE
    if live is not None:
        candidates.NATIVE_LIVE = live
    if candidates_ is not None:
        candidates.NATIVE_CANDIDATES = candidates_
    if packing_ is not None:
        packing.NATIVE = packing_
    try:
        yield
    finally:
        candidates.NATIVE_LIVE, candidates.NATIVE_CANDIDATES, packing.NATIVE = saved


def plain_search_both(searches: Searches, cards: tuple[int, ...], raw: list[tuple[tuple[int, ...], int]],
                      pooled: frozenset[int], clocks: tuple[Clock, Clock]
                      ) -> tuple[tuple[int, list[int]] | None, tuple[int, list[int]]]:
    """One plain search of ``searches``' by the C kernel (fields built in C; ``None`` where its key is too wide)
    and by ``Searches.plain_search``'s own Python, each counting its states on its clock."""
    with switched(packing_=True):  # (under LOBA_DSL_PURE=1 too: the C kernel is what is tested)
        gains = searches.gains
        native = packing.plain_search_melds(cards, raw, gains.positions, gains.deck.joker_code, pooled, clocks[0])
    with switched(packing_=False):
        searches.calls.clock = clocks[1]
        try:
            python = searches.plain_search(cards, raw, pooled)
        finally:
            searches.calls.clock = None
    return native, python
