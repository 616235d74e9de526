"""Tables of three: round robin and Swiss draws where each table seats three entrants.

Decision record 0031 has the rules and the reasons. In short:

- **Remainder rule.** A round of `n` entrants is `n // 3` tables of three, plus, when `n % 3 == 2`,
  one table of two; when `n % 3 == 1`, one entrant has a bye. Nothing else: never two tables of
  two, never two byes (`table_sizes`).
- **Round robin** (`round_robin_threes_schedule`): by default as many rounds as it takes for the
  number of pair meetings to reach the number of pairs, so that everyone can meet everyone once.
  Byes go in reverse seed order, one a round. The tables are found by a deterministic local search
  that makes the pair-meeting counts as even as it can (it minimises the sum of their squares) and
  spreads the seats at the table of two; the same field and rounds always give the same schedule.
- **Swiss** (`swiss_threes_round`): the bye goes to the lowest-ranked entrant who has not had one
  (moved up only if that seats the others with fewer repeats). Tables are filled from the top of
  the ranking; a branch-and-bound search minimises, in this order, the number of repeated pairs
  (two entrants who sat at a table before) and the score spread of the tables (the sum of each
  table's highest minus lowest score: 0 when every table is within a score group). Among equal
  draws the first found wins, and the search tries, within a score group, the partners a third
  and two thirds of the group below first (1, 4, 7 in a group of nine), the Swiss "top against
  bottom" split into three.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from common.explained import gettext_noop
from tournaments.formats.entrants import check_entrants
from tournaments.formats.errors import InvalidFormatOption, NoDrawWithoutSameGroup
from tournaments.formats.same_group import SameGroup
from tournaments.formats.swiss import (
    DEFAULT_SEARCH_LIMIT,
    SwissEntrant,
    check_search_limit,
    check_swiss_round,
    ranked_by_score,
)
from tournaments.formats.threes_annealing import RoundRobinAnnealing

MINIMUM_FIELD = 3
"""Tables of three need at least three entrants."""


@dataclass(frozen=True)
class Table:
    """Entrants seated together in a round: three, or two where the field forces it.

    `id` is stable: `R<round>-<table>` (prefixed by the group label in groups: `A-R1-2`).
    """

    id: str
    entrants: tuple[int, ...]

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return tuple(combinations(self.entrants, 2))


@dataclass(frozen=True)
class ThreesRound:
    number: int
    tables: tuple[Table, ...]
    bye: int | None


@dataclass(frozen=True)
class ThreesRoundRobin:
    entrants: tuple[int, ...]
    rounds: tuple[ThreesRound, ...]

    @property
    def tables(self) -> tuple[Table, ...]:
        return tuple(table for round_ in self.rounds for table in round_.tables)


@dataclass(frozen=True)
class ThreesSwissRound:
    number: int
    tables: tuple[Table, ...]
    """Entrants at a table in rank order; tables numbered from the top."""
    bye: int | None
    repeats: int
    """Pairs of entrants at one table who sat together before: zero unless unavoidable (or not
    avoided within the search limit)."""
    same_group: int = 0
    """Pairs of entrants of one group at one table (decision record 0057)."""


def table_sizes(entrant_count: int) -> tuple[int, ...]:
    """The tables of one round, largest first; a field with `n % 3 == 1` also has one bye."""
    threes, remainder = divmod(entrant_count, 3)
    return (3,) * threes + ((2,) if remainder == 2 else ())


def byes_per_round(entrant_count: int) -> int:
    return 1 if entrant_count % 3 == 1 else 0


def pairs_per_round(entrant_count: int) -> int:
    return sum(size * (size - 1) // 2 for size in table_sizes(entrant_count))


def full_round_robin_rounds(entrant_count: int) -> int:
    """Rounds it takes for the pair meetings to reach the number of pairs (everyone once)."""
    pairs = entrant_count * (entrant_count - 1) // 2
    return max(1, math.ceil(pairs / pairs_per_round(entrant_count)))


def table_id(round_number: int, table: int, *, prefix: str = "") -> str:
    return f"{prefix}R{round_number}-{table}"


# Round robin -------------------------------------------------------------------------------------


def round_robin_threes_schedule(
    entrants: Sequence[int],
    *,
    rounds: int | None = None,
    id_prefix: str = "",
    same_group: SameGroup | None = None,
) -> ThreesRoundRobin:
    """A schedule of `rounds` rounds (default `full_round_robin_rounds`) in tables of three.
    `same_group`: the schedule's rounds turned so that the first one seats the fewest entrants
    of one group together (decision record 0057)."""
    field = check_entrants(entrants, minimum=MINIMUM_FIELD)
    count = len(field)
    full = full_round_robin_rounds(count)
    rounds = full if rounds is None else rounds
    if not 1 <= rounds <= 2 * full:
        raise InvalidFormatOption.because(
            gettext_noop(
                "a round robin in tables of three has 1 to %(most)s rounds, got %(rounds)s"
            ),
            most=2 * full,
            rounds=rounds,
        )
    seats = RoundRobinAnnealing(count, rounds).run()
    if same_group is not None and same_group.matters(field):
        apart = [
            same_group.count([field[p] for p in table] for table in tables) for tables, _ in seats
        ]
        first = apart.index(min(apart))
        seats = seats[first:] + seats[:first]
    built: list[ThreesRound] = []
    for number, (tables, bye) in enumerate(seats, start=1):
        built.append(
            ThreesRound(
                number=number,
                tables=tuple(
                    Table(
                        table_id(number, index, prefix=id_prefix),
                        tuple(field[position] for position in table),
                    )
                    for index, table in enumerate(tables, start=1)
                ),
                bye=None if bye is None else field[bye],
            )
        )
    return ThreesRoundRobin(entrants=field, rounds=tuple(built))


def swiss_threes_round(
    *,
    rounds: int,
    round_number: int,
    standings: Sequence[SwissEntrant],
    past_tables: Iterable[Iterable[int]] = (),
    byes: Iterable[int] = (),
    search_limit: int = DEFAULT_SEARCH_LIMIT,
    same_group: SameGroup | None = None,
) -> ThreesSwissRound:
    """The tables (and bye) of round `round_number` of a Swiss stage in tables of three.

    `standings` lists the active entrants in rank order, best first; `past_tables` are the tables
    (or pairings) already played, whose entrants count as having met pairwise. Entrants no longer
    in the standings are ignored. The draw depends on the sets of past tables and byes only.
    `same_group` (decision record 0057): strict, same-group pairs at a table weigh before
    repeats and a draw that cannot avoid them is refused (`NoDrawWithoutSameGroup`); soft, they
    weigh after repeats.
    """
    check_swiss_round(rounds, round_number)
    check_entrants((standing.entrant for standing in standings), minimum=MINIMUM_FIELD)
    check_search_limit(search_limit)
    ranked = ranked_by_score(standings)
    search = _SwissSearch(ranked, past_tables, search_limit, same_group)
    had_bye = set(byes)
    if byes_per_round(len(ranked)):
        candidates = [
            index
            for index in range(len(ranked) - 1, -1, -1)
            if ranked[index].entrant not in had_bye
        ] or list(range(len(ranked) - 1, -1, -1))
        bye, tables, cost = search.seat_with_bye(candidates)
    else:
        bye = None
        tables, cost = search.seat(tuple(range(len(ranked))))
    if cost[0]:
        raise NoDrawWithoutSameGroup.because(
            gettext_noop(
                "no draw of round %(round)s at tables of three keeps entrants of one group apart"
            ),
            round=round_number,
        )
    return ThreesSwissRound(
        number=round_number,
        tables=tuple(
            Table(table_id(round_number, index), tuple(ranked[seat].entrant for seat in table))
            for index, table in enumerate(tables, start=1)
        ),
        bye=None if bye is None else ranked[bye].entrant,
        repeats=cost[1],
        same_group=cost[0] + cost[2],
    )


Cost = tuple[int, int, int, float]
"""Same-group pairs under a strict rule, repeats, same-group pairs under a soft rule, the
score spread: weighed in this order."""
_WINDOW = 12


class _SwissSearch:
    def __init__(
        self,
        ranked: list[SwissEntrant],
        past_tables: Iterable[Iterable[int]],
        limit: int,
        same_group: SameGroup | None = None,
    ) -> None:
        self.size = len(ranked)
        self.scores = [standing.score for standing in ranked]
        position = {standing.entrant: index for index, standing in enumerate(ranked)}
        self.met: set[tuple[int, int]] = set()
        for table in past_tables:
            seats = sorted({position[entrant] for entrant in table if entrant in position})
            self.met.update(combinations(seats, 2))
        self.steps_left = max(limit, self.size)
        self.apart = {
            (first, second)
            for first, second in combinations(range(self.size), 2)
            if same_group is not None
            and same_group.meet(ranked[first].entrant, ranked[second].entrant)
        }
        self.strict = same_group is not None and same_group.strict

    def seat_with_bye(self, candidates: list[int]) -> tuple[int, list[tuple[int, ...]], Cost]:
        best: tuple[int, list[tuple[int, ...]], Cost] | None = None
        for candidate in candidates:
            seats = tuple(index for index in range(self.size) if index != candidate)
            tables, cost = self.seat(seats)
            if best is None or cost[:3] < best[2][:3]:
                best = (candidate, tables, cost)
            if not any(cost[:3]) or self.steps_left <= 0:
                break
        if best is None:
            raise RuntimeError("no tables were tried")
        return best

    def seat(self, seats: tuple[int, ...]) -> tuple[list[tuple[int, ...]], Cost]:
        """The best tables for `seats` (rank positions, best first) found within the limit."""
        self.best: tuple[list[tuple[int, ...]], Cost] | None = None
        self._search(list(seats), table_sizes(len(seats)).count(2), [], (0, 0, 0, 0.0))
        if self.best is None:
            raise RuntimeError("no tables were found")
        return self.best

    def _search(
        self,
        remaining: list[int],
        twos: int,
        tables: list[tuple[int, ...]],
        cost: Cost,
    ) -> None:
        if self.best is not None and cost >= self.best[1]:
            return
        if not remaining:
            self.best = (list(tables), cost)
            return
        if self.best is not None and self.steps_left <= 0:
            return
        top, others = remaining[0], remaining[1:]
        threes_left = (len(remaining) - 2 * twos) // 3
        choices = [
            (self._key(top, others, partners), partners)
            for count in ((2,) if threes_left else ()) + ((1,) if twos else ())
            for partners in self._preferences(top, others, count)
        ]
        choices.sort()
        for _, partners in choices:
            if self.best is not None and self.steps_left <= 0:
                return
            self.steps_left -= 1
            table = (top, *partners)
            added = self._cost(table)
            rest = [seat for seat in others if seat not in partners]
            tables.append(table)
            next_twos = twos - (len(table) == 2)
            self._search(
                rest,
                next_twos,
                tables,
                (cost[0] + added[0], cost[1] + added[1], cost[2] + added[2], cost[3] + added[3]),
            )
            tables.pop()

    def _cost(self, table: tuple[int, ...]) -> Cost:
        repeats = sum(1 for pair in combinations(table, 2) if pair in self.met)
        apart = sum(1 for pair in combinations(table, 2) if pair in self.apart)
        spread = max(self.scores[s] for s in table) - min(self.scores[s] for s in table)
        return (apart if self.strict else 0, repeats, 0 if self.strict else apart, spread)

    def _preferences(self, top: int, others: list[int], count: int) -> list[tuple[int, ...]]:
        """Candidate partners for `top` (the best-ranked unseated entrant), `count` of them.

        They are chosen among the `_WINDOW` entrants nearest in score (then in rank), so a node
        has at most `C(_WINDOW, 2) + _WINDOW` children; fields of up to `_WINDOW + 1` are searched
        whole.
        """
        index = {seat: number for number, seat in enumerate(others)}
        window = sorted(
            others, key=lambda seat: (abs(self.scores[seat] - self.scores[top]), index[seat])
        )[:_WINDOW]
        window.sort(key=index.__getitem__)
        return list(combinations(window, count))

    def _key(
        self, top: int, others: list[int], partners: tuple[int, ...]
    ) -> tuple[int, int, int, float, int, int, tuple[int, ...]]:
        """The order the search tries tables in: fewest repeats, smallest score spread, a table
        of three before the table of two, then partners nearest the ideal: a third and two
        thirds of the way down the score group (the Swiss "top half against bottom half")."""
        seated = (top, *partners)
        cost = self._cost(seated)
        group = sum(1 for seat in others if self.scores[seat] == self.scores[top]) + 1
        count = len(partners)
        ideals = [round(group * share / (count + 1)) - 1 for share in range(1, count + 1)]
        positions = {seat: number for number, seat in enumerate(others)}
        deviation = sum(
            abs(positions[seat] - ideal) for seat, ideal in zip(partners, ideals, strict=True)
        )
        return (*cost, 3 - len(seated), deviation, partners)
