import random

import pytest

from games.rules.cards import parse_card
from games.rules.commands import StartRound
from games.rules.errors import CardAlreadyPlayed, NothingToUndo, NotYourTurn, RuleViolation
from games.rules.replay import ReplayResult, replay_round, start_command_of, undo_last_play
from games.rules.simulate import simulate_round
from games.rules.tricks import Play
from tests.games.rules.builders import physical_round, play


def test_replaying_legal_plays_gives_the_same_round() -> None:
    finished = simulate_round(random.Random(3), 4)

    result = replay_round(start_command_of(finished), finished.plays)

    assert result.is_legal
    assert result.state == finished


def test_replay_stops_at_the_first_illegal_play_and_names_its_index() -> None:
    start = StartRound(2, 0, parse_card("7D"))
    plays = [Play(1, parse_card("5C")), Play(0, parse_card("1C")), Play(1, parse_card("1C"))]

    result = replay_round(start, plays)

    assert result.rejection is not None
    assert result.rejection.play_index == 2
    assert isinstance(result.rejection.violation, NotYourTurn)
    assert len(result.state.tricks) == 1


def test_undoing_the_last_play_gives_the_state_before_it() -> None:
    before = play(physical_round(table_size=4), (1, "5C"), (2, "1C"), (3, "3C"))

    assert undo_last_play(play(before, (0, "10C"))) == before
    assert undo_last_play(play(before, (0, "10C"), (2, "10D"))) == play(before, (0, "10C"))


def test_undo_needs_a_card_on_the_table() -> None:
    with pytest.raises(NothingToUndo) as error:
        undo_last_play(physical_round())

    assert error.value.code == "nothing_to_undo"


def corrected_round(corrected_card: str) -> ReplayResult:
    """A physical round whose second card (seat 0's 6C) is corrected."""
    plays = [(1, "5C"), (0, corrected_card), (0, "1B"), (1, "2B"), (0, "4S"), (1, "3C")]
    start = StartRound(2, 0, parse_card("7D"))
    return replay_round(start, [Play(seat, parse_card(code)) for seat, code in plays])


def test_a_correction_that_leaves_the_rest_legal_is_accepted() -> None:
    assert corrected_round("6C").is_legal
    assert corrected_round("7C").is_legal


@pytest.mark.parametrize(
    ("corrected_card", "rejected_at", "violation"),
    [("3C", 5, CardAlreadyPlayed), ("4C", 2, NotYourTurn)],
)
def test_a_correction_is_refused_at_the_first_play_it_makes_illegal(
    corrected_card: str, rejected_at: int, violation: type[RuleViolation]
) -> None:
    rejection = corrected_round(corrected_card).rejection

    assert rejection is not None
    assert rejection.play_index == rejected_at
    assert isinstance(rejection.violation, violation)
