"""Players' sign-up (issue 26 §1, decision record 0053) decided and folded without a database:
entered, waitlisted or pending, the organizer's approval, declines, promotions and the waiting
list's order, and the refusals."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.stream.builders import carried_out
from tournaments.errors import (
    InvalidApplication,
    RegistrationClosed,
    TournamentAlreadyStarted,
    TournamentFull,
)
from tournaments.state import ApplicationPhase, Registration, TournamentSettings, TournamentState
from tournaments.stream.commands import (
    ApplyToPlay,
    ApproveApplication,
    ChangeRegistration,
    CreateTournament,
    DeclineApplication,
    PreparedEntrant,
    PromoteApplication,
    RegisterEntrant,
    ReorderWaitingList,
    StartTournament,
    WithdrawEntrant,
)
from tournaments.stream.decide import decide
from tournaments.stream.events import (
    ApplicationPromoted,
    ApplicationWaitlisted,
    EntrantApplied,
    EntrantRegistered,
    EntrantWithdrew,
    RegistrationChanged,
)
from tournaments.stream.evolve import fold
from tournaments.stream.signup import application_outcome, first_promoted_by_withdrawal

TOURNAMENT = uuid.UUID(int=26)
NOW = datetime(2026, 11, 28, 18, tzinfo=UTC)
OPEN = Registration(open=True)


def tournament(registration: Registration = OPEN) -> TournamentState:
    settings_ = TournamentSettings(format="round_robin", table_size=2, registration=registration)
    return carried_out(None, CreateTournament("Club night", settings_))


def application(number: int, state: TournamentState) -> ApplyToPlay:
    """Application `number`, with its entrant rows (entrant id 100 + number) when it enters."""
    enters = application_outcome(state, NOW) == ApplicationPhase.ENTERED
    entrant = PreparedEntrant(100 + number, (number,)) if enters else None
    return ApplyToPlay(number, 1, NOW, entrant)


def applied(state: TournamentState, *numbers: int) -> TournamentState:
    for number in numbers:
        state = carried_out(state, application(number, state))
    return state


def test_an_application_enters_at_once_when_registration_is_open_without_approval() -> None:
    state = tournament()

    events = decide(state, application(1, state))

    assert events == [EntrantApplied(1, 1), EntrantRegistered(101, players=(1,), application=1)]
    after = fold(events, state)
    assert after.applications == {1: ApplicationPhase.ENTERED}
    assert after.entrant_of_application == {1: 101}
    assert after.active_entrants == (101,)


def test_over_the_cap_an_application_waits_on_the_list_when_the_tournament_keeps_one() -> None:
    state = applied(tournament(Registration(open=True, cap=2, waitlist=True)), 1, 2)

    events = decide(state, application(3, state))

    assert events == [EntrantApplied(3, 1), ApplicationWaitlisted(3)]
    assert fold(events, state).waiting == (3,)


def test_over_the_cap_without_a_waiting_list_an_application_is_refused_as_full() -> None:
    state = applied(tournament(Registration(open=True, cap=2)), 1, 2)

    with pytest.raises(TournamentFull) as refused:
        decide(state, ApplyToPlay(3, 1, NOW))

    assert refused.value.code == "tournament_full"


@pytest.mark.parametrize(
    "registration",
    [
        Registration(),
        Registration(open=True, closes_at=(NOW - timedelta(minutes=1)).isoformat()),
    ],
    ids=["closed", "after its closing time"],
)
def test_an_application_is_refused_while_registration_is_closed(
    registration: Registration,
) -> None:
    with pytest.raises(RegistrationClosed) as refused:
        decide(tournament(registration), ApplyToPlay(1, 1, NOW))

    assert refused.value.code == "registration_closed"


def test_an_application_is_refused_once_the_tournament_has_started() -> None:
    state = applied(tournament(), 1, 2)
    state = fold(decide(state, StartTournament(TOURNAMENT)), state)

    with pytest.raises(RegistrationClosed):
        decide(state, ApplyToPlay(3, 1, NOW))


def test_with_approval_an_application_is_pending_until_approved_and_then_enters() -> None:
    state = applied(tournament(Registration(open=True, approval=True)), 1)
    assert state.applications[1] == ApplicationPhase.PENDING
    assert state.active_entrants == ()

    approved = carried_out(state, ApproveApplication(1, PreparedEntrant(101, (1,))))

    assert approved.applications[1] == ApplicationPhase.ENTERED
    assert approved.active_entrants == (101,)


def test_an_approved_application_over_the_cap_joins_the_waiting_list() -> None:
    registration = Registration(open=True, approval=True, cap=1, waitlist=True)
    state = applied(tournament(registration), 1, 2)
    state = carried_out(state, ApproveApplication(1, PreparedEntrant(101)))

    after = carried_out(state, ApproveApplication(2))

    assert after.applications[2] == ApplicationPhase.WAITLISTED
    assert after.waiting == (2,)


def test_a_declined_application_leaves_the_waiting_list_and_cannot_be_approved() -> None:
    state = applied(tournament(Registration(open=True, cap=1, waitlist=True)), 1, 2, 3)

    after = carried_out(state, DeclineApplication(2, "not a member"))

    assert after.waiting == (3,)
    assert after.applications[2] == ApplicationPhase.DECLINED
    with pytest.raises(InvalidApplication):
        decide(after, ApproveApplication(2))


def test_a_withdrawal_before_the_start_promotes_the_first_on_the_waiting_list() -> None:
    state = applied(tournament(Registration(open=True, cap=2, waitlist=True)), 1, 2, 3, 4)
    assert first_promoted_by_withdrawal(state, 101) == 3

    events = decide(state, WithdrawEntrant(101, "ill", promoted=PreparedEntrant(103, (3,))))

    assert events == [
        EntrantWithdrew(101, "ill"),
        ApplicationPromoted(3, by="withdrawal"),
        EntrantRegistered(103, players=(3,), application=3),
    ]
    after = fold(events, state)
    assert after.waiting == (4,)
    assert set(after.active_entrants) == {102, 103}


def test_the_organizer_promotes_only_while_there_is_room_under_the_cap() -> None:
    state = applied(tournament(Registration(open=True, cap=1, waitlist=True)), 1, 2)

    with pytest.raises(TournamentFull):
        decide(state, PromoteApplication(2, PreparedEntrant(102)))
    raised = carried_out(state, ChangeRegistration(Registration(open=True, cap=2, waitlist=True)))
    after = carried_out(raised, PromoteApplication(2, PreparedEntrant(102)))

    assert after.applications[2] == ApplicationPhase.ENTERED
    assert after.waiting == ()


def test_the_waiting_list_is_reordered_only_with_every_application_on_it_once() -> None:
    state = applied(tournament(Registration(open=True, cap=1, waitlist=True)), 1, 2, 3, 4)

    assert carried_out(state, ReorderWaitingList((4, 2, 3))).waiting == (4, 2, 3)
    with pytest.raises(InvalidApplication):
        decide(state, ReorderWaitingList((4, 2)))
    with pytest.raises(InvalidApplication):
        decide(state, ReorderWaitingList((4, 2, 2)))


def test_the_sign_up_settings_change_until_the_start_and_not_after() -> None:
    state = tournament(Registration())
    changed = Registration(open=True, cap=8)

    assert decide(state, ChangeRegistration(changed)) == [RegistrationChanged(changed)]
    assert decide(state, ChangeRegistration(Registration())) == []
    state = carried_out(state, RegisterEntrant(1, 1), RegisterEntrant(2, 1))
    state = fold(decide(state, StartTournament(TOURNAMENT)), state)
    with pytest.raises(TournamentAlreadyStarted):
        decide(state, ChangeRegistration(changed))


def test_a_tournament_created_without_sign_up_records_its_settings_as_before() -> None:
    assert "registration" not in TournamentSettings(format="swiss", table_size=2).to_dict()
    settings_ = TournamentSettings(format="swiss", table_size=2, registration=OPEN)
    assert TournamentSettings.from_dict(settings_.to_dict()) == settings_


actions = st.lists(
    st.one_of(
        st.tuples(st.just("apply"), st.just(0)),
        st.tuples(st.just("withdraw"), st.integers(0, 20)),
        st.tuples(st.just("reorder"), st.integers(0, 20)),
    ),
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(cap=st.integers(1, 5), script=actions)
def test_entrants_never_exceed_the_cap_the_waiting_list_keeps_its_order_and_the_first_goes_up(
    cap: int, script: list[tuple[str, int]]
) -> None:
    state = tournament(Registration(open=True, cap=cap, waitlist=True))
    number = 0
    for action, pick in script:
        if action == "apply":
            number += 1
            before = state.waiting
            state = carried_out(state, application(number, state))
            if state.applications[number] == ApplicationPhase.WAITLISTED:
                assert state.waiting == (*before, number)
        elif action == "withdraw" and state.active_entrants:
            leaving = state.active_entrants[pick % len(state.active_entrants)]
            first = first_promoted_by_withdrawal(state, leaving)
            assert first == (state.waiting[0] if state.waiting else None)
            rest = state.waiting[1:]
            prepared = None if first is None else PreparedEntrant(100 + first, (first,))
            state = carried_out(state, WithdrawEntrant(leaving, promoted=prepared))
            if first is not None:
                assert state.applications[first] == ApplicationPhase.ENTERED
                assert state.waiting == rest
        elif action == "reorder" and len(state.waiting) > 1:
            turned = pick % len(state.waiting)
            order = (*state.waiting[turned:], *state.waiting[:turned])
            state = carried_out(state, ReorderWaitingList(order))
            assert state.waiting == order
        assert len(state.active_entrants) <= cap
        assert len(set(state.waiting)) == len(state.waiting)
        assert all(state.applications[a] == ApplicationPhase.WAITLISTED for a in state.waiting)


def test_a_replace_keeps_the_registration_typed() -> None:
    settings_ = replace(TournamentSettings(format="swiss", table_size=2), registration=OPEN)
    assert settings_.registration.accepts(NOW)
