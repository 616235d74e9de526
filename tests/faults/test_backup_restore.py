"""The backup drill: `pg_dump` of the live database while scorers write, restored into a new
database, projections rebuilt there from the log, and the public reads compared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench._cpu import CpuMeter
from bench._load import API, run_writers
from tests.faults.app import PROFILE, App
from tests.faults.checks import (
    FaultInjector,
    verify_projections,
    version_gaps,
    wait_for_catch_up,
)
from tests.faults.organizer import Organizer
from tests.faults.scorers import Ledger, PatientClient, scorer_steps

pytestmark = pytest.mark.faults


def stream_log(app: App, database: str) -> dict[str, list[tuple[Any, ...]]]:
    rows = app.rows(
        "SELECT stream_id::text, stream_version, event_type, payload FROM eventstore_event"
        " ORDER BY stream_id, stream_version",
        database=database,
    )
    streams: dict[str, list[tuple[Any, ...]]] = {}
    for stream_id, *event in rows:
        streams.setdefault(stream_id, []).append(tuple(event))
    return streams


def public_reads(tournament_id: str, matches: dict[str, int]) -> list[str]:
    """The GETs to compare: the tournament's detail, standings, bracket and matches, and each
    match's detail and rounds."""
    base = f"{API}/tournaments/{tournament_id}/"
    paths = [base, f"{base}standings/", f"{base}bracket/", f"{base}matches/?limit=500"]
    for match_id, rounds in matches.items():
        paths.append(f"{API}/matches/{match_id}/")
        paths.extend(f"{API}/matches/{match_id}/rounds/{n}/" for n in range(1, rounds + 1))
    return paths


def test_a_dump_taken_during_writes_restores_to_the_same_public_answers(
    app: App, report: dict[str, object], tmp_path: Path
) -> None:
    app.start_worker()
    organizer = Organizer(app)
    try:
        tournament_id = organizer.play(PROFILE.entrants)
    finally:
        organizer.close()
    scorers = [
        app.scorer(steps) for steps in scorer_steps(scorers=2, rounds=PROFILE.rounds, seed=6060)
    ]
    dump = tmp_path / "live.dump"
    postgres = app.stack.postgres
    # A quarter in, so that most of the cards come after the dump's snapshot: at the short
    # profile's size the scorers' second half took less time than pg_dump takes to start.
    injector = FaultInjector(
        scorers, [(0.25, "pg_dump of the live database", lambda: postgres.dump(app.database, dump))]
    )
    meter = CpuMeter(app.database, app.server.process_group, port=postgres.port)
    load = run_writers([*scorers, injector], max_seconds=600, meter=meter)
    assert load.errors == []
    wait_for_catch_up(app)

    restored = f"{app.database}_restored"
    postgres.restore(dump, restored)
    app.manage("rebuild_projections", "--quiet", database=restored)
    verify_projections(app, database=restored)
    assert version_gaps(app, database=restored) == []
    live_log, restored_log = stream_log(app, app.database), stream_log(app, restored)
    for stream_id, events in restored_log.items():
        assert live_log[stream_id][: len(events)] == events, f"stream {stream_id} differs"
    assert sum(map(len, restored_log.values())) < sum(map(len, live_log.values()))

    unchanged = {
        stream_id: sum(1 for event in events if event[1] == "RoundStarted")
        for stream_id, events in restored_log.items()
        if events[0][1] == "MatchCreated" and live_log[stream_id] == events
    }
    restored_server = app.serve(restored)
    ledger = Ledger()
    readers = [
        PatientClient(port, app.stack.organizer_token, ledger, timeout=10, patience=30)
        for port in (app.port, restored_server.port)
    ]
    differences = []
    paths = public_reads(tournament_id, unchanged)
    try:
        for path in paths:
            live, copy = (reader.call("GET", path, key=None)[:2] for reader in readers)
            assert live[0] == 200, (path, live)
            if live != copy:
                differences.append(f"GET {path}: live {live}, restored {copy}")
    finally:
        for reader in readers:
            reader.close()
    assert differences == []
    assert len(unchanged) >= PROFILE.entrants - 1
    report.update(
        dump_seconds=round(load.latencies("pg_dump of the live database")[0], 2),
        events_live=sum(map(len, live_log.values())),
        events_dumped=sum(map(len, restored_log.values())),
        gets_compared=len(paths),
        matches_compared=len(unchanged),
    )
