"""Late entrants, requested byes and pauses in a Swiss (decision record 0058), decided and
folded without a database."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.stream.builders import carried_out
from tournaments.errors import (
    ByeAlreadyRequested,
    ByeNotRequested,
    InvalidFormatOption,
    InvalidRound,
    NotASwiss,
    RegistrationClosed,
    RoundAlreadyDrawn,
    TooManyByes,
)
from tournaments.plan.drawing import overall_standings, sitting_out, swiss_sit_outs
from tournaments.state import Result, TournamentSettings, TournamentState
from tournaments.stream.byes import late_entry_round
from tournaments.stream.commands import (
    CancelBye,
    CreateTournament,
    PauseEntrant,
    RecordResult,
    RegisterEntrant,
    RequestBye,
    ReturnEntrant,
    StartTournament,
    WithdrawEntrant,
)
from tournaments.stream.decide import decide
from tournaments.stream.events import EntrantRegistered
from tournaments.stream.evolve import fold

TOURNAMENT = uuid.UUID(int=58)


def swiss(entrants: int, **options: Any) -> TournamentState:
    """A Swiss of `entrants` singles seeded 1, 2, ..., started (round 1 drawn)."""
    options.setdefault("swiss_rounds", 4)
    settings = TournamentSettings("swiss", 2, best_of=1, **options)
    return carried_out(
        None,
        CreateTournament("Swiss night", settings),
        *(RegisterEntrant(entrant, 1, seed=entrant) for entrant in range(1, entrants + 1)),
        StartTournament(TOURNAMENT),
    )


def home_wins_the_round(state: TournamentState) -> TournamentState:
    """Every open fixture of the current round won by its home entrant (the next round is
    drawn by itself)."""
    for fixture in [f for f in state.fixtures.values() if f.id not in state.results]:
        result = Result(winner=fixture.home, rounds=(1, 0), points=(70, 50))
        if fixture.third is not None:
            result = Result(fixture.home, (1, 0, 0), (70, 30, 20), places=(1, 2, 3))
        state = carried_out(state, RecordResult(TOURNAMENT, fixture.match_id, result))
    return state


def drawn_in(state: TournamentState, number: int) -> list[int]:
    """The entrants at a table in round `number`."""
    (paired,) = [p for p in state.swiss_rounds if p.number == number]
    return [entrant for _, entrants in paired.pairings for entrant in entrants]


def points_of(state: TournamentState) -> dict[int, int]:
    return {row.entrant: int(row.match_points) for row in overall_standings(state)}


@pytest.mark.parametrize(("missed", "points"), [("zero", 0), ("bye", 4)])
def test_a_late_entrant_joins_round_three_with_the_points_of_the_rounds_it_missed(
    missed: str, points: int
) -> None:
    state = home_wins_the_round(swiss(6, late_entry_until_round=3, late_entry_points=missed))
    registered = decide(state, RegisterEntrant(7, 1))
    state = home_wins_the_round(fold(registered, state))

    assert registered == [EntrantRegistered(7, late=True, from_round=3, missed=missed)]
    assert 7 not in drawn_in(state, 2)
    assert 7 in drawn_in(state, 3) or state.swiss_rounds[2].bye == 7
    assert points_of(state)[7] == points
    kind = "late_entry_bye" if missed == "bye" else "late_entry"
    assert swiss_sit_outs(state)[7] == [(1, kind), (2, kind)]


def test_no_late_entrant_after_the_round_the_setting_names_nor_by_default() -> None:
    late = home_wins_the_round(home_wins_the_round(swiss(6, late_entry_until_round=3)))

    with pytest.raises(RegistrationClosed):
        decide(late, RegisterEntrant(7, 1))
    with pytest.raises(RegistrationClosed):
        decide(swiss(6), RegisterEntrant(7, 1))


def test_late_entry_points_must_be_zero_or_bye() -> None:
    with pytest.raises(InvalidFormatOption):
        swiss(4, late_entry_points="half")


def test_a_requested_bye_is_honoured_and_scored_half_a_win() -> None:
    state = carried_out(swiss(6), RequestBye(1, 2))
    state = home_wins_the_round(state)

    assert 1 not in drawn_in(state, 2)
    assert state.swiss_rounds[1].requested == (1,)
    assert state.swiss_rounds[1].bye not in (None, 1)  # five drawn: the odd one's bye is theirs
    assert points_of(state)[1] == 2 + 1  # won round 1, a requested bye in round 2


def test_a_requested_bye_takes_the_points_the_tournament_set() -> None:
    state = home_wins_the_round(carried_out(swiss(4, requested_bye_points=2), RequestBye(4, 2)))

    assert points_of(state)[4] == 0 + 2  # lost round 1 to seed 1


def test_at_tables_of_three_a_requested_bye_is_half_a_first_place() -> None:
    settings = TournamentSettings("swiss", 3, scoring="points", rounds=1, swiss_rounds=3)
    state = carried_out(
        None,
        CreateTournament("Threes", settings),
        *(RegisterEntrant(entrant, 1, seed=entrant) for entrant in range(1, 8)),
        StartTournament(TOURNAMENT),
        RequestBye(7, 2),
    )
    before = points_of(state)[7]

    state = home_wins_the_round(state)

    assert 7 not in drawn_in(state, 2)
    assert points_of(state)[7] == before + 1


def test_requested_byes_are_refused_past_the_most_allowed_twice_or_for_a_drawn_round() -> None:
    state = carried_out(swiss(6), RequestBye(1, 3))

    with pytest.raises(TooManyByes):
        decide(state, RequestBye(1, 4))
    with pytest.raises(ByeAlreadyRequested):
        decide(carried_out(swiss(6, max_requested_byes=2), RequestBye(1, 3)), RequestBye(1, 3))
    with pytest.raises(RoundAlreadyDrawn):
        decide(state, RequestBye(2, 1))
    with pytest.raises(NotASwiss):
        decide(
            carried_out(
                None,
                CreateTournament("League", TournamentSettings("round_robin", 2)),
                RegisterEntrant(1, 1),
            ),
            RequestBye(1, 1),
        )


def test_a_requested_bye_is_cancelled_until_its_round_is_drawn() -> None:
    state = carried_out(swiss(6), RequestBye(1, 2), CancelBye(1, 2))
    state = home_wins_the_round(state)

    assert 1 in drawn_in(state, 2)
    with pytest.raises(ByeNotRequested):
        decide(state, CancelBye(1, 3))
    drawn = home_wins_the_round(carried_out(swiss(6), RequestBye(1, 2)))
    with pytest.raises(RoundAlreadyDrawn):
        decide(drawn, CancelBye(1, 2))


def test_a_paused_entrant_is_not_drawn_and_scores_nothing_until_it_returns() -> None:
    state = carried_out(swiss(6), PauseEntrant(2, reason="at work"))
    state = home_wins_the_round(state)
    assert 2 not in drawn_in(state, 2)
    assert state.swiss_rounds[1].absent == (2,)
    before = points_of(state)[2]

    state = home_wins_the_round(carried_out(state, ReturnEntrant(2)))

    assert 2 in drawn_in(state, 3) or state.swiss_rounds[2].bye == 2
    assert points_of(home_wins_the_round(state))[2] >= before
    assert swiss_sit_outs(state)[2] == [(2, "absent")]
    assert decide(state, ReturnEntrant(2)) == []  # not paused: nothing to record


@settings(max_examples=40, deadline=None)
@given(
    entrants=st.integers(min_value=3, max_value=9),
    plans=st.lists(
        st.tuples(
            st.integers(min_value=1, max_value=9),
            st.sampled_from(["bye", "pause", "return", "withdraw", "late"]),
        ),
        max_size=12,
    ),
    max_byes=st.integers(min_value=1, max_value=3),
)
def test_no_entrant_sitting_out_is_drawn_and_every_drawn_entrant_plays_once_or_has_the_bye(
    entrants: int, plans: list[tuple[int, str]], max_byes: int
) -> None:
    state = swiss(entrants, swiss_rounds=4, max_requested_byes=max_byes, late_entry_until_round=3)
    steps = iter(plans)
    while not state.finished:
        for entrant, action in [next(steps, (0, "")) for _ in range(2)]:
            if action == "late" and late_entry_round(state) is not None:
                state = carried_out(state, RegisterEntrant(100 + len(state.entrants), 1))
            if entrant not in state.entrants or state.entrants[entrant].withdrawn:
                continue
            if action == "bye":
                state = requested_if_allowed(state, entrant)
            elif action == "pause":
                state = carried_out(state, PauseEntrant(entrant))
            elif action == "return":
                state = carried_out(state, ReturnEntrant(entrant))
            elif sum(not r.withdrawn for r in state.entrants.values()) > 2:
                state = carried_out(state, WithdrawEntrant(entrant))
        number = len(state.swiss_rounds) + 1
        requested, absent = sitting_out(state, number)
        expected = {e for e in state.active_entrants if e not in {*requested, *absent}}
        state = home_wins_the_round(state)
        if len(state.swiss_rounds) < number:
            break  # a round of nobody at a table: nothing more to draw
        paired = state.swiss_rounds[number - 1]
        seated = [e for _, at_table in paired.pairings for e in at_table]
        bye = [] if paired.bye is None else [paired.bye]
        assert sorted([*seated, *bye]) == sorted(expected)
        assert (paired.requested, paired.absent) == (requested, absent)
        assert not {*requested, *absent} & {*seated, *bye}


def requested_if_allowed(state: TournamentState, entrant: int) -> TournamentState:
    try:
        return carried_out(state, RequestBye(entrant, len(state.swiss_rounds) + 1))
    except (TooManyByes, ByeAlreadyRequested, RoundAlreadyDrawn, InvalidRound):
        return state
