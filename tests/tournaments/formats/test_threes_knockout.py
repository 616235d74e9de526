"""A knockout in tables of three: seeding, byes, walkovers, results (decision record 0031)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.builders import field
from tournaments.formats.bracket import Bye, Known
from tournaments.formats.errors import SlotNotPlayable, UnknownSlot, WinnerNotInSlot
from tournaments.formats.threes_knockout import (
    TableStatus,
    resolve_threes_knockout,
    threes_bracket_line_seeds,
    threes_bracket_size,
    threes_knockout_bracket,
)


def test_the_bracket_line_seeds_of_nine_lines_give_the_top_seed_the_weakest_table() -> None:
    assert threes_bracket_line_seeds(3) == (1, 2, 3)
    assert threes_bracket_line_seeds(9) == (1, 6, 9, 2, 5, 8, 3, 4, 7)


@pytest.mark.parametrize("size", [3, 9, 27, 81, 243])
def test_the_top_seeds_can_only_meet_in_the_last_rounds(size: int) -> None:
    order = threes_bracket_line_seeds(size)

    assert sorted(order) == list(range(1, size + 1))
    tables = [order[start : start + 3] for start in range(0, size, 3)]
    # Each first-round table holds exactly one of the top third of the seeds...
    assert all(sum(seed <= size // 3 for seed in table) == 1 for table in tables)
    # ...and the top third is itself seeded like a bracket of a third the size.
    assert tuple(min(table) for table in tables) == threes_bracket_line_seeds(size // 3)


@pytest.mark.parametrize("count", range(2, 82))
def test_byes_go_to_the_top_seeds_and_a_table_of_two_only_where_the_field_forces_it(
    count: int,
) -> None:
    knockout = threes_knockout_bracket(field(count))
    first = knockout.rounds[0]

    assert len(first) * 3 == threes_bracket_size(count)
    known = [[s.entrant for s in table.sources if isinstance(s, Known)] for table in first]
    byes = [sum(isinstance(s, Bye) for s in table.sources) for table in first]
    assert sorted(e for seats in known for e in seats) == field(count)
    # A seed with more byes at its table is never weaker than one with fewer.
    best_seed = [min(seats, default=10**9) for seats in known]
    for a in range(len(first)):
        for b in range(len(first)):
            if byes[a] > byes[b] and known[a]:
                assert best_seed[a] < best_seed[b]
    assert len(knockout.rounds[-1]) == 1
    # Byes (and so tables of two) only when the field is not a power of three.
    assert sum(byes) == threes_bracket_size(count) - count


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 100), st.randoms(use_true_random=False))
def test_a_knockout_in_threes_played_out_crowns_one_champion(
    count: int, rng: random.Random
) -> None:
    knockout = threes_knockout_bracket(field(count))
    winners: dict[str, int] = {}

    state = resolve_threes_knockout(knockout, winners)
    while state.champion is None:
        assert state.ready, "an unfinished knockout always has a table to play"
        for table_id in state.ready:
            table = state.tables[table_id]
            assert 2 <= len(table.entrants) <= 3
            winners[table_id] = rng.choice(table.entrants)
        state = resolve_threes_knockout(knockout, winners)

    assert state.champion in field(count)
    played = [t for t in state.tables.values() if t.status is TableStatus.DONE]
    # Every entrant but the champion lost exactly one played table.
    eliminated = [e for t in played for e in t.entrants if e != t.winner]
    assert sorted(eliminated) == sorted(set(field(count)) - {state.champion})


def test_a_knockout_in_threes_refuses_results_it_cannot_take() -> None:
    knockout = threes_knockout_bracket(field(10))
    state = resolve_threes_knockout(knockout, {})
    walkover = next(t for t in state.tables.values() if t.status is TableStatus.WALKOVER)
    ready = state.ready[0]

    with pytest.raises(UnknownSlot):
        resolve_threes_knockout(knockout, {"K9-1": 101})
    with pytest.raises(SlotNotPlayable):
        resolve_threes_knockout(knockout, {walkover.id: walkover.entrants[0]})
    with pytest.raises(SlotNotPlayable):
        resolve_threes_knockout(knockout, {"K3-1": 101})
    with pytest.raises(WinnerNotInSlot):
        resolve_threes_knockout(knockout, {ready: 999})
