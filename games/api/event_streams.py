"""The server-sent event stream of one match (games/api/streaming.py)."""

from __future__ import annotations

from uuid import UUID

from django.http import StreamingHttpResponse
from rest_framework.request import Request

from games.access import MatchAccess
from games.api.responses import viewer
from games.api.streaming import (
    EventStreamApi,
    event_stream_response,
    event_stream_schema,
    resume_position,
)
from games.eventstore.api import RecordedEvent
from games.feeds import streams_feed

TAG = "events"


class MatchEventStreamApi(EventStreamApi):
    """Whoever may read the match follows it: its events as they may read them (the feed
    document carries no one's identity, only a correction's reason)."""

    permission_classes = [MatchAccess]

    @event_stream_schema(
        operation_id="match_event_stream",
        summary="The events of one match as server-sent events, live",
        tag=TAG,
        errors={404: "`match_not_found`."},
    )
    def get(self, request: Request, match_id: UUID) -> StreamingHttpResponse:
        after = resume_position(request)
        seen_as = viewer(request, match_id)

        def read_after(position: int, limit: int) -> list[RecordedEvent]:
            return streams_feed(
                stream_ids=[match_id],
                after=position,
                viewer_of_match=lambda _: seen_as,
                limit=limit,
            )

        return event_stream_response(read_after, after)
