"""Accelerated Swiss: the Baku acceleration method (FIDE Handbook C.04.5.1), as pairing scores.

Before round 1 the field, in its initial ranking, is split into group A (the first half rounded
up to an even number: `2 * ceil(n / 4)` entrants) and group B (the rest). The accelerated rounds
are the first half of the rounds, rounded up (`ceil(R / 2)`). Before pairing the first half of
the accelerated rounds, rounded up (`ceil(ceil(R / 2) / 2)`), every group A entrant is given one
win's match points as virtual points; before the other accelerated rounds, half a win's; after
the accelerated rounds, none. Group B is never given any. So in a 9-round Swiss, rounds 1-3
give a whole win, rounds 4-5 half, rounds 6-9 nothing.

Virtual points only change the scores the pairing reads (`SwissEntrant.score`): standings and
tie-breaks never see them. A field under `MINIMUM_FIELD` is not accelerated (decision record
0059). Pure: no Django.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tournaments.formats.swiss import SwissEntrant

MINIMUM_FIELD = 32
"""The smallest field the acceleration applies to: a smaller one is paired as a plain Swiss."""


def group_a_size(entrants: int) -> int:
    """Group A: the first half of the field, rounded up to an even number."""
    return 2 * math.ceil(entrants / 4)


def accelerated_rounds(rounds: int) -> int:
    """The rounds paired with virtual points: the first half, rounded up."""
    return math.ceil(rounds / 2)


def full_point_rounds(rounds: int) -> int:
    """The accelerated rounds whose virtual points are a whole win: their first half, rounded
    up; the other accelerated rounds give half a win."""
    return math.ceil(accelerated_rounds(rounds) / 2)


def virtual_points(*, rounds: int, round_number: int, win: float) -> float:
    """What a group A entrant is given before pairing round `round_number` of `rounds`, when a
    win is worth `win` match points."""
    if round_number <= full_point_rounds(rounds):
        return win
    if round_number <= accelerated_rounds(rounds):
        return win / 2
    return 0.0


def accelerated_standings(
    standings: Sequence[SwissEntrant],
    *,
    initial_order: Sequence[int],
    rounds: int,
    round_number: int,
    win: float,
) -> list[SwissEntrant]:
    """The pairing scores of round `round_number`: `standings` (real match points, in rank
    order) with group A's virtual points added. `initial_order`: the field's initial ranking,
    as the tournament started (group A is its first `group_a_size` entrants, fixed then). A
    field under `MINIMUM_FIELD` gets none."""
    if len(initial_order) < MINIMUM_FIELD:
        return list(standings)
    bonus = virtual_points(rounds=rounds, round_number=round_number, win=win)
    group_a = set(initial_order[: group_a_size(len(initial_order))])
    return [
        SwissEntrant(row.entrant, row.score + bonus) if row.entrant in group_a else row
        for row in standings
    ]
