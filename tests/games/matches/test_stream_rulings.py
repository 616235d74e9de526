"""The match stream: the organizer rules on a finished round's result, with a reason, as an
event; the round's points are then the ruled ones, and a change of the result lapses the
confirmations and disputes of the result before it (decision record 0045)."""

import pytest

from games.matches.stream.commands import (
    ConfirmResult,
    CorrectCard,
    DisputeResult,
    ForfeitMatch,
    RuleRoundResult,
    StartNextRound,
    UndoLastPlay,
    VoidRound,
)
from games.matches.stream.decide import decide
from games.matches.stream.errors import (
    ReasonRequired,
    RoundAlreadyVoided,
    RoundNotFinished,
    RoundNotFound,
    RoundRuled,
)
from games.matches.stream.events import RoundResultRuled, match_event_from_stored
from games.matches.stream.state import MatchAggregate
from games.rules.errors import (
    InvalidPoints,
    MatchAlreadyFinished,
    PointsMustTotal120,
    RuleViolation,
)
from tests.games.matches.builders import new_match, played_round, run, scored_round


def test_a_ruling_gives_a_finished_round_its_points_and_the_match_its_winner() -> None:
    match = scored_round(new_match(best_of=1), 80, 40)

    events = decide(match, RuleRoundResult(1, (50, 70), "  miscounted the last trick "))
    ruled = run(match, RuleRoundResult(1, (50, 70), "miscounted the last trick"))

    assert events == [
        RoundResultRuled(round=1, points=(50, 70), reason="miscounted the last trick")
    ]
    (ruled_round,) = ruled.rounds
    assert ruled_round.outcome is not None
    assert ruled_round.outcome.points == (50, 70)
    assert ruled_round.ruling_reason == "miscounted the last trick"
    assert ruled_round.entered is not None
    assert ruled_round.entered.points == (80, 40)
    assert (ruled.status, ruled.winner) == ("finished", 1)


def test_a_ruling_that_changes_the_result_lapses_its_confirmations_and_disputes() -> None:
    match = run(
        scored_round(new_match(best_of=1), 80, 40), ConfirmResult(0), DisputeResult(1, "61")
    )

    ruled = run(match, RuleRoundResult(1, (59, 61), "the last trick was ours"))

    assert (ruled.confirmed_by, ruled.disputed_by) == (frozenset(), frozenset())
    assert [mark.standing for mark in (*ruled.confirmations, *ruled.disputes)] == [False, False]
    assert run(ruled, ConfirmResult(1)).confirmed_by == {1}


def test_a_ruling_that_keeps_the_points_keeps_the_confirmations() -> None:
    match = run(scored_round(new_match(best_of=1), 80, 40), ConfirmResult(0))

    ruled = run(match, RuleRoundResult(1, (80, 40), "checked the score sheet: it stands"))

    assert ruled.confirmed_by == {0}
    assert ruled.rounds[0].ruling_reason == "checked the score sheet: it stands"


def test_a_ruling_may_reopen_a_match_whose_result_it_changes() -> None:
    match = scored_round(scored_round(new_match(best_of=3), 70, 50), 80, 40)

    ruled = run(match, RuleRoundResult(2, (40, 80), "round 2 was scored the wrong way round"))

    assert (ruled.status, ruled.record.round_wins) == ("in_progress", (1, 1))
    assert scored_round(ruled, 30, 90).winner == 1


def test_a_card_round_that_was_ruled_keeps_its_cards_and_takes_no_undo_or_correction() -> None:
    match = played_round(new_match(best_of=1), seed=5)
    plays = match.rounds[0].plays

    ruled = run(match, RuleRoundResult(1, (61, 59), "a trick was given to the wrong side"))

    assert ruled.rounds[0].plays == plays
    assert ruled.winner == 0
    with pytest.raises(RoundRuled):
        decide(ruled, UndoLastPlay(1))
    with pytest.raises(RoundRuled):
        decide(ruled, CorrectCard(1, 0, plays[0].card))


def test_a_ruling_that_would_end_the_match_before_a_later_round_is_refused() -> None:
    match = scored_round(scored_round(scored_round(new_match(best_of=3), 70, 50), 50, 70), 70, 50)

    with pytest.raises(MatchAlreadyFinished, match="void the rounds after round 2 first"):
        decide(match, RuleRoundResult(2, (70, 50), "round 2 was ours"))
    voided = run(match, VoidRound(3, "played after the end"))
    assert run(voided, RuleRoundResult(2, (70, 50), "round 2 was ours")).winner == 0


def unfinished_round() -> MatchAggregate:
    return run(scored_round(new_match(best_of=3), 70, 50), StartNextRound(briscola=None))


@pytest.mark.parametrize(
    ("match", "command", "refusal"),
    [
        (unfinished_round(), RuleRoundResult(2, (60, 60), "x"), RoundNotFinished),
        (unfinished_round(), RuleRoundResult(3, (60, 60), "x"), RoundNotFound),
        (
            run(scored_round(new_match(best_of=3), 70, 50), VoidRound(1, "misdeal")),
            RuleRoundResult(1, (60, 60), "x"),
            RoundAlreadyVoided,
        ),
        (unfinished_round(), RuleRoundResult(1, (60, 60), "   "), ReasonRequired),
        (unfinished_round(), RuleRoundResult(1, (60, 59), "x"), PointsMustTotal120),
        (unfinished_round(), RuleRoundResult(1, (60, 60, 0), "x"), InvalidPoints),
        (
            run(unfinished_round(), ForfeitMatch(1, "left")),
            RuleRoundResult(1, (60, 60), "x"),
            MatchAlreadyFinished,
        ),
    ],
)
def test_a_ruling_is_refused_with_a_reason_that_says_why(
    match: MatchAggregate, command: RuleRoundResult, refusal: type[RuleViolation]
) -> None:
    with pytest.raises(refusal):
        decide(match, command)


def test_a_ruling_is_stored_as_its_payload_and_read_back_the_same() -> None:
    event = RoundResultRuled(round=2, points=(70, 50), reason="miscount")

    assert event.to_payload() == {"round": 2, "points": [70, 50], "reason": "miscount"}
    assert match_event_from_stored(event.type, event.to_payload()) == event
