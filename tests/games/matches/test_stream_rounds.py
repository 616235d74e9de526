"""The match stream (decide and fold) while a match is played: its rounds, cards and points,
undo, corrections, voided and replayed rounds, and a deciding round."""

import pytest

from games.matches.stream.commands import (
    CorrectCard,
    CreateMatch,
    EnterRoundPoints,
    PlayCardInRound,
    StartNextRound,
    UndoLastPlay,
    VoidRound,
)
from games.matches.stream.decide import decide
from games.matches.stream.errors import (
    CardsAlreadyEntered,
    MatchAlreadyCreated,
    PlayNotFound,
    RoundAlreadyVoided,
    RoundNotFound,
    RoundNotLatest,
)
from games.matches.stream.events import SideRef
from games.matches.stream.evolve import fold
from games.rules.cards import parse_card
from games.rules.errors import (
    CardAlreadyPlayed,
    MatchAlreadyFinished,
    MissingBriscola,
    NothingToUndo,
    NotYourTurn,
    PointsMustTotal120,
    RoundInProgress,
)
from games.rules.match import MatchFormat
from games.rules.variants import DEFAULT_VARIANT
from tests.games.matches.builders import (
    new_match,
    played_round,
    random_plays,
    run,
    scored_round,
)


def test_a_new_match_has_not_started_and_has_no_winner() -> None:
    match = new_match()

    assert match.status == "not_started"
    assert match.winner is None
    assert match.record.round_wins == (0, 0)


def test_a_match_cannot_be_created_twice() -> None:
    command = CreateMatch(2, MatchFormat.best_of(3), ({}, {}), DEFAULT_VARIANT)
    match = run(None, command)

    with pytest.raises(MatchAlreadyCreated):
        decide(match, command)


def test_first_side_to_two_round_wins_takes_a_best_of_three() -> None:
    match = scored_round(new_match(best_of=3), 70, 50)
    match = scored_round(match, 40, 80)
    assert match.status == "in_progress"

    match = scored_round(match, 61, 59)

    assert match.status == "finished"
    assert match.winner == 0
    assert match.record.round_wins == (2, 1)


def test_tied_round_is_replayed_and_does_not_count() -> None:
    match = scored_round(new_match(best_of=1), 60, 60)

    assert match.status == "in_progress"
    match = scored_round(match, 50, 70)

    assert match.winner == 1
    assert match.replay_of == {2: 1}
    assert [r.outcome.result for r in match.rounds if r.outcome] == ["tie", "side1"]


def test_fixed_rounds_are_all_played_and_won_on_total_points() -> None:
    match = new_match(scoring="points", best_of=2)
    match = scored_round(scored_round(match, 100, 20), 30, 90)

    assert match.status == "finished"
    assert match.winner == 0
    assert match.record.total_points == (130, 110)


def test_dealer_rotates_to_the_next_seat_and_a_voided_round_is_dealt_again() -> None:
    match = scored_round(new_match(table_size=4), 70, 50)
    assert match.rounds[0].dealer == 0
    assert match.rounds[0].leader == 1

    match = run(match, StartNextRound(briscola=parse_card("1D")), VoidRound(2, "misdeal"))
    match = run(match, StartNextRound(briscola=parse_card("1D")))

    assert [r.dealer for r in match.rounds] == [0, 1, 1]
    assert match.rounds[1].status == "voided"
    assert match.rounds[1].void_reason == "misdeal"


def test_a_round_cannot_start_while_another_is_being_played() -> None:
    match = run(new_match(), StartNextRound(briscola=parse_card("7D")))

    with pytest.raises(RoundInProgress):
        decide(match, StartNextRound(briscola=parse_card("1C")))


def test_no_round_starts_after_the_match_is_over() -> None:
    match = scored_round(new_match(best_of=1), 80, 40)

    with pytest.raises(MatchAlreadyFinished):
        decide(match, StartNextRound(briscola=None))


def test_cards_entered_one_by_one_give_the_round_its_points_and_result() -> None:
    match = played_round(new_match(), seed=3)

    finished = match.rounds[0]
    assert finished.status == "finished"
    assert finished.outcome is not None
    assert sum(finished.outcome.points) == 120
    assert len(finished.plays) == 40


def test_rule_violations_of_the_round_reach_the_caller() -> None:
    match = played_round(new_match(), seed=3, upto=1)
    first = match.rounds[0].plays[0]

    with pytest.raises(NotYourTurn):
        decide(match, PlayCardInRound(1, first.seat, parse_card("10S")))
    with pytest.raises(CardAlreadyPlayed):
        decide(match, PlayCardInRound(1, 1 - first.seat, first.card))


def test_points_cannot_be_entered_for_a_round_with_cards() -> None:
    match = played_round(new_match(), seed=3, upto=2)

    with pytest.raises(CardsAlreadyEntered):
        decide(match, EnterRoundPoints(1, (60, 60)))


def test_entered_points_must_total_120() -> None:
    match = run(new_match(), StartNextRound(briscola=None))

    with pytest.raises(PointsMustTotal120):
        decide(match, EnterRoundPoints(1, (70, 60)))


def test_cards_cannot_be_played_in_a_round_started_without_a_briscola() -> None:
    match = run(new_match(), StartNextRound(briscola=None))

    with pytest.raises(MissingBriscola):
        decide(match, PlayCardInRound(1, 1, parse_card("1D")))


def test_undo_removes_the_last_play_only() -> None:
    match = played_round(new_match(), seed=5, upto=3)
    plays = match.rounds[0].plays

    match = run(match, UndoLastPlay(1))

    assert match.rounds[0].plays == plays[:2]


def test_undo_with_nothing_played_is_refused() -> None:
    match = run(new_match(), StartNextRound(briscola=parse_card("7D")))

    with pytest.raises(NothingToUndo):
        decide(match, UndoLastPlay(1))


def test_undo_is_refused_in_an_earlier_round() -> None:
    match = played_round(new_match(), seed=5)
    match = played_round(match, seed=6, upto=2)

    with pytest.raises(RoundNotLatest):
        decide(match, UndoLastPlay(1))


def test_undo_of_the_last_card_reopens_a_finished_match() -> None:
    match = played_round(new_match(best_of=1), seed=5)
    assert match.status == "finished"

    match = run(match, UndoLastPlay(1))

    assert match.status == "in_progress"
    assert match.rounds[0].status == "in_progress"


def test_a_correction_that_still_replays_is_accepted_and_rederives_the_round() -> None:
    briscola, plays = random_plays(2, 0, seed=11)
    match = run(new_match(), StartNextRound(briscola=parse_card(briscola)))
    match = run(match, *(PlayCardInRound(1, p.seat, p.card) for p in plays[:1]))
    unplayed = next(
        c for c in match.table.deck if c != plays[0].card and c != match.rounds[0].briscola
    )

    match = run(match, CorrectCard(1, 0, unplayed))

    assert match.rounds[0].plays[0].card == unplayed
    assert match.rounds[0].plays[0].seat == plays[0].seat


def test_a_correction_that_breaks_a_later_play_is_refused_with_the_rules_reason() -> None:
    match = played_round(new_match(), seed=7, upto=4)
    second_card_of_second_trick = match.rounds[0].plays[3].card

    with pytest.raises(CardAlreadyPlayed, match="play 3 is illegal"):
        decide(match, CorrectCard(1, 2, second_card_of_second_trick))


def test_a_correction_names_an_existing_play() -> None:
    match = played_round(new_match(), seed=7, upto=4)

    with pytest.raises(PlayNotFound):
        decide(match, CorrectCard(1, 4, parse_card("1D")))


def test_voiding_an_earlier_round_lets_the_next_one_count_in_its_place() -> None:
    match = scored_round(new_match(best_of=1), 60, 60)
    match = scored_round(match, 70, 50)

    match = run(match, VoidRound(1, "wrong table"))

    assert match.winner == 0
    assert match.replay_of == {}
    assert match.rounds[0].status == "voided"


def test_a_voided_round_accepts_no_more_entries() -> None:
    match = run(new_match(), StartNextRound(briscola=parse_card("7D")), VoidRound(1, "misdeal"))

    with pytest.raises(RoundAlreadyVoided):
        decide(match, PlayCardInRound(1, 1, parse_card("1C")))
    with pytest.raises(RoundAlreadyVoided):
        decide(match, VoidRound(1))


def test_unknown_rounds_are_reported() -> None:
    with pytest.raises(RoundNotFound):
        decide(new_match(), PlayCardInRound(1, 1, parse_card("1C")))


def test_folding_the_recorded_events_gives_the_same_state() -> None:
    match = new_match()
    events = []
    for command in (
        StartNextRound(briscola=None),
        EnterRoundPoints(1, (90, 30)),
        StartNextRound(briscola=parse_card("5S")),
        VoidRound(2, "cards fell"),
    ):
        new_events = decide(match, command)
        events.extend(new_events)
        match = fold(new_events, match)

    assert fold(events, new_match()) == match


def test_a_replay_round_links_to_its_tie_while_it_is_being_played() -> None:
    match = scored_round(new_match(best_of=3), 60, 60)

    match = run(match, StartNextRound(briscola=parse_card("7D")))

    assert match.replay_of == {2: 1}


def test_a_level_match_with_a_decider_is_in_progress_until_its_deciding_round_is_won() -> None:
    sides: tuple[SideRef, ...] = ({}, {})
    match_format = MatchFormat.fixed_rounds(2, decider="round")
    state = run(None, CreateMatch(2, match_format, sides, DEFAULT_VARIANT))
    state = scored_round(scored_round(state, 70, 50), 50, 70)

    assert state.status == "in_progress"
    assert state.deciding_round_due
    state = scored_round(state, 60, 60)
    assert state.deciding_round_due
    state = scored_round(state, 59, 61)
    assert state.status == "finished"
    assert state.winner == 1
    assert not state.deciding_round_due
    assert state.replay_of == {4: 3}


def test_a_deciding_round_names_itself_and_the_regulation_total_leaves_it_out() -> None:
    sides: tuple[SideRef, ...] = ({}, {})
    match_format = MatchFormat.fixed_rounds(2, decider="round")
    state = run(None, CreateMatch(2, match_format, sides, DEFAULT_VARIANT))
    state = scored_round(scored_round(state, 70, 50), 50, 70)
    state = run(scored_round(state, 80, 40), VoidRound(3, "misdeal"))
    state = scored_round(scored_round(state, 60, 60), 65, 55)

    record = state.record
    assert (state.winner, state.deciding_round_of(record)) == (0, 5)
    assert state.regulation_points_of(record) == (120, 120)
    assert record.total_points == (245, 235)


def test_a_match_won_in_its_fixed_rounds_has_no_deciding_round() -> None:
    state = scored_round(scored_round(new_match(scoring="points", best_of=2), 70, 50), 60, 60)

    record = state.record
    assert (state.winner, state.deciding_round_of(record)) == (0, None)
    assert state.regulation_points_of(record) == (130, 110)
    assert new_match(best_of=3).regulation_points_of(new_match(best_of=3).record) is None


def test_a_level_match_stream_recorded_before_deciders_still_ends_level() -> None:
    state = scored_round(scored_round(new_match(scoring="points", best_of=2), 70, 50), 50, 70)

    assert state.status == "finished"
    assert state.winner is None
    assert not state.deciding_round_due
