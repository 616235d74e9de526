"""The inputs: entrants and the results of their matches."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from common.explained import gettext_noop
from tournaments.standings.errors import DuplicateEntrant, InvalidResult, UnknownEntrant


@dataclass(frozen=True, slots=True)
class Entrant:
    """An entrant by its opaque id; `seed` 1 is the strongest, `None` means unseeded."""

    id: int
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The result of one match between two entrants, or a bye for one entrant.

    `second` is `None` for a bye. `winner` is one of the two entrants, or `None` for a tie (a match
    scored by total points may end level). Rounds and card points are totals over the match. A
    forfeit names the side that did not forfeit as the winner; its rounds and points are those
    recorded before the forfeit (often zero).
    """

    first: int
    second: int | None
    winner: int | None
    first_rounds: int = 0
    second_rounds: int = 0
    first_points: int = 0
    second_points: int = 0
    forfeit: bool = False

    def __post_init__(self) -> None:
        check_result_is_consistent(self)

    @classmethod
    def bye(cls, entrant: int) -> "MatchResult":
        return cls(first=entrant, second=None, winner=entrant)

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def entrants(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


def check_result_is_consistent(result: MatchResult) -> None:
    tallies = (result.first_rounds, result.second_rounds, result.first_points, result.second_points)
    if any(value < 0 for value in tallies):
        raise InvalidResult.because(
            gettext_noop("rounds and card points cannot be negative: %(result)s"), result=result
        )
    if result.second is None:
        check_bye_is_consistent(result)
        return
    if result.first == result.second:
        raise InvalidResult.because(
            gettext_noop("entrant %(entrant)s cannot play against itself"), entrant=result.first
        )
    if result.winner is not None and result.winner not in (result.first, result.second):
        raise InvalidResult.because(
            gettext_noop("the winner %(winner)s did not play in this match: %(result)s"),
            winner=result.winner,
            result=result,
        )
    if result.forfeit and result.winner is None:
        raise InvalidResult.because(
            gettext_noop("a forfeit needs a winner (the side that did not forfeit): %(result)s"),
            result=result,
        )


def check_bye_is_consistent(result: MatchResult) -> None:
    if result.winner != result.first:
        raise InvalidResult.because(
            gettext_noop("a bye is won by its entrant %(entrant)s: %(result)s"),
            entrant=result.first,
            result=result,
        )
    if result.forfeit:
        raise InvalidResult.because(
            gettext_noop("a bye cannot be a forfeit: %(result)s"), result=result
        )
    if any((result.first_rounds, result.second_rounds, result.first_points, result.second_points)):
        raise InvalidResult.because(
            gettext_noop("a bye credits no rounds or card points: %(result)s"), result=result
        )


def entrants_by_id(entrants: Iterable[Entrant]) -> dict[int, Entrant]:
    """The standings' entrants by id; an entrant listed twice is refused."""
    by_id: dict[int, Entrant] = {}
    for entrant in entrants:
        if entrant.id in by_id:
            raise DuplicateEntrant.because(
                gettext_noop("entrant %(entrant)s is listed more than once"), entrant=entrant.id
            )
        by_id[entrant.id] = entrant
    return by_id


def check_entrants_known(
    entrant_ids: Iterable[int], by_id: Mapping[int, Entrant], result: object
) -> None:
    """Every entrant of `result` is in the standings."""
    for entrant_id in entrant_ids:
        if entrant_id not in by_id:
            raise UnknownEntrant.because(
                gettext_noop("entrant %(entrant)s is not in this standings: %(result)s"),
                entrant=entrant_id,
                result=result,
            )
