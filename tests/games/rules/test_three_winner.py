"""Who wins a round at three: the variant option `three_winner` (decision record 0031)."""

import random
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.errors import InvalidVariant
from games.rules.match import MatchFormat, MatchState, start_match
from games.rules.outcome import RoundOutcome, score_only_round
from games.rules.simulate import simulate_round
from games.rules.tables import Table
from games.rules.variants import ThreeWinner, Variant

AT_LEAST_61 = Variant(three_winner="at_least_61")


def test_the_most_points_rule_is_the_default_and_is_not_written() -> None:
    assert Variant().three_winner == "most_points"
    assert "three_winner" not in Variant().to_dict()
    assert Variant.from_dict(Variant().to_dict()) == Variant()


def test_a_variant_recorded_before_the_option_reads_as_the_most_points_rule() -> None:
    recorded = {
        "hand_size": 3,
        "three_ranks_as_three": False,
        "removed_card_for_three": "2B",
        "deck_names": "italian",
    }

    assert Variant.from_recorded(recorded).three_winner == "most_points"
    assert Variant.from_recorded(recorded).to_dict() == recorded


def test_the_at_least_61_rule_is_written_and_read_back() -> None:
    assert AT_LEAST_61.to_dict()["three_winner"] == "at_least_61"
    assert Variant.from_dict(AT_LEAST_61.to_dict()) == AT_LEAST_61
    assert Variant.from_recorded(AT_LEAST_61.to_dict()) == AT_LEAST_61


@pytest.mark.parametrize("rule", ["at_least_60", "", None, 61, ["at_least_61"]])
def test_another_rule_is_an_invalid_variant(rule: object) -> None:
    with pytest.raises(InvalidVariant) as error:
        Variant.from_dict({"three_winner": rule})

    assert error.value.code == "invalid_variant"
    assert "three_winner" in error.value.detail


@pytest.mark.parametrize("table_size", [2, 4, 6])
def test_the_at_least_61_rule_is_refused_at_tables_of_two_four_and_six(table_size: int) -> None:
    with pytest.raises(InvalidVariant) as error:
        Table(table_size, AT_LEAST_61)

    assert error.value.code == "invalid_variant"
    assert "three_winner" in error.value.detail
    assert Table(table_size, Variant(three_winner="most_points")).size == table_size


def test_the_at_least_61_rule_is_accepted_at_a_table_of_three() -> None:
    assert Table(3, AT_LEAST_61).variant.three_winner == "at_least_61"


@pytest.mark.parametrize(
    ("points", "most_points", "at_least_61"),
    [
        ((50, 40, 30), "side0", "tie"),
        ((60, 59, 1), "side0", "tie"),
        ((61, 30, 29), "side0", "side0"),
        ((20, 40, 60), "side2", "tie"),
        ((0, 120, 0), "side1", "side1"),
        ((50, 50, 20), "tie", "tie"),
        ((40, 40, 40), "tie", "tie"),
    ],
)
def test_under_at_least_61_a_round_at_three_where_nobody_reaches_61_has_no_winner(
    points: tuple[int, int, int], most_points: str, at_least_61: str
) -> None:
    assert RoundOutcome.from_points(points).result == most_points
    assert RoundOutcome.from_points(points, "most_points").result == most_points
    assert RoundOutcome.from_points(points, "at_least_61").result == at_least_61
    assert score_only_round(3, list(points), "at_least_61").result == at_least_61


def test_a_round_without_a_winner_is_replayed_in_a_best_of_match() -> None:
    start = start_match(table_size=3, match_format=MatchFormat.best_of(1))

    match = start.record_round(score_only_round(3, [50, 40, 30], "at_least_61"))

    assert not match.is_finished
    assert not match.records[0].counts
    match = match.record_round(score_only_round(3, [61, 30, 29], "at_least_61"))
    assert match.records[1].replay_of == 1
    assert match.records[0].replayed_by == 2
    assert match.winner == 0


def test_a_round_without_a_winner_counts_with_no_winner_in_a_match_scored_by_points() -> None:
    start = start_match(table_size=3, match_format=MatchFormat.fixed_rounds(2))

    match = reduce(
        MatchState.record_round,
        [
            score_only_round(3, [50, 40, 30], "at_least_61"),
            score_only_round(3, [30, 61, 29], "at_least_61"),
        ],
        start,
    )

    assert match.is_finished
    assert all(record.counts for record in match.records)
    assert match.round_wins == (0, 1, 0)
    assert match.total_points == (80, 101, 59)
    assert match.winner == 1


def test_a_deciding_round_without_a_winner_is_replayed() -> None:
    start = start_match(table_size=3, match_format=MatchFormat.fixed_rounds(1, decider="round"))
    level = start.record_round(score_only_round(3, [50, 50, 20], "at_least_61"))

    still_level = level.record_round(score_only_round(3, [60, 40, 20], "at_least_61"))

    assert still_level.deciding_round_due
    assert not still_level.records[1].counts
    decided = still_level.record_round(score_only_round(3, [10, 40, 70], "at_least_61"))
    assert decided.records[2].replay_of == 2
    assert decided.winner == 2


def test_a_round_played_card_by_card_at_three_follows_the_variant() -> None:
    rng = random.Random(12)
    states = [simulate_round(rng, 3, AT_LEAST_61) for _ in range(60)]

    short = [state for state in states if max(state.points) < 61]

    assert short, "no round of the sample left everyone under 61"
    assert all(state.outcome is not None and state.outcome.is_tie for state in short)
    assert all(
        state.outcome is not None and state.outcome.winning_side == state.points.index(61)
        for state in states
        if 61 in state.points
    )


THREE_WAY_POINTS = (
    st.lists(st.integers(0, 120), min_size=2, max_size=2)
    .map(sorted)
    .map(lambda cuts: [cuts[0], cuts[1] - cuts[0], 120 - cuts[1]])
)
MATCH_FORMATS = st.sampled_from(
    [
        MatchFormat.best_of(1),
        MatchFormat.best_of(3),
        MatchFormat.best_of(5),
        MatchFormat.fixed_rounds(1),
        MatchFormat.fixed_rounds(3),
        MatchFormat.fixed_rounds(2, decider="round"),
    ]
)


def play_points(
    match: MatchState, rounds: list[list[int]], three_winner: ThreeWinner
) -> MatchState:
    for points in rounds:
        if match.is_finished:
            break
        match = match.record_round(score_only_round(3, points, three_winner))
    return match


@settings(max_examples=200, deadline=None)
@given(MATCH_FORMATS, st.lists(THREE_WAY_POINTS, max_size=12))
def test_under_at_least_61_every_counted_round_winner_at_three_has_at_least_61(
    match_format: MatchFormat, rounds: list[list[int]]
) -> None:
    match = play_points(start_match(table_size=3, match_format=match_format), rounds, "at_least_61")

    for record in match.records:
        if record.counts and record.outcome.winning_side is not None:
            assert record.outcome.points[record.outcome.winning_side] >= 61
        if max(record.outcome.points) < 61:
            assert record.outcome.is_tie
            assert record.counts == (
                match_format.scoring == "points" and record.number <= match_format.rounds
            )
    if match.winner is not None and match_format.scoring == "best_of":
        won = [r for r in match.records if r.counts and r.outcome.winning_side == match.winner]
        assert all(record.outcome.points[match.winner] >= 61 for record in won)


def todays_winner(points: list[int]) -> int | None:
    """Decision 0002's rule as it was written before the option: the unique most points."""
    best = max(points)
    leaders = [side for side, side_points in enumerate(points) if side_points == best]
    return leaders[0] if len(leaders) == 1 else None


@settings(max_examples=200, deadline=None)
@given(MATCH_FORMATS, st.lists(THREE_WAY_POINTS, max_size=12))
def test_under_most_points_every_round_and_match_ends_as_before_the_option(
    match_format: MatchFormat, rounds: list[list[int]]
) -> None:
    explicit = play_points(
        start_match(table_size=3, match_format=match_format), rounds, "most_points"
    )
    implicit = start_match(table_size=3, match_format=match_format)
    for points in rounds[: len(explicit.records)]:
        implicit = implicit.record_round(score_only_round(3, points))

    assert explicit == implicit
    assert [record.outcome.winning_side for record in explicit.records] == [
        todays_winner(list(record.outcome.points)) for record in explicit.records
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_a_round_at_three_is_played_alike_under_both_rules_only_its_winner_may_differ(
    seed: int,
) -> None:
    most = simulate_round(random.Random(seed), 3)
    at_least = simulate_round(random.Random(seed), 3, AT_LEAST_61)

    assert at_least.plays == most.plays
    assert at_least.points == most.points
    assert most.outcome is not None
    assert at_least.outcome is not None
    assert most.outcome.winning_side == todays_winner(list(most.points))
    if max(most.points) >= 61:
        assert at_least.outcome == most.outcome
    else:
        assert at_least.outcome.is_tie
