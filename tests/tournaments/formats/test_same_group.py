"""Who must not meet (decision record 0057): each draw against a brute force on small fields."""

from collections.abc import Iterator, Sequence
from itertools import combinations, permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.errors import NoDrawWithoutSameGroup
from tournaments.formats.round_robin import round_robin_schedule
from tournaments.formats.same_group import SameGroup, knockout_order
from tournaments.formats.single_elimination import (
    bracket_line_seeds,
    bracket_size,
    single_elimination_bracket,
)
from tournaments.formats.swiss import SwissEntrant, swiss_round
from tournaments.formats.threes import swiss_threes_round, table_sizes

LABELS = st.sampled_from([None, "Aurora", "Bar Sport", "Rossi"])


@st.composite
def grouped_fields(draw: st.DrawFn, least: int = 4, most: int = 10) -> dict[int, str | None]:
    size = draw(st.integers(least, most))
    return {entrant: draw(LABELS) for entrant in range(1, size + 1)}


@st.composite
def past_meetings(draw: st.DrawFn, entrants: Sequence[int]) -> list[tuple[int, int]]:
    pairs = list(combinations(entrants, 2))
    return draw(st.lists(st.sampled_from(pairs), max_size=len(entrants), unique=True))


def matchings(entrants: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair `entrants` (an even number of them)."""
    if not entrants:
        yield []
        return
    first, rest = entrants[0], entrants[1:]
    for index, partner in enumerate(rest):
        for others in matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *others]


def draws(entrants: Sequence[int]) -> Iterator[tuple[int | None, list[tuple[int, int]]]]:
    """Every bye (with an odd field) and pairing of the others."""
    if len(entrants) % 2 == 0:
        for pairs in matchings(list(entrants)):
            yield None, pairs
        return
    for bye in entrants:
        for pairs in matchings([e for e in entrants if e != bye]):
            yield bye, pairs


def level(entrants: Sequence[int]) -> list[SwissEntrant]:
    return [SwissEntrant(entrant, 0.0) for entrant in entrants]


def swiss_pairs(round_: object) -> list[tuple[int, int]]:
    return [pairing.entrants for pairing in round_.pairings]  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_strict_swiss_draw_pairs_no_group_whenever_some_draw_does_not(
    data: st.DataObject,
) -> None:
    groups = data.draw(grouped_fields())
    entrants = list(groups)
    met = data.draw(past_meetings(entrants))
    rule = SameGroup(groups, strict=True)
    possible = any(rule.count(pairs) == 0 for _, pairs in draws(entrants))

    if not possible:
        with pytest.raises(NoDrawWithoutSameGroup):
            swiss_round(
                rounds=5,
                round_number=2,
                standings=level(entrants),
                past_pairings=met,
                same_group=rule,
            )
        return
    round_ = swiss_round(
        rounds=5, round_number=2, standings=level(entrants), past_pairings=met, same_group=rule
    )
    assert rule.count(swiss_pairs(round_)) == 0
    assert round_.same_group == 0
    fewest_rematches = min(
        sum(1 for pair in pairs if pair in met or pair[::-1] in met)
        for _, pairs in draws(entrants)
        if rule.count(pairs) == 0
    )
    if fewest_rematches == 0:
        assert round_.rematches == 0  # same-group first, then rematches: both avoided


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_soft_swiss_draw_has_the_fewest_same_group_pairings_among_rematch_free_ones(
    data: st.DataObject,
) -> None:
    groups = data.draw(grouped_fields())
    entrants = list(groups)
    met = data.draw(past_meetings(entrants))
    rule = SameGroup(groups, strict=False)

    plain = swiss_round(rounds=5, round_number=2, standings=level(entrants), past_pairings=met)
    soft = swiss_round(
        rounds=5, round_number=2, standings=level(entrants), past_pairings=met, same_group=rule
    )

    assert soft.bye == plain.bye  # the bye as without groups
    assert soft.rematches == plain.rematches
    if plain.rematches:
        assert swiss_pairs(soft) == swiss_pairs(plain)  # no rematch-free draw: groups aside
        return
    playing = [e for e in entrants if e != plain.bye]
    fewest = min(
        rule.count(pairs)
        for pairs in matchings(playing)
        if not any(pair in met or pair[::-1] in met for pair in pairs)
    )
    assert soft.same_group == rule.count(swiss_pairs(soft)) == fewest


def test_a_strict_swiss_draw_that_cannot_keep_a_group_apart_is_refused() -> None:
    rule = SameGroup({1: "Aurora", 2: "Aurora", 3: "Aurora", 4: None})

    with pytest.raises(NoDrawWithoutSameGroup) as refused:
        swiss_round(rounds=3, round_number=1, standings=level([1, 2, 3, 4]), same_group=rule)

    assert refused.value.code == "no_draw_without_same_group"


def test_without_two_entrants_of_one_group_the_swiss_draw_is_the_plain_one() -> None:
    rule = SameGroup({1: "Aurora", 5: "Bar Sport"})

    grouped = swiss_round(rounds=3, round_number=1, standings=level(range(1, 9)), same_group=rule)

    assert swiss_pairs(grouped) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def halves_apart(order: Sequence[int], rule: SameGroup) -> bool:
    """Whether every same-group pair of the bracket's entrants is in opposite halves."""
    size = bracket_size(len(order))
    line = {seed: index for index, seed in enumerate(bracket_line_seeds(size))}
    half = {entrant: line[seed] < size // 2 for seed, entrant in enumerate(order, start=1)}
    return not any(rule.meet(a, b) and half[a] == half[b] for a, b in combinations(order, 2))


def band_orders(entrants: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every order the seed bands (1; 2; 3-4; 5-8; 9-16) allow."""
    bands, start = [entrants[:1]], 1
    while start < len(entrants):
        bands.append(entrants[start : min(2 * start, len(entrants))])
        start = min(2 * start, len(entrants))
    for arrangement in product(*(permutations(band) for band in bands)):
        yield tuple(entrant for band in arrangement for entrant in band)


@settings(max_examples=40, deadline=None)
@given(grouped_fields())
def test_a_knockout_puts_same_group_entrants_in_opposite_halves_when_the_seeding_allows(
    groups: dict[int, str | None],
) -> None:
    entrants = list(groups)
    rule = SameGroup(groups)
    size = bracket_size(len(entrants))

    order = knockout_order(entrants, bracket_line_seeds(size), rule)

    assert order in set(band_orders(entrants))  # seeds move only within their band
    if any(halves_apart(candidate, rule) for candidate in band_orders(entrants)):
        assert halves_apart(order, rule)
    first_round = [
        (slot.home.entrant, slot.away.entrant)
        for slot in single_elimination_bracket(entrants, same_group=rule).slots
        if slot.round == 1 and hasattr(slot.home, "entrant") and hasattr(slot.away, "entrant")
    ]
    fewest = min(
        sum(
            1
            for i in range(0, size, 2)
            if (a := line_entrant(candidate, size, i))
            and (b := line_entrant(candidate, size, i + 1))
            and rule.meet(a, b)
        )
        for candidate in band_orders(entrants)
    )
    assert rule.count(first_round) == fewest


def line_entrant(order: Sequence[int], size: int, line: int) -> int | None:
    seed = bracket_line_seeds(size)[line]
    return order[seed - 1] if seed <= len(order) else None


def test_a_knockout_keeps_its_seeds_when_nobody_of_one_group_could_meet_early() -> None:
    rule = SameGroup({1: "Aurora", 2: "Aurora"})

    assert knockout_order(range(1, 9), bracket_line_seeds(8), rule) == tuple(range(1, 9))


@settings(max_examples=40, deadline=None)
@given(grouped_fields())
def test_a_round_robin_opens_with_the_fewest_same_group_pairings_it_can(
    groups: dict[int, str | None],
) -> None:
    entrants = list(groups)
    rule = SameGroup(groups)

    schedule = round_robin_schedule(entrants, same_group=rule)

    first = schedule.rounds[0]
    fewest = min(rule.count(pairs) for _, pairs in draws(entrants))
    assert rule.count(p.entrants for p in first.pairings) == fewest
    met = {frozenset(p.entrants) for p in schedule.pairings}
    assert len(met) == len(entrants) * (len(entrants) - 1) // 2  # still everyone once


def partitions(entrants: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat `entrants` at tables of these sizes (the first entrant at the first)."""
    if not sizes:
        yield []
        return
    first, rest = entrants[0], entrants[1:]
    for partners in combinations(rest, sizes[0] - 1):
        others = [e for e in rest if e not in partners]
        for tables in partitions(others, sizes[1:]):
            yield [(first, *partners), *tables]


@settings(max_examples=40, deadline=None)
@given(grouped_fields())
def test_a_strict_swiss_draw_at_tables_of_three_seats_no_group_together_when_it_can(
    groups: dict[int, str | None],
) -> None:
    entrants = list(groups)
    rule = SameGroup(groups)
    sizes = table_sizes(len(entrants))
    byes = entrants if len(entrants) % 3 == 1 else [None]
    possible = any(
        rule.count(tables) == 0
        for bye in byes
        for tables in partitions([e for e in entrants if e != bye], sizes)
    )

    if not possible:
        with pytest.raises(NoDrawWithoutSameGroup):
            swiss_threes_round(rounds=3, round_number=1, standings=level(entrants), same_group=rule)
        return
    round_ = swiss_threes_round(
        rounds=3, round_number=1, standings=level(entrants), same_group=rule
    )
    assert rule.count(table.entrants for table in round_.tables) == 0
