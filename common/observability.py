"""Logs a person can follow across processes: one JSON object a line, each with the request id.

A request gets an id (the caller's `X-Request-ID` when it is a plausible one, else a new one),
answered in `X-Request-ID`, written on every log line of that request, recorded as the
correlation id of the events it appends (`accounts.actors.request_actor`), and carried in the
headers of the Celery tasks it sends, whose log lines carry it too.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
_VALID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


def current_request_id() -> str | None:
    return _request_id.get()


def request_id_from(header: str | None) -> str:
    """The caller's id when it is 1-64 safe characters; otherwise a new random one."""
    if header and _VALID.fullmatch(header):
        return header
    return uuid.uuid4().hex


def forget_request_id(**_: Any) -> None:
    _request_id.set(None)


class RequestIdMiddleware:
    """Sets the id for the whole request: Django logs the answer's status after the middleware
    returns, so the id is forgotten only when the request is finished."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        request_finished.connect(forget_request_id, dispatch_uid="common.observability")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request.headers.get(HEADER))
        _request_id.set(request_id)
        response = self.get_response(request)
        response.headers[HEADER] = request_id
        return response


class JsonLinesFormatter(logging.Formatter):
    """A log record as one JSON object: time, level, logger, message, request id, exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": current_request_id(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


# Celery: the id travels in the task's headers and is current while the task runs.


def add_request_id_to_task(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """`before_task_publish`: tasks sent while handling a request carry its id."""
    request_id = current_request_id()
    if headers is not None and request_id and "request_id" not in headers:
        headers["request_id"] = request_id


def adopt_task_request_id(task: Any = None, **_: Any) -> None:
    """`task_prerun`: the task's log lines carry the id of the request that sent it."""
    _request_id.set(getattr(getattr(task, "request", None), "request_id", None))
