"""Ties at a group's qualification cut (decision record 0029, amended for issue 12): entrants
that the tournament's tie-breaks cannot separate across the cut are ordered by the tournament's
rule for level knockout matches: a playoff (`deciding_round`), the seed (`higher_seed`, and
tournaments created before the rule) or the organizer's decision (`organizer`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tournaments.formats.groups_then_knockout import (
    Group,
)
from tournaments.plan.fixture_specs import FixtureSpec, Stage
from tournaments.plan.rankings import seed_of, standings_of, tie_config
from tournaments.state import TournamentSettings, TournamentState

PLAYOFF_TABLE_SIZES = (2, 4, 6)
"""Two-sided tables. At tables of three the seed settles a tie at the cut, for now."""


@dataclass(frozen=True)
class CutTie:
    """Entrants of one group tied across its qualification cut."""

    group: str
    tied: tuple[int, ...]
    """In seed order."""
    first: int
    """The place (0-based) in the group's table where the tied entrants begin."""
    places: int
    """How many of them qualify: the places at stake, each a knockout tier of its own."""


@dataclass(frozen=True)
class CutSettlement:
    tables: list[list[int]]
    """Each group's table, its tie (if any) ordered as settled."""
    playoffs: tuple[Stage, ...]
    settled: bool


def cut_tie(
    state: TournamentState, label: str, stage: Stage, entrants: tuple[int, ...], qualifiers: int
) -> CutTie | None:
    """The entrants of a complete group that share the rank of its last qualifying place with
    the first entrant out, if any."""
    if len(entrants) <= qualifiers:
        return None
    rows = standings_of(state, entrants, stage.fixtures, (), tie_config(state))
    rank = rows[qualifiers - 1].rank
    if rows[qualifiers].rank != rank:
        return None
    seeds = seed_of(state)
    block = [index for index, row in enumerate(rows) if row.rank == rank]
    tied = sorted((rows[index].entrant for index in block), key=lambda e: (seeds.get(e, 0), e))
    return CutTie(label, tuple(tied), block[0], qualifiers - block[0])


def settles_ties_at_the_cut(settings: TournamentSettings, rule: str) -> bool:
    return (
        settings.format == "groups_then_knockout"
        and settings.cut_ties_by_rule
        and settings.level_knockout == rule
        and settings.table_size in PLAYOFF_TABLE_SIZES
    )


def settle_cut_ties(
    state: TournamentState,
    groups: Iterable[Group],
    group_stages: tuple[Stage, ...],
    tables: list[list[int]],
    qualifiers: int,
) -> CutSettlement:
    """Each group's table once its tie at the cut (if any) is settled by the tournament's rule,
    with the playoff stages known so far; `settled` false while a playoff is being played or an
    organizer's decision is awaited. Under the other rules the tables stay as they are."""
    playoff_rule = settles_ties_at_the_cut(state.settings, "deciding_round")
    if not playoff_rule and not settles_ties_at_the_cut(state.settings, "organizer"):
        return CutSettlement(tables, (), True)
    settled_tables: list[list[int]] = []
    playoffs: list[Stage] = []
    settled = True
    for group, stage, table in zip(groups, group_stages, tables, strict=True):
        tie = cut_tie(state, stage.name, stage, group.entrants, qualifiers)
        if tie is None:
            settled_tables.append(table)
            continue
        if playoff_rule:
            last_round = max((fixture.round for fixture in stage.fixtures), default=0)
            playoff = group_playoff(state, tie, first_round=last_round + 1)
            playoffs.append(playoff.stage)
            order = playoff.order
        else:
            decided = state.group_places.get(tie.group)
            order = decided if decided is not None and set(decided) == set(tie.tied) else None
        if order is None:
            settled = False
            settled_tables.append(table)
            continue
        settled_tables.append(with_tie_ordered(table, tie, order))
    return CutSettlement(settled_tables, tuple(playoffs), settled)


def with_tie_ordered(table: list[int], tie: CutTie, order: tuple[int, ...]) -> list[int]:
    """The group's table with the tied entrants in `order` (its first `places` at least): the
    others keep their place in the table after them."""
    rest = [entrant for entrant in table[tie.first :] if entrant not in order]
    block = [*order, *(e for e in rest if e in tie.tied)]
    others = [e for e in table[tie.first :] if e not in tie.tied]
    return [*table[: tie.first], *block, *others]


@dataclass(frozen=True)
class GroupPlayoff:
    stage: Stage
    order: tuple[int, ...] | None
    """The tied entrants' order for the places at stake, once the playoff decided them."""


def playoff_fixture_id(group: str, number: int) -> str:
    return f"{group}-PO-{number}"


def group_playoff(state: TournamentState, tie: CutTie, *, first_round: int) -> GroupPlayoff:
    """The playoff among the entrants tied at a group's cut: a knockout among them, reseeded
    every round (the lowest seeds play, the highest sit out until the field is a power of two;
    then the highest seed meets the lowest). Its winner takes the first place at stake and the
    final's loser the next; while places are still at stake, the entrants left play another
    such knockout. Two tied entrants play one match. A playoff match counts only while its
    fixture still has the entrants the playoff gives it (a corrected group result can change
    the tie); its result never counts in the group's standings."""
    fixtures: list[FixtureSpec] = []
    placed: list[int] = []
    remaining = list(tie.tied)
    number, round_number = 0, first_round
    while len(placed) < tie.places:
        alive, runner_up = list(remaining), None
        while len(alive) > 1:
            size = len(alive)
            playing = size - (1 << (size.bit_length() - 1))
            players = alive if playing == 0 else alive[size - 2 * playing :]
            winners: list[int] = []
            for index in range(len(players) // 2):
                number += 1
                spec = FixtureSpec(
                    playoff_fixture_id(tie.group, number),
                    players[index],
                    players[-1 - index],
                    tie.group,
                    round_number,
                )
                fixtures.append(spec)
                winner = playoff_winner(state, spec)
                if winner is not None:
                    winners.append(winner)
                    if size == 2:
                        runner_up = spec.away if winner == spec.home else spec.home
            if len(winners) < len(players) // 2:
                return GroupPlayoff(playoff_stage(tie, fixtures, False), None)
            alive = [e for e in alive if e not in players or e in winners]
            round_number += 1
        placed.append(alive[0])
        if runner_up is not None and len(placed) < tie.places:
            placed.append(runner_up)
        remaining = [e for e in remaining if e not in placed]
    return GroupPlayoff(playoff_stage(tie, fixtures, True), tuple(placed))


def playoff_stage(tie: CutTie, fixtures: list[FixtureSpec], complete: bool) -> Stage:
    return Stage(f"{tie.group}-playoff", tuple(fixtures), complete=complete, playoff_of=tie.group)


def playoff_winner(state: TournamentState, spec: FixtureSpec) -> int | None:
    """The winner of a playoff match, if its fixture (still) has the spec's entrants."""
    fixture = state.fixtures.get(spec.id)
    result = state.results.get(spec.id)
    if fixture is None or result is None or fixture.entrants != (spec.home, spec.away):
        return None
    return result.winner
