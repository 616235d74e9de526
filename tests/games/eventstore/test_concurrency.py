"""Real threads, each with its own connection, appending and reading at once.

Modelled on the recorder tests of mature event stores: concurrent writers, a reader tailing
the global log that must never skip an event that commits late, and racing expected versions.
"""

import threading
from collections import Counter

import pytest

from games.eventstore.api import (
    ANY_VERSION,
    AppendResult,
    WrongExpectedVersion,
    read_all,
    read_stream,
    stream_version,
)
from tests.games.eventstore.builders import (
    TailingReader,
    append,
    card_played,
    cards_played,
    in_threads,
    new_stream_id,
    table_positions,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tailing_reader_sees_every_position_once_and_in_order_while_ten_writers_append() -> None:
    writers, appends_each = 10, 100
    streams = [new_stream_id() for _ in range(writers)]
    start = threading.Barrier(writers)

    def write(writer: int) -> None:
        start.wait()
        for version in range(appends_each):
            append(streams[writer], [card_played(seat=writer)], expected_version=version)

    with TailingReader(lambda after: read_all(after=after, limit=50)) as reader:
        in_threads(write, writers)

    assert len(reader.seen) == writers * appends_each
    assert reader.seen == sorted(set(reader.seen))
    assert reader.seen == table_positions()
    assert reader.batches > 1
    for stream_id in streams:
        assert stream_version(stream_id=stream_id) == appends_each


def test_two_racing_writers_get_unique_contiguous_positions_in_commit_order() -> None:
    appends_each = 1000
    stream_id = new_stream_id()
    start = threading.Barrier(2)

    def write(writer: int) -> list[int]:
        start.wait()
        return [
            append(stream_id, [card_played(seat=writer)]).last_position for _ in range(appends_each)
        ]

    with TailingReader(lambda after: read_all(after=after, limit=100)) as reader:
        positions_by_writer = in_threads(write, 2)

    every_position = sorted(positions_by_writer[0] + positions_by_writer[1])
    assert len(set(every_position)) == 2 * appends_each
    assert every_position == list(range(every_position[0], every_position[0] + 2 * appends_each))
    assert reader.seen == every_position == table_positions()
    assert all(positions == sorted(positions) for positions in positions_by_writer)
    # One stream, two writers: versions were handed out in the same order as positions.
    events = read_stream(stream_id=stream_id)
    assert [e.stream_version for e in events] == list(range(1, 2 * appends_each + 1))
    assert [e.global_position for e in events] == every_position


def test_only_one_of_many_writers_expecting_the_same_version_wins_each_version() -> None:
    writers, versions = 8, 15
    stream_id = new_stream_id()
    round_start = threading.Barrier(writers)
    outcomes: list[list[str]] = [[] for _ in range(versions)]

    def write(writer: int) -> None:
        for version in range(versions):
            round_start.wait()
            try:
                append(stream_id, [card_played(seat=writer)], expected_version=version)
            except WrongExpectedVersion as conflict:
                outcomes[version].append(f"conflict at {conflict.current_version}")
            else:
                outcomes[version].append("appended")

    in_threads(write, writers)

    for version, outcome in enumerate(outcomes):
        assert Counter(outcome) == {"appended": 1, f"conflict at {version + 1}": writers - 1}
    assert stream_version(stream_id=stream_id) == versions


def test_concurrent_retries_of_one_command_append_it_once() -> None:
    retries = 8
    stream_id = new_stream_id()
    start = threading.Barrier(retries)

    def retry(_: int) -> AppendResult:
        start.wait()
        return append(
            stream_id, cards_played("1D", "3C"), expected_version=0, idempotency_key="play-1"
        )

    results = in_threads(retry, retries)

    assert sorted(result.duplicate for result in results) == [False] + [True] * (retries - 1)
    assert all(result.events == results[0].events for result in results)
    assert stream_version(stream_id=stream_id) == 2


def test_appends_with_any_version_to_one_stream_never_conflict() -> None:
    writers, appends_each = 4, 25
    stream_id = new_stream_id()

    def write(_: int) -> None:
        for _ in range(appends_each):
            append(stream_id, expected_version=ANY_VERSION)

    in_threads(write, writers)

    assert stream_version(stream_id=stream_id) == writers * appends_each
