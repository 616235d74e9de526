"""The standings table: records ordered by the configured tie-breaks, then ranked."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from tournaments.standings.config import StandingsConfig
from tournaments.standings.records import EntrantRecord, Records, build_records
from tournaments.standings.results import Entrant, MatchResult
from tournaments.standings.tiebreaks import TIEBREAKS, Tiebreak, TiebreakValue


class StandingRowDict(TypedDict):
    rank: int
    entrant: int
    match_points: int
    played: int
    won: int
    tied: int
    lost: int
    rounds_won: int
    rounds_lost: int
    points_for: int
    points_against: int
    tiebreaks: dict[str, TiebreakValue]


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    entrant: int
    match_points: int
    played: int
    won: int
    tied: int
    lost: int
    rounds_won: int
    rounds_lost: int
    points_for: int
    points_against: int
    # The configured tie-breaks by name, in the configured order. Read-only by convention.
    tiebreaks: dict[str, TiebreakValue] = field(hash=False)

    def to_dict(self) -> StandingRowDict:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "match_points": self.match_points,
            "played": self.played,
            "won": self.won,
            "tied": self.tied,
            "lost": self.lost,
            "rounds_won": self.rounds_won,
            "rounds_lost": self.rounds_lost,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "tiebreaks": dict(self.tiebreaks),
        }


DEFAULT_CONFIG = StandingsConfig()


def compute_standings(
    *,
    entrants: Iterable[Entrant | int],
    results: Iterable[MatchResult],
    config: StandingsConfig = DEFAULT_CONFIG,
) -> list[StandingRow]:
    """Rank the entrants: best first, equal rows share a rank ("1, 2, 2, 4").

    The order depends neither on the order of `entrants` nor on that of `results`; rows that share
    a rank are listed by entrant id.
    """
    records = build_records(
        (item if isinstance(item, Entrant) else Entrant(item) for item in entrants),
        results,
        config.scoring,
    )
    tiebreaks = [TIEBREAKS[name] for name in config.tiebreaks]
    values: dict[str, dict[int, TiebreakValue]] = {}
    for tiebreak in tiebreaks:
        if tiebreak.depends_on_group:
            values[tiebreak.name] = dict.fromkeys(records, None)
        else:
            values[tiebreak.name] = tiebreak.evaluate(records, sorted(records))
    groups = [sorted(records)] if records else []
    for tiebreak in tiebreaks:
        groups = [part for group in groups for part in split(group, tiebreak, records, values)]
    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        rows.extend(row_of(records[entrant], rank, config, values) for entrant in group)
    return rows


def split(
    group: list[int],
    tiebreak: Tiebreak,
    records: Records,
    values: dict[str, dict[int, TiebreakValue]],
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
    group: Sequence[int], tiebreak: Tiebreak, group_values: dict[int, TiebreakValue]
) -> list[list[int]]:
    ordered = sorted(group, key=lambda entrant: (tiebreak.sort_key(group_values[entrant]), entrant))
    parts: list[list[int]] = []
    previous: tuple[int, int | float] | None = None
    for entrant in ordered:
        key = tiebreak.sort_key(group_values[entrant])
        if key != previous:
            parts.append([])
            previous = key
        parts[-1].append(entrant)
    return parts


def row_of(
    record: EntrantRecord,
    rank: int,
    config: StandingsConfig,
    values: dict[str, dict[int, TiebreakValue]],
) -> StandingRow:
    return StandingRow(
        rank=rank,
        entrant=record.id,
        match_points=record.match_points,
        played=record.played,
        won=record.won,
        tied=record.tied,
        lost=record.lost,
        rounds_won=record.rounds_won,
        rounds_lost=record.rounds_lost,
        points_for=record.points_for,
        points_against=record.points_against,
        tiebreaks={name: values[name][record.id] for name in config.tiebreaks},
    )
