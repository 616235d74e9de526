"""What a tournament should do next, derived from its folded stream. Pure.

One idea for every format: the format knows the fixtures (pairings or bracket slots) whose two
entrants are known; a known fixture without a match gets one; a tournament is finished when the
format says so. Brackets and standings are computed here, so the projections, the services and
the tests share one definition.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from common.explained import gettext_noop
from tournaments.formats.bracket import Bracket
from tournaments.formats.double_elimination import double_elimination_bracket
from tournaments.formats.groups_then_knockout import (
    Group,
    group_stage,
    knockout_bracket,
    knockout_seeds,
)
from tournaments.formats.resolution import BracketState, SlotStatus, resolve, slots_to_reset
from tournaments.formats.round_robin import round_robin_schedule
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
    ThreesKnockoutState,
    resolve_threes_knockout,
    threes_knockout_bracket,
)
from tournaments.standings import (
    DEFAULT_TIEBREAKS,
    Entrant,
    MatchResult,
    StandingRow,
    StandingsConfig,
    compute_standings,
)
from tournaments.standings.errors import InvalidStandingsConfig
from tournaments.standings.placings import (
    PlacingStandingRow,
    PlacingStandingsConfig,
    Seat,
    TableResult,
    compute_placing_standings,
)
from tournaments.state import Fixture, Result, TournamentSettings, TournamentState

KNOCKOUT = "knockout"


@dataclass(frozen=True)
class FixtureSpec:
    """A fixture whose entrants are known: two, or three at a table of three."""

    id: str
    home: int
    away: int
    stage: str
    round: int
    third: int | None = None

    @classmethod
    def seating(cls, id: str, entrants: Sequence[int], stage: str, round: int) -> FixtureSpec:
        home, away, *third = entrants
        return cls(id, home, away, stage, round, third[0] if third else None)

    @property
    def entrants(self) -> tuple[int, ...]:
        return (self.home, self.away) if self.third is None else (self.home, self.away, self.third)


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
    playoff_of: str | None = None
    """A group's playoff among the entrants tied at its qualification cut: the group's label."""
    threes: ThreesKnockout | None = None
    """A knockout in tables of three (decision record 0031), in place of `bracket`."""
    threes_state: ThreesKnockoutState | None = None

    def has_knockout_slot(self, fixture_id: str) -> bool:
        if self.bracket is not None:
            return self.bracket.has_slot(fixture_id)
        return self.threes is not None and fixture_id in self.threes.tables

    @property
    def is_knockout(self) -> bool:
        return self.bracket is not None or self.threes is not None


def standings_config_for(settings: TournamentSettings) -> StandingsConfig:
    """The standings configuration; raises `unknown_tiebreak` for a name it does not know."""
    return StandingsConfig(tiebreaks=settings.tiebreaks or DEFAULT_TIEBREAKS)


def standings_config(state: TournamentState) -> StandingsConfig:
    return standings_config_for(state.settings)


def at_threes(settings: TournamentSettings) -> bool:
    """Whether the tournament is played at tables of three (decision record 0031)."""
    return settings.table_size == 3


def placing_config_for(settings: TournamentSettings) -> PlacingStandingsConfig:
    """The standings configuration at tables of three: match points per place and tie-breaks;
    raises `unknown_tiebreak` or `invalid_standings_config`."""
    data: dict[str, Any] = {}
    if settings.placing_scoring is not None:
        data["scoring"] = settings.placing_scoring
    if settings.tiebreaks:
        data["tiebreaks"] = list(settings.tiebreaks)
    return PlacingStandingsConfig.from_dict(data)


def placing_scoring_in_force(placing_scoring: dict[str, Any] | None) -> dict[str, Any]:
    """The match points per place a tournament at three uses: its own, or the default."""
    scoring: dict[str, Any] = PlacingStandingsConfig.from_dict(
        {} if placing_scoring is None else {"scoring": placing_scoring}
    ).to_dict()["scoring"]
    return scoring


def check_standings_settings(settings: TournamentSettings) -> None:
    """Refuse tie-breaks or match points the tournament's standings cannot use."""
    if at_threes(settings):
        placing_config_for(settings)
        return
    standings_config_for(settings)
    if settings.placing_scoring is not None:
        raise InvalidStandingsConfig.because(
            gettext_noop("match points per place are for tables of three only")
        )


StandingsRow = StandingRow | PlacingStandingRow
"""A row of the standings: won/tied/lost at two sides, placings at tables of three."""


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


def table_result(entrants: Sequence[int], result: Result) -> TableResult:
    """A recorded result as placings (decision record 0031): at three the recorded places, at
    two 1-2 (or 1-1 when level); a forfeiting entrant is placed below the others."""
    if result.places is not None:
        places = result.places
    elif result.winner is None:
        places = (1, 1)
    else:
        places = tuple(1 if entrant == result.winner else 2 for entrant in entrants)
    forfeited = {result.forfeited_by} if result.forfeited_by is not None else set()
    if result.forfeit and result.places is None and result.winner is not None:
        forfeited = {entrant for entrant in entrants if entrant != result.winner}
    seats = tuple(
        Seat(entrant, place, rounds, points)
        for entrant, place, rounds, points in zip(
            entrants, places, result.rounds, result.points, strict=True
        )
    )
    return TableResult(seats=seats, forfeited=frozenset(forfeited))


def result_at_table(
    state: TournamentState,
    entrants: Sequence[int],
    *,
    winner: int | None,
    forfeited_by: int | None,
    rounds: Sequence[int],
    points: Sequence[int],
) -> Result:
    """A finished match's result as the tournament records it, from what its match says by
    seat (`winner` and `forfeited_by` are seats): per entrant in seat order, with places at
    a table of three."""
    count = len(entrants)
    result = Result(
        winner=None if winner is None else entrants[winner],
        rounds=tuple(rounds[:count]),
        points=tuple(points[:count]),
        forfeit=forfeited_by is not None,
    )
    if count < 3:
        return result
    return replace(
        result,
        places=places_at_three(
            winner=winner,
            forfeited_by=forfeited_by,
            rounds=result.rounds,
            points=result.points,
            by_points=state.settings.scoring == "points",
        ),
        forfeited_by=None if forfeited_by is None else entrants[forfeited_by],
    )


def places_at_three(
    *,
    winner: int | None,
    forfeited_by: int | None,
    rounds: tuple[int, ...],
    points: tuple[int, ...],
    by_points: bool,
) -> tuple[int, ...]:
    """Each seat's place at a table of three (decision record 0031), a competition ranking:
    the match's winner first, a seat that forfeited last, the others by rounds won then card
    points (by card points alone when the match is scored by points)."""

    def key(seat: int) -> tuple[bool, bool, int, int]:
        return (
            seat == forfeited_by,
            seat != winner and winner is not None,
            0 if by_points else -rounds[seat],
            -points[seat],
        )

    seats = range(len(rounds))
    return tuple(1 + sum(1 for other in seats if key(other) < key(seat)) for seat in seats)


def placing_standings_of(
    state: TournamentState,
    entrants: Iterable[int],
    fixtures: Iterable[FixtureSpec],
    byes: Iterable[int] = (),
    config: PlacingStandingsConfig | None = None,
) -> list[PlacingStandingRow]:
    seeds = seed_of(state)
    results = [
        table_result(fixture.entrants, state.results[fixture.id])
        for fixture in fixtures
        if fixture.id in state.results
    ]
    results.extend(TableResult.bye(entrant) for entrant in byes)
    return compute_placing_standings(
        entrants=[Entrant(entrant, seeds.get(entrant)) for entrant in entrants],
        results=results,
        config=config or placing_config_for(state.settings),
    )


def ranked(
    state: TournamentState,
    entrants: Iterable[int],
    fixtures: Iterable[FixtureSpec],
    byes: Iterable[int] = (),
    *,
    qualifying: bool = False,
) -> list[StandingsRow]:
    """The standings of `entrants` over `fixtures`, by the tournament's table size; with
    `qualifying`, ranked as qualification for a knockout is (the seed last)."""
    if at_threes(state.settings):
        config = qualification_placing_config(state) if qualifying else None
        return list(placing_standings_of(state, entrants, fixtures, byes, config))
    two_sided = qualification_config(state) if qualifying else None
    return list(standings_of(state, entrants, fixtures, byes, two_sided))


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


@lru_cache(maxsize=128)
def threes_schedule(entrants: tuple[int, ...], rounds: int, id_prefix: str) -> ThreesRoundRobin:
    """The round robin in threes of a field, searched once per process: the search is
    deterministic but takes up to a second, and every fold of the tournament reads it."""
    return round_robin_threes_schedule(entrants, rounds=rounds, id_prefix=id_prefix)


def threes_league_stage(state: TournamentState, name: str, entrants: tuple[int, ...]) -> Stage:
    """A round robin in tables of three: enough rounds for everyone to meet everyone once,
    times the legs (decision record 0031)."""
    rounds = full_round_robin_rounds(len(entrants)) * state.settings.legs
    schedule = threes_schedule(tuple(entrants), rounds, "" if name == "league" else f"{name}-")
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


def qualification_config(state: TournamentState) -> StandingsConfig:
    """The tie-breaks that decide who goes on to the knockout: the tournament's, then the
    higher seed, so that nobody goes through by the order of their ids (decision record 0029).
    A tournament created before the rule keeps its tie-breaks as they were."""
    config = standings_config(state)
    if state.settings.level_knockout is None or "seed" in config.tiebreaks:
        return config
    return replace(config, tiebreaks=(*config.tiebreaks, "seed"))


def qualification_placing_config(state: TournamentState) -> PlacingStandingsConfig:
    """The same at tables of three: the tournament's tie-breaks, then the seed."""
    config = placing_config_for(state.settings)
    if "seed" in config.tiebreaks:
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
    """A Swiss round's tables (fixture id, entrants in seat order) and its bye."""

    tables: tuple[tuple[str, tuple[int, ...]], ...]
    bye: int | None


def next_swiss_round(state: TournamentState, number: int) -> SwissDraw:
    """The next round's pairings (or tables of three) among the entrants still in: ranked by
    standings over every entrant that played (a withdrawn one's results still count for its
    opponents)."""
    stage = swiss_stage(state)
    everyone = state.order or ()
    byes = [bye for _, bye in stage.byes]
    rows = [
        row
        for row in ranked(state, everyone, stage.fixtures, byes)
        if not state.entrants[row.entrant].withdrawn
    ]
    standings = [SwissEntrant(row.entrant, float(row.match_points)) for row in rows]
    if at_threes(state.settings) and len(standings) >= MINIMUM_FIELD:
        drawn = swiss_threes_round(
            rounds=swiss_rounds_of(state),
            round_number=number,
            standings=standings,
            past_tables=[fixture.entrants for fixture in stage.fixtures],
            byes=byes,
        )
        return SwissDraw(tuple((t.id, t.entrants) for t in drawn.tables), drawn.bye)
    # Two sides, or what is left of a field at three after withdrawals: two entrants play a
    # table of two, one has the bye.
    paired = swiss_round(
        rounds=swiss_rounds_of(state),
        round_number=number,
        standings=standings,
        past_pairings=[(fixture.home, fixture.away) for fixture in stage.fixtures],
        byes=byes,
    )
    return SwissDraw(tuple((p.id, (p.home, p.away)) for p in paired.pairings), paired.bye)


def overall_standings(state: TournamentState) -> list[StandingsRow]:
    """Standings over every fixture played. A Swiss bye counts as a win; a league's sit-out
    round (odd fields, everyone gets one) counts for nothing."""
    all_stages = [stage for stage in stages(state) if stage.playoff_of is None]
    fixtures = [fixture for stage in all_stages for fixture in stage.fixtures]
    byes = [entrant for stage in all_stages if stage.name == "swiss" for _, entrant in stage.byes]
    return ranked(state, state.order or tuple(state.entrants), fixtures, byes)


def resets_after(state: TournamentState, fixture_id: str, new_result: Result) -> tuple[str, ...]:
    """Fixtures (with matches) that a changed result of `fixture_id` invalidates."""
    old = state.results.get(fixture_id)
    if old is None or old == new_result:
        return ()
    for stage in stages(state):
        if stage.threes is not None and fixture_id in stage.threes.tables:
            return threes_resets(state, stage.threes, fixture_id, old, new_result)
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
    return (
        *playoff_resets(state, fixture_id, new_result),
        *knockout_redraw_resets(state, fixture_id, new_result),
    )


def threes_resets(
    state: TournamentState, knockout: ThreesKnockout, fixture_id: str, old: Result, new: Result
) -> tuple[str, ...]:
    """A knockout table in threes whose winner changed resets the tables its winner went on to."""
    if old.winner == new.winner:
        return ()
    tables = knockout.tables
    following: list[str] = []
    feeds = tables[fixture_id].feeds
    while feeds is not None:
        following.append(feeds)
        feeds = tables[feeds].feeds
    return tuple(t for t in following if t in state.fixtures or t in state.results)


def knockout_redraw_resets(
    state: TournamentState, fixture_id: str, new_result: Result
) -> tuple[str, ...]:
    """A group result that changes who qualifies, or in which place, redraws the knockout:
    every knockout fixture already created is reset (points alone can change a group's order)."""
    knockout = knockout_stage(state)
    if knockout is None:
        return ()
    after = stages(
        replace(
            state, results={**results_before_the_knockout(state, knockout), fixture_id: new_result}
        )
    )
    redrawn = after[-1] if after[-1].name == KNOCKOUT else None
    if redrawn is not None and knockout_entrants(redrawn) == knockout_entrants(knockout):
        return ()
    return tuple(
        slot
        for slot in knockout_slot_ids(knockout)
        if slot in state.fixtures or slot in state.results
    )


def knockout_stage(state: TournamentState) -> Stage | None:
    """The knockout stage of a groups then knockout tournament, once drawn."""
    drawn = stages(state)
    return drawn[-1] if drawn and drawn[-1].name == KNOCKOUT else None


def results_before_the_knockout(
    state: TournamentState, knockout: Stage | None
) -> dict[str, Result]:
    """The results of the groups and their playoffs: every result but the knockout's."""
    if knockout is None:
        return dict(state.results)
    return {k: r for k, r in state.results.items() if not knockout.has_knockout_slot(k)}


def knockout_entrants(stage: Stage) -> tuple[int, ...]:
    if stage.threes is not None:
        return stage.threes.entrants
    return () if stage.bracket is None else stage.bracket.entrants


def knockout_slot_ids(stage: Stage) -> tuple[str, ...]:
    if stage.threes is not None:
        return tuple(stage.threes.tables)
    return () if stage.bracket is None else tuple(slot.id for slot in stage.bracket.slots)


LEVEL_KNOCKOUT_RULES = ("deciding_round", "higher_seed", "organizer")
"""How a level knockout match gets its winner (decision record 0029)."""


def is_knockout_fixture(state: TournamentState, fixture_id: str) -> bool:
    """Whether the fixture is a bracket slot (or a group's playoff match): its match must have
    a winner."""
    return any(
        stage.has_knockout_slot(fixture_id)
        or (stage.playoff_of is not None and any(f.id == fixture_id for f in stage.fixtures))
        for stage in stages(state)
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


def higher_seed(state: TournamentState, entrants: Iterable[int]) -> int:
    """The best seeded of the entrants (seed 1 is the highest)."""
    seeds = seed_of(state)
    return min(entrants, key=lambda entrant: (seeds.get(entrant, 10**9), entrant))


def level_leaders(fixture: Fixture, result: Result) -> tuple[int, ...]:
    """The entrants level for first place in a match without a winner: both at two, those
    placed first at three."""
    if result.places is None:
        return fixture.entrants
    return tuple(
        entrant
        for entrant, place in zip(fixture.entrants, result.places, strict=True)
        if place == 1
    )


# Ties at a group's qualification cut (decision record 0029, amended for issue 12): entrants
# that the tournament's tie-breaks cannot separate across the cut are ordered by the tournament's
# rule for level knockout matches: a playoff (`deciding_round`), the seed (`higher_seed`, and
# tournaments created before the rule) or the organizer's decision (`organizer`).

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


def tie_config(state: TournamentState) -> StandingsConfig:
    """The tie-breaks that find a tie at the cut: the tournament's, without the seed the
    default list ends with (a seed the organizer listed stays: it was their rule)."""
    config = standings_config(state)
    if state.settings.tiebreaks is not None:
        return config
    return replace(config, tiebreaks=tuple(name for name in config.tiebreaks if name != "seed"))


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


def playoff_resets(state: TournamentState, fixture_id: str, new_result: Result) -> tuple[str, ...]:
    """The playoff fixtures a changed result (of a group match or a playoff match) leaves with
    other entrants, or without a place in the playoff: reset, like a redrawn knockout's."""
    existing = [f for f in state.fixtures.values() if "-PO-" in f.id]
    if not existing:
        return ()
    # Without the knockout's results: the changed result may reseed the knockout, whose results
    # would then not fit its new slots (knockout_redraw_resets resets those).
    before_the_knockout = results_before_the_knockout(state, knockout_stage(state))
    after = replace(state, results={**before_the_knockout, fixture_id: new_result})
    wanted = {
        spec.id: (spec.home, spec.away)
        for stage in stages(after)
        if stage.playoff_of is not None
        for spec in stage.fixtures
    }
    return tuple(
        fixture.id
        for fixture in sorted(existing, key=lambda f: f.sequence)
        if fixture.id != fixture_id and wanted.get(fixture.id) != fixture.entrants
    )


def group_stages_of(state: TournamentState) -> tuple[Stage, ...]:
    """The group stages of a groups then knockout tournament that has started (else none)."""
    if state.settings.format != "groups_then_knockout" or state.order is None:
        return ()
    return tuple(stage for stage in stages(state) if not stage.is_knockout and not stage.playoff_of)


def group_cut_tie(state: TournamentState, label: str) -> CutTie | None:
    """The tie at the qualification cut of the complete group `label`, if it has one."""
    order = state.order or ()
    groups = group_stage(order, group_count=group_count(state), legs=state.settings.legs).groups
    group = next((g for g in groups if g.label == label), None)
    stage = next((s for s in group_stages_of(state) if s.name == label), None)
    if group is None or stage is None or not stage.complete:
        return None
    qualifiers = min(
        max(state.settings.advance_per_group, fewest_qualifiers(state.settings, len(groups))),
        min(len(g.entrants) for g in groups),
    )
    return cut_tie(state, label, stage, group.entrants, qualifiers)
