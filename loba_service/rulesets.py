"""Rulesets for requests: shipped ones by name, house ones (YAML text) compiled once per content.

A house ruleset's ``extends`` may name shipped rulesets only (:data:`loba_dsl.SHIPPED_ONLY`).
Compiled house rulesets, and the errors of broken ones, are kept in a bounded LRU keyed by the SHA-256 of
their file name and text, so a client that sends the same house rules with every request pays for the
compilation once, and a broken upload is not compiled again and again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import loba_dsl as loba
from loba_dsl import LobaError, Ruleset
from loba_service.bodies import UNNAMED_RULESET, HouseRuleset, RulesetRef

__all__ = ["RulesetCache", "spec_of"]

Spec = tuple[str, str, str]
"""A ruleset reference as plain data, for the solver processes: ("shipped", name, "") or ("house", file, yaml)."""


def spec_of(ref: RulesetRef) -> Spec:
    if isinstance(ref, HouseRuleset):
        return ("house", ref.file or UNNAMED_RULESET, ref.yaml)
    return ("shipped", ref, "")


class RulesetCache:
    """Shipped rulesets by name (all kept) and house rulesets by content (the last ``entries`` kept)."""

    def __init__(self, entries: int = 128) -> None:
        self.entries = entries
        self._shipped: dict[str, Ruleset] = {}
        self._house: OrderedDict[str, Ruleset | LobaError] = OrderedDict()
        self._lock = threading.Lock()
        self._load_lock = threading.Lock()
        self.compiled = 0
        """How many house rulesets were compiled (for the tests of the cache)."""

    def cached(self, ref: RulesetRef) -> Ruleset | None:
        """The ruleset if it is ready (no compiling); raises the error of a known broken one."""
        if isinstance(ref, HouseRuleset):
            key = _key(ref.file or UNNAMED_RULESET, ref.yaml)
            with self._lock:
                hit = self._house.get(key)
                if hit is not None:
                    self._house.move_to_end(key)
            if isinstance(hit, LobaError):
                raise hit.with_traceback(None)
            return hit
        return self._shipped.get(ref)

    def get(self, ref: RulesetRef) -> Ruleset:
        """The ruleset, compiling it if needed (may take a while: call it off the event loop)."""
        if isinstance(ref, HouseRuleset):
            return self.house(ref.file or UNNAMED_RULESET, ref.yaml)
        return self.shipped(ref)

    def get_spec(self, spec: Spec) -> Ruleset:
        kind, a, b = spec
        return self.house(a, b) if kind == "house" else self.shipped(a)

    def shipped(self, name: str) -> Ruleset:
        rs = self._shipped.get(name)
        if rs is None:
            with self._load_lock:  # one load per name, however many requests ask for it at once
                rs = self._shipped.get(name)
                if rs is None:
                    rs = loba.load(name)  # an unknown name raises, listing the shipped ones
                    self._shipped[name] = rs
        return rs

    def house(self, file: str, text: str) -> Ruleset:
        key = _key(file, text)
        with self._lock:
            hit = self._house.get(key)
            if hit is not None:
                self._house.move_to_end(key)
        if hit is None:
            try:
                hit = loba.loads(text, source=file, resolver=loba.SHIPPED_ONLY, cached=False)
            except LobaError as e:
                hit = e
            with self._lock:
                self.compiled += 1
                self._house[key] = hit
                while len(self._house) > self.entries:
                    self._house.popitem(last=False)
        if isinstance(hit, LobaError):
            raise hit.with_traceback(None)
        return hit

    def keep(self, file: str, text: str, rs: Ruleset) -> None:
        """Keep a house ruleset compiled elsewhere (in a solver process) as if compiled here."""
        with self._lock:
            self._house[_key(file, text)] = rs
            while len(self._house) > self.entries:
                self._house.popitem(last=False)

    def __len__(self) -> int:
        return len(self._house)


def _key(file: str, text: str) -> str:
    return hashlib.sha256(f"{file}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()
