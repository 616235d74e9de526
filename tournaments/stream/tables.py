"""Deciding where and when matches are played: tables, start times, calls to the table and the
no-show rule."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from common.explained import gettext_noop
from tournaments.errors import (
    InvalidTournament,
    TableReserved,
    TablesInUse,
    TournamentAlreadyStarted,
)
from tournaments.state import EntrantRecord, Fixture, FixturePhase, TournamentState
from tournaments.stream.commands import AssignTable, CallMatch, ChangeTables, ScheduleMatches
from tournaments.stream.events import TablesChanged, TournamentEvent
from tournaments.stream.evolve import evolve, fold
from tournaments.stream.fixture_events import MatchCalled, MatchScheduled
from tournaments.stream.options import check_format_options


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def busy_tables(state: TournamentState) -> set[int]:
    """The tables held by a fixture without a result."""
    return {
        fixture.table
        for fixture in state.fixtures.values()
        if fixture.table is not None and fixture.id not in state.results
    }


def fixed_table_of(state: TournamentState, fixture: Fixture) -> int | None:
    """The table a fixture is played at because one of its entrants has a fixed table (the
    first such entrant in seat order, decision record 0059); None: any table."""
    for entrant in fixture.entrants:
        record = state.entrants.get(entrant)
        if record is not None and not record.withdrawn and record.fixed_table is not None:
            return record.fixed_table
    return None


def reserved_tables(state: TournamentState) -> dict[int, set[str]]:
    """The tables kept for fixed-table entrants' matches without a result (decision record
    0059), with those fixtures: no other match is seated there while they wait or play."""
    reserved: dict[int, set[str]] = {}
    for fixture in state.fixtures.values():
        table = fixed_table_of(state, fixture) if fixture.id not in state.results else None
        if table is not None:
            reserved.setdefault(table, set()).add(fixture.id)
    return reserved


def schedule_matches(state: TournamentState, command: ScheduleMatches) -> list[TournamentEvent]:
    """Waiting fixtures (earlier rounds first) given tables: a fixed-table entrant's match its
    table once free (decision record 0059), the others the free tables no such match holds."""
    busy = busy_tables(state)
    reserved = reserved_tables(state)
    waiting = sorted(
        (
            fixture
            for fixture in state.fixtures.values()
            if fixture.table is None
            and fixture.id not in state.results
            and fixture.match_id not in command.underway
        ),
        key=lambda fixture: fixture.round,
    )
    moves: list[MatchScheduled] = []
    anywhere: list[Fixture] = []
    for fixture in waiting:
        fixed = fixed_table_of(state, fixture)
        if fixed is None:
            anywhere.append(fixture)
        elif fixed not in busy and fixed <= state.tables:
            moves.append(scheduled(fixture, fixed, scheduled_at=command.now))
            busy.add(fixed)
    free = [t for t in range(1, state.tables + 1) if t not in busy and t not in reserved]
    moves += [
        scheduled(fixture, table, scheduled_at=command.now)
        for fixture, table in zip(anywhere, free, strict=False)
    ]
    return with_automatic_calls(state, moves, now=command.now)


def scheduled(fixture: Fixture, table: int, *, scheduled_at: datetime) -> MatchScheduled:
    """The fixture's match given a table and a start time; its no-show clock starts only when
    it is called (`MatchCalled`)."""
    return MatchScheduled(
        fixture=fixture.id,
        table=table,
        scheduled_at=scheduled_at.isoformat(),
        deadline=None,
    )


def with_automatic_calls(
    state: TournamentState, moves: list[MatchScheduled], *, now: datetime
) -> list[TournamentEvent]:
    """`moves` (fixtures given tables), each followed by its call when both sides are here."""
    recorded: list[TournamentEvent] = []
    for move in moves:
        recorded.append(move)
        state = evolve(state, move)
        fixture = state.fixtures[move.fixture]
        if both_here(state, fixture):
            call = called(state, fixture, now=now, by="check-in")
            recorded.append(call)
            state = evolve(state, call)
    return recorded


def both_here(state: TournamentState, fixture: Fixture) -> bool:
    """A fixture at a table, not called yet, without a result, whose two sides checked in."""
    return (
        fixture.table is not None
        and fixture.called_at is None
        and fixture.id not in state.results
        and all(state.entrants[e].checked_in for e in fixture.entrants)
    )


def called(state: TournamentState, fixture: Fixture, *, now: datetime, by: str) -> MatchCalled:
    """The fixture's match called to its table: with the no-show rule on, its deadline."""
    deadline = no_show_deadline(state, now)
    return MatchCalled(
        fixture=fixture.id,
        table=fixture.table,
        called_at=now.isoformat(),
        deadline=iso(deadline),
        by=by,
    )


def no_show_deadline(state: TournamentState, called_at: datetime) -> datetime | None:
    """When a match called at `called_at` is due to have started: None with the tournament's
    no-show rule off."""
    minutes = state.settings.no_show_minutes
    return None if minutes is None else called_at + timedelta(minutes=minutes)


def live_fixture(state: TournamentState, match_id: str) -> Fixture:
    """The live fixture of `match_id`, or why it has none (reset, or not a tournament's)."""
    fixture = state.fixture_of_match(match_id)
    if fixture is not None:
        return fixture
    retired = next((f for f in state.retired if f.match_id == match_id), None)
    if retired is not None:
        raise InvalidTournament.because(
            gettext_noop("%(fixture)s is %(status)s: it needs no table"),
            fixture=retired.id,
            status=FixturePhase.RESET,
        )
    raise InvalidTournament.because(
        gettext_noop("match %(match)s is not a match of a tournament"), match=match_id
    )


def assign_table(state: TournamentState, command: AssignTable) -> list[TournamentEvent]:
    fixture = live_fixture(state, command.match_id)
    if not 1 <= command.table <= state.tables:
        raise InvalidTournament.because(
            gettext_noop("the tables are numbered 1 to %(tables)s"),
            tables=state.tables,
        )
    if fixture.id in state.results:
        raise InvalidTournament.because(
            gettext_noop("%(fixture)s is %(status)s: it needs no table"),
            fixture=fixture.id,
            status=FixturePhase.FINISHED,
        )
    if fixture.table == command.table:
        return []
    check_not_reserved(state, fixture, command.table)
    holder = next(
        (
            other
            for other in state.fixtures.values()
            if other.table == command.table
            and other.id != fixture.id
            and other.id not in state.results
        ),
        None,
    )
    if holder is not None and fixture.table is None:
        raise InvalidTournament.because(
            gettext_noop(
                "table %(table)s is in use by %(holder)s: give %(fixture)s a table first, "
                "or pick a free one"
            ),
            table=command.table,
            holder=holder.id,
            fixture=fixture.id,
        )
    moves = [(fixture, command.table)]
    if holder is not None and fixture.table is not None:
        moves.append((holder, fixture.table))
    recorded = [
        scheduled(
            moved,
            table,
            scheduled_at=command.now
            if moved.scheduled_at is None
            else datetime.fromisoformat(moved.scheduled_at),
        )
        for moved, table in moves
    ]
    return with_automatic_calls(state, recorded, now=command.now)


def check_not_reserved(state: TournamentState, fixture: Fixture, table: int) -> None:
    """A fixed-table entrant's match stays at its table, and no other match takes a table kept
    for one (decision record 0059): the organizer corrects the entrant's fixed table first."""
    fixed = fixed_table_of(state, fixture)
    if fixed is not None and fixed != table:
        raise TableReserved.because(
            gettext_noop(
                "%(fixture)s is played at table %(fixed)s, an entrant's fixed table: correct "
                "the entrant's fixed table first"
            ),
            fixture=fixture.id,
            fixed=fixed,
        )
    if fixed is None and table in reserved_tables(state):
        raise TableReserved.because(
            gettext_noop(
                "table %(table)s is kept for an entrant's fixed table this round: pick another"
            ),
            table=table,
        )


def fixed_tables_in_use(state: TournamentState) -> int:
    """The highest fixed table of an active entrant (0: none), which the venue must have."""
    return max(
        (
            record.fixed_table
            for record in state.entrants.values()
            if record.fixed_table is not None and not record.withdrawn
        ),
        default=0,
    )


def change_tables(state: TournamentState, command: ChangeTables) -> list[TournamentEvent]:
    """The venue's tables set to `command.tables` (decision record 0049); never fewer than a
    match waiting for its result holds."""
    if command.tables is None:
        if state.started:
            raise TournamentAlreadyStarted.because(
                gettext_noop(
                    "the tournament has started: its tables were counted for the first round, "
                    "give their number"
                )
            )
        return [] if state.settings.tables is None else [TablesChanged(None)]
    check_format_options(replace(state.settings, tables=command.tables))
    if command.tables == state.settings.tables:
        return []
    held = sorted(
        (fixture for fixture in state.fixtures.values() if fixture.id not in state.results),
        key=lambda fixture: fixture.table or 0,
    )
    fixed = fixed_tables_in_use(state)
    if fixed > command.tables:
        raise TablesInUse.because(
            gettext_noop(
                "table %(table)s is an entrant's fixed table: correct it before having "
                "%(tables)s tables"
            ),
            table=fixed,
            tables=command.tables,
        )
    beyond = [f for f in held if f.table is not None and f.table > command.tables]
    if beyond:
        raise TablesInUse.because(
            gettext_noop(
                "table %(table)s is in use by %(holder)s: move its match to a table from 1 to "
                "%(tables)s first, or wait for its result"
            ),
            table=beyond[-1].table,
            holder=beyond[-1].id,
            tables=command.tables,
        )
    return [TablesChanged(command.tables)]


def call_match(state: TournamentState, command: CallMatch) -> list[TournamentEvent]:
    moved = (
        []
        if command.table is None
        else assign_table(state, AssignTable(command.match_id, command.table, command.now))
    )
    after = fold(moved, state)
    fixture = live_fixture(after, command.match_id)
    if fixture.id in after.results:
        raise InvalidTournament.because(
            gettext_noop("%(fixture)s is %(status)s: it needs no table"),
            fixture=fixture.id,
            status=FixturePhase.FINISHED,
        )
    if fixture.table is None:
        raise InvalidTournament.because(
            gettext_noop("give %(fixture)s a table before calling it"), fixture=fixture.id
        )
    if fixture.called_at is not None:
        return moved
    return [*moved, called(after, fixture, now=command.now, by="organizer")]


def no_show_forfeiter(state: TournamentState, fixture: Fixture) -> int | None:
    """The side (0 home, 1 away, 2 the third at three) that forfeits `fixture` for not showing
    up once its deadline has passed: only with the no-show rule on, and only when exactly one
    side did not check in. None when nobody forfeits (rule off, everyone present, or more than
    one absent: then the match is overdue, for the organizer to settle)."""
    if state.settings.no_show_minutes is None or fixture.deadline is None:
        return None
    if fixture.called_at is None:
        return None
    present = [state.entrants.get(e, EntrantRecord()).checked_in for e in fixture.entrants]
    absent = [side for side, here in enumerate(present) if not here]
    # One side missing, the others there: it forfeits. Otherwise the organizer settles it.
    return absent[0] if len(absent) == 1 and len(present) - len(absent) >= 1 else None
