"""What the schemathesis tests of the API (test_api_fuzz.py, test_valid_writes.py) share: the
OpenAPI schema read from the WSGI application, the checks every answer passes, the hook that swaps
path parameters for the ids of the seeded world, and requests sent in-process with a token.

SKIP_API_FUZZ=1 leaves those modules out; FUZZ_EXAMPLES (12 per operation) and FUZZ_SEED explore
further."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from tests.security.world import WORLD

SKIP_SWITCH = "SKIP_API_FUZZ"
SCHEMA_PATH = "/api/v1/schema/?format=json"
EXAMPLES_PER_OPERATION = int(os.environ.get("FUZZ_EXAMPLES", "12"))
SEED = int(os.environ.get("FUZZ_SEED", "20240501"))


SKIPPED_BY_SWITCH = pytest.mark.skipif(
    os.environ.get(SKIP_SWITCH, "") not in ("", "0"), reason=f"{SKIP_SWITCH} is set"
)
"""The mark of the modules that SKIP_API_FUZZ leaves out."""


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]

CONFIG = schemathesis.Config.from_dict(
    {
        "seed": SEED,
        # allow-x00: strings with a NUL too, which PostgreSQL cannot store.
        "generation": {"mode": "all", "max-examples": EXAMPLES_PER_OPERATION, "allow-x00": True},
        "phases": {"stateful": {"enabled": False}},
    }
)

schema = schemathesis.openapi.from_wsgi(SCHEMA_PATH, application, config=CONFIG)


def is_of_its_type(name: str, value: Any) -> bool:
    """Whether a generated path parameter is a UUID or a natural number as it should be: only
    those are swapped for real ids, so that a request generated invalid stays invalid."""
    if name in ("match_id", "tournament_id"):
        try:
            uuid.UUID(str(value))
        except ValueError:
            return False
        return True
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any]) -> Any:  # noqa: ARG001 - the hook's signature
    """The generated parameters, or as often those of one of the world's places."""
    if not WORLD or not path_parameters:
        return st.just(path_parameters)
    real = [
        {
            name: place[name] if name in place and is_of_its_type(name, value) else value
            for name, value in path_parameters.items()
        }
        for place in WORLD[0].places()
        if set(path_parameters) & set(place)
    ]
    if not real:  # parameters no place of the world has (a club's slug, a player's id)
        return st.just(path_parameters)
    return st.sampled_from([path_parameters] * len(real) + real)


@contextmanager
def requests_in_process() -> Iterator[None]:
    """Requests through the WSGI handler keep the test's connection and its transaction, as
    Django's test client does: otherwise each request would close the connection. (The test
    client connects the handler again after each of its requests: hence a block, not a fixture.)"""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def authorization(token: Token) -> dict[str, str]:
    return {"Authorization": f"Token {token.key}"}
