"""A club season's standings over its finished tournaments (decision record 0037). Pure.

- A `PointsTable` gives the points of 1st, 2nd, 3rd...; a place beyond the table earns the
  `participation` points (0 unless the organizer says otherwise). The points never rise from one
  place to the next, and participation is never worth more than the table's last place.
- Places shared in a tournament (two semi-final losers both 3rd) each earn that place's points.
- `best_n` counts only each player's N best results (by points; among results worth the same
  points, the better place, then the earlier tournament); None counts them all.
- The table ranks by counted points, then by count-back over all the player's results (more 1st
  places, then more 2nd places...). Players equal on both share a rank ("1, 2, 2, 4") and are
  listed by name (case aside), then by id.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeGuard

from common.explained import gettext_noop
from common.parsing import ascii_int
from tournaments.standings.errors import StandingsError

MAX_PLACES = 64
"""The longest points table: more places than any club evening ranks."""

MAX_POINTS = 10_000


class InvalidPointsTable(StandingsError):
    code = "invalid_points_table"


class InvalidBestN(StandingsError):
    code = "invalid_best_n"


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Points per place: `places[0]` for 1st; beyond the table, `participation`."""

    places: tuple[int, ...]
    participation: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "places", tuple(self.places))
        check_places(self.places)
        if not is_points(self.participation) or self.participation > self.places[-1]:
            raise InvalidPointsTable.because(
                gettext_noop(
                    "the participation points must be a whole number from 0 to the last "
                    "place's points (%(last)s), not %(value)r"
                ),
                last=self.places[-1],
                value=self.participation,
            )

    def points_for(self, place: int) -> int:
        return self.places[place - 1] if place <= len(self.places) else self.participation


def is_points(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_POINTS


def check_places(places: Sequence[object]) -> None:
    if not places or len(places) > MAX_PLACES:
        raise InvalidPointsTable.because(
            gettext_noop("give the points of 1 to %(most)s places, best place first"),
            most=MAX_PLACES,
        )
    checked: list[int] = []
    for number, points in enumerate(places, start=1):
        if is_points(points):
            checked.append(points)
        else:
            raise InvalidPointsTable.because(
                gettext_noop(
                    "place %(place)s: %(value)r is not a whole number of points from 0 to %(most)s"
                ),
                place=number,
                value=points,
                most=MAX_POINTS,
            )
    for number, (better, worse) in enumerate(itertools.pairwise(checked), start=2):
        if worse > better:
            raise InvalidPointsTable.because(
                gettext_noop(
                    "place %(place)s earns more points (%(worse)s) than the place before it "
                    "(%(better)s): the points never rise down the table"
                ),
                place=number,
                worse=worse,
                better=better,
            )


def parse_points_table(text: str) -> tuple[int, ...]:
    """ "25,18,15,12" (spaces allowed) as points per place; InvalidPointsTable says what is
    wrong."""
    items = [item.strip() for item in text.split(",")]
    if items and not items[-1]:
        items.pop()  # a trailing comma
    numbers: list[int] = []
    for number, item in enumerate(items, start=1):
        points = ascii_int(item)
        if points is None:
            raise InvalidPointsTable.because(
                gettext_noop(
                    "place %(place)s: %(value)r is not a whole number of points; write the "
                    "points of each place separated by commas, best place first, e.g. "
                    "25,18,15,12"
                ),
                place=number,
                value=item,
            )
        numbers.append(points)
    check_places(numbers)
    return tuple(numbers)


def check_best_n(best_n: int | None) -> int | None:
    if best_n is not None and (
        not isinstance(best_n, int) or isinstance(best_n, bool) or not 1 <= best_n <= MAX_PLACES
    ):
        raise InvalidBestN.because(
            gettext_noop("best N must be a whole number from 1 to %(most)s, or empty for all"),
            most=MAX_PLACES,
        )
    return best_n


@dataclass(frozen=True, slots=True)
class TournamentPlaces:
    """One finished tournament of the season: each player's final place in it."""

    tournament: str
    places: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class SeasonResult:
    tournament: str
    place: int
    points: int
    counted: bool


@dataclass(frozen=True, slots=True)
class SeasonRow:
    rank: int
    player: int
    name: str
    points: int
    """The counted results' points."""
    results: tuple[SeasonResult, ...] = field(hash=False)
    """Every result, in the season's tournament order."""

    @property
    def counted(self) -> int:
        return sum(1 for result in self.results if result.counted)

    @property
    def all_points(self) -> int:
        return sum(result.points for result in self.results)


def counted_results(
    results: Sequence[tuple[str, int, int]], best_n: int | None
) -> tuple[SeasonResult, ...]:
    """(tournament, place, points) in season order, each marked counted or not."""
    order = sorted(range(len(results)), key=lambda i: (-results[i][2], results[i][1], i))
    kept = set(order if best_n is None else order[:best_n])
    return tuple(
        SeasonResult(tournament, place, points, index in kept)
        for index, (tournament, place, points) in enumerate(results)
    )


def count_back(results: Iterable[SeasonResult], depth: int) -> tuple[int, ...]:
    """How many 1st places, 2nd places... down to `depth`, negated to sort best first."""
    counts = [0] * depth
    for result in results:
        counts[result.place - 1] -= 1
    return tuple(counts)


def season_standings(
    tournaments: Sequence[TournamentPlaces],
    table: PointsTable,
    *,
    best_n: int | None = None,
    names: Mapping[int, str] | None = None,
) -> list[SeasonRow]:
    """The season table, best first: one row per player placed in any of the tournaments."""
    check_best_n(best_n)
    names = names or {}
    by_player: dict[int, list[tuple[str, int, int]]] = {}
    for entry in tournaments:
        for player, place in sorted(entry.places.items()):
            if place < 1:
                raise InvalidPointsTable.because(
                    gettext_noop("a place is 1 or more, not %(place)r"), place=place
                )
            by_player.setdefault(player, []).append(
                (entry.tournament, place, table.points_for(place))
            )
    depth = max((place for entry in tournaments for place in entry.places.values()), default=0)
    scored = []
    for player, results in by_player.items():
        marked = counted_results(results, best_n)
        points = sum(result.points for result in marked if result.counted)
        scored.append(((-points, count_back(marked, depth)), player, points, marked))
    name_of = {player: names.get(player, "") for player in by_player}
    scored.sort(key=lambda item: (item[0], name_of[item[1]].casefold(), item[1]))
    rows: list[SeasonRow] = []
    for index, (key, player, points, marked) in enumerate(scored):
        shared = index > 0 and scored[index - 1][0] == key
        rank = rows[-1].rank if shared else index + 1
        rows.append(SeasonRow(rank, player, name_of[player], points, marked))
    return rows
