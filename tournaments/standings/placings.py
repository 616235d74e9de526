"""Standings for tables of three: each table's result is a placing (1st, 2nd, 3rd).

Decision record 0031 has the rules and the reasons. In short:

- A `TableResult` places the two or three entrants of a table (a competition ranking: 1, 1, 3 for
  two sharing the top) with their rounds won and card points; a bye is a table of one.
- `PlacingScoring.places` gives the match points of 1st, 2nd and 3rd at a table of three (2, 1, 0
  by default). At a table of two, the winner takes the 1st place's points and the other the last
  place's (2 and 0): a table of two is scored as a table of three whose middle seat is empty.
  Entrants sharing places share the points of those places equally (two sharing 1st at 2/1/0
  take 1.5 each), so a table always hands out the same total. A forfeiting entrant is placed
  last and takes `forfeit` points. A bye takes `bye` points (the 1st place's by default).
- Tie-breaks: `match_points`, `placings` (count-back: most 1st places, then most 2nd places),
  `head_to_head` (placed above minus placed below, over the tables shared with the other tied
  entrants, only when each pair of them met equally often), `card_points_margin` (own card
  points minus the table's average, summed: 0 on average at any table size),
  `round_wins_margin` (the same for rounds won), `opponents_score` (the average match points of
  the opponents met, once per opponent per table) and `seed`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from common.explained import gettext_noop
from tournaments.standings.config import (
    check_integers,
    check_tiebreaks_are_known,
    scoring_of,
    tiebreaks_of,
)
from tournaments.standings.errors import (
    InvalidStandingsConfig,
)
from tournaments.standings.placing_records import (
    PLACING_TIEBREAK_NAMES,
    PLACING_TIEBREAKS,
    PlacingTotals,
    PlacingValue,
    build_placing_records,
)
from tournaments.standings.placing_results import PlacingScoring, TableResult
from tournaments.standings.ranking import rank_groups
from tournaments.standings.results import Entrant

PLACING_TIEBREAKS_DEFAULT: tuple[str, ...] = (
    "match_points",
    "placings",
    "head_to_head",
    "card_points_margin",
    "opponents_score",
    "seed",
)


@dataclass(frozen=True, slots=True)
class PlacingStandingsConfig:
    scoring: PlacingScoring = field(default_factory=PlacingScoring)
    tiebreaks: tuple[str, ...] = PLACING_TIEBREAKS_DEFAULT

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
        check_tiebreaks_are_known(self.tiebreaks, PLACING_TIEBREAK_NAMES)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scoring": {
                "places": list(self.scoring.places),
                "bye": self.scoring.bye,
                "forfeit": self.scoring.forfeit,
            },
            "tiebreaks": list(self.tiebreaks),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlacingStandingsConfig:
        scoring_data = scoring_of(data, {"places", "bye", "forfeit"})
        check_integers((key, scoring_data.get(key, 0)) for key in ("bye", "forfeit"))
        places = scoring_data.get("places", PlacingScoring().places)
        if not isinstance(places, list | tuple):
            raise InvalidStandingsConfig.because(
                gettext_noop("places gives the match points of 1st, 2nd and 3rd: %(places)r"),
                places=places,
            )
        scoring = PlacingScoring(
            places=tuple(places),  # its length and types are checked there
            bye=scoring_data.get("bye", PlacingScoring().bye),
            forfeit=scoring_data.get("forfeit", PlacingScoring().forfeit),
        )
        return cls(scoring=scoring, tiebreaks=tiebreaks_of(data, PLACING_TIEBREAKS_DEFAULT))


JsonValue = int | float | list[int] | None


def to_json(value: PlacingValue) -> JsonValue:
    """Fractions become floats (exact ones stay whole numbers), count-backs lists."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


@dataclass(frozen=True, slots=True)
class PlacingStandingRow(PlacingTotals):
    rank: int
    entrant: int
    tiebreaks: dict[str, PlacingValue] = field(hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            **{name: to_json(value) for name, value in self.totals().items()},
            "tiebreaks": {name: to_json(value) for name, value in self.tiebreaks.items()},
        }


DEFAULT_PLACING_CONFIG = PlacingStandingsConfig()


def compute_placing_standings(
    *,
    entrants: Iterable[Entrant | int],
    results: Iterable[TableResult],
    config: PlacingStandingsConfig = DEFAULT_PLACING_CONFIG,
    sat_out: Iterable[tuple[int, int]] = (),
) -> list[PlacingStandingRow]:
    """Rank the entrants of a stage played at tables of three: best first, equal rows share a
    rank ("1, 2, 2, 4") and are listed by entrant id. Input order never matters."""
    records = build_placing_records(
        (item if isinstance(item, Entrant) else Entrant(item) for item in entrants),
        results,
        config.scoring,
        sat_out,
    )
    groups, values = rank_groups(records, [PLACING_TIEBREAKS[name] for name in config.tiebreaks])
    rows: list[PlacingStandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for entrant in group:
            record = records[entrant]
            rows.append(
                PlacingStandingRow(
                    **record.totals(),
                    rank=rank,
                    entrant=entrant,
                    tiebreaks={name: values[name][entrant] for name in config.tiebreaks},
                )
            )
    return rows
