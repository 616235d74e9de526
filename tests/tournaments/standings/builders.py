"""Small builders for standings tests: results read like a scoresheet."""

from collections.abc import Iterable, Sequence

from tournaments.standings.config import StandingsConfig
from tournaments.standings.results import Entrant, MatchResult
from tournaments.standings.scoring import Scoring
from tournaments.standings.table import StandingRow, compute_standings


def beat(
    winner: int,
    loser: int,
    *,
    rounds: tuple[int, int] = (2, 0),
    points: tuple[int, int] = (0, 0),
) -> MatchResult:
    """`winner` beat `loser`; rounds and points are given winner first."""
    return MatchResult(
        first=winner,
        second=loser,
        winner=winner,
        first_rounds=rounds[0],
        second_rounds=rounds[1],
        first_points=points[0],
        second_points=points[1],
    )


def tied(
    first: int,
    second: int,
    *,
    rounds: tuple[int, int] = (1, 1),
    points: tuple[int, int] = (120, 120),
) -> MatchResult:
    """A match scored by total points that ended level."""
    return MatchResult(
        first=first,
        second=second,
        winner=None,
        first_rounds=rounds[0],
        second_rounds=rounds[1],
        first_points=points[0],
        second_points=points[1],
    )


def forfeited(loser: int, *, to: int) -> MatchResult:
    return MatchResult(first=to, second=loser, winner=to, forfeit=True)


def bye(entrant: int) -> MatchResult:
    return MatchResult.bye(entrant)


def standings(
    entrants: Iterable[Entrant | int],
    results: Iterable[MatchResult],
    *,
    tiebreaks: Sequence[str] | None = None,
    scoring: Scoring | None = None,
) -> list[StandingRow]:
    config = StandingsConfig(
        scoring=scoring or Scoring(),
        tiebreaks=tuple(tiebreaks) if tiebreaks is not None else StandingsConfig().tiebreaks,
    )
    return compute_standings(entrants=entrants, results=results, config=config)


def order(rows: Sequence[StandingRow]) -> list[int]:
    return [row.entrant for row in rows]


def ranks(rows: Sequence[StandingRow]) -> list[tuple[int, int]]:
    """(rank, entrant) pairs, in table order."""
    return [(row.rank, row.entrant) for row in rows]


def row_of(rows: Sequence[StandingRow], entrant: int) -> StandingRow:
    return next(row for row in rows if row.entrant == entrant)
