"""The table page on a phone (390x844): the trick, "To play" and the cards fit on one screen, so
a whole round is tapped in without scrolling (decision 0047)."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from tests.browser import PHONE
from tests.factories.accounts import UserFactory
from tests.factories.api import API
from tests.games.api.builders import created, legal_round, post
from tests.games.pages.builders import (
    expect_the_rules_result,
    played_cards,
    start_at_the_table,
)

pytestmark = pytest.mark.django_db(transaction=True)


def assert_wholly_in_view(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0, f"{selector} starts above the screen: {box}"
    assert box["y"] + box["height"] <= PHONE["height"], f"{selector} ends below the screen: {box}"


def test_a_whole_round_is_tapped_in_on_a_phone_with_the_trick_and_the_cards_always_in_view(
    browser_page: Page, live_server: LiveServer
) -> None:
    creator = UserFactory.create(username="creator")
    api = APIClient()
    api.force_authenticate(creator)
    # Names long enough to wrap push the play down: the page brings it into view once.
    sides = [
        {"name": "Alessandro Rossi e Giuseppina Verdi"},
        {"name": "Francesca Bianchi e Massimiliano Neri"},
    ]
    match = created(post(api, f"{API}/matches/", {"table_size": 4, "sides": sides}))
    session = Client()
    session.force_login(creator)
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    briscola, plays = legal_round(table_size=4, dealer=0, seed=7)
    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")
    start_at_the_table(browser_page, briscola)
    assert browser_page.viewport_size == PHONE
    scrolled = browser_page.evaluate("window.scrollY")

    for play in plays:
        for selector in ("[data-trick]", "[data-turn]", "[data-deck]"):
            assert_wholly_in_view(browser_page, selector)
        browser_page.click(f'[data-card="{play.card.code}"]')
        assert browser_page.evaluate("window.scrollY") == scrolled

    expect_the_rules_result(browser_page, 4, briscola, plays)
    assert played_cards(match["id"]) == [(play.seat, play.card.code) for play in plays]
