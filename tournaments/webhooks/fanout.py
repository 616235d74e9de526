"""The webhooks' fan-out: a consumer of the global log that turns each event of a tournament
with active endpoints into one delivery row per endpoint.

It reads the tournament and match streams after its own checkpoint (`webhooks`), one batch per
transaction, holding the checkpoint row locked from before it reads the endpoints until it has
moved the checkpoint: a registration takes the same lock to read the log's head, so a new
endpoint gets exactly the events after its registration. A match's events belong to the
tournament whose fixture it is. Rows are inserted with ON CONFLICT DO NOTHING on (endpoint,
position), so a batch done twice adds nothing; the ids of the rows it added are returned for
the caller to enqueue after the commit (`tournaments.webhooks.tasks`).

With no active endpoint anywhere the checkpoint simply moves to the log's head. The delivery
rows are an operational log, not a projection: `rebuild_projections` leaves them and this
checkpoint alone (docs/decisions/0039-outgoing-webhooks.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from uuid import UUID

from django.db import connection, transaction
from django.utils import timezone

from games.eventstore.api import RecordedEvent, last_position, read_all
from games.matches.projections import MATCH_STREAM
from tournaments.models import Fixture, Tournament, WebhookDelivery, WebhookEndpoint
from tournaments.selectors.silence import WithheldEvents
from tournaments.services.pipeline import TOURNAMENT_STREAM
from tournaments.webhooks.services import FAN_OUT, locked_fan_out_checkpoint

BATCH = 500

_table = WebhookDelivery._meta.db_table
_INSERT = (
    f"INSERT INTO {_table} "  # noqa: S608 - a constant table name; the values are bound
    "(endpoint_id, position, event_type, stream_id, status, attempts, last_error, "
    "next_attempt_at, created_at) "
    "SELECT * FROM unnest(%(endpoints)s::bigint[], %(positions)s::bigint[], "
    "%(types)s::varchar[], %(streams)s::uuid[]) AS d(endpoint_id, position, event_type, stream_id) "
    "CROSS JOIN (SELECT 'pending', 0, '', %(now)s::timestamptz, %(now)s::timestamptz) AS f "
    "ON CONFLICT (endpoint_id, position) DO NOTHING RETURNING id"
)

__all__ = ["BATCH", "FAN_OUT", "fan_out", "fan_out_batch"]


def owners(events: Sequence[RecordedEvent]) -> dict[UUID, UUID]:
    """The tournament of each event's stream: itself, or the tournament of the match."""
    matches = {e.stream_id for e in events if e.stream_type == MATCH_STREAM}
    found = dict(
        Fixture.objects.filter(match_id__in=matches).values_list("match_id", "tournament_id")
    )
    found.update({e.stream_id: e.stream_id for e in events if e.stream_type == TOURNAMENT_STREAM})
    return found


def silent_tournaments(tournament_ids: Iterable[UUID]) -> dict[UUID, WithheldEvents]:
    """What the subscribers of tournaments whose last rounds are silent are not sent."""
    silent = Tournament.objects.filter(
        id__in=list(tournament_ids), silent_from_round__isnull=False
    ).values_list("id", "silent_from_round")
    return {
        tournament_id: WithheldEvents(tournament_id=tournament_id, from_round=from_round)
        for tournament_id, from_round in silent
        if from_round is not None
    }


def insert_deliveries(
    events: Sequence[RecordedEvent], endpoints: Sequence[WebhookEndpoint]
) -> list[int]:
    by_tournament: dict[UUID, list[WebhookEndpoint]] = defaultdict(list)
    for endpoint in endpoints:
        by_tournament[endpoint.tournament_id].append(endpoint)
    tournament_of = owners(events)
    withheld = silent_tournaments(by_tournament)
    rows: dict[str, list[object]] = {"endpoints": [], "positions": [], "types": [], "streams": []}
    for event in events:
        tournament_id = tournament_of.get(event.stream_id)
        if tournament_id is None:  # a free-standing match
            continue
        if tournament_id in withheld and withheld[tournament_id](event):
            continue  # a silent round's: never delivered; `ResultsRevealed` is (decision 0060)
        for endpoint in by_tournament.get(tournament_id, []):
            if event.global_position > endpoint.after_position:
                rows["endpoints"].append(endpoint.id)
                rows["positions"].append(event.global_position)
                rows["types"].append(event.event_type)
                rows["streams"].append(event.stream_id)
    if not rows["endpoints"]:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_INSERT, {**rows, "now": timezone.now()})
        return [row[0] for row in cursor.fetchall()]


def fan_out_batch(*, batch: int = BATCH) -> tuple[int, list[int]]:
    """One batch in one transaction: the events read and the ids of the deliveries added."""
    with transaction.atomic():
        checkpoint = locked_fan_out_checkpoint()
        endpoints = list(WebhookEndpoint.objects.filter(active=True))
        if not endpoints:
            head = last_position()
            if head > checkpoint.position:
                checkpoint.position = head
                checkpoint.save(update_fields=["position", "updated_at"])
            return 0, []
        events = read_all(
            after=checkpoint.position, limit=batch, stream_types=[TOURNAMENT_STREAM, MATCH_STREAM]
        )
        if not events:
            return 0, []
        added = insert_deliveries(events, endpoints)
        checkpoint.position = events[-1].global_position
        checkpoint.save(update_fields=["position", "updated_at"])
    return len(events), added


def fan_out(*, batch: int = BATCH) -> list[int]:
    """Fan out everything after the checkpoint; the ids of the deliveries added."""
    added: list[int] = []
    while True:
        read, ids = fan_out_batch(batch=batch)
        added.extend(ids)
        if read < batch:
            return added
