"""A match scored by points that ends level plays a deciding round (decision record 0029)."""

from functools import reduce

import pytest

from games.rules.errors import InvalidMatchFormat, MatchAlreadyFinished
from games.rules.match import MatchFormat, MatchState, start_match
from games.rules.outcome import RoundOutcome

WIN_0 = RoundOutcome((70, 50), 0)
WIN_1 = RoundOutcome((50, 70), 1)
TIE = RoundOutcome((60, 60), None)
DECIDING = MatchFormat.fixed_rounds(2, decider="round")


def match_after(*outcomes: RoundOutcome, match_format: MatchFormat = DECIDING) -> MatchState:
    return reduce(
        MatchState.record_round, outcomes, start_match(table_size=2, match_format=match_format)
    )


def test_a_level_match_without_a_decider_ends_without_a_winner_as_before() -> None:
    level = match_after(WIN_0, WIN_1, match_format=MatchFormat.fixed_rounds(2))

    assert level.is_finished
    assert level.winner is None
    assert not level.deciding_round_due


def test_a_level_match_with_a_decider_goes_on_until_a_deciding_round_is_won() -> None:
    level = match_after(WIN_0, WIN_1)

    assert not level.is_finished
    assert level.deciding_round_due
    assert level.winner is None
    decided = level.record_round(WIN_1)
    assert decided.is_finished
    assert decided.winner == 1
    assert not decided.deciding_round_due


def test_a_tied_deciding_round_is_replayed_and_does_not_decide() -> None:
    tied = match_after(TIE, TIE, TIE)

    assert tied.deciding_round_due
    assert not tied.records[2].counts
    decided = tied.record_round(WIN_0)
    assert decided.winner == 0
    assert decided.records[3].replay_of == 3
    assert decided.records[2].replayed_by == 4


def test_the_deciding_round_wins_even_when_the_loser_scored_more_in_all() -> None:
    decided = match_after(WIN_0, WIN_1, RoundOutcome((61, 59), 0))

    assert decided.winner == 0
    assert decided.total_points == (181, 179)


def test_a_match_won_on_points_needs_no_deciding_round_and_takes_no_more_rounds() -> None:
    won = match_after(WIN_0, TIE)

    assert won.is_finished
    assert won.winner == 0
    with pytest.raises(MatchAlreadyFinished):
        won.record_round(WIN_1)


def test_a_decided_match_takes_no_more_rounds() -> None:
    with pytest.raises(MatchAlreadyFinished):
        match_after(WIN_0, WIN_1, WIN_0).record_round(WIN_0)


def test_a_deciding_round_is_only_for_matches_scored_by_points() -> None:
    with pytest.raises(InvalidMatchFormat):
        MatchFormat("best_of", 3, "round")
    with pytest.raises(InvalidMatchFormat):
        MatchFormat("points", 3, "sudden_death")  # type: ignore[arg-type]


def test_a_format_recorded_before_deciders_reads_as_none_and_is_written_the_same() -> None:
    old = {"scoring": "points", "rounds": 2}

    assert MatchFormat.from_dict(old).decider == "none"
    assert MatchFormat.from_dict(old).to_dict() == old
    assert MatchFormat.from_dict(DECIDING.to_dict()) == DECIDING
