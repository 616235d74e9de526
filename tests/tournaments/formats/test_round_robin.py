"""Round robin by the circle method, legs, byes, and snake seeding into groups."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.builders import field
from tournaments.formats.errors import InvalidFormatOption, TooFewEntrants
from tournaments.formats.round_robin import (
    RoundRobin,
    group_label,
    round_robin_schedule,
    snake_groups,
)

FIELD_SIZES = st.integers(min_value=2, max_value=128)


def pairs_of(schedule: RoundRobin, leg: int) -> list[tuple[int, int]]:
    return [
        (pairing.home, pairing.away)
        for round_ in schedule.rounds
        if round_.leg == leg
        for pairing in round_.pairings
    ]


def test_four_entrants_play_three_rounds_of_two_matches() -> None:
    schedule = round_robin_schedule([1, 2, 3, 4])

    assert [[(p.home, p.away) for p in r.pairings] for r in schedule.rounds] == [
        [(1, 4), (2, 3)],
        [(3, 1), (4, 2)],
        [(1, 2), (3, 4)],
    ]
    assert [p.id for p in schedule.rounds[1].pairings] == ["R2-1", "R2-2"]
    assert all(r.bye is None for r in schedule.rounds)


def test_an_odd_field_gives_one_entrant_a_bye_each_round() -> None:
    schedule = round_robin_schedule([1, 2, 3, 4, 5])

    assert len(schedule.rounds) == 5
    assert [r.bye for r in schedule.rounds] == [5, 4, 3, 2, 1]
    assert all(len(r.pairings) == 2 for r in schedule.rounds)


def test_the_second_leg_replays_the_first_with_sides_swapped() -> None:
    schedule = round_robin_schedule([1, 2, 3, 4], legs=2)

    first, second = schedule.rounds[:3], schedule.rounds[3:]
    assert [r.number for r in second] == [4, 5, 6]
    assert {r.leg for r in second} == {2}
    for one, two in zip(first, second, strict=True):
        assert [(p.away, p.home) for p in one.pairings] == [(p.home, p.away) for p in two.pairings]


def test_pairing_ids_carry_the_given_prefix() -> None:
    schedule = round_robin_schedule([1, 2, 3], id_prefix="B-")

    assert [p.id for p in schedule.pairings] == ["B-R1-1", "B-R2-1", "B-R3-1"]


@pytest.mark.parametrize("legs", [0, 3])
def test_a_round_robin_has_one_or_two_legs(legs: int) -> None:
    with pytest.raises(InvalidFormatOption) as error:
        round_robin_schedule([1, 2, 3], legs=legs)

    assert error.value.code == "invalid_format_option"


def test_a_round_robin_needs_two_entrants() -> None:
    with pytest.raises(TooFewEntrants):
        round_robin_schedule([1])


@settings(max_examples=60, deadline=None)
@given(size=FIELD_SIZES, legs=st.sampled_from([1, 2]))
def test_everyone_meets_everyone_exactly_once_per_leg(size: int, legs: int) -> None:
    entrants = field(size)
    schedule = round_robin_schedule(entrants, legs=legs)

    expected = Counter(frozenset(pair) for pair in combinations(entrants, 2))
    for leg in range(1, legs + 1):
        assert Counter(frozenset(pair) for pair in pairs_of(schedule, leg)) == expected
    assert len(schedule.rounds) == legs * (size - 1 + size % 2)


@settings(max_examples=60, deadline=None)
@given(size=FIELD_SIZES)
def test_nobody_plays_twice_in_a_round_and_the_bye_rotates(size: int) -> None:
    entrants = field(size)
    schedule = round_robin_schedule(entrants, legs=2)

    for round_ in schedule.rounds:
        playing = [entrant for pairing in round_.pairings for entrant in pairing.entrants]
        sitting_out = [round_.bye] if round_.bye is not None else []
        assert sorted(playing + sitting_out) == entrants
    byes = Counter(round_.bye for round_ in schedule.rounds if round_.bye is not None)
    assert byes == (Counter(dict.fromkeys(entrants, 2)) if size % 2 else Counter())


@settings(max_examples=60, deadline=None)
@given(size=FIELD_SIZES)
def test_everyone_plays_at_home_about_as_often_as_away(size: int) -> None:
    schedule = round_robin_schedule(field(size))

    home = Counter(pairing.home for pairing in schedule.pairings)
    away = Counter(pairing.away for pairing in schedule.pairings)
    assert all(abs(home[entrant] - away[entrant]) <= 1 for entrant in field(size))


def test_snake_seeding_deals_seeds_forwards_then_backwards() -> None:
    assert snake_groups(range(1, 11), 3) == ((1, 6, 7), (2, 5, 8), (3, 4, 9, 10))
    assert snake_groups(range(1, 9), 4) == ((1, 8), (2, 7), (3, 6), (4, 5))


def test_groups_are_labelled_like_spreadsheet_columns() -> None:
    assert [group_label(i) for i in (0, 1, 25, 26, 27, 701, 702)] == [
        "A", "B", "Z", "AA", "AB", "ZZ", "AAA",
    ]  # fmt: skip


@pytest.mark.parametrize("group_count", [0, 6])
def test_groups_need_at_least_two_entrants_each(group_count: int) -> None:
    with pytest.raises(InvalidFormatOption, match="1 to 5 groups"):
        snake_groups(range(1, 11), group_count)


@settings(max_examples=100, deadline=None)
@given(size=FIELD_SIZES, data=st.data())
def test_snake_groups_differ_in_size_by_at_most_one_and_hold_every_entrant_once(
    size: int, data: st.DataObject
) -> None:
    group_count = data.draw(st.integers(min_value=1, max_value=size // 2))
    groups = snake_groups(field(size), group_count)

    sizes = [len(group) for group in groups]
    assert max(sizes) - min(sizes) <= 1
    assert sorted(entrant for group in groups for entrant in group) == field(size)
    assert [group[0] for group in groups] == field(size)[:group_count]
