"""What a tournament should do next, derived from its folded stream. Pure.

One idea for every format: the format knows the fixtures (pairings or bracket slots) whose two
entrants are known; a known fixture without a match gets one; a tournament is finished when the
format says so. Brackets and standings are computed here, so the projections, the services and
the tests share one definition.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from tournaments.formats.bracket import Bracket
from tournaments.formats.double_elimination import double_elimination_bracket
from tournaments.formats.groups_then_knockout import group_stage, knockout_bracket
from tournaments.formats.resolution import BracketState, SlotStatus, resolve, slots_to_reset
from tournaments.formats.round_robin import round_robin_schedule
from tournaments.formats.single_elimination import single_elimination_bracket
from tournaments.formats.swiss import SwissEntrant, SwissRound, swiss_round
from tournaments.standings import (
    DEFAULT_TIEBREAKS,
    Entrant,
    MatchResult,
    StandingRow,
    StandingsConfig,
    compute_standings,
)
from tournaments.state import Result, TournamentSettings, TournamentState

KNOCKOUT = "knockout"


@dataclass(frozen=True)
class FixtureSpec:
    """A fixture whose two entrants are known."""

    id: str
    home: int
    away: int
    stage: str
    round: int


@dataclass(frozen=True)
class Stage:
    """One stage as readers see it: its fixtures, and for brackets the resolved bracket."""

    name: str
    fixtures: tuple[FixtureSpec, ...]
    bracket: Bracket | None = None
    bracket_state: BracketState | None = None
    byes: tuple[tuple[int, int], ...] = ()
    """(round, entrant) of each bye in a league or Swiss stage."""
    complete: bool = False


def standings_config_for(settings: TournamentSettings) -> StandingsConfig:
    """The standings configuration; raises `unknown_tiebreak` for a name it does not know."""
    return StandingsConfig(tiebreaks=settings.tiebreaks or DEFAULT_TIEBREAKS)


def standings_config(state: TournamentState) -> StandingsConfig:
    return standings_config_for(state.settings)


def seed_of(state: TournamentState) -> dict[int, int]:
    order = state.order or ()
    return {entrant: index + 1 for index, entrant in enumerate(order)}


def match_result(fixture: FixtureSpec, result: Result) -> MatchResult:
    return MatchResult(
        first=fixture.home,
        second=fixture.away,
        winner=result.winner,
        first_rounds=result.rounds[0],
        second_rounds=result.rounds[1],
        first_points=result.points[0],
        second_points=result.points[1],
        forfeit=result.forfeit,
    )


def standings_of(
    state: TournamentState,
    entrants: Iterable[int],
    fixtures: Iterable[FixtureSpec],
    byes: Iterable[int] = (),
    config: StandingsConfig | None = None,
) -> list[StandingRow]:
    seeds = seed_of(state)
    members = list(entrants)
    results = [
        match_result(fixture, state.results[fixture.id])
        for fixture in fixtures
        if fixture.id in state.results
    ]
    results.extend(MatchResult.bye(entrant) for entrant in byes)
    return compute_standings(
        entrants=[Entrant(entrant, seeds.get(entrant)) for entrant in members],
        results=results,
        config=config or standings_config(state),
    )


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


def round_robin_stage(state: TournamentState, name: str, entrants: tuple[int, ...]) -> Stage:
    schedule = round_robin_schedule(
        entrants, legs=state.settings.legs, id_prefix="" if name == "league" else f"{name}-"
    )
    fixtures = tuple(
        FixtureSpec(p.id, p.home, p.away, name, round_.number)
        for round_ in schedule.rounds
        for p in round_.pairings
    )
    byes = tuple((r.number, r.bye) for r in schedule.rounds if r.bye is not None)
    complete = all(fixture.id in state.results for fixture in fixtures)
    return Stage(name, fixtures, byes=byes, complete=complete)


def swiss_stage(state: TournamentState) -> Stage:
    fixtures = tuple(
        FixtureSpec(fixture_id, home, away, "swiss", paired.number)
        for paired in state.swiss_rounds
        for fixture_id, home, away in paired.pairings
    )
    byes = tuple((p.number, p.bye) for p in state.swiss_rounds if p.bye is not None)
    played_all = all(fixture.id in state.results for fixture in fixtures)
    complete = played_all and len(state.swiss_rounds) == swiss_rounds_of(state)
    return Stage("swiss", fixtures, byes=byes, complete=complete)


def swiss_rounds_of(state: TournamentState) -> int:
    configured = state.settings.swiss_rounds
    if configured:
        return configured
    return max(1, math.ceil(math.log2(max(2, len(state.order or ())))))


def group_count(state: TournamentState) -> int:
    size = state.settings.group_size or 4
    return max(1, math.ceil(len(state.order or ()) / size))


def stages(state: TournamentState) -> tuple[Stage, ...]:
    """Every stage known so far (a knockout appears once its groups are complete)."""
    order = state.order
    if order is None:
        return ()
    settings = state.settings
    if settings.format == "single_elimination":
        bracket = single_elimination_bracket(order, third_place=settings.third_place)
        return (bracket_stage(state, "bracket", bracket),)
    if settings.format == "double_elimination":
        bracket = double_elimination_bracket(order, grand_final_reset=settings.grand_final_reset)
        return (bracket_stage(state, "bracket", bracket),)
    if settings.format == "round_robin":
        return (round_robin_stage(state, "league", order),)
    if settings.format == "swiss":
        return (swiss_stage(state),)
    groups = group_stage(order, group_count=group_count(state), legs=settings.legs).groups
    group_stages = tuple(round_robin_stage(state, group.label, group.entrants) for group in groups)
    if not all(stage.complete for stage in group_stages):
        return group_stages
    qualifying = qualification_config(state)
    tables = [
        [row.entrant for row in standings_of(state, group.entrants, stage.fixtures, (), qualifying)]
        for group, stage in zip(groups, group_stages, strict=True)
    ]
    qualifiers = min(settings.advance_per_group, min(len(g.entrants) for g in groups))
    knockout = knockout_bracket(
        tables, qualifiers_per_group=qualifiers, third_place=settings.third_place
    )
    return (*group_stages, bracket_stage(state, KNOCKOUT, knockout))


def qualification_config(state: TournamentState) -> StandingsConfig:
    """The tie-breaks that decide who goes on to the knockout: the tournament's, then the
    higher seed, so that nobody goes through by the order of their ids (decision record 0029).
    A tournament created before the rule keeps its tie-breaks as they were."""
    config = standings_config(state)
    if state.settings.level_knockout is None or "seed" in config.tiebreaks:
        return config
    return replace(config, tiebreaks=(*config.tiebreaks, "seed"))


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
    return state.settings.format != "groups_then_knockout" or known[-1].bracket is not None


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


def next_swiss_round(state: TournamentState, number: int) -> SwissRound:
    """The next round's pairings among the entrants still in: ranked by standings over every
    entrant that played (a withdrawn one's results still count for its opponents)."""
    stage = swiss_stage(state)
    everyone = state.order or ()
    ranked = standings_of(state, everyone, stage.fixtures, byes=[bye for _, bye in stage.byes])
    rows = [row for row in ranked if not state.entrants[row.entrant].withdrawn]
    past = [(fixture.home, fixture.away) for fixture in stage.fixtures]
    return swiss_round(
        rounds=swiss_rounds_of(state),
        round_number=number,
        standings=[SwissEntrant(row.entrant, row.match_points) for row in rows],
        past_pairings=past,
        byes=[bye for _, bye in stage.byes],
    )


def overall_standings(state: TournamentState) -> list[StandingRow]:
    """Standings over every fixture played. A Swiss bye counts as a win; a league's sit-out
    round (odd fields, everyone gets one) counts for nothing."""
    all_stages = stages(state)
    fixtures = [fixture for stage in all_stages for fixture in stage.fixtures]
    byes = [entrant for stage in all_stages if stage.name == "swiss" for _, entrant in stage.byes]
    return standings_of(state, state.order or tuple(state.entrants), fixtures, byes)


def resets_after(state: TournamentState, fixture_id: str, new_result: Result) -> tuple[str, ...]:
    """Fixtures (with matches) that a changed result of `fixture_id` invalidates."""
    old = state.results.get(fixture_id)
    if old is None or old == new_result:
        return ()
    for stage in stages(state):
        bracket = stage.bracket
        if bracket is None or not bracket.has_slot(fixture_id):
            continue
        if old.winner == new_result.winner:
            return ()
        old_winners = {
            k: r.winner
            for k, r in state.results.items()
            if r.winner is not None and bracket.has_slot(k)
        }
        new_winners = {k: v for k, v in old_winners.items() if k != fixture_id}
        if new_result.winner is not None:
            new_winners[fixture_id] = new_result.winner
        return tuple(
            slot
            for slot in slots_to_reset(bracket, old_winners, new_winners)
            if slot in state.fixtures or slot in state.results
        )
    return knockout_redraw_resets(state, fixture_id, new_result)


def knockout_redraw_resets(
    state: TournamentState, fixture_id: str, new_result: Result
) -> tuple[str, ...]:
    """A group result that changes who qualifies, or in which place, redraws the knockout:
    every knockout fixture already created is reset (points alone can change a group's order)."""
    before = stages(state)
    knockout = before[-1].bracket if before and before[-1].name == KNOCKOUT else None
    if knockout is None:
        return ()
    group_results = {k: r for k, r in state.results.items() if not knockout.has_slot(k)}
    after = stages(replace(state, results={**group_results, fixture_id: new_result}))
    redrawn = after[-1].bracket if after[-1].name == KNOCKOUT else None
    if redrawn is not None and redrawn.entrants == knockout.entrants:
        return ()
    return tuple(
        slot.id for slot in knockout.slots if slot.id in state.fixtures or slot.id in state.results
    )


LEVEL_KNOCKOUT_RULES = ("deciding_round", "higher_seed", "organizer")
"""How a level knockout match gets its winner (decision record 0029)."""


def is_knockout_fixture(state: TournamentState, fixture_id: str) -> bool:
    """Whether the fixture is a bracket slot: its match must have a winner."""
    return any(
        stage.bracket is not None and stage.bracket.has_slot(fixture_id) for stage in stages(state)
    )


def match_decider(state: TournamentState, fixture_id: str) -> str:
    """The decider its match is created with: a knockout match scored by points plays a
    deciding round when level, if the tournament's rule says so; every other match `none`."""
    settings = state.settings
    if (
        settings.scoring == "points"
        and settings.level_knockout == "deciding_round"
        and is_knockout_fixture(state, fixture_id)
    ):
        return "round"
    return "none"


def higher_seed(state: TournamentState, home: int, away: int) -> int:
    """The better seeded of two entrants (seed 1 is the highest)."""
    seeds = seed_of(state)
    return min((home, away), key=lambda entrant: (seeds.get(entrant, 10**9), entrant))
