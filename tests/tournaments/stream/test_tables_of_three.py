"""Tournaments at tables of three on pure folds (decision record 0031): the tournament stream's
decide/fold and the match stream's, without a database."""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.played import (
    SCORINGS,
    TOURNAMENT,
    every_knockout_match_has_a_winner,
    played_out,
    run,
    started,
)
from tournaments.errors import InvalidTournament, MatchNotLevel, TooFewEntrants
from tournaments.plan import drawing, knockouts, rankings
from tournaments.standings.errors import InvalidStandingsConfig, UnknownTiebreak
from tournaments.state import EntrantRecord, Fixture, Result, TournamentSettings, TournamentState
from tournaments.stream.commands import (
    CreateTournament,
    DecideLevelMatch,
    RecordResult,
    RegisterEntrant,
    StartTournament,
    WithdrawEntrant,
)
from tournaments.stream.decide import decide
from tournaments.stream.events import encode
from tournaments.stream.evolve import fold
from tournaments.stream.fixture_events import FIXTURE_CREATED, FixtureCreated, FixtureReset
from tournaments.stream.tables import no_show_forfeiter


def started_at_three(format: str, entrants: int, **options: Any) -> TournamentState:
    options.setdefault("scoring", "rounds")
    options.setdefault("rounds", None)
    return started(format, entrants, 3, **options)


def at_table(state: TournamentState, fixture: Fixture, points: tuple[int, ...]) -> Result:
    """The result of a one-round match at the fixture's table with these card points."""
    best = max(points)
    leaders = [seat for seat, p in enumerate(points) if p == best]
    return rankings.result_at_table(
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

    (created,) = [e for e in events if isinstance(e, FixtureCreated)]
    _, stored = encode(created)
    assert sorted([stored["home"], stored["away"], stored["third"]]) == [1, 2, 3]
    two_sided = started_two_sided()
    assert all("third" not in encode(e)[1] for e in two_sided if encode(e)[0] == FIXTURE_CREATED)


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
    state = started_at_three("round_robin", 3, scoring="points", rounds=1)

    result = at_table(state, first(state), points)

    assert result.places == places


def test_a_forfeiting_entrant_is_placed_last_and_the_others_by_their_play() -> None:
    state = started_at_three("round_robin", 3)
    fixture = first(state)

    result = rankings.result_at_table(
        state, fixture.entrants, winner=2, forfeited_by=0, rounds=(1, 0, 1), points=(60, 20, 40)
    )

    assert result.places == (3, 2, 1)
    assert result.forfeited_by == fixture.entrants[0]
    assert result.forfeit


def test_the_match_winner_is_placed_first_whatever_the_totals_say() -> None:
    state = started_at_three("single_elimination", 3, scoring="points", rounds=1)
    fixture = first(state)

    # A deciding round won by the third seat after a level first round.
    result = rankings.result_at_table(
        state, fixture.entrants, winner=2, forfeited_by=None, rounds=(0, 0, 1), points=(80, 40, 80)
    )

    assert result.places == (2, 3, 1)


# Level knockout tables.


def test_under_the_higher_seed_rule_a_level_table_goes_to_the_best_seeded_of_its_leaders() -> None:
    state = started_at_three(
        "single_elimination", 3, scoring="points", rounds=1, level_knockout="higher_seed"
    )
    fixture = first(state)
    seat_of_seed_1 = fixture.entrants.index(1)
    points = [20, 20, 20]
    points[seat_of_seed_1] = 10  # seed 1 is last; the other two share first place
    result = at_table(state, fixture, tuple(points))

    recorded = decide(state, RecordResult(TOURNAMENT, fixture.match_id, result))

    assert encode(recorded[0])[1]["winner"] == 2
    assert encode(recorded[0])[1]["decided_by"] == "higher_seed"


def test_the_organizer_decides_a_level_table_between_the_entrants_who_shared_first() -> None:
    state = started_at_three(
        "single_elimination", 3, scoring="points", rounds=1, level_knockout="organizer"
    )
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
    state = started_at_three("single_elimination", 9, best_of=1)
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

    assert [e.fixture for e in events if isinstance(e, FixtureReset)] == ["K2-1"]
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
    state = started_at_three("round_robin", 3, no_show_minutes=10)
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

FORMATS = [
    ("round_robin", {}),
    ("swiss", {"swiss_rounds": 2}),
    ("single_elimination", {}),
    ("groups_then_knockout", {"group_size": 3, "advance_per_group": 1}),
    ("groups_then_knockout", {"group_size": 4, "advance_per_group": 2}),
]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    form=st.sampled_from(FORMATS),
    scoring=st.sampled_from(SCORINGS),
    rule=st.sampled_from(knockouts.LEVEL_KNOCKOUT_RULES),
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
    state = started(format_name, entrants, 3, **options, **scoring, level_knockout=rule)

    state = played_out(state, data, steps=300)

    assert state.finished
    assert every_knockout_match_has_a_winner(state)
    assert all(len(fixture.entrants) in (2, 3) for fixture in state.fixtures.values())
    rows = drawing.overall_standings(state)
    assert sorted(row.entrant for row in rows) == list(range(1, entrants + 1))
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)


def test_a_swiss_at_three_left_with_two_entrants_seats_them_at_a_table_of_two() -> None:
    state = started_at_three("swiss", 3, swiss_rounds=2, best_of=1)
    fixture = first(state)
    state = run(state, WithdrawEntrant(fixture.entrants[2], reason="ill"))
    state = run(
        state, RecordResult(TOURNAMENT, fixture.match_id, at_table(state, fixture, (70, 40, 10)))
    )

    (second,) = [f for f in state.fixtures.values() if f.round == 2]
    assert sorted(second.entrants) == sorted(fixture.entrants[:2])
