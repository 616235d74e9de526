"""The match stream: the organizer corrects a card of a finished round, with a reason, as an
event. Every card of a finished round was played, so the two plays exchange their cards; the
round's tricks, winners and points follow from the cards, the match's result from the rounds,
and a change of the result lapses the confirmations and disputes of the result before it
(decision record 0048)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.matches.stream.commands import (
    ConfirmResult,
    CorrectCard,
    CorrectCardAfterRound,
    DisputeResult,
    ForfeitMatch,
    RuleRoundResult,
    VoidRound,
)
from games.matches.stream.decide import decide
from games.matches.stream.errors import (
    CardUnchanged,
    PlayNotFound,
    PointsAlreadyEntered,
    ReasonRequired,
    RoundAlreadyVoided,
    RoundNotFinished,
    RoundRuled,
)
from games.matches.stream.events import CardCorrectedAfterRound, MatchEvent, match_event_from_stored
from games.matches.stream.evolve import fold
from games.matches.stream.state import MatchAggregate, swap_cards
from games.rules.cards import parse_card
from games.rules.errors import (
    CardAlreadyPlayed,
    CardNotInDeck,
    MatchAlreadyFinished,
    NotYourTurn,
    RuleViolation,
)
from games.rules.replay import replay_round, start_command_of
from tests.games.matches.builders import legal_swaps, new_match, played_round, run, scored_round


def finished_one_round_match(seed: int = 5) -> MatchAggregate:
    return played_round(new_match(best_of=1), seed=seed)


def a_swap_that_changes_the_points(match: MatchAggregate) -> tuple[int, int, tuple[int, ...]]:
    points = match.rounds[0].outcome.points  # type: ignore[union-attr]
    return next(swap for swap in legal_swaps(match, 1) if swap[2] != points)


def a_round_a_correction_flips() -> tuple[int, int, int]:
    """The seed of a first round that a correction gives to the side that lost it, and the
    correction's two plays."""
    for seed in range(40):
        match = finished_one_round_match(seed)
        loser = 1 - (match.winner or 0)
        for index, other, points in legal_swaps(match, 1):
            if points[loser] > 60:
                return seed, index, other
    raise AssertionError("no seed gives a round whose winner a correction changes")


def test_a_correction_exchanges_the_two_plays_cards_and_rederives_the_round() -> None:
    match = finished_one_round_match()
    index, other, points = a_swap_that_changes_the_points(match)
    plays = match.rounds[0].plays
    actual = plays[other].card

    events = decide(match, CorrectCardAfterRound(1, index, actual, "  the scorer misread it "))
    corrected = run(match, CorrectCardAfterRound(1, index, actual, "the scorer misread it"))

    assert events == [
        CardCorrectedAfterRound(
            round=1,
            play_index=index,
            seat=plays[index].seat,
            card=actual,
            previous_card=plays[index].card,
            swapped_with=other,
            reason="the scorer misread it",
        )
    ]
    (corrected_round,) = corrected.rounds
    assert corrected_round.plays[index] == (plays[index].seat, actual)
    assert corrected_round.plays[other] == (plays[other].seat, plays[index].card)
    assert corrected_round.outcome is not None
    assert corrected_round.outcome.points == points
    assert sum(points) == 120
    assert corrected_round.corrections == tuple(events)
    assert corrected.result.rounds == ((1, points),)


def test_the_event_reads_back_from_its_type_and_payload() -> None:
    match = finished_one_round_match()
    index, other, _points = legal_swaps(match, 1)[0]
    (event,) = decide(
        match, CorrectCardAfterRound(1, index, match.rounds[0].plays[other].card, "misread")
    )

    assert match_event_from_stored(event.type, event.to_payload()) == event


def test_a_correction_that_changes_the_winner_changes_the_match_and_lapses_its_marks() -> None:
    seed, index, other = a_round_a_correction_flips()
    match = finished_one_round_match(seed)
    winner = match.winner
    match = run(match, ConfirmResult(0), DisputeResult(1, "recount"))
    card = match.rounds[0].plays[other].card

    corrected = run(match, CorrectCardAfterRound(1, index, card, "the last trick was theirs"))

    assert corrected.winner not in (None, winner)
    assert (corrected.confirmed_by, corrected.disputed_by) == (frozenset(), frozenset())
    assert run(corrected, ConfirmResult(1)).confirmed_by == {1}


def test_a_correction_that_keeps_the_points_keeps_the_confirmations() -> None:
    match = finished_one_round_match()
    points = match.rounds[0].outcome.points  # type: ignore[union-attr]
    index, other, _points = next(swap for swap in legal_swaps(match, 1) if swap[2] == points)
    match = run(match, ConfirmResult(0))

    corrected = run(
        match, CorrectCardAfterRound(1, index, match.rounds[0].plays[other].card, "misread")
    )

    assert corrected.confirmed_by == {0}
    assert corrected.rounds[0].plays != match.rounds[0].plays


def test_a_correction_that_changes_whose_turn_it_was_is_refused_with_the_rules_reason() -> None:
    match = finished_one_round_match()
    cards = match.rounds[0].cards
    assert cards is not None
    legal = {(index, other) for index, other, _points in legal_swaps(match, 1)}
    index, other = next(
        (index, other)
        for index, other in combinations(range(len(cards.plays)), 2)
        if (index, other) not in legal
        and isinstance(
            replay_round(
                start_command_of(cards), swap_cards(cards.plays, index, other)
            ).rejection.violation,  # type: ignore[union-attr]
            NotYourTurn,
        )
    )

    with pytest.raises(NotYourTurn, match="rule on the round's points instead"):
        decide(match, CorrectCardAfterRound(1, index, cards.plays[other].card, "misread"))


@pytest.mark.parametrize(
    ("command", "error"),
    [
        (CorrectCardAfterRound(1, 0, parse_card("1D"), "   "), ReasonRequired),
        (CorrectCardAfterRound(1, 40, parse_card("1D"), "misread"), PlayNotFound),
        (CorrectCardAfterRound(2, 0, parse_card("1D"), "misread"), RuleViolation),
    ],
)
def test_a_correction_needs_a_reason_and_an_existing_play(
    command: CorrectCardAfterRound, error: type[RuleViolation]
) -> None:
    with pytest.raises(error):
        decide(finished_one_round_match(), command)


def test_a_correction_to_the_same_card_or_a_card_of_another_deck_is_refused() -> None:
    match = played_round(new_match(table_size=3, best_of=1), seed=2)
    first = match.rounds[0].plays[0]

    with pytest.raises(CardUnchanged):
        decide(match, CorrectCardAfterRound(1, 0, first.card, "misread"))
    with pytest.raises(CardNotInDeck):  # the two of batons is out at a table of three
        decide(match, CorrectCardAfterRound(1, 0, parse_card("2B"), "misread"))


def test_only_a_finished_round_of_cards_that_stands_takes_a_correction_after_it() -> None:
    in_play = played_round(new_match(best_of=1), seed=5, upto=7)
    by_points = scored_round(new_match(best_of=1), 80, 40)
    match = finished_one_round_match()
    card = match.rounds[0].plays[1].card
    correction = CorrectCardAfterRound(1, 0, card, "misread")
    voided = run(played_round(new_match(), seed=5), VoidRound(1, "misdeal"))
    ruled = run(match, RuleRoundResult(1, (60, 60), "a tie, as the sheet says"))
    forfeited = run(played_round(new_match(), seed=5), ForfeitMatch(0, "left"))

    with pytest.raises(RoundNotFinished):
        decide(in_play, CorrectCardAfterRound(1, 0, in_play.rounds[0].plays[1].card, "misread"))
    with pytest.raises(PointsAlreadyEntered, match="rule on its points"):
        decide(by_points, correction)
    with pytest.raises(RoundAlreadyVoided):
        decide(voided, correction)
    with pytest.raises(RoundRuled):
        decide(ruled, correction)
    with pytest.raises(MatchAlreadyFinished):
        decide(forfeited, correction)


def test_a_correction_after_which_a_later_round_would_follow_the_end_is_refused() -> None:
    seed, index, other = a_round_a_correction_flips()
    # Best of 3: round 1 to one side, rounds 2 and 3 to the other; with round 1 corrected the
    # other side would have won in round 2, before round 3.
    match = played_round(new_match(best_of=3), seed=seed)
    loser = 1 - match.record.round_wins.index(1)
    winning = (90, 30) if loser == 0 else (30, 90)
    match = scored_round(scored_round(match, *winning), *winning)
    assert (match.status, match.winner) == ("finished", loser)

    with pytest.raises(MatchAlreadyFinished, match="void the rounds after round 1"):
        decide(
            match,
            CorrectCardAfterRound(1, index, match.rounds[0].plays[other].card, "misread"),
        )


def test_correcting_a_finished_round_as_it_is_played_says_who_corrects_it() -> None:
    match = finished_one_round_match()

    with pytest.raises(CardAlreadyPlayed, match="an organizer corrects"):
        decide(match, CorrectCard(1, 0, match.rounds[0].plays[1].card))
    assert decide(match, CorrectCard(1, 0, match.rounds[0].plays[0].card))  # as before


# The property: corrections after the round, whatever they name.


@settings(max_examples=30, deadline=None)
@given(
    table_size=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**16),
    marks=st.lists(st.tuples(st.booleans(), st.integers(0, 2)), max_size=3),
    corrections=st.lists(st.tuples(st.integers(0, 47), st.integers(0, 47)), min_size=1, max_size=8),
)
def test_a_correction_after_the_match_keeps_120_points_and_marks_of_the_current_result(
    table_size: int,
    seed: int,
    marks: list[tuple[bool, int]],
    corrections: list[tuple[int, int]],
) -> None:
    match = played_round(new_match(table_size=table_size, best_of=1), seed=seed)
    for confirm, side in marks:
        side %= match.table.side_count
        mark = ConfirmResult(side) if confirm else DisputeResult(side, "recount")
        try:
            match = run(match, mark)
        except RuleViolation:
            continue
    start, events = match, list[MatchEvent]()
    for index, other in corrections:
        plays = match.rounds[0].plays
        command = CorrectCardAfterRound(
            1, index % len(plays), plays[other % len(plays)].card, "recount"
        )
        try:
            recorded = decide(match, command)
        except RuleViolation:
            continue
        before, match = match, fold(recorded, match)
        events.extend(recorded)
        (corrected,) = match.rounds
        assert corrected.outcome is not None
        assert sum(corrected.outcome.points) == 120
        cards = corrected.cards
        assert cards is not None
        assert replay_round(start_command_of(cards), corrected.plays).state == cards
        assert sorted(p.card.code for p in corrected.plays) == sorted(
            p.card.code for p in before.rounds[0].plays
        )
        standing = [mark for mark in (*match.confirmations, *match.disputes) if mark.standing]
        assert all(mark.result == match.result for mark in standing)
        if match.result != before.result:
            assert standing == []

    assert not events or fold(events, start) == match
