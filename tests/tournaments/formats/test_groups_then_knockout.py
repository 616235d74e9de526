"""Groups then knockout: snake-seeded groups, tiered seeds, crossing in the first knockout round."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.builders import field, first_round_pairs
from tournaments.formats.bracket import Kind
from tournaments.formats.errors import DuplicateEntrant, InvalidFormatOption, InvalidStandings
from tournaments.formats.groups_then_knockout import (
    knockout_bracket,
    knockout_seeds,
    knockout_stage,
    plan_groups_then_knockout,
)

# Group standings with readable ids: 11 is the winner of A, 12 its runner-up, 21 the winner of B.
FOUR_GROUPS = [[11, 12, 13], [21, 22, 23], [31, 32, 33], [41, 42, 43]]


def test_group_winners_meet_runners_up_of_the_neighbouring_group() -> None:
    bracket = knockout_bracket(FOUR_GROUPS, qualifiers_per_group=2)

    assert first_round_pairs(bracket) == [(11, 22), (41, 32), (21, 12), (31, 42)]


def test_with_two_groups_each_winner_meets_the_other_runner_up() -> None:
    bracket = knockout_bracket(FOUR_GROUPS[:2], qualifiers_per_group=2)

    assert first_round_pairs(bracket) == [(11, 22), (21, 12)]


def test_group_winners_are_seeded_above_runners_up_in_group_order() -> None:
    seeds = knockout_seeds(FOUR_GROUPS, qualifiers_per_group=2)

    assert seeds[:4] == (11, 21, 31, 41)
    assert set(seeds[4:]) == {12, 22, 32, 42}


def test_with_three_groups_the_first_two_winners_get_the_byes() -> None:
    bracket = knockout_bracket(FOUR_GROUPS[:3], qualifiers_per_group=2)

    pairs = first_round_pairs(bracket)
    assert pairs[0] == (11, None)
    assert pairs[2] == (21, None)
    assert (31, 12) in pairs


def test_a_third_place_match_can_be_asked_for() -> None:
    bracket = knockout_bracket(FOUR_GROUPS, qualifiers_per_group=2, third_place=True)

    assert bracket.kind is Kind.SINGLE_ELIMINATION
    assert bracket.has_slot("3P")


def test_the_plan_snake_seeds_the_groups_and_schedules_each_as_a_round_robin() -> None:
    plan = plan_groups_then_knockout(field(8, first_id=1), group_count=2, qualifiers_per_group=2)

    groups = plan.group_stage.groups
    assert [(group.label, group.entrants) for group in groups] == [
        ("A", (1, 4, 5, 8)),
        ("B", (2, 3, 6, 7)),
    ]
    assert groups[1].schedule.pairings[0].id == "B-R1-1"
    assert len(groups[0].schedule.rounds) == 3


def test_the_knockout_stage_takes_the_top_of_each_group_standings() -> None:
    plan = plan_groups_then_knockout(field(8, first_id=1), group_count=2, qualifiers_per_group=2)

    bracket = knockout_stage(plan, [[5, 1, 4, 8], [2, 7, 3, 6]])

    assert first_round_pairs(bracket) == [(5, 7), (2, 1)]


def test_standings_for_the_wrong_number_of_groups_are_rejected() -> None:
    plan = plan_groups_then_knockout(field(8, first_id=1), group_count=2, qualifiers_per_group=2)

    with pytest.raises(InvalidStandings) as error:
        knockout_stage(plan, [[1, 4, 5, 8]])

    assert error.value.code == "invalid_standings"


def test_standings_that_do_not_list_the_group_entrants_are_rejected() -> None:
    plan = plan_groups_then_knockout(field(8, first_id=1), group_count=2, qualifiers_per_group=2)

    with pytest.raises(InvalidStandings, match="group B"):
        knockout_stage(plan, [[1, 4, 5, 8], [2, 3, 6, 6]])


@pytest.mark.parametrize("qualifiers", [0, 5])
def test_qualifiers_per_group_must_fit_the_smallest_group(qualifiers: int) -> None:
    with pytest.raises(InvalidFormatOption, match="1 to 4 entrants per group"):
        plan_groups_then_knockout(field(9), group_count=2, qualifiers_per_group=qualifiers)


def test_one_qualifier_from_a_single_group_is_no_knockout() -> None:
    with pytest.raises(InvalidFormatOption):
        plan_groups_then_knockout(field(4), group_count=1, qualifiers_per_group=1)


def test_an_entrant_in_two_groups_is_rejected() -> None:
    with pytest.raises(DuplicateEntrant):
        knockout_seeds([[1, 2], [2, 3]], qualifiers_per_group=2)


def test_a_group_smaller_than_the_qualifiers_sends_everyone_it_has() -> None:
    assert knockout_seeds([[1, 2, 3], [4, 5]], qualifiers_per_group=3) == (1, 4, 2, 5, 3)


@settings(max_examples=150, deadline=None)
@given(size=st.integers(min_value=4, max_value=128), data=st.data())
def test_groups_are_even_and_the_knockout_keeps_group_mates_apart_in_the_first_round(
    size: int, data: st.DataObject
) -> None:
    group_count = data.draw(st.integers(min_value=2, max_value=min(16, size // 2)), label="groups")
    smallest = size // group_count
    qualifiers = data.draw(st.integers(min_value=1, max_value=min(4, smallest)), label="qualify")
    plan = plan_groups_then_knockout(
        field(size), group_count=group_count, qualifiers_per_group=qualifiers
    )
    groups = plan.group_stage.groups
    # Any standings will do: reverse every other group so the winners are not always seed order.
    standings = [
        list(group.entrants)[:: -1 if index % 2 else 1] for index, group in enumerate(groups)
    ]

    bracket = knockout_stage(plan, standings)

    sizes = [len(group.entrants) for group in groups]
    assert max(sizes) - min(sizes) <= 1
    qualified = [entrant for table in standings for entrant in table[:qualifiers]]
    assert sorted(bracket.entrants) == sorted(qualified)
    assert bracket.entrants[:group_count] == tuple(table[0] for table in standings)
    group_of = {entrant: index for index, table in enumerate(standings) for entrant in table}
    for home, away in first_round_pairs(bracket):
        if home is not None and away is not None:
            assert group_of[home] != group_of[away]
