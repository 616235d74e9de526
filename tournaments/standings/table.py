"""The standings table: records ordered by the configured tie-breaks, then ranked."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tournaments.standings.config import StandingsConfig
from tournaments.standings.ranking import rank_groups
from tournaments.standings.records import EntrantRecord, Totals, build_records
from tournaments.standings.results import Entrant, MatchResult
from tournaments.standings.tiebreaks import TIEBREAKS, TiebreakValue


@dataclass(frozen=True, slots=True)
class StandingRow(Totals):
    rank: int
    entrant: int
    # The configured tie-breaks by name, in the configured order. Read-only by convention.
    tiebreaks: dict[str, TiebreakValue] = field(hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            **self.totals(),
            "tiebreaks": dict(self.tiebreaks),
        }


DEFAULT_CONFIG = StandingsConfig()


def compute_standings(
    *,
    entrants: Iterable[Entrant | int],
    results: Iterable[MatchResult],
    config: StandingsConfig = DEFAULT_CONFIG,
    sat_out: Iterable[tuple[int, int]] = (),
) -> list[StandingRow]:
    """Rank the entrants: best first, equal rows share a rank ("1, 2, 2, 4").

    The order depends neither on the order of `entrants` nor on that of `results`; rows that share
    a rank are listed by entrant id.
    """
    records = build_records(
        (item if isinstance(item, Entrant) else Entrant(item) for item in entrants),
        results,
        config.scoring,
        sat_out,
    )
    groups, values = rank_groups(records, [TIEBREAKS[name] for name in config.tiebreaks])
    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        rows.extend(row_of(records[entrant], rank, config, values) for entrant in group)
    return rows


def row_of(
    record: EntrantRecord,
    rank: int,
    config: StandingsConfig,
    values: dict[str, dict[int, TiebreakValue]],
) -> StandingRow:
    return StandingRow(
        **record.totals(),
        rank=rank,
        entrant=record.id,
        tiebreaks={name: values[name][record.id] for name in config.tiebreaks},
    )
