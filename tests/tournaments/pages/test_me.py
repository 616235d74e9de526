"""The player's own page, `/me/#key=KEY` (issue 26 §2, decision record 0055): one evening at phone
size, the players on their pages and the organizer through the services, as it follows live
from the tournament's feed; and the page in Italian."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.browser import serious_violations
from tests.event_streams import AsgiServer, asgi_server  # noqa: F401 - a fixture
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.builders import play
from tournaments.models import Application, Fixture
from tournaments.projections import consumer
from tournaments.services import registration, running, scheduling
from tournaments.state import Registration

NAMES = ("Rossi", "Bianchi", "Verdi", "Neri", "Gialli")

CALL_RECORDER = """
window.__vibrations = [];
window.__beeps = 0;
navigator.vibrate = function (pattern) { window.__vibrations.push(pattern); return true; };
window.AudioContext = function () {
  this.currentTime = 0;
  this.destination = {};
  this.createGain = function () { return { gain: {}, connect: function () {} }; };
  this.createOscillator = function () {
    return { frequency: {}, connect: function () {}, start: function () { window.__beeps += 1; },
      stop: function () {} };
  };
};
"""
"""Stands in for the phone's vibration and speaker, counting what the page asks of them
(given to the browser by its devtools, not the page: the page's CSP stays strict)."""


@pytest.fixture
def live_server(asgi_server: AsgiServer) -> AsgiServer:  # noqa: F811 - the fixture
    """Served as `make run` serves it (uvicorn): a WSGI server would send the feed only once it
    ended."""
    return asgi_server


def sign_up(page: Page, url: str, name: str) -> str:
    """Sign up on the sign-up page; the key it shows."""
    page.goto(url)
    page.get_by_label("Your name").fill(name)
    page.locator("[data-action=sign-up]").click()
    return page.locator("[data-player-key-text]").inner_text()


def open_page(page: Page, server: AsgiServer, key: str, name: str) -> None:
    page.goto(f"{server.url}/me/?player={name}#key={key}")
    expect(page.locator("[data-entry-name]")).to_have_text(name)


@pytest.mark.django_db(transaction=True)
def test_an_evening_from_the_players_phones_sign_up_to_a_disputed_result(
    browser_page: Page, live_server: AsgiServer, settings: Any
) -> None:
    settings.FEED_POLL_SECONDS = 0.1
    settings.FEED_STREAM_SECONDS = 30.0
    tournament = TournamentFactory.create(
        entrants=0, tables=8, registration=Registration(open=True, cap=4, waitlist=True)
    )
    page = browser_page
    page.add_init_script(CALL_RECORDER)
    status = page.locator("[data-registration-status]")

    # Five sign up for four places: the fifth waits.
    keys = {
        name: sign_up(page, f"{live_server.url}/tournaments/{tournament.id}/sign-up/", name)
        for name in NAMES
    }
    expect(status).to_have_attribute("data-registration-status", "waitlisted")
    open_page(page, live_server, keys["Gialli"], "Gialli")
    expect(status).to_have_attribute("data-registration-status", "waitlisted")
    expect(page.locator("[data-status-text]")).to_contain_text("waiting list, number 1")

    # Rossi withdraws from his phone (a confirmation first); Gialli's page shows her in.
    rossi = page.context.new_page()
    open_page(rossi, live_server, keys["Rossi"], "Rossi")
    rossi.locator("[data-action=withdraw]").click()
    expect(rossi.locator("[data-action=withdraw-confirm]")).to_be_visible()
    rossi.locator("[data-action=withdraw-confirm]").click()
    expect(rossi.locator("[data-registration-status]")).to_have_attribute(
        "data-registration-status", "withdrawn"
    )
    rossi.close()
    expect(status).to_have_attribute("data-registration-status", "entered")

    # The organizer opens the check-in; the players check themselves in.
    registration.check_in_open(tournament_id=tournament.id, actor=ORGANIZER)
    page.locator("[data-action=check-in]").click()
    expect(status).to_have_attribute("data-checked-in", "true")
    verdi = page.context.new_page()
    open_page(verdi, live_server, keys["Verdi"], "Verdi")
    verdi.locator("[data-action=check-in]").click()
    expect(verdi.locator("[data-registration-status]")).to_have_attribute("data-checked-in", "true")
    verdi.close()
    gialli = Application.objects.get(tournament=tournament, name="Gialli").entrant_id
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    fixture = Fixture.objects.get(Q(home=gialli) | Q(away=gialli), tournament=tournament)
    [opponent] = [e.name for e in fixture.seated if e.id != gialli]

    # Her match gets table 7, then the organizer calls it: the page says so at once.
    page.locator("[data-action=sound]").click()
    match = page.locator("[data-next-match]")
    scheduling.fixture_table_assign(match_id=fixture.match_id, table=7, actor=ORGANIZER)
    expect(match).to_have_attribute("data-table", "7")
    expect(match).to_have_attribute("data-called", "false")
    scheduling.fixture_call(match_id=fixture.match_id, actor=ORGANIZER)
    expect(match).to_have_attribute("data-called", "true")
    expect(page.locator("[data-call-text]")).to_have_text("Called to table 7")
    assert page.evaluate("window.__vibrations.length") == 1
    assert page.evaluate("window.__beeps") == 2  # the switch's own beep, then the call's
    assert serious_violations(page) == []

    # The match is played; she confirms, her opponent disputes with a reason.
    play(fixture.match_id, winner=0)
    result = page.locator(f'[data-result-match="{fixture.match_id}"]')
    result.locator("[data-action=confirm]").click()
    expect(result.locator("[data-result-note]")).to_have_text("You confirmed this result.")
    other = page.context.new_page()
    open_page(other, live_server, keys[opponent], opponent)
    theirs = other.locator(f'[data-result-match="{fixture.match_id}"]')
    theirs.locator("[data-action=dispute]").click()
    theirs.get_by_label("What is wrong with the result?").fill("we had 62, not 40")
    theirs.locator("[data-action=dispute-send]").click()
    expect(theirs.locator("[data-result-note]")).to_contain_text("we had 62, not 40")
    other.close()

    # The organizer sees the dispute and its reason on the console.
    consumer.consume()
    console = Client()
    console.force_login(User.objects.create_superuser("organizer", password="x"))
    html = console.get(reverse("admin:tournaments_tournament_change", args=[tournament.id]))
    assert (
        f"<strong>{opponent}</strong> disputes the result: “we had 62, not 40”"
        in html.content.decode()
    )


@pytest.mark.django_db
def test_the_player_s_page_speaks_italian(client: Client) -> None:
    page = client.get("/me/", headers={"accept-language": "it"})

    body = page.content.decode()
    assert page.status_code == 200
    assert page["Cache-Control"] == "no-store"
    assert "Il mio torneo" in body
    assert "Chiamato al tavolo %(table)s" in body
    assert "Contesta" in body
    assert "<script>" not in body  # its words are data (json_script), its script a static file
