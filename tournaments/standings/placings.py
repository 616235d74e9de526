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

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any

from common.explained import gettext_noop
from tournaments.standings.config import check_keys
from tournaments.standings.errors import (
    DuplicateEntrant,
    DuplicateTiebreak,
    InvalidResult,
    InvalidStandingsConfig,
    UnknownEntrant,
    UnknownTiebreak,
)
from tournaments.standings.results import Entrant

# Results -----------------------------------------------------------------------------------------


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


# Scoring and config -----------------------------------------------------------------------------


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
        names = tuple(self.tiebreaks)
        object.__setattr__(self, "tiebreaks", names)
        if not names:
            raise InvalidStandingsConfig.because(
                gettext_noop("at least one tie-break is needed (usually match_points)")
            )
        for name in names:
            if name not in PLACING_TIEBREAK_NAMES:
                raise UnknownTiebreak(name, PLACING_TIEBREAK_NAMES)
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise DuplicateTiebreak.because(
                gettext_noop("each tie-break may appear once; repeated: %(repeated)s"),
                repeated=", ".join(repeated),
            )

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
        check_keys(data, {"scoring", "tiebreaks"}, "standings config")
        scoring_data = data.get("scoring", {})
        if not isinstance(scoring_data, Mapping):
            raise InvalidStandingsConfig.because(
                gettext_noop("scoring must be an object of match points per outcome")
            )
        check_keys(scoring_data, {"places", "bye", "forfeit"}, "scoring")
        for key in ("bye", "forfeit"):
            value = scoring_data.get(key, 0)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidStandingsConfig.because(
                    gettext_noop("scoring %(key)s must be an integer, not %(value)r"),
                    key=key,
                    value=value,
                )
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
        tiebreaks = data.get("tiebreaks", PLACING_TIEBREAKS_DEFAULT)
        if not isinstance(tiebreaks, list | tuple) or not all(
            isinstance(name, str) for name in tiebreaks
        ):
            raise InvalidStandingsConfig.because(
                gettext_noop("tiebreaks must be a list of tie-break names")
            )
        return cls(scoring=scoring, tiebreaks=tuple(tiebreaks))


# Records -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Meeting:
    """One table from one entrant's side, as seen against one opponent at it."""

    opponent: int
    outcome: int
    """1 if placed above the opponent, 0 if level, -1 if below."""


@dataclass(frozen=True, slots=True)
class PlacingRecord:
    entrant: Entrant
    match_points: Fraction
    played: int
    byes: int
    placings: tuple[int, int, int]
    """1st, 2nd and 3rd places (at a table of two, 2nd of two counts as last: 3rd)."""
    rounds_won: int
    points_for: int
    round_wins_margin: Fraction
    card_points_margin: Fraction
    meetings: tuple[Meeting, ...]


PlacingRecords = Mapping[int, PlacingRecord]


def build_placing_records(
    entrants: Iterable[Entrant], results: Iterable[TableResult], scoring: PlacingScoring
) -> dict[int, PlacingRecord]:
    by_id: dict[int, Entrant] = {}
    for entrant in entrants:
        if entrant.id in by_id:
            raise DuplicateEntrant.because(
                gettext_noop("entrant %(entrant)s is listed more than once"), entrant=entrant.id
            )
        by_id[entrant.id] = entrant
    totals: dict[int, dict[str, Any]] = {
        entrant_id: {
            "match_points": Fraction(0),
            "played": 0,
            "byes": 0,
            "placings": [0, 0, 0],
            "rounds_won": 0,
            "points_for": 0,
            "round_wins_margin": Fraction(0),
            "card_points_margin": Fraction(0),
            "meetings": [],
        }
        for entrant_id in by_id
    }
    for result in results:
        for entrant_id in result.entrants:
            if entrant_id not in by_id:
                raise UnknownEntrant.because(
                    gettext_noop("entrant %(entrant)s is not in this standings: %(result)s"),
                    entrant=entrant_id,
                    result=result,
                )
        awarded = scoring.points(result)
        if result.is_bye:
            record = totals[result.seats[0].entrant]
            record["byes"] += 1
            record["match_points"] += awarded[result.seats[0].entrant]
            continue
        size = len(result.seats)
        mean_rounds = Fraction(sum(seat.rounds for seat in result.seats), size)
        mean_points = Fraction(sum(seat.points for seat in result.seats), size)
        slot_of_place = (0, 1, 2) if size == 3 else (0, 2)
        for seat in result.seats:
            record = totals[seat.entrant]
            record["match_points"] += awarded[seat.entrant]
            record["played"] += 1
            record["placings"][slot_of_place[seat.place - 1]] += 1
            record["rounds_won"] += seat.rounds
            record["points_for"] += seat.points
            record["round_wins_margin"] += seat.rounds - mean_rounds
            record["card_points_margin"] += seat.points - mean_points
            for other in result.seats:
                if other.entrant != seat.entrant:
                    outcome = (other.place > seat.place) - (other.place < seat.place)
                    record["meetings"].append(Meeting(other.entrant, outcome))
    return {
        entrant_id: PlacingRecord(
            entrant=by_id[entrant_id],
            match_points=values["match_points"],
            played=values["played"],
            byes=values["byes"],
            placings=(values["placings"][0], values["placings"][1], values["placings"][2]),
            rounds_won=values["rounds_won"],
            points_for=values["points_for"],
            round_wins_margin=values["round_wins_margin"],
            card_points_margin=values["card_points_margin"],
            # Sorted so that a record does not depend on the order the results came in.
            meetings=tuple(sorted(values["meetings"], key=lambda m: (m.opponent, m.outcome))),
        )
        for entrant_id, values in totals.items()
    }


# Tie-breaks --------------------------------------------------------------------------------------

PlacingValue = int | Fraction | tuple[int, ...] | None
PlacingTiebreakFunction = Callable[[PlacingRecords, Sequence[int]], dict[int, PlacingValue]]


def _match_points(records: PlacingRecords, group: Sequence[int]) -> dict[int, PlacingValue]:
    return {entrant: records[entrant].match_points for entrant in group}


def _placings(records: PlacingRecords, group: Sequence[int]) -> dict[int, PlacingValue]:
    """Count-back: most 1st places, then most 2nd places (a 3rd place is no merit)."""
    return {entrant: records[entrant].placings[:2] for entrant in group}


def _card_points_margin(records: PlacingRecords, group: Sequence[int]) -> dict[int, PlacingValue]:
    return {entrant: records[entrant].card_points_margin for entrant in group}


def _round_wins_margin(records: PlacingRecords, group: Sequence[int]) -> dict[int, PlacingValue]:
    return {entrant: records[entrant].round_wins_margin for entrant in group}


def _opponents_score(records: PlacingRecords, group: Sequence[int]) -> dict[int, PlacingValue]:
    values: dict[int, PlacingValue] = {}
    for entrant in group:
        scores = [records[m.opponent].match_points for m in records[entrant].meetings]
        values[entrant] = sum(scores, Fraction(0)) / len(scores) if scores else None
    return values


def _head_to_head(records: PlacingRecords, group: Sequence[int]) -> dict[int, PlacingValue]:
    """Placed above minus placed below, at the tables shared with other members of the group;
    only when every pair of members met equally often (at least once)."""
    members = set(group)
    values: dict[int, int] = dict.fromkeys(group, 0)
    meetings: Counter[tuple[int, int]] = Counter()
    for entrant in group:
        for meeting in records[entrant].meetings:
            if meeting.opponent in members:
                values[entrant] += meeting.outcome
                if entrant < meeting.opponent:
                    meetings[(entrant, meeting.opponent)] += 1
    counts = {meetings[pair] for pair in combinations(sorted(members), 2)}
    if len(counts) != 1 or 0 in counts:
        return dict.fromkeys(group, None)
    return dict(values)


def _seed(records: PlacingRecords, group: Sequence[int]) -> dict[int, PlacingValue]:
    return {entrant: records[entrant].entrant.seed for entrant in group}


@dataclass(frozen=True, slots=True)
class PlacingTiebreak:
    name: str
    evaluate: PlacingTiebreakFunction
    lower_is_better: bool = False
    depends_on_group: bool = False

    def sort_key(self, value: PlacingValue) -> tuple[int, tuple[Fraction, ...]]:
        """Ascending order of this key is the ranking order; `None` ranks last."""
        if value is None:
            return (1, ())
        parts = value if isinstance(value, tuple) else (value,)
        sign = 1 if self.lower_is_better else -1
        return (0, tuple(Fraction(sign * part) for part in parts))


PLACING_TIEBREAKS: dict[str, PlacingTiebreak] = {
    tiebreak.name: tiebreak
    for tiebreak in (
        PlacingTiebreak("match_points", _match_points),
        PlacingTiebreak("placings", _placings),
        PlacingTiebreak("head_to_head", _head_to_head, depends_on_group=True),
        PlacingTiebreak("card_points_margin", _card_points_margin),
        PlacingTiebreak("round_wins_margin", _round_wins_margin),
        PlacingTiebreak("opponents_score", _opponents_score),
        PlacingTiebreak("seed", _seed, lower_is_better=True),
    )
}
PLACING_TIEBREAK_NAMES: tuple[str, ...] = tuple(PLACING_TIEBREAKS)


# The table ---------------------------------------------------------------------------------------

JsonValue = int | float | list[int] | None


def to_json(value: PlacingValue) -> JsonValue:
    """Fractions become floats (exact ones stay whole numbers), count-backs lists."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


@dataclass(frozen=True, slots=True)
class PlacingStandingRow:
    rank: int
    entrant: int
    match_points: Fraction
    played: int
    byes: int
    placings: tuple[int, int, int]
    rounds_won: int
    points_for: int
    tiebreaks: dict[str, PlacingValue] = field(hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "match_points": to_json(self.match_points),
            "played": self.played,
            "byes": self.byes,
            "placings": list(self.placings),
            "rounds_won": self.rounds_won,
            "points_for": self.points_for,
            "tiebreaks": {name: to_json(value) for name, value in self.tiebreaks.items()},
        }


DEFAULT_PLACING_CONFIG = PlacingStandingsConfig()


def compute_placing_standings(
    *,
    entrants: Iterable[Entrant | int],
    results: Iterable[TableResult],
    config: PlacingStandingsConfig = DEFAULT_PLACING_CONFIG,
) -> list[PlacingStandingRow]:
    """Rank the entrants of a stage played at tables of three: best first, equal rows share a
    rank ("1, 2, 2, 4") and are listed by entrant id. Input order never matters."""
    records = build_placing_records(
        (item if isinstance(item, Entrant) else Entrant(item) for item in entrants),
        results,
        config.scoring,
    )
    tiebreaks = [PLACING_TIEBREAKS[name] for name in config.tiebreaks]
    values: dict[str, dict[int, PlacingValue]] = {}
    for tiebreak in tiebreaks:
        values[tiebreak.name] = (
            dict.fromkeys(records, None)
            if tiebreak.depends_on_group
            else tiebreak.evaluate(records, sorted(records))
        )
    groups = [sorted(records)] if records else []
    for tiebreak in tiebreaks:
        groups = [part for group in groups for part in _split(group, tiebreak, records, values)]
    rows: list[PlacingStandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for entrant in group:
            record = records[entrant]
            rows.append(
                PlacingStandingRow(
                    rank=rank,
                    entrant=entrant,
                    match_points=record.match_points,
                    played=record.played,
                    byes=record.byes,
                    placings=record.placings,
                    rounds_won=record.rounds_won,
                    points_for=record.points_for,
                    tiebreaks={name: values[name][entrant] for name in config.tiebreaks},
                )
            )
    return rows


def _split(
    group: list[int],
    tiebreak: PlacingTiebreak,
    records: PlacingRecords,
    values: dict[str, dict[int, PlacingValue]],
) -> list[list[int]]:
    if len(group) == 1:
        return [group]
    if not tiebreak.depends_on_group:
        return _partition(group, tiebreak, values[tiebreak.name])
    group_values = tiebreak.evaluate(records, group)
    values[tiebreak.name].update(group_values)
    parts = _partition(group, tiebreak, group_values)
    if len(parts) == 1:
        return parts
    # As in decision 0008: head-to-head again within each part still tied.
    return [piece for part in parts for piece in _split(part, tiebreak, records, values)]


def _partition(
    group: Sequence[int], tiebreak: PlacingTiebreak, group_values: Mapping[int, PlacingValue]
) -> list[list[int]]:
    ordered = sorted(group, key=lambda entrant: (tiebreak.sort_key(group_values[entrant]), entrant))
    parts: list[list[int]] = []
    previous: tuple[int, tuple[Fraction, ...]] | None = None
    for entrant in ordered:
        key = tiebreak.sort_key(group_values[entrant])
        if key != previous:
            parts.append([])
            previous = key
        parts[-1].append(entrant)
    return parts
