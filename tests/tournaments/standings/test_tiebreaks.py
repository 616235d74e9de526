"""Worked examples, one small hand-computed table per tie-break."""

import pytest

from tests.tournaments.standings.builders import beat, bye, order, ranks, row_of, standings, tied
from tournaments.standings.config import DEFAULT_TIEBREAKS
from tournaments.standings.records import build_records
from tournaments.standings.results import Entrant, MatchResult
from tournaments.standings.scoring import Scoring
from tournaments.standings.tiebreaks import TIEBREAK_NAMES, TIEBREAKS

# Two rounds of a Swiss stage of six:
#   round 1: 1 beat 2, 3 beat 4, 5 beat 6      round 2: 1 beat 3, 5 beat 2, 4 beat 6
# Match points: 1: 4, 5: 4, 3: 2, 4: 2, 2: 0, 6: 0.
# Buchholz (opponents' match points): 1: 0 + 2 = 2, 5: 0 + 0 = 0, 3: 2 + 4 = 6, 4: 2 + 0 = 2,
# 2: 4 + 4 = 8, 6: 4 + 2 = 6.
SWISS_TWO_ROUNDS = [beat(1, 2), beat(3, 4), beat(5, 6), beat(1, 3), beat(5, 2), beat(4, 6)]

# A round robin of five, every match won 2-0:
#   1 beat 2, 3, 4, 5;  2 beat 3, 4, 5;  3 beat 4, 5;  4 beat 5.
# Match points: 1: 8, 2: 6, 3: 4, 4: 2, 5: 0.
LADDER_OF_FIVE = [beat(a, b) for a in range(1, 6) for b in range(a + 1, 6)]


def test_the_default_tiebreaks_are_match_points_head_to_head_rounds_points_buchholz_seed() -> None:
    assert DEFAULT_TIEBREAKS == (
        "match_points",
        "head_to_head",
        "round_wins_difference",
        "card_points_difference",
        "buchholz",
        "seed",
    )
    assert set(DEFAULT_TIEBREAKS) < set(TIEBREAK_NAMES)
    assert set(TIEBREAK_NAMES) == {*DEFAULT_TIEBREAKS, "median_buchholz", "sonneborn_berger"}


def test_match_points_rank_first() -> None:
    rows = standings(range(1, 7), SWISS_TWO_ROUNDS, tiebreaks=["match_points"])

    assert ranks(rows) == [(1, 1), (1, 5), (3, 3), (3, 4), (5, 2), (5, 6)]


def test_round_wins_difference_separates_entrants_level_on_match_points() -> None:
    results = [beat(1, 3, rounds=(2, 1)), beat(2, 4, rounds=(2, 0))]

    rows = standings([1, 2, 3, 4], results, tiebreaks=["match_points", "round_wins_difference"])

    assert order(rows) == [2, 1, 3, 4]
    assert [row.tiebreaks["round_wins_difference"] for row in rows] == [2, 1, -1, -2]


def test_card_points_difference_separates_entrants_level_on_rounds() -> None:
    results = [
        beat(1, 3, rounds=(2, 1), points=(200, 160)),
        beat(2, 4, rounds=(2, 1), points=(180, 170)),
    ]

    rows = standings([1, 2, 3, 4], results)

    assert order(rows) == [1, 2, 4, 3]
    assert [row.tiebreaks["card_points_difference"] for row in rows] == [40, 10, -10, -40]


def test_buchholz_sums_the_match_points_of_every_opponent() -> None:
    rows = standings(range(1, 7), SWISS_TWO_ROUNDS, tiebreaks=["match_points", "buchholz"])

    assert ranks(rows) == [(1, 1), (2, 5), (3, 3), (4, 4), (5, 2), (6, 6)]
    assert [row.tiebreaks["buchholz"] for row in rows] == [2, 0, 6, 2, 8, 6]


def test_buchholz_leaves_out_a_bye_because_a_bye_has_no_opponent() -> None:
    rows = standings([1, 2, 3], [beat(1, 2), bye(3)], tiebreaks=["match_points", "buchholz"])

    assert {row.entrant: row.tiebreaks["buchholz"] for row in rows} == {1: 0, 2: 2, 3: 0}


def test_an_opponent_met_twice_counts_twice_in_buchholz() -> None:
    rows = standings([1, 2], [beat(1, 2), beat(2, 1)], tiebreaks=["match_points", "buchholz"])

    assert [row.tiebreaks["buchholz"] for row in rows] == [4, 4]


def test_median_buchholz_drops_the_highest_and_the_lowest_opponent() -> None:
    rows = standings(range(1, 6), LADDER_OF_FIVE, tiebreaks=["match_points", "median_buchholz"])

    # 1 met 6, 4, 2, 0 -> 4 + 2; 3 met 8, 6, 2, 0 -> 6 + 2; 5 met 8, 6, 4, 2 -> 6 + 4.
    medians = {row.entrant: row.tiebreaks["median_buchholz"] for row in rows}
    assert medians == {1: 6, 2: 6, 3: 8, 4: 10, 5: 10}


def test_median_buchholz_with_three_opponents_keeps_only_the_middle_one() -> None:
    results = [beat(1, 2), beat(1, 3), beat(1, 4), beat(2, 3)]

    rows = standings([1, 2, 3, 4], results, tiebreaks=["match_points", "median_buchholz"])

    # 1 met 2 (2 points), 3 (0) and 4 (0): the middle score is 0.
    assert row_of(rows, 1).tiebreaks["median_buchholz"] == 0


def test_median_buchholz_with_fewer_than_three_opponents_drops_nothing() -> None:
    results = [beat(1, 2), beat(2, 3)]

    rows = standings([1, 2, 3], results, tiebreaks=["match_points", "median_buchholz"])

    medians = {row.entrant: row.tiebreaks["median_buchholz"] for row in rows}
    assert medians == {1: 2, 2: 2, 3: 2}


def test_sonneborn_berger_adds_the_opponents_beaten_and_half_of_those_tied_with() -> None:
    # A round robin of four scored by total points, so ties happen:
    #   1 beat 2, 1 beat 3, 1 tied 4, 2 tied 3, 2 beat 4, 3 tied 4.
    # Match points: 1: 5, 2: 3, 3: 2, 4: 2.
    # Sonneborn-Berger: 1: 3 + 2 + 2/2 = 6, 2: 2/2 + 2 = 3, 3: 3/2 + 2/2 = 2.5, 4: 5/2 + 2/2 = 3.5.
    results = [beat(1, 2), beat(1, 3), tied(1, 4), tied(2, 3), beat(2, 4), tied(3, 4)]

    rows = standings([1, 2, 3, 4], results, tiebreaks=["match_points", "sonneborn_berger"])

    assert ranks(rows) == [(1, 1), (2, 2), (3, 4), (4, 3)]
    assert [row.tiebreaks["sonneborn_berger"] for row in rows] == [6.0, 3.0, 3.5, 2.5]


def test_sonneborn_berger_counts_a_forfeit_win_as_an_opponent_beaten() -> None:
    forfeit = MatchResult(first=1, second=2, winner=1, forfeit=True)

    rows = standings([1, 2, 3], [forfeit, beat(2, 3)], tiebreaks=["sonneborn_berger"])

    assert row_of(rows, 1).tiebreaks["sonneborn_berger"] == 2.0


def test_the_seed_orders_entrants_equal_on_everything_else_seed_one_first() -> None:
    entrants = [Entrant(1, seed=3), Entrant(2, seed=1), Entrant(3, seed=2), Entrant(4)]

    rows = standings(entrants, [])

    assert ranks(rows) == [(1, 2), (2, 3), (3, 1), (4, 4)]
    assert [row.tiebreaks["seed"] for row in rows] == [1, 2, 3, None]


@pytest.mark.parametrize("name", TIEBREAK_NAMES)
def test_every_tiebreak_gives_a_value_for_each_member_of_the_group(name: str) -> None:
    records = build_records(
        [Entrant(entrant) for entrant in range(1, 7)], SWISS_TWO_ROUNDS, Scoring()
    )

    values = TIEBREAKS[name].evaluate(records, [1, 3, 5])

    assert set(values) == {1, 3, 5}
