"""Tie-breaks: small pure functions, each under a stable name.

Each function takes the entrants' records and a group of entrant ids and returns a value per
member of the group. Most values do not depend on the group; `head_to_head` does: it looks only at
the games between the members. Higher values rank first, except for `seed` (seed 1 first). `None`
means "does not apply" and ranks after every value.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments.standings.ranking import head_to_head_totals
from tournaments.standings.records import Outcome, Records

TiebreakValue = int | float | None
TiebreakFunction = Callable[[Records, Sequence[int]], dict[int, TiebreakValue]]


def match_points(records: Records, group: Sequence[int]) -> dict[int, TiebreakValue]:
    return {entrant: records[entrant].match_points for entrant in group}


def round_wins_difference(records: Records, group: Sequence[int]) -> dict[int, TiebreakValue]:
    return {
        entrant: records[entrant].rounds_won - records[entrant].rounds_lost for entrant in group
    }


def card_points_difference(records: Records, group: Sequence[int]) -> dict[int, TiebreakValue]:
    return {
        entrant: records[entrant].points_for - records[entrant].points_against for entrant in group
    }


def head_to_head(records: Records, group: Sequence[int]) -> dict[int, TiebreakValue]:
    """Match points in the games between members of the group (a mini-table).

    It applies only when every pair in the group met equally often (at least once); otherwise a
    member who met more of the others would collect more points, and every value is `None`.
    """
    points = head_to_head_totals(
        group,
        lambda entrant: ((game.opponent, game.match_points) for game in records[entrant].games),
    )
    return dict.fromkeys(group, None) if points is None else dict(points)


def opponents_scores(records: Records, entrant: int) -> list[int]:
    """The match points of each opponent, once per game played (byes have no opponent)."""
    return [records[game.opponent].match_points for game in records[entrant].games]


def buchholz(records: Records, group: Sequence[int]) -> dict[int, TiebreakValue]:
    return {entrant: sum(opponents_scores(records, entrant)) for entrant in group}


def median_buchholz(records: Records, group: Sequence[int]) -> dict[int, TiebreakValue]:
    """Buchholz without the highest and the lowest opponent; with fewer than 3, nothing dropped."""
    values: dict[int, TiebreakValue] = {}
    for entrant in group:
        scores = sorted(opponents_scores(records, entrant))
        values[entrant] = sum(scores[1:-1]) if len(scores) >= 3 else sum(scores)
    return values


def sonneborn_berger(records: Records, group: Sequence[int]) -> dict[int, TiebreakValue]:
    """The match points of the opponents beaten, plus half of those of the opponents tied with."""
    values: dict[int, TiebreakValue] = {}
    for entrant in group:
        doubled = 0  # counted in halves so the sum is exact whatever the order
        for game in records[entrant].games:
            if game.outcome is Outcome.WIN:
                doubled += 2 * records[game.opponent].match_points
            elif game.outcome is Outcome.TIE:
                doubled += records[game.opponent].match_points
        values[entrant] = doubled / 2
    return values


def seed(records: Records, group: Sequence[int]) -> dict[int, TiebreakValue]:
    return {entrant: records[entrant].entrant.seed for entrant in group}


@dataclass(frozen=True, slots=True)
class Tiebreak:
    name: str
    evaluate: TiebreakFunction
    lower_is_better: bool = False
    depends_on_group: bool = False

    def sort_key(self, value: TiebreakValue) -> tuple[int, int | float]:
        """Ascending order of this key is the ranking order; `None` ranks last."""
        if value is None:
            return (1, 0)
        return (0, value if self.lower_is_better else -value)


TIEBREAKS: dict[str, Tiebreak] = {
    tiebreak.name: tiebreak
    for tiebreak in (
        Tiebreak("match_points", match_points),
        Tiebreak("head_to_head", head_to_head, depends_on_group=True),
        Tiebreak("round_wins_difference", round_wins_difference),
        Tiebreak("card_points_difference", card_points_difference),
        Tiebreak("buchholz", buchholz),
        Tiebreak("median_buchholz", median_buchholz),
        Tiebreak("sonneborn_berger", sonneborn_berger),
        Tiebreak("seed", seed, lower_is_better=True),
    )
}
TIEBREAK_NAMES: tuple[str, ...] = tuple(TIEBREAKS)
