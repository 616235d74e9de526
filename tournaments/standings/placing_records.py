"""Each entrant's record at tables of three (its match points, placings, margins and the tables
it shared with each opponent), and the tie-breaks that read it (decision record 0031)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from tournaments.standings.placing_results import PlacingScoring, TableResult
from tournaments.standings.ranking import head_to_head_totals
from tournaments.standings.results import Entrant, check_entrants_known, entrants_by_id


@dataclass(frozen=True, slots=True)
class Meeting:
    """One table from one entrant's side, as seen against one opponent at it."""

    opponent: int
    outcome: int
    """1 if placed above the opponent, 0 if level, -1 if below."""


@dataclass(frozen=True, slots=True)
class PlacingTotals:
    """What an entrant's tables add up to: the columns of its row at tables of three, in order."""

    match_points: Fraction
    played: int
    byes: int
    placings: tuple[int, int, int]
    """1st, 2nd and 3rd places (at a table of two, 2nd of two counts as last: 3rd)."""
    rounds_won: int
    points_for: int

    def totals(self) -> dict[str, Any]:
        """The totals alone, by name, in order."""
        return {name: getattr(self, name) for name in PLACING_TOTALS}


PLACING_TOTALS = tuple(item.name for item in fields(PlacingTotals))


@dataclass(frozen=True, slots=True)
class PlacingRecord(PlacingTotals):
    entrant: Entrant
    round_wins_margin: Fraction
    card_points_margin: Fraction
    meetings: tuple[Meeting, ...]


PlacingRecords = Mapping[int, PlacingRecord]


def build_placing_records(
    entrants: Iterable[Entrant],
    results: Iterable[TableResult],
    scoring: PlacingScoring,
    sat_out: Iterable[tuple[int, int]] = (),
) -> dict[int, PlacingRecord]:
    """`sat_out`: (entrant, match points) for each round an entrant sat out by its request
    (decision record 0058), as in `build_records`."""
    by_id = entrants_by_id(entrants)
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
    for entrant_id, match_points in sat_out:
        check_entrants_known((entrant_id,), by_id, "a requested bye")
        totals[entrant_id]["match_points"] += match_points
    for result in results:
        check_entrants_known(result.entrants, by_id, result)
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
    values = head_to_head_totals(
        group,
        lambda entrant: ((m.opponent, m.outcome) for m in records[entrant].meetings),
    )
    return dict.fromkeys(group, None) if values is None else dict(values)


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
