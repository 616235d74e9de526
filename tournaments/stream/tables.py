"""Deciding where and when matches are played: tables, start times, calls to the table and the
no-show rule."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from common.explained import gettext_noop
from tournaments.errors import InvalidTournament, TablesInUse, TournamentAlreadyStarted
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


def schedule_matches(state: TournamentState, command: ScheduleMatches) -> list[TournamentEvent]:
    busy = busy_tables(state)
    free = [t for t in range(1, state.tables + 1) if t not in busy]
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
    moves = [
        scheduled(fixture, table, scheduled_at=command.now)
        for fixture, table in zip(waiting, free, strict=False)
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
