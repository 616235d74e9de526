"""The server-sent event stream of one match (games/api/streaming.py)."""

from __future__ import annotations

from uuid import UUID

from django.http import StreamingHttpResponse
from rest_framework.request import Request

from games.access import MatchAccess
from games.api.responses import viewer
from games.api.streaming import (
    EventStreamApi,
    FollowedFeed,
    ReadAfter,
    event_stream_response,
    event_stream_schema,
    resume_position,
)
from games.eventstore.api import RecordedEvent
from games.feeds import streams_feed
from games.matches.selectors import ViewerOfMatch
from games.visibility import EVERYTHING

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

        def read_as(viewer_of_match: ViewerOfMatch) -> ReadAfter:
            def read_after(position: int, limit: int) -> list[RecordedEvent]:
                return streams_feed(
                    stream_ids=[match_id],
                    after=position,
                    viewer_of_match=viewer_of_match,
                    limit=limit,
                )

            return read_after

        feed = FollowedFeed(
            key=("match", match_id),
            read=read_as(lambda _: seen_as),
            read_all=read_as(lambda _: EVERYTHING),
            streams=frozenset({str(match_id)}),
            viewer_of_match=lambda _: seen_as,
        )
        return event_stream_response(request, feed, after)
