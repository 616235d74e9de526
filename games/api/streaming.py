"""Server-sent event streams of the log (docs/decisions/0038-server-sent-event-feeds.md, amended
by 0051-async-feeds.md): what the match stream and the tournament stream share.

A stream is served on the asynchronous path (uvicorn, config/asgi.py): the view (synchronous,
as every API view) checks access, takes one of the process's stream slots (per client address
and per process, else 429 `too_many_streams` with Retry-After) and reads the first page of the
backlog in one query; then an asynchronous iterator sends it, reads any further page, and
follows the feed with the process's other followers (games/api/followers.py): it holds no
thread and no database connection while it waits. It sends a `: keep-alive` comment when it
has said nothing for `FEED_KEEPALIVE_SECONDS`, and ends after `FEED_STREAM_SECONDS`. Its first
message says how soon to reconnect (`retry`), and a client reconnects with the last id it
received (`Last-Event-ID`, which browsers' EventSource send by themselves): ids are global
positions, so it resumes without gaps or repeats.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from asgiref.sync import sync_to_async
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

from accounts.throttling import client_address
from common.api.base import JsonApi
from common.api.commands import QueryIntegerField, validated_query
from common.api.schema import error_responses
from common.api.serializing import Serializer
from common.parsing import ascii_int
from games.api.followers import hub, release_connection
from games.eventstore.api import RecordedEvent
from games.feeds import MAX_FEED_PAGE, feed_document
from games.matches.selectors import ViewerOfMatch, visible_event
from games.visibility import reveals_deck

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
    http_method_names = ["get", "options"]  # a HEAD would take a stream slot for nothing

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


class SharedMessages:
    """The message of each event handed on live, encoded once for all the followers in the
    process that send it: they share the event object their feed read (games/api/followers.py),
    so it is kept by that object's identity, with the object itself (so that the identity
    cannot be reused while kept), for the last `size` events. A redacted copy is another
    object, encoded for itself."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._messages: OrderedDict[int, tuple[RecordedEvent, bytes]] = OrderedDict()

    def message(self, event: RecordedEvent) -> bytes:
        with self._lock:
            kept = self._messages.get(id(event))
        if kept is not None and kept[0] is event:
            return kept[1]
        message = event_message(event)
        with self._lock:
            self._messages[id(event)] = (event, message)
            while len(self._messages) > self.size:
                self._messages.popitem(last=False)
        return message


SHARED_MESSAGES = SharedMessages(size=4096)


class Subscription(Protocol):
    """A stream's place among its feed's followers (games/api/followers.py)."""

    dropped: bool

    @property
    def cursor(self) -> int: ...

    async def next_batch(self, timeout: float) -> list[RecordedEvent] | None: ...

    def close(self) -> None: ...


class Source(Protocol):
    """Where a stream's events come from: its own reads (as its reader may see them) and the
    feed it follows with the process's other followers."""

    async def read(self, after: int, limit: int) -> list[RecordedEvent]: ...

    def follow(self, after: int) -> Subscription: ...

    async def redact(self, events: list[RecordedEvent]) -> list[RecordedEvent]: ...


@dataclass
class _Progress:
    """Where a stream is: the last position it sent, and when it last said something."""

    after: int
    said_at: float


async def _sent(
    events: list[RecordedEvent], progress: _Progress, clock: Callable[[], float]
) -> AsyncIterator[bytes]:
    for event in events:
        yield event_message(event)
        progress.after = event.global_position
    if events:
        progress.said_at = clock()


async def _backlog(
    source: Source,
    page: list[RecordedEvent],
    progress: _Progress,
    clock: Callable[[], float],
    deadline: float,
) -> AsyncIterator[bytes]:
    """The backlog from `page` on, the next page read at once after a full one."""
    while True:
        async for message in _sent(page, progress, clock):
            yield message
        if len(page) < MAX_FEED_PAGE or clock() >= deadline:
            return
        page = await source.read(progress.after, MAX_FEED_PAGE)


async def event_stream(
    source: Source,
    after: int,
    *,
    first_page: list[RecordedEvent] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> AsyncIterator[bytes]:
    """The messages of one bounded stream: the reconnection delay, then the events above
    `after` (the backlog in pages, `first_page` already read), then each new event the feed
    hands on, until the stream's time is up or it was dropped for reading too slowly."""
    keep_alive = float(settings.FEED_KEEPALIVE_SECONDS)
    progress = _Progress(after=after, said_at=clock())
    deadline = progress.said_at + float(settings.FEED_STREAM_SECONDS)
    yield f"retry: {int(settings.FEED_RETRY_MILLISECONDS)}\n\n".encode()
    page = first_page if first_page is not None else await source.read(after, MAX_FEED_PAGE)
    async for message in _backlog(source, page, progress, clock, deadline):
        yield message
    if clock() >= deadline:
        return
    subscription = source.follow(progress.after)
    try:
        if subscription.cursor > progress.after:  # the feed read past this stream's backlog
            page = await source.read(progress.after, MAX_FEED_PAGE)
            async for message in _backlog(source, page, progress, clock, deadline):
                yield message
        while clock() < deadline and not subscription.dropped:
            wait = min(deadline, progress.said_at + keep_alive) - clock()
            batch = await subscription.next_batch(wait)
            if batch is None:
                now = clock()
                if now < deadline and now - progress.said_at >= keep_alive:
                    yield KEEP_ALIVE
                    progress.said_at = now
                continue
            news = await source.redact(
                [event for event in batch if event.global_position > progress.after]
            )
            if news:  # one write for the batch, each event encoded once for every follower
                yield b"".join(SHARED_MESSAGES.message(event) for event in news)
                progress.after = news[-1].global_position
                progress.said_at = clock()
    finally:
        subscription.close()


@dataclass(frozen=True)
class FollowedFeed:
    """What a stream view hands over: the feed's key in the process (the same for every
    follower of that match or tournament), the read as this reader may see it, the read of the
    whole feed (shared, redacted per follower), the streams whose notifications concern it
    (None: any), and this reader's viewer of each match; `withheld`, when this reader may not
    read some events yet (a tournament's silent rounds, decision record 0060): whether an event
    is one of them (called once per event, in log order, in a thread: it may read the rows)."""

    key: Hashable
    read: ReadAfter
    read_all: ReadAfter
    streams: frozenset[str] | None
    viewer_of_match: ViewerOfMatch
    withheld: Callable[[RecordedEvent], bool] | None = None


def _read_released(read: ReadAfter, after: int, limit: int) -> list[RecordedEvent]:
    try:
        return read(after, limit)
    finally:
        release_connection()


def _redact_released(
    events: list[RecordedEvent],
    viewer_of_match: ViewerOfMatch,
    withheld: Callable[[RecordedEvent], bool] | None = None,
) -> list[RecordedEvent]:
    try:
        return [
            visible_event(event, viewer_of_match)
            for event in events
            if withheld is None or not withheld(event)
        ]
    finally:
        release_connection()


@dataclass(frozen=True)
class LiveSource:
    """A stream's source in a web process: its reads go to a thread (the request's own, or the
    process's one thread for the streams' short synchronous work: config/asgi.py) and give the
    connection back at once; it follows the feed through the process's hub."""

    feed: FollowedFeed

    async def read(self, after: int, limit: int) -> list[RecordedEvent]:
        return await sync_to_async(_read_released)(self.feed.read, after, limit)

    def follow(self, after: int) -> Subscription:
        feed = self.feed
        return hub().follow(feed.key, feed.read_all, streams=feed.streams, after=after)

    async def redact(self, events: list[RecordedEvent]) -> list[RecordedEvent]:
        """As the reader may see them; only a dealt round's start asks who the reader is."""
        withheld = self.feed.withheld
        if withheld is None and not any(
            reveals_deck(stream_type=e.stream_type, event_type=e.event_type, payload=e.payload)
            for e in events
        ):
            return events
        return await sync_to_async(_redact_released)(events, self.feed.viewer_of_match, withheld)


class TooManyStreams(exceptions.Throttled):
    default_code = "too_many_streams"
    default_detail = gettext_lazy("Too many streams are open; try again later.")


class StreamSlots:
    """The streams open in this process, in all and per client address."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0
        self.by_address: Counter[str] = Counter()

    def take(self, address: str) -> Callable[[], None]:
        """A slot for one more stream from `address` (TooManyStreams if none is free); the
        function returned gives it back (once, however often it is called)."""
        with self._lock:
            if self.open >= int(settings.FEED_STREAMS_PER_PROCESS) or self.by_address[
                address
            ] >= int(settings.FEED_STREAMS_PER_ADDRESS):
                wait = int(settings.FEED_BUSY_RETRY_SECONDS)
                # DRF adds "Expected available in N seconds." to the detail.
                raise TooManyStreams(wait=wait, detail=gettext("Too many streams are open."))
            self.open += 1
            self.by_address[address] += 1
        given_back = threading.Event()

        def give_back() -> None:
            with self._lock:
                if given_back.is_set():
                    return
                given_back.set()
                self.open -= 1
                self.by_address[address] -= 1
                if self.by_address[address] <= 0:
                    del self.by_address[address]

        return give_back


SLOTS = StreamSlots()


async def _giving_back(
    stream: AsyncIterator[bytes], give_back: Callable[[], None]
) -> AsyncIterator[bytes]:
    try:
        async for message in stream:
            yield message
    finally:
        give_back()


class EventStreamResponse(StreamingHttpResponse):
    """A stream's answer, which gives its slot back when it is closed (also when the stream
    never began: the client left before its first message)."""

    def __init__(self, stream: AsyncIterator[bytes], give_back: Callable[[], None]) -> None:
        super().__init__(stream, content_type=EVENT_STREAM)
        self.give_back = give_back

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.give_back()


def event_stream_response(
    request: Request, feed: FollowedFeed, after: int
) -> StreamingHttpResponse:
    """The stream of `feed` from `after` for this request: a slot taken, the first page of the
    backlog read (one query), the connection given back; the rest is asynchronous."""
    give_back = SLOTS.take(client_address(request))
    try:
        first_page = _read_released(feed.read, after, MAX_FEED_PAGE)
    except BaseException:
        give_back()
        raise
    stream = event_stream(LiveSource(feed), after, first_page=first_page)
    response = EventStreamResponse(_giving_back(stream, give_back), give_back)
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
                        429: "`throttled` (too many requests from this client) or "
                        "`too_many_streams` (this address or this server has as many streams open "
                        "as it may); `Retry-After` says when to try again.",
                        **errors,
                    },
                    write=False,
                ).items()
            },
        },
    )
