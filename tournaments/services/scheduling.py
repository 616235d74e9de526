"""Scheduling: the venue's tables, tables and start times for waiting fixtures, table swaps,
calls and no-show forfeits."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from uuid import UUID

from django.utils import timezone

from common.actors import Actor
from games.matches import services as match_services
from games.models import Match, MatchStatus
from tournaments.models import Fixture
from tournaments.services.pipeline import (
    TournamentCommandResult,
    load_tournament,
    run,
    tournament_of_match,
)
from tournaments.state import TournamentState
from tournaments.stream.commands import (
    AssignTable,
    CallMatch,
    ChangeTables,
    ScheduleMatches,
)
from tournaments.stream.events import tournament_event
from tournaments.stream.fixture_events import MatchScheduled
from tournaments.stream.tables import no_show_forfeiter


def tournament_tables_change(
    *,
    tournament_id: UUID,
    tables: int | None,
    actor: Actor,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Set the venue's tables to `tables` (numbered from 1), at any time; None before the
    start: as many as the entrants registered need, counted at the start (decision record
    0049). Refused (`tables_in_use`) below a table a match waiting for its result holds. A
    running tournament then gives its waiting matches the new tables (the scheduler listens)."""
    return run(
        tournament_id=tournament_id,
        command=ChangeTables(tables),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def fixture_schedule(
    *, tournament_id: UUID, actor: Actor, now: datetime | None = None
) -> list[Fixture]:
    """Give every waiting fixture a free table and a start time (its no-show deadline comes
    with its call); returns the fixture rows scheduled."""
    now = now or timezone.now()

    outcome = run(
        tournament_id=tournament_id,
        command=ScheduleMatches(now=now, underway=frozenset()),
        prepare=lambda state, asked: replace(asked, underway=matches_underway(state)),
        actor=actor,
    )
    return fixture_rows_of(tournament_id, outcome)


def matches_underway(state: TournamentState | None) -> frozenset[str]:
    """The tournament's matches that are being played, or finished and waiting for their
    result to be recorded: they need no table."""
    if state is None:
        return frozenset()
    ids = [UUID(f.match_id) for f in state.fixtures.values() if f.table is None]
    underway = Match.objects.filter(id__in=ids).exclude(status=MatchStatus.NOT_STARTED)
    return frozenset(str(match_id) for match_id in underway.values_list("id", flat=True))


def fixture_rows_of(tournament_id: UUID, outcome: TournamentCommandResult) -> list[Fixture]:
    """The fixture rows the outcome's events scheduled, in the order they were."""
    if outcome.duplicate:
        return []
    events = map(tournament_event, outcome.events)
    keys = [event.fixture for event in events if isinstance(event, MatchScheduled)]
    match_ids = {outcome.state.fixtures[key].match_id for key in keys}
    by_match = {
        str(row.match_id): row
        for row in Fixture.objects.filter(tournament_id=tournament_id, match_id__in=match_ids)
    }
    return [by_match[outcome.state.fixtures[key].match_id] for key in keys]


def fixture_forfeit_no_show(*, match_id: UUID, actor: Actor, now: datetime | None = None) -> bool:
    """Forfeit a scheduled match that has not started by its deadline, decided from the folded
    tournament (`stream.no_show_forfeiter`): only with the no-show rule on, and only the side
    that did not check in, when the other did. Both absent (or both present): nothing, the
    match is overdue. Returns whether it forfeited."""
    now = now or timezone.now()
    tournament_id = (
        Fixture.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return False
    state, _ = load_tournament(tournament_id=tournament_id)
    fixture = state.fixture_of_match(str(match_id))
    if fixture is None or fixture.id in state.results:
        return False
    side = no_show_forfeiter(state, fixture)
    deadline = None if fixture.deadline is None else datetime.fromisoformat(fixture.deadline)
    if side is None or deadline is None or deadline > now:
        return False
    match = Match.objects.filter(id=match_id).first()
    if match is None or match.status != MatchStatus.NOT_STARTED:
        return False
    # The version read above: a scorer who starts the match meanwhile wins, and no forfeit lands.
    match_services.match_forfeit(
        match_id=match_id,
        side=side,
        reason="no-show",
        actor=actor,
        expected_version=match.version,
    )
    return True


def fixture_table_assign(*, match_id: UUID, table: int, actor: Actor) -> list[Fixture]:
    """Put a fixture's match at `table`. When another match waiting or being played holds that
    table, the two swap tables; a fixture keeps (or gets) its start time, and its call and
    deadline stay as they were. Returns the fixture rows that moved."""
    tournament_id = tournament_of_match(match_id)
    outcome = run(
        tournament_id=tournament_id,
        command=AssignTable(str(match_id), table, timezone.now()),
        actor=actor,
    )
    return fixture_rows_of(tournament_id, outcome)


def fixture_call(
    *,
    match_id: UUID,
    actor: Actor,
    table: int | None = None,
    now: datetime | None = None,
    idempotency_key: str | None = None,
) -> TournamentCommandResult:
    """Call a fixture's match to its table (moving it to `table` first, when given): with the
    no-show rule on, its deadline runs from now. Calling a called match again changes nothing."""
    tournament_id = tournament_of_match(match_id)
    return run(
        tournament_id=tournament_id,
        command=CallMatch(str(match_id), now or timezone.now(), table),
        actor=actor,
        idempotency_key=idempotency_key,
    )
