"""Standings as the plan reads them: the tournament's tie-breaks (two-sided) or placings (tables
of three), results at a table, and the rankings that qualify for a knockout or find a tie."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from common.explained import gettext_noop
from tournaments.plan.fixture_specs import FixtureSpec
from tournaments.standings.config import DEFAULT_TIEBREAKS, StandingsConfig
from tournaments.standings.errors import InvalidStandingsConfig
from tournaments.standings.placing_results import Seat, TableResult
from tournaments.standings.placings import (
    PlacingStandingRow,
    PlacingStandingsConfig,
    compute_placing_standings,
)
from tournaments.standings.results import Entrant, MatchResult
from tournaments.standings.table import StandingRow, compute_standings
from tournaments.state import Result, TournamentSettings, TournamentState


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


def win_points(settings: TournamentSettings) -> float:
    """A win's match points: at tables of three, the 1st place's (decision record 0059)."""
    if at_threes(settings):
        return float(placing_config_for(settings).scoring.places[0])
    return float(standings_config_for(settings).scoring.win)


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
    order = state.field_order
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
    sat_out: Iterable[tuple[int, int]] = (),
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
        sat_out=sat_out,
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
    sat_out: Iterable[tuple[int, int]] = (),
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
        sat_out=sat_out,
    )


def ranked(
    state: TournamentState,
    entrants: Iterable[int],
    fixtures: Iterable[FixtureSpec],
    byes: Iterable[int] = (),
    *,
    qualifying: bool = False,
    sat_out: Iterable[tuple[int, int]] = (),
) -> list[StandingsRow]:
    """The standings of `entrants` over `fixtures`, by the tournament's table size; with
    `qualifying`, ranked as qualification for a knockout is (the seed last); `sat_out`: the
    match points of requested byes (decision record 0058)."""
    if at_threes(state.settings):
        config = qualification_placing_config(state) if qualifying else None
        return list(placing_standings_of(state, entrants, fixtures, byes, config, sat_out))
    two_sided = qualification_config(state) if qualifying else None
    return list(standings_of(state, entrants, fixtures, byes, two_sided, sat_out))


def requested_bye_points(settings: TournamentSettings) -> int:
    """A requested bye's match points (decision record 0058): the setting, or half a win's
    (a 1st place's at tables of three), rounded down."""
    if settings.requested_bye_points is not None:
        return settings.requested_bye_points
    if at_threes(settings):
        return int(placing_config_for(settings).scoring.places[0]) // 2
    return standings_config_for(settings).scoring.win // 2


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


def tie_config(state: TournamentState) -> StandingsConfig:
    """The tie-breaks that find a tie at the cut: the tournament's, without the seed the
    default list ends with (a seed the organizer listed stays: it was their rule)."""
    config = standings_config(state)
    if state.settings.tiebreaks is not None:
        return config
    return replace(config, tiebreaks=tuple(name for name in config.tiebreaks if name != "seed"))
