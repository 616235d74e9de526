from functools import reduce

import pytest

from games.rules.errors import InvalidMatchFormat, InvalidPoints, InvalidSeat, MatchAlreadyFinished
from games.rules.match import MatchFormat, MatchState, start_match
from games.rules.outcome import RoundOutcome

WIN_0 = RoundOutcome((70, 50), 0)
WIN_1 = RoundOutcome((50, 70), 1)
TIE = RoundOutcome((60, 60), None)


def match_after(
    *outcomes: RoundOutcome, match_format: MatchFormat, table_size: int = 2
) -> MatchState:
    start = start_match(table_size=table_size, match_format=match_format)
    return reduce(MatchState.record_round, outcomes, start)


@pytest.mark.parametrize(("best_of", "wins"), [(1, 1), (3, 2), (5, 3)])
def test_best_of_n_is_won_by_the_first_side_to_win_a_majority(best_of: int, wins: int) -> None:
    match_format = MatchFormat.best_of(best_of)
    almost = match_after(*[WIN_1] * (wins - 1), *[WIN_0] * (wins - 1), match_format=match_format)

    assert not almost.is_finished
    assert almost.winner is None
    won = almost.record_round(WIN_1)
    assert won.is_finished
    assert won.winner == 1
    assert won.round_wins == (wins - 1, wins)


def test_tied_round_is_replayed_and_does_not_count() -> None:
    match = match_after(WIN_0, TIE, WIN_1, match_format=MatchFormat.best_of(3))

    assert match.round_wins == (1, 1)
    assert not match.is_finished
    tie, replay = match.records[1], match.records[2]
    assert not tie.counts
    assert (tie.replayed_by, replay.replay_of) == (3, 2)


def test_a_tie_replayed_by_another_tie_links_each_to_the_next() -> None:
    match = match_after(TIE, TIE, WIN_0, match_format=MatchFormat.best_of(1))

    assert [(r.replay_of, r.replayed_by) for r in match.records] == [(None, 2), (1, 3), (2, None)]
    assert match.winner == 0


def test_each_round_is_dealt_by_the_seat_after_the_previous_dealer() -> None:
    start = start_match(table_size=4, match_format=MatchFormat.best_of(5), first_dealer=2)

    match = reduce(MatchState.record_round, [WIN_0, TIE, WIN_1], start)

    assert [record.dealer for record in match.records] == [2, 3, 0]
    assert match.next_dealer == 1


def test_no_round_is_played_after_the_match_is_won() -> None:
    match = match_after(WIN_0, match_format=MatchFormat.best_of(1))

    with pytest.raises(MatchAlreadyFinished) as error:
        match.record_round(WIN_1)

    assert error.value.code == "match_finished"


def test_points_scoring_plays_every_round_and_adds_up_the_points() -> None:
    match_format = MatchFormat.fixed_rounds(3)

    match = match_after(WIN_0, TIE, RoundOutcome((40, 80), 1), match_format=match_format)

    assert match.is_finished
    assert match.total_points == (170, 190)
    assert match.winner == 1
    assert all(record.counts for record in match.records)


def test_points_scoring_can_end_level() -> None:
    match = match_after(WIN_0, WIN_1, match_format=MatchFormat.fixed_rounds(2))

    assert match.is_finished
    assert match.winner is None


def test_three_player_matches_count_three_sides() -> None:
    one = RoundOutcome((50, 40, 30), 0)

    match = match_after(one, one, match_format=MatchFormat.best_of(3), table_size=3)

    assert match.round_wins == (2, 0, 0)
    assert match.winner == 0


def test_an_outcome_must_give_points_for_each_side_of_the_table() -> None:
    with pytest.raises(InvalidPoints):
        match_after(WIN_0, match_format=MatchFormat.best_of(3), table_size=3)


@pytest.mark.parametrize(
    ("scoring", "rounds"), [("best_of", 2), ("best_of", 7), ("points", 0), ("sets", 3)]
)
def test_a_match_is_best_of_1_3_or_5_or_a_positive_number_of_rounds(
    scoring: str, rounds: int
) -> None:
    with pytest.raises(InvalidMatchFormat) as error:
        MatchFormat(scoring, rounds)  # type: ignore[arg-type]

    assert error.value.code == "invalid_match_format"


def test_the_first_dealer_must_sit_at_the_table() -> None:
    with pytest.raises(InvalidSeat):
        start_match(table_size=2, first_dealer=2)


def test_a_match_format_survives_a_trip_through_a_dict() -> None:
    match_format = MatchFormat.fixed_rounds(4)

    assert MatchFormat.from_dict(match_format.to_dict()) == match_format
