"""A property-based fuzz of the whole API from its own OpenAPI schema, with schemathesis.

Every operation of /api/v1/schema/ gets requests generated from the schema, valid and invalid
ones, sent in-process to the Django WSGI application with a token so that writes get past
authentication. Path parameters are random or, as often, the ids of a small seeded world (a match
in play, a finished one, tournaments open and started), so the operations meet real things too.
Each answer must be no 5xx, have a status, content type, headers and body that the schema
documents, refuse what the schema says is invalid, and, when it is an error, record nothing.
Generated bodies seldom make a legal command: test_valid_writes.py sends one valid command to
every write and checks its answer against the schema the same way.

Each example runs in a savepoint rolled back afterwards, so every example meets the same world;
generation is derandomized with a fixed seed and no example database, so a run is reproducible.
SKIP_API_FUZZ=1 leaves this module out; FUZZ_EXAMPLES (25 per operation) and FUZZ_SEED explore
further, e.g. `FUZZ_EXAMPLES=200 FUZZ_SEED=7 pytest tests/security/test_api_fuzz.py`.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token

from games.eventstore.api import last_position
from tests.security.fuzzing import (
    CHECKS,
    SKIPPED_BY_SWITCH,
    authorization,
    requests_in_process,
    schema,
)

pytestmark = SKIPPED_BY_SWITCH


@schema.parametrize()
@settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
@pytest.mark.usefixtures("seeded")
def test_every_operation_answers_as_its_schema_says_and_an_error_records_nothing(
    case: schemathesis.Case[Any],
    token: Token,
) -> None:
    with transaction.atomic(), requests_in_process():
        before = last_position()
        response = case.call(headers=authorization(token))
        case.validate_response(response, checks=CHECKS)
        if response.status_code >= 400:
            assert last_position() == before, f"{response.status_code} but events recorded"
        transaction.set_rollback(True)
