"""Each entrant's record: the totals of its results and the games the tie-breaks look at."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from common.explained import gettext_noop
from tournaments.standings.errors import DuplicateEntrant, UnknownEntrant
from tournaments.standings.results import Entrant, MatchResult
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
class EntrantRecord:
    entrant: Entrant
    match_points: int
    played: int
    won: int
    tied: int
    lost: int
    byes: int
    rounds_won: int
    rounds_lost: int
    points_for: int
    points_against: int
    games: tuple[Game, ...]

    @property
    def id(self) -> int:
        return self.entrant.id


Records = Mapping[int, EntrantRecord]


class Side(NamedTuple):
    rounds: int
    points: int


@dataclass(slots=True)
class _Totals:
    match_points: int = 0
    won: int = 0
    tied: int = 0
    lost: int = 0
    byes: int = 0
    rounds_won: int = 0
    rounds_lost: int = 0
    points_for: int = 0
    points_against: int = 0


def build_records(
    entrants: Iterable[Entrant], results: Iterable[MatchResult], scoring: Scoring
) -> dict[int, EntrantRecord]:
    """Fold the results into one record per entrant (entrants without results get zeros)."""
    by_id: dict[int, Entrant] = {}
    for entrant in entrants:
        if entrant.id in by_id:
            raise DuplicateEntrant.because(
                gettext_noop("entrant %(entrant)s is listed more than once"), entrant=entrant.id
            )
        by_id[entrant.id] = entrant
    totals = {entrant_id: _Totals() for entrant_id in by_id}
    games: dict[int, list[Game]] = {entrant_id: [] for entrant_id in by_id}
    for result in results:
        for entrant_id in result.entrants:
            if entrant_id not in by_id:
                raise UnknownEntrant.because(
                    gettext_noop("entrant %(entrant)s is not in this standings: %(result)s"),
                    entrant=entrant_id,
                    result=result,
                )
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


def add_bye(totals: _Totals, scoring: Scoring) -> None:
    totals.byes += 1
    totals.won += 1
    totals.match_points += scoring.bye


def add_game(totals: _Totals, outcome: Outcome, match_points: int, own: Side, other: Side) -> None:
    totals.match_points += match_points
    totals.rounds_won += own.rounds
    totals.rounds_lost += other.rounds
    totals.points_for += own.points
    totals.points_against += other.points
    if outcome is Outcome.WIN:
        totals.won += 1
    elif outcome is Outcome.TIE:
        totals.tied += 1
    else:
        totals.lost += 1


def freeze(entrant: Entrant, totals: _Totals, games: list[Game]) -> EntrantRecord:
    return EntrantRecord(
        entrant=entrant,
        match_points=totals.match_points,
        played=totals.won + totals.tied + totals.lost,
        won=totals.won,
        tied=totals.tied,
        lost=totals.lost,
        byes=totals.byes,
        rounds_won=totals.rounds_won,
        rounds_lost=totals.rounds_lost,
        points_for=totals.points_for,
        points_against=totals.points_against,
        # Sorted so that a record does not depend on the order the results came in.
        games=tuple(
            sorted(games, key=lambda game: (game.opponent, game.outcome.value, game.match_points))
        ),
    )
