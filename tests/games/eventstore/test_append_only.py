"""The tables refuse every change but an insert, whoever asks (tests run with the TRUNCATE
bypass on, which proves it lets UPDATE and DELETE through in no case)."""

import uuid

import pytest
from django.db import IntegrityError, connection, transaction

from games.eventstore.api import EventStoreMisuse
from games.eventstore.models import Event, IdempotencyKey
from tests.games.eventstore.builders import append, new_stream_id

pytestmark = pytest.mark.django_db

TABLES = ["eventstore_event", "eventstore_idempotency_key"]


def run_sql(sql: str) -> None:
    # Each attempt in its own savepoint, so the test's transaction survives the refusal.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)


@pytest.fixture
def stream_id() -> uuid.UUID:
    """A stream with one event, appended with an idempotency key."""
    return append(new_stream_id(), idempotency_key="k").events[0].stream_id


def rows_of(stream_id: uuid.UUID) -> tuple[int, int]:
    return (
        Event.objects.filter(stream_id=stream_id).count(),
        IdempotencyKey.objects.filter(stream_id=stream_id).count(),
    )


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize(
    ("statement", "verb"),
    [
        ("UPDATE {table} SET recorded_at = now()", "UPDATE"),
        ("DELETE FROM {table}", "DELETE"),
        ("UPDATE {table} SET recorded_at = now() WHERE false", "UPDATE"),
        ("DELETE FROM {table} WHERE false", "DELETE"),
    ],
    ids=["update", "delete", "update no row", "delete no row"],
)
def test_update_and_delete_are_refused_even_with_the_truncate_bypass_on(
    stream_id: uuid.UUID, table: str, statement: str, verb: str
) -> None:
    with pytest.raises(IntegrityError, match=f"{table} is append-only: {verb} is not allowed"):
        run_sql(statement.format(table=table))

    assert rows_of(stream_id) == (1, 1)


def test_orm_updates_and_deletes_are_refused_by_the_database(stream_id: uuid.UUID) -> None:
    events = Event.objects.filter(stream_id=stream_id)
    keys = IdempotencyKey.objects.filter(stream_id=stream_id)

    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        events.update(event_type="Tampered")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        events.delete()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        keys.update(key="other")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        keys.delete()

    assert events.get().event_type == "CardPlayed"
    assert keys.get().key == "k"


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("bypass", ["off", "", "true"])
def test_truncate_is_refused_unless_the_test_bypass_is_on(
    stream_id: uuid.UUID, table: str, bypass: str
) -> None:
    def truncate_with_the_bypass_set_to(value: str) -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL eventstore.allow_truncate = '{value}'")
            cursor.execute(f"TRUNCATE {table} CASCADE")

    with pytest.raises(IntegrityError, match=f"{table} is append-only: TRUNCATE is not allowed"):
        truncate_with_the_bypass_set_to(bypass)

    assert rows_of(stream_id) == (1, 1)


@pytest.mark.usefixtures("stream_id")
def test_test_connections_may_truncate_so_transactional_tests_can_flush() -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SHOW eventstore.allow_truncate")
        assert cursor.fetchone() == ("on",)
        cursor.execute("TRUNCATE eventstore_event, eventstore_idempotency_key")
        assert Event.objects.count() == 0
        transaction.set_rollback(True)


def test_model_instances_refuse_to_be_saved_or_deleted(stream_id: uuid.UUID) -> None:
    event = Event.objects.get(stream_id=stream_id)

    with pytest.raises(EventStoreMisuse):
        event.save()
    with pytest.raises(EventStoreMisuse):
        event.delete()
    with pytest.raises(EventStoreMisuse):
        Event(stream_id=new_stream_id(), stream_type="match", stream_version=1).save()
    with pytest.raises(EventStoreMisuse):
        IdempotencyKey.objects.get(stream_id=stream_id).save()
