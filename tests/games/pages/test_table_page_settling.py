"""The table page after the match, at phone size: the organizer's device corrects a card of the
finished round with a reason, and the result follows; a scorer's tablet is not offered it
(decision record 0048)."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser import PHONE
from tests.factories.api import API
from tests.games.api.builders import a_correction, finished_card_round, post
from tests.games.pages.builders import device_key
from tests.security.roles import World, tournament_at_tables

pytestmark = pytest.mark.django_db(transaction=True)


def test_after_the_match_the_organizers_device_corrects_a_card_and_a_tablet_is_not_offered_it(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3)
    match_id = at[3]
    briscola, plays, dealer = finished_card_round(world.organizer, match_id, seed=4)
    recorded = world.organizer.get(f"{API}/matches/{match_id}/").json()["rounds"][0]["points"]
    index, card, points = next(
        found
        for seed in range(200)
        if list((found := a_correction(briscola, plays, dealer=dealer, seed=seed))[2]) != recorded
    )
    post(world.organizer, f"{API}/matches/{match_id}/confirm/", {"side": 0})
    session = Client()
    session.force_login(world.users["organizer"])
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )

    browser_page.goto(f"{live_server.url}/table/?match={match_id}")
    assert browser_page.viewport_size == PHONE
    expect(browser_page.locator('[data-view="over"]')).to_be_visible()
    browser_page.click('[data-action="correct-finished"]')
    browser_page.click(f'[data-settle-play="{index}"]')
    expect(browser_page.locator(f'[data-settle-card="{plays[index].card.code}"]')).to_be_disabled()
    browser_page.click(f'[data-settle-card="{card.code}"]')
    browser_page.click('[data-action="settle-card"]')
    expect(browser_page.locator("[data-problem-text]")).to_have_text("Say why.")
    browser_page.fill("#settle-reason", "the three was misread")
    browser_page.click('[data-action="settle-card"]')

    for side, side_points in enumerate(points):
        expect(browser_page.locator(f'[data-points-side="{side}"]')).to_have_text(str(side_points))
    expect(browser_page.locator("[data-settle-panel]")).to_be_hidden()
    expect(browser_page.locator("[data-confirmations]")).to_have_text("")
    (corrected,) = world.organizer.get(f"{API}/matches/{match_id}/").json()["rounds"]
    assert [c["reason"] for c in corrected["corrections"]] == ["the three was misread"]

    tablet = f"{live_server.url}/table/?match={match_id}#key={device_key(tournament_id, 3)}"
    browser_page.goto("about:blank")  # a new load: the same address and a fragment is not one
    browser_page.goto(tablet)
    expect(browser_page.locator('[data-view="over"]')).to_be_visible()
    expect(browser_page.locator("[data-settle]")).to_be_hidden()
