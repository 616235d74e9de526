"""The match page and the replay in a real browser, at phone size, without console errors."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from tests.browser import PHONE
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import legal_round, play_cards, start_round

pytestmark = pytest.mark.django_db(transaction=True)


def match_with_a_round(scorer: APIClient) -> tuple[str, list[str]]:
    """Rossi v Bianchi with one whole round entered card by card; its cards in playing order."""
    match_id = ApiMatchFactory.create(client=scorer)["id"]
    briscola, plays = legal_round(dealer=0, seed=5)
    start_round(scorer, match_id, briscola=briscola)
    play_cards(scorer, match_id, 1, plays)
    return match_id, [play.card.code for play in plays]


def test_the_replay_steps_forward_and_back_with_its_buttons_and_the_arrow_keys(
    browser_page: Page, live_server: LiveServer, scorer: APIClient
) -> None:
    match_id, cards = match_with_a_round(scorer)
    page = browser_page
    step = page.locator("[data-step]")
    page.goto(f"{live_server.url}/matches/{match_id}/rounds/1/?upto=0")
    expect(step).to_have_attribute("data-step", "0")
    expect(page.locator("[data-played]")).to_have_count(0)

    page.click('[data-action="next"]')
    expect(step).to_have_attribute("data-step", "1")
    expect(page.locator(f'[data-played="{cards[0]}"]')).to_be_visible()

    page.keyboard.press("ArrowRight")
    expect(step).to_have_attribute("data-step", "2")
    expect(page.locator(f'[data-played="{cards[1]}"]')).to_be_visible()

    page.keyboard.press("ArrowRight")
    expect(step).to_have_attribute("data-step", "3")
    expect(page.locator("[data-played]")).to_have_count(1)
    expect(page.locator(f'[data-played="{cards[2]}"]')).to_be_visible()

    page.keyboard.press("ArrowLeft")
    expect(step).to_have_attribute("data-step", "2")
    expect(page.locator(f'[data-played="{cards[2]}"]')).to_have_count(0)

    page.click('[data-action="prev"]')
    page.click('[data-action="prev"]')
    expect(step).to_have_attribute("data-step", "0")
    expect(page.locator("[data-played]")).to_have_count(0)


def test_the_match_page_lists_its_rounds_and_leads_to_their_replays(
    browser_page: Page, live_server: LiveServer, scorer: APIClient
) -> None:
    match_id, cards = match_with_a_round(scorer)
    page = browser_page
    page.goto(f"{live_server.url}/matches/{match_id}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Rossi")
    expect(page.locator('[data-round="1"]')).to_be_visible()

    page.get_by_role("link", name="Round 1", exact=True).click()

    expect(page.locator("[data-step]")).to_have_attribute("data-step", str(len(cards)))
    expect(page.locator(f'[data-played="{cards[-1]}"]')).to_be_visible()


def test_the_replay_reads_in_italian_for_an_italian_browser(
    browser: Browser, live_server: LiveServer, scorer: APIClient
) -> None:
    match_id, _ = match_with_a_round(scorer)
    context = browser.new_context(
        locale="it-IT", viewport=ViewportSize(width=PHONE["width"], height=PHONE["height"])
    )
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    try:
        page.goto(f"{live_server.url}/matches/{match_id}/rounds/1/?upto=1")

        expect(page.locator("html")).to_have_attribute("lang", "it")
        expect(page.locator('[data-action="next"]')).to_contain_text("Successiva")
        expect(page.get_by_role("heading", level=1)).to_contain_text("Partita 1")
    finally:
        context.close()
    assert errors == []
