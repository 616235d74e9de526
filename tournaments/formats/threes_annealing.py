"""The round robin in tables of three (decision record 0031): a deterministic simulated annealing
that makes the pair-meeting counts as even as it can; `threes.round_robin_threes_schedule` calls
it."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations

_STEPS_PER_SEAT = 1_000
_MOST_STEPS = 150_000
"""About a second at most: the schedule is rebuilt from the settings whenever it is needed."""
_START_TEMPERATURE = 4.0
_END_TEMPERATURE = 0.5
_COOLING = 0.9995


def _penalty(meetings: int) -> int:
    """A convex price for the `meetings`-th meeting of a pair: a third meeting costs much more
    than two second ones, so the search spreads the meetings as evenly as it can."""
    return 0 if meetings <= 0 else 4 ** (meetings - 1)


class RoundRobinAnnealing:
    """Simulated annealing over swaps of two entrants between tables of three in one round.

    Positions are 0..n-1 in seed order. The bye (`n % 3 == 1`) goes in reverse seed order and
    the table of two (`n % 3 == 2`) to the next two positions round the field each round, so both
    are spread evenly by construction; only the tables of three are searched. The random number
    generator is seeded from the field size and the number of rounds: the same input always gives
    the same schedule.
    """

    def __init__(self, count: int, rounds: int) -> None:
        self.count = count
        self.rounds = rounds
        self.rng = random.Random(count * 1_000 + rounds)  # noqa: S311 - deterministic search, not a secret
        self.meetings = [[0] * count for _ in range(count)]
        self.cost = 0

    def run(self) -> list[tuple[list[tuple[int, ...]], int | None]]:
        """Each round's tables (positions, sorted) and bye."""
        fixed = [self._fixed(number) for number in range(self.rounds)]
        best = self._anneal(self._seat(fixed))
        return [
            self._round(tables, bye, two) for tables, (bye, two) in zip(best, fixed, strict=True)
        ]

    def _seat(
        self, fixed: list[tuple[int | None, tuple[int, int] | None]]
    ) -> list[list[list[int]]]:
        """A first schedule around each round's bye and table of two, its meetings counted."""
        schedule = [self._initial(bye, two) for bye, two in fixed]
        for tables in schedule:
            for table in tables:
                self._meet(table)
        for _, two in fixed:
            if two is not None:
                self._meet(two)
        return schedule

    def _anneal(self, schedule: list[list[list[int]]]) -> list[list[list[int]]]:
        """The cheapest schedule the annealing met, starting from `schedule`."""
        best, best_cost = [[list(t) for t in r] for r in schedule], self.cost
        searched = [tables for tables in schedule if len(tables) > 1]
        temperature = _START_TEMPERATURE
        steps = min(_STEPS_PER_SEAT * self.count * self.rounds, _MOST_STEPS) if searched else 0
        for _ in range(steps):
            tables = searched[self.rng.randrange(len(searched))]
            a, b = self.rng.sample(range(len(tables)), 2)
            i, j = self.rng.randrange(3), self.rng.randrange(3)
            delta = self._delta(tables, a, i, b, j)
            if delta <= 0 or self.rng.random() < math.exp(-delta / temperature):
                self._swap(tables, a, i, b, j, delta)
                if self.cost < best_cost:
                    best, best_cost = [[list(t) for t in r] for r in schedule], self.cost
                    if self._even():
                        break
            temperature = max(_END_TEMPERATURE, temperature * _COOLING)
        return best

    @staticmethod
    def _round(
        tables: list[list[int]], bye: int | None, two: tuple[int, int] | None
    ) -> tuple[list[tuple[int, ...]], int | None]:
        ordered = sorted(tuple(sorted(table)) for table in tables)
        if two is not None:
            ordered.append(tuple(sorted(two)))
        return ordered, bye

    def _fixed(self, number: int) -> tuple[int | None, tuple[int, int] | None]:
        remainder = self.count % 3
        if remainder == 1:
            return (self.count - 1 - number) % self.count, None
        if remainder == 2:
            return None, ((2 * number) % self.count, (2 * number + 1) % self.count)
        return None, None

    def _initial(self, bye: int | None, two: tuple[int, int] | None) -> list[list[int]]:
        playing = [
            position
            for position in range(self.count)
            if position != bye and (two is None or position not in two)
        ]
        self.rng.shuffle(playing)
        return [playing[start : start + 3] for start in range(0, len(playing), 3)]

    def _meet(self, table: Sequence[int]) -> None:
        for first, second in combinations(table, 2):
            self.meetings[first][second] += 1
            self.meetings[second][first] += 1
            self.cost += _penalty(self.meetings[first][second])

    def _even(self) -> bool:
        counts = [self.meetings[a][b] for a in range(self.count) for b in range(a + 1, self.count)]
        return max(counts) - min(counts) <= 1

    def _delta(self, tables: list[list[int]], a: int, i: int, b: int, j: int) -> int:
        """Cost change of swapping seat `i` of table `a` with seat `j` of table `b`."""
        x, y = tables[a][i], tables[b][j]
        meetings = self.meetings
        delta = 0
        for mover, stayer, table in ((x, y, tables[a]), (y, x, tables[b])):
            for other in table:
                if other != mover:
                    delta -= _penalty(meetings[mover][other])
                    delta += _penalty(meetings[stayer][other] + 1)
        return delta

    def _swap(self, tables: list[list[int]], a: int, i: int, b: int, j: int, delta: int) -> None:
        x, y = tables[a][i], tables[b][j]
        for mover, stayer, table in ((x, y, tables[a]), (y, x, tables[b])):
            for other in table:
                if other != mover:
                    self.meetings[mover][other] -= 1
                    self.meetings[other][mover] -= 1
                    self.meetings[stayer][other] += 1
                    self.meetings[other][stayer] += 1
        tables[a][i], tables[b][j] = y, x
        self.cost += delta


# Swiss -------------------------------------------------------------------------------------------
