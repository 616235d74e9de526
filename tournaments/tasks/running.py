"""Celery tasks that keep tournaments moving: thin, idempotent, acknowledged late.

- `consume_log`: the tournament consumer of the global log (records results, advances
  brackets, pairs automatic Swiss rounds, projects the views), one run at a time.
- `schedule_ready_matches(tournament_id)`: give ready fixtures a free table and a start time (a
  fact of the tournament: its `MatchScheduled` event and the fixture row); a match's no-show
  deadline comes with its call (`MatchCalled`).
- `catch_up` (beat, every 30 s): all of the above for every tournament, and the sweep of the
  deadlines: every called, unstarted match past its deadline is forfeited (by the side absent).
  No message waits on a due time, so a Redis that comes back empty or a killed worker loses no
  deadline, and the worker holds no delayed message when Redis goes away.
- `forfeit_queued_no_show(match_id)` (task name `tournaments.tasks.forfeit_no_show`): forfeit
  one match if it is past its deadline; only for messages an earlier version queued, nothing
  sends it any more.

Every task keeps the Celery name it had when this module was `tournaments/tasks.py` (beat's
schedule in the database and queued messages name them), so each declares its `name`.

Tasks take ids and call the services; running one twice changes nothing the first run did not.
Work is enqueued after the caller's transaction commits (`*_on_commit`), and not at all when
`CELERY_WAKE_UPS` is off (the test settings, except for the worker tests).
See docs/decisions/0009-celery-scheduling.md.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from time import monotonic
from typing import Any, ParamSpec, TypeVar
from uuid import UUID

from celery import Task, shared_task
from django.conf import settings
from django.db import DatabaseError, OperationalError, connection, transaction
from django.utils import timezone

from common.actors import Actor
from games.eventstore.api import WrongExpectedVersion, read_all
from games.matches.projections import MATCH_STREAM
from games.models import Match, MatchStatus
from games.rules.errors import RuleViolation
from tournaments.models import Checkpoint, Fixture, FixtureStatus, TournamentStatus
from tournaments.projections import consumer
from tournaments.ratings import projection as ratings
from tournaments.services import pipeline, scheduling
from tournaments.stream.events import TablesChanged, TournamentEvent, TournamentStarted
from tournaments.stream.fixture_events import (
    FixtureCreated,
    FixtureReset,
    ResultRecorded,
    SwissRoundPaired,
)
from tournaments.tasks import publishing

logger = logging.getLogger(__name__)

T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")

SCHEDULER = Actor(device="tournament-scheduler")

CONSUMER_LOCK = int.from_bytes(b"tourncon", "big", signed=True)
"""The key of the PostgreSQL session advisory lock that one consumer run holds at a time."""

WAKE_UP_DELAY = 0.25
"""Seconds a consumer wake-up waits before it runs, so that the appends of a burst (a scorer's
card plays, a round of results) share one message instead of one broker round trip each."""

WAKE_UP_EXPIRES = 5 * 60
"""Seconds after which a queued consumer wake-up is dropped: a later run or the catch-up covers
whatever it was for, so a backlog built while no worker ran is not worked off one by one."""


def tournament_task(*, name: str) -> Callable[[Callable[P, R]], Task[P, R]]:
    """A task Celery retries itself (the catch-up is retried by the next tick), registered under
    `name`: queued messages carry it, so it stays when the function is renamed."""
    return shared_task(
        name=name,
        acks_late=True,
        reject_on_worker_lost=True,
        ignore_result=True,
        # A deadlock with another tournament writer (both lock a tournament row and the event
        # store's append lock, in different orders) or a stale stream version: the transaction
        # rolled back whole, so the task is simply run again.
        autoretry_for=(OperationalError, WrongExpectedVersion),
        retry_backoff=1,
        retry_backoff_max=30,
        retry_jitter=True,
        max_retries=5,
    )


# Enqueueing after commit.


def enqueue_on_commit(task: Task[Any, Any], *args: str, **options: Any) -> None:
    """Send `task` once the current transaction commits (at once outside one; never if it rolls
    back), unless wake-ups are off. The send never waits on the broker beyond a short timeout
    and is skipped for a while after one failed (`publishing.publish`): what was committed stays
    committed, and the catch-up does the work the message would have started."""
    if not settings.CELERY_WAKE_UPS:
        return
    transaction.on_commit(lambda: publishing.publish(task, args, **options), robust=True)


@dataclass
class PendingWakeUp:
    due: float = float("-inf")
    """When (on the `monotonic` clock) the last consumer wake-up this process sent is due."""


pending_wake_up = PendingWakeUp()


def wake_consumer() -> None:
    """Send a consumer wake-up, due in WAKE_UP_DELAY, unless the last one this process sent is
    not due yet: that run starts after this moment, so it sees what committed before it. A
    wake-up the broker did not take (or that the breaker skipped) leaves the event to the
    catch-up, and the next commit tries again."""
    now = monotonic()
    if pending_wake_up.due > now:
        return
    if publishing.publish(consume_log, countdown=WAKE_UP_DELAY, expires=WAKE_UP_EXPIRES):
        pending_wake_up.due = now + WAKE_UP_DELAY


def consume_log_on_commit() -> None:
    if settings.CELERY_WAKE_UPS:
        transaction.on_commit(wake_consumer, robust=True)


def schedule_ready_matches_on_commit(*, tournament_id: UUID) -> None:
    enqueue_on_commit(schedule_ready_matches, str(tournament_id))


def consume_log_after_match_events(**kwargs: object) -> None:
    """Receiver of `games.signals.match_events_appended`: the consumer records what happened."""
    consume_log_on_commit()


FREEING_OR_FILLING_TABLES = (
    TournamentStarted,
    SwissRoundPaired,
    FixtureCreated,
    ResultRecorded,
    FixtureReset,
    TablesChanged,
)
"""Tournament events after which a running tournament may have matches to put at tables."""


def after_tournament_events(
    *,
    tournament_id: UUID,
    events: Sequence[TournamentEvent],
    running: bool,
    **kwargs: object,
) -> None:
    """Receiver of `tournaments.signals.tournament_events_appended`: the consumer projects the
    views, and a running tournament whose fixtures or results changed schedules its matches."""
    consume_log_on_commit()
    if running and any(isinstance(event, FREEING_OR_FILLING_TABLES) for event in events):
        schedule_ready_matches_on_commit(tournament_id=tournament_id)


# One consumer run at a time.


@contextmanager
def consumer_lock() -> Iterator[bool]:
    """Try to take the consumer's advisory lock for this database session; yields whether it
    was taken. A session that dies (a killed worker) releases it with its connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [CONSUMER_LOCK])
        row = cursor.fetchone()
    held = bool(row and row[0])
    try:
        yield held
    finally:
        if held:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [CONSUMER_LOCK])
            except DatabaseError:
                logger.warning("could not release the consumer lock", exc_info=True)


def log_has_unconsumed_events() -> bool:
    position = (
        Checkpoint.objects.filter(name=consumer.CONSUMER).values_list("position", flat=True).first()
    )
    return bool(
        read_all(
            after=position or 0,
            limit=1,
            stream_types=[pipeline.TOURNAMENT_STREAM, MATCH_STREAM],
        )
    )


def consume_exclusively() -> int | None:
    """Run the consumer unless another run holds the lock; returns the events processed, or
    None when another run held the lock from the start.

    The consumer already serialises runs on its checkpoint row, but a second run would wait
    there, holding a worker and a connection, only to find nothing left. Skipping is safe
    because every run looks at the log again after releasing the lock: an event that committed
    while a skipped wake-up found the lock taken is seen by the run that held it."""
    processed = 0
    while True:
        with consumer_lock() as held:
            if not held:
                return processed if processed else None
            processed += consumer.consume()
            ratings.consume()
        if not log_has_unconsumed_events():
            return processed


# Scheduling and no-shows.


def schedule(tournament_id: UUID, *, now: datetime | None = None) -> list[Fixture]:
    """Give the tournament's ready fixtures the free tables; their deadlines are swept by the
    catch-up, not armed as delayed messages."""
    return scheduling.fixture_schedule(tournament_id=tournament_id, actor=SCHEDULER, now=now)


def is_unstarted(match_id: UUID) -> bool:
    return Match.objects.filter(id=match_id, status=MatchStatus.NOT_STARTED).exists()


def forfeit_overdue_match(match_id: UUID, *, now: datetime | None = None) -> bool:
    """Forfeit the match if it is past its deadline and has not started; returns whether it
    did. Refused only because the match started or was decided meanwhile: nothing to do."""
    try:
        return scheduling.fixture_forfeit_no_show(match_id=match_id, actor=SCHEDULER, now=now)
    except RuleViolation:
        if is_unstarted(match_id):
            raise
        return False


def tournaments_waiting_for_tables() -> list[UUID]:
    """In-progress tournaments with ready fixtures that have no table yet."""
    return list(
        Fixture.objects.filter(
            status=FixtureStatus.READY,
            table__isnull=True,
            tournament__status=TournamentStatus.IN_PROGRESS,
        )
        .values_list("tournament_id", flat=True)
        .distinct()
        .order_by("tournament_id")
    )


def overdue_unstarted_matches(now: datetime) -> list[UUID]:
    """Matches of ready fixtures past their no-show deadline that have not started."""
    overdue = Fixture.objects.filter(status=FixtureStatus.READY, deadline__lte=now)
    return list(
        Match.objects.filter(
            id__in=overdue.values("match_id"), status=MatchStatus.NOT_STARTED
        ).values_list("id", flat=True)
    )


# The catch-up.


@dataclass
class CatchUp:
    """What one catch-up did: events consumed, matches forfeited and matches scheduled."""

    consumed: int = 0
    forfeited: list[UUID] = field(default_factory=list)
    scheduled: list[UUID] = field(default_factory=list)
    failures: int = 0

    def attempt(self, step: Callable[[], T], what: str) -> T | None:
        """Run one step; a failure is logged and counted, and the others still run."""
        try:
            return step()
        except Exception:
            logger.exception("catch-up: %s failed", what)
            self.failures += 1
            return None


def catch_up_all(*, now: datetime | None = None) -> CatchUp:
    """Do whatever wake-ups and delayed tasks should have done: consume the log, forfeit every
    overdue unstarted match (and consume those forfeits: they finish fixtures and free tables),
    then schedule the ready matches of every in-progress tournament."""
    now = now or timezone.now()
    done = CatchUp()
    consumed = done.attempt(consume_exclusively, "consuming the log")
    done.consumed += consumed or 0
    for match_id in overdue_unstarted_matches(now):
        if done.attempt(partial(forfeit_overdue_match, match_id, now=now), f"forfeit {match_id}"):
            done.forfeited.append(match_id)
    if done.forfeited:
        consumed = done.attempt(consume_exclusively, "consuming the forfeits")
        done.consumed += consumed or 0
    for tournament_id in tournaments_waiting_for_tables():
        scheduled = done.attempt(
            partial(schedule, tournament_id, now=now), f"scheduling {tournament_id}"
        )
        done.scheduled.extend(fixture.match_id for fixture in scheduled or [])
    return done


# The tasks.


@tournament_task(name="tournaments.tasks.consume_log")
def consume_log() -> int:
    return consume_exclusively() or 0


@tournament_task(name="tournaments.tasks.schedule_ready_matches")
def schedule_ready_matches(tournament_id: str) -> int:
    return len(schedule(UUID(tournament_id)))


@tournament_task(name="tournaments.tasks.forfeit_no_show")
def forfeit_queued_no_show(match_id: str) -> bool:
    """Kept for the delayed messages an earlier version queued (under the task name
    `tournaments.tasks.forfeit_no_show`): forfeits the match if it is due, and leaves a deadline
    still to come to the catch-up's sweep."""
    return forfeit_overdue_match(UUID(match_id))


@shared_task(
    name="tournaments.tasks.catch_up",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def catch_up() -> None:
    """The periodic safety net; a failed step is retried by the next run, not by Celery."""
    done = catch_up_all()
    if done.consumed or done.forfeited or done.scheduled or done.failures:
        logger.info(
            "catch-up: %d events consumed, %d matches forfeited, %d scheduled, %d failures",
            done.consumed,
            len(done.forfeited),
            len(done.scheduled),
            done.failures,
        )
