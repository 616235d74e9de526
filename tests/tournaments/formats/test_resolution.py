"""Resolving results into a bracket, rejecting impossible ones, resetting after a correction."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.builders import field, random_winner
from tournaments.formats.bracket import Bracket
from tournaments.formats.double_elimination import double_elimination_bracket
from tournaments.formats.errors import InvalidEntrant, SlotNotPlayable, UnknownSlot, WinnerNotInSlot
from tournaments.formats.resolution import SlotStatus, dependent_slots, resolve, slots_to_reset
from tournaments.formats.single_elimination import single_elimination_bracket


def eight() -> Bracket:
    return single_elimination_bracket(field(8, first_id=1), third_place=True)


def test_with_no_results_only_the_first_round_is_ready() -> None:
    state = resolve(eight(), {})

    assert state.ready == ("R1-1", "R1-2", "R1-3", "R1-4")
    assert state.slot("R2-1").status is SlotStatus.PENDING
    assert not state.finished
    assert state.placements == ()
    assert state.champion is None


def test_a_winner_moves_into_the_next_slot_before_the_opponent_is_known() -> None:
    state = resolve(eight(), {"R1-1": 8})

    assert state.slot("R1-1").status is SlotStatus.DONE
    assert (state.slot("R1-1").winner, state.slot("R1-1").loser) == (8, 1)
    assert (state.slot("R2-1").home, state.slot("R2-1").away) == (8, None)
    assert state.slot("R2-1").status is SlotStatus.PENDING
    assert state.place_of(1) == 5


def test_a_result_for_a_slot_the_bracket_lacks_is_rejected() -> None:
    with pytest.raises(UnknownSlot) as error:
        resolve(eight(), {"W1-1": 1})

    assert error.value.code == "unknown_slot"


def test_a_winner_who_does_not_play_in_the_slot_is_rejected() -> None:
    with pytest.raises(WinnerNotInSlot) as error:
        resolve(eight(), {"R1-1": 2})

    assert error.value.to_dict() == {
        "code": "winner_not_in_slot",
        "detail": "entrant 2 does not play in R1-1 (1 v 8)",
    }


def test_a_winner_that_is_not_an_entrant_id_is_rejected() -> None:
    with pytest.raises(InvalidEntrant):
        resolve(eight(), {"R1-1": "1"})  # type: ignore[dict-item]


def test_a_result_for_a_slot_whose_entrants_are_not_known_is_rejected() -> None:
    with pytest.raises(SlotNotPlayable) as error:
        resolve(eight(), {"R1-1": 1, "R2-1": 1})

    assert error.value.code == "slot_not_playable"
    assert "not known yet" in error.value.detail


def test_a_result_for_a_bye_is_rejected() -> None:
    bracket = single_elimination_bracket(field(3, first_id=1))

    with pytest.raises(SlotNotPlayable, match="bye"):
        resolve(bracket, {"R1-1": 1})


def test_a_result_for_a_reset_that_is_not_needed_is_rejected() -> None:
    bracket = double_elimination_bracket([7, 9])

    with pytest.raises(SlotNotPlayable, match="winners-bracket champion"):
        resolve(bracket, {"W1-1": 7, "GF": 7, "GF2": 9})


def test_dependent_slots_follow_both_the_winner_and_the_loser() -> None:
    bracket = double_elimination_bracket(field(4))

    assert dependent_slots(bracket, "W1-1") == ("W2-1", "L1-1", "L2-1", "GF", "GF2")
    assert dependent_slots(bracket, "GF2") == ()


def test_correcting_a_first_round_result_resets_the_played_and_scheduled_slots_after_it() -> None:
    bracket = eight()
    old = {"R1-1": 1, "R1-2": 4, "R1-3": 2, "R1-4": 3, "R2-1": 1, "R2-2": 2}
    new = old | {"R1-1": 8}

    assert slots_to_reset(bracket, old, new) == ("R2-1", "3P", "R3-1")


def test_slots_that_do_not_depend_on_the_corrected_one_keep_their_results() -> None:
    bracket = eight()
    old = {"R1-1": 1, "R1-2": 4, "R1-3": 2, "R1-4": 3, "R2-2": 2}

    assert slots_to_reset(bracket, old, old | {"R1-1": 8}) == ("R2-1",)
    assert slots_to_reset(bracket, old, old | {"R1-3": 7}) == ("R2-2",)


def test_withdrawing_a_result_resets_the_slots_that_followed_from_it() -> None:
    bracket = eight()
    old = {"R1-1": 1, "R1-2": 4}
    new = {"R1-2": 4}

    assert slots_to_reset(bracket, old, new) == ("R2-1",)


def test_adding_a_result_resets_nothing() -> None:
    bracket = eight()

    assert slots_to_reset(bracket, {"R1-1": 1}, {"R1-1": 1, "R1-2": 4}) == ()


def test_correcting_the_grand_final_for_the_winners_champion_resets_the_reset() -> None:
    bracket = double_elimination_bracket([7, 9])
    old = {"W1-1": 7, "GF": 9, "GF2": 9}
    new = old | {"GF": 7}

    assert slots_to_reset(bracket, old, new) == ("GF2",)
    state = resolve(bracket, {"W1-1": 7, "GF": 7})
    assert state.champion == 7


def test_correcting_the_grand_final_for_the_losers_champion_calls_for_the_reset() -> None:
    bracket = double_elimination_bracket([7, 9])
    old = {"W1-1": 7, "GF": 7}

    assert slots_to_reset(bracket, old, old | {"GF": 9}) == ()
    assert resolve(bracket, old | {"GF": 9}).ready == ("GF2",)


def test_a_correction_naming_an_unknown_slot_is_rejected() -> None:
    with pytest.raises(UnknownSlot):
        slots_to_reset(eight(), {}, {"X": 1})


@settings(max_examples=100, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=64),
    double=st.booleans(),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_after_a_correction_dropping_the_reset_slots_leaves_valid_results(
    size: int, double: bool, seed: int, data: st.DataObject
) -> None:
    builder = double_elimination_bracket if double else single_elimination_bracket
    bracket = builder(field(size))
    rng = random.Random(seed)
    pick = random_winner(rng)
    results: dict[str, int] = {}
    for _ in range(data.draw(st.integers(min_value=1, max_value=2 * size), label="steps")):
        state = resolve(bracket, results)
        if not state.ready:
            break
        slot_id = rng.choice(state.ready)
        results[slot_id] = pick(state.slot(slot_id))
    corrected = data.draw(st.sampled_from(sorted(results)), label="corrected")
    before = resolve(bracket, results)
    loser = before.slot(corrected).loser
    assert loser is not None
    new = results | {corrected: loser}

    reset = slots_to_reset(bracket, results, new)
    kept = {slot_id: winner for slot_id, winner in new.items() if slot_id not in reset}

    after = resolve(bracket, kept)
    assert after.slot(corrected).winner == loser
    assert set(reset) <= set(dependent_slots(bracket, corrected))
    for slot_id in set(results) - set(reset) - {corrected}:
        assert after.slot(slot_id).winner == results[slot_id]


def test_a_correction_naming_a_winner_who_did_not_play_is_rejected() -> None:
    bracket = eight()
    old = {"R1-1": 1, "R1-2": 4, "R2-1": 1}

    with pytest.raises(WinnerNotInSlot):
        slots_to_reset(bracket, old, old | {"R1-1": 4})


def test_asking_a_bracket_state_for_a_slot_it_lacks_is_rejected() -> None:
    with pytest.raises(UnknownSlot):
        resolve(eight(), {}).slot("GF")
