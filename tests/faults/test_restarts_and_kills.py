"""Concurrent scorers through two immediate PostgreSQL restarts, a web worker process killed and
the Celery worker killed (and started again): the log keeps exactly what was acknowledged."""

from __future__ import annotations

import time

import pytest

from bench._cpu import CpuMeter
from bench._load import run_writers
from tests.faults.app import PROFILE, App
from tests.faults.checks import (
    FaultInjector,
    latency_figures,
    log_differences,
    scorer_figures,
    verify_projections,
    version_gaps,
    wait_for_catch_up,
)
from tests.faults.scorers import Gate, scorer_steps

pytestmark = pytest.mark.faults


def test_every_acknowledged_card_is_logged_once_through_database_restarts_and_worker_kills(
    app: App, report: dict[str, object]
) -> None:
    steps = scorer_steps(scorers=PROFILE.scorers, rounds=PROFILE.rounds, seed=1010, refused_every=1)
    scorers = [app.scorer(own) for own in steps]
    workers = [app.start_worker()]
    postgres = app.stack.postgres

    downtimes: list[tuple[float, float]] = []

    def restart_postgres() -> None:
        stopped = time.monotonic()
        postgres.stop_immediately()
        postgres.start()
        downtimes.append((stopped, time.monotonic()))

    gate = Gate()
    for scorer in scorers:
        scorer.gate = gate

    def restart_postgres_while_idle() -> None:
        """Every kept connection is idle when the database goes: the next request on each
        finds it dropped."""
        with gate.closed_while_idle():
            restart_postgres()

    def kill_celery_worker() -> None:
        workers[-1].kill()
        workers.append(app.start_worker())

    injector = FaultInjector(
        scorers,
        [
            (
                0.15,
                "PostgreSQL stopped -m immediate and started, the app idle",
                restart_postgres_while_idle,
            ),
            (0.35, "uvicorn worker killed", app.kill_web_worker),
            (0.55, "PostgreSQL stopped -m immediate and started, the app busy", restart_postgres),
            (0.75, "Celery worker killed and started again", kill_celery_worker),
        ],
    )
    meter = CpuMeter(app.database, app.server.process_group, port=postgres.port)
    load = run_writers([*scorers, injector], max_seconds=900, meter=meter)

    assert load.errors == []
    assert injector.done == [name for _, name, _ in injector.schedule]
    assert all(scorer.steps_done == len(scorer.steps) for scorer in scorers)
    catch_up = wait_for_catch_up(app)
    assert version_gaps(app) == []
    assert log_differences(app, scorers) == []
    verify_projections(app)
    # A request sent once the database answered again is served on a fresh connection, never
    # failed on one the restart dropped (CONN_HEALTH_CHECKS, issue 10 section 4). A web
    # worker's death drops the connections of the requests it was serving: not counted.
    after_restarts = [
        incident
        for scorer in scorers
        for incident in scorer.ledger.incidents
        if incident[0] != "connection error"
        and not any(down <= incident[2] and incident[1] <= up for down, up in downtimes)
    ]
    assert after_restarts == [], f"failed after the database was back: {after_restarts}"
    report.update(
        scorers=len(scorers),
        seconds=round(load.seconds, 1),
        faults={name: f"{load.latencies(name)[0]:.2f} s" for name in injector.done},
        catch_up_seconds=round(catch_up, 1),
        latencies=latency_figures(load, ["create", "start", "play", "refused"]),
        **scorer_figures(scorers),
    )
