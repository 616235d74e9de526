"""The season maths: points per place, best-N and the season ranking (decision record 0037)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings.seasons import (
    InvalidBestN,
    InvalidPointsTable,
    PointsTable,
    SeasonRow,
    TournamentPlaces,
    check_best_n,
    parse_points_table,
    season_standings,
)

TABLE = PointsTable((25, 18, 15, 12, 10, 8, 6, 4, 2, 1))

points_tables = st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=8).map(
    lambda points: PointsTable(tuple(sorted(points, reverse=True)))
)
tournaments = st.lists(
    st.dictionaries(
        st.integers(min_value=1, max_value=9), st.integers(min_value=1, max_value=10), max_size=9
    ),
    max_size=6,
).map(lambda seasons: [TournamentPlaces(f"t{n}", places) for n, places in enumerate(seasons)])
best_ns = st.none() | st.integers(min_value=1, max_value=6)


def totals(rows: list[SeasonRow]) -> dict[int, int]:
    return {row.player: row.points for row in rows}


def test_places_beyond_the_table_earn_the_participation_points() -> None:
    table = PointsTable((10, 6, 3), participation=1)

    assert [table.points_for(place) for place in (1, 2, 3, 4, 9)] == [10, 6, 3, 1, 1]


def test_a_points_table_is_read_from_a_comma_separated_list() -> None:
    assert parse_points_table(" 25, 18,15 ,12,") == (25, 18, 15, 12)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "give the points of 1 to 64 places"),
        ("25,x,15", "place 2: 'x' is not a whole number of points"),
        ("25,-3", "place 2: '-3' is not a whole number of points"),
        ("10,12,8", "place 2 earns more points (12) than the place before it (10)"),
        ("25,,15", "place 2: '' is not a whole number of points"),
    ],
)
def test_a_bad_points_table_is_refused_saying_what_is_wrong(text: str, said: str) -> None:
    with pytest.raises(InvalidPointsTable) as refused:
        parse_points_table(text)

    assert said in refused.value.detail


def test_participation_worth_more_than_the_last_place_is_refused() -> None:
    with pytest.raises(InvalidPointsTable):
        PointsTable((10, 5), participation=6)


@pytest.mark.parametrize("best_n", [0, -1, 65, True])
def test_best_n_is_a_positive_whole_number_or_none(best_n: int) -> None:
    with pytest.raises(InvalidBestN):
        check_best_n(best_n)


def test_shared_places_each_earn_the_places_points_and_only_the_best_n_count() -> None:
    season = [
        TournamentPlaces("a", {1: 1, 2: 2, 3: 3, 4: 3}),
        TournamentPlaces("b", {1: 3, 2: 1, 3: 2}),
        TournamentPlaces("c", {1: 2, 4: 1}),
    ]

    rows = season_standings(season, TABLE, best_n=2, names={1: "Ada", 2: "Bruno", 3: "Carla"})

    ada = rows[0]
    assert (ada.rank, ada.player, ada.points, ada.counted) == (1, 1, 43, 2)
    assert [(r.tournament, r.points, r.counted) for r in ada.results] == [
        ("a", 25, True),
        ("b", 15, False),
        ("c", 18, True),
    ]
    assert [(row.player, row.points) for row in rows] == [(1, 43), (2, 43), (4, 40), (3, 33)]


def test_players_level_on_points_are_split_by_count_back_then_share_a_rank() -> None:
    season = [
        TournamentPlaces("a", {1: 1, 2: 2, 3: 2, 4: 1}),
        TournamentPlaces("b", {1: 2, 2: 1, 3: 1, 4: 2}),
        TournamentPlaces("c", {1: 4, 2: 4, 3: 3, 4: 4}),
    ]

    rows = season_standings(season, TABLE, names={1: "Zoe", 2: "Ada", 3: "Bea", 4: "Cleo"})

    # 3 has the most points; 1, 2 and 4 are level on points and count-back (one 1st, one 2nd,
    # one 4th each), so they share 2nd and are listed by name.
    assert [(row.rank, row.name) for row in rows] == [
        (1, "Bea"),
        (2, "Ada"),
        (2, "Cleo"),
        (2, "Zoe"),
    ]


@given(tournaments=tournaments, table=points_tables, best_n=best_ns)
def test_the_best_n_total_never_exceeds_the_total_of_all_results(
    tournaments: list[TournamentPlaces], table: PointsTable, best_n: int | None
) -> None:
    rows = season_standings(tournaments, table, best_n=best_n)

    for row in rows:
        assert row.points <= row.all_points
        assert row.counted == (
            len(row.results) if best_n is None else min(best_n, len(row.results))
        )
        counted = [result.points for result in row.results if result.counted]
        left_out = [result.points for result in row.results if not result.counted]
        assert all(kept >= dropped for kept in counted for dropped in left_out)


@given(tournaments=tournaments, more=tournaments, table=points_tables, best_n=best_ns)
def test_adding_a_tournament_never_lowers_anyones_total(
    tournaments: list[TournamentPlaces],
    more: list[TournamentPlaces],
    table: PointsTable,
    best_n: int | None,
) -> None:
    before = totals(season_standings(tournaments, table, best_n=best_n))

    after = totals(season_standings([*tournaments, *more[:1]], table, best_n=best_n))

    assert all(after[player] >= points for player, points in before.items())


@given(tournaments=tournaments, table=points_tables, best_n=best_ns)
def test_the_ranking_lists_every_placed_player_once_best_first(
    tournaments: list[TournamentPlaces], table: PointsTable, best_n: int | None
) -> None:
    rows = season_standings(tournaments, table, best_n=best_n)

    placed = {player for entry in tournaments for player in entry.places}
    assert sorted(row.player for row in rows) == sorted(placed)
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)
    for index, row in enumerate(rows):
        if index == 0 or rows[index - 1].points != row.points:
            assert row.rank == index + 1
        else:
            assert row.rank in (index + 1, rows[index - 1].rank)


@given(tournaments=tournaments, table=points_tables, best_n=best_ns)
def test_the_order_of_the_places_given_never_changes_the_table(
    tournaments: list[TournamentPlaces], table: PointsTable, best_n: int | None
) -> None:
    shuffled = [
        TournamentPlaces(entry.tournament, dict(reversed(list(entry.places.items()))))
        for entry in tournaments
    ]

    assert season_standings(shuffled, table, best_n=best_n) == season_standings(
        tournaments, table, best_n=best_n
    )
