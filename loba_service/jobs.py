"""What the solver processes run (see :mod:`loba_service.pool`): plain data in, plain data out.

Rulesets travel as specs (a shipped name, or a house ruleset's file name and text) and are compiled once
per process; cards travel as card codes, already read and checked by the server.
"""

from __future__ import annotations

import multiprocessing.connection
import time
from collections.abc import Callable
from typing import Any

from loba_dsl.errors import LobaError

__all__ = ["JobError", "arrange", "diff", "serve"]


class JobError(Exception):
    """A library error raised in a solver process, as plain data (its located problems)."""

    def __init__(self, value: Any) -> None:
        super().__init__(str(value.get("detail", "error")) if isinstance(value, dict) else str(value))
        self.value = value


_state: dict[str, Any] = {}


def _rulesets() -> Any:
    from loba_service.rulesets import RulesetCache

    cache = _state.get("rulesets")
    if cache is None:
        cache = _state["rulesets"] = RulesetCache(32)
    return cache


def _solver(spec: tuple[str, str, str], players: int | None) -> Any:
    from loba_dsl.solver.api import Solver

    key = (spec[0], spec[1], hash(spec[2]), players)
    solvers: dict[Any, Any] = _state.setdefault("solvers", {})
    solver = solvers.get(key)
    if solver is None:
        if len(solvers) > 32:
            solvers.clear()
        solver = solvers[key] = Solver(_rulesets().get_spec(spec), players=players)
    return solver


def arrange(spec: tuple[str, str, str], cards: tuple[int, ...], discard: bool, opening: bool,
            contract: int | None, players: int | None, seconds: float | None = None,
            stands: tuple[bool, int | None] | None = None) -> dict[str, Any]:
    """What ``loba arrange --json`` prints, plus the opening and contract arrangements when asked for.

    ``seconds``: one budget for every search of the call (the library stops at it with
    :class:`~loba_dsl.errors.BudgetExceeded`; the pool's deadline is only the backstop).
    ``stands``: (opened, round) to arrange the hand as the player stands
    (:func:`~loba_dsl.solver.advice.arrange_hand`, as ``loba arrange --opened/--round``).
    """
    from loba_dsl.budget import Budget
    from loba_dsl.render import arrangement_dict

    t0 = time.perf_counter()
    solver = _solver(spec, players)
    rs = solver.rs
    clock = Budget(seconds=seconds).start("arranging the hand") if seconds else None
    dropped = None
    if stands is not None:
        from loba_dsl.solver.advice import arrange_hand

        text = " ".join(rs.deck.names_of(cards))
        hand = arrange_hand(solver, text, opened=stands[0], round_number=stands[1], discard=discard, budget=clock)
        arrangement, dropped, can_go_out = hand.arrangement, hand.discard, hand.can_go_out
    elif discard:
        dropped, arrangement = solver.best_discard(cards, budget=clock)
        can_go_out = solver.can_go_out(cards, budget=clock).possible
    else:
        arrangement = solver.arrange(cards, budget=clock)
        can_go_out = solver.can_go_out(cards, budget=clock).possible
    out = arrangement_dict(arrangement, rs, discard=dropped, can_go_out=can_go_out)
    if opening:
        best = solver.best_opening(cards, budget=clock)
        out["opening"] = {"possible": best is not None,
                          "arrangement": None if best is None else arrangement_dict(best, rs)}
    if contract is not None:
        met = solver.contract(cards, contract, budget=clock)
        out["contract"] = {"possible": met is not None,
                           "arrangement": None if met is None else arrangement_dict(met, rs)}
    out["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return out


def diff(left: tuple[str, str, str], right: tuple[str, str, str], witnesses: bool, deals: int,
         seed: int) -> dict[str, Any]:
    """What ``loba diff --json`` prints (play statistics dealt here, in this one process)."""
    from loba_dsl.compare import diff as compare

    t0 = time.perf_counter()
    cache = _rulesets()
    report = compare(cache.get_spec(left), cache.get_spec(right), witnesses=witnesses, deals=deals or None,
                     seed=seed, workers=1)
    out: dict[str, Any] = report.to_dict()
    out["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return out


def ping(seconds: float) -> str:
    """A job that takes ``seconds`` (the tests of the budget use it)."""
    time.sleep(seconds)
    return "pong"


JOBS: dict[str, Callable[..., Any]] = {"arrange": arrange, "diff": diff, "ping": ping}


def serve(down: multiprocessing.connection.Connection, up: multiprocessing.connection.Connection) -> None:
    """The solver process's loop: one job at a time until ``None`` or the pipe closes."""
    import loba_dsl.compare
    import loba_dsl.render
    import loba_dsl.solver.api  # noqa: F401

    up.send("ready")
    while True:
        try:
            msg = down.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if msg is None:
            return
        name, args = msg
        try:
            up.send(("ok", JOBS[name](*args)))
        except LobaError as e:
            from loba_service.problems import error_items, plain

            up.send(("error", {"detail": e.message, "errors": plain(error_items(e))}))
        except Exception as e:  # a bug: the server answers 500 and logs it
            import traceback

            up.send(("bug", f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))


def main() -> None:
    """``python -m loba_service.jobs READ_FD WRITE_FD``: what :class:`~loba_service.pool.SolverPool` starts."""
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the server, which stops its solvers
    down = multiprocessing.connection.Connection(int(sys.argv[1]), writable=False)
    up = multiprocessing.connection.Connection(int(sys.argv[2]), readable=False)
    serve(down, up)


if __name__ == "__main__":
    main()
