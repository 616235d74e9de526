"""Standings for a stage: match points, ordered tie-breaks and shared ranks.

A pure package (standard library only, no Django). The standings projection feeds it the stage's
entrants and match results and stores the rows it returns. See docs/decisions/0008.
"""

from tournaments.standings.config import DEFAULT_TIEBREAKS, StandingsConfig
from tournaments.standings.errors import (
    DuplicateEntrant,
    DuplicateTiebreak,
    InvalidResult,
    InvalidStandingsConfig,
    StandingsError,
    UnknownEntrant,
    UnknownTiebreak,
)
from tournaments.standings.placing_records import (
    PLACING_TIEBREAK_NAMES,
    PLACING_TIEBREAKS,
    PlacingRecord,
    build_placing_records,
)
from tournaments.standings.placing_results import PlacingScoring, Seat, TableResult
from tournaments.standings.placings import (
    DEFAULT_PLACING_CONFIG,
    PLACING_TIEBREAKS_DEFAULT,
    PlacingStandingRow,
    PlacingStandingsConfig,
    compute_placing_standings,
)
from tournaments.standings.records import EntrantRecord, Game, Outcome, build_records
from tournaments.standings.results import Entrant, MatchResult
from tournaments.standings.scoring import Scoring
from tournaments.standings.table import (
    DEFAULT_CONFIG,
    StandingRow,
    compute_standings,
)
from tournaments.standings.tiebreaks import TIEBREAK_NAMES, TIEBREAKS, Tiebreak, TiebreakValue

__all__ = [
    "DEFAULT_CONFIG",
    "DEFAULT_PLACING_CONFIG",
    "DEFAULT_TIEBREAKS",
    "PLACING_TIEBREAKS",
    "PLACING_TIEBREAKS_DEFAULT",
    "PLACING_TIEBREAK_NAMES",
    "TIEBREAKS",
    "TIEBREAK_NAMES",
    "DuplicateEntrant",
    "DuplicateTiebreak",
    "Entrant",
    "EntrantRecord",
    "Game",
    "InvalidResult",
    "InvalidStandingsConfig",
    "MatchResult",
    "Outcome",
    "PlacingRecord",
    "PlacingScoring",
    "PlacingStandingRow",
    "PlacingStandingsConfig",
    "Scoring",
    "Seat",
    "StandingRow",
    "StandingsConfig",
    "StandingsError",
    "TableResult",
    "Tiebreak",
    "TiebreakValue",
    "UnknownEntrant",
    "UnknownTiebreak",
    "build_placing_records",
    "build_records",
    "compute_placing_standings",
    "compute_standings",
]
