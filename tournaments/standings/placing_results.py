"""The result of a table at tables of three (decision record 0031): each entrant's place, with
its rounds won and card points, and the match points each place earns (`PlacingScoring`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from common.explained import gettext_noop
from tournaments.standings.errors import InvalidResult, InvalidStandingsConfig


@dataclass(frozen=True, slots=True)
class Seat:
    """One entrant's line in a table's result: its place and its totals over the match."""

    entrant: int
    place: int
    rounds: int = 0
    points: int = 0


@dataclass(frozen=True, slots=True)
class TableResult:
    """The placings of one table (two or three seats), or a bye (one seat, place 1).

    `seats` are kept in place order (then entrant id). `forfeited` entrants are placed last.
    """

    seats: tuple[Seat, ...]
    forfeited: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "seats", tuple(sorted(self.seats, key=lambda seat: (seat.place, seat.entrant)))
        )
        object.__setattr__(self, "forfeited", frozenset(self.forfeited))
        check_table_result(self)

    @classmethod
    def bye(cls, entrant: int) -> TableResult:
        return cls(seats=(Seat(entrant, 1),))

    @classmethod
    def from_totals(
        cls,
        totals: Mapping[int, tuple[int, int]],
        *,
        forfeited: Iterable[int] = (),
    ) -> TableResult:
        """Place entrants by (rounds won, card points), most first; forfeiting entrants last.

        Equal totals share a place. The caller may place by another rule (a deciding round) and
        build the `Seat`s itself.
        """
        out = frozenset(forfeited)

        def key(entrant: int) -> tuple[bool, int, int]:
            rounds, points = totals[entrant]
            return (entrant in out, -rounds, -points)

        seats = [
            Seat(
                entrant,
                1 + sum(1 for other in totals if key(other) < key(entrant)),
                totals[entrant][0],
                totals[entrant][1],
            )
            for entrant in totals
        ]
        return cls(seats=tuple(seats), forfeited=out)

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1

    @property
    def entrants(self) -> tuple[int, ...]:
        return tuple(seat.entrant for seat in self.seats)


def check_table_result(result: TableResult) -> None:
    seats = result.seats
    if not 1 <= len(seats) <= 3:
        raise InvalidResult.because(
            gettext_noop("a table result has one to three entrants: %(result)s"), result=result
        )
    entrants = [seat.entrant for seat in seats]
    repeated = sorted({entrant for entrant in entrants if entrants.count(entrant) > 1})
    if repeated:
        raise InvalidResult.because(
            gettext_noop("entrant %(entrant)s cannot play against itself"), entrant=repeated[0]
        )
    if any(value < 0 for seat in seats for value in (seat.rounds, seat.points)):
        raise InvalidResult.because(
            gettext_noop("rounds and card points cannot be negative: %(result)s"), result=result
        )
    places = [seat.place for seat in seats]
    if places != [1 + sum(1 for other in places if other < place) for place in places]:
        raise InvalidResult.because(
            gettext_noop("the places at a table must read 1, 2, 3 with ties sharing: %(result)s"),
            result=result,
        )
    if not result.forfeited <= set(entrants):
        raise InvalidResult.because(
            gettext_noop("entrant %(entrant)s is not in this standings: %(result)s"),
            entrant=min(result.forfeited - set(entrants)),
            result=result,
        )
    worst_playing = max((s.place for s in seats if s.entrant not in result.forfeited), default=0)
    if any(s.place <= worst_playing for s in seats if s.entrant in result.forfeited):
        raise InvalidResult.because(
            gettext_noop("an entrant who forfeits is placed below the others: %(result)s"),
            result=result,
        )
    if len(seats) == 1:
        if result.forfeited:
            raise InvalidResult.because(
                gettext_noop("a bye cannot be a forfeit: %(result)s"), result=result
            )
        if seats[0].rounds or seats[0].points:
            raise InvalidResult.because(
                gettext_noop("a bye credits no rounds or card points: %(result)s"), result=result
            )


@dataclass(frozen=True, slots=True)
class PlacingScoring:
    """Match points for 1st, 2nd and 3rd at a table of three; a bye; a forfeit."""

    places: tuple[int, int, int] = (2, 1, 0)
    bye: int = 2
    forfeit: int = 0

    def __post_init__(self) -> None:
        places = tuple(self.places)
        if len(places) != 3 or not all(
            isinstance(value, int) and not isinstance(value, bool) for value in places
        ):
            raise InvalidStandingsConfig.because(
                gettext_noop("places gives the match points of 1st, 2nd and 3rd: %(places)r"),
                places=self.places,
            )
        if not places[0] >= places[1] >= places[2]:
            raise InvalidStandingsConfig.because(
                gettext_noop("a better place never earns fewer match points: %(places)r"),
                places=self.places,
            )
        object.__setattr__(self, "places", places)

    def slots(self, table_size: int) -> tuple[int, ...]:
        """The place points of a table of `table_size`: a table of two skips the middle place."""
        return self.places if table_size == 3 else (self.places[0], self.places[2])

    def points(self, result: TableResult) -> dict[int, Fraction]:
        """Each entrant's match points at this table; shared places share their points."""
        if result.is_bye:
            return {result.seats[0].entrant: Fraction(self.bye)}
        slots = self.slots(len(result.seats))
        sharing = Counter(seat.place for seat in result.seats)
        awarded: dict[int, Fraction] = {}
        for seat in result.seats:
            if seat.entrant in result.forfeited:
                awarded[seat.entrant] = Fraction(self.forfeit)
                continue
            spanned = slots[seat.place - 1 : seat.place - 1 + sharing[seat.place]]
            awarded[seat.entrant] = Fraction(sum(spanned), len(spanned))
        return awarded
