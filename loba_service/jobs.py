"""What the solver processes run (see :mod:`loba_service.pool`): plain data in, plain data out.

Rulesets travel as specs (a shipped name, or a house ruleset's file name and text) and are compiled once
per process; cards travel as card codes, already read and checked by the server.
"""

from __future__ import annotations

import multiprocessing.connection
import threading
import time
from collections.abc import Callable
from typing import Any

from loba_dsl import LobaError

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


def _solver(spec: tuple[str, str, str], players: int | None, local: bool = False) -> Any:
    from loba_dsl import Solver

    key = (spec[0], spec[1], hash(spec[2]), players, threading.get_ident() if local else 0)
    solvers: dict[Any, Any] = _state.setdefault("solvers", {})
    solver = solvers.get(key)
    if solver is None:
        if len(solvers) > 32:
            solvers.clear()
        solver = solvers[key] = Solver(_rulesets().get_spec(spec), players=players)
    return solver


def arrange(spec: tuple[str, str, str], cards: tuple[int, ...], discard: bool, opening: bool,
            contract: int | None, players: int | None, seconds: float | None = None,
            stands: tuple[bool, int | None] | None = None, *, local: bool = False) -> dict[str, Any]:
    """What ``loba arrange --json`` prints, plus the opening and contract arrangements when asked for.

    ``seconds``: one budget for every search of the call (the library stops at it with
    :class:`~loba_dsl.errors.BudgetExceeded`; the pool's deadline is only the backstop).
    ``stands``: (opened, round) to arrange the hand as the player stands
    (:func:`~loba_dsl.solver.advice.arrange_hand`, as ``loba arrange --opened/--round``).
    """
    from loba_dsl import Budget, arranged_hand_dict, arrangement_dict

    t0 = time.perf_counter()
    solver = _solver(spec, players, local)
    rs = solver.rs
    clock = Budget(seconds=seconds).start("arranging the hand") if seconds else None
    dropped = None
    if stands is not None:
        from loba_dsl import arrange_hand

        text = " ".join(rs.deck.names_of(cards))
        hand = arrange_hand(solver, text, opened=stands[0], round_number=stands[1], discard=discard, budget=clock)
        out = arranged_hand_dict(hand, rs)  # what `loba arrange --json` prints, why not going out included
    else:
        if discard:
            dropped, arrangement = solver.best_discard(cards, budget=clock)
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


def arrange_cards(rs: Any, req: Any, limits: Any) -> tuple[int, ...]:
    """The hand of an ``ArrangeRequest``, read and checked (a 422 for a bad one, before any solving)."""
    from loba_dsl import InputError, said
    from loba_service import engine

    cards = engine.parse_hand(rs, req.cards, req.lang, limits.max_hand)
    if not cards:
        raise InputError(said("no cards given"), hint=said("e.g. {example}",
                                                           example='{"cards": "A♣ 2♣ 3♣ JOKER 7♠ 7♥ 7♦ K♠"}'))
    if req.players is not None and not rs.players.min <= req.players <= rs.players.max:
        raise InputError(said("{ruleset} is played by {least} to {most} players, not {players}", ruleset=rs.name,
                              least=rs.players.min, most=rs.players.max, players=req.players))
    return tuple(cards)


def arrange_request(spec: tuple[str, str, str], req: Any, limits: Any, seconds: float,
                    cards: tuple[int, ...] | None = None, *, local: bool = False) -> dict[str, Any]:
    """``/v1/arrange``'s work: the request's hand read (unless ``cards`` is given) and solved.  ``local``: in
    a worker thread of the server (each thread keeps its own solvers: their caches are not shared)."""
    if cards is None:
        cards = arrange_cards(_rulesets().get_spec(spec), req, limits)
    # As the player stands, with `loba arrange`'s default (not opened): arrange_hand refuses a missing or
    # unknown round of a ruleset with contracts itself (422).
    stands = (bool(req.opened), req.round)
    return arrange(spec, cards, req.discard, req.opening, req.contract, req.players, seconds, stands, local=local)


def diff(left: tuple[str, str, str], right: tuple[str, str, str], witnesses: bool, deals: int,
         seed: int) -> dict[str, Any]:
    """What ``loba diff --json`` prints (play statistics dealt here, in this one process)."""
    from loba_dsl import diff as compare

    t0 = time.perf_counter()
    cache = _rulesets()
    report = compare(cache.get_spec(left), cache.get_spec(right), witnesses=witnesses, deals=deals or None,
                     seed=seed, workers=1)
    out: dict[str, Any] = report.to_dict()
    out["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return out


def call(name: str, *args: Any) -> Any:
    """One of the service's own functions (:data:`CALLS`) in this process, with the rulesets compiled here:
    what a request carrying a house ruleset runs, so that its cost is bounded by the solver's budget and
    memory limit, never the server's."""
    return CALLS[name](*args)


def _check(spec: tuple[str, str, str], text: str, lang: str | None, limits: Any, explain_all: bool,
           messages: str = "en") -> Any:
    from loba_service import engine

    return engine.check_one(text, _rulesets().get_spec(spec), lang, limits, explain_all=explain_all,
                            messages=messages)


def _check_batch(spec: tuple[str, str, str], items: list[tuple[str, str]], lang: str | None, limits: Any,
                 ndjson: bool) -> Any:
    from loba_service import engine

    rs = _rulesets().get_spec(spec)
    results = engine.check_many(items, rs, lang, limits)
    return engine.ndjson_lines(results) if ndjson else {"ruleset": rs.name, "results": dict(results)}


def _score_round(spec: tuple[str, str, str], req: Any, limits: Any) -> Any:
    from loba_service import engine

    return engine.score_round(req, _rulesets().get_spec(spec), limits)


def _score_match(spec: tuple[str, str, str], req: Any, limits: Any) -> Any:
    from loba_service import engine

    return engine.score_match(req, _rulesets().get_spec(spec), limits)


def _validate(file: str, text: str, messages: str = "en") -> Any:
    from loba_service import engine

    return engine.validate(_rulesets(), file, text, messages)


def _ruleset(file: str, text: str) -> Any:
    """A house ruleset compiled here (a live table's: the server plays it, but never compiles a client's text
    itself): the compiled ruleset, sent back pickled."""
    return _rulesets().house(file, text)


def _game(name: str, spec: tuple[str, str, str], key: bytes, req: Any, held: Any = None) -> Any:
    from loba_service import games

    return games.WORK[name](games.process_games(key), _rulesets().get_spec(spec), req, held)


CALLS: dict[str, Callable[..., Any]] = {
    "arrange": arrange_request, "check": _check, "check_batch": _check_batch, "score_round": _score_round,
    "score_match": _score_match, "validate": _validate, "game": _game,
    "ruleset": _ruleset}


def hog(megabytes: int) -> int:
    """A job that holds ``megabytes`` of memory (the tests of the memory limit use it)."""
    block = bytearray(megabytes * 1_048_576)
    return len(block)


def ping(seconds: float) -> str:
    """A job that takes ``seconds`` (the tests of the budget use it)."""
    time.sleep(seconds)
    return "pong"


JOBS: dict[str, Callable[..., Any]] = {"arrange": arrange, "arrange_request": arrange_request, "diff": diff,
                                       "ping": ping, "hog": hog, "call": call}


def serve(down: multiprocessing.connection.Connection, up: multiprocessing.connection.Connection) -> None:
    """The solver process's loop: one job at a time until ``None`` or the pipe closes."""
    import loba_dsl

    loba_dsl.diff, loba_dsl.arranged_hand_dict, loba_dsl.Solver  # noqa: B018  (imported before the first job)
    from loba_service.problems import ServiceError

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
        except MemoryError:
            # Past the address-space limit: answer, then exit (whatever the job held may be half-built;
            # the pool starts a fresh process).
            _state.clear()
            up.send(("memory", "the solver ran out of its memory limit"))
            return
        except RecursionError:
            up.send(("error", {"detail": "the input nests too deeply to be read",
                               "errors": [{"code": "limit", "message": "the input nests too deeply to be read"}]}))
        except ServiceError as e:
            up.send(("service", (e.status, e.slug, e.title, e.detail, e.errors, e.spoken)))
        except LobaError as e:
            from loba_service.problems import job_error

            up.send(("error", job_error(e)))
        except Exception as e:  # a bug: the server answers 500 and logs it
            import traceback

            up.send(("bug", f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))


def limit_memory(megabytes: int) -> None:
    """Bound this process's address space: an allocation past it is a ``MemoryError`` (answered, then the
    process is replaced), never the machine's memory."""
    import resource

    limit = megabytes * 1_048_576
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def main() -> None:
    """``python -m loba_service.jobs READ_FD WRITE_FD``: what :class:`~loba_service.pool.SolverPool` starts."""
    import contextlib
    import os
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the server, which stops its solvers
    if len(sys.argv) > 3 and int(sys.argv[3]) > 0:
        limit_memory(int(sys.argv[3]))
    with contextlib.suppress(OSError):
        os.nice(5)  # below the server's event loop: /healthz and quick requests get the CPU first
    from loba_dsl import enable_disk_cache

    enable_disk_cache(shipped_only=True)  # the shipped rulesets from the disk cache; a client's never written
    down = multiprocessing.connection.Connection(int(sys.argv[1]), writable=False)
    up = multiprocessing.connection.Connection(int(sys.argv[2]), readable=False)
    serve(down, up)


if __name__ == "__main__":
    main()
