"""Single elimination: the standard seeding order, byes to the top seeds, an optional third place.

Slot ids are `R<round>-<position>` (the final is the only slot of the last round) and `3P`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats.bracket import (
    BYE,
    Bracket,
    Kind,
    Known,
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
from tournaments.formats.same_group import SameGroup, knockout_order

THIRD_PLACE = Section.THIRD_PLACE.value


def bracket_size(entrant_count: int) -> int:
    """The smallest power of two that holds `entrant_count` entrants (at least 2)."""
    size = 2
    while size < entrant_count:
        size *= 2
    return size


def bracket_line_seeds(size: int) -> tuple[int, ...]:
    """Seeds (from 1) in bracket order, top to bottom, for a bracket of `size` lines.

    Consecutive pairs are the first-round matches: for 8, `1 8 4 5 2 7 3 6` gives 1v8, 4v5,
    2v7, 3v6. Built by doubling: each seed's line splits into the seed and its complement
    (`lines + 1 - seed`), so seeds 1 and 2 can only meet in the final, 1 to 4 only from the
    semifinals, and so on.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket size is a power of two, got {size}")
    order = [1]
    while len(order) < size:
        lines = 2 * len(order)
        order = [seed for top in order for seed in (top, lines + 1 - top)]
    return tuple(order)


def first_round_sources(
    entrants: Sequence[int], size: int, same_group: SameGroup | None = None
) -> list[tuple[Source, Source]]:
    """The first-round pairs of a `size` bracket: seeds beyond the field are byes.
    `same_group`: entrants of one group placed apart within their seed bands (decision record
    0057)."""
    order = bracket_line_seeds(size)
    entrants = knockout_order(entrants, order, same_group)

    def source(seed: int) -> Source:
        return Known(entrants[seed - 1]) if seed <= len(entrants) else BYE

    return [(source(order[i]), source(order[i + 1])) for i in range(0, size, 2)]


def single_elimination_bracket(
    entrants: Sequence[int], *, third_place: bool = False, same_group: SameGroup | None = None
) -> Bracket:
    """A single-elimination bracket for `entrants` in seed order (index 0 is seed 1).

    With `third_place`, the semifinal losers meet in `3P` (not created for two entrants, since
    there are no semifinals). Places: 1 and 2 from the final; 3 and 4 from `3P`, or 3 shared by
    both semifinal losers; then the losers of each earlier round share the next place
    (5, 9, 17, ...).
    """
    field = check_entrants(entrants)
    size = bracket_size(len(field))
    pairs = first_round_sources(field, size, same_group)
    return _bracket(field, size, pairs, third_place=third_place)


def _bracket(
    entrants: tuple[int, ...],
    size: int,
    pairs: list[tuple[Source, Source]],
    *,
    third_place: bool,
) -> Bracket:
    round_count = size.bit_length() - 1
    slots: list[Slot] = []
    previous: list[str] = []
    for number in range(1, round_count + 1):
        slots_in_round = size >> number
        current = [
            slot_id(Section.MAIN, number, position) for position in range(1, slots_in_round + 1)
        ]
        for index, this in enumerate(current):
            if number == 1:
                home, away = pairs[index]
            else:
                home, away = WinnerOf(previous[2 * index]), WinnerOf(previous[2 * index + 1])
            is_final = number == round_count
            semifinal_with_third_place = third_place and number == round_count - 1
            slots.append(
                Slot(
                    id=this,
                    section=Section.MAIN,
                    round=number,
                    position=index + 1,
                    home=home,
                    away=away,
                    winner_place=1 if is_final else None,
                    loser_place=None if semifinal_with_third_place else slots_in_round + 1,
                )
            )
        previous = current
    if third_place and round_count >= 2:
        semifinals = [slot.id for slot in slots if slot.round == round_count - 1]
        # Before the final: the usual playing order, and the final closes the bracket.
        slots.insert(
            len(slots) - 1,
            Slot(
                id=THIRD_PLACE,
                section=Section.THIRD_PLACE,
                round=1,
                position=1,
                home=LoserOf(semifinals[0]),
                away=LoserOf(semifinals[1]),
                winner_place=3,
                loser_place=4,
            ),
        )
    linked = link(slots)
    return Bracket(
        kind=Kind.SINGLE_ELIMINATION,
        entrants=entrants,
        size=size,
        slots=linked,
        rounds=rounds_of(linked),
        third_place=third_place and round_count >= 2,
    )
