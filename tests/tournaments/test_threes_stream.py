"""Tournaments at tables of three on pure folds (decision record 0031): the tournament stream's
decide/fold and the match stream's, without a database."""

import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.matches import stream as matches
from games.rules import DEFAULT_VARIANT, MatchFormat
from tournaments import plan
from tournaments.errors import InvalidTournament, MatchNotLevel, TooFewEntrants
from tournaments.standings.errors import InvalidStandingsConfig, UnknownTiebreak
from tournaments.stream import (
    FIXTURE_CREATED,
    FIXTURE_RESET,
    CreateTournament,
    DecideLevelMatch,
    EntrantRecord,
    Fixture,
    RecordResult,
    RegisterEntrant,
    Result,
    StartTournament,
    TournamentSettings,
    TournamentState,
    WithdrawEntrant,
    decide,
    fold,
    no_show_forfeiter,
)

TOURNAMENT = uuid.UUID(int=31)


def run(state: TournamentState | None, command: Any) -> TournamentState:
    events = decide(state, command)
    return state if not events else fold(events, state)  # type: ignore[return-value]


def started(format: str, entrants: int, **options: Any) -> TournamentState:
    state = run(None, CreateTournament("Tre", TournamentSettings(format, 3, **options)))
    for entrant in range(1, entrants + 1):
        state = run(state, RegisterEntrant(entrant, players=1, seed=entrant))
    return run(state, StartTournament(TOURNAMENT))


def at_table(state: TournamentState, fixture: Fixture, points: tuple[int, ...]) -> Result:
    """The result of a one-round match at the fixture's table with these card points."""
    best = max(points)
    leaders = [seat for seat, p in enumerate(points) if p == best]
    return plan.result_at_table(
        state,
        fixture.entrants,
        winner=leaders[0] if len(leaders) == 1 else None,
        forfeited_by=None,
        rounds=tuple(int(seat in leaders and len(leaders) == 1) for seat in range(len(points))),
        points=points,
    )


def first(state: TournamentState) -> Fixture:
    return min(state.fixtures.values(), key=lambda fixture: fixture.sequence)


# Creation and start.


@pytest.mark.parametrize(
    ("settings", "refusal"),
    [
        (TournamentSettings("double_elimination", 3), InvalidTournament),
        (TournamentSettings("swiss", 3, tiebreaks=("buchholz",)), UnknownTiebreak),
        (
            TournamentSettings("swiss", 3, placing_scoring={"places": [1, 2, 0]}),
            InvalidStandingsConfig,
        ),
        (TournamentSettings("swiss", 2, placing_scoring={"bye": 1}), InvalidStandingsConfig),
        (TournamentSettings("swiss", 5), InvalidTournament),
    ],
)
def test_settings_that_tables_of_three_cannot_use_are_refused(
    settings: TournamentSettings, refusal: type[Exception]
) -> None:
    with pytest.raises(refusal):
        decide(None, CreateTournament("Tre", settings))


def test_the_settings_of_a_two_sided_tournament_are_recorded_as_before() -> None:
    assert "placing_scoring" not in TournamentSettings("swiss", 2).to_dict()
    scored = TournamentSettings("swiss", 3, placing_scoring={"places": [3, 1, 0]})
    assert TournamentSettings.from_dict(scored.to_dict()) == scored


def test_two_entrants_cannot_start_a_tournament_at_tables_of_three() -> None:
    state = run(None, CreateTournament("Tre", TournamentSettings("swiss", 3)))
    for entrant in (1, 2):
        state = run(state, RegisterEntrant(entrant, players=1, seed=entrant))

    with pytest.raises(TooFewEntrants):
        decide(state, StartTournament(TOURNAMENT))


def test_each_entrant_at_a_table_of_three_is_one_player() -> None:
    state = run(None, CreateTournament("Tre", TournamentSettings("swiss", 3)))

    with pytest.raises(InvalidTournament.__mro__[1]):  # the tournament errors' base
        decide(state, RegisterEntrant(1, players=2))


def test_a_fixture_at_three_records_its_third_entrant_and_only_then() -> None:
    events = decide(
        run(
            run(
                run(
                    run(None, CreateTournament("Tre", TournamentSettings("round_robin", 3))),
                    RegisterEntrant(1, players=1),
                ),
                RegisterEntrant(2, players=1),
            ),
            RegisterEntrant(3, players=1),
        ),
        StartTournament(TOURNAMENT),
    )

    (created,) = [e for e in events if e.type == FIXTURE_CREATED]
    assert sorted([created.payload["home"], created.payload["away"], created.payload["third"]]) == [
        1,
        2,
        3,
    ]
    two_sided = started_two_sided()
    assert all("third" not in e.payload for e in two_sided if e.type == FIXTURE_CREATED)


def started_two_sided() -> list[Any]:
    state = run(None, CreateTournament("Due", TournamentSettings("round_robin", 2)))
    for entrant in (1, 2, 3):
        state = run(state, RegisterEntrant(entrant, players=1))
    return decide(state, StartTournament(TOURNAMENT))


# Places.


@pytest.mark.parametrize(
    ("points", "places"),
    [((70, 40, 10), (1, 2, 3)), ((10, 70, 40), (3, 1, 2)), ((50, 50, 20), (1, 1, 3))],
)
def test_places_at_a_table_of_three_follow_the_card_points_of_a_match_scored_by_points(
    points: tuple[int, int, int], places: tuple[int, int, int]
) -> None:
    state = started("round_robin", 3, scoring="points", rounds=1)

    result = at_table(state, first(state), points)

    assert result.places == places


def test_a_forfeiting_entrant_is_placed_last_and_the_others_by_their_play() -> None:
    state = started("round_robin", 3)
    fixture = first(state)

    result = plan.result_at_table(
        state, fixture.entrants, winner=2, forfeited_by=0, rounds=(1, 0, 1), points=(60, 20, 40)
    )

    assert result.places == (3, 2, 1)
    assert result.forfeited_by == fixture.entrants[0]
    assert result.forfeit


def test_the_match_winner_is_placed_first_whatever_the_totals_say() -> None:
    state = started("single_elimination", 3, scoring="points", rounds=1)
    fixture = first(state)

    # A deciding round won by the third seat after a level first round.
    result = plan.result_at_table(
        state, fixture.entrants, winner=2, forfeited_by=None, rounds=(0, 0, 1), points=(80, 40, 80)
    )

    assert result.places == (2, 3, 1)


# Level knockout tables.


def test_under_the_higher_seed_rule_a_level_table_goes_to_the_best_seeded_of_its_leaders() -> None:
    state = started(
        "single_elimination", 3, scoring="points", rounds=1, level_knockout="higher_seed"
    )
    fixture = first(state)
    seat_of_seed_1 = fixture.entrants.index(1)
    points = [20, 20, 20]
    points[seat_of_seed_1] = 10  # seed 1 is last; the other two share first place
    result = at_table(state, fixture, tuple(points))

    recorded = decide(state, RecordResult(TOURNAMENT, fixture.match_id, result))

    assert recorded[0].payload["winner"] == 2
    assert recorded[0].payload["decided_by"] == "higher_seed"


def test_the_organizer_decides_a_level_table_between_the_entrants_who_shared_first() -> None:
    state = started("single_elimination", 3, scoring="points", rounds=1, level_knockout="organizer")
    fixture = first(state)
    last = fixture.entrants[2]
    state = run(
        state, RecordResult(TOURNAMENT, fixture.match_id, at_table(state, fixture, (50, 50, 20)))
    )

    with pytest.raises(MatchNotLevel):
        decide(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, last, "lot"))
    decided = run(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, fixture.entrants[1], "lot"))
    assert decided.finished


def test_a_changed_winner_at_a_knockout_table_resets_the_table_it_fed() -> None:
    state = started("single_elimination", 9, best_of=1)
    first_round = sorted(state.fixtures.values(), key=lambda fixture: fixture.id)
    for fixture in first_round:
        state = run(
            state,
            RecordResult(TOURNAMENT, fixture.match_id, at_table(state, fixture, (70, 40, 10))),
        )
    final = state.fixtures["K2-1"]
    assert len(final.entrants) == 3

    table = first_round[0]
    changed = at_table(state, table, (10, 40, 70))
    events = decide(state, RecordResult(TOURNAMENT, table.match_id, changed))

    assert [e.payload["fixture"] for e in events if e.type == FIXTURE_RESET] == ["K2-1"]
    after = fold(events, state)
    assert table.entrants[2] in after.fixtures["K2-1"].entrants


# No-shows.


@pytest.mark.parametrize(
    ("checked_in", "forfeiter"),
    [((True, True, False), 2), ((True, False, False), None), ((True, True, True), None)],
)
def test_at_a_table_of_three_only_a_single_absent_entrant_forfeits_for_not_showing_up(
    checked_in: tuple[bool, bool, bool], forfeiter: int | None
) -> None:
    state = started("round_robin", 3, no_show_minutes=10)
    fixture = first(state)
    entrants = {
        entrant: EntrantRecord(seed=entrant, checked_in=here)
        for entrant, here in zip(fixture.entrants, checked_in, strict=True)
    }
    called = Fixture(
        **{**fixture.__dict__, "deadline": "2026-11-24T20:00:00", "called_at": "2026-11-24T19:50"}
    )

    assert no_show_forfeiter(
        TournamentState(**{**state.__dict__, "entrants": entrants}), called
    ) == (forfeiter)


# The property: every format at three finishes, whatever the rounds.

ROUND_POINTS = st.sampled_from(
    [(70, 40, 10), (10, 70, 40), (40, 40, 40), (50, 50, 20), (20, 50, 50)]
)
TWO_POINTS = st.sampled_from([(70, 50), (50, 70), (60, 60)])
FORMATS = [
    ("round_robin", {}),
    ("swiss", {"swiss_rounds": 2}),
    ("single_elimination", {}),
    ("groups_then_knockout", {"group_size": 3, "advance_per_group": 1}),
    ("groups_then_knockout", {"group_size": 4, "advance_per_group": 2}),
]
SCORINGS = [
    {"scoring": "rounds", "best_of": 1},
    {"scoring": "rounds", "best_of": 3},
    {"scoring": "points", "rounds": 1},
]


def played(state: TournamentState, fixture: Fixture, data: st.DataObject) -> Result:
    """The fixture's match played round by round (points drawn, ties frequent) until it ends."""
    rules = state.settings
    seats = len(fixture.entrants)
    match_format = (
        MatchFormat.best_of(rules.best_of)
        if rules.scoring == "rounds"
        else MatchFormat("points", rules.rounds or 1, plan.match_decider(state, fixture.id))  # type: ignore[arg-type]
    )
    create = matches.CreateMatch(
        seats, match_format, tuple({} for _ in range(seats)), DEFAULT_VARIANT
    )
    match = matches.fold(matches.decide(None, create))
    while not match.is_finished:
        ties_allowed = len(match.rounds) < 10
        drawn = ROUND_POINTS if seats == 3 else TWO_POINTS
        settle = (70, 40, 10) if seats == 3 else (70, 50)
        points = data.draw(drawn if ties_allowed else st.just(settle))
        match = matches.fold(matches.decide(match, matches.StartNextRound(None)), match)
        entered = matches.EnterRoundPoints(len(match.rounds), points)
        match = matches.fold(matches.decide(match, entered), match)
    return plan.result_at_table(
        state,
        fixture.entrants,
        winner=match.winner,
        forfeited_by=None,
        rounds=match.record.round_wins,
        points=match.record.total_points,
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    form=st.sampled_from(FORMATS),
    scoring=st.sampled_from(SCORINGS),
    rule=st.sampled_from(plan.LEVEL_KNOCKOUT_RULES),
    entrants=st.integers(min_value=3, max_value=10),
    data=st.data(),
)
def test_every_format_at_three_finishes_with_a_winner_at_every_knockout_table(
    form: tuple[str, dict[str, Any]],
    scoring: dict[str, Any],
    rule: str,
    entrants: int,
    data: st.DataObject,
) -> None:
    format_name, options = form
    state = started(format_name, entrants, **options, **scoring, level_knockout=rule)
    for _step in range(300):
        if state.finished:
            break
        waiting = [f for f in state.fixtures.values() if f.id not in state.results]
        if waiting:
            fixture = waiting[0]
            state = run(
                state, RecordResult(TOURNAMENT, fixture.match_id, played(state, fixture, data))
            )
            continue
        level = [
            f
            for f in state.fixtures.values()
            if state.results[f.id].winner is None and plan.is_knockout_fixture(state, f.id)
        ]
        assert level, "the tournament waits on nothing it can settle"
        fixture = level[0]
        assert state.settings.level_knockout == "organizer"
        leaders = plan.level_leaders(fixture, state.results[fixture.id])
        winner = data.draw(st.sampled_from(leaders))
        state = run(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, winner, "lot"))
    assert state.finished
    for fixture in state.fixtures.values():
        assert len(fixture.entrants) in (2, 3)
        if plan.is_knockout_fixture(state, fixture.id):
            assert state.results[fixture.id].winner is not None
    rows = plan.overall_standings(state)
    assert sorted(row.entrant for row in rows) == list(range(1, entrants + 1))
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)


def test_a_swiss_at_three_left_with_two_entrants_seats_them_at_a_table_of_two() -> None:
    state = started("swiss", 3, swiss_rounds=2, best_of=1)
    fixture = first(state)
    state = run(state, WithdrawEntrant(fixture.entrants[2], reason="ill"))
    state = run(
        state, RecordResult(TOURNAMENT, fixture.match_id, at_table(state, fixture, (70, 40, 10)))
    )

    (second,) = [f for f in state.fixtures.values() if f.round == 2]
    assert sorted(second.entrants) == sorted(fixture.entrants[:2])
