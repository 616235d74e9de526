"""Ranking by ordered tie-breaks, shared by the two-sided standings (`table`) and the placings at
tables of three (`placings`): the entrants split into groups, best first, one tie-break after the
other; entrants no tie-break separates share a rank and are listed by id."""

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, cast

Value = TypeVar("Value")
"""A tie-break's value: None (does not apply) among them."""
Record = TypeVar("Record", contravariant=True)


class RankingTiebreak(Protocol[Record, Value]):
    @property
    def name(self) -> str: ...

    @property
    def depends_on_group(self) -> bool: ...

    @property
    def evaluate(self) -> Callable[[Mapping[int, Record], Sequence[int]], dict[int, Value]]: ...

    def sort_key(self, value: Value) -> Any: ...


def rank_groups(
    records: Mapping[int, Record], tiebreaks: Sequence[RankingTiebreak[Record, Value]]
) -> tuple[list[list[int]], dict[str, dict[int, Value]]]:
    """The entrants of `records` in groups sharing a rank, best first, and each tie-break's
    value per entrant (a group-dependent one's, within the group it last split)."""
    values: dict[str, dict[int, Value]] = {}
    for tiebreak in tiebreaks:
        if tiebreak.depends_on_group:
            values[tiebreak.name] = cast(dict[int, Value], dict.fromkeys(records))
        else:
            values[tiebreak.name] = dict(tiebreak.evaluate(records, sorted(records)))
    groups = [sorted(records)] if records else []
    for tiebreak in tiebreaks:
        groups = [part for group in groups for part in split(group, tiebreak, records, values)]
    return groups, values


def split(
    group: list[int],
    tiebreak: RankingTiebreak[Record, Value],
    records: Mapping[int, Record],
    values: dict[str, dict[int, Value]],
) -> list[list[int]]:
    """Split a tied group by one tie-break, best part first; a group of one stays as it is."""
    if len(group) == 1:
        return [group]
    if not tiebreak.depends_on_group:
        return partition(group, tiebreak, values[tiebreak.name])
    group_values = tiebreak.evaluate(records, group)
    values[tiebreak.name].update(group_values)
    parts = partition(group, tiebreak, group_values)
    if len(parts) == 1:
        return parts
    # A group-dependent tie-break (head-to-head) is applied again within each part that is still
    # tied: a new mini-table of only those entrants, until it no longer separates anyone.
    return [piece for part in parts for piece in split(part, tiebreak, records, values)]


def partition(
    group: Sequence[int],
    tiebreak: RankingTiebreak[Record, Value],
    group_values: Mapping[int, Value],
) -> list[list[int]]:
    ordered = sorted(group, key=lambda entrant: (tiebreak.sort_key(group_values[entrant]), entrant))
    parts: list[list[int]] = []
    previous: Any = None
    for entrant in ordered:
        key = tiebreak.sort_key(group_values[entrant])
        if key != previous:
            parts.append([])
            previous = key
        parts[-1].append(entrant)
    return parts


def head_to_head_totals(
    group: Sequence[int], meetings_of: Callable[[int], Iterable[tuple[int, int]]]
) -> dict[int, int] | None:
    """Each member's total over its meetings (opponent, value) with the other members of the
    group, or None unless every pair of members met, and equally often."""
    members = set(group)
    totals: dict[int, int] = dict.fromkeys(group, 0)
    meetings: Counter[tuple[int, int]] = Counter()
    for entrant in group:
        for opponent, value in meetings_of(entrant):
            if opponent in members:
                totals[entrant] += value
                if entrant < opponent:
                    meetings[(entrant, opponent)] += 1
    # Every pair met, and equally often: counted from the meetings, not from every pair of
    # the group (half a million of them when 1,024 entrants are level at the start).
    pairs = len(members) * (len(members) - 1) // 2
    if len(meetings) != pairs or len(set(meetings.values())) != 1:
        return None
    return totals
