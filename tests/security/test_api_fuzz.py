"""A property-based fuzz of the whole API from its own OpenAPI schema, with schemathesis.

Every operation of /api/v1/schema/ gets requests generated from the schema, valid and invalid
ones, sent in-process to the Django WSGI application with a token so that writes get past
authentication. Path parameters are random or, as often, the ids of a small seeded world (a match
in play, a finished one, tournaments open and started), so the operations meet real things too.
Each answer must be no 5xx, have a status, content type, headers and body that the schema
documents, refuse what the schema says is invalid, and, when it is an error, record nothing.
Generated bodies seldom make a legal command: test_valid_writes.py sends one valid command to
every write and checks its answer against the schema the same way.

The world is built once for the module, in a transaction rolled back at its end, and each
example runs in a savepoint rolled back afterwards, so every example meets the same world;
generation is derandomized with a fixed seed and no example database, so a run is reproducible.
SKIP_API_FUZZ=1 leaves this module out; FUZZ_EXAMPLES (12 per operation) and FUZZ_SEED explore
further, e.g. `FUZZ_EXAMPLES=200 FUZZ_SEED=7 pytest tests/security/test_api_fuzz.py`.
"""

from __future__ import annotations

from collections.abc import Iterator
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
from tests.security.world import WORLD, administrator_token, build_world, client_of, new_club

pytestmark = SKIPPED_BY_SWITCH


@pytest.fixture(scope="module")
def world_and_token(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Token]:  # noqa: ARG001 - for its side effect
    """The seeded world of every case, built once (a world for each of the 70 operations was
    half of the module's time), and the token of its organizer."""
    with django_db_blocker.unblock(), transaction.atomic():
        club = new_club()
        token = administrator_token(club)
        WORLD.append(build_world(client_of(token), club))
        try:
            yield token
        finally:
            WORLD.clear()
            transaction.set_rollback(True)


@pytest.fixture
def token(world_and_token: Token, db: None) -> Token:  # noqa: ARG001 - each case in its savepoint
    return world_and_token


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
