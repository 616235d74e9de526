"""Tournaments run by Celery workers that die, or that run two at once: the consumer records
each result once and projects the standings and bracket the log says."""

from __future__ import annotations

import threading
import time

import pytest

from bench._cpu import CpuMeter
from bench._load import Writer, WriterResult, run_writers
from tests.faults.app import PROFILE, App
from tests.faults.checks import (
    verify_projections,
    version_gaps,
    wait_for_catch_up,
)
from tests.faults.organizer import Organizer
from tests.faults.scorers import scorer_steps

pytestmark = pytest.mark.faults

CATCH_UP_INTERVAL = 5.0
"""Beat's catch-up in these tests (30 s in production): the messages a killed worker held stay
unacknowledged in Redis for the visibility timeout, so a worker started again learns of the
work from the catch-up or from the next write."""


def recorded_results(app: App, tournament_id: str) -> tuple[int, int]:
    """ResultRecorded events of the tournament, and how many of them repeat another."""
    [(count, distinct)] = app.rows(
        "SELECT count(*), count(DISTINCT payload) FROM eventstore_event"
        " WHERE stream_id = %s AND event_type = 'ResultRecorded'",
        [tournament_id],
    )
    return int(count), int(count) - int(distinct)


def test_a_worker_killed_mid_tournament_is_caught_up_after_it_starts_again(
    app: App, report: dict[str, object]
) -> None:
    workers = [app.start_worker(catch_up_seconds=CATCH_UP_INTERVAL)]
    kills: list[float] = []

    def kill_and_restart(number: int) -> None:
        if number == 0:  # its results were just entered: the worker is consuming them
            started = time.perf_counter()
            workers[-1].kill()
            workers.append(app.start_worker(catch_up_seconds=CATCH_UP_INTERVAL))
            kills.append(time.perf_counter() - started)

    organizer = Organizer(app)
    started = time.perf_counter()
    try:
        tournament_id = organizer.play(PROFILE.entrants, after_round=kill_and_restart)
    finally:
        organizer.close()

    catch_up = wait_for_catch_up(app)
    assert kills, "the worker was not killed"
    assert recorded_results(app, tournament_id) == (PROFILE.entrants - 1, 0)
    assert version_gaps(app) == []
    verify_projections(app)
    report.update(
        entrants=PROFILE.entrants,
        seconds=round(time.perf_counter() - started, 1),
        worker_restart_seconds=round(kills[0], 1),
        catch_up_seconds=round(catch_up, 1),
        requests=organizer.ledger.requests,
        retries=organizer.ledger.retries,
    )


def test_two_workers_consuming_at_once_record_and_project_each_event_once(
    app: App, report: dict[str, object]
) -> None:
    workers = [app.start_worker(), app.start_worker()]
    scorers = [
        app.scorer(steps)
        for steps in scorer_steps(scorers=2, rounds=PROFILE.rounds, seed=5050, refused_every=0)
    ]
    organizer = Organizer(app)
    tournament: list[str] = []

    class Tournament(Writer):
        def run(self, result: WriterResult, stop: threading.Event) -> None:  # noqa: ARG002 - the writers' interface
            tournament.append(organizer.play(PROFILE.entrants))

    meter = CpuMeter(app.database, app.server.process_group, port=app.stack.postgres.port)
    try:
        load = run_writers([*scorers, Tournament()], max_seconds=600, meter=meter)
    finally:
        organizer.close()

    assert load.errors == []
    catch_up = wait_for_catch_up(app)
    runs = [worker.received("consume_log") for worker in workers]
    assert all(runs), f"a worker never consumed: {runs}"
    assert recorded_results(app, tournament[0]) == (PROFILE.entrants - 1, 0)
    assert version_gaps(app) == []
    verify_projections(app)
    [(checkpoint,)] = app.rows(
        "SELECT position FROM tournaments_checkpoint WHERE name = 'tournaments'"
    )
    [(head,)] = app.rows("SELECT max(global_position) FROM eventstore_event")
    assert checkpoint == head
    report.update(
        entrants=PROFILE.entrants,
        scorers=len(scorers),
        seconds=round(load.seconds, 1),
        consumer_runs_by_worker=runs,
        catch_up_seconds=round(catch_up, 1),
    )
