"""Tournaments moved along by a real Celery worker (a subprocess) on the test Redis and database.

The test process plays the organizer and the scorers through the services, with wake-ups on;
everything else (scheduling, no-show forfeits, recording results, advancing) is the worker's.
Every wait is bounded; the fixtures stop every worker they started.
"""

import uuid
from collections.abc import Callable
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection

from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import (
    call,
    check_in_seeds,
    event_types,
    events_of_type,
    fixtures,
    play,
)
from tests.tournaments.tasks.builders import other_session
from tests.workers import Worker, WorkerFactory, flush_test_redis, wait_for
from tournaments.models import Fixture, Tournament, TournamentView
from tournaments.services import running
from tournaments.tasks import running as running_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def scheduled(tournament_id: uuid.UUID, count: int) -> Callable[[], list[Fixture]]:
    """A condition: `count` ready fixtures with a table, which it returns."""

    def condition() -> list[Fixture]:
        ready = fixtures(tournament_id, status="ready", table__isnull=False)
        return ready if len(ready) == count else []

    return condition


def finished(tournament_id: uuid.UUID) -> Callable[[], bool]:
    return lambda: Tournament.objects.get(id=tournament_id).status == "finished"


def idle(worker: Worker) -> bool:
    """Whether the ready worker can have nothing to do: no message waits in the broker's queues
    and it received no task (so nothing it does can change the tables)."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        queued = sum(
            client.llen(key) for key in client.scan_iter("celery*") if client.type(key) == b"list"
        )
    finally:
        client.close()
    received = [message for message in worker.log_messages() if message.endswith("] received")]
    return queued == 0 and received == []


def waiting_for_the_tournament_row_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND query ILIKE %s",
            ["%tournaments_tournament%FOR UPDATE%"],
        )
        row = cursor.fetchone()
    return row[0] if row else 0


def test_a_ready_match_gets_a_table_a_start_time_a_deadline_once_called_and_the_table_is_reused(
    worker: Worker,
) -> None:
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=3, tables=1, no_show_minutes=10, started=True
    ).id

    (first,) = wait_for(scheduled(tournament_id, 1), what="a match at table 1", log=worker.log)

    assert first.table == 1
    assert first.scheduled_at is not None
    assert (first.called_at, first.deadline) == (None, None)
    assert events_of_type(tournament_id, "MatchScheduled") == [
        {
            "fixture": first.key,
            "table": 1,
            "scheduled_at": first.scheduled_at.isoformat(),
            "deadline": None,
        }
    ]
    assert len(fixtures(tournament_id, table__isnull=True)) == 2

    call(first.match_id)
    first.refresh_from_db()
    assert first.called_at is not None
    assert first.deadline is not None
    assert (first.deadline - first.called_at).total_seconds() == 10 * 60
    assert events_of_type(tournament_id, "MatchCalled") == [
        {
            "fixture": first.key,
            "table": 1,
            "called_at": first.called_at.isoformat(),
            "deadline": first.deadline.isoformat(),
            "by": "organizer",
        }
    ]

    play(first.match_id, winner=0)
    (second,) = wait_for(
        lambda: [f for f in scheduled(tournament_id, 1)() if f.key != first.key],
        what="the next match at the freed table",
        log=worker.log,
    )
    assert second.table == 1


def test_a_match_not_started_by_its_deadline_is_forfeited_by_beats_sweep_and_recorded(
    start_worker: WorkerFactory,
) -> None:
    worker = start_worker(catch_up_seconds=1)  # beat embedded, sweeping every second
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=2, no_show_minutes=0
    ).id
    check_in_seeds(tournament_id, 1)  # the home side is present, the away side is not
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    (final,) = wait_for(scheduled(tournament_id, 1), what="the final at a table", log=worker.log)
    call(final.match_id)  # the no-show clock starts

    wait_for(finished(tournament_id), what="the forfeit to finish the tournament", log=worker.log)

    (final,) = fixtures(tournament_id)
    assert events_of_type(final.match_id, "MatchForfeited") == [{"side": 1, "reason": "no-show"}]
    assert final.status == "finished"
    assert final.winner_id == final.home_id
    assert events_of_type(tournament_id, "ResultRecorded")[0]["forfeit"] is True
    wait_for(
        lambda: TournamentView.objects.filter(
            tournament_id=tournament_id, bracket__status="finished"
        ).exists(),
        what="the view to show the tournament finished",
        log=worker.log,
    )


def test_a_task_whose_pool_process_is_killed_is_rejected_and_run_again(
    start_worker: WorkerFactory, settings: Any
) -> None:
    settings.CELERY_WAKE_UPS = False
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, tables=2, started=True
    ).id
    settings.CELERY_WAKE_UPS = True
    worker = start_worker(concurrency=1)

    with other_session() as session:
        session.execute(
            "SELECT 1 FROM tournaments_tournament WHERE id = %s FOR UPDATE", [tournament_id]
        )
        running_tasks.schedule_ready_matches.delay(str(tournament_id))
        wait_for(waiting_for_the_tournament_row_lock, what="the task to block", log=worker.log)
        assert len(worker.pool_children()) == 1
        worker.kill_pool()
        wait_for(
            lambda: "WorkerLostError" in worker.log(), what="the loss to be seen", log=worker.log
        )
        wait_for(
            lambda: worker.received("schedule_ready_matches") == 2,
            what="the task to be delivered again",
            log=worker.log,
        )

    scheduled_now = wait_for(scheduled(tournament_id, 2), what="both semis", log=worker.log)
    assert {f.table for f in scheduled_now} == {1, 2}
    assert len(events_of_type(tournament_id, "MatchScheduled")) == 2


def test_a_task_of_a_worker_killed_outright_is_redone_by_another_worker(
    start_worker: WorkerFactory, settings: Any
) -> None:
    settings.CELERY_WAKE_UPS = False
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, tables=2, started=True
    ).id
    settings.CELERY_WAKE_UPS = True
    first = start_worker(concurrency=1, visibility_timeout=2)

    with other_session() as session:
        session.execute(
            "SELECT 1 FROM tournaments_tournament WHERE id = %s FOR UPDATE", [tournament_id]
        )
        running_tasks.schedule_ready_matches.delay(str(tournament_id))
        wait_for(waiting_for_the_tournament_row_lock, what="the task to block", log=first.log)
        first.kill()
        second = start_worker(concurrency=1, visibility_timeout=2)
        wait_for(
            lambda: second.received("schedule_ready_matches") == 1,
            what="the unacknowledged task to reach the second worker",
            log=second.log,
        )

    scheduled_now = wait_for(scheduled(tournament_id, 2), what="both semis", log=second.log)
    assert {f.table for f in scheduled_now} == {1, 2}
    assert len(events_of_type(tournament_id, "MatchScheduled")) == 2


def test_the_catch_up_does_the_work_of_messages_that_were_lost(
    start_worker: WorkerFactory, settings: Any
) -> None:
    settings.CELERY_WAKE_UPS = False  # from here on, every message of this process is lost
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, tables=2, started=True
    ).id
    worker = start_worker()
    assert idle(worker)
    assert fixtures(tournament_id, table__isnull=False) == []

    running_tasks.catch_up.delay()  # what beat sends every 30 s
    semis = wait_for(scheduled(tournament_id, 2), what="the semis", log=worker.log)
    worker.stop()
    flush_test_redis()  # whatever the worker still had queued is lost too
    for semi in semis:
        play(semi.match_id, winner=0)
    worker = start_worker()
    assert idle(worker)
    assert fixtures(tournament_id, status="finished") == []

    running_tasks.catch_up.delay()
    (final,) = wait_for(
        lambda: fixtures(tournament_id, status="ready", table__isnull=False, round=2),
        what="the final at a table",
        log=worker.log,
    )
    assert final.key == "R2-1"
    assert all(f.status == "finished" for f in fixtures(tournament_id, round=1))


def test_a_swiss_tournament_is_played_to_the_end_while_the_worker_runs_it(
    worker: Worker,
) -> None:
    tournament_id = TournamentFactory.create(
        format="swiss", entrants=4, swiss_rounds=2, tables=2, started=True
    ).id
    played: set[str] = set()

    for round_number in (1, 2):
        pairings = wait_for(
            lambda: [f for f in scheduled(tournament_id, 2)() if f.key not in played],
            what=f"round {round_number} at both tables",
            log=worker.log,
        )
        assert {f.round for f in pairings} == {round_number}
        for fixture in pairings:
            play(fixture.match_id, winner=0)
            played.add(fixture.key)

    wait_for(finished(tournament_id), what="the tournament to finish", log=worker.log)
    view = wait_for(
        lambda: TournamentView.objects.filter(
            tournament_id=tournament_id, bracket__status="finished"
        ).first(),
        what="the final view",
        log=worker.log,
    )
    assert view.standings[0]["rank"] == 1
    assert len(view.standings) == 4
    assert event_types(tournament_id).count("SwissRoundPaired") == 2
    assert event_types(tournament_id).count("ResultRecorded") == 4
