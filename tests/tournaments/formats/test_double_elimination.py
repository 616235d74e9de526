"""Double elimination: losers-bracket placement, grand final and reset, losses, placements."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.builders import field, higher_seed_wins, play_out, random_winner
from tournaments.formats.bracket import LoserOf, WinnerOf
from tournaments.formats.double_elimination import double_elimination_bracket, drop_orders
from tournaments.formats.resolution import BracketState, SlotStatus, resolve

FIELD_SIZES = st.integers(min_value=2, max_value=128)


def losses(state: BracketState) -> Counter[int]:
    return Counter(
        slot.loser for slot in state.slots if slot.status is SlotStatus.DONE and slot.loser
    )


def test_losers_of_the_first_winners_round_pair_up_in_the_first_losers_round() -> None:
    bracket = double_elimination_bracket(field(8))

    assert bracket.slot("L1-1").sources == (LoserOf("W1-1"), LoserOf("W1-2"))
    assert bracket.slot("L1-2").sources == (LoserOf("W1-3"), LoserOf("W1-4"))


def test_losers_of_the_second_winners_round_drop_in_reverse_order() -> None:
    bracket = double_elimination_bracket(field(8))

    assert bracket.slot("L2-1").sources == (WinnerOf("L1-1"), LoserOf("W2-2"))
    assert bracket.slot("L2-2").sources == (WinnerOf("L1-2"), LoserOf("W2-1"))
    assert bracket.slot("L3-1").sources == (WinnerOf("L2-1"), WinnerOf("L2-2"))
    assert bracket.slot("L4-1").sources == (WinnerOf("L3-1"), LoserOf("W3-1"))


def test_later_drops_swap_and_reverse_halves_so_nobody_meets_whom_they_just_beat() -> None:
    assert drop_orders(16) == ((1, 0, 3, 2), (1, 0), (0,))
    assert drop_orders(32)[:2] == ((7, 6, 5, 4, 3, 2, 1, 0), (2, 3, 0, 1))


def test_slots_are_listed_in_a_playing_order_with_every_slot_after_its_sources() -> None:
    bracket = double_elimination_bracket(field(8))

    assert [round_.id for round_ in bracket.rounds] == [
        "W1", "W2", "L1", "L2", "W3", "L3", "L4", "GF", "GF2",
    ]  # fmt: skip
    seen: set[str] = set()
    for slot in bracket.slots:
        for source in slot.sources:
            if isinstance(source, WinnerOf | LoserOf):
                assert source.slot in seen
        seen.add(slot.id)


def test_the_grand_final_sets_the_winners_champion_against_the_losers_champion() -> None:
    bracket = double_elimination_bracket(field(8))

    assert bracket.slot("GF").sources == (WinnerOf("W3-1"), WinnerOf("L4-1"))
    assert bracket.slot("GF2").sources == (WinnerOf("GF"), LoserOf("GF"))
    assert bracket.slot("GF2").reset_of == "GF"


def test_no_reset_is_played_when_the_winners_champion_wins_the_grand_final() -> None:
    bracket = double_elimination_bracket([7, 9])

    state = resolve(bracket, {"W1-1": 7, "GF": 7})

    assert state.slot("GF2").status is SlotStatus.NOT_NEEDED
    assert state.finished
    assert [(p.entrant, p.place) for p in state.placements] == [(7, 1), (9, 2)]


def test_the_reset_is_played_when_the_losers_champion_wins_the_grand_final() -> None:
    bracket = double_elimination_bracket([7, 9])

    state = resolve(bracket, {"W1-1": 7, "GF": 9})

    assert state.ready == ("GF2",)
    assert not state.finished
    assert state.placements == ()
    state = resolve(bracket, {"W1-1": 7, "GF": 9, "GF2": 9})
    assert state.finished
    assert state.champion == 9


def test_without_reset_the_grand_final_decides_the_champion() -> None:
    bracket = double_elimination_bracket([7, 9], grand_final_reset=False)

    state = resolve(bracket, {"W1-1": 7, "GF": 9})

    assert [slot.id for slot in bracket.slots] == ["W1-1", "GF"]
    assert state.finished
    assert state.champion == 9


def test_losers_rounds_give_shared_places_below_the_finalists() -> None:
    bracket = double_elimination_bracket(field(8, first_id=1))

    state, _ = play_out(bracket, higher_seed_wins(bracket))

    assert [(p.entrant, p.place) for p in state.placements] == [
        (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 5), (7, 7), (8, 7),
    ]  # fmt: skip


def test_byes_drop_into_the_losers_bracket_and_are_skipped_there() -> None:
    bracket = double_elimination_bracket(field(5, first_id=1))

    state = resolve(bracket, {"W1-2": 4})

    assert state.slot("L1-1").status is SlotStatus.WALKOVER
    assert state.slot("L1-1").winner == 5
    assert state.slot("L1-2").status is SlotStatus.EMPTY
    assert state.slot("L2-1").home == 5


@pytest.mark.parametrize("size", [8, 16, 32, 64, 128])
def test_losers_dropping_from_winners_rounds_two_and_three_never_meet_whom_they_beat(
    size: int,
) -> None:
    bracket = double_elimination_bracket(field(size))
    rounds = bracket.size.bit_length() - 1
    rng = random.Random(size)
    for _ in range(20):
        state, _ = play_out(bracket, random_winner(rng))
        beaten = {
            (slot.winner, slot.loser)
            for slot in state.slots
            if slot.status is SlotStatus.DONE and slot.slot_id.startswith("W")
        }
        for number in range(2, min(3, rounds - 1) + 1):
            for slot_id in bracket.round(f"L{2 * number - 2}").slot_ids:
                slot = state.slot(slot_id)
                assert (slot.away, slot.home) not in beaten


@settings(max_examples=120, deadline=None)
@given(size=FIELD_SIZES, reset=st.booleans(), seed=st.integers(0, 2**32))
def test_playing_random_results_eliminates_everyone_after_two_losses_but_the_champion(
    size: int, reset: bool, seed: int
) -> None:
    bracket = double_elimination_bracket(field(size), grand_final_reset=reset)

    state, results = play_out(bracket, random_winner(random.Random(seed)))

    lost = losses(state)
    assert state.champion is not None
    assert max(lost.values()) <= 2
    assert lost[state.champion] <= 1
    finalists = set(state.slot("GF").entrants)
    assert all(lost[entrant] == 2 for entrant in field(size) if entrant not in finalists)
    reset_played = state.slot("GF2").status is SlotStatus.DONE if reset else False
    assert len(results) == 2 * size - 2 + reset_played
    assert sorted(p.entrant for p in state.placements) == field(size)
    places = [p.place for p in state.placements]
    assert places == [1 + sum(other < place for other in places) for place in places]
