"""A match stream at three under the variant option `three_winner` (decision record 0031)."""

import pytest

from games.matches.stream.commands import CreateMatch, EnterRoundPoints, StartNextRound
from games.matches.stream.decide import decide
from games.matches.stream.events import SideRef, match_event_from_stored
from games.matches.stream.evolve import fold
from games.matches.stream.state import MatchAggregate
from games.rules.errors import InvalidVariant
from games.rules.match import MatchFormat
from games.rules.variants import DEFAULT_VARIANT, Variant
from tests.games.matches.builders import run, scored_round

THREE_SIDES: tuple[SideRef, ...] = ({}, {}, {})
AT_LEAST_61 = Variant(three_winner="at_least_61")


def match_at_three(variant: Variant, match_format: MatchFormat) -> MatchAggregate:
    return run(None, CreateMatch(3, match_format, THREE_SIDES, variant))


def test_a_match_created_with_the_default_rule_records_the_variant_as_before() -> None:
    [created] = decide(None, CreateMatch(3, MatchFormat.best_of(1), THREE_SIDES, DEFAULT_VARIANT))

    assert created.to_payload()["variant"] == {
        "hand_size": 3,
        "three_ranks_as_three": False,
        "removed_card_for_three": "2B",
        "deck_names": "italian",
    }


def test_an_old_stream_at_three_folds_its_entered_points_to_the_most_points() -> None:
    recorded = [
        match_event_from_stored(
            "MatchCreated",
            {
                "table_size": 3,
                "format": {"scoring": "best_of", "rounds": 1},
                "sides": [{}, {}, {}],
                "variant": {
                    "hand_size": 3,
                    "three_ranks_as_three": False,
                    "removed_card_for_three": "2B",
                    "deck_names": "italian",
                },
                "first_dealer": 0,
            },
        )
    ]
    state = run(fold(recorded), StartNextRound(briscola=None), EnterRoundPoints(1, (50, 40, 30)))

    assert state.is_finished
    assert state.winner == 0


def test_under_at_least_61_entered_points_below_61_are_a_tie_and_the_round_is_replayed() -> None:
    state = match_at_three(AT_LEAST_61, MatchFormat.best_of(1))

    short = scored_round(state, 50, 40, 30)
    won = scored_round(short, 29, 30, 61)

    assert short.rounds[0].outcome is not None
    assert short.rounds[0].outcome.is_tie
    assert not short.is_finished
    assert won.replay_of == {2: 1}
    assert won.winner == 2


def test_a_deciding_round_where_nobody_reaches_61_is_replayed() -> None:
    state = match_at_three(AT_LEAST_61, MatchFormat.fixed_rounds(1, decider="round"))
    level = scored_round(state, 50, 50, 20)

    still_level = scored_round(level, 60, 40, 20)
    decided = scored_round(still_level, 10, 70, 40)

    assert level.deciding_round_due
    assert still_level.deciding_round_due
    assert decided.replay_of == {3: 2}
    assert decided.winner == 1


@pytest.mark.parametrize("table_size", [2, 4, 6])
def test_a_match_of_two_four_or_six_with_at_least_61_is_refused(table_size: int) -> None:
    sides: tuple[SideRef, ...] = ({}, {})

    with pytest.raises(InvalidVariant) as error:
        decide(None, CreateMatch(table_size, MatchFormat.best_of(1), sides, AT_LEAST_61))

    assert error.value.code == "invalid_variant"
