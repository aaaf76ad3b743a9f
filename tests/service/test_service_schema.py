"""schemathesis against the served OpenAPI document, in-process (no socket): the issue's acceptance.

For every operation, generated requests (valid ones and, through the negative mode, broken ones) must never
get a server error, every response must match the document (status code documented, content type, body
schema), and a body the schema forbids must be refused.  Bounded (``max_examples``) so CI stays quick; the
service's bug counter must stay 0, which proves no fuzzed input reached the catch-all.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

pytest.importorskip("schemathesis")

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from loba_service import Limits, create_app

# NDJSON (the batch endpoint's second body type) is sent as text, and answered as text, one object a line.
schemathesis.serializer.alias("application/x-ndjson", "text/plain")


@schemathesis.deserializer("application/x-ndjson")
def _ndjson(ctx: Any, response: Any) -> str:
    return str(response.content.decode("utf-8"))


pytestmark = pytest.mark.slow  # `make test-fast` leaves it out; `make test` runs it

APP = create_app(Limits(solvers=1, solver_budget_ms=500, max_budget_ms=1000))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)

EXAMPLES = int(os.environ.get("LOBA_FUZZ_EXAMPLES", "25"))
CHECKS: list[Any] = [not_a_server_error, status_code_conformance, content_type_conformance,
                     response_schema_conformance, negative_data_rejection]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_api(case: Any) -> None:
    response = case.call()
    checks = CHECKS
    if case.media_type == "application/yaml" or response.status_code == 413:
        # Any YAML text is a ruleset to judge: the verdict (valid or every located problem) is a 200, as
        # `loba validate` exits 1 rather than 2 for a broken ruleset, so no YAML body is "rejected".  And a
        # 413 (a generated body past max_body, refused unread) is a rejection the check does not list.
        checks = [c for c in CHECKS if c is not negative_data_rejection]
    case.validate_response(response, checks=checks)


def test_no_fuzzed_input_reached_the_catch_all() -> None:
    assert APP.state.service.bugs == 0


def teardown_module() -> None:
    APP.state.service.pool.close()
