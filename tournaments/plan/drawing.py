"""The stages a tournament has drawn so far, by format, and what follows from them: the fixtures
to create, the next Swiss round, whether the tournament is complete, the overall standings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from tournaments.formats.acceleration import accelerated_standings
from tournaments.formats.bracket import Bracket
from tournaments.formats.double_elimination import double_elimination_bracket
from tournaments.formats.groups_then_knockout import (
    group_stage,
    knockout_bracket,
    knockout_seeds,
)
from tournaments.formats.resolution import SlotStatus, resolve
from tournaments.formats.round_robin import round_robin_schedule
from tournaments.formats.same_group import ALWAYS, SOFT, SameGroup
from tournaments.formats.single_elimination import single_elimination_bracket
from tournaments.formats.swiss import SwissEntrant, swiss_round
from tournaments.formats.threes import (
    MINIMUM_FIELD,
    ThreesRoundRobin,
    full_round_robin_rounds,
    round_robin_threes_schedule,
    swiss_threes_round,
)
from tournaments.formats.threes_knockout import (
    TableStatus,
    ThreesKnockout,
    resolve_threes_knockout,
    threes_knockout_bracket,
)
from tournaments.plan.cut_ties import settle_cut_ties
from tournaments.plan.fixture_specs import KNOCKOUT, FixtureSpec, Stage
from tournaments.plan.rankings import (
    StandingsRow,
    at_threes,
    ranked,
    requested_bye_points,
    table_result,
    win_points,
)
from tournaments.state import TournamentSettings, TournamentState


def same_group_rule(
    state: TournamentState, round_number: int = 1, *, soft: bool = False
) -> SameGroup | None:
    """Who must not meet in this round (decision record 0057): the entrants' groups and the
    rule's strength, or None when the tournament keeps nobody apart in it (a knockout's and a
    round robin's first round is their only one). `soft`: the organizer allowed this round to
    pair entrants of one group, as few as it can."""
    mode = state.settings.avoid_same_group
    if mode is None or (round_number != 1 and mode != ALWAYS):
        return None
    groups = {entrant: record.group for entrant, record in state.entrants.items() if record.group}
    if not groups:
        return None
    strict = not soft and state.settings.avoid_same_group_strength != SOFT
    return SameGroup(groups, strict=strict)


def bracket_stage(state: TournamentState, name: str, bracket: Bracket) -> Stage:
    winners = {
        fixture_id: result.winner
        for fixture_id, result in state.results.items()
        if result.winner is not None and bracket.has_slot(fixture_id)
    }
    resolved = resolve(bracket, winners)
    fixtures = tuple(
        FixtureSpec(slot.id, home, away, slot.section.name.lower(), slot.round)
        for slot, slot_state in zip(bracket.slots, resolved.slots, strict=True)
        if isinstance(home := slot_state.home, int)
        and isinstance(away := slot_state.away, int)
        and slot_state.status in (SlotStatus.READY, SlotStatus.DONE)
    )
    return Stage(name, fixtures, bracket, resolved, complete=resolved.finished)


def threes_stage(state: TournamentState, name: str, knockout: ThreesKnockout) -> Stage:
    """A knockout in tables of three: each table's winner goes on (decision record 0031)."""
    winners = {
        fixture_id: result.winner
        for fixture_id, result in state.results.items()
        if result.winner is not None and fixture_id in knockout.tables
    }
    resolved = resolve_threes_knockout(knockout, winners)
    fixtures = tuple(
        FixtureSpec.seating(table.id, seated.entrants, KNOCKOUT, number)
        for number, round_ in enumerate(knockout.rounds, start=1)
        for table in round_
        if (seated := resolved.tables[table.id]).status in (TableStatus.READY, TableStatus.DONE)
    )
    return Stage(
        name,
        fixtures,
        complete=resolved.champion is not None,
        threes=knockout,
        threes_state=resolved,
    )


def threes_placements(state: TournamentState, stage: Stage) -> tuple[tuple[int, int], ...]:
    """(entrant, place) of a finished knockout in tables of three: the final table's places
    (its winner 1st), then those out in each earlier round sharing the place after everyone
    out later, as 0007's brackets place their losers."""
    knockout, resolved = stage.threes, stage.threes_state
    if knockout is None or resolved is None or resolved.champion is None:
        return ()
    final = resolved.tables[knockout.rounds[-1][0].id]
    result = state.results.get(final.id)
    placed: list[tuple[int, int]] = [(resolved.champion, 1)]
    if result is not None and len(final.entrants) > 1:
        table = table_result(final.entrants, result)
        others = [seat for seat in table.seats if seat.entrant != resolved.champion]
        placed += [(seat.entrant, max(2, seat.place)) for seat in others]
    for round_ in reversed(knockout.rounds[:-1]):
        out = sorted(
            entrant
            for table in round_
            for entrant in resolved.tables[table.id].entrants
            if entrant != resolved.tables[table.id].winner
        )
        place = len(placed) + 1
        placed += [(entrant, place) for entrant in out]
    return tuple(placed)


def round_robin_stage(state: TournamentState, name: str, entrants: tuple[int, ...]) -> Stage:
    if at_threes(state.settings):
        return threes_league_stage(state, name, entrants)
    schedule = round_robin_schedule(
        entrants,
        legs=state.settings.legs,
        id_prefix="" if name == "league" else f"{name}-",
        same_group=same_group_rule(state),
    )
    fixtures = tuple(
        FixtureSpec(p.id, p.home, p.away, name, round_.number)
        for round_ in schedule.rounds
        for p in round_.pairings
    )
    byes = tuple((r.number, r.bye) for r in schedule.rounds if r.bye is not None)
    complete = all(fixture.id in state.results for fixture in fixtures)
    return Stage(name, fixtures, byes=byes, complete=complete)


@lru_cache(maxsize=128)
def threes_schedule(
    entrants: tuple[int, ...],
    rounds: int,
    id_prefix: str,
    groups: tuple[tuple[int, str], ...] = (),
) -> ThreesRoundRobin:
    """The round robin in threes of a field, searched once per process: the search is
    deterministic but takes up to a second, and every fold of the tournament reads it.
    `groups`: who must not meet in its first round (`SameGroup.key`)."""
    return round_robin_threes_schedule(
        entrants,
        rounds=rounds,
        id_prefix=id_prefix,
        same_group=SameGroup(dict(groups)) if groups else None,
    )


def threes_league_stage(state: TournamentState, name: str, entrants: tuple[int, ...]) -> Stage:
    """A round robin in tables of three: enough rounds for everyone to meet everyone once,
    times the legs (decision record 0031)."""
    rounds = full_round_robin_rounds(len(entrants)) * state.settings.legs
    rule = same_group_rule(state)
    schedule = threes_schedule(
        tuple(entrants),
        rounds,
        "" if name == "league" else f"{name}-",
        () if rule is None else rule.key,
    )
    fixtures = tuple(
        FixtureSpec.seating(table.id, table.entrants, name, round_.number)
        for round_ in schedule.rounds
        for table in round_.tables
    )
    byes = tuple((r.number, r.bye) for r in schedule.rounds if r.bye is not None)
    complete = all(fixture.id in state.results for fixture in fixtures)
    return Stage(name, fixtures, byes=byes, complete=complete)


def swiss_stage(state: TournamentState) -> Stage:
    fixtures = tuple(
        FixtureSpec.seating(fixture_id, entrants, "swiss", paired.number)
        for paired in state.swiss_rounds
        for fixture_id, entrants in paired.pairings
    )
    byes = tuple((p.number, p.bye) for p in state.swiss_rounds if p.bye is not None)
    played_all = all(fixture.id in state.results for fixture in fixtures)
    complete = played_all and len(state.swiss_rounds) == swiss_rounds_of(state)
    return Stage("swiss", fixtures, byes=byes, complete=complete)


def swiss_rounds_of(state: TournamentState) -> int:
    configured = state.settings.swiss_rounds
    if configured:
        return configured
    field = max(2, len(state.order or ()))
    if at_threes(state.settings):
        return max(1, math.ceil(math.log(field, 3) - 1e-9))
    return max(1, math.ceil(math.log2(field)))


def group_count(state: TournamentState) -> int:
    entrants = len(state.order or ())
    if at_threes(state.settings):
        # Groups of at least three: a table of three needs them (decision record 0031).
        size = state.settings.group_size or 6
        return max(1, min(math.ceil(entrants / size), entrants // 3))
    size = state.settings.group_size or 4
    return max(1, math.ceil(entrants / size))


def stages(state: TournamentState) -> tuple[Stage, ...]:
    """Every stage known so far (a knockout appears once its groups are complete)."""
    order = state.order
    if order is None:
        return ()
    settings = state.settings
    if settings.format == "single_elimination" and at_threes(settings):
        return (threes_stage(state, "bracket", threes_knockout_bracket(order)),)
    if settings.format == "single_elimination":
        bracket = single_elimination_bracket(
            order, third_place=settings.third_place, same_group=same_group_rule(state)
        )
        return (bracket_stage(state, "bracket", bracket),)
    if settings.format == "double_elimination":
        bracket = double_elimination_bracket(
            order,
            grand_final_reset=settings.grand_final_reset,
            same_group=same_group_rule(state),
        )
        return (bracket_stage(state, "bracket", bracket),)
    if settings.format == "round_robin":
        return (round_robin_stage(state, "league", order),)
    if settings.format == "swiss":
        return (swiss_stage(state),)
    groups = group_stage(order, group_count=group_count(state), legs=settings.legs).groups
    group_stages = tuple(round_robin_stage(state, group.label, group.entrants) for group in groups)
    if not all(stage.complete for stage in group_stages):
        return group_stages
    tables = [
        [row.entrant for row in ranked(state, group.entrants, stage.fixtures, qualifying=True)]
        for group, stage in zip(groups, group_stages, strict=True)
    ]
    qualifiers = min(
        max(settings.advance_per_group, fewest_qualifiers(settings, len(groups))),
        min(len(g.entrants) for g in groups),
    )
    if at_threes(settings):
        seeds = knockout_seeds(tables, qualifiers_per_group=qualifiers)
        return (*group_stages, threes_stage(state, KNOCKOUT, threes_knockout_bracket(seeds)))
    cut = settle_cut_ties(state, groups, group_stages, tables, qualifiers)
    if not cut.settled:
        return (*group_stages, *cut.playoffs)
    knockout = knockout_bracket(
        cut.tables, qualifiers_per_group=qualifiers, third_place=settings.third_place
    )
    return (*group_stages, *cut.playoffs, bracket_stage(state, KNOCKOUT, knockout))


def fewest_qualifiers(settings: TournamentSettings, groups: int) -> int:
    """Qualifiers per group that a knockout needs at least: a single group sends two (three at
    tables of three, a final table) whatever `advance_per_group` says."""
    if groups > 1:
        return 1
    return 3 if at_threes(settings) else 2


def fixtures_to_create(state: TournamentState) -> tuple[FixtureSpec, ...]:
    """Known fixtures that have no match yet."""
    return tuple(
        fixture
        for stage in stages(state)
        for fixture in stage.fixtures
        if fixture.id not in state.fixtures and fixture.id not in state.results
    )


def is_complete(state: TournamentState) -> bool:
    """Every stage is done (and, for groups, the knockout exists and is done)."""
    known = stages(state)
    if not known or not all(stage.complete for stage in known):
        return False
    return state.settings.format != "groups_then_knockout" or known[-1].is_knockout


def swiss_round_due(state: TournamentState) -> int | None:
    """The number of the next Swiss round when it can be paired now, else None."""
    if state.settings.format != "swiss" or state.order is None:
        return None
    paired = len(state.swiss_rounds)
    if paired >= swiss_rounds_of(state):
        return None
    stage = swiss_stage(state)
    if any(fixture.id not in state.results for fixture in stage.fixtures):
        return None
    return paired + 1


@dataclass(frozen=True)
class SwissDraw:
    """A Swiss round's tables (fixture id, entrants in seat order) and its bye, and who sat it
    out: by their request, or paused (decision record 0058)."""

    tables: tuple[tuple[str, tuple[int, ...]], ...]
    bye: int | None
    requested: tuple[int, ...] = ()
    absent: tuple[int, ...] = ()


LATE_ENTRY = "late_entry"
LATE_ENTRY_BYE = "late_entry_bye"
REQUESTED_BYE = "requested_bye"
ABSENT = "absent"
SIT_OUTS = (LATE_ENTRY, LATE_ENTRY_BYE, REQUESTED_BYE, ABSENT)
"""Why an entrant of a Swiss has no match in a round drawn (besides the odd field's bye)."""


def sitting_out(state: TournamentState, number: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The active entrants left out of Swiss round `number`'s draw: those who asked to sit it
    out, and those paused (absent) without such a request."""
    active = [e for e in state.field_order if not state.entrants[e].withdrawn]
    requested = tuple(e for e in active if number in state.requested_byes.get(e, ()))
    absent = tuple(e for e in active if state.entrants[e].paused and e not in requested)
    return requested, absent


def swiss_sit_outs(state: TournamentState) -> dict[int, list[tuple[int, str]]]:
    """Each entrant's rounds drawn without it, with why (`SIT_OUTS`), in round order."""
    sat: dict[int, list[tuple[int, str]]] = {}
    for entrant in state.late_entrants:
        record = state.entrants[entrant]
        kind = LATE_ENTRY_BYE if record.missed == "bye" else LATE_ENTRY
        missed = range(1, record.from_round or 1)
        sat.setdefault(entrant, []).extend((number, kind) for number in missed)
    for paired in state.swiss_rounds:
        for entrant in paired.requested:
            sat.setdefault(entrant, []).append((paired.number, REQUESTED_BYE))
        for entrant in paired.absent:
            sat.setdefault(entrant, []).append((paired.number, ABSENT))
    return {entrant: sorted(rounds) for entrant, rounds in sat.items()}


def swiss_credits(state: TournamentState) -> tuple[list[int], list[tuple[int, int]]]:
    """What the rounds sat out score: a bye for each round a late entrant missed under
    `late_entry_points: bye`, and (entrant, match points) for each requested bye."""
    late_byes: list[int] = []
    requested: list[tuple[int, int]] = []
    points = requested_bye_points(state.settings)
    for entrant, rounds in swiss_sit_outs(state).items():
        late_byes += [entrant for _, kind in rounds if kind == LATE_ENTRY_BYE]
        requested += [(entrant, points) for _, kind in rounds if kind == REQUESTED_BYE]
    return late_byes, requested


def next_swiss_round(
    state: TournamentState, number: int, *, allow_same_group: bool = False
) -> SwissDraw:
    """The next round's pairings (or tables of three) among the entrants still in and not
    sitting it out: ranked by standings over every entrant that played (a withdrawn one's
    results still count for its opponents). Entrants of one group kept apart as the settings say
    (`same_group_rule`; `allow_same_group`: softly, whatever the strength)."""
    rule = same_group_rule(state, number, soft=allow_same_group)
    stage = swiss_stage(state)
    everyone = state.field_order
    byes = [bye for _, bye in stage.byes]
    late_byes, requested_points = swiss_credits(state)
    requested, absent = sitting_out(state, number)
    out = {*requested, *absent}
    rows = [
        row
        for row in ranked(
            state, everyone, stage.fixtures, [*byes, *late_byes], sat_out=requested_points
        )
        if not state.entrants[row.entrant].withdrawn and row.entrant not in out
    ]
    standings = [SwissEntrant(row.entrant, float(row.match_points)) for row in rows]
    if len(standings) < 2:
        # Everyone else sits the round out (or withdrew): no table, the one left has the bye.
        lone = standings[0].entrant if standings else None
        return SwissDraw((), lone, requested, absent)
    if state.settings.accelerated:
        standings = accelerated_standings(
            standings,
            initial_order=state.order or (),  # late entrants are of group B
            rounds=swiss_rounds_of(state),
            round_number=number,
            win=win_points(state.settings),
        )
    if at_threes(state.settings) and len(standings) >= MINIMUM_FIELD:
        drawn = swiss_threes_round(
            rounds=swiss_rounds_of(state),
            round_number=number,
            standings=standings,
            past_tables=[fixture.entrants for fixture in stage.fixtures],
            byes=byes,
            same_group=rule,
        )
        return SwissDraw(
            tuple((t.id, t.entrants) for t in drawn.tables), drawn.bye, requested, absent
        )
    # Two sides, or what is left of a field at three after withdrawals: two entrants play a
    # table of two, one has the bye.
    paired = swiss_round(
        rounds=swiss_rounds_of(state),
        round_number=number,
        standings=standings,
        past_pairings=[(fixture.home, fixture.away) for fixture in stage.fixtures],
        byes=byes,
        same_group=rule,
    )
    return SwissDraw(
        tuple((p.id, (p.home, p.away)) for p in paired.pairings), paired.bye, requested, absent
    )


def overall_standings(
    state: TournamentState, known: Sequence[Stage] | None = None
) -> list[StandingsRow]:
    """Standings over every fixture played. A Swiss bye counts as a win; a league's sit-out
    round (odd fields, everyone gets one) counts for nothing. `known`: `stages(state)`, when the
    caller has them already."""
    drawn = stages(state) if known is None else known
    all_stages = [stage for stage in drawn if stage.playoff_of is None]
    fixtures = [fixture for stage in all_stages for fixture in stage.fixtures]
    byes = [entrant for stage in all_stages if stage.name == "swiss" for _, entrant in stage.byes]
    if state.settings.format != "swiss":
        return ranked(state, state.order or tuple(state.entrants), fixtures, byes)
    late_byes, requested = swiss_credits(state)
    everyone = state.field_order or tuple(state.entrants)
    return ranked(state, everyone, fixtures, [*byes, *late_byes], sat_out=requested)
