"""Rebuilding and verifying the tournament rows (`tournaments.projections.rows`): every derived row
refilled from a fresh fold of the log, or compared with it, each difference naming row and field."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import transaction

from games.eventstore.api import read_stream_to_fold
from games.models import MatchStatus
from tournaments import folded
from tournaments.models import Entrant, Fixture, Tournament
from tournaments.models import Table as TableRow
from tournaments.projections.folded_log import (
    FoldedTournament,
    TournamentLog,
    fold_tournament_log,
)
from tournaments.projections.rows import (
    delete_fixtures_not_in,
    every_fixture,
    expected_entrant,
    expected_fixture,
    expected_tournament,
    match_statuses,
    save_entrants,
    save_fixtures,
    save_tables,
    save_tournament,
    started_match_statuses,
)
from tournaments.state import TournamentState
from tournaments.stream.entrant_checks import seeds_in_force
from tournaments.stream.events import tournament_event
from tournaments.stream.evolve import fold


def fold_tournament(tournament_id: UUID) -> FoldedTournament | None:
    """One tournament stream folded on its own (what `verify_rows` compares with)."""
    events = read_stream_to_fold(stream_id=tournament_id)
    if not events:
        return None
    return FoldedTournament(
        tournament_id=tournament_id,
        state=fold(map(tournament_event, events)),
        version=events[-1].stream_version,
        position=events[-1].global_position,
        created_at=events[0].recorded_at,
        updated_at=events[-1].recorded_at,
    )


def rebuild_rows(log: TournamentLog | None = None) -> int:
    """Refill every tournament's derived rows and columns from the log (`log`, the tournament
    streams folded once for the whole rebuild, or a fold made now); returns the tournaments
    rebuilt. Fixture rows the log does not know are deleted."""
    log = fold_tournament_log() if log is None else log
    ids = list(Tournament.objects.order_by("created_at").values_list("id", flat=True))
    started = started_match_statuses()
    for tournament_id in ids:
        folded_tournament = log.tournaments.get(tournament_id)
        if folded_tournament is None:
            continue
        with transaction.atomic():
            save_folded(folded_tournament, started)
            # The loads that follow (the next command, a view) fold nothing again.
            folded.remember_on_commit(
                tournament_id,
                folded.Folded(
                    folded_tournament.state, folded_tournament.version, folded_tournament.position
                ),
            )
    return len(ids)


def save_folded(log: FoldedTournament, statuses: dict[str, str]) -> None:
    """One tournament's rows as its fold says (`statuses`: its matches' that have started)."""
    tournament_id, state = log.tournament_id, log.state
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
    delete_fixtures_not_in(tournament_id, [UUID(f.match_id) for f in fixtures])
    save_fixtures(tournament_id, state, fixtures, statuses=statuses)


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


def differences_of(tournament: Tournament, log: FoldedTournament) -> list[str]:
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
