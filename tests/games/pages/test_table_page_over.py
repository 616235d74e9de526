"""The table page after the match, at phone size: the heading is the match's result, each side's
confirmation or dispute is shown, and only the actions still open are offered, following each
confirmation without a reload (decision record 0052)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from common.actors import Actor
from games.matches import services
from tests.browser import PHONE, serious_violations
from tests.factories.accounts import UserFactory
from tests.factories.api import API
from tests.games.api.builders import created, post, score_round

pytestmark = pytest.mark.django_db(transaction=True)

RESULT = "Match over: Rossi wins 2\N{EN DASH}1"


def test_after_the_match_the_page_shows_the_result_and_who_confirmed_and_only_the_open_actions(
    browser_page: Page, live_server: LiveServer
) -> None:
    creator = UserFactory.create(username="creator")
    api = APIClient()
    api.force_authenticate(creator)
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    body = {"table_size": 2, "sides": sides, "best_of": 3}
    match_id = created(post(api, f"{API}/matches/", body))["id"]
    for points in ((70, 50), (50, 70), (80, 40)):
        score_round(api, match_id, *points)
    created(post(api, f"{API}/matches/{match_id}/dispute/", {"side": 1, "reason": "we had 62"}))
    session = Client()
    session.force_login(creator)
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    heading = browser_page.locator("[data-round-title]")
    offered = browser_page.locator("[data-confirm-sides] button")

    browser_page.goto(f"{live_server.url}/table/?match={match_id}")

    assert browser_page.viewport_size == PHONE
    expect(heading).to_have_text(RESULT)
    expect(heading).to_have_attribute("data-match-result", "side0")
    disputed = browser_page.locator('[data-disputed-side="1"]')
    expect(disputed).to_have_text("Disputed by Bianchi: we had 62")
    expect(offered).to_have_text(["Confirm for Rossi", "Dispute for Rossi", "Confirm for Bianchi"])
    assert serious_violations(browser_page) == []

    browser_page.click('[data-action="confirm"][data-side="0"]')
    expect(browser_page.locator('[data-confirmed-side="0"]')).to_have_text("Confirmed by Rossi")
    expect(offered).to_have_text(["Confirm for Bianchi"])
    expect(browser_page.locator("[data-dispute-reason]")).to_be_hidden()

    browser_page.click('[data-action="confirm"][data-side="1"]')  # withdraws Bianchi's dispute
    expect(browser_page.locator('[data-confirmed-side="1"]')).to_have_text("Confirmed by Bianchi")
    expect(browser_page.locator("[data-disputed-side]")).to_have_count(0)
    expect(offered).to_have_count(0)
    expect(browser_page.locator("[data-confirm-open]")).to_be_hidden()
    expect(heading).to_have_text(RESULT)
    match = api.get(f"{API}/matches/{match_id}/").json()
    assert (match["confirmed_by"], match["disputed_by"]) == (["side0", "side1"], [])


def test_the_table_page_words_the_result_and_the_marks_in_italian(client: Client) -> None:
    match_id = services.match_create(
        table_size=2, sides=["Rossi", "Bianchi"], actor=Actor(user_id=None, device="admin")
    ).match_id

    page = client.get(f"/table/?match={match_id}", HTTP_ACCEPT_LANGUAGE="it").content.decode()

    found = re.search(r'<script id="table-strings" type="application/json">(.*?)</script>', page)
    assert found is not None
    strings = json.loads(found.group(1))
    assert strings["match_result_won"] == "Incontro concluso: vince %(side)s %(score)s"
    assert strings["match_result_level"] == "Incontro concluso: nessun vincitore, %(score)s"
    assert strings["disputed_because"] == "Contestato da %(side)s: %(reason)s"
    assert "data-over-title>Conferma del risultato</h3>" in page
