"""Round-robin groups (snake seeding), then the top entrants of each group in a knockout.

The knockout is a single-elimination bracket. Its seeds come in tiers: every group winner is
seeded above every runner-up, every runner-up above every third, and so on; winners keep the
group order (A's winner is seed 1). Each later tier is placed so that nobody meets an entrant
of their own group in the first round when that can be avoided, preferring the classic crossing:
the winner of A meets the runner-up of B, the winner of B the runner-up of A, C with D, and so
on (with an odd number of groups, the runner-up of the next group round the list).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from common.explained import gettext_noop
from tournaments.formats.bracket import Bracket
from tournaments.formats.entrants import check_entrants
from tournaments.formats.errors import InvalidFormatOption, InvalidStandings
from tournaments.formats.round_robin import (
    RoundRobin,
    group_label,
    round_robin_schedule,
    snake_groups,
)
from tournaments.formats.single_elimination import (
    bracket_line_seeds,
    bracket_size,
    single_elimination_bracket,
)


@dataclass(frozen=True)
class Group:
    label: str
    entrants: tuple[int, ...]
    """In seed order."""
    schedule: RoundRobin
    """Pairing ids carry the label: `A-R1-1`."""


@dataclass(frozen=True)
class GroupStage:
    groups: tuple[Group, ...]
    legs: int


@dataclass(frozen=True)
class GroupsThenKnockout:
    group_stage: GroupStage
    qualifiers_per_group: int
    third_place: bool


def group_stage(entrants: Sequence[int], *, group_count: int, legs: int = 1) -> GroupStage:
    """Snake-seed `entrants` (seed order) into `group_count` groups, each a round robin."""
    groups = tuple(
        Group(
            label=group_label(index),
            entrants=members,
            schedule=round_robin_schedule(members, legs=legs, id_prefix=f"{group_label(index)}-"),
        )
        for index, members in enumerate(snake_groups(entrants, group_count))
    )
    return GroupStage(groups=groups, legs=legs)


def plan_groups_then_knockout(
    entrants: Sequence[int],
    *,
    group_count: int,
    qualifiers_per_group: int,
    legs: int = 1,
    third_place: bool = False,
) -> GroupsThenKnockout:
    """Plan both stages; the bracket itself waits for the group standings (`knockout_stage`)."""
    stage = group_stage(entrants, group_count=group_count, legs=legs)
    smallest = min(len(group.entrants) for group in stage.groups)
    if not 1 <= qualifiers_per_group <= smallest:
        raise InvalidFormatOption.because(
            gettext_noop(
                "with groups of %(smallest)s or more, 1 to %(smallest)s entrants per group can "
                "qualify, not %(qualifiers)s"
            ),
            smallest=smallest,
            qualifiers=qualifiers_per_group,
        )
    if qualifiers_per_group * group_count < 2:
        raise InvalidFormatOption.because(
            gettext_noop("the knockout needs at least two qualifiers")
        )
    return GroupsThenKnockout(
        group_stage=stage, qualifiers_per_group=qualifiers_per_group, third_place=third_place
    )


def knockout_stage(plan: GroupsThenKnockout, standings: Sequence[Sequence[int]]) -> Bracket:
    """The knockout bracket, given each group's final standings (best first, groups in order)."""
    groups = plan.group_stage.groups
    if len(standings) != len(groups):
        raise InvalidStandings.because(
            gettext_noop("expected standings for %(groups)s groups, got %(given)s"),
            groups=len(groups),
            given=len(standings),
        )
    for group, table in zip(groups, standings, strict=True):
        if sorted(table) != sorted(group.entrants) or len(set(table)) != len(table):
            raise InvalidStandings.because(
                gettext_noop(
                    "the standings of group %(group)s must list its entrants %(entrants)s "
                    "once each, got %(given)s"
                ),
                group=group.label,
                entrants=sorted(group.entrants),
                given=list(table),
            )
    return knockout_bracket(
        standings, qualifiers_per_group=plan.qualifiers_per_group, third_place=plan.third_place
    )


def knockout_bracket(
    standings: Sequence[Sequence[int]], *, qualifiers_per_group: int, third_place: bool = False
) -> Bracket:
    """A single-elimination bracket on the top `qualifiers_per_group` of each group's standings."""
    return single_elimination_bracket(
        knockout_seeds(standings, qualifiers_per_group=qualifiers_per_group),
        third_place=third_place,
    )


def knockout_seeds(
    standings: Sequence[Sequence[int]], *, qualifiers_per_group: int
) -> tuple[int, ...]:
    """The qualifiers in knockout seed order (index 0 is seed 1), crossing the groups.

    A group with fewer entrants than `qualifiers_per_group` sends all it has.
    """
    if qualifiers_per_group < 1:
        raise InvalidFormatOption.because(
            gettext_noop("at least one entrant per group qualifies, got %(qualifiers)s"),
            qualifiers=qualifiers_per_group,
        )
    if not standings:
        raise InvalidStandings.because(gettext_noop("there are no group standings"))
    check_entrants((entrant for table in standings for entrant in table), minimum=0)
    tiers = [
        [(group, table[place]) for group, table in enumerate(standings) if len(table) > place]
        for place in range(qualifiers_per_group)
    ]
    total = sum(len(tier) for tier in tiers)
    if total < 2:
        raise InvalidStandings.because(gettext_noop("the knockout needs at least two qualifiers"))

    order = bracket_line_seeds(bracket_size(total))
    opponent = {}
    for index in range(0, len(order), 2):
        opponent[order[index]] = order[index + 1]
        opponent[order[index + 1]] = order[index]

    group_count = len(standings)
    seeded: list[tuple[int, int]] = list(tiers[0])
    for tier in tiers[1:]:
        first_seed = len(seeded) + 1
        seeds = list(range(first_seed, first_seed + len(tier)))
        forbidden = {
            seed: seeded[opponent[seed] - 1][0] for seed in seeds if opponent[seed] < first_seed
        }
        groups = [group for group, _ in tier]
        preferences = {
            seed: _preferred_groups(forbidden.get(seed), position, groups, group_count)
            for position, seed in enumerate(seeds)
        }
        assignment = _assign(seeds, preferences, groups)
        entrant_of = dict(tier)
        seeded += [(assignment[seed], entrant_of[assignment[seed]]) for seed in seeds]
    return tuple(entrant for _, entrant in seeded)


def _preferred_groups(
    forbidden: int | None, position: int, groups: list[int], group_count: int
) -> list[int]:
    """Groups a seed may take, best first; a seed facing group `forbidden` never takes it."""
    if forbidden is None:
        start = groups[position]
    elif group_count % 2 == 0:
        start = forbidden ^ 1
    else:
        start = (forbidden + 1) % group_count
    # Walk round the groups from `start`, keeping those present in this tier.
    present = set(groups)
    walk = [(start + step) % group_count for step in range(group_count)]
    return [group for group in walk if group in present and group != forbidden]


def _assign(
    seeds: list[int], preferences: dict[int, list[int]], groups: list[int]
) -> dict[int, int]:
    """Match seeds to groups by augmenting paths, preferences first; the rest take leftovers."""
    holder: dict[int, int] = {}

    def place(seed: int, visited: set[int]) -> bool:
        for group in preferences[seed]:
            if group in visited:
                continue
            visited.add(group)
            if group not in holder or place(holder[group], visited):
                holder[group] = seed
                return True
        return False

    for seed in seeds:
        place(seed, set())
    assignment = {seed: group for group, seed in holder.items()}
    leftovers = [group for group in groups if group not in holder]
    for seed in seeds:
        if seed not in assignment:
            assignment[seed] = leftovers.pop(0)
    return assignment
