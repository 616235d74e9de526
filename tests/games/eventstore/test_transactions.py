"""How appends meet transactions: on their own, inside a caller's, and at other isolation levels."""

import threading
import time

import psycopg
import pytest
from django.db import DataError, connection, transaction

from games.eventstore.api import NewEvent, WrongExpectedVersion, read_stream, stream_version
from tests.games.eventstore.builders import append, card_played, in_threads, new_stream_id

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 10  # seconds; only reached when a test is about to fail


def test_an_append_outside_any_transaction_is_committed_when_it_returns() -> None:
    stream_id = new_stream_id()

    result = append(stream_id, expected_version=0)

    assert connection.get_autocommit()
    seen_elsewhere = in_threads(lambda _: read_stream(stream_id=stream_id), 1)[0]
    assert list(result.events) == seen_elsewhere


def test_a_conflict_outside_any_transaction_leaves_the_connection_ready_for_the_next_append() -> (
    None
):
    stream_id = new_stream_id()
    append(stream_id, expected_version=0)

    with pytest.raises(WrongExpectedVersion):
        append(stream_id, expected_version=0)
    append(stream_id, expected_version=1)

    assert stream_version(stream_id=stream_id) == 2


def test_a_database_error_outside_any_transaction_appends_nothing_and_leaves_no_lock() -> None:
    stream_id = new_stream_id()
    unstorable = NewEvent("NoteTaken", {"note": "\x00"})  # jsonb refuses the NUL character

    with pytest.raises(DataError):
        append(stream_id, [card_played("1D"), unstorable], expected_version=0)
    others_can_append = in_threads(lambda _: append().last_version, 1)

    assert others_can_append == [1]
    assert stream_version(stream_id=stream_id) == 0


def test_a_caller_transaction_holds_back_other_appends_until_it_ends() -> None:
    appended_in_transaction = threading.Event()
    may_commit = threading.Event()

    def caller_with_a_transaction() -> int:
        with transaction.atomic():
            position = append().last_position
            appended_in_transaction.set()
            may_commit.wait(WAIT)
        return position

    def other_writer() -> int:
        appended_in_transaction.wait(WAIT)
        return append().last_position

    def watcher() -> bool:
        appended_in_transaction.wait(WAIT)
        other_waited = wait_until_an_append_waits_for_the_lock()
        may_commit.set()
        return other_waited

    work = [caller_with_a_transaction, other_writer, watcher]
    first_position, second_position, other_waited = in_threads(lambda i: work[i](), 3)

    assert other_waited
    assert second_position > first_position


def test_a_repeatable_read_caller_with_a_stale_snapshot_gets_a_version_conflict() -> None:
    stream_id = new_stream_id()
    append(stream_id, expected_version=0)
    snapshot_taken = threading.Event()
    other_appended = threading.Event()

    def stale_caller() -> int:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            assert stream_version(stream_id=stream_id) == 1
            snapshot_taken.set()
            other_appended.wait(WAIT)
            with pytest.raises(WrongExpectedVersion) as conflict:
                append(stream_id, expected_version=1)
        return conflict.value.current_version

    def other_writer() -> int:
        snapshot_taken.wait(WAIT)
        append(stream_id, expected_version=1)
        other_appended.set()
        return 0

    work = [stale_caller, other_writer]
    reported_version, _ = in_threads(lambda i: work[i](), 2)

    assert reported_version == 2
    assert stream_version(stream_id=stream_id) == 2


def test_a_connection_without_the_test_bypass_cannot_truncate() -> None:
    stream_id = append().events[0].stream_id
    settings = connection.settings_dict

    with (
        psycopg.connect(
            dbname=settings["NAME"],
            user=settings["USER"],
            password=settings["PASSWORD"] or None,
            host=settings["HOST"],
            port=settings["PORT"] or None,
        ) as plain_connection,
        pytest.raises(psycopg.errors.RestrictViolation, match="TRUNCATE is not allowed"),
    ):
        plain_connection.execute("TRUNCATE eventstore_event")

    assert stream_version(stream_id=stream_id) == 1


def wait_until_an_append_waits_for_the_lock() -> bool:
    deadline = time.monotonic() + WAIT
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
                "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            )
            row = cursor.fetchone()
            if row and row[0] > 0:
                return True
            time.sleep(0.01)
    return False
