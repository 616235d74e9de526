"""The accelerated Swiss (Baku acceleration, FIDE Handbook C.04.5.1; decision record 0059),
decided and folded without a database."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.stream.builders import carried_out
from tournaments.errors import InvalidFormatOption
from tournaments.formats.acceleration import (
    accelerated_rounds,
    full_point_rounds,
    group_a_size,
    virtual_points,
)
from tournaments.plan import drawing
from tournaments.state import Result, TournamentSettings, TournamentState
from tournaments.stream.commands import (
    CreateTournament,
    PublishSwissRound,
    RecordResult,
    RegisterEntrant,
    StartTournament,
)
from tournaments.stream.decide import decide

TOURNAMENT = uuid.UUID(int=59)


def swiss(
    entrants: int, *, rounds: int, accelerated: bool = True, automatic: bool = True
) -> TournamentState:
    created = TournamentSettings(
        format="swiss",
        table_size=2,
        swiss_rounds=rounds,
        tables=None,
        accelerated=accelerated,
        automatic_rounds=automatic,
    )
    return carried_out(
        None,
        CreateTournament("Provinciale", created),
        *(RegisterEntrant(entrant, 1) for entrant in range(1, entrants + 1)),
        StartTournament(TOURNAMENT),
    )


def round_pairs(state: TournamentState, number: int) -> list[tuple[int, ...]]:
    paired = state.swiss_rounds[number - 1]
    return [entrants for _, entrants in paired.pairings]


def played_round(state: TournamentState, home_wins: list[bool]) -> TournamentState:
    """Every open fixture of the current round played: home or away wins, as given in turn."""
    open_fixtures = [f for f in state.fixtures.values() if f.id not in state.results]
    for fixture, home_won in zip(open_fixtures, home_wins * len(open_fixtures), strict=False):
        result = Result(
            winner=fixture.home if home_won else fixture.away,
            rounds=(1, 0) if home_won else (0, 1),
            points=(80, 40) if home_won else (40, 80),
        )
        state = carried_out(state, RecordResult(TOURNAMENT, fixture.match_id, result))
    return state


def test_the_published_example_nine_rounds_give_three_whole_and_two_half_virtual_points() -> None:
    given_before = [virtual_points(rounds=9, round_number=n, win=1.0) for n in range(1, 10)]

    assert accelerated_rounds(9) == 5
    assert given_before == [1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0]
    assert group_a_size(161) == 82  # the handbook's note: 80.5 rounded up to an even number


def test_forty_entrants_over_seven_rounds_split_twenty_and_twenty_with_four_accelerated() -> None:
    assert group_a_size(40) == 20
    assert accelerated_rounds(7) == 4
    assert full_point_rounds(7) == 2
    # A win is worth 2 match points: a whole win's virtual points, then half.
    assert [virtual_points(rounds=7, round_number=n, win=2.0) for n in range(1, 8)] == [
        2.0,
        2.0,
        1.0,
        1.0,
        0.0,
        0.0,
        0.0,
    ]


def test_round_one_of_thirty_two_pairs_within_group_a_and_within_group_b() -> None:
    state = swiss(32, rounds=7)

    assert round_pairs(state, 1) == [
        *((seed, seed + 8) for seed in range(1, 9)),  # top of A v middle of A
        *((seed, seed + 8) for seed in range(17, 25)),  # top of B v middle of B
    ]


def test_without_acceleration_round_one_of_thirty_two_pairs_top_half_with_bottom_half() -> None:
    state = swiss(32, rounds=7, accelerated=False)

    assert round_pairs(state, 1)[0] == (1, 17)


def test_a_field_under_thirty_two_is_paired_as_a_plain_swiss() -> None:
    state = swiss(30, rounds=7)

    assert round_pairs(state, 1)[0] == (1, 16)


def test_acceleration_is_refused_for_a_format_other_than_swiss() -> None:
    created = TournamentSettings(format="round_robin", table_size=2, accelerated=True)

    with pytest.raises(InvalidFormatOption):
        decide(None, CreateTournament("League", created))


@settings(max_examples=30, deadline=None)
@given(
    entrants=st.integers(32, 40),
    rounds=st.integers(3, 7),
    home_wins=st.lists(st.booleans(), min_size=1, max_size=6),
)
def test_virtual_points_never_reach_the_standings_and_end_with_the_accelerated_rounds(
    entrants: int, rounds: int, home_wins: list[bool]
) -> None:
    state = swiss(entrants, rounds=rounds, automatic=False)
    for number in range(1, rounds + 1):
        if number > 1:
            plain = replace(state, settings=replace(state.settings, accelerated=False))
            state = carried_out(state, PublishSwissRound(TOURNAMENT))
            if number > accelerated_rounds(rounds):
                # After the accelerated rounds, no virtual points: the draw is the plain one.
                assert round_pairs(state, number) == [
                    entrants for _, entrants in drawing.next_swiss_round(plain, number).tables
                ]
        # The standings read after a draw are the real points: the setting changes nothing.
        plain = replace(state, settings=replace(state.settings, accelerated=False))
        assert drawing.overall_standings(state) == drawing.overall_standings(plain)
        state = played_round(state, home_wins)
    assert state.finished
