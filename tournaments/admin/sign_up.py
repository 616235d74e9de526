"""The console's sign-up (issue 26 §1, decision record 0053): the registration settings, the
applications and the waiting list, and the organizer's actions on them, each through the same
service as the API."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from common.admin import admin_actor
from common.parsing import ascii_int
from tournaments.errors import InvalidApplication, InvalidTournament
from tournaments.models import Application, Tournament, TournamentStatus
from tournaments.selectors.signup import application_rows, registration_of
from tournaments.services import signup
from tournaments.state import ApplicationPhase, Registration


def sign_up_console(tournament: Tournament, *, may_change: bool) -> dict[str, Any] | None:
    """What the tournament's page shows of its sign-up: the settings, every application (the
    waiting list first, in order) and, for who may change it, the actions each can take."""
    run = reverse("admin:tournaments_tournament_run", args=[tournament.id, "registration"])
    rows = application_rows(tournament_id=tournament.id)
    before_start = tournament.status == TournamentStatus.REGISTRATION
    registration = registration_of(tournament.settings)
    closes_at = registration.closes_at
    return {
        "registration": registration,
        "closes_at_local": ""
        if closes_at is None
        else timezone.localtime(datetime.fromisoformat(closes_at)).strftime("%Y-%m-%dT%H:%M"),
        "change_url": run if may_change and before_start else None,
        "applications": [
            {
                "row": row,
                "actions": [
                    {
                        "name": name,
                        "label": ACTION_LABELS[name],
                        "url": reverse(
                            "admin:tournaments_tournament_run", args=[tournament.id, name]
                        ),
                    }
                    for name in (actions_of(row.status) if may_change and before_start else ())
                ],
            }
            for row in rows
        ],
        "sign_up_url": reverse("pages:tournament-sign-up", args=[tournament.id]),
    }


ACTION_LABELS = {
    "application_approve": gettext_lazy("Approve"),
    "application_decline": gettext_lazy("Decline"),
    "application_promote": gettext_lazy("Enter now"),
    "application_up": gettext_lazy("Move up"),
    "application_key_revoke": gettext_lazy("Revoke the player key"),
    "application_erase": gettext_lazy("Erase the name and contact"),
}


def actions_of(status: ApplicationPhase) -> tuple[str, ...]:
    kept = ("application_key_revoke", "application_erase")
    if status == ApplicationPhase.PENDING:
        return ("application_approve", "application_decline", "application_promote", *kept)
    if status == ApplicationPhase.WAITLISTED:
        return ("application_promote", "application_up", "application_decline", *kept)
    return kept


def application_posted(request: HttpRequest, tournament: Tournament) -> Application:
    number = ascii_int(request.POST.get("application", "").strip())
    application = (
        None
        if number is None
        else Application.objects.filter(tournament=tournament, id=number).first()
    )
    if application is None:
        raise InvalidApplication.because(
            gettext_noop("there is no application %(application)s"),
            application=request.POST.get("application", ""),
        )
    return application


def change_registration(request: HttpRequest, tournament: Tournament) -> str:
    """The settings typed on the tournament's page."""
    cap_given = request.POST.get("cap", "").strip()
    cap = ascii_int(cap_given) if cap_given else None
    if cap_given and cap is None:
        raise InvalidTournament.because(gettext_noop("the sign-up cap is a whole number"))
    closes_given = request.POST.get("closes_at", "").strip()
    closes_at: datetime | None = parse_datetime(closes_given) if closes_given else None
    if closes_given and closes_at is None:
        raise InvalidTournament.because(gettext_noop("the closing time is a date and a time"))
    if closes_at is not None and timezone.is_naive(closes_at):
        closes_at = timezone.make_aware(closes_at)  # the form's local time
    registration = Registration(
        open=request.POST.get("open") == "on",
        closes_at=None if closes_at is None else closes_at.isoformat(),
        cap=cap,
        waitlist=request.POST.get("waitlist") == "on",
        approval=request.POST.get("approval") == "on",
    )
    signup.registration_change(
        tournament_id=tournament.id, registration=registration, actor=admin_actor(request)
    )
    return _("Sign-up settings saved.")


def approve(request: HttpRequest, tournament: Tournament) -> str:
    application = application_posted(request, tournament)
    signup.application_approve(
        tournament_id=tournament.id, application_id=application.id, actor=admin_actor(request)
    )
    return _("%(name)s approved.") % {"name": application}


def decline(request: HttpRequest, tournament: Tournament) -> str:
    application = application_posted(request, tournament)
    signup.application_decline(
        tournament_id=tournament.id,
        application_id=application.id,
        reason=request.POST.get("reason", "").strip(),
        actor=admin_actor(request),
    )
    return _("%(name)s declined.") % {"name": application}


def promote(request: HttpRequest, tournament: Tournament) -> str:
    application = application_posted(request, tournament)
    signup.application_promote(
        tournament_id=tournament.id, application_id=application.id, actor=admin_actor(request)
    )
    return _("%(name)s entered.") % {"name": application}


def move_up(request: HttpRequest, tournament: Tournament) -> str:
    """One place up the waiting list (a reorder of the whole list)."""
    application = application_posted(request, tournament)
    waiting = [
        row.id
        for row in application_rows(tournament_id=tournament.id)
        if row.status == ApplicationPhase.WAITLISTED
    ]
    if application.id not in waiting:
        raise InvalidApplication.because(
            gettext_noop("application %(application)s is neither waiting nor pending"),
            application=application.id,
        )
    place = waiting.index(application.id)
    if place > 0:
        waiting[place - 1], waiting[place] = waiting[place], waiting[place - 1]
    signup.waiting_list_reorder(
        tournament_id=tournament.id, order=waiting, actor=admin_actor(request)
    )
    return _("%(name)s moved up the waiting list.") % {"name": application}


def revoke_key(request: HttpRequest, tournament: Tournament) -> str:
    """The application's player key stops working (a lost phone); a new one is §2's card."""
    application = application_posted(request, tournament)
    revoked = signup.player_key_revoke(application=application)
    return ngettext(
        "%(count)s player key of %(name)s revoked.",
        "%(count)s player keys of %(name)s revoked.",
        revoked,
    ) % {"count": revoked, "name": application}


def erase(request: HttpRequest, tournament: Tournament) -> str:
    """The application's names and contact blanked (decision 0018); no event changes. An
    entered player's names are erased as any player's, on the player's page."""
    application = application_posted(request, tournament)
    signup.application_erase(application=application)
    return _("Application %(application)s erased.") % {"application": application.id}
