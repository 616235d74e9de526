"""Webhook endpoints through the API: an organizer registers, lists and deactivates them."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories.tournaments import ApiTournamentFactory
from tests.tournaments.api.builders import tournament_url
from tournaments.models import WebhookEndpoint

pytestmark = pytest.mark.django_db

HOOK = "https://hooks.example.org/briscola"


def registered(client: APIClient, tournament_id: str, **body: Any) -> Any:
    return client.post(tournament_url(tournament_id, "webhooks"), {"url": HOOK, **body}, "json")


def test_an_organizer_registers_an_endpoint_and_sees_its_generated_secret_once(
    organizer: APIClient,
) -> None:
    tournament = ApiTournamentFactory.create(client=organizer)

    answer = registered(organizer, tournament["id"])
    listed = organizer.get(tournament_url(tournament["id"], "webhooks"))

    assert answer.status_code == 201
    endpoint = WebhookEndpoint.objects.get(id=answer.json()["id"])
    assert answer.json()["secret"] == endpoint.secret
    assert len(endpoint.secret) >= 16
    assert answer.json()["url"] == HOOK
    assert answer.json()["active"] is True
    assert listed.status_code == 200
    assert [row["id"] for row in listed.json()] == [endpoint.id]
    assert "secret" not in listed.json()[0]


def test_a_secret_given_is_kept_and_a_bad_address_or_secret_is_refused_with_its_code(
    organizer: APIClient, settings: Any
) -> None:
    tournament = ApiTournamentFactory.create(client=organizer)
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False

    given = registered(organizer, tournament["id"], secret="s" * 20)
    ftp = registered(organizer, tournament["id"], url="ftp://hooks.example.org/")
    loopback = registered(organizer, tournament["id"], url="http://127.0.0.1:9/")
    short = registered(organizer, tournament["id"], secret="short")

    assert given.status_code == 201
    assert given.json()["secret"] == "s" * 20
    assert (ftp.status_code, ftp.json()["code"]) == (422, "webhook_url_invalid")
    assert (loopback.status_code, loopback.json()["code"]) == (422, "webhook_address_refused")
    assert (short.status_code, short.json()["code"]) == (422, "webhook_secret_invalid")
    assert WebhookEndpoint.objects.count() == 1


def test_an_address_that_could_never_be_delivered_is_refused_with_its_code_in_italian_too(
    organizer: APIClient,
) -> None:
    tournament = ApiTournamentFactory.create(client=organizer)
    webhooks = tournament_url(tournament["id"], "webhooks")

    unclosed = registered(organizer, tournament["id"], url="http://[::1/")
    port_zero = registered(organizer, tournament["id"], url="https://hooks.example.org:0/")
    spaced = organizer.post(
        webhooks, {"url": "https://hooks.example.org/a b"}, "json", HTTP_ACCEPT_LANGUAGE="it"
    )

    assert (unclosed.status_code, unclosed.json()["code"]) == (422, "webhook_url_invalid")
    assert (port_zero.status_code, port_zero.json()["code"]) == (422, "webhook_url_invalid")
    assert spaced.status_code == 422
    assert spaced.json() == {
        "code": "webhook_url_invalid",
        "detail": "l'indirizzo di un webhook non contiene spazi né caratteri di controllo",
    }
    assert not WebhookEndpoint.objects.exists()


def test_deactivating_an_endpoint_stops_it_and_another_tournaments_endpoint_is_not_found(
    organizer: APIClient,
) -> None:
    tournament = ApiTournamentFactory.create(client=organizer)
    other = ApiTournamentFactory.create(client=organizer, name="Altro")
    endpoint_id = registered(organizer, tournament["id"]).json()["id"]
    deactivate = tournament_url(tournament["id"], "webhooks", endpoint_id, "deactivate")

    first = organizer.post(deactivate, {}, "json")
    again = organizer.post(deactivate, {}, "json")
    elsewhere = organizer.post(
        tournament_url(other["id"], "webhooks", endpoint_id, "deactivate"), {}, "json"
    )

    assert (first.status_code, first.json()["active"]) == (200, False)
    assert (again.status_code, again.json()["active"]) == (200, False)
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (404, "webhook_not_found")
    assert WebhookEndpoint.objects.get(id=endpoint_id).active is False
