"""Webhooks in the console: an organizer adds an endpoint (the secret shown once), deactivates
it, reads the delivery log and sends failed deliveries again; another club's organizer sees none
of it. Everything goes through the services."""

from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser, Permission
from django.test import Client
from django.urls import reverse

from accounts.models import Role, User
from accounts.services import role_grant
from tests.factories.accounts import ClubFactory, UserFactory
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.admin.builders import act
from tournaments.models import DeliveryStatus, Tournament, WebhookDelivery, WebhookEndpoint
from tournaments.services import running
from tournaments.webhooks import fanout
from tournaments.webhooks.services import webhook_register

pytestmark = pytest.mark.django_db

ENDPOINTS = "tournaments_webhookendpoint"
DELIVERIES = "tournaments_webhookdelivery"


def add_endpoint(client: Client, tournament: Tournament, **fields: str) -> Any:
    form = {"tournament": str(tournament.id), "url": "https://hooks.example.org/b"} | fields
    return client.post(reverse(f"admin:{ENDPOINTS}_add"), form)


def failed_deliveries(tournament: Tournament, user: AbstractBaseUser) -> list[WebhookDelivery]:
    endpoint, _ = webhook_register(
        tournament_id=tournament.id, url="https://hooks.example.org/", user=user
    )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    fanout.fan_out()
    endpoint.deliveries.update(status=DeliveryStatus.FAILED, attempts=8, last_error="HTTP 500")
    return list(endpoint.deliveries.order_by("position"))


def test_adding_an_endpoint_registers_it_and_shows_the_generated_secret_once(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament = TournamentFactory.create()

    response = add_endpoint(admin_client, tournament)

    endpoint = WebhookEndpoint.objects.get()
    assert response.status_code == 302
    assert (endpoint.tournament_id, endpoint.created_by_id) == (tournament.id, admin_user.pk)
    page = admin_client.get(response.url)
    (said,) = [str(message) for message in page.context["messages"]]
    assert said.startswith(f"The endpoint {endpoint.url} was added. Its secret, shown this once")
    assert said.endswith(f"X-Briscola-Signature header): {endpoint.secret}")
    assert endpoint.secret not in admin_client.get(response.url).content.decode()


def test_the_add_form_shows_the_services_refusal_with_its_code(admin_client: Client) -> None:
    tournament = TournamentFactory.create()

    response = add_endpoint(admin_client, tournament, url="https://me:pw@hooks.example.org/")

    assert response.status_code == 200
    assert "(webhook_url_invalid)" in response.content.decode()
    assert not WebhookEndpoint.objects.exists()


def test_the_tournament_page_lists_its_endpoints_and_links_to_adding_one(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament = TournamentFactory.create()
    webhook_register(
        tournament_id=tournament.id, url="https://hooks.example.org/x", user=admin_user
    )

    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament.id]))

    content = page.content.decode()
    assert "https://hooks.example.org/x" in content
    assert f"{reverse(f'admin:{ENDPOINTS}_add')}?tournament={tournament.id}" in content


def test_deactivating_an_endpoint_from_the_list(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    tournament = TournamentFactory.create()
    endpoint, _ = webhook_register(
        tournament_id=tournament.id, url="https://hooks.example.org/", user=admin_user
    )

    _, said = act(admin_client, ENDPOINTS, "deactivate", [endpoint.id])

    endpoint.refresh_from_db()
    assert not endpoint.active
    assert said == ["https://hooks.example.org/ is sent nothing more."]


def test_the_delivery_log_filters_by_status_and_redelivers_failed_deliveries(
    admin_client: Client, admin_user: AbstractBaseUser
) -> None:
    failed = failed_deliveries(TournamentFactory.create(entrants=2), admin_user)
    url = reverse(f"admin:{DELIVERIES}_changelist")

    listed = admin_client.get(url, {"status__exact": "failed"})
    assert listed.context["cl"].result_count == len(failed)
    assert "HTTP 500" in listed.content.decode()

    _, said = act(admin_client, DELIVERIES, "redeliver", [d.id for d in failed])

    assert said == [f"{len(failed)} deliveries will be sent again."]
    assert set(WebhookDelivery.objects.values_list("status", "attempts")) == {("pending", 0)}
    assert admin_client.get(url, {"status__exact": "failed"}).context["cl"].result_count == 0
    _, refused = act(admin_client, DELIVERIES, "redeliver", [failed[0].id])
    assert "only a failed delivery to an active endpoint is sent again" in refused[0]


def test_an_organizer_of_another_club_sees_no_endpoint_and_cannot_add_one(
    client: Client, admin_user: AbstractBaseUser
) -> None:
    theirs = TournamentFactory.create(club=ClubFactory.create(name="Altro circolo"))
    failed_deliveries(theirs, admin_user)
    club = ClubFactory.create()
    ours = TournamentFactory.create(club=club, name="Nostro")
    organizer: User = UserFactory.create(is_staff=True, is_superuser=False)
    role_grant(user=organizer, role=Role.ORGANIZER, club=club)
    organizer.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="tournaments",
            codename__regex=r"_webhook(endpoint|delivery)$",
        )
    )
    client.force_login(organizer)

    endpoints = client.get(reverse(f"admin:{ENDPOINTS}_changelist"))
    deliveries = client.get(reverse(f"admin:{DELIVERIES}_changelist"))
    add_page = client.get(reverse(f"admin:{ENDPOINTS}_add"))
    response = add_endpoint(client, theirs)

    assert endpoints.context["cl"].result_count == 0
    assert deliveries.context["cl"].result_count == 0
    choices = list(add_page.context["adminform"].form.fields["tournament"].queryset)
    assert choices == [ours]
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert WebhookEndpoint.objects.count() == 1
