"""The live feeds on the asynchronous server (docs/decisions/0051-async-feeds.md): no stream
holds a database connection while it waits, none is left open when streams end, and a client
address or the process may hold only so many streams at once (429 with Retry-After)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.event_streams import (  # noqa: F401 - asgi_server is a fixture
    WAIT_SECONDS,
    AsgiServer,
    EventStream,
    asgi_server,
    streamed_events,
)
from tests.factories.tournaments import TournamentFactory
from tournaments.selectors.feed import tournament_feed


def stream_path(tournament_id: object) -> str:
    return f"/api/v1/tournaments/{tournament_id}/events/stream/"


def other_connections() -> int:
    """Connections to the test database besides this test's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        (count,) = cursor.fetchone()
    return int(count)


@pytest.mark.django_db(transaction=True)
def test_three_hundred_streams_opened_and_closed_leave_no_database_connection_open(
    asgi_server: AsgiServer,  # noqa: F811 - the fixture
    settings: Any,
) -> None:
    settings.FEED_STREAM_SECONDS = 30.0
    settings.FEED_STREAMS_PER_ADDRESS = 300
    tournament = TournamentFactory.create(started=True)
    last = tournament_feed(tournament_id=tournament.id, after=0)[-1].global_position
    baseline = other_connections()
    most_while_open = 0

    for _ in range(6):
        streams = [EventStream(asgi_server.url, stream_path(tournament.id)) for _ in range(50)]
        for stream in streams:
            assert stream.status == 200
            stream.events_until(last)
        most_while_open = max(most_while_open, other_connections())
        for stream in streams:
            stream.close()

    deadline = time.monotonic() + WAIT_SECONDS
    while (left := other_connections()) > baseline:
        assert time.monotonic() < deadline, f"{left} connections left, {baseline} before"
        time.sleep(0.02)
    assert most_while_open <= baseline + 4  # the listener and the feed's reads, not 50 streams


@pytest.fixture
def open_streams() -> Iterator[list[Any]]:
    """Streaming answers of the test client, read to their end (their slots given back) when
    the test ends: the test client closes each as a server would."""
    answers: list[Any] = []
    yield answers
    for answer in answers:
        streamed_events(answer)


@pytest.mark.django_db
def test_a_fifth_stream_from_one_address_is_refused_with_retry_after_until_one_closes(
    api_client: APIClient, settings: Any, open_streams: list[Any]
) -> None:
    settings.FEED_STREAMS_PER_ADDRESS = 4
    settings.FEED_BUSY_RETRY_SECONDS = 7
    path = stream_path(TournamentFactory.create().id)
    open_streams += [api_client.get(path) for _ in range(4)]

    refused = api_client.get(path)
    from_elsewhere = api_client.get(path, REMOTE_ADDR="192.0.2.9")
    open_streams.append(from_elsewhere)
    streamed_events(open_streams.pop(0))  # the stream ends
    again = api_client.get(path)
    open_streams.append(again)

    assert [answer.status_code for answer in open_streams] == [200] * 5
    assert refused.status_code == 429
    assert refused["Retry-After"] == "7"
    assert refused.json()["code"] == "too_many_streams"
    assert "7" in refused.json()["detail"]


@pytest.mark.django_db
def test_a_stream_beyond_the_process_s_limit_is_refused_whatever_the_address(
    api_client: APIClient, settings: Any, open_streams: list[Any]
) -> None:
    settings.FEED_STREAMS_PER_PROCESS = 2
    path = stream_path(TournamentFactory.create().id)
    open_streams += [api_client.get(path, REMOTE_ADDR=f"192.0.2.{n}") for n in (1, 2)]

    refused = api_client.get(path, REMOTE_ADDR="192.0.2.3")

    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_streams"
    assert refused.has_header("Retry-After")
