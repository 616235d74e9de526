"""Entrants at a fixed table (reduced mobility, decision record 0059), decided and folded
without a database."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.stream.builders import carried_out
from tournaments.errors import FixedTableTaken, InvalidFixedTable, TableReserved, TablesInUse
from tournaments.state import Result, TournamentSettings, TournamentState
from tournaments.stream.commands import (
    AssignTable,
    ChangeTables,
    CorrectEntrant,
    CreateTournament,
    RecordResult,
    RegisterEntrant,
    ScheduleMatches,
    StartTournament,
    WithdrawEntrant,
)
from tournaments.stream.decide import decide
from tournaments.stream.events import EntrantCorrected, EntrantRegistered, decode, encode
from tournaments.stream.evolve import fold

TOURNAMENT = uuid.UUID(int=59)
NOW = datetime(2026, 11, 28, 21, tzinfo=UTC)


def registered(
    entrants: int, fixed: dict[int, int], *, tables: int | None, fmt: str = "round_robin"
) -> TournamentState:
    created = TournamentSettings(format=fmt, table_size=2, tables=tables, swiss_rounds=3)
    return carried_out(
        None,
        CreateTournament("Circolo", created),
        *(
            RegisterEntrant(entrant, 1, fixed_table=fixed.get(entrant))
            for entrant in range(1, entrants + 1)
        ),
    )


def scheduled(state: TournamentState) -> TournamentState:
    return carried_out(state, ScheduleMatches(now=NOW))


def seated(state: TournamentState) -> list[tuple[int, int, tuple[int, ...]]]:
    """(round, table, entrants) of every fixture at a table without a result."""
    return sorted(
        (f.round, f.table, f.entrants)
        for f in state.fixtures.values()
        if f.table is not None and f.id not in state.results
    )


def played_at_tables(state: TournamentState) -> TournamentState:
    """Every match at a table won by its home side."""
    for fixture in [f for f in state.fixtures.values() if f.table is not None]:
        if fixture.id not in state.results:
            result = Result(winner=fixture.home, rounds=(1, 0), points=(80, 40))
            state = carried_out(state, RecordResult(TOURNAMENT, fixture.match_id, result))
    return state


def test_a_fixed_table_is_recorded_only_when_set_and_read_back() -> None:
    with_table = EntrantRegistered(7, fixed_table=3)
    without = EntrantRegistered(8)

    assert encode(with_table)[1]["fixed_table"] == 3
    assert "fixed_table" not in encode(without)[1]
    assert decode(*encode(with_table)) == with_table
    assert decode("EntrantRegistered", {"entrant": 8, "seed": None}) == without


def test_the_fixed_entrant_s_match_is_at_its_table_in_every_round_and_no_other_is() -> None:
    state = carried_out(registered(6, {5: 1}, tables=3), StartTournament(TOURNAMENT))
    rounds_seen = set()

    while not state.finished:
        state = scheduled(state)
        for round_, table, entrants in seated(state):
            assert (table == 1) == (5 in entrants), (round_, table, entrants)
            rounds_seen.add(round_)
        state = played_at_tables(state)

    assert rounds_seen == {1, 2, 3, 4, 5}


def test_the_fixed_table_stays_kept_while_the_fixed_entrant_s_match_waits() -> None:
    # Seven entrants, one bye a round: table 2 stays empty until entrant 7's match is seated.
    state = carried_out(registered(7, {7: 2}, tables=4), StartTournament(TOURNAMENT))
    state = scheduled(state)
    state = played_at_tables(state)
    state = scheduled(state)

    for _, table, entrants in seated(state):
        assert (table == 2) == (7 in entrants)


def test_a_second_entrant_cannot_have_a_fixed_table_another_active_entrant_has() -> None:
    state = registered(2, {1: 2}, tables=4)

    with pytest.raises(FixedTableTaken):
        decide(state, RegisterEntrant(3, 1, fixed_table=2))
    freed = carried_out(state, WithdrawEntrant(1))
    assert decide(freed, RegisterEntrant(3, 1, fixed_table=2))


@pytest.mark.parametrize("table", [0, 5, True])
def test_a_fixed_table_is_one_of_the_venue_s_tables(table: int) -> None:
    with pytest.raises(InvalidFixedTable):
        decide(registered(2, {}, tables=4), RegisterEntrant(3, 1, fixed_table=table))


def test_a_tournament_by_need_has_at_least_its_highest_fixed_table_from_the_start() -> None:
    state = carried_out(registered(4, {2: 6}, tables=None), StartTournament(TOURNAMENT))

    assert state.tables == 6
    with pytest.raises(TablesInUse):
        decide(state, ChangeTables(5))


def test_a_correction_gives_or_takes_a_fixed_table_and_is_recorded() -> None:
    state = registered(4, {}, tables=2)

    events = decide(state, CorrectEntrant(3, "wheelchair", ("fixed_table",), fixed_table=2))
    taken = fold(events, state)
    cleared = carried_out(taken, CorrectEntrant(3, "moved", ("fixed_table",), fixed_table=None))

    assert events == [EntrantCorrected(3, ("fixed_table",), "wheelchair", fixed_table=2)]
    assert encode(events[0])[1]["fixed_table"] == 2
    assert taken.entrants[3].fixed_table == 2
    assert cleared.entrants[3].fixed_table is None
    assert decide(taken, CorrectEntrant(3, "same", ("fixed_table",), fixed_table=2)) == []


def test_no_other_match_is_moved_to_a_kept_table_nor_the_fixed_match_off_it() -> None:
    state = carried_out(registered(4, {4: 1}, tables=2), StartTournament(TOURNAMENT))
    state = scheduled(state)
    fixed = next(f for f in state.fixtures.values() if 4 in f.entrants and f.round == 1)
    other = next(f for f in state.fixtures.values() if 4 not in f.entrants and f.round == 1)

    with pytest.raises(TableReserved):
        decide(state, AssignTable(other.match_id, 1, NOW))
    with pytest.raises(TableReserved):
        decide(state, AssignTable(fixed.match_id, 2, NOW))


@settings(max_examples=40, deadline=None)
@given(
    entrants=st.integers(3, 9),
    fmt=st.sampled_from(["round_robin", "swiss"]),
    data=st.data(),
)
def test_on_any_field_fixed_entrants_play_at_their_tables_and_nobody_else_does(
    entrants: int, fmt: str, data: st.DataObject
) -> None:
    tables = (entrants + 1) // 2 + data.draw(st.integers(0, 2), label="spare tables")
    fixed_entrants = data.draw(
        st.lists(st.integers(1, entrants), unique=True, max_size=tables), label="fixed"
    )
    table_numbers = data.draw(st.permutations(range(1, tables + 1)), label="their tables")
    fixed = dict(zip(fixed_entrants, table_numbers, strict=False))
    state = carried_out(
        registered(entrants, fixed, tables=tables, fmt=fmt), StartTournament(TOURNAMENT)
    )

    for _ in range(100):
        if state.finished:
            break
        state = scheduled(state)
        at_tables = seated(state)
        assert at_tables, "a waiting match was never seated"
        for _, table, seated_entrants in at_tables:
            owners = [e for e in seated_entrants if e in fixed]
            if owners:
                assert table == fixed[owners[0]]
            # No match without a fixed entrant at a table kept for one still to play (two
            # fixed entrants meeting play at the first one's, in seat order).
            kept = {
                fixed[next(e for e in f.entrants if e in fixed)]
                for f in state.fixtures.values()
                if f.id not in state.results and any(e in fixed for e in f.entrants)
            }
            assert owners or table not in kept
        state = played_at_tables(state)
    assert state.finished
