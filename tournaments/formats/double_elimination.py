"""Double elimination: a winners bracket, a losers bracket, a grand final with an optional reset.

Slot ids: `W<round>-<position>`, `L<round>-<position>`, `GF`, `GF2`. For a bracket of
`2^k` lines the winners bracket has `k` rounds and the losers bracket `2k - 2`:

- `L1` pairs the losers of `W1` (`W1-1` with `W1-2`, `W1-3` with `W1-4`, ...);
- each even losers round `L(2r-2)` sets the survivors against the losers dropping from `W(r)`;
- each odd losers round after `L1` pairs the survivors (`L(2r-1)`).

The order in which a winners round's losers drop (see `drop_orders`) keeps entrants apart from
those they have just beaten, as far as the bracket allows. The grand final sets the
winners-bracket champion (home) against the losers-bracket champion (away); with a reset, `GF2`
is played only if the losers-bracket champion wins `GF`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

from tournaments.formats.bracket import (
    Bracket,
    Kind,
    LoserOf,
    Section,
    Slot,
    Source,
    WinnerOf,
    link,
    rounds_of,
    slot_id,
)
from tournaments.formats.entrants import check_entrants
from tournaments.formats.same_group import SameGroup
from tournaments.formats.single_elimination import bracket_size, first_round_sources

GRAND_FINAL = "GF"
GRAND_FINAL_RESET = "GF2"


def _reversed(count: int) -> list[int]:
    return [count - 1 - index for index in range(count)]


def _halves_swapped(count: int) -> list[int]:
    half = count // 2
    return [(index + half) % count for index in range(count)]


def _halves_reversed(count: int) -> list[int]:
    return _halves_swapped(count)[::-1]


def _natural(count: int) -> list[int]:
    return list(range(count))


# In order of preference when two orders are equally good.
_ORDERS: tuple[Callable[[int], list[int]], ...] = (
    _reversed,
    _halves_swapped,
    _halves_reversed,
    _natural,
)


def double_elimination_bracket(
    entrants: Sequence[int],
    *,
    grand_final_reset: bool = True,
    same_group: SameGroup | None = None,
) -> Bracket:
    """A double-elimination bracket for `entrants` in seed order (index 0 is seed 1).

    The winners bracket is the single-elimination bracket (standard seeding, byes to the top
    seeds); byes drop into the losers bracket as byes and are advanced like any other. Places:
    1 and 2 from the grand final (or its reset), 3 for the losers-bracket final's loser, then
    the losers of each earlier losers round share the next place (4, 5, 7, 9, 13, ...).
    """
    field = check_entrants(entrants)
    size = bracket_size(len(field))
    rounds = size.bit_length() - 1
    drops = drop_orders(size)

    winners: list[list[Slot]] = []
    for number in range(1, rounds + 1):
        count = size >> number
        if number == 1:
            pairs = first_round_sources(field, size, same_group)
        else:
            above = winners[-1]
            pairs = [
                (WinnerOf(above[2 * index].id), WinnerOf(above[2 * index + 1].id))
                for index in range(count)
            ]
        winners.append(_round(Section.WINNERS, number, pairs))

    losers: list[list[Slot]] = []
    if rounds >= 2:
        first = winners[0]
        losers.append(
            _round(
                Section.LOSERS,
                1,
                [
                    (LoserOf(first[2 * index].id), LoserOf(first[2 * index + 1].id))
                    for index in range(size >> 2)
                ],
            )
        )
        for number in range(2, rounds + 1):
            survivors = losers[-1]
            dropping = winners[number - 1]
            order = drops[number - 2]
            losers.append(
                _round(
                    Section.LOSERS,
                    2 * number - 2,
                    [
                        (WinnerOf(survivor.id), LoserOf(dropping[order[index]].id))
                        for index, survivor in enumerate(survivors)
                    ],
                )
            )
            if number < rounds:
                survivors = losers[-1]
                losers.append(
                    _round(
                        Section.LOSERS,
                        2 * number - 1,
                        [
                            (WinnerOf(survivors[2 * i].id), WinnerOf(survivors[2 * i + 1].id))
                            for i in range(len(survivors) // 2)
                        ],
                    )
                )
    _place_losers_rounds(losers)

    champion_of_losers: Source = (
        WinnerOf(losers[-1][0].id) if losers else LoserOf(winners[-1][0].id)
    )
    finals = [
        Slot(
            id=GRAND_FINAL,
            section=Section.GRAND_FINAL,
            round=1,
            position=1,
            home=WinnerOf(winners[-1][0].id),
            away=champion_of_losers,
            winner_place=1,
            loser_place=2,
        )
    ]
    if grand_final_reset:
        finals.append(
            Slot(
                id=GRAND_FINAL_RESET,
                section=Section.GRAND_FINAL,
                round=2,
                position=1,
                home=WinnerOf(GRAND_FINAL),
                away=LoserOf(GRAND_FINAL),
                winner_place=1,
                loser_place=2,
                reset_of=GRAND_FINAL,
            )
        )

    slots = link(_playing_order(winners, losers) + finals)
    return Bracket(
        kind=Kind.DOUBLE_ELIMINATION,
        entrants=field,
        size=size,
        slots=slots,
        rounds=rounds_of(slots),
        grand_final_reset=grand_final_reset,
    )


@cache
def drop_orders(size: int) -> tuple[tuple[int, ...], ...]:
    """For each winners round from 2 on, which winners slot drops its loser into each losers slot.

    `drop_orders(size)[r - 2][i]` is the 0-based position in `W(r)` of the slot whose loser meets
    the survivor in position `i` of `L(2r-2)`.

    Each survivor of the losers bracket comes from a part of the winners bracket, and a dropping
    loser has beaten only entrants from the part below his own slot. So for every drop we take,
    among four usual orders (reversed, halves swapped, each half reversed, natural), the one that
    leaves the fewest survivors facing a loser from a part they came from, counting the next drop
    too when breaking ties (so that a good choice now does not force rematches one drop later).
    """
    rounds = size.bit_length() - 1
    if rounds < 2:
        return ()
    # A survivor's origin: a bit set of the first-round winners-bracket slots it may come from.
    survivors = [_region(1, 2 * index) | _region(1, 2 * index + 1) for index in range(size >> 2)]
    chosen: list[tuple[int, ...]] = []
    for number in range(2, rounds + 1):
        best: tuple[tuple[int, int], list[int], list[int]] | None = None
        for make_order in _ORDERS:
            order = make_order(len(survivors))
            conflicts, after = _drop(survivors, number, order, rounds)
            score = (conflicts, _best_conflicts(after, number + 1, rounds))
            if best is None or score < best[0]:
                best = (score, order, after)
        if best is None:
            raise RuntimeError("no order was tried")
        chosen.append(tuple(best[1]))
        survivors = best[2]
    return tuple(chosen)


def _region(round_number: int, index: int) -> int:
    """First-round slots (a bit set) under slot `index` (from 0) of winners round `round_number`."""
    width = 1 << (round_number - 1)
    return ((1 << width) - 1) << (index * width)


def _drop(
    survivors: list[int], number: int, order: list[int], rounds: int
) -> tuple[int, list[int]]:
    """Drop `W(number)`'s losers in `order`: (possible rematches, survivors of the next round)."""
    conflicts = 0
    merged = []
    for index, origin in enumerate(survivors):
        dropping = _region(number, order[index])
        conflicts += bool(origin & dropping)
        merged.append(origin | dropping)
    if number < rounds:
        merged = [merged[2 * i] | merged[2 * i + 1] for i in range(len(merged) // 2)]
    return conflicts, merged


def _best_conflicts(survivors: list[int], number: int, rounds: int) -> int:
    if number > rounds:
        return 0
    return min(
        _drop(survivors, number, make_order(len(survivors)), rounds)[0] for make_order in _ORDERS
    )


def _round(section: Section, number: int, pairs: list[tuple[Source, Source]]) -> list[Slot]:
    return [
        Slot(
            id=slot_id(section, number, index + 1),
            section=section,
            round=number,
            position=index + 1,
            home=home,
            away=away,
        )
        for index, (home, away) in enumerate(pairs)
    ]


def _place_losers_rounds(losers: list[list[Slot]]) -> None:
    """Give each losers round's losers their shared place: 3 plus everyone who goes out later."""
    later = 0
    for index in range(len(losers) - 1, -1, -1):
        place = 3 + later
        losers[index] = [replace(slot, loser_place=place) for slot in losers[index]]
        later += len(losers[index])


def _playing_order(winners: list[list[Slot]], losers: list[list[Slot]]) -> list[Slot]:
    """W1, then W(r), L(2r-3), L(2r-2) for each later round: every slot after its sources."""
    ordered = list(winners[0])
    for number in range(2, len(winners) + 1):
        ordered += winners[number - 1]
        ordered += losers[2 * number - 4]
        ordered += losers[2 * number - 3]
    return ordered
