"""Followers of the live feeds for the fault suite: hundreds of server-sent event clients on one
asyncio loop in a thread of its own (bench/_streams.py), cheap beside the scorers.

Each follower follows one feed (a match's or a tournament's `events/stream/`), anonymous, as a
family's phone does. One that **stays** joins from the feed's beginning and, each time the
server ends its stream, comes back at once with `Last-Event-ID`, until it has seen the position
the test says its feed ends at. One that **comes and goes** opens its stream (from the feed's
beginning, or from the last event it saw), leaves after a random while (sometimes before the
first message) by closing the connection, stays away a moment and comes back, until the storm
is over. Each keeps the events it received, stream by stream, to be held against the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bench._load import API
from bench._streams import OpenedStream, open_stream
from bench._support import percentile
from tests.event_streams import Message, messages_of
from tournaments.models import Fixture

if TYPE_CHECKING:
    from tests.faults.app import App

JOIN_SECONDS = 2.0
"""The followers join over this many seconds, not all at once."""
VISIT_SECONDS = (0.5, 4.0)
"""How long a follower that comes and goes stays (unless it leaves before the first message)."""
AWAY_SECONDS = (0.2, 1.5)
"""How long it stays away."""
ERROR_PAUSE_SECONDS = 0.2


@dataclass(frozen=True)
class Feed:
    """A followed feed: a match's (its events) or a tournament's (its own and its matches')."""

    kind: str
    """"matches" or "tournaments"."""
    id: str

    @property
    def path(self) -> str:
        return f"{API}/{self.kind}/{self.id}/events/stream/"


@dataclass(frozen=True)
class Seen:
    """An event as a follower received it, or as the log holds it."""

    position: int
    event_type: str
    stream_id: str


@dataclass
class Visit:
    """One stream of a follower: the position it resumed after, and the events it received."""

    after: int
    events: list[Seen] = field(default_factory=list)
    left: bool = True
    """Whether the follower left it before the server ended it (or before its own end)."""


@dataclass
class Follower:
    feed: Feed
    stays: bool
    visits: list[Visit] = field(default_factory=list)
    last: int = 0
    """The position of the last event received."""
    statuses: Counter[int] = field(default_factory=Counter)
    refusals: list[tuple[object, str | None]] = field(default_factory=list)
    """Each 429's code and Retry-After."""
    errors: list[str] = field(default_factory=list)
    keep_alives: int = 0
    departures: int = 0
    """Times it left before the server ended its stream (or before it answered)."""

    def seen(self) -> list[Seen]:
        return [event for visit in self.visits for event in visit.events]


class Crowd:
    """The followers, on an event loop in a thread of their own from `start` until they are
    done (`settle`, then `wait`) or stopped."""

    def __init__(self, port: int, followers: list[Follower], *, seed: int) -> None:
        self.port = port
        self.followers = followers
        self.seed = seed
        self.ends: dict[Feed, int] = {}
        self.over = threading.Event()
        self.open = 0
        self.most_open = 0
        self.failures: list[str] = []
        self.answer_seconds: list[float] = []
        """How long each answered request waited for its status line."""
        self.thread = threading.Thread(target=self._run, name="followers", daemon=True)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.main: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.thread.start()

    def joined(self) -> int:
        """Followers that have had a stream at least once."""
        return sum(1 for follower in self.followers if follower.visits)

    def settle(self, ends: dict[Feed, int]) -> None:
        """The storm is over: those who come and go leave, and those who stay leave once they
        have seen their feed's end (the position of its last event)."""
        self.ends = dict(ends)
        self.over.set()

    def wait(self, timeout: float) -> bool:
        """Whether every follower is done within `timeout` seconds."""
        self.thread.join(timeout)
        return not self.thread.is_alive()

    def stop(self) -> None:
        """Every follower leaves at once (a test that failed)."""
        if self.loop is not None and self.main is not None and self.thread.is_alive():
            with contextlib.suppress(RuntimeError):  # the loop has just ended
                self.loop.call_soon_threadsafe(self.main.cancel)
        self.thread.join(10)

    def lagging(self) -> list[str]:
        """The followers that stay and have not seen their feed's end."""
        return [
            f"{follower.feed.kind} {follower.feed.id}: at {follower.last}, "
            f"the feed ends at {self.ends.get(follower.feed)}, errors {follower.errors[-3:]}"
            for follower in self.followers
            if follower.stays and not self._done(follower)
        ]

    def statuses(self) -> Counter[int]:
        counted: Counter[int] = Counter()
        for follower in self.followers:
            counted.update(follower.statuses)
        return counted

    def figures(self) -> dict[str, object]:
        """What the followers did and saw, for the report."""
        streams = [visit for follower in self.followers for visit in follower.visits]
        left = sum(visit.left for visit in streams)
        statuses = self.statuses()
        return {
            "followers": len(self.followers),
            "stayed": sum(follower.stays for follower in self.followers),
            "streams": statuses[200],
            "refused_429": statuses[429],
            "streams_left_by_the_follower": left,
            "requests_left_before_the_answer": sum(f.departures for f in self.followers) - left,
            "most_streams_at_once": self.most_open,
            "stream_answered_in": seconds_figure(self.answer_seconds),
            "events_seen": sum(len(visit.events) for visit in streams),
            "keep_alives": sum(follower.keep_alives for follower in self.followers),
            "feeds_end_at": {f"{feed.kind} {feed.id[:8]}": end for feed, end in self.ends.items()},
        }

    def _run(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):  # stopped
            asyncio.run(self._all())

    async def _all(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.main = asyncio.current_task()
        results = await asyncio.gather(
            *(
                self._follow(follower, random.Random(self.seed + number))
                for number, follower in enumerate(self.followers)
            ),
            return_exceptions=True,
        )
        self.failures.extend(
            f"{type(result).__name__}: {result}"
            for result in results
            if isinstance(result, BaseException)
        )

    def _done(self, follower: Follower) -> bool:
        if not self.over.is_set():
            return False
        return not follower.stays or follower.last >= self.ends[follower.feed]

    async def _follow(self, follower: Follower, chance: random.Random) -> None:
        await asyncio.sleep(chance.uniform(0.0, JOIN_SECONDS))
        while not self._done(follower):
            if follower.stays:
                await self._attempt(follower, follower.last)
                continue
            after = follower.last if chance.random() < 0.5 else 0
            # One visit in five leaves before its first message, or even before its request.
            early = chance.random() < 0.2
            stay = chance.uniform(0.0, 0.05) if early else chance.uniform(*VISIT_SECONDS)
            try:
                await asyncio.wait_for(self._attempt(follower, after), stay)
            except TimeoutError:
                follower.departures += 1
            await asyncio.sleep(chance.uniform(*AWAY_SECONDS))

    async def _attempt(self, follower: Follower, after: int) -> None:
        try:
            await self._visit(follower, after)
        except (OSError, ValueError, IndexError, KeyError, TypeError) as error:
            follower.errors.append(f"{type(error).__name__}: {error}"[:300])
            await asyncio.sleep(ERROR_PAUSE_SECONDS)

    async def _visit(self, follower: Follower, after: int) -> None:
        """One stream, from `after`, until the server ends it (or the follower is done)."""
        sent = time.monotonic()
        opened = await open_stream(
            self.port, follower.feed.path, last_event_id=str(after) if after else ""
        )
        self.answer_seconds.append(time.monotonic() - sent)
        try:
            follower.statuses[opened.status] += 1
            if opened.status != 200:
                await self._refused(follower, opened)
                return
            visit = Visit(after)
            follower.visits.append(visit)
            self.open += 1
            self.most_open = max(self.most_open, self.open)
            try:
                async for message in _messages(opened):
                    if message.id is not None:
                        stream_id = str(message.data["stream_id"])
                        visit.events.append(Seen(message.id, message.event or "", stream_id))
                        follower.last = message.id
                    elif message.comments:
                        follower.keep_alives += 1
                    if self._done(follower):
                        break
                visit.left = False
            finally:
                self.open -= 1
        finally:
            opened.close()

    async def _refused(self, follower: Follower, opened: OpenedStream) -> None:
        body = await opened.reader.read()
        if opened.status != 429:
            follower.errors.append(f"{opened.status}: {body[:300].decode(errors='replace')}")
            return
        retry_after = opened.headers.get("retry-after")
        follower.refusals.append((json.loads(body).get("code"), retry_after))
        await asyncio.sleep(float(retry_after or 1))


async def _messages(opened: OpenedStream) -> AsyncIterator[Message]:
    """The stream's messages as they come, until the server ends it."""
    lines: list[bytes] = []
    while line := await opened.reader.readline():
        lines.append(line)
        if line == b"\n":
            yield next(messages_of([b"".join(lines)]))
            lines = []


FEED_IN_THE_LOG = (
    "SELECT global_position, event_type, stream_id::text FROM eventstore_event"  # noqa: S608 - a constant table name; the value is bound
    " WHERE stream_id = %(id)s OR stream_id IN"
    f" (SELECT match_id FROM {Fixture._meta.db_table} WHERE tournament_id = %(id)s)"
    " ORDER BY global_position"
)
"""A feed's events: a match's, or a tournament's own and its matches'."""


def logged_feed(app: App, feed: Feed) -> list[Seen]:
    """The feed's events in the log, in order."""
    rows = app.rows(FEED_IN_THE_LOG, {"id": feed.id})
    return [Seen(int(position), event_type, stream_id) for position, event_type, stream_id in rows]


def differences(crowd: Crowd, logs: dict[Feed, list[Seen]]) -> list[str]:
    """Every stream against its feed in the log: the events above the position it resumed
    after, each once and in order, up to the last it received. And every follower that stayed
    against its whole feed, from the beginning to the end `settle` said (and past it, if the
    feed went on): across its reconnections, nothing missed and nothing repeated."""
    found = []
    for number, follower in enumerate(crowd.followers):
        log = logs[follower.feed]
        for visit in follower.visits:
            if not visit.events:
                continue
            last = visit.events[-1].position
            expected = [event for event in log if visit.after < event.position <= last]
            if visit.events != expected:
                found.append(f"follower {number}: {mismatch(visit.events, expected)}")
        if follower.stays:
            seen = follower.seen()
            expected = [event for event in log if event.position <= follower.last]
            if follower.last < crowd.ends[follower.feed]:
                found.append(f"follower {number} stayed but stopped at {follower.last}")
            elif seen != expected:
                found.append(f"follower {number} (stayed): {mismatch(seen, expected)}")
    return found


def seconds_figure(values: list[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "none"
    return (
        f"p50 {percentile(ordered, 50):.2f} s, p99 {percentile(ordered, 99):.2f} s,"
        f" max {ordered[-1]:.2f} s"
    )


def mismatch(seen: list[Seen], expected: list[Seen]) -> str:
    at = next(
        (n for n, (got, want) in enumerate(zip(seen, expected, strict=False)) if got != want),
        min(len(seen), len(expected)),
    )
    return (
        f"{len(seen)} events seen, {len(expected)} in the log; from the {at + 1}th: "
        f"seen {seen[at : at + 3]}, logged {expected[at : at + 3]}"
    )
