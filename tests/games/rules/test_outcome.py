import pytest

from games.rules.errors import InvalidPoints, InvalidTableSize, PointsMustTotal120
from games.rules.outcome import RoundOutcome, score_only_round
from games.rules.simulate import simulate_rounds


@pytest.mark.parametrize(
    ("points", "result"),
    [
        ((61, 59), "side0"),
        ((0, 120), "side1"),
        ((60, 60), "tie"),
        ((40, 41, 39), "side1"),
        ((50, 50, 20), "tie"),
        ((40, 40, 40), "tie"),
        ((30, 30, 60), "side2"),
    ],
)
def test_the_side_with_most_points_wins_and_equal_highest_totals_tie(
    points: tuple[int, ...], result: str
) -> None:
    assert RoundOutcome.from_points(points).result == result


def test_a_60_60_round_is_a_tie() -> None:
    rounds = simulate_rounds(table_size=2, rounds=200, seed=0)

    tied = next(state for state in rounds if state.points == (60, 60))

    assert tied.outcome == RoundOutcome((60, 60), None)
    assert tied.outcome.is_tie


def test_a_round_entered_as_points_needs_points_for_each_side_totalling_120() -> None:
    assert score_only_round(2, [70, 50]) == RoundOutcome((70, 50), 0)
    assert score_only_round(3, [30, 30, 60]).winning_side == 2


@pytest.mark.parametrize("points", [[70, 40], [60, 61], [40, 40, 39]])
def test_entered_points_must_total_120(points: list[int]) -> None:
    with pytest.raises(PointsMustTotal120) as error:
        score_only_round(len(points), points)

    assert error.value.code == "points_must_total_120"


@pytest.mark.parametrize(
    ("table_size", "points"),
    [(2, [130, -10]), (4, [120]), (3, [60, 60]), (2, [60.5, 59.5]), (2, [True, 119])],
)
def test_entered_points_must_be_whole_numbers_from_0_to_120_one_per_side(
    table_size: int, points: list[int]
) -> None:
    with pytest.raises(InvalidPoints) as error:
        score_only_round(table_size, points)

    assert error.value.code == "invalid_points"


def test_entered_points_need_a_real_table_size() -> None:
    with pytest.raises(InvalidTableSize):
        score_only_round(5, [60, 60])


def test_outcomes_survive_a_trip_through_a_dict() -> None:
    outcome = next(simulate_rounds(table_size=3, rounds=1, seed=4)).outcome
    assert outcome is not None

    assert RoundOutcome.from_dict(outcome.to_dict()) == outcome
