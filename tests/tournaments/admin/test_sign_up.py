"""The console's sign-up (decision record 0053): the settings changed on the tournament's page,
the applications and the waiting list shown with their actions, and each action carried out
through the same services as the API."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.admin.builders import TOURNAMENT_FORM, add_tournament
from tournaments.models import Application, Tournament
from tournaments.services.signup import application_submit, player_key_find
from tournaments.state import Registration

pytestmark = pytest.mark.django_db


def console(client: Client, tournament_id: UUID) -> str:
    response = client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id]))
    assert response.status_code == 200
    return response.content.decode()


def run(client: Client, tournament_id: UUID, operation: str, **data: Any) -> Any:
    url = reverse("admin:tournaments_tournament_run", args=[tournament_id, operation])
    return client.post(url, data, follow=True)


def applied(tournament: Tournament, *names: str) -> dict[str, int]:
    for name in names:
        application_submit(tournament_id=tournament.id, name=name, actor=ORGANIZER)
    return {a.name: a.id for a in Application.objects.filter(tournament=tournament)}


def test_the_organizer_opens_the_sign_up_on_the_tournament_s_page(admin_client: Client) -> None:
    tournament = TournamentFactory.create(entrants=0)

    answer = run(
        admin_client,
        tournament.id,
        "registration",
        open="on",
        cap="8",
        waitlist="on",
        closes_at="2099-12-31T20:30",
    )

    tournament.refresh_from_db()
    assert tournament.settings["registration"] == {
        "open": True,
        "closes_at": "2099-12-31T20:30:00+01:00",
        "cap": 8,
        "waitlist": True,
        "approval": False,
    }
    assert "Sign-up settings saved." in answer.content.decode()
    assert 'value="2099-12-31T20:30"' in console(admin_client, tournament.id)


def test_the_console_lists_the_applications_and_the_waiting_list_with_their_actions(
    admin_client: Client,
) -> None:
    tournament = TournamentFactory.create(
        entrants=0, registration=Registration(open=True, cap=1, waitlist=True)
    )
    ids = applied(tournament, "Rossi", "Bianchi", "Verdi")

    page = console(admin_client, tournament.id)

    assert f'data-application="{ids["Rossi"]}" data-application-status="entered"' in page
    assert (
        f'data-application="{ids["Verdi"]}" data-application-status="waitlisted" '
        'data-waiting-position="2"'
    ) in page
    assert page.count('data-action="application_promote"') == 2
    assert page.count('data-action="application_up"') == 2


def test_the_console_s_actions_move_up_decline_and_promote(admin_client: Client) -> None:
    tournament = TournamentFactory.create(
        entrants=0, registration=Registration(open=True, cap=1, waitlist=True)
    )
    ids = applied(tournament, "Rossi", "Bianchi", "Verdi")

    run(admin_client, tournament.id, "application_up", application=ids["Verdi"])
    run(admin_client, tournament.id, "application_decline", application=ids["Bianchi"])
    full = run(admin_client, tournament.id, "application_promote", application=ids["Verdi"])

    page = console(admin_client, tournament.id)
    assert f'data-application="{ids["Bianchi"]}" data-application-status="declined"' in page
    assert (
        f'data-application="{ids["Verdi"]}" data-application-status="waitlisted" '
        'data-waiting-position="1"'
    ) in page
    assert "tournament_full" in full.content.decode() or "full" in full.content.decode()


def test_the_console_approves_a_pending_application(admin_client: Client) -> None:
    tournament = TournamentFactory.create(
        entrants=0, registration=Registration(open=True, approval=True)
    )
    ids = applied(tournament, "Rossi")

    run(admin_client, tournament.id, "application_approve", application=ids["Rossi"])

    page = console(admin_client, tournament.id)
    assert f'data-application="{ids["Rossi"]}" data-application-status="entered"' in page


def test_the_add_form_opens_the_sign_up_at_creation(admin_client: Client) -> None:
    add_tournament(admin_client, sign_up_open="on", sign_up_cap="16", sign_up_waitlist="on")
    plain = TOURNAMENT_FORM["name"]

    tournament = Tournament.objects.get(name=plain)
    assert tournament.settings["registration"] == {
        "open": True,
        "closes_at": None,
        "cap": 16,
        "waitlist": True,
        "approval": False,
    }


def test_a_tournament_added_without_sign_up_records_its_settings_as_before(
    admin_client: Client,
) -> None:
    add_tournament(admin_client)

    assert "registration" not in Tournament.objects.get().settings


def test_the_console_revokes_a_player_key_and_erases_an_application(
    admin_client: Client,
) -> None:
    tournament = TournamentFactory.create(
        entrants=0, registration=Registration(open=True, approval=True)
    )
    key = application_submit(
        tournament_id=tournament.id, name="Rossi", contact="rossi@example.org", actor=ORGANIZER
    ).player_key
    application = Application.objects.get()

    run(admin_client, tournament.id, "application_key_revoke", application=application.id)
    run(admin_client, tournament.id, "application_erase", application=application.id)

    assert player_key_find(key) is None
    application.refresh_from_db()
    assert (application.name, application.contact, application.erased) == ("", "", True)
