"""The match stream (decide and fold) once a match is over: each side confirms or disputes the
result, and a forfeit finishes it."""

import pytest

from games.matches.stream.commands import ConfirmResult, DisputeResult, ForfeitMatch, StartNextRound
from games.matches.stream.decide import decide
from games.matches.stream.errors import (
    InvalidSide,
    MatchNotFinished,
    ReasonRequired,
    ResultAlreadyConfirmed,
    ResultAlreadyDisputed,
)
from games.matches.stream.evolve import fold
from games.rules.errors import MatchAlreadyFinished
from tests.games.matches.builders import (
    new_match,
    run,
    scored_round,
)


def test_each_side_confirms_a_finished_result_once() -> None:
    match = scored_round(new_match(best_of=1), 80, 40)

    match = run(match, ConfirmResult(0), ConfirmResult(1))

    assert match.confirmed_by == {0, 1}
    with pytest.raises(ResultAlreadyConfirmed):
        decide(match, ConfirmResult(1))
    with pytest.raises(InvalidSide):
        decide(match, ConfirmResult(2))


def test_a_side_disputes_a_finished_result_with_its_reason_and_the_result_stands() -> None:
    match = scored_round(new_match(best_of=1), 80, 40)

    events = decide(match, DisputeResult(1, "  we had 62, not 40  "))
    disputed = fold(events, match)

    assert [(event.type, event.to_payload()) for event in events] == [
        ("ResultDisputed", {"side": 1, "reason": "we had 62, not 40"})
    ]
    assert disputed.disputed_by == {1}
    assert disputed.confirmed_by == frozenset()
    assert (disputed.status, disputed.winner, disputed.record) == (
        match.status,
        match.winner,
        match.record,
    )


def test_a_result_cannot_be_disputed_before_the_match_is_over() -> None:
    match = scored_round(new_match(best_of=3), 80, 40)

    with pytest.raises(MatchNotFinished) as refused:
        decide(match, DisputeResult(1, "wrong points"))

    assert refused.value.code == "match_not_finished"


def test_only_a_side_of_the_match_disputes_it() -> None:
    match = scored_round(new_match(best_of=1), 80, 40)

    for side in (2, -1):
        with pytest.raises(InvalidSide) as refused:
            decide(match, DisputeResult(side, "wrong points"))
        assert refused.value.code == "invalid_side"


def test_a_dispute_needs_a_reason() -> None:
    match = scored_round(new_match(best_of=1), 80, 40)

    for reason in ("", "   \n"):
        with pytest.raises(ReasonRequired) as refused:
            decide(match, DisputeResult(0, reason))
        assert refused.value.code == "reason_required"


def test_a_side_disputes_a_result_once() -> None:
    match = run(scored_round(new_match(best_of=1), 80, 40), DisputeResult(1, "wrong points"))

    with pytest.raises(ResultAlreadyDisputed) as refused:
        decide(match, DisputeResult(1, "still wrong"))

    assert refused.value.code == "result_already_disputed"


def test_a_side_that_confirmed_cannot_dispute_any_more() -> None:
    match = run(scored_round(new_match(best_of=1), 80, 40), ConfirmResult(1))

    with pytest.raises(ResultAlreadyConfirmed) as refused:
        decide(match, DisputeResult(1, "changed my mind"))

    assert refused.value.code == "result_already_confirmed"


def test_confirming_after_a_dispute_withdraws_it_and_leaves_the_other_sides_open() -> None:
    match = scored_round(new_match(table_size=3, best_of=1), 70, 30, 20)
    match = run(match, DisputeResult(1, "wrong points"), DisputeResult(2, "wrong too"))

    match = run(match, ConfirmResult(1))

    assert match.confirmed_by == {1}
    assert match.disputed_by == {2}
    with pytest.raises(ResultAlreadyConfirmed):
        decide(match, DisputeResult(1, "again"))


def test_a_forfeited_match_can_be_disputed() -> None:
    match = run(new_match(), ForfeitMatch(0, "no show"), DisputeResult(0, "we were there"))

    assert match.disputed_by == {0}


def test_a_forfeit_finishes_the_match_for_the_other_side() -> None:
    match = run(new_match(), ForfeitMatch(0, "no show"))

    assert match.status == "finished"
    assert match.winner == 1
    with pytest.raises(MatchAlreadyFinished):
        decide(match, StartNextRound(briscola=None))


def test_a_forfeit_at_a_three_player_table_goes_to_the_player_ahead() -> None:
    match = scored_round(new_match(table_size=3, best_of=3), 20, 70, 30)

    match = run(match, ForfeitMatch(2))

    assert match.winner == 1
