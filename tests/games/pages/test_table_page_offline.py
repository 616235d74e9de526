"""The table page in a real browser at phone size: cards tapped in while the device is offline
wait on it, survive a reload and are recorded once when it reconnects."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from playwright.sync_api import Route, expect
from pytest_django.live_server_helper import LiveServer

from games.eventstore.api import read_stream
from games.matches.stream.events import CardPlayed
from tests.games.api.builders import legal_round
from tests.games.pages.builders import (
    WatchedPage,
    device_key,
    expect_the_rules_result,
    start_at_the_table,
    tap,
)
from tests.security.roles import World, tournament_at_tables

pytestmark = pytest.mark.django_db(transaction=True)


def card_events(match_id: str) -> list[str]:
    return [
        event.payload["card"]
        for event in read_stream(stream_id=UUID(match_id))
        if event.event_type == CardPlayed.type
    ]


def test_cards_tapped_offline_wait_on_the_device_and_are_recorded_once_when_it_reconnects(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    browser_page = watched_page.page
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=8)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays[:1])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")

    browser_page.context.set_offline(True)
    tap(browser_page, plays[1:6])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "5")
    expect(browser_page.locator(f'[data-card="{plays[5].card.code}"]')).to_be_disabled()
    assert card_events(at[3]) == [plays[0].card.code]
    browser_page.context.set_offline(False)

    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    expect(browser_page.locator("[data-turn]")).to_have_attribute("data-seat", str(plays[6].seat))
    assert card_events(at[3]) == [play.card.code for play in plays[:6]]
    tap(browser_page, plays[6:])
    expect_the_rules_result(browser_page, 2, briscola, plays)
    assert card_events(at[3]) == [play.card.code for play in plays]
    watched_page.assert_only_failed_loads("net::ERR_INTERNET_DISCONNECTED")


def test_cards_waiting_offline_go_in_one_batch_request_when_the_device_reconnects(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    browser_page = watched_page.page
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=5)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    browser_page.context.set_offline(True)
    tap(browser_page, plays[:6])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "6")
    posted: list[tuple[str, Any]] = []
    browser_page.on(
        "request",
        lambda request: (
            posted.append((request.url, request.post_data_json))
            if request.method == "POST" and "/plays/" in request.url
            else None
        ),
    )

    browser_page.context.set_offline(False)

    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    assert card_events(at[3]) == [play.card.code for play in plays[:6]]
    batches = [body for url, body in posted if url.endswith("/plays/batch/")]
    # The first card was tried alone before the network went: it is sent again as it was.
    assert [url.endswith("/plays/") for url, _ in posted] == [True, False]
    assert batches[0]["plays"] == [[p.seat, p.card.code] for p in plays[1:6]]
    watched_page.assert_only_failed_loads("net::ERR_INTERNET_DISCONNECTED")


def test_cards_waiting_on_the_device_survive_a_reload(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    browser_page = watched_page.page
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=9)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)

    browser_page.route("**/api/v1/matches/*/rounds/*/plays/", lambda route: route.abort())
    tap(browser_page, plays[:3])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "3")
    browser_page.reload()
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "3")
    assert card_events(at[3]) == []
    browser_page.unroute("**/api/v1/matches/*/rounds/*/plays/")

    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    assert card_events(at[3]) == [play.card.code for play in plays[:3]]
    watched_page.assert_only_failed_loads("net::ERR_FAILED")


def test_a_card_whose_answer_was_lost_is_sent_again_and_recorded_once(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=6)
    browser_page = watched_page.page
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    answers: list[Any] = []

    def lose_the_first_answer(route: Route) -> None:
        if answers:
            route.continue_()
            return
        answers.append(route.fetch())  # the server records the card...
        route.abort()  # ...and its answer never reaches the tablet

    browser_page.route("**/api/v1/matches/*/rounds/*/plays/", lose_the_first_answer)
    tap(browser_page, plays[:1])

    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")
    expect(browser_page.locator("[data-turn]")).to_have_attribute("data-seat", str(plays[1].seat))
    assert answers[0].status == 201
    assert card_events(at[3]) == [plays[0].card.code]
    watched_page.assert_only_failed_loads("net::ERR_FAILED")
