"""The table page on a phone (390x844): the trick, "To play" and the cards fit on one screen, so
a whole round is tapped in without scrolling (decision 0047)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from tests.browser import PHONE
from tests.games.api.builders import legal_round
from tests.games.pages.builders import (
    device_key,
    expect_the_rules_result,
    played_cards,
    start_at_the_table,
)
from tests.security.roles import World, tournament_at_tables

pytestmark = pytest.mark.django_db(transaction=True)


def assert_wholly_in_view(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0, f"{selector} starts above the screen: {box}"
    assert box["y"] + box["height"] <= PHONE["height"], f"{selector} ends below the screen: {box}"


def test_a_whole_round_is_tapped_in_on_a_phone_with_the_trick_and_the_cards_always_in_view(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=7)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    assert browser_page.viewport_size == PHONE
    scrolled = browser_page.evaluate("window.scrollY")

    for play in plays:
        for selector in ("[data-trick]", "[data-turn]", "[data-deck]"):
            assert_wholly_in_view(browser_page, selector)
        browser_page.click(f'[data-card="{play.card.code}"]')
        assert browser_page.evaluate("window.scrollY") == scrolled

    expect_the_rules_result(browser_page, 2, briscola, plays)
    assert_wholly_in_view(browser_page, "[data-result]")
    assert played_cards(at[3]) == [(play.seat, play.card.code) for play in plays]
