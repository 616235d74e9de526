"""The server-sent event stream of a tournament: its own events and its matches'
(games/api/streaming.py, tournaments/selectors/feed.py)."""

from __future__ import annotations

from functools import cache
from uuid import UUID

from django.http import StreamingHttpResponse
from rest_framework.request import Request

from games.api.streaming import (
    EventStreamApi,
    FollowedFeed,
    event_stream_response,
    event_stream_schema,
    resume_position,
)
from games.eventstore.api import RecordedEvent
from games.visibility import EVERYTHING, Viewer, viewer_of
from tournaments.api.schema import TAG, TOURNAMENT_NOT_FOUND
from tournaments.selectors import silence
from tournaments.selectors.access import TournamentAccess
from tournaments.selectors.feed import tournament_feed


class TournamentEventStreamApi(EventStreamApi):
    """Whoever may read the tournament follows it (a public one: anybody), each match's events
    as they may read them."""

    permission_classes = [TournamentAccess]

    @event_stream_schema(
        operation_id="tournament_event_stream",
        summary="The events of a tournament and its matches as server-sent events, live",
        tag=TAG,
        errors=TOURNAMENT_NOT_FOUND,
    )
    def get(self, request: Request, tournament_id: UUID) -> StreamingHttpResponse:
        after = resume_position(request)
        user = request.user
        # The silent rounds' events this follower is not given (decision record 0060): one
        # predicate for the catch-up and the live part, which stops withholding at the reveal.
        withheld = silence.withheld_events(user, request.place)  # type: ignore[attr-defined]

        @cache
        def viewer_of_match(match_id: UUID) -> Viewer:
            """Found once per stream: a stream lasts half a minute."""
            return viewer_of(user, match_id)

        def read_after(position: int, limit: int) -> list[RecordedEvent]:
            """A page as this follower reads it: with events withheld, read on until the page
            is full or the log ends, so a short page still means the end (the stream's
            catch-up reads on after a full one only)."""
            shown: list[RecordedEvent] = []
            while True:
                events = tournament_feed(
                    tournament_id=tournament_id,
                    after=position,
                    viewer_of_match=viewer_of_match,
                    limit=limit,
                )
                if withheld is None:
                    return events
                shown.extend(event for event in events if not withheld(event))
                if len(events) < limit or len(shown) >= limit:
                    return shown[:limit]
                position = events[-1].global_position

        def read_all(position: int, limit: int) -> list[RecordedEvent]:
            return tournament_feed(
                tournament_id=tournament_id,
                after=position,
                viewer_of_match=lambda _: EVERYTHING,
                limit=limit,
            )

        feed = FollowedFeed(
            key=("tournament", tournament_id),
            read=read_after,
            read_all=read_all,
            streams=None,  # a match may join the tournament while it is followed
            viewer_of_match=viewer_of_match,
            withheld=withheld,
        )
        return event_stream_response(request, feed, after)
