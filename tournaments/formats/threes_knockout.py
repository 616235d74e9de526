"""A knockout in tables of three: the winner of each table advances (decision record 0031).

The bracket has `3^k` seed lines; seeds beyond the field are byes. Each round's tables take the
winners of three tables of the round before, so the last round is a single final table. A table
with one entrant and two byes is a walkover (the entrant advances), with two entrants and a bye a
table of two, with three byes empty (it passes a bye on). Results are kept outside the bracket
(table id -> winner id) and folded by `resolve_threes_knockout`, as `resolve` does for 0007's
brackets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from common.explained import gettext_noop
from tournaments.formats.bracket import BYE, Bye, Known, WinnerOf, slot_of
from tournaments.formats.entrants import check_entrants
from tournaments.formats.errors import SlotNotPlayable, WinnerNotInSlot
from tournaments.formats.resolution import NOT_PLAYABLE, SlotStatus

ThreesSource = Known | Bye | WinnerOf


@dataclass(frozen=True)
class KnockoutTable:
    """`id` is `K<round>-<table>`; the winner goes on to the table at `feeds` (None: final)."""

    id: str
    sources: tuple[ThreesSource, ThreesSource, ThreesSource]
    feeds: str | None


@dataclass(frozen=True)
class ThreesKnockout:
    entrants: tuple[int, ...]
    """In seed order."""
    rounds: tuple[tuple[KnockoutTable, ...], ...]

    @property
    def tables(self) -> dict[str, KnockoutTable]:
        return {table.id: table for round_ in self.rounds for table in round_}


class TableStatus(StrEnum):
    PENDING = "pending"
    """A source is not decided yet."""
    READY = "ready"
    """Two or three entrants known, no result yet."""
    DONE = "done"
    WALKOVER = "walkover"
    """One entrant and byes: it advances without playing."""
    EMPTY = "empty"


@dataclass(frozen=True)
class KnockoutTableState:
    id: str
    entrants: tuple[int, ...]
    """The known entrants, in source order."""
    status: TableStatus
    winner: int | None


@dataclass(frozen=True)
class ThreesKnockoutState:
    tables: dict[str, KnockoutTableState]
    champion: int | None

    @property
    def ready(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.tables.values() if t.status is TableStatus.READY)


def threes_bracket_size(entrant_count: int) -> int:
    size = 3
    while size < entrant_count:
        size *= 3
    return size


def threes_bracket_line_seeds(size: int) -> tuple[int, ...]:
    """Seeds in bracket order for `size` (a power of three) lines; consecutive threes are the
    first round's tables. Each seed `s` of the order for `m` lines becomes the table `s`,
    `2m + 1 - s`, `3m + 1 - s` (for 9 lines 1-6-9, 2-5-8, 3-4-7): as in 0007's standard order,
    the stronger the seed, the weaker its table, so byes (the seeds beyond the field) go to the
    top seeds."""
    order = [1]
    while len(order) < size:
        lines = len(order)
        order = [seed for top in order for seed in (top, 2 * lines + 1 - top, 3 * lines + 1 - top)]
    if len(order) != size:
        raise ValueError(f"a knockout in threes has a power of three lines, got {size}")
    return tuple(order)


def threes_knockout_bracket(entrants: Sequence[int]) -> ThreesKnockout:
    """The knockout of `entrants` (seed order), byes to the top seeds."""
    field = check_entrants(entrants)
    size = threes_bracket_size(len(field))
    order = threes_bracket_line_seeds(size)

    def source(seed: int) -> ThreesSource:
        return Known(field[seed - 1]) if seed <= len(field) else BYE

    round_count = 0
    while 3**round_count < size:
        round_count += 1
    rounds: list[tuple[KnockoutTable, ...]] = []
    previous: list[ThreesSource] = [source(seed) for seed in order]
    for number in range(1, round_count + 1):
        count = len(previous) // 3
        tables = tuple(
            KnockoutTable(
                id=f"K{number}-{index + 1}",
                sources=(previous[3 * index], previous[3 * index + 1], previous[3 * index + 2]),
                feeds=None if number == round_count else f"K{number + 1}-{index // 3 + 1}",
            )
            for index in range(count)
        )
        rounds.append(tables)
        previous = [WinnerOf(table.id) for table in tables]
    return ThreesKnockout(entrants=field, rounds=tuple(rounds))


def resolve_threes_knockout(
    knockout: ThreesKnockout, winners: Mapping[str, int]
) -> ThreesKnockoutState:
    """Fold the results (table id -> winner) into who sits where and who advanced."""
    tables = knockout.tables
    for table_id in winners:
        slot_of(tables, table_id)
    states: dict[str, KnockoutTableState] = {}
    # Per table: its winner, `None` while undecided, `BYE` when it is empty.
    advanced: dict[str, int | Bye | None] = {}
    for round_ in knockout.rounds:
        for table in round_:
            state = _table_state(table, advanced, winners.get(table.id))
            states[table.id] = state
            advanced[table.id] = BYE if state.status is TableStatus.EMPTY else state.winner
    final = states[knockout.rounds[-1][0].id]
    return ThreesKnockoutState(tables=states, champion=final.winner)


def _table_state(
    table: KnockoutTable, advanced: Mapping[str, int | Bye | None], winner: int | None
) -> KnockoutTableState:
    """Who sits at `table` (from the tables before it), its status and its winner; a result
    `winner` the table cannot take is refused."""
    seats, undecided = _seated(table, advanced)
    status, result = _status(seats, undecided, winner)
    if winner is not None and status not in (TableStatus.READY, TableStatus.DONE):
        raise SlotNotPlayable.because(NOT_PLAYABLE[SlotStatus(status)], slot=table.id)
    if status is TableStatus.DONE and winner not in seats:
        raise WinnerNotInSlot.because(
            gettext_noop("entrant %(winner)s does not play at table %(slot)s"),
            winner=winner,
            slot=table.id,
        )
    return KnockoutTableState(table.id, tuple(seats), status, result)


def _seated(
    table: KnockoutTable, advanced: Mapping[str, int | Bye | None]
) -> tuple[list[int], bool]:
    """The entrants known at `table`, in source order, and whether a source is undecided."""
    seats: list[int] = []
    undecided = False
    for source in table.sources:
        if isinstance(source, Known):
            seats.append(source.entrant)
        elif isinstance(source, WinnerOf):
            came = advanced[source.slot]
            if came is None:
                undecided = True
            elif isinstance(came, int):
                seats.append(came)
    return seats, undecided


def _status(
    seats: list[int], undecided: bool, winner: int | None
) -> tuple[TableStatus, int | None]:
    if undecided:
        return TableStatus.PENDING, None
    if not seats:
        return TableStatus.EMPTY, None
    if len(seats) == 1:
        return TableStatus.WALKOVER, seats[0]
    if winner is None:
        return TableStatus.READY, None
    return TableStatus.DONE, winner
