"""A tournament's feed: the events of its own stream and of its matches' streams, in log order
(what the server-sent event stream pushes and the webhooks deliver)."""

from __future__ import annotations

from uuid import UUID

from games.eventstore.api import RecordedEvent
from games.feeds import MAX_FEED_PAGE, streams_feed
from games.matches.selectors import ViewerOfMatch
from games.visibility import PUBLIC
from tournaments.models import Fixture

_MATCHES_OF_TOURNAMENT = (
    f"SELECT match_id FROM {Fixture._meta.db_table} WHERE tournament_id = %(tournament)s"  # noqa: S608 - a constant table name; the value is bound
)


def tournament_feed(
    *,
    tournament_id: UUID,
    after: int,
    viewer_of_match: ViewerOfMatch = lambda _: PUBLIC,
    limit: int = MAX_FEED_PAGE,
) -> list[RecordedEvent]:
    """The tournament's events and its matches' events above global position `after`, oldest
    first, each match's as `viewer_of_match` may read them.

    The matches are found in the same statement as the events: a match's fixture row commits
    with its first event, so a reader never reads past a new match's events without them."""
    return streams_feed(
        stream_ids=[tournament_id],
        after=after,
        viewer_of_match=viewer_of_match,
        limit=limit,
        more_streams=_MATCHES_OF_TOURNAMENT,
        params={"tournament": tournament_id},
    )
