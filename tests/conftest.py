"""Marks the slowest tests ``slow`` (registered in pyproject.toml), so ``make test-fast`` can leave them out.

Slow are: every property-based test (Hypothesis draws hundreds of examples each), the fuzz and property
modules as a whole, the brute-force cross-checks of the solver, and the few tests that start many
processes (the cold-cache race, the README's examples).  ``make test`` runs everything.
"""

from __future__ import annotations

import pytest

SLOW_MODULES = {"test_fuzz.py", "test_properties.py"}
SLOW_NAMES = (
    "brute_force",
    "best_discard_is_exact",
    "concurrent_cold_cache",
    "test_every_readme_example",
    "witnesses_are_deterministic",
    "memory_cache_is_bounded",
    "pagat_every_difference",
    "same_seed_same_figures",
    "another_seed_deals",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fn = getattr(item, "obj", None)
        if (item.path.name in SLOW_MODULES or getattr(fn, "is_hypothesis_test", False)
                or any(name in item.name for name in SLOW_NAMES)):
            item.add_marker(pytest.mark.slow)
