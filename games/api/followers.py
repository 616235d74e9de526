"""The followers of the live feeds in one web process (docs/decisions/0051-async-feeds.md).

A web process (uvicorn, one event loop) has **one** listener: an asynchronous psycopg
connection in `LISTEN` on the channel every append notifies (`APPENDED_CHANNEL`, sent in the
append's transaction). Each feed followed in the process (a match, a tournament) is read
**once** for all its followers when a notification may concern it, from the position it last
read (after `FEED_GATHER_SECONDS`, so that a busy moment's appends come in one batch), and each
new page is handed to every follower's bounded queue. A follower thus holds a
coroutine and a queue while it waits: no thread, no database connection.

The notification only wakes: what a feed hands on is what it read from the log, in position
order, so a lost notification (the listener reconnecting) costs latency, never an event; every
feed also reads every `FEED_POLL_SECONDS` in case. A follower whose queue is full (it reads too
slowly) is dropped: its stream ends and it resumes from the log with `Last-Event-ID`.

The shared reads run on a small pool of threads of their own, each read's connection given back
at once (to the pool, or closed): a process holds at most `READ_THREADS` connections for its
feeds, whatever the number of followers, plus the listener's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections

from games.eventstore.api import APPENDED_CHANNEL, RecordedEvent
from games.feeds import MAX_FEED_PAGE

logger = logging.getLogger(__name__)

READ_THREADS = 2
_READS = ThreadPoolExecutor(max_workers=READ_THREADS, thread_name_prefix="feed-read")

RawRead = Callable[[int, int], list[RecordedEvent]]
"""A feed's events above a position (`after`, `limit`), unredacted: each follower redacts."""

LISTENER_NAME = "briscola-feed-listener"
"""The listener's `application_name`, as pg_stat_activity shows it."""
_LISTENER_OPTIONS = ("sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "options")


def release_connection() -> None:
    """Give back this thread's database connection (to the pool, or closed), unless a
    transaction is open on it (a test's, around the test client's request)."""
    if not connection.in_atomic_block:
        connection.close()


def _read_released(read: RawRead, after: int, limit: int) -> list[RecordedEvent]:
    try:
        return read(after, limit)
    finally:
        release_connection()


def listener_parameters() -> dict[str, Any]:
    """psycopg's connection parameters of the default database (the test database in tests)."""
    database = connections.settings[DEFAULT_DB_ALIAS]
    options = database.get("OPTIONS", {})
    parameters = {
        "dbname": database["NAME"],
        "user": database["USER"],
        "password": database["PASSWORD"],
        "host": database["HOST"],
        "port": str(database["PORT"] or ""),
        "application_name": LISTENER_NAME,
        **{name: options[name] for name in _LISTENER_OPTIONS if name in options},
    }
    return {name: value for name, value in parameters.items() if value not in (None, "")}


class Follower:
    """One open stream's place among a feed's followers: the batches handed to it, not yet
    sent, at most `FEED_FOLLOWER_BACKLOG`."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self.batches: asyncio.Queue[list[RecordedEvent]] = asyncio.Queue(
            maxsize=int(settings.FEED_FOLLOWER_BACKLOG)
        )
        self.dropped = False

    @property
    def cursor(self) -> int:
        """The position up to which the feed has read (and handed on)."""
        return self.feed.cursor

    def hand(self, events: list[RecordedEvent]) -> None:
        try:
            self.batches.put_nowait(events)
        except asyncio.QueueFull:
            self.dropped = True  # it reads too slowly: its stream ends, it resumes from the log
            self.close()

    async def next_batch(self, timeout: float) -> list[RecordedEvent] | None:
        """The next batch handed on, or None after `timeout` seconds without one."""
        if not self.batches.empty():
            return self.batches.get_nowait()
        try:  # a timeout rather than wait_for, which wraps the wait in a task of its own
            async with asyncio.timeout(max(timeout, 0.0)):
                return await self.batches.get()
        except TimeoutError:
            return None

    def close(self) -> None:
        self.feed.hub.leave(self)


class Feed:
    """A followed feed: read from `cursor` on when woken, each page handed to its followers."""

    def __init__(
        self,
        hub: Hub,
        key: Hashable,
        read: RawRead,
        streams: frozenset[str] | None,
        cursor: int,
    ) -> None:
        self.hub = hub
        self.key = key
        self.read = read
        self.streams = streams
        self.cursor = cursor
        self.followers: set[Follower] = set()
        self.wake = asyncio.Event()
        self.wake.set()  # read at once: what committed before anybody listened for it
        self.task = asyncio.get_running_loop().create_task(self.run())

    def notified(self, stream_id: str) -> None:
        if self.streams is None or stream_id in self.streams:
            self.wake.set()

    async def run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), float(settings.FEED_POLL_SECONDS))
            # The appends of the next moment come in the same read and batch.
            await asyncio.sleep(float(settings.FEED_GATHER_SECONDS))
            self.wake.clear()
            try:
                await self.read_news()
            except Exception:  # the database went away: read again at the next wake or poll
                logger.warning("feed_read_failed", exc_info=True, extra={"feed": str(self.key)})

    async def read_news(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            events = await loop.run_in_executor(
                _READS, _read_released, self.read, self.cursor, MAX_FEED_PAGE
            )
            if events:
                self.cursor = events[-1].global_position
                for follower in list(self.followers):
                    follower.hand(events)
            if len(events) < MAX_FEED_PAGE:
                return


class Hub:
    """The feeds followed in one event loop (a web process), and their one listener."""

    def __init__(self) -> None:
        self.feeds: dict[Hashable, Feed] = {}
        self.listener: asyncio.Task[None] | None = None

    def follow(
        self, key: Hashable, read: RawRead, *, streams: frozenset[str] | None, after: int
    ) -> Follower:
        """Join the feed `key` (started, from `after`, if nobody follows it yet)."""
        feed = self.feeds.get(key)
        if feed is None:
            feed = self.feeds[key] = Feed(self, key, read, streams, after)
        follower = Follower(feed)
        feed.followers.add(follower)
        if self.listener is None:
            self.listener = asyncio.get_running_loop().create_task(self.listen())
        return follower

    def leave(self, follower: Follower) -> None:
        feed = follower.feed
        feed.followers.discard(follower)
        if not feed.followers and self.feeds.get(feed.key) is feed:
            del self.feeds[feed.key]
            feed.task.cancel()
        if not self.feeds and self.listener is not None:
            self.listener.cancel()  # its connection closes: none is kept without followers
            self.listener = None

    def notified(self, payload: str) -> None:
        _, _, stream_id = payload.partition(" ")
        for feed in list(self.feeds.values()):
            feed.notified(stream_id)

    def wake_all(self) -> None:
        for feed in list(self.feeds.values()):
            feed.wake.set()

    async def listen(self) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    **listener_parameters(), autocommit=True
                ) as listening:
                    await listening.execute(f"LISTEN {APPENDED_CHANNEL}")
                    self.wake_all()  # what was appended while nobody listened
                    async for notification in listening.notifies():
                        self.notified(notification.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("feed_listener_failed", exc_info=True)
                await asyncio.sleep(float(settings.FEED_POLL_SECONDS))

    async def stop(self) -> None:
        """Stop every feed and the listener (the server shutting down)."""
        tasks = [feed.task for feed in self.feeds.values()]
        if self.listener is not None:
            tasks.append(self.listener)
        self.feeds.clear()
        self.listener = None
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


_HUBS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The hub of the running event loop: one per web process."""
    loop = asyncio.get_running_loop()
    found = _HUBS.get(loop)
    if found is None:
        found = _HUBS[loop] = Hub()
    return found


async def stop_hub() -> None:
    found = _HUBS.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.stop()
