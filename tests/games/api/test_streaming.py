"""The bounded stream every event stream sends, on a clock the test moves: the retry hint first,
the backlog in pages without waiting, polls while quiet, keep-alive comments, and the end."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from games.api.streaming import KEEP_ALIVE, event_message, event_stream
from games.eventstore.api import EventMetadata, RecordedEvent
from games.feeds import MAX_FEED_PAGE

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
    """A log that grows as the test says, read as a stream reads its feed; and a clock that
    moves only when the stream sleeps."""

    def __init__(self, positions: range) -> None:
        self.positions = list(positions)
        self.now = 0.0
        self.reads: list[tuple[int, float]] = []
        self.sleeps: list[float] = []
        self.grow_at: dict[float, int] = {}

    def read_after(self, after: int, limit: int) -> list[RecordedEvent]:
        self.reads.append((after, self.now))
        return [recorded(p) for p in self.positions if p > after][:limit]

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now = round(self.now + seconds, 6)
        for moment, position in list(self.grow_at.items()):
            if self.now >= moment:
                self.positions.append(position)
                del self.grow_at[moment]

    def stream(self, after: int = 0) -> list[bytes]:
        return list(event_stream(self.read_after, after, clock=lambda: self.now, sleep=self.sleep))


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
def test_a_quiet_stream_polls_each_poll_interval_and_ends_when_its_time_is_up() -> None:
    log = Log(range(1, 2))

    messages = log.stream()

    assert log.sleeps == [1.0] * 30
    assert log.reads[-1] == (1, 30.0)
    assert [message for message in messages if message.startswith(b"id: ")] == [
        event_message(recorded(1))
    ]


@pytest.mark.usefixtures("times")
def test_a_new_event_is_sent_at_the_next_poll_after_the_last_position_sent() -> None:
    log = Log(range(1, 3))
    log.grow_at[4.0] = 9

    messages = log.stream()

    assert [message.split(b"\n")[0] for message in messages if message.startswith(b"id: ")] == [
        b"id: 1",
        b"id: 2",
        b"id: 9",
    ]
    assert (2, 4.0) in log.reads


@pytest.mark.usefixtures("times")
def test_a_keep_alive_comment_is_sent_after_fifteen_quiet_seconds() -> None:
    log = Log(range(1, 2))
    log.grow_at[10.0] = 2

    messages = log.stream()

    assert messages.count(KEEP_ALIVE) == 1  # 15 s after the event at 10 s; the end at 30 s
    assert messages.index(KEEP_ALIVE) > messages.index(event_message(recorded(2)))


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
