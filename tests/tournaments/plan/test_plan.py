"""The tournament plan on folded streams, without a database."""

import pytest

from tournaments.plan import drawing, fixture_specs, knockouts
from tournaments.state import Result, TournamentSettings, TournamentState
from tournaments.stream.events import (
    ENTRANT_REGISTERED,
    TOURNAMENT_CREATED,
    TOURNAMENT_STARTED,
    decode,
)
from tournaments.stream.evolve import evolve, fold
from tournaments.stream.fixture_events import FIXTURE_CREATED, RESULT_RECORDED, SWISS_ROUND_PAIRED


def started(format: str, entrants: int, **settings: object) -> TournamentState:
    options = TournamentSettings(format=format, table_size=2, **settings)  # type: ignore[arg-type]
    order = list(range(1, entrants + 1))
    return fold(
        [
            decode(
                TOURNAMENT_CREATED,
                {"name": "Club", "settings": options.to_dict(), "club": None, "public": True},
            ),
            *(decode(ENTRANT_REGISTERED, {"entrant": e, "seed": e}) for e in order),
            decode(TOURNAMENT_STARTED, {"order": order}),
        ]
    )


def play_all(state: TournamentState, *, home_wins: bool = True) -> TournamentState:
    """Create and decide every fixture that becomes known, until none is left."""
    while fixtures := drawing.fixtures_to_create(state):
        for fixture in fixtures:
            state = record(state, fixture, fixture.home if home_wins else fixture.away)
    return state


def record(
    state: TournamentState, fixture: fixture_specs.FixtureSpec, winner: int
) -> TournamentState:
    created = decode(
        FIXTURE_CREATED,
        {
            "fixture": fixture.id,
            "match_id": f"m-{fixture.id}",
            "home": fixture.home,
            "away": fixture.away,
            "stage": fixture.stage,
            "round": fixture.round,
        },
    )
    home_won = winner == fixture.home
    result = Result(winner, (2, 0) if home_won else (0, 2), (130, 110) if home_won else (110, 130))
    recorded = decode(RESULT_RECORDED, {"fixture": fixture.id, **result.to_dict()})
    return fold([created, recorded], state)


@pytest.mark.parametrize("entrants", [2, 3, 5, 8, 13])
def test_single_elimination_plays_down_to_one_champion(entrants: int) -> None:
    state = play_all(started("single_elimination", entrants))

    (stage,) = drawing.stages(state)
    assert drawing.is_complete(state)
    assert stage.bracket_state is not None
    assert stage.bracket_state.champion == 1
    assert len(state.results) == entrants - 1


def test_double_elimination_finishes_with_at_most_two_grand_finals() -> None:
    state = play_all(started("double_elimination", 6), home_wins=False)

    assert drawing.is_complete(state)
    assert 2 * 6 - 2 <= len(state.results) <= 2 * 6 - 1


def test_round_robin_creates_every_pairing_at_once() -> None:
    state = started("round_robin", 5)

    fixtures = drawing.fixtures_to_create(state)

    assert len(fixtures) == 10
    assert drawing.is_complete(play_all(state))


def test_swiss_rounds_are_paired_one_at_a_time_and_the_bye_counts_as_a_win() -> None:
    state = started("swiss", 5, swiss_rounds=3)
    for number in (1, 2, 3):
        assert drawing.swiss_round_due(state) == number
        paired = drawing.next_swiss_round(state, number)
        state = evolve(
            state,
            decode(
                SWISS_ROUND_PAIRED,
                {
                    "round": number,
                    "pairings": [[table_id, *entrants] for table_id, entrants in paired.tables],
                    "bye": paired.bye,
                },
            ),
        )
        state = play_all(state)

    assert drawing.swiss_round_due(state) is None
    assert drawing.is_complete(state)
    rows = drawing.overall_standings(state)
    assert sum(row.played for row in rows) == 2 * 2 * 3 + 3
    assert sum(row.match_points for row in rows) == 2 * (2 * 3 + 3)


def test_groups_then_knockout_builds_the_bracket_once_the_groups_are_done() -> None:
    state = started("groups_then_knockout", 8, group_size=4, advance_per_group=2)
    group_fixtures = drawing.fixtures_to_create(state)
    assert {f.stage for f in group_fixtures} == {"A", "B"}

    state = play_all(state)

    names = [stage.name for stage in drawing.stages(state)]
    assert names == ["A", "B", "knockout"]
    assert drawing.is_complete(state)


def test_a_changed_result_resets_the_fixtures_that_followed_from_it() -> None:
    state = started("single_elimination", 4)
    first_round = drawing.fixtures_to_create(state)
    for fixture in first_round:
        state = record(state, fixture, fixture.home)
    (final,) = drawing.fixtures_to_create(state)
    state = record(state, final, final.home)
    changed = first_round[0]

    resets = knockouts.resets_after(state, changed.id, Result(changed.away))

    assert resets == (final.id,)


def test_a_group_result_that_changes_the_qualifiers_redraws_the_whole_knockout() -> None:
    state = play_all(started("groups_then_knockout", 8, group_size=4, advance_per_group=2))
    knockout_keys = {key for key in state.fixtures if not key.startswith(("A-", "B-"))}
    group_a = [
        fixture_specs.FixtureSpec(f.id, f.home, f.away, f.stage, f.round)
        for f in state.fixtures.values()
        if f.stage == "A"
    ]

    outcomes = set()
    for fixture in group_a:
        flipped = Result(fixture.away, (0, 2), (40, 200))
        outcomes.add(frozenset(knockouts.resets_after(state, fixture.id, flipped)))

    assert knockout_keys
    assert frozenset(knockout_keys) in outcomes
    assert outcomes <= {frozenset(), frozenset(knockout_keys)}


def test_a_swiss_round_after_a_withdrawal_pairs_the_others_and_keeps_the_withdrawn_results() -> (
    None
):
    state = fold(
        [
            decode(
                "TournamentCreated",
                {
                    "name": "Swiss",
                    "settings": TournamentSettings("swiss", 2, swiss_rounds=3).to_dict(),
                    "club": None,
                    "public": True,
                },
            ),
            *(decode("EntrantRegistered", {"entrant": e, "seed": None}) for e in (1, 2, 3, 4)),
            decode("TournamentStarted", {"order": [1, 2, 3, 4]}),
            decode(
                "SwissRoundPaired",
                {"round": 1, "pairings": [["S1-1", 1, 3], ["S1-2", 2, 4]], "bye": None},
            ),
            *(
                decode(
                    "ResultRecorded",
                    {
                        "fixture": key,
                        "winner": winner,
                        "rounds": [2, 0],
                        "points": [130, 110],
                        "forfeit": False,
                    },
                )
                for key, winner in (("S1-1", 1), ("S1-2", 2))
            ),
            decode("EntrantWithdrew", {"entrant": 3, "reason": "gone"}),
        ]
    )

    paired = drawing.next_swiss_round(state, 2)

    assert {e for _, entrants in paired.tables for e in entrants} | {paired.bye} - {None} == {
        1,
        2,
        4,
    }
