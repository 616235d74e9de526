"""Deciding the players' sign-up (issue 26 §1, decision record 0053): applications, the
organizer's approval, the waiting list and its promotions, and the sign-up settings.

An application enters at once when registration is open, without approval and under the cap;
waits on the waiting list over the cap when the tournament keeps one; is pending when the
organizer approves each one. The number of active entrants never exceeds the cap.
"""

from __future__ import annotations

from datetime import datetime

from common.explained import gettext_noop
from tournaments.errors import (
    ApplicationNotFound,
    InvalidApplication,
    InvalidTournament,
    RegistrationClosed,
    TournamentAlreadyStarted,
    TournamentFull,
)
from tournaments.state import ApplicationPhase, TournamentState
from tournaments.stream.commands import (
    ApplyToPlay,
    ApproveApplication,
    ChangeRegistration,
    DeclineApplication,
    PreparedEntrant,
    PromoteApplication,
    ReorderWaitingList,
)
from tournaments.stream.entrant_checks import check_player_count
from tournaments.stream.events import (
    ApplicationApproved,
    ApplicationDeclined,
    ApplicationPromoted,
    ApplicationWaitlisted,
    EntrantApplied,
    EntrantRegistered,
    RegistrationChanged,
    TournamentEvent,
    WaitingListReordered,
)


def change_registration(
    state: TournamentState, command: ChangeRegistration
) -> list[TournamentEvent]:
    if state.started:
        raise TournamentAlreadyStarted.because(
            gettext_noop("the tournament has started: its sign-up cannot change")
        )
    registration = command.registration
    if registration.cap is not None and registration.cap < 1:
        raise InvalidTournament.because(gettext_noop("the sign-up cap is at least one entrant"))
    if registration == state.settings.registration:
        return []
    return [RegistrationChanged(registration)]


def application_outcome(state: TournamentState, now: datetime) -> ApplicationPhase:
    """Where an application made `now` goes, or why it is refused (`registration_closed`,
    `tournament_full`)."""
    registration = state.settings.registration
    if state.started or not registration.accepts(now):
        raise RegistrationClosed.because(gettext_noop("registration is closed"))
    if registration.approval:
        return ApplicationPhase.PENDING
    return _entered_or_waiting(state)


def _entered_or_waiting(state: TournamentState) -> ApplicationPhase:
    if state.room:
        return ApplicationPhase.ENTERED
    if state.settings.registration.waitlist:
        return ApplicationPhase.WAITLISTED
    raise TournamentFull.because(gettext_noop("the tournament is full"))


def apply_to_play(state: TournamentState, command: ApplyToPlay) -> list[TournamentEvent]:
    if command.application in state.applications:
        raise InvalidApplication.because(
            gettext_noop("application %(application)s exists already"),
            application=command.application,
        )
    check_player_count(state, command.players)
    outcome = application_outcome(state, command.now)
    applied = EntrantApplied(command.application, command.players)
    return [applied, *_placed(command.application, outcome, command.entrant)]


def _placed(
    application: int, outcome: ApplicationPhase, entrant: PreparedEntrant | None
) -> list[TournamentEvent]:
    if outcome == ApplicationPhase.WAITLISTED:
        return [ApplicationWaitlisted(application)]
    if outcome == ApplicationPhase.ENTERED:
        return [_entered(application, entrant)]
    return []


def _entered(application: int, entrant: PreparedEntrant | None) -> EntrantRegistered:
    if entrant is None:
        raise ValueError(f"application {application} enters: its entrant rows are needed")
    return EntrantRegistered(entrant.entrant, players=entrant.player_ids, application=application)


def _application(state: TournamentState, application: int) -> ApplicationPhase:
    phase = state.applications.get(application)
    if phase is None:
        raise ApplicationNotFound.because(
            gettext_noop("there is no application %(application)s"), application=application
        )
    return phase


def _before_start(state: TournamentState) -> None:
    if state.started:
        raise TournamentAlreadyStarted.because(
            gettext_noop("the tournament has started: its applications are settled")
        )


def approval_outcome(state: TournamentState, application: int) -> ApplicationPhase:
    """Where a pending application goes when approved (entered or waitlisted), or why not."""
    _before_start(state)
    if _application(state, application) != ApplicationPhase.PENDING:
        raise InvalidApplication.because(
            gettext_noop("application %(application)s is not pending"), application=application
        )
    return _entered_or_waiting(state)


def approve_application(
    state: TournamentState, command: ApproveApplication
) -> list[TournamentEvent]:
    outcome = approval_outcome(state, command.application)
    return [
        ApplicationApproved(command.application),
        *_placed(command.application, outcome, command.entrant),
    ]


def decline_application(
    state: TournamentState, command: DeclineApplication
) -> list[TournamentEvent]:
    _before_start(state)
    phase = _application(state, command.application)
    if phase == ApplicationPhase.DECLINED:
        return []
    if phase == ApplicationPhase.ENTERED:
        raise InvalidApplication.because(
            gettext_noop("application %(application)s has entered: withdraw its entrant"),
            application=command.application,
        )
    return [ApplicationDeclined(command.application, command.reason)]


def check_promotable(state: TournamentState, application: int) -> None:
    _before_start(state)
    if _application(state, application) not in (
        ApplicationPhase.WAITLISTED,
        ApplicationPhase.PENDING,
    ):
        raise InvalidApplication.because(
            gettext_noop("application %(application)s is neither waiting nor pending"),
            application=application,
        )
    if not state.room:
        raise TournamentFull.because(
            gettext_noop("the tournament is full: raise the cap or wait for a withdrawal")
        )


def promote_application(
    state: TournamentState, command: PromoteApplication
) -> list[TournamentEvent]:
    check_promotable(state, command.application)
    return [
        ApplicationPromoted(command.application, by="organizer"),
        _entered(command.application, command.entrant),
    ]


def promoted_by_withdrawal(
    state: TournamentState, promoted: PreparedEntrant | None
) -> list[TournamentEvent]:
    """After a withdrawal (folded into `state`): the first on the waiting list enters the place
    it freed, before the start and under the cap (nothing when `promoted` is None)."""
    if promoted is None or state.started or not state.waiting or not state.room:
        return []
    first = state.waiting[0]
    return [ApplicationPromoted(first, by="withdrawal"), _entered(first, promoted)]


def first_promoted_by_withdrawal(state: TournamentState, entrant: int) -> int | None:
    """The application a withdrawal of `entrant` would promote (None: nobody)."""
    record = state.entrants.get(entrant)
    if record is None or record.withdrawn or state.started or not state.waiting:
        return None
    cap = state.settings.registration.cap
    if cap is not None and state.entered_count - 1 >= cap:
        return None
    return state.waiting[0]


def reorder_waiting_list(
    state: TournamentState, command: ReorderWaitingList
) -> list[TournamentEvent]:
    _before_start(state)
    if sorted(command.order) != sorted(state.waiting) or len(set(command.order)) != len(
        command.order
    ):
        raise InvalidApplication.because(
            gettext_noop("give every application on the waiting list once: %(waiting)s"),
            waiting=", ".join(str(a) for a in state.waiting),
        )
    if command.order == state.waiting:
        return []
    return [WaitingListReordered(tuple(command.order))]
