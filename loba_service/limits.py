"""The service's limits: every one documented (README, OpenAPI) and tested.

Each can be changed with an environment variable when the server starts (``LOBA_SERVICE_MAX_BODY=...``);
the defaults suit a small public service on one machine.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

__all__ = ["Limits", "positive_int"]


@dataclass(frozen=True)
class Limits:
    """How much one request may ask for."""

    max_body: int = 1_048_576
    """Largest request body, in bytes (413 past it)."""
    max_cards: int = 108
    """Most cards in one card list (a meld, a hand, a lay-down): one double deck."""
    max_hand: int = 40
    """Most cards in a hand given to the solver (``/v1/arrange``)."""
    max_batch: int = 5_000
    """Most melds in one ``/v1/check/batch`` request."""
    max_yaml: int = 65_536
    """Largest house ruleset, in characters."""
    max_text: int = 262_144
    """Largest round or match sheet, in characters."""
    max_deals: int = 2_000
    """Most dealt hands per ruleset for ``/v1/diff`` play statistics."""
    solver_budget_ms: int = 2_000
    """Time budget of one solver call (``/v1/arrange``, ``/v1/diff``) when the request gives none."""
    max_budget_ms: int = 10_000
    """Largest time budget a request may ask for."""
    queue_wait_ms: int = 10_000
    """How long a solver call may wait for a free solver process before a 503."""
    solvers: int = 2
    """Solver processes per server process."""
    ruleset_cache: int = 128
    """Compiled house rulesets kept (least recently used go first); keyed by their content."""
    game_states: int = 4_096
    """Game states kept per server process for their ``state`` tokens (least recently used go first)."""
    game_states_mb: int = 256
    """Estimated MiB of the kept game states (about 1 KiB a move of each state's record); past it the least
    recently used go first."""
    solver_memory_mb: int = 1_536
    """Address space of one solver process, MiB: past it the job is a 422 and the process is replaced."""
    threads: int = 4
    """Worker threads per server process (work under shipped rulesets that is not bounded and small)."""
    queue: int = 64
    """Requests that may wait for a worker thread; past it a 503 with ``Retry-After``."""
    request_budget_ms: int = 10_000
    """Time budget of one request's work in a worker thread (a batch, a sheet, a game call): past it a 422."""
    small_hand: int = 12
    """Hands of at most this many cards (shipped rulesets) are solved in a worker thread, not a solver process."""
    max_head: int = 32_768
    """Largest request head (request line and headers), bytes: past it a 431 and the connection is closed."""
    max_headers: int = 64
    """Most header fields in one request (431 past it)."""
    request_timeout: int = 20
    """Seconds a client has to send a whole request (head and body) once it starts one; then it is closed."""
    keep_alive: int = 5
    """Seconds an idle connection is kept open."""
    max_connections: int = 2_000
    """Open connections per server process; past it new ones are closed at once."""
    max_connections_per_client: int = 256
    """Open connections from one client address; past it its new ones are closed at once."""

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Limits:
        """The defaults, overridden by ``LOBA_SERVICE_<NAME>`` variables (positive integers)."""
        env = os.environ if environ is None else environ
        values: dict[str, int] = {}
        for f in fields(cls):
            key = f"LOBA_SERVICE_{f.name.upper()}"
            raw = env.get(key)
            if raw is not None:
                values[f.name] = positive_int(key, raw)
        return cls(**values)

    def table(self) -> list[tuple[str, int, str]]:
        """(name, value, what it bounds) for the documentation."""
        out = []
        for f in fields(self):
            doc = _DOCS.get(f.name, "")
            out.append((f.name, int(getattr(self, f.name)), doc))
        return out


def positive_int(key: str, raw: str) -> int:
    """The value of the environment variable ``key``, a positive integer; anything else stops the server
    before it starts, saying which variable and why."""
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"error: {key} must be an integer, not {raw!r}") from None
    if value < 1:
        raise SystemExit(f"error: {key} must be at least 1")
    return value


_DOCS = {
    "max_body": "request body, bytes (413 past it)",
    "max_cards": "cards in one card list",
    "max_hand": "cards in a hand for /v1/arrange",
    "max_batch": "melds in one /v1/check/batch",
    "max_yaml": "characters of a house ruleset",
    "max_text": "characters of a round or match sheet",
    "max_deals": "dealt hands per ruleset for /v1/diff",
    "solver_budget_ms": "default solver time budget, ms",
    "max_budget_ms": "largest solver time budget a request may ask for, ms",
    "queue_wait_ms": "wait for a free solver before 503, ms",
    "solvers": "solver processes per server process",
    "ruleset_cache": "compiled house rulesets kept",
    "game_states": "game states kept for their state tokens, per server process (410 state-gone once dropped)",
    "game_states_mb": "estimated MiB of the kept game states (about 1 KiB a move of each state's record)",
    "solver_memory_mb": "address space of one solver process, MiB (422 past it, the process replaced)",
    "threads": "worker threads per server process",
    "queue": "requests waiting for a worker thread before 503 with Retry-After",
    "request_budget_ms": "time budget of a request's work in a worker thread, ms (422 past it)",
    "small_hand": "cards of a hand solved in a worker thread rather than a solver process",
    "max_head": "request head, bytes (431 past it, the connection closed)",
    "max_headers": "header fields in one request (431 past it)",
    "request_timeout": "seconds to send a whole request once started (then the connection is closed)",
    "keep_alive": "seconds an idle connection is kept open",
    "max_connections": "open connections per server process (new ones past it are closed)",
    "max_connections_per_client": "open connections from one client address (new ones past it are closed)",
}
