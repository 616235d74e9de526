"""The event log and its idempotency keys: two append-only tables.

Rows are written only by `games.eventstore.api.append_to_stream`, which takes the global append
lock that keeps commit order equal to position order; PostgreSQL triggers (migration 0002)
reject UPDATE, DELETE and TRUNCATE. See docs/decisions/0003-event-store.md.
"""

from typing import Any

from django.db import models
from django.db.models.functions import Now
from django.utils.translation import pgettext

from games.eventstore.errors import EventStoreMisuse

EVENT_TABLE = "eventstore_event"
IDEMPOTENCY_KEY_TABLE = "eventstore_idempotency_key"

STREAM_TYPE_MAX_LENGTH = 50
EVENT_TYPE_MAX_LENGTH = 100
IDEMPOTENCY_KEY_MAX_LENGTH = 200
COMMAND_FINGERPRINT_MAX_LENGTH = 128


class AppendOnlyModel(models.Model):
    """Refuses `save()` and `delete()`: rows come from append_to_stream and are never changed."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        raise EventStoreMisuse(
            f"{type(self).__name__} rows are written by "
            "games.eventstore.api.append_to_stream and never saved or changed directly."
        )

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise EventStoreMisuse(f"{type(self).__name__} rows are never deleted.")


class Event(AppendOnlyModel):
    """One fact, recorded once: the `stream_version`-th event of stream `stream_id`."""

    global_position = models.BigAutoField(primary_key=True)
    stream_id = models.UUIDField()
    stream_type = models.CharField(max_length=STREAM_TYPE_MAX_LENGTH)
    stream_version = models.PositiveIntegerField()
    event_type = models.CharField(max_length=EVENT_TYPE_MAX_LENGTH)
    schema_version = models.PositiveIntegerField(default=1)
    payload = models.JSONField()
    metadata = models.JSONField(default=dict)
    recorded_at = models.DateTimeField(db_default=Now())
    # sha256 of the previous event's chain_hash in the stream and this event (migration 0004);
    # filled by a PostgreSQL trigger on every insert, checked by `manage.py verify_log`.
    chain_hash = models.BinaryField(editable=False)

    class Meta:
        db_table = EVENT_TABLE
        ordering = ["global_position"]
        constraints = [
            models.UniqueConstraint(
                fields=["stream_id", "stream_version"],
                name="eventstore_event_stream_version_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(stream_version__gte=1),
                name="eventstore_event_stream_version_from_1",
            ),
            models.CheckConstraint(
                condition=models.Q(schema_version__gte=1),
                name="eventstore_event_schema_version_from_1",
            ),
        ]
        indexes = [
            # Consumers that follow one kind of stream (read_all with stream_types).
            models.Index(
                fields=["stream_type", "global_position"],
                name="eventstore_event_type_pos_idx",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"#{self.global_position} {self.event_type} "
            # The stream type's word, as the API's errors say it (common/exceptions.py).
            f"({pgettext('stream type', self.stream_type)} {self.stream_id} v{self.stream_version})"
        )


class IdempotencyKey(AppendOnlyModel):
    """The first append made with `key` on a stream, so a retried command appends nothing."""

    stream_id = models.UUIDField()
    key = models.CharField(max_length=IDEMPOTENCY_KEY_MAX_LENGTH)
    command_fingerprint = models.CharField(max_length=COMMAND_FINGERPRINT_MAX_LENGTH)
    first_version = models.PositiveIntegerField()
    last_version = models.PositiveIntegerField()
    first_position = models.BigIntegerField()
    recorded_at = models.DateTimeField(db_default=Now())

    class Meta:
        db_table = IDEMPOTENCY_KEY_TABLE
        ordering = ["first_position"]
        constraints = [
            models.UniqueConstraint(
                fields=["stream_id", "key"],
                name="eventstore_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} on {self.stream_id} (v{self.first_version}-v{self.last_version})"
