"""Tables of three: the remainder rule, round robin and Swiss draws (decision record 0031)."""

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.builders import field
from tournaments.formats.errors import InvalidFormatOption, SwissRoundOutOfRange, TooFewEntrants
from tournaments.formats.swiss import SwissEntrant
from tournaments.formats.threes import (
    Table,
    byes_per_round,
    full_round_robin_rounds,
    round_robin_threes_schedule,
    swiss_threes_round,
    table_sizes,
)


def seated(tables: Sequence[Table]) -> list[int]:
    return [entrant for table in tables for entrant in table.entrants]


def meeting_counts(tables: Sequence[Table], entrants: Sequence[int]) -> list[int]:
    met = Counter(pair for table in tables for pair in combinations(sorted(table.entrants), 2))
    return [met[pair] for pair in combinations(sorted(entrants), 2)]


# The remainder rule -------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(3, 61))
def test_a_round_is_tables_of_three_with_one_bye_or_one_table_of_two_only_when_forced(
    size: int,
) -> None:
    sizes = table_sizes(size)

    assert sum(sizes) + byes_per_round(size) == size
    assert all(table in (2, 3) for table in sizes)
    assert sizes.count(2) == (1 if size % 3 == 2 else 0)
    assert byes_per_round(size) == (1 if size % 3 == 1 else 0)


def test_tables_of_three_need_three_entrants() -> None:
    with pytest.raises(TooFewEntrants):
        round_robin_threes_schedule(field(2))
    with pytest.raises(TooFewEntrants):
        swiss_threes_round(rounds=1, round_number=1, standings=level(field(2)))


# Round robin --------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", range(3, 22))
def test_a_round_robin_in_threes_seats_everyone_each_round_but_the_one_bye(size: int) -> None:
    entrants = field(size)

    schedule = round_robin_threes_schedule(entrants)

    assert len(schedule.rounds) == full_round_robin_rounds(size)
    byes: Counter[int] = Counter()
    twos: Counter[int] = Counter()
    for round_ in schedule.rounds:
        present = seated(round_.tables) + ([] if round_.bye is None else [round_.bye])
        assert sorted(present) == entrants
        assert tuple(len(table.entrants) for table in round_.tables) == table_sizes(size)
        assert (round_.bye is not None) == (size % 3 == 1)
        byes.update([] if round_.bye is None else [round_.bye])
        twos.update(
            e for table in round_.tables if len(table.entrants) == 2 for e in table.entrants
        )
    for spread in (byes, twos):
        counts = [spread[entrant] for entrant in entrants]
        assert max(counts) - min(counts) <= 1


@settings(max_examples=12, deadline=None)  # the larger fields: the parametrized test below
@given(st.integers(3, 12), st.data())
def test_a_round_robin_in_threes_of_any_length_seats_everyone_and_spreads_the_byes(
    size: int, data: st.DataObject
) -> None:
    rounds = data.draw(st.integers(1, 2 * full_round_robin_rounds(size)))

    schedule = round_robin_threes_schedule(field(size), rounds=rounds)

    assert len(schedule.rounds) == rounds
    for round_ in schedule.rounds:
        present = seated(round_.tables) + ([] if round_.bye is None else [round_.bye])
        assert sorted(present) == field(size)
        assert all(len(table.entrants) in (2, 3) for table in round_.tables)
        assert tuple(len(table.entrants) for table in round_.tables) == table_sizes(size)
    byes = Counter(round_.bye for round_ in schedule.rounds if round_.bye is not None)
    assert (
        max(byes.values(), default=0) - min((byes[entrant] for entrant in field(size)), default=0)
        <= 1
    )
    assert schedule == round_robin_threes_schedule(field(size), rounds=rounds)


@pytest.mark.parametrize("size", [size for size in range(3, 22) if size != 5])
def test_a_round_robin_in_threes_keeps_pair_meetings_within_two_of_each_other(size: int) -> None:
    schedule = round_robin_threes_schedule(field(size))

    counts = meeting_counts(schedule.tables, field(size))

    assert max(counts) - min(counts) <= 2
    assert max(counts) <= 2


@pytest.mark.parametrize("size", [3, 8, 9])
def test_a_round_robin_in_threes_meets_every_pair_exactly_once_when_the_search_finds_it(
    size: int,
) -> None:
    schedule = round_robin_threes_schedule(field(size))

    assert set(meeting_counts(schedule.tables, field(size))) == {1}


def test_the_byes_of_a_round_robin_in_threes_go_in_reverse_seed_order() -> None:
    schedule = round_robin_threes_schedule(field(7), rounds=7)

    assert [round_.bye for round_ in schedule.rounds] == field(7)[::-1]


def test_a_round_robin_in_threes_is_the_same_schedule_for_the_same_field() -> None:
    first = round_robin_threes_schedule(field(12), id_prefix="A-")
    second = round_robin_threes_schedule(field(12), id_prefix="A-")
    renamed = round_robin_threes_schedule(field(12, first_id=501), id_prefix="A-")

    assert first == second
    assert [table.id for table in first.rounds[0].tables] == [
        "A-R1-1",
        "A-R1-2",
        "A-R1-3",
        "A-R1-4",
    ]
    offset = 501 - 101
    assert [tuple(e + offset for e in t.entrants) for t in first.tables] == [
        t.entrants for t in renamed.tables
    ]


def test_a_round_robin_in_threes_refuses_a_number_of_rounds_out_of_range() -> None:
    with pytest.raises(InvalidFormatOption):
        round_robin_threes_schedule(field(9), rounds=0)
    with pytest.raises(InvalidFormatOption):
        round_robin_threes_schedule(field(9), rounds=2 * full_round_robin_rounds(9) + 1)


# Swiss --------------------------------------------------------------------------------------------


def level(entrants: Sequence[int]) -> list[SwissEntrant]:
    return [SwissEntrant(entrant, 0) for entrant in entrants]


def test_the_first_swiss_round_in_threes_splits_the_field_into_thirds() -> None:
    round_ = swiss_threes_round(rounds=3, round_number=1, standings=level(range(1, 10)))

    assert [table.entrants for table in round_.tables] == [(1, 4, 7), (2, 5, 8), (3, 6, 9)]
    assert [table.id for table in round_.tables] == ["R1-1", "R1-2", "R1-3"]
    assert round_.bye is None
    assert round_.repeats == 0


def test_a_swiss_field_of_one_over_a_multiple_of_three_gives_the_lowest_ranked_the_bye() -> None:
    round_ = swiss_threes_round(rounds=3, round_number=2, standings=level(range(1, 11)), byes=[10])

    assert round_.bye == 9
    assert sorted(seated(round_.tables)) == [1, 2, 3, 4, 5, 6, 7, 8, 10]


def test_a_swiss_field_of_two_over_a_multiple_of_three_has_one_table_of_two_at_the_bottom() -> None:
    scores = [SwissEntrant(entrant, 2 if entrant <= 3 else 0) for entrant in range(1, 9)]

    round_ = swiss_threes_round(rounds=3, round_number=2, standings=scores)

    assert [len(table.entrants) for table in round_.tables] == [3, 3, 2]
    assert round_.tables[0].entrants == (1, 2, 3)
    assert round_.bye is None


def test_a_swiss_round_in_threes_moves_an_entrant_rather_than_repeat_a_table() -> None:
    scores = [SwissEntrant(entrant, 2 if entrant <= 3 else 0) for entrant in range(1, 10)]

    round_ = swiss_threes_round(rounds=3, round_number=2, standings=scores, past_tables=[(1, 2, 3)])

    assert round_.repeats == 0
    assert all(len(set(table.entrants) & {1, 2, 3}) <= 1 for table in round_.tables)


def test_a_swiss_round_in_threes_checks_its_round_number() -> None:
    with pytest.raises(SwissRoundOutOfRange):
        swiss_threes_round(rounds=3, round_number=4, standings=level(range(1, 10)))
    with pytest.raises(InvalidFormatOption):
        swiss_threes_round(rounds=0, round_number=1, standings=level(range(1, 10)))


def partitions(seats: list[int], twos: int) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat `seats` at tables of three and `twos` tables of two."""
    if not seats:
        yield []
        return
    top, others = seats[0], seats[1:]
    threes = (len(seats) - 2 * twos) // 3
    for count, left in ((2, twos), (1, twos - 1)):
        if (count == 2 and not threes) or left < 0:
            continue
        for partners in combinations(others, count):
            rest = [seat for seat in others if seat not in partners]
            for tail in partitions(rest, left):
                yield [(top, *partners), *tail]


def draw_cost(
    tables: Sequence[Sequence[int]], met: set[tuple[int, int]], scores: dict[int, float]
) -> tuple[int, float]:
    repeats = sum(1 for table in tables for pair in combinations(sorted(table), 2) if pair in met)
    spread = sum(max(scores[e] for e in table) - min(scores[e] for e in table) for table in tables)
    return repeats, spread


def brute_force_best(
    entrants: list[int], met: set[tuple[int, int]], scores: dict[int, float], bye_pool: list[int]
) -> tuple[int, float]:
    best: tuple[int, float] | None = None
    pool: list[int | None] = [*bye_pool] or [None]
    for bye in pool:
        seats = [entrant for entrant in entrants if entrant != bye]
        for tables in partitions(seats, table_sizes(len(seats)).count(2)):
            cost = draw_cost(tables, met, scores)
            best = cost if best is None or cost < best else best
    assert best is not None
    return best


@st.composite
def swiss_histories(draw: st.DrawFn) -> tuple[int, int, int]:
    size = draw(st.integers(3, 10))
    played = draw(st.integers(0, 5))
    seed = draw(st.integers(0, 10_000))
    return size, played, seed


@settings(max_examples=60, deadline=None)
@given(swiss_histories())
def test_a_swiss_round_in_threes_seats_everyone_with_the_fewest_repeats_a_brute_force_finds(
    history: tuple[int, int, int],
) -> None:
    size, played, seed = history
    rng = random.Random(seed)
    entrants = field(size)
    scores: dict[int, float] = dict.fromkeys(entrants, 0)
    past: list[tuple[int, ...]] = []
    byes: list[int] = []
    for number in range(1, played + 2):
        ranked = sorted(entrants, key=lambda entrant: (-scores[entrant], entrant))
        standings = [SwissEntrant(entrant, scores[entrant]) for entrant in ranked]
        round_ = swiss_threes_round(
            rounds=played + 1, round_number=number, standings=standings, past_tables=past, byes=byes
        )

        present = seated(round_.tables) + ([] if round_.bye is None else [round_.bye])
        assert sorted(present) == entrants
        sizes = sorted((len(table.entrants) for table in round_.tables), reverse=True)
        assert tuple(sizes) == table_sizes(size)
        met = {pair for table in past for pair in combinations(sorted(table), 2)}
        cost = draw_cost([table.entrants for table in round_.tables], met, scores)
        assert cost[0] == round_.repeats
        pool = [entrant for entrant in entrants if entrant not in byes] or entrants
        if size % 3 == 1:
            assert round_.bye in pool
            best = brute_force_best(entrants, met, scores, pool)
            assert cost[0] == best[0]
        else:
            assert cost == brute_force_best(entrants, met, scores, [])
        again = swiss_threes_round(
            rounds=played + 1,
            round_number=number,
            standings=standings,
            past_tables=[tuple(reversed(table)) for table in reversed(past)],
            byes=list(reversed(byes)),
        )
        assert again == round_

        for table in round_.tables:
            past.append(table.entrants)
            scores[rng.choice(table.entrants)] += 2
        if round_.bye is not None:
            byes.append(round_.bye)
            scores[round_.bye] += 2
