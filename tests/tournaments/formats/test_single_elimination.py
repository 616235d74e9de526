"""Single elimination: seeding order, byes to the top seeds, third place, placements."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.builders import (
    field,
    first_round_pairs,
    higher_seed_wins,
    play_out,
    random_winner,
)
from tournaments.formats.bracket import BYE, Advance, Known, LoserOf, WinnerOf
from tournaments.formats.resolution import SlotStatus, resolve
from tournaments.formats.single_elimination import bracket_line_seeds, single_elimination_bracket

FIELD_SIZES = st.integers(min_value=2, max_value=128)


def test_eight_seeds_are_paired_1v8_4v5_2v7_3v6_in_bracket_order() -> None:
    bracket = single_elimination_bracket(field(8, first_id=1))

    assert first_round_pairs(bracket) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_sixteen_seeds_follow_the_standard_order() -> None:
    assert bracket_line_seeds(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128, 256])
def test_the_top_seeds_are_spread_so_they_meet_as_late_as_possible(size: int) -> None:
    order = bracket_line_seeds(size)
    # Seeds 1..2^j sit in distinct parts of size / 2^j lines: seeds 1 and 2 in different
    # halves (they can meet only in the final), seeds 1 to 4 in different quarters, and so on.
    parts = 1
    while parts <= size:
        width = size // parts
        part_of = {seed: order.index(seed) // width for seed in range(1, parts + 1)}
        assert len(set(part_of.values())) == parts
        parts *= 2


def test_seeds_one_and_two_meet_only_in_the_final_when_favourites_win() -> None:
    bracket = single_elimination_bracket(field(16, first_id=1))

    state, _ = play_out(bracket, higher_seed_wins(bracket))

    final = state.slot("R4-1")
    assert (final.home, final.away) == (1, 2)
    semifinals = [state.slot(slot_id) for slot_id in ("R3-1", "R3-2")]
    assert [(slot.home, slot.away) for slot in semifinals] == [(1, 4), (2, 3)]


def test_slot_ids_name_the_round_and_the_position_and_the_final_closes_the_bracket() -> None:
    bracket = single_elimination_bracket(field(8), third_place=True)

    assert [slot.id for slot in bracket.slots] == [
        "R1-1", "R1-2", "R1-3", "R1-4", "R2-1", "R2-2", "3P", "R3-1",
    ]  # fmt: skip
    assert [round_.id for round_ in bracket.rounds] == ["R1", "R2", "3P", "R3"]


def test_each_winner_goes_to_the_next_round_and_semifinal_losers_to_third_place() -> None:
    bracket = single_elimination_bracket(field(8), third_place=True)

    assert bracket.slot("R1-1").winner_to == Advance("R2-1", "home")
    assert bracket.slot("R1-2").winner_to == Advance("R2-1", "away")
    assert bracket.slot("R1-2").loser_to is None
    assert bracket.slot("R2-2").loser_to == Advance("3P", "away")
    assert bracket.slot("R3-1").sources == (WinnerOf("R2-1"), WinnerOf("R2-2"))
    assert bracket.slot("3P").sources == (LoserOf("R2-1"), LoserOf("R2-2"))


def test_byes_go_to_the_top_seeds_and_advance_without_a_match() -> None:
    bracket = single_elimination_bracket(field(5, first_id=1))

    assert first_round_pairs(bracket) == [(1, None), (4, 5), (2, None), (3, None)]
    assert bracket.slot("R1-1").sources == (Known(1), BYE)
    state = resolve(bracket, {})
    assert state.slot("R1-1").status is SlotStatus.WALKOVER
    assert state.ready == ("R1-2", "R2-2")
    assert (state.slot("R2-2").home, state.slot("R2-2").away) == (2, 3)


def test_semifinal_losers_share_third_place_without_a_third_place_match() -> None:
    bracket = single_elimination_bracket(field(8, first_id=1))

    state, _ = play_out(bracket, higher_seed_wins(bracket))

    assert [(p.entrant, p.place) for p in state.placements] == [
        (1, 1), (2, 2), (3, 3), (4, 3), (5, 5), (6, 5), (7, 5), (8, 5),
    ]  # fmt: skip
    assert state.champion == 1


def test_the_third_place_match_separates_the_semifinal_losers() -> None:
    bracket = single_elimination_bracket(field(4, first_id=1), third_place=True)
    results = {"R1-1": 1, "R1-2": 3}

    assert resolve(bracket, results).ready == ("3P", "R2-1")
    state = resolve(bracket, results | {"3P": 2, "R2-1": 3})

    assert state.finished
    assert [(p.entrant, p.place) for p in state.placements] == [(3, 1), (1, 2), (2, 3), (4, 4)]


def test_two_entrants_play_only_a_final_even_when_third_place_is_asked_for() -> None:
    bracket = single_elimination_bracket([7, 9], third_place=True)

    assert [slot.id for slot in bracket.slots] == ["R1-1"]
    assert not bracket.third_place
    state = resolve(bracket, {"R1-1": 9})
    assert state.finished
    assert state.champion == 9


def test_with_three_entrants_the_third_place_goes_to_the_only_real_semifinal_loser() -> None:
    bracket = single_elimination_bracket([7, 8, 9], third_place=True)

    state = resolve(bracket, {"R1-2": 8, "R2-1": 7})

    assert state.slot("3P").status is SlotStatus.WALKOVER
    assert state.finished
    assert [(p.entrant, p.place) for p in state.placements] == [(7, 1), (8, 2), (9, 3)]


@settings(max_examples=150, deadline=None)
@given(size=FIELD_SIZES, third_place=st.booleans())
def test_every_entrant_appears_once_in_the_first_round(size: int, third_place: bool) -> None:
    entrants = field(size)
    bracket = single_elimination_bracket(entrants, third_place=third_place)

    seated = [entrant for pair in first_round_pairs(bracket) for entrant in pair if entrant]

    assert sorted(seated) == entrants


@settings(max_examples=150, deadline=None)
@given(size=FIELD_SIZES)
def test_byes_go_only_to_the_top_seeds(size: int) -> None:
    entrants = field(size)
    bracket = single_elimination_bracket(entrants)

    with_bye = {
        home or away for home, away in first_round_pairs(bracket) if home is None or away is None
    }

    assert with_bye == set(entrants[: bracket.size - size])
    assert all(home is not None or away is not None for home, away in first_round_pairs(bracket))


@settings(max_examples=150, deadline=None)
@given(size=FIELD_SIZES, third_place=st.booleans(), seed=st.integers(0, 2**32))
def test_playing_random_results_gives_one_champion_and_full_placements(
    size: int, third_place: bool, seed: int
) -> None:
    bracket = single_elimination_bracket(field(size), third_place=third_place)

    state, results = play_out(bracket, random_winner(random.Random(seed)))

    has_third_place_match = third_place and size >= 4
    assert len(results) == size - 1 + has_third_place_match
    assert state.played == tuple(slot.id for slot in bracket.slots if slot.id in results)
    assert sorted(p.entrant for p in state.placements) == field(size)
    assert [p.entrant for p in state.placements if p.place == 1] == [state.champion]
    places = [p.place for p in state.placements]
    assert places == [1 + sum(other < place for other in places) for place in places]
