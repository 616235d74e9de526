"""Tournaments played out on pure folds (the tournament stream's decide/fold and the match
stream's), for the properties "every tournament finishes, every knockout match has a winner":
matches played round by round with points drawn by hypothesis, ties frequent, and the
organizer's decisions taken as one would take them."""

from __future__ import annotations

import uuid
from typing import Any

from hypothesis import strategies as st

from games.matches.stream import evolve
from games.matches.stream.commands import CreateMatch, EnterRoundPoints, StartNextRound
from games.matches.stream.decide import decide as matches_decide
from games.rules.match import MatchFormat
from games.rules.variants import DEFAULT_VARIANT
from tournaments.plan import knockouts, rankings
from tournaments.state import Fixture, Result, TournamentSettings, TournamentState
from tournaments.stream.commands import (
    CreateTournament,
    DecideGroupPlaces,
    DecideLevelMatch,
    RecordResult,
    RegisterEntrant,
    StartTournament,
)
from tournaments.stream.decide import decide
from tournaments.stream.evolve import fold

TOURNAMENT = uuid.UUID(int=29)

ROUND_POINTS = {
    2: st.sampled_from([(70, 50), (50, 70), (60, 60), (61, 59), (59, 61)]),
    3: st.sampled_from([(70, 40, 10), (10, 70, 40), (40, 40, 40), (50, 50, 20), (20, 50, 50)]),
}
"""A round's card points at a table of two sides or three, ties frequent."""
DECISIVE = {2: (70, 50), 3: (70, 40, 10)}
"""After this many rounds a match is let end: a round with a winner."""
MOST_RANDOM_ROUNDS = 12
SCORINGS = [
    {"scoring": "rounds", "best_of": 1},
    {"scoring": "rounds", "best_of": 3},
    {"scoring": "points", "rounds": 1},
    {"scoring": "points", "rounds": 2},
]


def run(state: TournamentState | None, command: Any) -> TournamentState:
    events = decide(state, command)
    return state if not events else fold(events, state)  # type: ignore[return-value]


def started(format: str, entrants: int, table_size: int = 2, **options: Any) -> TournamentState:
    """A tournament of `entrants` one-player entrants seeded 1, 2, ..., started."""
    options.setdefault("scoring", "points")
    options.setdefault("rounds", 2)
    settings = TournamentSettings(format, table_size, **options)
    state = run(None, CreateTournament("Club", settings))
    for entrant in range(1, entrants + 1):
        state = run(state, RegisterEntrant(entrant, players=1, seed=entrant))
    return run(state, StartTournament(TOURNAMENT))


def played(state: TournamentState, fixture: Fixture, data: st.DataObject) -> Result:
    """The fixture's match played round by round until it is over, and its result as the
    tournament records it (`rankings.result_at_table`, as the services do from the match's row)."""
    rules = state.settings
    seats = len(fixture.entrants)
    match_format = (
        MatchFormat.best_of(rules.best_of)
        if rules.scoring == "rounds"
        else MatchFormat("points", rules.rounds or 1, knockouts.match_decider(state, fixture.id))  # type: ignore[arg-type]
    )
    sides: tuple[dict[str, Any], ...] = tuple({} for _ in range(seats))
    match = evolve.fold(
        matches_decide(None, CreateMatch(seats, match_format, sides, DEFAULT_VARIANT))
    )
    while not match.is_finished:
        random = len(match.rounds) < MOST_RANDOM_ROUNDS
        points = data.draw(ROUND_POINTS[seats] if random else st.just(DECISIVE[seats]))
        match = evolve.fold(matches_decide(match, StartNextRound(None)), match)
        entered = EnterRoundPoints(len(match.rounds), points)
        match = evolve.fold(matches_decide(match, entered), match)
    return rankings.result_at_table(
        state,
        fixture.entrants,
        winner=match.winner,
        forfeited_by=None,
        rounds=match.record.round_wins,
        points=match.record.total_points,
    )


def settled_by_the_organizer(state: TournamentState, data: st.DataObject) -> TournamentState | None:
    """The organizer's next decision, as one would take it: a level knockout (or playoff) match
    given one of the entrants level at the top, or a group's places at the cut given an order.
    None: nothing to decide."""
    level = [
        f
        for f in state.fixtures.values()
        if f.id in state.results
        and state.results[f.id].winner is None
        and knockouts.is_knockout_fixture(state, f.id)
    ]
    if level:
        fixture = level[0]
        winner = data.draw(
            st.sampled_from(knockouts.level_leaders(fixture, state.results[fixture.id]))
        )
        return run(state, DecideLevelMatch(TOURNAMENT, fixture.match_id, winner, "lot"))
    for group in knockouts.group_stages_of(state):
        tie = knockouts.group_cut_tie(state, group.name)
        decided = state.group_places.get(group.name)
        if tie is not None and (decided is None or set(decided) != set(tie.tied)):
            order = data.draw(st.permutations(tie.tied))
            return run(state, DecideGroupPlaces(TOURNAMENT, group.name, tuple(order), "lot"))
    return None


def played_out(state: TournamentState, data: st.DataObject, *, steps: int = 400) -> TournamentState:
    """Every match played as it comes, the organizer deciding what waits on them, until the
    tournament finishes; fails if it waits on nothing anyone can settle."""
    for _step in range(steps):
        if state.finished:
            return state
        waiting = [f for f in state.fixtures.values() if f.id not in state.results]
        if waiting:
            fixture = waiting[0]
            state = run(
                state, RecordResult(TOURNAMENT, fixture.match_id, played(state, fixture, data))
            )
            continue
        decided = settled_by_the_organizer(state, data)
        assert decided is not None, "the tournament waits on nothing it can settle"
        assert state.settings.level_knockout == "organizer"
        state = decided
    return state


def every_knockout_match_has_a_winner(state: TournamentState) -> bool:
    return all(
        result.winner is not None
        for fixture_id, result in state.results.items()
        if knockouts.is_knockout_fixture(state, fixture_id)
    )
