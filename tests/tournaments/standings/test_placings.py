"""Standings of tables of three: placings, their match points and the tie-breaks (decision 0031)."""

import random
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings.errors import InvalidResult, InvalidStandingsConfig, UnknownTiebreak
from tournaments.standings.placing_records import PLACING_TIEBREAK_NAMES
from tournaments.standings.placing_results import PlacingScoring, Seat, TableResult
from tournaments.standings.placings import (
    PlacingStandingRow,
    PlacingStandingsConfig,
    compute_placing_standings,
)
from tournaments.standings.results import Entrant


def table(*places: tuple[int, int], points: tuple[int, ...] = ()) -> TableResult:
    """Seats as (entrant, place); card points in the same order if given."""
    cards = points or (0,) * len(places)
    return TableResult(
        seats=tuple(
            Seat(entrant, place, points=card)
            for (entrant, place), card in zip(places, cards, strict=True)
        )
    )


def by_entrant(rows: list[PlacingStandingRow]) -> dict[int, PlacingStandingRow]:
    return {row.entrant: row for row in rows}


def test_a_table_of_three_scores_two_one_and_nothing_by_default() -> None:
    rows = by_entrant(
        compute_placing_standings(entrants=[1, 2, 3], results=[table((1, 1), (2, 2), (3, 3))])
    )

    assert [rows[e].match_points for e in (1, 2, 3)] == [2, 1, 0]
    assert [rows[e].placings for e in (1, 2, 3)] == [(1, 0, 0), (0, 1, 0), (0, 0, 1)]


def test_a_table_of_two_scores_like_a_table_of_three_without_its_middle_seat() -> None:
    rows = by_entrant(compute_placing_standings(entrants=[1, 2], results=[table((1, 1), (2, 2))]))

    assert [rows[1].match_points, rows[2].match_points] == [2, 0]
    assert rows[2].placings == (0, 0, 1)


def test_entrants_sharing_a_place_share_the_points_of_the_places_they_span() -> None:
    scoring = PlacingScoring(places=(3, 1, 0))
    shared_top = table((1, 1), (2, 1), (3, 3))
    shared_bottom = table((1, 1), (2, 2), (3, 2))
    all_level = table((1, 1), (2, 1), (3, 1))

    assert scoring.points(shared_top) == {1: 2, 2: 2, 3: 0}
    assert scoring.points(shared_bottom) == {1: 3, 2: Fraction(1, 2), 3: Fraction(1, 2)}
    assert scoring.points(all_level) == dict.fromkeys((1, 2, 3), Fraction(4, 3))


def test_a_bye_scores_the_bye_points_and_a_forfeit_the_forfeit_points() -> None:
    scoring = PlacingScoring(places=(2, 1, 0), bye=2, forfeit=-1)
    forfeit = TableResult(seats=(Seat(1, 1), Seat(2, 2), Seat(3, 3)), forfeited=frozenset({3}))

    assert scoring.points(TableResult.bye(4)) == {4: 2}
    assert scoring.points(forfeit) == {1: 2, 2: 1, 3: -1}


def test_places_are_read_from_rounds_then_card_points() -> None:
    result = TableResult.from_totals({1: (1, 150), 2: (2, 170), 3: (1, 150)})

    assert {seat.entrant: seat.place for seat in result.seats} == {2: 1, 1: 2, 3: 2}


def test_a_forfeiting_entrant_is_placed_last_whatever_its_totals() -> None:
    result = TableResult.from_totals({1: (2, 200), 2: (0, 40), 3: (1, 120)}, forfeited=[1])

    assert {seat.entrant: seat.place for seat in result.seats} == {3: 1, 2: 2, 1: 3}


@pytest.mark.parametrize(
    "seats",
    [
        (Seat(1, 1), Seat(2, 1), Seat(3, 2)),
        (Seat(1, 2), Seat(2, 3), Seat(3, 3)),
        (Seat(1, 1), Seat(1, 2)),
        (Seat(1, 1), Seat(2, 2), Seat(3, 3), Seat(4, 4)),
        (Seat(1, 1, points=-1), Seat(2, 2)),
        (Seat(1, 1, points=3),),
    ],
)
def test_a_table_result_that_cannot_happen_is_refused(seats: tuple[Seat, ...]) -> None:
    with pytest.raises(InvalidResult):
        TableResult(seats=seats)


def test_a_forfeiting_entrant_placed_above_a_playing_one_is_refused() -> None:
    with pytest.raises(InvalidResult):
        TableResult(seats=(Seat(1, 1), Seat(2, 2), Seat(3, 3)), forfeited=frozenset({2}))


def test_the_count_of_first_places_separates_equal_match_points() -> None:
    # 1: a 1st and a 3rd; 2: two 2nds. Both have 2 points at 2/1/0.
    results = [table((1, 1), (2, 2), (3, 3)), table((4, 1), (2, 2), (1, 3))]

    rows = compute_placing_standings(entrants=[1, 2, 3, 4], results=results)

    ranks = {row.entrant: row.rank for row in rows}
    assert ranks[2] == 3
    assert rows[2].tiebreaks["placings"] == (0, 2)
    # 1 and 4 are level on placings too; 4 placed above 1 at their table.
    assert (ranks[4], ranks[1]) == (1, 2)


def test_head_to_head_separates_entrants_who_met_equally_often() -> None:
    config = PlacingStandingsConfig(tiebreaks=("match_points", "head_to_head", "seed"))
    results = [
        table((1, 1), (2, 2), (3, 3)),
        table((2, 1), (4, 2), (5, 3)),
        table((1, 2), (6, 1), (7, 3)),
    ]

    rows = by_entrant(
        compute_placing_standings(entrants=range(1, 8), results=results, config=config)
    )

    # 1 and 2 have 3 match points each; 1 placed above 2 at their only shared table.
    assert rows[1].rank < rows[2].rank
    assert (rows[1].tiebreaks["head_to_head"], rows[2].tiebreaks["head_to_head"]) == (1, -1)


def test_the_card_points_margin_compares_each_table_with_its_own_average() -> None:
    config = PlacingStandingsConfig(tiebreaks=("match_points", "card_points_margin"))
    results = [
        table((1, 1), (2, 2), (3, 3), points=(60, 40, 20)),
        table((4, 1), (5, 2), points=(70, 50)),
    ]

    rows = by_entrant(
        compute_placing_standings(entrants=range(1, 6), results=results, config=config)
    )

    assert rows[1].tiebreaks["card_points_margin"] == 20
    assert rows[4].tiebreaks["card_points_margin"] == 10
    assert rows[1].rank < rows[4].rank


def test_the_placing_config_round_trips_and_refuses_what_it_does_not_know() -> None:
    config = PlacingStandingsConfig(
        scoring=PlacingScoring(places=(3, 1, 0), bye=3, forfeit=-1),
        tiebreaks=("match_points", "opponents_score"),
    )

    assert PlacingStandingsConfig.from_dict(config.to_dict()) == config
    assert PlacingStandingsConfig.from_dict({}) == PlacingStandingsConfig()
    with pytest.raises(UnknownTiebreak):
        PlacingStandingsConfig(tiebreaks=("buchholz",))
    with pytest.raises(InvalidStandingsConfig):
        PlacingStandingsConfig.from_dict({"scoring": {"places": [0, 1, 2]}})
    with pytest.raises(InvalidStandingsConfig):
        PlacingStandingsConfig.from_dict({"scoring": {"places": [2, 1]}})


def test_a_row_reads_as_json() -> None:
    rows = compute_placing_standings(entrants=[1, 2, 3], results=[table((1, 1), (2, 1), (3, 3))])

    assert rows[0].to_dict()["match_points"] == 1.5
    assert rows[0].to_dict()["tiebreaks"]["placings"] == [1, 0]
    assert rows[0].to_dict()["placings"] == [1, 0, 0]
    assert rows[2].to_dict()["match_points"] == 0


# Properties ---------------------------------------------------------------------------------------

ENTRANTS = list(range(1, 10))


@st.composite
def table_results(draw: st.DrawFn) -> TableResult:
    size = draw(st.sampled_from([1, 2, 3, 3]))
    entrants = draw(st.permutations(ENTRANTS))[:size]
    if size == 1:
        return TableResult.bye(entrants[0])
    totals = {entrant: (draw(st.integers(0, 3)), draw(st.integers(0, 120))) for entrant in entrants}
    forfeited = draw(st.sets(st.sampled_from(entrants), max_size=1))
    return TableResult.from_totals(totals, forfeited=forfeited)


scorings = st.builds(
    lambda a, b, c: PlacingScoring(places=(a + b + c, b + c, c)),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(-1, 1),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(table_results(), max_size=12), scorings)
def test_every_table_hands_out_the_points_of_its_places(
    results: list[TableResult], scoring: PlacingScoring
) -> None:
    for result in results:
        awarded = scoring.points(result)
        if result.is_bye:
            assert awarded == {result.entrants[0]: scoring.bye}
        elif not result.forfeited:
            assert sum(awarded.values()) == sum(scoring.slots(len(result.seats)))


@settings(max_examples=150, deadline=None)
@given(st.lists(table_results(), max_size=12), scorings, st.randoms(use_true_random=False))
def test_placing_standings_add_up_and_do_not_depend_on_input_order(
    results: list[TableResult], scoring: PlacingScoring, rng: random.Random
) -> None:
    config = PlacingStandingsConfig(scoring=scoring)
    entrants = [Entrant(entrant, seed=entrant if entrant % 2 else None) for entrant in ENTRANTS]

    rows = compute_placing_standings(entrants=entrants, results=results, config=config)
    shuffled_results = list(results)
    rng.shuffle(shuffled_results)
    shuffled_entrants = list(entrants)
    rng.shuffle(shuffled_entrants)
    again = compute_placing_standings(
        entrants=shuffled_entrants, results=shuffled_results, config=config
    )

    assert rows == again
    total = sum((sum(scoring.points(result).values()) for result in results), Fraction(0))
    assert sum((row.match_points for row in rows), Fraction(0)) == total
    for row in rows:
        assert sum(row.placings) == row.played
        assert row.played + row.byes == sum(row.entrant in r.entrants for r in results)
    for before, after in pairwise(rows):
        assert before.match_points >= after.match_points
        assert before.rank <= after.rank
        if before.rank == after.rank:
            assert before.entrant < after.entrant
            assert before.tiebreaks == after.tiebreaks
    assert [row.rank for row in rows] == [
        1 + sum(1 for other in rows if other.rank < row.rank) for row in rows
    ]


def test_every_placing_tiebreak_can_be_configured_alone() -> None:
    results = [table((1, 1), (2, 2), (3, 3)), table((2, 1), (3, 2), (1, 3))]
    for name in PLACING_TIEBREAK_NAMES:
        rows = compute_placing_standings(
            entrants=[1, 2, 3], results=results, config=PlacingStandingsConfig(tiebreaks=(name,))
        )
        assert sorted(row.entrant for row in rows) == [1, 2, 3]
