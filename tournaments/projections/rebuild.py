"""Rebuilding and verifying the tournament rows (`tournaments.projections.rows`): every derived row
refilled from a fresh fold of the log, or compared with it, each difference naming row and field."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import transaction

from games.eventstore.api import read_stream_to_fold
from games.models import MatchStatus
from tournaments import folded
from tournaments.models import Entrant, Fixture, Tournament
from tournaments.models import Table as TableRow
from tournaments.projections.rows import (
    every_fixture,
    expected_entrant,
    expected_fixture,
    expected_tournament,
    match_statuses,
    save_entrants,
    save_fixtures,
    save_tables,
    save_tournament,
)
from tournaments.state import TournamentState
from tournaments.stream.entrant_checks import seeds_in_force
from tournaments.stream.events import tournament_event
from tournaments.stream.evolve import fold


@dataclass(frozen=True)
class Folded:
    tournament_id: UUID
    state: TournamentState
    version: int
    created_at: datetime
    updated_at: datetime


def fold_tournament(tournament_id: UUID) -> Folded | None:
    events = read_stream_to_fold(stream_id=tournament_id)
    if not events:
        return None
    state = fold(map(tournament_event, events))
    # The loads that follow (the views' rebuild, the next command) fold nothing again.
    folded.remember_on_commit(
        tournament_id,
        folded.Folded(state, events[-1].stream_version, events[-1].global_position),
    )
    return Folded(
        tournament_id=tournament_id,
        state=state,
        version=events[-1].stream_version,
        created_at=events[0].recorded_at,
        updated_at=events[-1].recorded_at,
    )


def rebuild_rows() -> int:
    """Refill every tournament's derived rows and columns from the log; returns the tournaments
    rebuilt. Fixture rows the log does not know are deleted."""
    ids = list(Tournament.objects.order_by("created_at").values_list("id", flat=True))
    for tournament_id in ids:
        with transaction.atomic():
            log = fold_tournament(tournament_id)
            if log is None:
                continue
            state = log.state
            save_tournament(
                tournament_id,
                state,
                version=log.version,
                created_at=log.created_at,
                updated_at=log.updated_at,
                created=True,
            )
            save_tables(tournament_id, state)
            save_entrants(state, state.entrants)
            fixtures = every_fixture(state)
            known = [UUID(f.match_id) for f in fixtures]
            Fixture.objects.filter(tournament_id=tournament_id).exclude(match_id__in=known).delete()
            save_fixtures(tournament_id, state, fixtures)
    return len(ids)


def verify_rows() -> list[str]:
    """Every derived row compared with a fresh fold: one line per difference, naming the
    tournament, the row and the field."""
    differences: list[str] = []
    for tournament in Tournament.objects.order_by("created_at"):
        log = fold_tournament(tournament.id)
        if log is None:
            differences.append(f"tournament {tournament.id}: no events in the log")
            continue
        differences.extend(differences_of(tournament, log))
    return differences


def differences_of(tournament: Tournament, log: Folded) -> list[str]:
    label = f"tournament {tournament.id}:"
    expected = expected_tournament(log.state, version=log.version, updated_at=log.updated_at)
    return [
        *(
            f"{label} {name} is {value!r}, the log says {want!r}"
            for name, value, want in changed(tournament, expected)
        ),
        *table_differences(tournament, log.state, label),
        *entrant_differences(tournament, log.state, label),
        *fixture_differences(tournament, log.state, label),
    ]


def table_differences(tournament: Tournament, state: TournamentState, label: str) -> list[str]:
    tables = set(TableRow.objects.filter(tournament=tournament).values_list("number", flat=True))
    wanted = set(range(1, state.tables + 1))
    return [
        *(f"{label} table {n} is missing" for n in sorted(wanted - tables)),
        *(f"{label} table {n} is not in the log" for n in sorted(tables - wanted)),
    ]


def entrant_differences(tournament: Tournament, state: TournamentState, label: str) -> list[str]:
    found: list[str] = []
    entrants = {row.id: row for row in Entrant.objects.filter(tournament=tournament)}
    seeds = seeds_in_force(state)
    for entrant_id in state.entrants:
        row = entrants.get(entrant_id)
        if row is None:
            found.append(f"{label} entrant {entrant_id} is missing")
            continue
        found.extend(
            f"{label} entrant {entrant_id} {name} is {value!r}, the log says {want!r}"
            for name, value, want in changed(row, expected_entrant(state, entrant_id, seeds))
        )
    return found


def fixture_differences(tournament: Tournament, state: TournamentState, label: str) -> list[str]:
    found: list[str] = []
    fixtures = every_fixture(state)
    rows = {str(row.match_id): row for row in Fixture.objects.filter(tournament=tournament)}
    statuses = match_statuses(f.match_id for f in fixtures)
    for fixture in fixtures:
        fixture_row = rows.pop(fixture.match_id, None)
        where, match = f"{label} fixture {fixture.id}", f"(match {fixture.match_id})"
        if fixture_row is None:
            found.append(f"{where} is missing {match}")
            continue
        want_fixture = expected_fixture(
            state, fixture, statuses.get(fixture.match_id, MatchStatus.NOT_STARTED)
        )
        found.extend(
            f"{where} {name} is {value!r}, the log says {want!r} {match}"
            for name, value, want in changed(fixture_row, want_fixture)
        )
    found.extend(
        f"{label} fixture {row.key} is not in the log (match {match_id})"
        for match_id, row in rows.items()
    )
    return found


def changed(row: Any, expected: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    return [
        (name, getattr(row, name), want)
        for name, want in expected.items()
        if getattr(row, name) != want
    ]
