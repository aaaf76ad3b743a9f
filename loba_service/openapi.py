"""The OpenAPI 3.1 document (``/openapi.json``): every body from the msgspec structs, every status code
each operation can answer, and the limits."""

from __future__ import annotations

from typing import Any

import msgspec

from loba_dsl import __version__
from loba_service import bodies
from loba_service.limits import Limits
from loba_service.problems import Problem

__all__ = ["document"]

REF = "#/components/schemas/{name}"

_TYPES: list[Any] = [
    bodies.CheckRequest, bodies.CheckResult, bodies.CheckBatchRequest, bodies.CheckBatchResponse,
    bodies.BatchItemError, bodies.NdjsonLine, bodies.ScoreRoundRequest, bodies.RoundScoreOut,
    bodies.ScoreMatchRequest, bodies.MatchOut, bodies.ArrangeRequest, bodies.ArrangeResponse,
    bodies.DiffRequest, bodies.DiffOut, bodies.RulesetList, bodies.RulesetShow, bodies.ValidateRequest,
    bodies.ValidateOut, bodies.Health, Problem,
]

_STATUS_TEXT = {
    404: "No such resource.",
    409: "The move was made against a stale record (another move came first).",
    410: "The state token is gone: this server process no longer holds (or never held) that state; send the "
         "record instead.",
    413: "The body is larger than the limit (`max_body`).",
    422: "Bad input: the body is not the JSON asked for, or bad cards, a broken ruleset, an illegal round, "
         "a passed limit, a spent solver budget.  Every problem is located.",
    500: "A bug in the service (it is logged); never expected for any input.",
    503: "Every solver process stayed busy past the queue wait; retry after `Retry-After` seconds.",
}


def _ref(t: Any) -> dict[str, str]:
    return {"$ref": REF.format(name=t.__name__)}


def _problem(status: int) -> dict[str, Any]:
    return {"description": _STATUS_TEXT[status], "content": {"application/problem+json": {"schema": _ref(Problem)}}}


def _op(summary: str, description: str, response: Any, *, request: Any = None, errors: tuple[int, ...] = (),
        tag: str, request_content: dict[str, Any] | None = None, response_content: dict[str, Any] | None = None,
        parameters: list[dict[str, Any]] | None = None, op_id: str) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": summary, "description": description, "tags": [tag], "operationId": op_id}
    if parameters:
        op["parameters"] = parameters
    if request is not None:
        content = {"application/json": {"schema": _ref(request)}}
        content.update(request_content or {})
        op["requestBody"] = {"required": True, "content": content}
    ok = {"application/json": {"schema": _ref(response)}}
    ok.update(response_content or {})
    op["responses"] = {"200": {"description": "OK", "content": ok},
                       **{str(s): _problem(s) for s in (*errors, 500)}}
    return op


def _param(name: str, where: str, schema: dict[str, Any], description: str, required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": where, "required": required, "schema": schema, "description": description}


def document(limits: Limits | None = None) -> dict[str, Any]:
    limits = limits or Limits()
    from loba_service import games, sheets
    from loba_service.tables import docs as table_docs
    from loba_service.tables.schema import TYPES as TABLE_TYPES

    types = [*_TYPES, *games.TYPES, *sheets.TYPES, *TABLE_TYPES]
    _, components = msgspec.json.schema_components(types, ref_template=REF)
    # A batch result is a meld's verdict or the errors of an input that is not cards.
    components["CheckBatchResponse"]["properties"]["results"] = {
        "type": "object",
        "additionalProperties": {"anyOf": [_ref(bodies.CheckResult), _ref(bodies.BatchItemError)]},
    }
    post = (413, 422)
    heavy = (413, 422, 503)
    ruleset_q = [_param("ruleset", "query", {"type": "string", "minLength": 1, "maxLength": 64},
                        "NDJSON bodies only: the shipped ruleset (default menos)."),
                 _param("lang", "query", {"type": "string", "minLength": 1, "maxLength": 8},
                        "NDJSON bodies only: rank letters.")]
    paths: dict[str, Any] = {
        "/v1/check": {"post": _op(
            "Check one meld", "Is this card list one legal meld, which kind, what each wild stands for, and why "
            "not: the same object as `loba check --json`.  `?explain=true` adds every kind's verdict and reasons.",
            bodies.CheckResult, request=bodies.CheckRequest, errors=post, tag="melds", op_id="check",
            parameters=[_param("explain", "query", {"type": "boolean"},
                               "Add `explain`: every meld kind's verdict with its reasons.")])},
        "/v1/check/batch": {"post": _op(
            "Check many melds", f"`{{\"inputs\": {{id: cards}}}}` (at most {limits.max_batch}) → "
            "`{\"results\": {id: verdict | errors}}`; or NDJSON in and out (`application/x-ndjson`, one "
            "`{\"id\", \"cards\"}` or a JSON string per line, the ruleset in the query).",
            bodies.CheckBatchResponse, request=bodies.CheckBatchRequest, errors=post, tag="melds",
            op_id="checkBatch", parameters=ruleset_q,
            request_content={"application/x-ndjson": {"schema": {"type": "string"}}},
            response_content={"application/x-ndjson": {"schema": {"type": "string"}}})},
        "/v1/score/round": {"post": _op(
            "Score a round", "Every player's score with meld points, hand value and bonus: the same object as "
            "`loba score --json`.  Give the round file's text (`sheet`) or the players' cards (`players`).",
            bodies.RoundScoreOut, request=bodies.ScoreRoundRequest, errors=post, tag="scoring",
            op_id="scoreRound")},
        "/v1/score/match": {"post": _op(
            "Play a match", "Standings after every round, eliminations, re-entries, the winner: the same object "
            "as `loba match --json`.  Give the match file's text (`sheet`) or the `rounds`.",
            bodies.MatchOut, request=bodies.ScoreMatchRequest, errors=post, tag="scoring", op_id="scoreMatch")},
        "/v1/arrange": {"post": _op(
            "Arrange a hand", "The best arrangement into melds (as `loba arrange --json`), optionally after the "
            "best discard, and the best opening / contract lay-down.  As the player stands, with the CLI's default "
            "(`loba arrange`, `--opened`, `--round`): until `opened` is true, only a lay-down that meets the "
            "opening minimum or the round's contract goes down (a ruleset with contracts needs `round`), and "
            "`can_go_out` says whether the hand can go out with one.  Runs in a solver process within "
            f"`budget_ms` (default {limits.solver_budget_ms}, at most {limits.max_budget_ms}); past it: 422 "
            f"`budget-exceeded`.  At most {limits.max_hand} cards.",
            bodies.ArrangeResponse, request=bodies.ArrangeRequest, errors=heavy, tag="solver", op_id="arrange")},
        "/v1/diff": {"post": _op(
            "Compare two rulesets", "The rules that differ, the smallest witnesses, and play statistics over "
            f"`deals` dealt hands (at most {limits.max_deals}): as `loba diff --json`.  Runs in a solver "
            "process within `budget_ms`.",
            bodies.DiffOut, request=bodies.DiffRequest, errors=heavy, tag="rulesets", op_id="diff")},
        "/v1/rulesets": {"get": _op(
            "List the shipped rulesets", "Each with its one-line description.", bodies.RulesetList,
            tag="rulesets", op_id="rulesets")},
        "/v1/rulesets/{name}": {"get": _op(
            "Show a shipped ruleset", "Resolved (after `extends` and defaults), with the file:line each value "
            "comes from: as `loba show --json --origin`.", bodies.RulesetShow, errors=(404,), tag="rulesets",
            op_id="rulesetShow",
            parameters=[_param("name", "path", {"type": "string", "maxLength": 64}, "A shipped name.", True)])},
        "/v1/rulesets/validate": {"post": _op(
            "Validate a house ruleset", "The YAML as the body (`application/yaml`) or as `{\"yaml\": ...}`: "
            "valid, or every problem with `location.line`, `location.column` and `location.length`.  Its "
            f"`extends` may name shipped rulesets only.  At most {limits.max_yaml} characters.",
            bodies.ValidateOut, request=bodies.ValidateRequest, errors=post, tag="rulesets", op_id="validate",
            request_content={"application/yaml": {"schema": {"type": "string", "maxLength": limits.max_yaml}}},
            parameters=[_param("file", "query", {"type": "string", "pattern": "^[A-Za-z0-9_.\\-]{1,64}$"},
                               "YAML bodies only: the name errors give the text.")])},
        "/healthz": {"get": _op("Health", "The service is up.", bodies.Health, tag="service", op_id="healthz")},
    }
    paths.update(games.paths(_op, _ref, post))
    paths.update(sheets.paths(_op, post))
    paths.update(table_docs.paths())
    limits_text = "\n".join(f"- `{n}` = {v}: {d}" for n, v, d in limits.table())
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "loba-dsl validation service",
            "version": __version__,
            "description": "Loba's rules as data over HTTP: check melds, score rounds and matches, arrange hands, "
                           "compare and validate rulesets, referee games.  Every request may name a shipped "
                           "ruleset (`\"ruleset\": \"menos\"`) or carry a house ruleset as YAML "
                           "(`\"ruleset\": {\"yaml\": \"...\"}`, extending shipped rulesets only).  Every error "
                           "is `application/problem+json` with located `errors`.\n\nLimits (set with "
                           "`LOBA_SERVICE_<NAME>` environment variables; the schemas show the defaults):\n"
                           + limits_text,
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": components},
    }
