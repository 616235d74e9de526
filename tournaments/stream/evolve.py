"""Folding: the tournament state after each of its events (`evolve`), or after many (`fold`).

`evolve` matches the event on its class and hands it to the function that folds that type, so
mypy checks both that every function reads the fields its event has and, through `assert_never`,
that every event type is folded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, assert_never

from tournaments.state import (
    ApplicationPhase,
    CheckInWindow,
    EntrantRecord,
    Fixture,
    TournamentState,
)
from tournaments.stream.entrant_checks import seeds_in_force
from tournaments.stream.events import (
    ApplicationApproved,
    ApplicationDeclined,
    ApplicationPromoted,
    ApplicationWaitlisted,
    ByeCancelled,
    ByeEvent,
    ByeRequested,
    CheckInClosed,
    CheckInOpened,
    CourseEvent,
    EntrantApplied,
    EntrantCheckedIn,
    EntrantCorrected,
    EntrantEvent,
    EntrantPaused,
    EntrantRegistered,
    EntrantReturned,
    EntrantsReseeded,
    EntrantsSeeded,
    EntrantWithdrew,
    GroupPlacesDecided,
    RegistrationChanged,
    ResultsRevealed,
    SignUpEvent,
    TablesChanged,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
    WaitingListReordered,
)
from tournaments.stream.fixture_events import (
    FixtureCreated,
    FixtureEvent,
    FixtureReset,
    LevelMatchDecided,
    MatchCalled,
    MatchScheduled,
    ResultRecorded,
    SwissRoundPaired,
)


def evolve(state: TournamentState | None, event: TournamentEvent) -> TournamentState:
    if isinstance(event, TournamentCreated):
        return TournamentState(name=event.name, settings=event.settings)
    if state is None:
        raise ValueError(f"{event.type} before {TournamentCreated.type}")
    match event:
        case (
            EntrantRegistered()
            | EntrantCheckedIn()
            | CheckInOpened()
            | CheckInClosed()
            | EntrantWithdrew()
            | EntrantsSeeded()
            | EntrantCorrected()
            | EntrantsReseeded()
        ):
            return _entrant_evolved(state, event)
        case ByeRequested() | ByeCancelled() | EntrantPaused() | EntrantReturned():
            return _bye_evolved(state, event)
        case (
            RegistrationChanged()
            | EntrantApplied()
            | ApplicationApproved()
            | ApplicationDeclined()
            | ApplicationWaitlisted()
            | ApplicationPromoted()
            | WaitingListReordered()
        ):
            return _sign_up_evolved(state, event)
        case (
            SwissRoundPaired()
            | FixtureCreated()
            | MatchScheduled()
            | MatchCalled()
            | ResultRecorded()
            | FixtureReset()
            | LevelMatchDecided()
        ):
            return _fixture_evolved(state, event)
        case (
            TournamentStarted()
            | TournamentFinished()
            | TablesChanged()
            | GroupPlacesDecided()
            | ResultsRevealed()
        ):
            return _course_evolved(state, event)
        case _:
            assert_never(event)


def _entrant_evolved(state: TournamentState, event: EntrantEvent) -> TournamentState:
    """An entrant's event folded."""
    match event:
        case EntrantRegistered():
            return _registered(state, event)
        case EntrantCheckedIn():
            return _checked_in(state, event)
        case CheckInOpened():
            return _check_in_opened(state, event)
        case CheckInClosed():
            return _check_in_closed(state, event)
        case EntrantWithdrew():
            return _withdrew(state, event)
        case EntrantsSeeded():
            return _seeded(state, event)
        case EntrantCorrected():
            return _corrected(state, event)
        case EntrantsReseeded():
            return _reseeded(state, event)
        case _:
            assert_never(event)


def _bye_evolved(state: TournamentState, event: ByeEvent) -> TournamentState:
    """A bye or a pause folded."""
    match event:
        case ByeRequested():
            return _bye_requested(state, event)
        case ByeCancelled():
            return _bye_cancelled(state, event)
        case EntrantPaused():
            return _paused(state, event)
        case EntrantReturned():
            return _returned(state, event)
        case _:
            assert_never(event)


def _sign_up_evolved(state: TournamentState, event: SignUpEvent) -> TournamentState:
    """An event of the sign-up folded."""
    match event:
        case RegistrationChanged():
            return _registration_changed(state, event)
        case EntrantApplied():
            return _applied(state, event)
        case ApplicationApproved():
            # Approval is followed by the entry or the waiting list, which say where it goes.
            return state
        case ApplicationDeclined():
            return _declined(state, event)
        case ApplicationWaitlisted():
            return _waitlisted(state, event)
        case ApplicationPromoted():
            return _promoted(state, event)
        case WaitingListReordered():
            return _reordered(state, event)
        case _:
            assert_never(event)


def _fixture_evolved(state: TournamentState, event: FixtureEvent) -> TournamentState:
    """A fixture's event folded."""
    match event:
        case SwissRoundPaired():
            return _swiss_paired(state, event)
        case FixtureCreated():
            return _fixture_created(state, event)
        case MatchScheduled():
            return _scheduled(state, event)
        case MatchCalled():
            return _called(state, event)
        case ResultRecorded():
            return _result_recorded(state, event)
        case FixtureReset():
            return _fixture_reset(state, event)
        case LevelMatchDecided():
            return _level_match_decided(state, event)
        case _:
            assert_never(event)


def _course_evolved(state: TournamentState, event: CourseEvent) -> TournamentState:
    """An event of the tournament's course folded."""
    match event:
        case TournamentStarted():
            return _started(state, event)
        case TournamentFinished():
            return replace(state, finished=True)
        case TablesChanged():
            return _tables_changed(state, event)
        case GroupPlacesDecided():
            return _group_places_decided(state, event)
        case ResultsRevealed():
            return replace(state, results_revealed=True)
        case _:
            assert_never(event)


def fold(
    events: Iterable[TournamentEvent], state: TournamentState | None = None
) -> TournamentState:
    for recorded in events:
        state = evolve(state, recorded)
    if state is None:
        raise ValueError("no events to fold")
    return state


def _with_entrant(state: TournamentState, entrant: int, **changes: Any) -> TournamentState:
    entrants = dict(state.entrants)
    entrants[entrant] = replace(entrants.get(entrant, EntrantRecord()), **changes)
    return replace(state, entrants=entrants)


def _registered(state: TournamentState, event: EntrantRegistered) -> TournamentState:
    state = _with_entrant(state, event.entrant, seed=event.seed, late=event.late, group=event.group)
    if event.fixed_table is not None:
        state = _with_entrant(state, event.entrant, fixed_table=event.fixed_table)
    if event.from_round is not None:
        state = _with_entrant(
            state, event.entrant, from_round=event.from_round, missed=event.missed
        )
        state = replace(state, late_entrants=(*state.late_entrants, event.entrant))
    if event.application is None:
        return state
    return replace(
        _with_application(state, event.application, ApplicationPhase.ENTERED),
        entrant_of_application={**state.entrant_of_application, event.application: event.entrant},
    )


def _with_application(
    state: TournamentState, application: int, phase: ApplicationPhase
) -> TournamentState:
    waiting = tuple(a for a in state.waiting if a != application)
    if phase == ApplicationPhase.WAITLISTED:
        waiting = (*waiting, application)
    return replace(state, applications={**state.applications, application: phase}, waiting=waiting)


def _registration_changed(state: TournamentState, event: RegistrationChanged) -> TournamentState:
    return replace(state, settings=replace(state.settings, registration=event.registration))


def _applied(state: TournamentState, event: EntrantApplied) -> TournamentState:
    return _with_application(state, event.application, ApplicationPhase.PENDING)


def _declined(state: TournamentState, event: ApplicationDeclined) -> TournamentState:
    return _with_application(state, event.application, ApplicationPhase.DECLINED)


def _waitlisted(state: TournamentState, event: ApplicationWaitlisted) -> TournamentState:
    return _with_application(state, event.application, ApplicationPhase.WAITLISTED)


def _promoted(state: TournamentState, event: ApplicationPromoted) -> TournamentState:
    # The EntrantRegistered that follows enters it; off the waiting list now.
    return replace(state, waiting=tuple(a for a in state.waiting if a != event.application))


def _reordered(state: TournamentState, event: WaitingListReordered) -> TournamentState:
    return replace(state, waiting=event.order)


def _checked_in(state: TournamentState, event: EntrantCheckedIn) -> TournamentState:
    return _with_entrant(state, event.entrant, checked_in=True)


def _withdrew(state: TournamentState, event: EntrantWithdrew) -> TournamentState:
    return _with_entrant(state, event.entrant, withdrawn=True)


def _seeded(state: TournamentState, event: EntrantsSeeded) -> TournamentState:
    return replace(state, seeding=event.order, seeding_method=event.method)


def _started(state: TournamentState, event: TournamentStarted) -> TournamentState:
    return replace(state, order=event.order)


def _swiss_paired(state: TournamentState, event: SwissRoundPaired) -> TournamentState:
    return replace(state, swiss_rounds=(*state.swiss_rounds, event.pairing))


def _fixture_created(state: TournamentState, event: FixtureCreated) -> TournamentState:
    fixture = Fixture(
        id=event.fixture,
        match_id=event.match_id,
        home=event.home,
        away=event.away,
        stage=event.stage,
        round=event.round,
        sequence=len(state.fixtures) + len(state.retired),
        third=event.third,
    )
    return replace(state, fixtures={**state.fixtures, fixture.id: fixture})


def _scheduled(state: TournamentState, event: MatchScheduled) -> TournamentState:
    fixture = replace(
        state.fixtures[event.fixture], table=event.table, scheduled_at=event.scheduled_at
    )
    if event.deadline is not None:
        # Recorded before matches were called (issue 11): the clock started at the scheduling.
        fixture = replace(fixture, called_at=event.scheduled_at, deadline=event.deadline)
    return replace(state, fixtures={**state.fixtures, fixture.id: fixture})


def _called(state: TournamentState, event: MatchCalled) -> TournamentState:
    fixture = replace(
        state.fixtures[event.fixture], called_at=event.called_at, deadline=event.deadline
    )
    return replace(state, fixtures={**state.fixtures, fixture.id: fixture})


def _check_in_opened(state: TournamentState, event: CheckInOpened) -> TournamentState:
    window = CheckInWindow(opened_at=event.opened_at, closes_at=event.closes_at)
    return replace(state, check_in=window)


def _check_in_closed(state: TournamentState, event: CheckInClosed) -> TournamentState:
    return replace(state, check_in=replace(state.check_in, closed_at=event.closed_at))


def _result_recorded(state: TournamentState, event: ResultRecorded) -> TournamentState:
    return replace(state, results={**state.results, event.fixture: event.result})


def _level_match_decided(state: TournamentState, event: LevelMatchDecided) -> TournamentState:
    result = replace(state.results[event.fixture], winner=event.winner, decided_by="organizer")
    return replace(state, results={**state.results, event.fixture: result})


def _fixture_reset(state: TournamentState, event: FixtureReset) -> TournamentState:
    retired = state.fixtures.get(event.fixture)
    fixtures = {k: v for k, v in state.fixtures.items() if k != event.fixture}
    results = {k: v for k, v in state.results.items() if k != event.fixture}
    return replace(
        state,
        fixtures=fixtures,
        results=results,
        resets=state.resets + 1,
        retired=state.retired if retired is None else (*state.retired, retired),
    )


def _corrected(state: TournamentState, event: EntrantCorrected) -> TournamentState:
    # Names and players are rows (decision 0018): only a group (decision 0057) and a fixed
    # table (0059) are folded.
    if "group" in event.changed:
        state = _with_entrant(state, event.entrant, group=event.group)
    if "fixed_table" in event.changed:
        state = _with_entrant(state, event.entrant, fixed_table=event.fixed_table)
    return state


def _reseeded(state: TournamentState, event: EntrantsReseeded) -> TournamentState:
    seeds = seeds_in_force(state) | dict(event.seeds)
    entrants = {
        entrant: replace(record, seed=seeds.get(entrant, record.seed))
        for entrant, record in state.entrants.items()
    }
    return replace(state, entrants=entrants, seeding=None, seeding_method=None)


def _group_places_decided(state: TournamentState, event: GroupPlacesDecided) -> TournamentState:
    return replace(state, group_places={**state.group_places, event.group: event.order})


def _tables_changed(state: TournamentState, event: TablesChanged) -> TournamentState:
    return replace(state, settings=replace(state.settings, tables=event.tables))


def _bye_requested(state: TournamentState, event: ByeRequested) -> TournamentState:
    rounds = tuple(sorted({*state.requested_byes.get(event.entrant, ()), event.round}))
    return replace(state, requested_byes={**state.requested_byes, event.entrant: rounds})


def _bye_cancelled(state: TournamentState, event: ByeCancelled) -> TournamentState:
    rounds = tuple(r for r in state.requested_byes.get(event.entrant, ()) if r != event.round)
    requested = {**state.requested_byes, event.entrant: rounds}
    if not rounds:
        del requested[event.entrant]
    return replace(state, requested_byes=requested)


def _paused(state: TournamentState, event: EntrantPaused) -> TournamentState:
    return _with_entrant(state, event.entrant, paused=True)


def _returned(state: TournamentState, event: EntrantReturned) -> TournamentState:
    return _with_entrant(state, event.entrant, paused=False)
