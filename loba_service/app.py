"""The ASGI application: Starlette routes over the library, msgspec bodies, one problem body for errors.

>>> from starlette.testclient import TestClient
>>> client = TestClient(create_app())
>>> client.post("/v1/check", json={"cards": "A♣ 2♣ JOKER"}).json()["reading"]
['A♣', '2♣', '3♣']
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import anyio.to_thread
import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from loba_dsl import DEFAULT_RULESET, LobaError, Ruleset, RulesetError, __version__, decode_utf8, enable_disk_cache
from loba_dsl import BudgetExceeded as SearchBudgetExceeded
from loba_service import bodies, engine
from loba_service.jobs import JobError
from loba_service.limits import Limits
from loba_service.pool import BudgetExceeded, Busy, OutOfMemory, SolverPool
from loba_service.problems import (
    ErrorItem,
    ServiceError,
    body_error,
    encode_problem,
    from_loba_error,
    speaks,
    spoken_language,
)
from loba_service.routing import ExactRouter
from loba_service.rulesets import RulesetCache, spec_of
from loba_service.work import Deadline, Overloaded, Stopped, Threads, watching

__all__ = ["Service", "create_app", "server_app"]

log = logging.getLogger("loba_service")

JSON = "application/json"
PROBLEM = "application/problem+json"
NDJSON = "application/x-ndjson"
YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")

INLINE_SOLVE = 0.001
"""Seconds a small hand's solve (``small_hand`` cards, a shipped ruleset) may take on the event loop: a 10-card hand
takes ~0.1-0.3 ms there, where the hop to a worker thread and back cost ~0.3 ms of CPU more (anyio's hand-off, the
client watcher, the GIL passed back and forth); a hand the search has not finished by then goes to a worker thread
with the request's whole budget.  It bounds what one request holds the loop (and ``/healthz``) for."""

T = TypeVar("T")
Handler = Callable[[Request], Awaitable[Response]]


def _json(obj: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(obj), status_code=status, media_type=JSON)


def problem_response(err: ServiceError, lang: str = "en") -> Response:
    """The problem body of ``err``, its words in ``lang`` where it has them."""
    return Response(encode_problem(err, lang), status_code=err.status, media_type=PROBLEM, headers=err.headers)



class Service:
    """The state one server process keeps: limits, compiled rulesets, solver processes, decoders."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits.from_env()
        self.rulesets = RulesetCache(self.limits.ruleset_cache)
        self.pool = SolverPool(self.limits.solvers, queue_wait=self.limits.queue_wait_ms / 1000,
                               memory_mb=self.limits.solver_memory_mb)
        self.threads = Threads(self.limits.threads, self.limits.queue)
        self.live: set[Deadline] = set()
        """The deadlines of the work running in worker threads (cancelled when the server stops)."""
        self.bugs = 0
        """Requests answered 500 (a real bug); the fuzz tests prove it stays 0."""
        self._decoders: dict[type[Any], msgspec.json.Decoder[Any]] = {}
        self.games: Any = None
        self.tables: Any = None
        """The live tables (:class:`loba_service.tables.Tables`)."""

    # ------------------------------------------------------------ reading requests

    async def body(self, request: Request) -> bytes:
        """The body, refused with 413 past ``max_body`` (before reading it all when its length is given)."""
        limit = self.limits.max_body
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            raise self.too_large()
        chunks: list[bytes] = []
        total = 0
        more = True
        while more:  # the ASGI messages themselves: cheaper than Request.stream() on the hot path
            message = await request.receive()
            if message["type"] != "http.request":
                raise ServiceError(400, "disconnected", "The client went away", "the client disconnected")
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > limit:
                raise self.too_large()
            if chunk:
                chunks.append(chunk)
            more = message.get("more_body", False)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    def too_large(self) -> ServiceError:
        limit = self.limits.max_body
        return ServiceError(413, "too-large", "The body is too large",
                            f"the body is larger than the limit of {limit} bytes",
                            [ErrorItem(code="limit", message=f"at most {limit} bytes per request body")])

    def decode(self, t: type[T], body: bytes) -> T:
        dec = self._decoders.get(t)
        if dec is None:
            dec = self._decoders[t] = msgspec.json.Decoder(t)
        try:
            value: T = dec.decode(body)
        except msgspec.MsgspecError as e:
            decode_utf8(body, "<body>")  # bytes that are not UTF-8: said first, in the one wording of every surface
            raise body_error(e, body) from None
        except RecursionError:
            raise self.too_deep() from None
        return value

    def too_deep(self) -> ServiceError:
        message = "the body nests arrays and objects too deeply to be read"
        return ServiceError(422, "limit", "A limit of the service was passed", message,
                            [ErrorItem(code="limit", message=message)])

    # ------------------------------------------------------------ running the work

    async def in_thread(self, request: Request, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args, deadline)`` in a worker thread, under the request's budget, stopped if the client goes."""
        deadline = Deadline(self.limits.request_budget_ms / 1000)

        async def work() -> T:
            return await self.threads.run(fn, *args, deadline)

        self.live.add(deadline)
        try:
            return await watching(request.receive, work, deadline)
        except Overloaded:
            raise ServiceError(503, "busy", "The service is busy",
                               "every worker thread is busy and the queue is full; retry later",
                               headers={"Retry-After": "1"}) from None
        except Stopped as e:
            raise _stopped(e, deadline.seconds) from None
        finally:
            self.live.discard(deadline)

    def warm(self) -> None:
        """Load the default ruleset and check a meld under it (its matcher built) before the first request."""
        engine.check_one("A♣ 2♣ 3♣", self.rulesets.shipped(DEFAULT_RULESET), None, self.limits)

    def stop_work(self) -> None:
        """The server stops: every worker thread's work stops at its next look at its deadline."""
        for deadline in list(self.live):
            deadline.cancel()

    async def in_process(self, request: Request, name: str, args: tuple[Any, ...],
                         budget: float | None = None) -> Any:
        """``jobs.call(name, *args)`` in a solver process (killed past the budget, bounded in memory),
        stopped at once if the client goes."""
        seconds = budget if budget is not None else self.limits.request_budget_ms / 1000

        async def work() -> Any:
            return await self.solve("call", (name, *args), seconds)

        try:
            return await watching(request.receive, work)
        except Stopped as e:
            raise _stopped(e, seconds) from None

    async def ruleset(self, ref: bodies.RulesetRef) -> Ruleset:
        """The ruleset a request names or carries (a house one is compiled off the event loop, once)."""
        rs = self.rulesets.cached(ref)
        if rs is None:
            rs = await anyio.to_thread.run_sync(self.rulesets.get, ref)
        return rs

    def budget(self, asked: int | None) -> float:
        ms = self.limits.solver_budget_ms if asked is None else min(asked, self.limits.max_budget_ms)
        return ms / 1000

    async def solve(self, job: str, args: tuple[Any, ...], budget: float) -> Any:
        """Run a solver job within ``budget`` seconds.  The library stops its own searches at the budget
        (``BudgetExceeded``); the pool kills the process a little later if the job has not answered."""
        try:
            return await self.pool.run(job, args, budget * 1.2 + 0.25)
        except OutOfMemory:
            mb = self.limits.solver_memory_mb
            message = f"the work needed more than the solver's memory limit of {mb} MiB (it was stopped)"
            raise ServiceError(422, "budget-exceeded", "The solver's memory budget ran out", message,
                               [ErrorItem(code="budget-exceeded", message=message,
                                          hint="ask for a smaller hand or simpler house rules")]) from None
        except BudgetExceeded:
            message = f"the solver did not finish within its budget of {budget * 1000:.0f} ms (it was stopped)"
            raise ServiceError(422, "budget-exceeded", "The solver's time budget ran out", message,
                               [ErrorItem(code="budget-exceeded", message=message,
                                          hint="ask for a smaller hand or a larger budget_ms")]) from None
        except Busy:
            raise ServiceError(503, "busy", "Every solver is busy", "every solver process stayed busy; retry later",
                               headers={"Retry-After": "1"}) from None
        except JobError as e:
            raise self.solver_error(e, budget) from None

    def solver_error(self, e: JobError | LobaError, budget: float) -> ServiceError:
        """A solver's library error as a problem: its budget ran out, or the input is wrong."""
        if isinstance(e, LobaError):
            from loba_service.problems import job_error

            e = JobError(job_error(e))
        if True:
            v = e.value
            items = [msgspec.convert(x, ErrorItem) for x in v.get("errors", [])]
            if any(i.code == "budget" for i in items):  # the library stopped at the budget
                message = f"the solver did not finish within its budget of {budget * 1000:.0f} ms"
                return ServiceError(422, "budget-exceeded", "The solver's time budget ran out", message,
                                    [ErrorItem(code="budget-exceeded", message=message,
                                               hint="ask for a smaller hand or a larger budget_ms")])
            spoken = {lang: (str(said.get("detail")), [msgspec.convert(x, ErrorItem) for x in said.get("errors", [])])
                      for lang, said in v.get("spoken", {}).items()}
            return ServiceError(422, "bad-input", "The request cannot be processed", str(v.get("detail")), items,
                                spoken=spoken)


def _stopped(e: Stopped, seconds: float) -> ServiceError:
    if e.timeout:
        message = f"the request did not finish within its budget of {seconds * 1000:.0f} ms (it was stopped)"
        return ServiceError(422, "budget-exceeded", "The request's time budget ran out", message,
                            [ErrorItem(code="budget-exceeded", message=message,
                                       hint="send less work per request")])
    return ServiceError(499, "disconnected", "The client went away", "the client went away; the work was stopped")


def _house(ref: object) -> bool:
    return isinstance(ref, bodies.HouseRuleset)


def _query_bool(request: Request, name: str) -> bool:
    raw = request.query_params.get(name) if request.scope["query_string"] else None
    if raw is None or raw in ("false", "0"):
        return False
    if raw in ("true", "1", ""):
        return True
    message = f"query parameter '{name}' must be true or false, not {raw[:40]!r}"
    raise ServiceError(422, "bad-query", "Bad query parameter", message,
                       [ErrorItem(code="bad-query", message=message, path=f"?{name}")])


def _query_str(request: Request, name: str, max_length: int, pattern: str | None = None) -> str | None:
    raw = request.query_params.get(name) if request.scope["query_string"] else None
    if raw is None:
        return None
    import re

    if len(raw) > max_length or not raw or (pattern is not None and not re.fullmatch(pattern, raw)):
        message = f"query parameter '{name}' must be 1 to {max_length} characters" + (
            f" matching {pattern}" if pattern else "")
        raise ServiceError(422, "bad-query", "Bad query parameter", message,
                           [ErrorItem(code="bad-query", message=message, path=f"?{name}")])
    return raw


def _guarded(svc: Service, fn: Callable[[Service, Request], Awaitable[Response]]) -> Handler:
    """Turn every expected failure into a problem body; anything else is a bug (500, logged)."""

    async def handler(request: Request) -> Response:
        try:
            return await fn(svc, request)
        except ServiceError as e:
            return problem_response(e, spoken_language(request))
        except LobaError as e:
            return problem_response(from_loba_error(e), spoken_language(request))
        except RecursionError:  # a body nested as deep as the decoder reads, then walked by the library
            return problem_response(svc.too_deep())
        except asyncio.CancelledError as e:
            # uvicorn's graceful stop ran out of time and cancels the requests still running: each is answered
            # 503 (the server is stopping) instead of closed unanswered with a traceback in the log
            if "graceful shutdown" not in str(e):
                raise
            return problem_response(ServiceError(503, "stopping", "The service is stopping",
                                                 "the server stopped before this request's work was done; retry",
                                                 headers={"Retry-After": "1"}), spoken_language(request))

    handler.__name__ = fn.__name__
    handler.__doc__ = fn.__doc__
    return handler


# ---------------------------------------------------------------- endpoints


async def check(svc: Service, request: Request) -> Response:
    """One meld: the same object as ``loba check --json``."""
    explain_all = _query_bool(request, "explain")
    req = svc.decode(bodies.CheckRequest, await svc.body(request))
    speaks(request, req)
    if _house(req.ruleset):  # a house ruleset's cost is the client's choice: in a solver process
        args = (spec_of(req.ruleset), req.cards, req.lang, svc.limits, explain_all, req.messages)
        return _json(await svc.in_process(request, "check", args))
    rs = await svc.ruleset(req.ruleset)
    if len(req.cards) <= 120 and not explain_all:  # a few cards under shipped rules: bounded, well under a ms
        return _json(engine.check_one(req.cards, rs, req.lang, svc.limits, messages=req.messages))

    def work(deadline: Deadline) -> dict[str, Any]:
        return engine.check_one(req.cards, rs, req.lang, svc.limits, explain_all=explain_all, messages=req.messages)

    return _json(await svc.in_thread(request, work))


async def check_batch(svc: Service, request: Request) -> Response:
    """Many melds, as JSON ``{"inputs": {id: cards}}`` or NDJSON (one ``{"id", "cards"}`` per line)."""
    name = _query_str(request, "ruleset", 64)
    lang = _query_str(request, "lang", 8)
    body = await svc.body(request)
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype == NDJSON:
        return await _ndjson_batch(svc, request, body, name or DEFAULT_RULESET, lang)
    req = svc.decode(bodies.CheckBatchRequest, body)
    if len(req.inputs) > svc.limits.max_batch:
        raise _batch_limit(len(req.inputs), svc.limits.max_batch)
    if _house(req.ruleset):
        args = (spec_of(req.ruleset), list(req.inputs.items()), req.lang, svc.limits, False)
        return _json(await svc.in_process(request, "check_batch", args))
    rs = await svc.ruleset(req.ruleset)

    def work(deadline: Deadline) -> dict[str, Any]:
        return dict(engine.check_many(req.inputs.items(), rs, req.lang, svc.limits, deadline))

    return _json({"ruleset": rs.name, "results": await svc.in_thread(request, work)})


def _batch_limit(n: int, limit: int) -> ServiceError:
    message = f"the batch has {n} melds; at most {limit} are accepted"
    return ServiceError(422, "limit", "A limit of the service was passed", message,
                        [ErrorItem(code="limit", message=message)])


async def _ndjson_batch(svc: Service, request: Request, body: bytes, name: str, lang: str | None) -> Response:
    rs = await svc.ruleset(name)
    lines = body.split(b"\n")
    items: list[tuple[str, str]] = []
    dec = msgspec.json.Decoder(bodies.NdjsonLine | str)
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            line = dec.decode(raw)
        except msgspec.MsgspecError as e:
            decode_utf8(body, "<body>")  # not UTF-8: the one wording of every surface, located in the body
            err = body_error(e, raw, media="NDJSON")
            for item in err.errors:
                if item.location.line is not None:
                    item.location.line = number
            raise err from None
        if isinstance(line, str):
            items.append((str(number), line))
        else:
            items.append((line.id if line.id is not None else str(number), line.cards))
        if len(items) > svc.limits.max_batch:
            raise _batch_limit(len(items), svc.limits.max_batch)

    def work(deadline: Deadline) -> bytes:
        return engine.ndjson_lines(engine.check_many(items, rs, lang, svc.limits, deadline))

    return Response(await svc.in_thread(request, work), media_type=NDJSON)


async def score_round(svc: Service, request: Request) -> Response:
    """One round: the same object as ``loba score --json``."""
    req = svc.decode(bodies.ScoreRoundRequest, await svc.body(request))
    speaks(request, req)
    if _house(req.ruleset):
        return _json(await svc.in_process(request, "score_round", (spec_of(req.ruleset), req, svc.limits)))
    rs = await svc.ruleset(req.ruleset)

    def work(deadline: Deadline) -> dict[str, Any]:
        return engine.score_round(req, rs, svc.limits)

    return _json(await svc.in_thread(request, work))


async def score_match(svc: Service, request: Request) -> Response:
    """A match: the same object as ``loba match --json``."""
    req = svc.decode(bodies.ScoreMatchRequest, await svc.body(request))
    speaks(request, req)
    if _house(req.ruleset):
        return _json(await svc.in_process(request, "score_match", (spec_of(req.ruleset), req, svc.limits)))
    rs = await svc.ruleset(req.ruleset)

    def work(deadline: Deadline) -> dict[str, Any]:
        return engine.score_match(req, rs, svc.limits)

    return _json(await svc.in_thread(request, work))


async def arrange(svc: Service, request: Request) -> Response:
    """The best arrangement of a hand, in a solver process under a time budget."""
    from loba_service import jobs

    req = svc.decode(bodies.ArrangeRequest, await svc.body(request))
    speaks(request, req)
    budget = svc.budget(req.budget_ms)
    if _house(req.ruleset):  # read, checked and solved in a solver process
        return _json(await svc.in_process(request, "arrange", (spec_of(req.ruleset), req, svc.limits, budget),
                                          budget * 1.2 + 0.25))
    rs = await svc.ruleset(req.ruleset)
    cards = jobs.arrange_cards(rs, req, svc.limits)
    if len(cards) <= svc.limits.small_hand:  # answered in a few ms: no process hop
        spec = spec_of(req.ruleset)
        quick = min(INLINE_SOLVE, budget)
        try:  # most small hands are solved in a fraction of a millisecond: on the event loop, within INLINE_SOLVE
            return _json(jobs.arrange_request(spec, req, svc.limits, quick, cards, local=True))
        except LobaError as e:
            if not isinstance(e, SearchBudgetExceeded) or quick >= budget:
                raise svc.solver_error(e, budget) from None
        # not solved within INLINE_SOLVE: a worker thread, with the whole budget (the same answer: a search stopped
        # at its budget leaves the solver's caches as they were, holding only finished work)

        def work(deadline: Deadline) -> dict[str, Any]:
            return jobs.arrange_request(spec, req, svc.limits, budget, cards, local=True)

        try:
            return _json(await svc.in_thread(request, work))
        except LobaError as e:
            raise svc.solver_error(e, budget) from None
    args = (spec_of(req.ruleset), req, svc.limits, budget, cards)
    return _json(await svc.solve("arrange_request", args, budget))


async def diff(svc: Service, request: Request) -> Response:
    """How two rulesets differ: rules, witnesses, and play statistics for a bounded ``deals``."""
    req = svc.decode(bodies.DiffRequest, await svc.body(request))
    speaks(request, req)
    if req.deals > svc.limits.max_deals:
        message = f"deals is {req.deals}; at most {svc.limits.max_deals} are accepted"
        raise ServiceError(422, "limit", "A limit of the service was passed", message,
                           [ErrorItem(code="limit", message=message, path="$.deals")])
    for ref in (req.left, req.right):  # a shipped name is checked here; a house ruleset in the solver process
        if not _house(ref):
            await svc.ruleset(ref)
    args = (spec_of(req.left), spec_of(req.right), req.witnesses, req.deals, req.seed)
    return _json(await svc.solve("diff", args, svc.budget(req.budget_ms)))


async def rulesets(svc: Service, request: Request) -> Response:
    """The shipped rulesets, each with its one-line description."""
    from loba_dsl import catalogue_dict, shipped_names

    def work() -> dict[str, Any]:  # the object `loba rulesets --json` prints
        return catalogue_dict([svc.rulesets.shipped(n) for n in shipped_names()], DEFAULT_RULESET)

    return _json(await anyio.to_thread.run_sync(work))


async def ruleset_show(svc: Service, request: Request) -> Response:
    """One shipped ruleset as resolved, with the origin (file:line) of every value."""
    from loba_dsl import shipped_names, show_dict

    name = request.path_params["name"]
    if name not in shipped_names():
        message = f"no shipped ruleset is called {name[:64]!r}"
        raise ServiceError(404, "not-found", "No such ruleset", message,
                           [ErrorItem(code="not-found", message=message,
                                      hint="GET /v1/rulesets lists them")])
    rs = await svc.ruleset(name)
    return _json(show_dict(rs))  # the object `loba show --json --origin` prints


async def validate(svc: Service, request: Request) -> Response:
    """A house ruleset: valid, or every problem with its file, line, column and length."""
    file = _query_str(request, "file", 64, r"[A-Za-z0-9_.\-]{1,64}")
    body = await svc.body(request)
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype in YAML_TYPES:
        text = decode_utf8(body, file or bodies.UNNAMED_RULESET, error=RulesetError)
        if len(text) > svc.limits.max_yaml:
            message = f"the ruleset has {len(text)} characters; at most {svc.limits.max_yaml} are accepted"
            raise ServiceError(422, "limit", "A limit of the service was passed", message,
                               [ErrorItem(code="limit", message=message)])
        req = bodies.ValidateRequest(yaml=text, file=file)
    else:
        req = svc.decode(bodies.ValidateRequest, body)
    speaks(request, req)

    # Compiled in a solver process: a YAML bomb or a deeply nested block costs that process, never the server.
    source = req.file or bodies.UNNAMED_RULESET  # never a file name the client did not send
    return _json(await svc.in_process(request, "validate", (source, req.yaml, req.messages)))


def health(svc: Service) -> bytes:
    """``/healthz``'s body: the service is up, and how many solver processes are alive."""
    return msgspec.json.encode({"status": "ok", "version": __version__, "solvers": svc.pool.alive()})


async def healthz(svc: Service, request: Request) -> Response:
    """The service is up (``loba serve`` answers it before the app: ``GuardedProtocol.quick``)."""
    return Response(health(svc), media_type=JSON)


# ---------------------------------------------------------------- the app


def create_app(limits: Limits | None = None, *, start_solvers: bool = False, tables: Any = None) -> Starlette:
    """The service as an ASGI app.  ``start_solvers``: start the solver processes at start-up (``loba
    serve`` does) rather than at the first heavy call.  ``tables``: the live tables' settings
    (:class:`loba_service.tables.TablesConfig`; default from the environment)."""
    # Small hands are solved in this process's worker threads: the solver is imported now, not by a first
    # request (its import raises the interpreter's recursion limit for the search).
    import loba_dsl

    loba_dsl.Solver  # noqa: B018  (the facade imports the solver's module on this first use)
    from loba_service import openapi, pages
    from loba_service import tables as live_tables

    svc = Service(limits)
    svc.tables = live_tables.Tables(svc, tables)
    document = openapi.document(svc.limits)
    encoded = msgspec.json.encode(document)
    routes: list[tuple[str, Callable[[Service, Request], Awaitable[Response]], str]] = [
        ("/v1/check", check, "POST"),
        ("/v1/check/batch", check_batch, "POST"),
        ("/v1/score/round", score_round, "POST"),
        ("/v1/score/match", score_match, "POST"),
        ("/v1/arrange", arrange, "POST"),
        ("/v1/diff", diff, "POST"),
        ("/v1/rulesets", rulesets, "GET"),
        ("/v1/rulesets/validate", validate, "POST"),
        ("/v1/rulesets/{name}", ruleset_show, "GET"),
        ("/healthz", healthz, "GET"),
    ]
    from loba_service import games, sheets

    routes += games.routes() + sheets.routes() + live_tables.routes()

    async def openapi_json(request: Request) -> Response:
        return Response(encoded, media_type=JSON)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        slug = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "http-error")
        title = {404: "Not found", 405: "Method not allowed"}.get(exc.status_code, "HTTP error")
        err = ServiceError(exc.status_code, slug, title, str(exc.detail))
        err.headers.update(exc.headers or {})
        return problem_response(err)

    async def server_error(request: Request, exc: Exception) -> Response:
        svc.bugs += 1
        log.error("bug answering %s %s: %r", request.method, request.url.path, exc, exc_info=exc)
        return problem_response(ServiceError(500, "bug", "Internal error",
                                             "the service hit a bug; it has been logged"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if start_solvers:  # a real server: the shipped rulesets start from the disk cache, as every command
            enable_disk_cache(shipped_only=True)  # (a client's house ruleset is never written to disk)
            await anyio.to_thread.run_sync(svc.pool.start)
            await anyio.to_thread.run_sync(svc.warm)
            settle_collector()
        await svc.tables.start()
        try:
            yield
        finally:
            svc.stop_work()
            await svc.tables.close()
            await anyio.to_thread.run_sync(svc.pool.close)

    app = Starlette(exception_handlers={HTTPException: http_error, Exception: server_error})
    app.router = ExactRouter([  # a fixed path found by a dict lookup, not by trying every route (routing.py)
        *(Route(path, _guarded(svc, fn), methods=[method]) for path, fn, method in routes),
        Route("/openapi.json", openapi_json, methods=["GET"]),
        *live_tables.socket_routes(svc),
        *pages.routes(),  # the card-table page at /, its files at /static/NAME, the API's at /docs
    ], lifespan=lifespan)
    app.state.service = svc
    return app


def server_app() -> Starlette:
    """The app ``loba serve`` runs (uvicorn's factory): solver processes started with it."""
    import sys

    from loba_service.guard import GuardedProtocol

    # The event loop waits for the GIL behind busy worker threads at most this long: /healthz stays prompt.
    sys.setswitchinterval(0.001)
    app = create_app(start_solvers=True)
    svc: Service = app.state.service
    GuardedProtocol.quick[b"/healthz"] = lambda: health(svc)  # answered as soon as it is read, before the app
    return app


GC_THRESHOLDS = (20_000, 50, 100)
"""The server's cyclic collector thresholds (Python's are 700, 10, 10): see :func:`settle_collector`."""


def settle_collector() -> None:
    """Keep the cyclic garbage collector's full passes off the live tables' latency.

    A full (oldest-generation) pass scans every object the process holds and stops the event loop meanwhile:
    with 200 live tables it took 140-265 ms, several times in 20 s, which was the whole p99 of
    ``benchmarks/bench_tables.py`` (measured with a ``gc.callbacks`` timer).  What the server made at its start
    (modules, compiled rulesets, the warmed caches) is frozen out of every later pass (``gc.freeze``), and the
    young generation is collected every 20,000 net allocations instead of 700, so that objects of a request
    die young instead of being promoted; the oldest generation is still collected (every 100 middle ones), so
    cyclic garbage of finished tables is still freed, only less often.  Reference counting frees everything
    else at once, as before.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
