"""What the tests of the solver's C twins share: skipping (or failing, in CI) where a twin is not built, and
switching twins on or off for the Solvers and generators built meanwhile."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import pytest

from loba_dsl.solver import candidates, packing


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
