"""Marks the slowest tests ``slow`` (registered in pyproject.toml), so ``make test-fast`` can leave them out.

Slow are: every property-based test (Hypothesis draws hundreds of examples each), the fuzz and property
modules as a whole, the brute-force cross-checks of the solver, and the few tests that start many
processes (the cold-cache race, the README's examples).  ``make test`` runs everything.

Also points ``LOBA_CACHE_DIR`` at a folder of the test session for every test module (``_fresh_cache``),
so that no test reads a stale compiled ruleset from ``~/.cache``, and, for the whole run, at a temporary
folder (:func:`pytest_configure`): the doctests of ``loba_dsl`` and ``loba_service`` lie outside ``tests/``,
where no fixture of this file reaches them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

pytest_plugins = ["page_fixtures"]  # the browser tests' fixtures (tests/page): the real service, Chromium

SLOW_MODULES = {"test_fuzz.py", "test_meld_properties.py"}
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


def pytest_configure(config: pytest.Config) -> None:
    """A cache folder for the whole run (removed at its end), unless one is set already.

    Once a test has run the ``loba`` command in this process the disk cache stays on, and the doctests
    that run after ``tests/`` would otherwise compile into ``~/.cache/loba-dsl``.
    """
    if os.environ.get("LOBA_CACHE_DIR"):
        return
    folder = tempfile.mkdtemp(prefix="loba-cache-")  # a folder only this user may write, as the cache wants
    os.environ["LOBA_CACHE_DIR"] = folder

    def cleanup() -> None:
        os.environ.pop("LOBA_CACHE_DIR", None)
        shutil.rmtree(folder, ignore_errors=True)

    config.add_cleanup(cleanup)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fn = getattr(item, "obj", None)
        if (item.path.name in SLOW_MODULES or getattr(fn, "is_hypothesis_test", False)
                or any(name in item.name for name in SLOW_NAMES)):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True, scope="module")
def _fresh_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Compile the rulesets into a cache of this test session, never a stale one in ~/.cache.

    Once any test has run the ``loba`` command in this process, the disk cache is on for the rest of the
    session (``loba_cli`` calls ``enable_disk_cache``), so every module needs it, not only the CLI's.
    Module-scoped: Hypothesis refuses function-scoped fixtures around ``@given``, and module-scoped
    fixtures of a module (built before function-scoped ones) see the folder too.  A test that needs a
    folder of its own sets ``LOBA_CACHE_DIR`` with ``monkeypatch`` (which wins for that test); a module
    that needs one defines its own ``_fresh_cache`` (which overrides this one), as test_cli_diff.py does.
    """
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LOBA_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "loba-cache"))
        yield
