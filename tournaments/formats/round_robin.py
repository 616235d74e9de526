"""Round robin by the circle method, in one or two legs, and snake seeding into groups.

Circle method: one entrant stays put while the others turn round a circle, one place a round;
in each round the circle's lines pair the entrants across it. With an odd field, the fixed place
is taken by a dummy, and whoever faces the dummy has the bye: everyone has exactly one bye per
leg. The second leg replays the first with sides swapped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from common.explained import gettext_noop
from tournaments.formats.entrants import check_entrants
from tournaments.formats.errors import InvalidFormatOption
from tournaments.formats.pairing import Pairing, pairing_id
from tournaments.formats.same_group import SameGroup, circle_order


@dataclass(frozen=True)
class RoundRobinRound:
    number: int
    """From 1, counting on through the second leg."""
    leg: int
    pairings: tuple[Pairing, ...]
    bye: int | None


@dataclass(frozen=True)
class RoundRobin:
    entrants: tuple[int, ...]
    legs: int
    rounds: tuple[RoundRobinRound, ...]

    @property
    def pairings(self) -> tuple[Pairing, ...]:
        return tuple(pairing for round_ in self.rounds for pairing in round_.pairings)


def round_robin_schedule(
    entrants: Sequence[int],
    *,
    legs: int = 1,
    id_prefix: str = "",
    same_group: SameGroup | None = None,
) -> RoundRobin:
    """Everyone meets everyone once per leg; `n - 1` rounds per leg (`n` for an odd field).

    Pairing ids are `<id_prefix>R<round>-<table>`; the tables of a round are numbered from 1.
    `same_group`: the circle ordered so that round 1 pairs as few entrants of one group as it
    can (decision record 0057).
    """
    field = check_entrants(entrants)
    if legs not in (1, 2):
        raise InvalidFormatOption.because(
            gettext_noop("a round robin has one or two legs, got %(legs)s"), legs=legs
        )
    first_leg = _circle_rounds(circle_order(field, same_group))
    rounds: list[RoundRobinRound] = []
    for leg in range(1, legs + 1):
        for offset, (pairs, bye) in enumerate(first_leg):
            number = (leg - 1) * len(first_leg) + offset + 1
            sides = pairs if leg == 1 else [(away, home) for home, away in pairs]
            pairings = tuple(
                Pairing(pairing_id(number, table, prefix=id_prefix), home, away)
                for table, (home, away) in enumerate(sides, start=1)
            )
            rounds.append(RoundRobinRound(number=number, leg=leg, pairings=pairings, bye=bye))
    return RoundRobin(entrants=field, legs=legs, rounds=tuple(rounds))


def _circle_rounds(field: tuple[int, ...]) -> list[tuple[list[tuple[int, int]], int | None]]:
    odd = len(field) % 2 == 1
    fixed: int | None = None if odd else field[0]
    turning = list(field) if odd else list(field[1:])
    places = len(turning) + 1
    rounds: list[tuple[list[tuple[int, int]], int | None]] = []
    for number in range(len(turning)):
        shift = number % len(turning)
        circle: list[int | None] = [
            fixed,
            *turning[len(turning) - shift :],
            *turning[: len(turning) - shift],
        ]
        pairs: list[tuple[int, int]] = []
        bye: int | None = None
        for index in range(places // 2):
            home, away = circle[index], circle[places - 1 - index]
            if index == 0 and number % 2 == 1:
                # The fixed entrant alternates sides; the others change sides as they turn.
                home, away = away, home
            if home is None or away is None:
                bye = away if home is None else home
                continue
            pairs.append((home, away))
        rounds.append((pairs, bye))
    return rounds


def snake_groups(entrants: Sequence[int], group_count: int) -> tuple[tuple[int, ...], ...]:
    """Deal seeds into groups 1, 2, ..., g, then g, ..., 1, and so on.

    Group sizes differ by at most one; each group lists its entrants in seed order.
    """
    field = check_entrants(entrants)
    if not 1 <= group_count <= len(field) // 2:
        raise InvalidFormatOption.because(
            gettext_noop(
                "%(entrants)s entrants make 1 to %(most)s groups of at least two, not %(groups)s"
            ),
            entrants=len(field),
            most=len(field) // 2,
            groups=group_count,
        )
    groups: list[list[int]] = [[] for _ in range(group_count)]
    for index, entrant in enumerate(field):
        row, column = divmod(index, group_count)
        groups[column if row % 2 == 0 else group_count - 1 - column].append(entrant)
    return tuple(tuple(group) for group in groups)


def group_label(index: int) -> str:
    """`A`, `B`, ..., `Z`, `AA`, `AB`, ... for the group at 0-based `index`."""
    label = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        label = chr(ord("A") + remainder) + label
    return label
