"""Tournaments run by Celery workers that die, or that run two at once: the consumer records
each result once and projects the standings and bracket the log says."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from bench._cpu import CpuMeter
from bench._load import API, Writer, WriterResult, run_writers
from tests.faults.checks import (
    verify_projections,
    version_gaps,
    wait_for_catch_up,
)
from tests.faults.conftest import PROFILE, App
from tests.faults.scorers import Ledger, PatientClient, scorer_steps
from tests.faults.stack import wait_until

pytestmark = pytest.mark.faults

CATCH_UP_INTERVAL = 5.0
"""Beat's catch-up in these tests (30 s in production): the messages a killed worker held stay
unacknowledged in Redis for the visibility timeout, so a worker started again learns of the
work from the catch-up or from the next write."""


class Organizer:
    """Runs a single elimination through the API: creates it, registers and starts, then plays
    every match the workers put at a table (points entered, the better seed wins)."""

    def __init__(self, app: App) -> None:
        self.ledger = Ledger()
        self.client = PatientClient(
            app.port, app.stack.organizer_token, self.ledger, timeout=10, patience=60
        )

    def created(self, path: str, body: dict[str, object] | None = None) -> Any:
        status, answer, _ = self.client.call("POST", path, body or {}, key=None)
        assert status == 201, (path, answer)
        return answer

    def got(self, path: str) -> Any:
        status, answer, _ = self.client.call("GET", path, key=None)
        assert status == 200, (path, answer)
        return answer

    def play(self, entrants: int, *, after_round: Callable[[int], object] = int) -> str:
        tournament = self.created(
            f"{API}/tournaments/",
            {
                "name": "Coppa dei guasti",
                "format": "single_elimination",
                "table_size": 2,
                "best_of": 1,
                "tables": entrants // 2,
            },
        )
        base = f"{API}/tournaments/{tournament['id']}"
        for n in range(1, entrants + 1):
            self.created(f"{base}/entrants/", {"name": f"P{n}", "players": [f"P{n}"], "seed": n})
        self.created(f"{base}/start/")
        played: set[str] = set()
        for number in range(int(math.log2(entrants))):
            expected = entrants // 2 ** (number + 1)

            def at_tables(expected: int = expected) -> list[dict[str, Any]]:
                ready = self.got(f"{base}/matches/?status=ready&limit=500")["matches"]
                waiting = [m for m in ready if m["table"] is not None and m["id"] not in played]
                return waiting if len(waiting) == expected else []

            for match in wait_until(at_tables, timeout=90, what=f"round {number + 1} at tables"):
                url = f"{API}/matches/{match['id']}/rounds/"
                self.created(url, {"briscola": None})
                self.created(f"{url}1/score/", {"points": [90, 30]})
                played.add(match["id"])
            after_round(number)

        def finished() -> bool:
            return bool(self.got(f"{base}/bracket/").get("status") == "finished")

        wait_until(finished, timeout=90, what="the champion")
        return str(tournament["id"])

    def close(self) -> None:
        self.client.close()


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
        def run(self, result: WriterResult, stop: threading.Event) -> None:
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
