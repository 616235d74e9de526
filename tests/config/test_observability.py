"""Requests carry an id from the answer to the log lines, the events and the tasks they cause."""

import contextvars
import io
import json
import logging
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client

from common.observability import (
    JsonLinesFormatter,
    RequestIdMiddleware,
    add_request_id_to_task,
    adopt_task_request_id,
    current_request_id,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def request_log() -> Iterator[io.StringIO]:
    """What Django's request logger writes, through the JSON lines formatter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLinesFormatter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)


def test_a_request_is_answered_with_the_id_its_caller_gave(client: Client) -> None:
    response = client.get("/healthz", HTTP_X_REQUEST_ID="table-3.tablet-7")

    assert response.headers["X-Request-ID"] == "table-3.tablet-7"


@pytest.mark.parametrize("given", [None, "", "no spaces allowed", "x" * 65])
def test_a_request_without_a_plausible_id_gets_a_new_one(client: Client, given: str | None) -> None:
    headers = {} if given is None else {"X-Request-ID": given}

    first = client.get("/healthz", headers=headers).headers["X-Request-ID"]
    second = client.get("/healthz", headers=headers).headers["X-Request-ID"]

    assert len(first) == 32
    assert first != second


def test_log_lines_are_json_objects_with_the_request_id(
    client: Client, request_log: io.StringIO
) -> None:
    response = client.get("/api/v1/matches/not-a-match/", HTTP_X_REQUEST_ID="lost-tablet")

    (line,) = request_log.getvalue().splitlines()
    record = json.loads(line)
    assert response.status_code == 404
    assert record["request_id"] == "lost-tablet"
    assert record["level"] == "WARNING"
    assert "/api/v1/matches/not-a-match/" in record["message"]


def test_tasks_sent_during_a_request_carry_its_id_and_run_under_it() -> None:
    sent: dict[str, Any] = {}

    def view(request: HttpRequest) -> HttpResponse:  # noqa: ARG001 - a view takes the request
        add_request_id_to_task(headers=sent)
        return HttpResponse()

    request = HttpRequest()
    request.META["HTTP_X_REQUEST_ID"] = "result-entered"
    contextvars.copy_context().run(RequestIdMiddleware(view), request)

    def run_task() -> str | None:
        adopt_task_request_id(task=SimpleNamespace(request=SimpleNamespace(**sent)))
        return current_request_id()

    assert sent == {"request_id": "result-entered"}
    assert contextvars.copy_context().run(run_task) == "result-entered"
    assert current_request_id() is None
