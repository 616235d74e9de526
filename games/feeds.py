"""Feeds of the log for software that follows a match or a tournament as it is played (the
server-sent event streams and the outgoing webhooks): the events of a few streams after a
position, each as its reader may see it, in one public document shape."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any
from uuid import UUID

from games.eventstore.api import RecordedEvent, read_streams_after
from games.matches.selectors import ViewerOfMatch, check_log_page, visible_event

MAX_FEED_PAGE = 500


def streams_feed(
    *,
    stream_ids: Collection[UUID],
    after: int,
    viewer_of_match: ViewerOfMatch,
    limit: int = MAX_FEED_PAGE,
    more_streams: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> list[RecordedEvent]:
    """The events of these streams above global position `after`, oldest first, each match's
    events as `viewer_of_match(match_id)` may read them (a dealt round's deck hidden).

    A reader resumes by passing the last position it received: positions only increase and
    appends commit in position order, so nothing is skipped and nothing comes twice.
    `more_streams` and `params`: see `read_streams_after`."""
    check_log_page(after=after, limit=limit, most=MAX_FEED_PAGE)
    events = read_streams_after(
        stream_ids=stream_ids, after=after, limit=limit, more_streams=more_streams, params=params
    )
    return [visible_event(event, viewer_of_match) for event in events]


def feed_document(event: RecordedEvent) -> dict[str, Any]:
    """An event as a feed delivers it: where it is in the log, what happened and when. Of the
    metadata only the reason travels (a correction's why); who entered it, from which device,
    stays with the organizers' audit."""
    return {
        "position": event.global_position,
        "stream_id": str(event.stream_id),
        "stream_type": event.stream_type,
        "stream_version": event.stream_version,
        "event_type": event.event_type,
        "payload": event.payload,
        "reason": event.metadata.reason,
        "recorded_at": event.recorded_at.isoformat(),
    }
