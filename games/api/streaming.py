"""Server-sent event streams of the log (docs/decisions/0038-server-sent-event-feeds.md): what
the match stream and the tournament stream share.

A stream is served by WSGI workers, which give each open request a thread. So a stream is
bounded: it sends the events after the resume position, then polls the feed for new ones every
`FEED_POLL_SECONDS` (one indexed statement, in autocommit: no transaction is held across the
waits), sends a `: keep-alive` comment when it has said nothing for `FEED_KEEPALIVE_SECONDS`, and
ends after `FEED_STREAM_SECONDS`. Its first message says how soon to reconnect (`retry`), and a
client reconnects with the last id it received (`Last-Event-ID`, which browsers' EventSource
send by themselves): ids are global positions, so it resumes without gaps or repeats.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.http import StreamingHttpResponse
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import JsonApi
from common.api.commands import QueryIntegerField, validated_query
from common.api.schema import error_responses
from common.api.serializing import Serializer
from common.parsing import ascii_int
from games.eventstore.api import RecordedEvent
from games.feeds import MAX_FEED_PAGE, feed_document

EVENT_STREAM = "text/event-stream"
LAST_EVENT_ID_HEADER = "Last-Event-ID"
MAX_GLOBAL_POSITION = 2**63 - 1
KEEP_ALIVE = b": keep-alive\n\n"

ReadAfter = Callable[[int, int], list[RecordedEvent]]
"""The feed of a stream: up to `limit` events above a global position (`after`, `limit`), as
the requester may read them, oldest first."""


class InvalidLastEventId(exceptions.APIException):
    status_code = 400
    default_code = "invalid_last_event_id"
    default_detail = gettext_lazy("Last-Event-ID is the id of an event the stream sent.")


class EventStreamRenderer(BaseRenderer):
    """Names `text/event-stream` for DRF's content negotiation; the view streams it itself."""

    media_type = EVENT_STREAM
    format = "event-stream"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> Any:
        raise NotImplementedError("the view streams its events itself")


class ResumeQuery(Serializer):
    after = QueryIntegerField(
        default=0,
        min_value=0,
        max_value=MAX_GLOBAL_POSITION,
        help_text="On a first connection, send the events above this global position "
        "(default 0: all of them).",
    )

    class Meta:
        ref_name = "EventStreamQuery"


class EventStreamApi(JsonApi):
    """A view that answers a stream of events; errors (before the stream begins) are answered
    in JSON whatever was asked."""

    renderer_classes = [JSONRenderer, EventStreamRenderer]
    http_method_names = ["get", "options"]  # a HEAD would hold a worker thread for nothing

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(response, Response):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


def resume_position(request: Request) -> int:
    """Where the stream resumes: the `Last-Event-ID` header (a reconnecting EventSource sends
    it), else the `after` query parameter, else the beginning of the log. An empty header is
    no header (an EventSource that received no id yet)."""
    header = request.headers.get(LAST_EVENT_ID_HEADER, "")
    if not header:
        return int(validated_query(ResumeQuery, request.query_params)["after"])
    position = ascii_int(header, maximum=MAX_GLOBAL_POSITION)
    if position is None:
        raise InvalidLastEventId(
            gettext("Last-Event-ID is the id of an event the stream sent, not %(value)r.")
            % {"value": header[:40]}
        )
    return position


def event_message(event: RecordedEvent) -> bytes:
    """One event as a server-sent event: its position as the id, its type as the event name,
    its feed document as the data (JSON on one line)."""
    data = json.dumps(
        feed_document(event), cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":")
    )
    return f"id: {event.global_position}\nevent: {event.event_type}\ndata: {data}\n\n".encode()


def event_stream(
    read_after: ReadAfter,
    after: int,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Iterator[bytes]:
    """The messages of one bounded stream: the reconnection delay, then the events above
    `after` (the backlog in pages), then each new event as it is found, until the stream's
    time is up."""
    poll = float(settings.FEED_POLL_SECONDS)
    keep_alive = float(settings.FEED_KEEPALIVE_SECONDS)
    started = clock()
    deadline = started + float(settings.FEED_STREAM_SECONDS)
    yield f"retry: {int(settings.FEED_RETRY_MILLISECONDS)}\n\n".encode()
    said_at = started
    while True:
        page = read_after(after, MAX_FEED_PAGE)
        for event in page:
            yield event_message(event)
            after = event.global_position
        now = clock()
        if page:
            said_at = now
        if now >= deadline:
            return
        if len(page) == MAX_FEED_PAGE:
            continue  # more of the backlog: read on at once
        if now - said_at >= keep_alive:
            yield KEEP_ALIVE
            said_at = now
        sleep(min(poll, deadline - now))


def event_stream_response(read_after: ReadAfter, after: int) -> StreamingHttpResponse:
    response = StreamingHttpResponse(event_stream(read_after, after), content_type=EVENT_STREAM)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy such as nginx passes each message on at once
    return response


STREAM_DESCRIPTION = (
    "A `text/event-stream` of server-sent events. Each event: `id` is its global position in "
    "the log, `event` its type, `data` one JSON object: `position`, `stream_id`, `stream_type`, "
    "`stream_version`, `event_type`, `payload`, `reason` (a correction's why, or null) and "
    "`recorded_at`. The `deck` of a round dealt by the server (in its `RoundStarted` payload) "
    "is null unless you may see everything of that match. The first message is a `retry` "
    "hint; the stream sends the events after the resume position, then each new one as it is "
    "recorded, a `: keep-alive` comment when it has been quiet for a while, and ends after "
    "about half a minute: reconnect with the header `Last-Event-ID` set to the last id "
    "received (an EventSource does so by itself) and nothing is missed or repeated."
)

SERVER_SENT_EVENT = {
    "type": "object",
    "description": "One event of the stream (OpenAPI 3.0 describes each event of a stream).",
    "required": ["id", "event", "data"],
    "properties": {
        "id": {
            "type": "string",
            "pattern": "^[0-9]+$",
            "description": "The event's global position: send it back as `Last-Event-ID`.",
        },
        "event": {"type": "string", "description": "The event type, e.g. `CardPlayed`."},
        "data": {
            "type": "string",
            "description": "The event as one JSON object: `position`, `stream_id`, "
            "`stream_type`, `stream_version`, `event_type`, `payload`, `reason`, `recorded_at`.",
        },
        "retry": {"type": "integer", "description": "Milliseconds to wait before reconnecting."},
    },
}

RESUME_PARAMETERS: list[OpenApiParameter | type[Serializer]] = [
    OpenApiParameter(
        LAST_EVENT_ID_HEADER,
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        pattern="^[0-9]*$",
        description="Resume after this event id (a global position); wins over `after`. "
        "Anything but a number 0 or more is refused (400 `invalid_last_event_id`); empty is "
        "the same as none.",
    ),
    ResumeQuery,
]


def event_stream_schema(
    *, operation_id: str, summary: str, tag: str, errors: Mapping[int, str]
) -> Callable[[Any], Any]:
    """`extend_schema` of a server-sent event stream: 200 `text/event-stream`, and JSON errors."""
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=STREAM_DESCRIPTION,
        tags=[tag],
        parameters=RESUME_PARAMETERS,
        responses={
            (200, EVENT_STREAM): OpenApiResponse(
                SERVER_SENT_EVENT, description="Server-sent events, until the stream's time is up."
            ),
            **{
                (status, "application/json"): response
                for status, response in error_responses(
                    {
                        400: "`invalid_last_event_id` (the header) or `invalid_input` (`after`).",
                        **errors,
                    },
                    write=False,
                ).items()
            },
        },
    )
