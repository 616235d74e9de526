"""A database connection kept between requests that the server dropped (a restart) is replaced
before the next request uses it, instead of failing that request (issue 10 §4).

Requests go through Django's WSGI handler as gunicorn calls it: the test client leaves out the
connection housekeeping of a request's start and end, which is what is tested here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any
from wsgiref.util import setup_testing_defaults

import psycopg
import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)

PUBLIC_READ = "/api/v1/tournaments/"


def terminate(backend_pid: int) -> None:
    """End the backend from another session, as a database restart would, and wait for it."""
    db = connection.settings_dict
    with psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"] or None,
        password=db["PASSWORD"] or None,
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        autocommit=True,
    ) as other:
        assert other.execute("SELECT pg_terminate_backend(%s)", [backend_pid]).fetchone() == (True,)
        deadline = time.monotonic() + 10
        while other.execute(
            "SELECT 1 FROM pg_stat_activity WHERE pid = %s", [backend_pid]
        ).fetchone():
            assert time.monotonic() < deadline, "the backend did not end"
            time.sleep(0.01)


@pytest.fixture
def persistent_connections(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Connections kept between requests, as deployed (the test settings close them)."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()
    yield
    connection.close()


def get(path: str) -> tuple[int, dict[str, str]]:
    """GET `path` through the WSGI handler; the status and the headers."""
    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    environ["PATH_INFO"] = path
    answer: list[tuple[str, list[tuple[str, str]]]] = []

    def start_response(
        status: str,
        headers: list[tuple[str, str]],
        _exc_info: Any = None,
        /,
    ) -> Callable[[bytes], object]:
        answer.append((status, headers))
        return lambda _data: None

    body = WSGIHandler()(environ, start_response)
    try:
        b"".join(body)
    finally:
        body.close()  # the end of the request, as the server signals it
    status, headers = answer[0]
    return int(status.split()[0]), dict(headers)


def backend_pid() -> int:
    assert connection.connection is not None
    pid: int = connection.connection.info.backend_pid
    return pid


@pytest.mark.usefixtures("persistent_connections")
def test_a_connection_dropped_between_two_requests_is_replaced_and_the_next_request_succeeds() -> (
    None
):
    assert get(PUBLIC_READ)[0] == 200
    first = backend_pid()
    terminate(first)

    status, headers = get(PUBLIC_READ)

    assert (status, headers["Content-Type"]) == (200, "application/json")
    assert backend_pid() != first
