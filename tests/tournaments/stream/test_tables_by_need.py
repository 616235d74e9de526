"""The venue's tables by need and changed later (decision record 0049), decided and folded
without a database."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.stream.builders import carried_out
from tournaments.errors import InvalidFormatOption, TablesInUse, TournamentAlreadyStarted
from tournaments.state import Result, TournamentSettings, TournamentState, tables_needed
from tournaments.stream.commands import (
    ChangeTables,
    CreateTournament,
    RegisterEntrant,
    ScheduleMatches,
    StartTournament,
    WithdrawEntrant,
)
from tournaments.stream.decide import decide
from tournaments.stream.events import TablesChanged, TournamentEvent
from tournaments.stream.evolve import fold

TOURNAMENT = uuid.UUID(int=24)
NOW = datetime(2026, 11, 28, 20, tzinfo=UTC)


def registered(
    entrants: int, *, tables: int | None, table_size: int = 2, fmt: str = "round_robin"
) -> TournamentState:
    settings = TournamentSettings(format=fmt, table_size=table_size, tables=tables)
    players = 3 if table_size == 6 else 2 if table_size == 4 else 1
    return carried_out(
        None,
        CreateTournament("Club night", settings),
        *(RegisterEntrant(entrant, players) for entrant in range(1, entrants + 1)),
    )


def started(state: TournamentState) -> tuple[TournamentState, list[TournamentEvent]]:
    events = decide(state, StartTournament(TOURNAMENT))
    return fold(events, state), events


def test_before_the_start_the_tables_follow_the_entrants_registered_and_withdrawn() -> None:
    state = registered(7, tables=None)

    assert state.tables == 4
    assert carried_out(state, WithdrawEntrant(7)).tables == 3


def test_the_start_records_the_first_round_s_need_as_the_tables() -> None:
    state, events = started(registered(9, tables=None, fmt="swiss"))

    counted = [event for event in events if isinstance(event, TablesChanged)]
    assert counted == [TablesChanged(5, by="first_round")]
    assert state.settings.tables == 5
    assert state.tables == 5


def test_after_the_start_a_late_withdrawal_leaves_the_tables_counted() -> None:
    state, _ = started(registered(8, tables=None))

    assert carried_out(state, WithdrawEntrant(8, reason="ill")).tables == 4


def test_a_tournament_with_its_tables_set_records_no_count_at_the_start() -> None:
    state, events = started(registered(8, tables=2))

    assert not [event for event in events if isinstance(event, TablesChanged)]
    assert state.tables == 2


def test_the_first_round_of_a_tournament_by_need_is_scheduled_at_once() -> None:
    state, _ = started(registered(8, tables=None))

    scheduled = fold(decide(state, ScheduleMatches(now=NOW)), state)

    first_round = [f for f in scheduled.fixtures.values() if f.round == 1]
    assert sorted(f.table or 0 for f in first_round) == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("entrants", "table_size", "tables"),
    [(2, 2, 1), (9, 2, 5), (8, 4, 4), (7, 3, 3), (9, 3, 3), (5, 6, 3), (0, 2, 1)],
)
def test_a_table_seats_two_entrants_or_three_at_tables_of_three(
    entrants: int, table_size: int, tables: int
) -> None:
    assert tables_needed(entrants=entrants, table_size=table_size) == tables


@given(st.integers(min_value=0, max_value=2000), st.sampled_from([2, 3, 4, 6]))
def test_the_tables_needed_seat_every_entrant_and_leave_no_table_to_spare(
    entrants: int, table_size: int
) -> None:
    per_table = 3 if table_size == 3 else 2
    tables = tables_needed(entrants=entrants, table_size=table_size)

    assert tables * per_table >= entrants
    assert tables == 1 or (tables - 1) * per_table < entrants


def test_the_organizer_changes_the_tables_and_the_change_folds() -> None:
    state = registered(4, tables=None)

    events = decide(state, ChangeTables(6))

    assert events == [TablesChanged(6)]
    assert fold(events, state).tables == 6


def test_setting_the_tables_already_in_force_records_nothing() -> None:
    assert decide(registered(4, tables=3), ChangeTables(3)) == []
    assert decide(registered(4, tables=None), ChangeTables(None)) == []


def test_before_the_start_the_tables_go_back_to_the_entrants_need() -> None:
    state = registered(6, tables=10)

    events = decide(state, ChangeTables(None))

    assert events == [TablesChanged(None)]
    assert fold(events, state).tables == 3


def test_after_the_start_the_tables_cannot_go_back_to_the_need() -> None:
    state, _ = started(registered(4, tables=None))

    with pytest.raises(TournamentAlreadyStarted):
        decide(state, ChangeTables(None))


@pytest.mark.parametrize("tables", [0, 501])
def test_tables_out_of_bounds_are_refused(tables: int) -> None:
    with pytest.raises(InvalidFormatOption, match="tables"):
        decide(registered(4, tables=2), ChangeTables(tables))


def test_fewer_tables_than_a_waiting_match_holds_are_refused_naming_it() -> None:
    state, _ = started(registered(8, tables=None))
    state = fold(decide(state, ScheduleMatches(now=NOW)), state)
    holder = next(f for f in state.fixtures.values() if f.table == 4)

    with pytest.raises(TablesInUse) as refused:
        decide(state, ChangeTables(3))

    assert refused.value.params == {"table": 4, "holder": holder.id, "tables": 3}


def test_a_match_with_its_result_holds_no_table_against_fewer_tables() -> None:
    state, _ = started(registered(2, tables=3))
    state = fold(decide(state, ScheduleMatches(now=NOW)), state)
    only = next(iter(state.fixtures.values()))
    at_table_3 = replace(state, fixtures={only.id: replace(only, table=3)})
    played = replace(at_table_3, results={only.id: Result(winner=only.home)})

    with pytest.raises(TablesInUse):
        decide(at_table_3, ChangeTables(2))
    assert decide(played, ChangeTables(2)) == [TablesChanged(2)]


def test_more_tables_mid_tournament_seat_the_matches_waiting_for_one() -> None:
    state, _ = started(registered(8, tables=1))
    state = fold(decide(state, ScheduleMatches(now=NOW)), state)
    waiting = [f for f in state.fixtures.values() if f.table is None and f.round == 1]
    assert len(waiting) == 3

    state = carried_out(state, ChangeTables(4))
    state = fold(decide(state, ScheduleMatches(now=NOW)), state)

    first_round = [f for f in state.fixtures.values() if f.round == 1]
    assert sorted(f.table or 0 for f in first_round) == [1, 2, 3, 4]
