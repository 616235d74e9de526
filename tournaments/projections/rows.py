"""The tournament rows as projections: every column that is not a name is derived from the log.

`Tournament` (status, version, settings, times), `Entrant` (seed, check-in, withdrawal), `Fixture`
(every row and column) and `Table` (1 to the tables in force) are what the tournament stream
folds to, plus each fixture's match status from the match projection. The rows of names
(`Tournament.name`, `Entrant.name`, players) are written by the services beside the events and
never derived.

One definition (`expected_*`) serves the inline projection (in the command's transaction, for the
rows the command touched), the consumer (a fixture's status follows its match), the rebuild (every
row refilled) and the verification (every row compared, each difference naming row and field;
both in `tournaments.projections.rebuild`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable
from uuid import UUID

from django.db import connection

from games.eventstore.pipeline import Appended
from games.models import Match, MatchStatus
from tournaments.models import Entrant, Fixture, Tournament
from tournaments.models import Table as TableRow
from tournaments.plan.silence import silent_from_round
from tournaments.state import Fixture as FixtureFact
from tournaments.state import FixturePhase, TournamentState, tables_needed
from tournaments.stream.entrant_checks import seeds_in_force
from tournaments.stream.events import (
    EntrantsReseeded,
    EntrantsSeeded,
    TournamentCreated,
    TournamentEvent,
)

TOURNAMENT_FIELDS = (
    "status",
    "version",
    "format",
    "table_size",
    "settings",
    "updated_at",
    "silent_from_round",
)
ENTRANT_FIELDS = ("seed", "checked_in", "withdrawn", "fixed_table", "group")
FIXTURE_FIELDS = (
    "key",
    "stage",
    "round",
    "home_id",
    "away_id",
    "third_id",
    "places",
    "status",
    "winner_id",
    "table",
    "scheduled_at",
    "called_at",
    "deadline",
    "decided_by",
)


# What the log says each row holds.


def expected_tournament(
    state: TournamentState, *, version: int, updated_at: datetime
) -> dict[str, Any]:
    return {
        "status": state.status,
        "version": version,
        "format": state.settings.format,
        "table_size": state.settings.table_size,
        "settings": state.settings.to_dict(),
        "updated_at": updated_at,
        "silent_from_round": silent_from_round(state),
    }


def expected_entrant(
    state: TournamentState, entrant_id: int, seeds: dict[int, int | None] | None = None
) -> dict[str, Any]:
    """`seeds`: `seeds_in_force(state)`, when the caller has it already."""
    record = state.entrants[entrant_id]
    seed = (seeds if seeds is not None else seeds_in_force(state))[entrant_id]
    return {
        "seed": seed,
        "checked_in": record.checked_in,
        "withdrawn": record.withdrawn,
        "fixed_table": record.fixed_table,
        "group": record.group,
    }


def expected_fixture(
    state: TournamentState, fixture: FixtureFact, match_status: str
) -> dict[str, Any]:
    status = state.fixture_status(fixture, match_status)
    result = state.results.get(fixture.id) if status != FixturePhase.RESET else None
    return {
        "key": fixture.id,
        "stage": fixture.stage,
        "round": fixture.round,
        "home_id": fixture.home,
        "away_id": fixture.away,
        "third_id": fixture.third,
        "status": status,
        "winner_id": None if result is None else result.winner,
        "places": None if result is None or result.places is None else list(result.places),
        "table": fixture.table,
        "scheduled_at": moment(fixture.scheduled_at),
        "called_at": moment(fixture.called_at),
        "deadline": moment(fixture.deadline),
        "decided_by": None if result is None else result.decided_by,
    }


def moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def every_fixture(state: TournamentState) -> list[FixtureFact]:
    """The live fixtures and those that were reset (their rows stay, status `reset`), in the
    order they were created (a rebuild inserts them in that order)."""
    return sorted([*state.retired, *state.fixtures.values()], key=lambda f: f.sequence)


def match_statuses(match_ids: Iterable[str]) -> dict[str, str]:
    """The status of each match (from the match projection), by match id."""
    ids = [UUID(match_id) for match_id in match_ids]
    return {
        str(match_id): status
        for match_id, status in Match.objects.filter(id__in=ids).values_list("id", "status")
    }


STARTED_MATCH_STATUSES = """
SELECT id, status FROM {table} WHERE status = ANY(%s)
"""


def started_match_statuses() -> dict[str, str]:
    """The status of every match that has left `not_started`, by match id, in one query: what
    `match_statuses` gives for any match, since a match without a row counts as not started
    too. For the rebuild, which writes every fixture (a list of every id costs more to send
    than the rows of the matches under way). By the statuses' index: the matches not started
    are not read."""
    started = [status for status in MatchStatus.values if status != MatchStatus.NOT_STARTED]
    with connection.cursor() as cursor:
        cursor.execute(STARTED_MATCH_STATUSES.format(table=Match._meta.db_table), [started])
        return {str(match_id): status for match_id, status in cursor.fetchall()}


# Writing.


FIXTURE_TYPES = {
    "key": "text",
    "stage": "text",
    "round": "integer",
    "home_id": "bigint",
    "away_id": "bigint",
    "third_id": "bigint",
    "places": "jsonb",
    "status": "text",
    "winner_id": "bigint",
    "table": "integer",
    "scheduled_at": "timestamptz",
    "called_at": "timestamptz",
    "deadline": "timestamptz",
    "decided_by": "text",
}
"""The SQL type of each of `FIXTURE_FIELDS`, as `unnest` hands them to the upsert."""

UPSERT_FIXTURES = """
INSERT INTO {table} AS fixture (tournament_id, match_id, {columns})
SELECT %s::uuid, given.* FROM unnest(%s::uuid[], {arrays}) AS given
ON CONFLICT (match_id) DO UPDATE SET ({columns}) = ROW({excluded})
WHERE ({current}) IS DISTINCT FROM ({excluded})
"""


def upsert_fixtures_statement() -> str:
    columns = [f'"{name}"' for name in FIXTURE_FIELDS]
    return UPSERT_FIXTURES.format(
        table=Fixture._meta.db_table,
        columns=", ".join(columns),
        arrays=", ".join(f"%s::{FIXTURE_TYPES[name]}[]" for name in FIXTURE_FIELDS),
        excluded=", ".join(f"excluded.{column}" for column in columns),
        current=", ".join(f"fixture.{column}" for column in columns),
    )


def save_fixtures(
    tournament_id: UUID,
    state: TournamentState,
    fixtures: Sequence[FixtureFact],
    *,
    statuses: dict[str, str] | None = None,
) -> None:
    """Upsert the rows of `fixtures` (by match id) as the log says they are, in one statement
    (Django's `bulk_create` spends longer building it than PostgreSQL running it); rows that
    are right already are left alone. `statuses`: the matches' (`started_match_statuses`),
    when the caller has them already."""
    if not fixtures:
        return
    if statuses is None:
        statuses = match_statuses(f.match_id for f in fixtures)
    match_ids: list[UUID] = []
    columns: dict[str, list[Any]] = {name: [] for name in FIXTURE_FIELDS}
    for fixture in fixtures:
        match_ids.append(UUID(fixture.match_id))
        expected = expected_fixture(
            state, fixture, statuses.get(fixture.match_id, MatchStatus.NOT_STARTED)
        )
        for name in FIXTURE_FIELDS:
            columns[name].append(expected[name])
    columns["places"] = [None if p is None else json.dumps(p) for p in columns["places"]]
    with connection.cursor() as cursor:
        cursor.execute(
            upsert_fixtures_statement(),
            [tournament_id, match_ids, *(columns[name] for name in FIXTURE_FIELDS)],
        )


DELETE_FIXTURES_NOT_IN = """
DELETE FROM {table} WHERE tournament_id = %s AND NOT (match_id = ANY(%s::uuid[]))
"""


def delete_fixtures_not_in(tournament_id: UUID, match_ids: list[UUID]) -> None:
    """Delete the tournament's fixture rows whose match is not one of `match_ids` (nothing
    refers to a fixture row, so one statement, without Django's collector)."""
    with connection.cursor() as cursor:
        cursor.execute(
            DELETE_FIXTURES_NOT_IN.format(table=Fixture._meta.db_table),
            [tournament_id, match_ids],
        )


UPDATE_ENTRANTS = """
UPDATE {table} AS entrant
SET seed = given.seed, checked_in = given.checked_in, withdrawn = given.withdrawn,
    fixed_table = given.fixed_table, "group" = given.grp
FROM unnest(%s::bigint[], %s::integer[], %s::boolean[], %s::boolean[], %s::integer[], %s::text[])
    AS given(id, seed, checked_in, withdrawn, fixed_table, grp)
WHERE entrant.id = given.id
    AND (entrant.seed, entrant.checked_in, entrant.withdrawn, entrant.fixed_table, entrant."group")
        IS DISTINCT FROM
        (given.seed, given.checked_in, given.withdrawn, given.fixed_table, given.grp)
"""


def save_entrants(state: TournamentState, entrant_ids: Iterable[int]) -> None:
    """The entrant rows of `entrant_ids` as the log says they are, in one statement (Django's
    `bulk_update` builds a CASE per row and field: 0.3 s for 1,024 entrants); rows already
    right are left alone."""
    ids = sorted(set(entrant_ids))
    if not ids:
        return
    seeds = seeds_in_force(state)
    columns: tuple[list[Any], ...] = ([], [], [], [], [], [])
    for entrant_id in ids:
        expected = expected_entrant(state, entrant_id, seeds)
        columns[0].append(entrant_id)
        columns[1].append(expected["seed"])
        columns[2].append(expected["checked_in"])
        columns[3].append(expected["withdrawn"])
        columns[4].append(expected["fixed_table"])
        columns[5].append(expected["group"])
    with connection.cursor() as cursor:
        cursor.execute(UPDATE_ENTRANTS.format(table=Entrant._meta.db_table), columns)


def tables_of(tournament: Tournament) -> int:
    """The tables in force as the rows say them, as `TournamentState.tables` folds them: the
    number in the row's settings, or before the start of a tournament created by need, what
    its active entrants need now (decision record 0049)."""
    tables = tournament.settings.get("tables")
    if tables is not None:
        return int(tables)
    active = sum(1 for entrant in tournament.entrants.all() if not entrant.withdrawn)
    return tables_needed(entrants=active, table_size=tournament.table_size)


SAVE_TABLES = """
WITH dropped AS (DELETE FROM {table} WHERE tournament_id = %(tournament)s AND number > %(tables)s)
INSERT INTO {table} (tournament_id, number)
SELECT %(tournament)s, number FROM generate_series(1, %(tables)s) AS number
ON CONFLICT (tournament_id, number) DO NOTHING
"""


def save_tables(tournament_id: UUID, state: TournamentState) -> None:
    """Tables 1 to the tables in force, in one statement (a model instance a table, as
    `bulk_create` takes them, cost more than the statement)."""
    with connection.cursor() as cursor:
        cursor.execute(
            SAVE_TABLES.format(table=TableRow._meta.db_table),
            {"tournament": tournament_id, "tables": state.tables},
        )


def save_tournament(
    tournament_id: UUID,
    state: TournamentState,
    *,
    version: int,
    created_at: datetime,
    updated_at: datetime,
    created: bool,
) -> None:
    values = expected_tournament(state, version=version, updated_at=updated_at)
    if created:
        values["created_at"] = created_at
    Tournament.objects.filter(id=tournament_id).update(**values)


def project_appended(
    tournament_id: UUID,
    previous: TournamentState | None,
    state: TournamentState,
    appended: Appended[TournamentEvent],
) -> None:
    """The inline projection of one append: the tournament row, and the entrant, fixture and
    table rows its events touched."""
    records = appended.records
    created = any(isinstance(event, TournamentCreated) for event in appended.events)
    save_tournament(
        tournament_id,
        state,
        version=appended.last_version,
        created_at=records[0].recorded_at,
        updated_at=records[-1].recorded_at,
        created=created,
    )
    if created or previous is None or previous.tables != state.tables:
        save_tables(tournament_id, state)
    save_entrants(state, touched_entrants(state, appended.events))
    keys = {event.fixture for event in appended.events if isinstance(event, NamesFixture)}
    save_fixtures(tournament_id, state, [f for f in every_fixture(state) if f.id in keys])


@runtime_checkable
class NamesEntrant(Protocol):
    """An event about one entrant (registered, checked in, withdrew, corrected, a bye...)."""

    entrant: int


@runtime_checkable
class NamesFixture(Protocol):
    """An event about one fixture (created, scheduled, called, its result...)."""

    fixture: str


def touched_entrants(state: TournamentState, events: Iterable[TournamentEvent]) -> set[int]:
    touched: set[int] = set()
    for event in events:
        if isinstance(event, NamesEntrant):
            touched.add(event.entrant)
        if isinstance(event, EntrantsSeeded | EntrantsReseeded):
            touched.update(state.entrants)
    return touched & set(state.entrants)


def project_fixture_of_match(tournament_id: UUID, state: TournamentState, match_id: str) -> None:
    """A fixture's row after its match moved (the consumer's part: `in_progress` and back)."""
    save_fixtures(tournament_id, state, [f for f in every_fixture(state) if f.match_id == match_id])
