"""Round outcomes: points per side and who won, from played cards or entered by a scorer."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from common.explained import gettext_noop
from games.rules.errors import InvalidPoints, PointsMustTotal120
from games.rules.tables import Table
from games.rules.variants import DEFAULT_THREE_WINNER, ThreeWinner

ROUND_POINTS = 120
WINNING_POINTS_AT_THREE = 61
"""Under the variant `three_winner: "at_least_61"`, what a side at a table of three needs to win."""


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """Points per side (index = side) and the winning side, None for a tie.

    The side with the most points wins; equal highest totals tie. With two sides and 120 points
    this is the classic rule: 61 or more wins, 60-60 is a tie. At three sides, under the variant
    `three_winner: "at_least_61"`, a round in which nobody reaches 61 has no winner either.
    """

    points: tuple[int, ...]
    winning_side: int | None

    @classmethod
    def from_points(
        cls, points: Sequence[int], three_winner: ThreeWinner = DEFAULT_THREE_WINNER
    ) -> "RoundOutcome":
        best = max(points)
        leaders = [side for side, side_points in enumerate(points) if side_points == best]
        winner = leaders[0] if len(leaders) == 1 else None
        if three_winner == "at_least_61" and len(points) == 3 and best < WINNING_POINTS_AT_THREE:
            winner = None
        return cls(tuple(points), winner)

    @property
    def is_tie(self) -> bool:
        return self.winning_side is None

    @property
    def result(self) -> str:
        """`side0`, `side1`, `side2` or `tie`."""
        return "tie" if self.winning_side is None else f"side{self.winning_side}"

    def to_dict(self) -> dict[str, Any]:
        return {"points": list(self.points), "winning_side": self.winning_side}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RoundOutcome":
        return cls(tuple(data["points"]), data["winning_side"])


def score_only_round(
    table_size: int, points: Sequence[int], three_winner: ThreeWinner = DEFAULT_THREE_WINNER
) -> RoundOutcome:
    """The outcome of a round whose points a scorer entered without the cards (one per side)."""
    side_count = Table(table_size).side_count
    check_points_name_every_side(points, side_count)
    for side, side_points in enumerate(points):
        check_points_are_possible(side, side_points)
    check_points_total_120(points)
    return RoundOutcome.from_points(points, three_winner)


def check_points_name_every_side(points: Sequence[int], side_count: int) -> None:
    if len(points) != side_count:
        raise InvalidPoints.because(
            gettext_noop("give the points of each of the %(sides)s sides, not %(points)r"),
            sides=side_count,
            points=points,
        )


def check_points_are_possible(side: int, side_points: int) -> None:
    if type(side_points) is not int or not 0 <= side_points <= ROUND_POINTS:
        raise InvalidPoints.because(
            gettext_noop("side %(side)s cannot score %(points)r: points are 0 to 120"),
            side=side,
            points=side_points,
        )


def check_points_total_120(points: Sequence[int]) -> None:
    if sum(points) != ROUND_POINTS:
        raise PointsMustTotal120.because(
            gettext_noop("the points %(points)s total %(total)s, not 120"),
            points=list(points),
            total=sum(points),
        )
