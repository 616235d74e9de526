"""The followers of a web process (games/api/followers.py): a feed is read once for all its
followers, only when a notification may concern it, and a follower that reads too slowly is
dropped instead of buffered; the last one to leave stops the feed and the listener."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from games.api import followers
from games.eventstore.api import EventMetadata, RecordedEvent
from tests.event_streams import run_to_the_end

MATCH = uuid.UUID("00000000-0000-4000-8000-0000000000ab")


def recorded(position: int) -> RecordedEvent:
    return RecordedEvent(
        global_position=position,
        stream_id=MATCH,
        stream_type="match",
        stream_version=position,
        event_type="CardPlayed",
        schema_version=1,
        payload={"round": 1, "seat": 0, "card": "1D"},
        metadata=EventMetadata(),
        recorded_at=datetime(2026, 11, 28, 20, 0, tzinfo=UTC),
    )


class Log:
    """The feed's reads: what is above a position, and how often it was asked."""

    def __init__(self) -> None:
        self.positions: list[int] = []
        self.reads: list[int] = []

    def read(self, after: int, limit: int) -> list[RecordedEvent]:
        self.reads.append(after)
        return [recorded(p) for p in self.positions if p > after][:limit]


@pytest.fixture(autouse=True)
def no_listener(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """The hub without its database listener: the tests notify it themselves."""

    async def listen(_: followers.Hub) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(followers.Hub, "listen", listen)
    settings.FEED_POLL_SECONDS = 600.0  # no poll within a test: only notifications wake


async def settled(follower: followers.Follower, count: int) -> None:
    """Until `count` batches wait for the follower (the feed's task runs meanwhile)."""
    while follower.batches.qsize() < count:
        await asyncio.sleep(0)


def test_a_hundred_followers_of_a_feed_share_one_read_per_notification() -> None:
    log = Log()

    async def follow() -> tuple[list[int], list[list[int]]]:
        hub = followers.Hub()
        crowd = [
            hub.follow("match", log.read, streams=frozenset({str(MATCH)}), after=0)
            for _ in range(100)
        ]
        await asyncio.wait_for(settled(crowd[0], 0), 5)
        while log.reads != [0]:  # the first read, at once, finds nothing
            await asyncio.sleep(0.001)
        log.positions += [1, 2]
        hub.notified(f"2 {MATCH}")
        await asyncio.wait_for(settled(crowd[-1], 1), 5)
        received = [[e.global_position for e in f.batches.get_nowait()] for f in crowd]
        for follower in crowd:
            follower.close()
        return log.reads, received

    reads, received = run_to_the_end(follow)

    assert reads == [0, 0]
    assert received == [[1, 2]] * 100


def test_a_match_feed_is_not_read_for_another_stream_s_notification() -> None:
    log = Log()

    async def follow() -> list[int]:
        hub = followers.Hub()
        follower = hub.follow("match", log.read, streams=frozenset({str(MATCH)}), after=0)
        while log.reads != [0]:
            await asyncio.sleep(0.001)
        hub.notified(f"7 {uuid.uuid4()}")
        for _ in range(20):
            await asyncio.sleep(0)
        follower.close()
        return log.reads

    assert run_to_the_end(follow) == [0]


def test_a_follower_that_reads_too_slowly_is_dropped_and_leaves_the_feed(settings: Any) -> None:
    settings.FEED_FOLLOWER_BACKLOG = 2
    log = Log()

    async def follow() -> tuple[bool, bool, int, bool, bool]:
        hub = followers.Hub()
        slow = hub.follow("match", log.read, streams=None, after=0)
        reading = hub.follow("match", log.read, streams=None, after=0)
        for position in (1, 2, 3):
            reading.hand([recorded(position)])
            reading.batches.get_nowait()
            slow.hand([recorded(position)])
        feed = hub.feeds["match"]
        result = (slow.dropped, reading.dropped, len(feed.followers), hub.listener is None)
        reading.close()
        return *result, hub.listener is None and not hub.feeds

    slow_dropped, reading_dropped, left, listener_stopped_early, all_stopped = run_to_the_end(
        follow
    )

    assert slow_dropped
    assert not reading_dropped
    assert left == 1
    assert not listener_stopped_early  # another follower still follows
    assert all_stopped  # the last one left: no feed, no listener
