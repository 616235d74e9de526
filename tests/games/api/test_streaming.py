"""The bounded stream every event stream sends, on a clock the test moves: the retry hint first,
the backlog in pages without waiting, each event the feed hands on once, keep-alive comments,
and the end; a follower that reads too slowly is dropped."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from games.api.streaming import KEEP_ALIVE, SharedMessages, event_message, event_stream
from games.eventstore.api import EventMetadata, RecordedEvent
from games.feeds import MAX_FEED_PAGE
from tests.event_streams import run_to_the_end

STREAM = uuid.UUID("00000000-0000-4000-8000-0000000000aa")


def recorded(position: int, *, reason: str | None = None) -> RecordedEvent:
    return RecordedEvent(
        global_position=position,
        stream_id=STREAM,
        stream_type="match",
        stream_version=position,
        event_type="CardPlayed",
        schema_version=1,
        payload={"round": 1, "seat": 0, "card": "1D", "name": "Nicolò\u2028"},
        metadata=EventMetadata(actor_id=7, device="tablet", reason=reason),
        recorded_at=datetime(2026, 11, 24, 20, 0, tzinfo=UTC),
    )


class Log:
    """A log that grows as the test says, read as a stream reads it, and the feed the stream
    follows; a clock that moves only while the stream waits for the feed."""

    def __init__(self, positions: range) -> None:
        self.positions = list(positions)
        self.now = 0.0
        self.reads: list[tuple[int, float]] = []
        self.waits: list[float] = []
        self.grow_at: dict[float, int] = {}
        self.feed_cursor = 0
        self.dropped = False
        self.closed = False
        self.read_by_feed_meanwhile: list[int] = []

    async def read(self, after: int, limit: int) -> list[RecordedEvent]:
        self.reads.append((after, self.now))
        return [recorded(p) for p in self.positions if p > after][:limit]

    def follow(self, after: int) -> Log:
        self.positions += self.read_by_feed_meanwhile
        self.feed_cursor = max(self.feed_cursor, after, *self.read_by_feed_meanwhile)
        return self

    async def redact(self, events: list[RecordedEvent]) -> list[RecordedEvent]:
        return events

    @property
    def cursor(self) -> int:
        return self.feed_cursor

    async def next_batch(self, timeout: float) -> list[RecordedEvent] | None:
        """What the feed hands on: the events that appear before the timeout, else None."""
        self.waits.append(timeout)
        due = [moment for moment in self.grow_at if moment <= self.now + timeout]
        if not due:
            self.now = round(self.now + timeout, 6)
            return None
        self.now = min(due)
        position = self.grow_at.pop(self.now)
        self.positions.append(position)
        batch = [recorded(p) for p in self.positions if p > self.feed_cursor]
        self.feed_cursor = position
        return batch

    def close(self) -> None:
        self.closed = True

    def stream(self, after: int = 0) -> list[bytes]:
        async def read_all() -> list[bytes]:
            return [message async for message in event_stream(self, after, clock=self.clock)]

        return run_to_the_end(read_all)

    def clock(self) -> float:
        return self.now


@pytest.fixture
def times(settings: Any) -> None:
    settings.FEED_POLL_SECONDS = 1.0
    settings.FEED_KEEPALIVE_SECONDS = 15.0
    settings.FEED_STREAM_SECONDS = 30.0
    settings.FEED_RETRY_MILLISECONDS = 2000


@pytest.mark.usefixtures("times")
def test_the_first_message_tells_how_soon_to_reconnect() -> None:
    messages = Log(range(1, 3)).stream()

    assert messages[0] == b"retry: 2000\n\n"


@pytest.mark.usefixtures("times")
def test_a_backlog_larger_than_a_page_is_read_page_after_page_without_waiting() -> None:
    log = Log(range(1, 2 * MAX_FEED_PAGE + 11))

    messages = log.stream(after=5)

    events = [message for message in messages if message.startswith(b"id: ")]
    assert len(events) == 2 * MAX_FEED_PAGE + 5
    assert events[0].startswith(b"id: 6\n")
    assert [after for after, _ in log.reads[:3]] == [5, 5 + MAX_FEED_PAGE, 5 + 2 * MAX_FEED_PAGE]
    assert [at for _, at in log.reads[:3]] == [0.0, 0.0, 0.0]


@pytest.mark.usefixtures("times")
def test_a_quiet_stream_waits_for_the_feed_and_ends_when_its_time_is_up() -> None:
    log = Log(range(1, 2))

    messages = log.stream()

    assert sum(log.waits) == 30.0
    assert log.closed
    assert [message for message in messages if message.startswith(b"id: ")] == [
        event_message(recorded(1))
    ]


@pytest.mark.usefixtures("times")
def test_each_event_the_feed_hands_on_is_sent_once_after_the_last_position_sent() -> None:
    log = Log(range(1, 3))
    log.feed_cursor = 1  # the feed was behind this stream: position 2 comes again, once sent
    log.grow_at[4.0] = 9

    messages = log.stream()

    assert [message.split(b"\n")[0] for message in messages if message.startswith(b"id: ")] == [
        b"id: 1",
        b"id: 2",
        b"id: 9",
    ]


@pytest.mark.usefixtures("times")
def test_a_stream_reads_what_the_feed_read_past_its_backlog_itself() -> None:
    log = Log(range(1, 3))
    log.read_by_feed_meanwhile = [4, 5]  # appended and handed on before this stream followed

    messages = log.stream()

    assert [message.split(b"\n")[0] for message in messages if message.startswith(b"id: ")] == [
        b"id: 1",
        b"id: 2",
        b"id: 4",
        b"id: 5",
    ]


@pytest.mark.usefixtures("times")
def test_a_keep_alive_comment_is_sent_after_fifteen_quiet_seconds() -> None:
    log = Log(range(1, 2))
    log.grow_at[10.0] = 2

    messages = log.stream()

    assert messages.count(KEEP_ALIVE) == 1  # 15 s after the event at 10 s; the end at 30 s
    assert messages.index(KEEP_ALIVE) > messages.index(event_message(recorded(2)))


@pytest.mark.usefixtures("times")
def test_a_dropped_follower_s_stream_ends_at_once() -> None:
    log = Log(range(1, 3))
    log.dropped = True

    messages = log.stream()

    assert log.waits == []
    assert log.closed
    assert len([message for message in messages if message.startswith(b"id: ")]) == 2


def test_an_event_message_is_the_position_the_type_and_the_feed_document_on_one_line() -> None:
    message = event_message(recorded(42, reason="wrong card"))

    lines = message.decode().split("\n")
    assert lines[:2] == ["id: 42", "event: CardPlayed"]
    assert lines[2].startswith("data: ")
    assert lines[3:] == ["", ""]
    document = json.loads(lines[2].removeprefix("data: "))
    assert document["position"] == 42
    assert document["reason"] == "wrong card"
    assert document["payload"]["name"] == "Nicolò\u2028"
    assert "device" not in json.dumps(document)


def test_an_event_handed_to_many_followers_is_encoded_once_and_a_copy_of_it_for_itself() -> None:
    messages = SharedMessages(size=2)
    event, copy = recorded(7), recorded(7)

    first = messages.message(event)

    assert messages.message(event) is first  # the same bytes for the next follower
    assert messages.message(copy) is not first  # another object (a redacted copy): its own
    assert messages.message(copy) == first
    messages.message(recorded(8))
    messages.message(recorded(9))
    assert messages.message(event) is not first  # the oldest was let go: encoded again
