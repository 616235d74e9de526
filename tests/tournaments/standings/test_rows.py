"""What a row counts: match points, results, rounds and card points; byes; forfeits."""

import json

from tests.tournaments.standings.builders import beat, bye, forfeited, row_of, standings, tied
from tournaments.standings.results import MatchResult
from tournaments.standings.scoring import Scoring
from tournaments.standings.table import StandingRow


def outcomes(row: StandingRow) -> tuple[int, int, int, int, int]:
    """(match points, played, won, tied, lost)"""
    return (row.match_points, row.played, row.won, row.tied, row.lost)


def tallies(row: StandingRow) -> tuple[int, int, int, int]:
    """(rounds won, rounds lost, card points for, card points against)"""
    return (row.rounds_won, row.rounds_lost, row.points_for, row.points_against)


def test_a_win_earns_two_match_points_and_a_loss_none() -> None:
    rows = standings([1, 2], [beat(1, 2, rounds=(2, 1), points=(190, 170))])

    assert outcomes(row_of(rows, 1)) == (2, 1, 1, 0, 0)
    assert outcomes(row_of(rows, 2)) == (0, 1, 0, 0, 1)
    assert tallies(row_of(rows, 1)) == (2, 1, 190, 170)
    assert tallies(row_of(rows, 2)) == (1, 2, 170, 190)


def test_a_match_that_ends_level_on_total_points_is_a_tie_worth_one_point_each() -> None:
    rows = standings([1, 2], [tied(1, 2, rounds=(2, 2), points=(240, 240))])

    for entrant in (1, 2):
        assert outcomes(row_of(rows, entrant)) == (1, 1, 0, 1, 0)
        assert tallies(row_of(rows, entrant)) == (2, 2, 240, 240)


def test_a_bye_counts_as_played_and_won_for_two_points_with_no_rounds_or_card_points() -> None:
    row = row_of(standings([1, 2], [bye(1)]), 1)

    assert outcomes(row) == (2, 1, 1, 0, 0)
    assert tallies(row) == (0, 0, 0, 0)


def test_a_forfeit_is_a_win_for_the_other_side_and_a_loss_for_the_side_that_forfeited() -> None:
    rows = standings([1, 2], [forfeited(2, to=1)])

    assert outcomes(row_of(rows, 1)) == (2, 1, 1, 0, 0)
    assert outcomes(row_of(rows, 2)) == (0, 1, 0, 0, 1)


def test_a_forfeit_keeps_the_rounds_and_card_points_recorded_before_it() -> None:
    result = MatchResult(
        first=1,
        second=2,
        winner=1,
        first_rounds=0,
        second_rounds=1,
        first_points=50,
        second_points=70,
        forfeit=True,
    )

    rows = standings([1, 2], [result])

    assert tallies(row_of(rows, 1)) == (0, 1, 50, 70)
    assert tallies(row_of(rows, 2)) == (1, 0, 70, 50)


def test_a_forfeit_loss_can_be_penalised_while_an_ordinary_loss_is_not() -> None:
    scoring = Scoring(forfeit_loss=-1)

    rows = standings([1, 2, 3], [forfeited(2, to=1), beat(1, 3)], scoring=scoring)

    assert row_of(rows, 2).match_points == -1
    assert row_of(rows, 3).match_points == 0


def test_the_scoring_can_give_three_points_for_a_win_and_one_for_a_tie() -> None:
    scoring = Scoring(win=3, tie=1, loss=0, bye=3)

    rows = standings([1, 2, 3], [beat(1, 2), tied(2, 3), bye(3)], scoring=scoring)

    assert [(row.entrant, row.match_points) for row in rows] == [(3, 4), (1, 3), (2, 1)]


def test_an_entrant_without_results_has_an_empty_row() -> None:
    row = row_of(standings([1, 2, 3], [beat(1, 2)]), 3)

    assert outcomes(row) == (0, 0, 0, 0, 0)
    assert tallies(row) == (0, 0, 0, 0)


def test_a_row_serialises_to_the_api_keys_in_order_and_to_json() -> None:
    rows = standings([1, 2], [beat(1, 2, rounds=(2, 1), points=(190, 170))])

    data = rows[0].to_dict()

    assert list(data) == [
        "rank",
        "entrant",
        "match_points",
        "played",
        "won",
        "tied",
        "lost",
        "rounds_won",
        "rounds_lost",
        "points_for",
        "points_against",
        "tiebreaks",
    ]
    assert data["tiebreaks"] == {
        "match_points": 2,
        "head_to_head": None,
        "round_wins_difference": 1,
        "card_points_difference": 20,
        "buchholz": 0,
        "seed": None,
    }
    assert json.loads(json.dumps(data)) == data


def test_changing_a_serialised_row_leaves_the_row_unchanged() -> None:
    row = standings([1, 2], [beat(1, 2)])[0]

    row.to_dict()["tiebreaks"]["buchholz"] = 99

    assert row.tiebreaks["buchholz"] == 0
