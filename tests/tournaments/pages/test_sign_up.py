"""The public sign-up page (issue 26 §1, decision record 0053): the form while registration is
open, the answer with the player key and its QR code, the refusals in the page, the honeypot,
the tournament page's link, a private tournament's 404, and one browser run at phone size."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts import services
from accounts.models import Role
from tests.factories.accounts import ClubFactory, UserFactory
from tests.factories.tournaments import TournamentFactory
from tournaments.models import Application, PlayerKey, Tournament
from tournaments.state import Registration

OPEN = Registration(open=True, cap=1, waitlist=True)


def sign_up_tournament(registration: Registration = OPEN, **fields: Any) -> Tournament:
    tournament: Tournament = TournamentFactory.create(
        entrants=0, format="round_robin", registration=registration, **fields
    )
    return tournament


def sign_up_url(tournament: Tournament) -> str:
    return f"/tournaments/{tournament.id}/sign-up/"


@pytest.mark.django_db
def test_the_page_signs_a_player_up_and_shows_the_key_once_with_its_qr_code(
    client: Client,
) -> None:
    tournament = sign_up_tournament()

    form = client.get(sign_up_url(tournament))
    answer = client.post(sign_up_url(tournament), {"name": "Rossi", "contact": "r@example.org"})

    assert b"data-sign-up-form" in form.content
    assert answer.status_code == 201
    assert answer["Cache-Control"] == "no-store"
    body = answer.content.decode()
    assert 'data-registration-status="entered"' in body
    assert "<svg" in body
    key = body.split('data-player-key="')[1].split('"')[0]
    assert PlayerKey.objects.get().prefix == key[:11]
    assert Application.objects.get().contact == "r@example.org"


@pytest.mark.django_db
def test_over_the_cap_the_page_says_the_player_waits_and_where(client: Client) -> None:
    tournament = sign_up_tournament()
    client.post(sign_up_url(tournament), {"name": "Rossi"})

    answer = client.post(sign_up_url(tournament), {"name": "Bianchi"})

    body = answer.content.decode()
    assert 'data-registration-status="waitlisted"' in body
    assert 'data-waiting-position="1"' in body


@pytest.mark.django_db
def test_a_refusal_is_shown_in_the_page_with_its_code_and_records_nothing(
    client: Client,
) -> None:
    tournament = sign_up_tournament(Registration(open=True, cap=2))
    client.post(sign_up_url(tournament), {"name": "Rossi"})

    duplicate = client.post(sign_up_url(tournament), {"name": "ROSSI"})
    client.post(sign_up_url(tournament), {"name": "Bianchi"})
    full = client.post(sign_up_url(tournament), {"name": "Verdi"})

    assert b'data-error-code="tournament_full"' in full.content
    assert full.status_code == 422
    assert b'data-error-code="duplicate_entrant_name"' in duplicate.content
    assert Application.objects.count() == 2


@pytest.mark.django_db
def test_a_filled_honeypot_is_answered_as_accepted_and_records_nothing(client: Client) -> None:
    tournament = sign_up_tournament()

    answer = client.post(sign_up_url(tournament), {"name": "Bot", "website": "http://spam"})

    assert b'data-registration-status="entered"' in answer.content
    assert not Application.objects.exists()
    assert not PlayerKey.objects.exists()


@pytest.mark.django_db
def test_the_tournament_page_links_to_the_sign_up_only_while_registration_is_open(
    client: Client,
) -> None:
    opened = sign_up_tournament()
    closed = sign_up_tournament(Registration())

    assert b"data-sign-up-link" in client.get(f"/tournaments/{opened.id}/").content
    assert b"data-sign-up-link" not in client.get(f"/tournaments/{closed.id}/").content
    assert b'data-registration-status="closed"' in client.get(sign_up_url(closed)).content


@pytest.mark.django_db
def test_a_private_tournament_s_sign_up_page_is_not_found_for_an_outsider(
    client: Client,
) -> None:
    tournament = sign_up_tournament(public=False)

    assert client.get(sign_up_url(tournament)).status_code == 404
    assert client.post(sign_up_url(tournament), {"name": "Rossi"}).status_code == 404


@pytest.mark.django_db
def test_the_page_speaks_italian(client: Client) -> None:
    tournament = sign_up_tournament()

    page = client.get(sign_up_url(tournament), headers={"accept-language": "it"})

    assert "Iscriviti" in page.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_player_signs_up_on_a_phone_sees_the_key_and_a_robot_records_nothing(
    browser_page: Page, live_server: LiveServer
) -> None:
    tournament = sign_up_tournament()
    url = f"{live_server.url}{sign_up_url(tournament)}"

    browser_page.goto(f"{live_server.url}/tournaments/{tournament.id}/")
    browser_page.locator("[data-sign-up-link]").click()
    browser_page.get_by_label("Your name").fill("Rossi")
    browser_page.get_by_label("Email or phone (optional, for the organizer only)").fill(
        "rossi@example.org"
    )
    browser_page.locator("[data-action=sign-up]").click()

    result = browser_page.locator("[data-registration-status]")
    expect(result).to_have_attribute("data-registration-status", "entered")
    expect(browser_page.locator(".player-key-qr svg")).to_be_visible()
    key = browser_page.locator("[data-player-key-text]").inner_text()
    expect(browser_page.locator("[data-key-kept]")).to_be_visible()
    kept = browser_page.evaluate(
        f"() => localStorage.getItem('briscola.playerKey.{tournament.id}')"
    )
    assert kept == key
    assert PlayerKey.objects.count() == 1

    # A robot fills the field people never see: answered as accepted, nothing recorded.
    browser_page.goto(url)
    browser_page.get_by_label("Your name").fill("Robot")
    browser_page.locator("#sign-up-website").fill("http://spam.example", force=True)
    browser_page.locator("[data-action=sign-up]").click()
    expect(result).to_have_attribute("data-registration-status", "entered")
    assert list(Application.objects.values_list("name", flat=True)) == ["Rossi"]


@pytest.mark.django_db
def test_a_private_tournament_s_sign_up_is_its_club_s_members_and_nobody_else_s(
    client: Client,
) -> None:
    club = ClubFactory.create(name="Circolo")
    member, outsider = UserFactory.create(username="member"), UserFactory.create(username="out")
    services.role_grant(user=member, role=Role.SCORER, club=club)
    tournament = sign_up_tournament(public=False, club=club)
    api = f"/api/v1/tournaments/{tournament.id}/registrations/"

    client.force_login(outsider)
    refused = [client.get(sign_up_url(tournament)), client.post(api, {"name": "Rossi"})]
    client.force_login(member)
    page = client.get(sign_up_url(tournament))
    signed_up = client.post(sign_up_url(tournament), {"name": "Rossi"})

    assert [answer.status_code for answer in refused] == [404, 404]
    assert page.status_code == 200
    assert signed_up.status_code == 201
    assert Application.objects.get().name == "Rossi"
