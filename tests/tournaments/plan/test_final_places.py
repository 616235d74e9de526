"""A finished tournament's final places, per format, on tournaments played out on pure folds."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.played import SCORINGS, played_out, started
from tournaments.plan import drawing
from tournaments.plan.final_places import final_places, places_of
from tournaments.state import TournamentState

SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def is_competition_ranking(places: dict[int, int]) -> bool:
    """Each place p is held by entrants with exactly p - 1 entrants placed better."""
    return all(
        sum(1 for other in places.values() if other < place) == place - 1
        for place in places.values()
    )


def final_of(state: TournamentState) -> tuple[int, int]:
    """The last knockout match's (winner, loser)."""
    last = max(state.fixtures.values(), key=lambda fixture: fixture.sequence)
    winner = state.results[last.id].winner
    assert winner is not None
    [loser] = [entrant for entrant in last.entrants if entrant != winner]
    return winner, loser


def test_a_tournament_not_finished_has_no_final_places() -> None:
    assert final_places(started("single_elimination", 4)) == {}


@SLOW
@given(entrants=st.sampled_from([4, 8]), scoring=st.sampled_from(SCORINGS), data=st.data())
def test_a_knockout_places_its_winner_first_the_finals_loser_second_and_semi_losers_third(
    entrants: int, scoring: dict[str, Any], data: st.DataObject
) -> None:
    state = played_out(started("single_elimination", entrants, **scoring), data)

    places = final_places(state)

    winner, loser = final_of(state)
    assert places[winner] == 1
    assert places[loser] == 2
    expected = [1, 2, 3, 3] + ([5, 5, 5, 5] if entrants == 8 else [])
    assert sorted(places.values()) == expected


@SLOW
@given(scoring=st.sampled_from(SCORINGS), data=st.data())
def test_a_match_for_third_place_splits_the_semi_final_losers(
    scoring: dict[str, Any], data: st.DataObject
) -> None:
    state = played_out(started("single_elimination", 4, third_place=True, **scoring), data)

    assert sorted(final_places(state).values()) == [1, 2, 3, 4]


@SLOW
@given(entrants=st.integers(min_value=3, max_value=6), data=st.data())
def test_a_double_elimination_places_everyone_once_with_its_champion_first(
    entrants: int, data: st.DataObject
) -> None:
    state = played_out(started("double_elimination", entrants), data)

    places = final_places(state)

    assert set(places) == set(state.order or ())
    assert is_competition_ranking(places)
    assert Counter(places.values())[1] == 1


@SLOW
@given(
    form=st.sampled_from([("round_robin", {}), ("swiss", {"swiss_rounds": 3})]),
    entrants=st.integers(min_value=3, max_value=7),
    data=st.data(),
)
def test_a_league_or_a_swiss_places_by_the_standings_rank(
    form: tuple[str, dict[str, Any]], entrants: int, data: st.DataObject
) -> None:
    format_name, options = form
    state = played_out(started(format_name, entrants, **options), data)

    places = final_places(state)

    ranks = {row.entrant: row.rank for row in drawing.overall_standings(state)}
    assert places == ranks
    assert is_competition_ranking(places)


@SLOW
@given(data=st.data())
def test_a_knockout_at_tables_of_three_places_the_final_table_then_the_first_round(
    data: st.DataObject,
) -> None:
    state = played_out(
        started("single_elimination", 9, 3, scoring="rounds", rounds=None, best_of=1), data
    )

    places = final_places(state)

    assert sorted(places.values())[-6:] == [4] * 6
    assert Counter(places.values())[1] == 1
    assert is_competition_ranking(places)


@SLOW
@given(data=st.data())
def test_a_league_at_tables_of_three_places_by_the_standings_rank(data: st.DataObject) -> None:
    state = played_out(started("round_robin", 6, 3, scoring="rounds", rounds=None), data)

    places = final_places(state)

    assert places == {row.entrant: row.rank for row in drawing.overall_standings(state)}


@SLOW
@given(data=st.data())
def test_groups_then_knockout_places_the_qualifiers_before_those_out_in_the_groups(
    data: st.DataObject,
) -> None:
    state = played_out(started("groups_then_knockout", 6, group_size=3, advance_per_group=2), data)

    places = final_places(state)

    assert sorted(places.values())[:4] == [1, 2, 3, 3]
    assert all(place >= 5 for place in sorted(places.values())[4:])
    assert is_competition_ranking(places)


@given(
    ranks=st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=8),
    placed=st.integers(min_value=0, max_value=8),
)
def test_entrants_no_bracket_placed_come_after_the_placed_ones_in_standings_order(
    ranks: list[int], placed: int
) -> None:
    entrants = list(range(1, len(ranks) + 1))
    standings = sorted(ranks)
    competition = [standings.index(rank) + 1 for rank in standings]
    placements = [(e, p) for e, p in zip(entrants, competition, strict=True)][:placed]

    places = places_of(entrants, placements, list(zip(entrants, competition, strict=True)))

    assert set(places) == set(entrants)
    assert is_competition_ranking(places)
    assert all(places[e] <= len(placements) for e, _ in placements)
    assert all(places[e] > len(placements) for e in entrants[len(placements) :])
