"""The few settings of the library itself (not of any variant)."""

DEFAULT_RULESET = "menos"
"""The ruleset used when none is named: Loba de Menos (rules.md §1)."""

CACHE_VERSION = "loba-dsl-cache-3"
"""Bump when the compiled form changes, so stale caches are ignored."""
