"""Each entrant's record: the totals of its results and the games the tie-breaks look at."""

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import NamedTuple

from tournaments.standings.results import (
    Entrant,
    MatchResult,
    check_entrants_known,
    entrants_by_id,
)
from tournaments.standings.scoring import Scoring


class Outcome(Enum):
    WIN = "win"
    TIE = "tie"
    LOSS = "loss"


@dataclass(frozen=True, slots=True)
class Game:
    """One match from one entrant's side. Byes are not games: they have no opponent."""

    opponent: int
    outcome: Outcome
    match_points: int


@dataclass(frozen=True, slots=True)
class Totals:
    """What an entrant's results add up to: the columns of its standings row, in order."""

    match_points: int
    played: int
    won: int
    tied: int
    lost: int
    rounds_won: int
    rounds_lost: int
    points_for: int
    points_against: int

    def totals(self) -> dict[str, int]:
        """The totals alone, by name, in order."""
        return {name: getattr(self, name) for name in TOTALS}


TOTALS = tuple(item.name for item in fields(Totals))


@dataclass(frozen=True, slots=True)
class EntrantRecord(Totals):
    entrant: Entrant
    byes: int
    games: tuple[Game, ...]

    @property
    def id(self) -> int:
        return self.entrant.id


Records = Mapping[int, EntrantRecord]


class Side(NamedTuple):
    rounds: int
    points: int


def build_records(
    entrants: Iterable[Entrant],
    results: Iterable[MatchResult],
    scoring: Scoring,
    sat_out: Iterable[tuple[int, int]] = (),
) -> dict[int, EntrantRecord]:
    """Fold the results into one record per entrant (entrants without results get zeros).
    `sat_out`: (entrant, match points) for each round an entrant sat out by its request
    (decision record 0058): the points count, the round is neither played nor a bye."""
    by_id = entrants_by_id(entrants)
    totals: dict[int, Counter[str]] = {entrant_id: Counter() for entrant_id in by_id}
    games: dict[int, list[Game]] = {entrant_id: [] for entrant_id in by_id}
    for entrant_id, match_points in sat_out:
        check_entrants_known((entrant_id,), by_id, "a requested bye")
        totals[entrant_id].update(match_points=match_points)
    for result in results:
        check_entrants_known(result.entrants, by_id, result)
        if result.second is None:
            add_bye(totals[result.first], scoring)
            continue
        first_side = Side(result.first_rounds, result.first_points)
        second_side = Side(result.second_rounds, result.second_points)
        for entrant_id, opponent, own, other in (
            (result.first, result.second, first_side, second_side),
            (result.second, result.first, second_side, first_side),
        ):
            outcome = outcome_for(entrant_id, result)
            match_points = match_points_for(outcome, result.forfeit, scoring)
            add_game(totals[entrant_id], outcome, match_points, own, other)
            games[entrant_id].append(Game(opponent, outcome, match_points))
    return {
        entrant_id: freeze(by_id[entrant_id], totals[entrant_id], games[entrant_id])
        for entrant_id in by_id
    }


def outcome_for(entrant_id: int, result: MatchResult) -> Outcome:
    if result.winner is None:
        return Outcome.TIE
    return Outcome.WIN if result.winner == entrant_id else Outcome.LOSS


def match_points_for(outcome: Outcome, forfeit: bool, scoring: Scoring) -> int:
    if outcome is Outcome.WIN:
        return scoring.win
    if outcome is Outcome.TIE:
        return scoring.tie
    return scoring.forfeit_loss if forfeit else scoring.loss


def add_bye(totals: Counter[str], scoring: Scoring) -> None:
    totals.update(byes=1, won=1, match_points=scoring.bye)


def add_game(
    totals: Counter[str], outcome: Outcome, match_points: int, own: Side, other: Side
) -> None:
    totals.update(
        {
            "match_points": match_points,
            "rounds_won": own.rounds,
            "rounds_lost": other.rounds,
            "points_for": own.points,
            "points_against": other.points,
            OUTCOME_TOTAL[outcome]: 1,
        }
    )


OUTCOME_TOTAL = {Outcome.WIN: "won", Outcome.TIE: "tied", Outcome.LOSS: "lost"}


def freeze(entrant: Entrant, totals: Counter[str], games: list[Game]) -> EntrantRecord:
    totals["played"] = totals["won"] + totals["tied"] + totals["lost"]
    return EntrantRecord(
        **{name: totals[name] for name in TOTALS},
        entrant=entrant,
        byes=totals["byes"],
        # Sorted so that a record does not depend on the order the results came in.
        games=tuple(
            sorted(games, key=lambda game: (game.opponent, game.outcome.value, game.match_points))
        ),
    )
