"""The table page in a real browser at phone size: a scorer taps a round in, through the API;
undoes, corrects and voids; scores by points; in Italian and with French cards."""

from __future__ import annotations

import re
from uuid import UUID

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from games.eventstore.api import read_stream
from tests.factories.accounts import UserFactory
from tests.factories.api import API
from tests.games.api.builders import created, legal_round, post
from tests.games.pages.builders import (
    WatchedPage,
    device_key,
    expect_the_rules_result,
    played_cards,
    start_at_the_table,
    tap,
)
from tests.security.roles import World, tournament_at_tables

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_two_player_round_tapped_in_with_a_device_key_ends_as_the_rules_say(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=5)

    browser_page.goto(f"{live_server.url}/table/#key={device_key(tournament_id, 3)}")

    expect(browser_page).to_have_url(re.compile(rf"/table/\?match={at[3]}$"))
    expect(browser_page.locator("[data-match-title]")).to_have_text("Player 1 \u2013 Player 4")
    start_at_the_table(browser_page, briscola)
    expect(browser_page.locator("[data-turn]")).to_have_attribute("data-seat", "1")
    tap(browser_page, plays[:2])
    expect(browser_page.locator("[data-trick-winner]")).not_to_have_attribute(
        "data-trick-winner", ""
    )
    expect(browser_page.locator(f'[data-card="{plays[0].card.code}"]')).to_be_disabled()
    tap(browser_page, plays[2:])
    expect_the_rules_result(browser_page, 2, briscola, plays)
    assert played_cards(at[3]) == [(play.seat, play.card.code) for play in plays]


def test_without_a_key_or_an_account_the_page_says_where_to_find_one(
    browser_page: Page, live_server: LiveServer
) -> None:
    browser_page.goto(f"{live_server.url}/table/")

    expect(browser_page.locator('[data-view="access"]')).to_contain_text("table card")
    expect(browser_page.get_by_role("link", name="Sign in")).to_have_attribute(
        "href", "/api-auth/login/?next=%2Ftable%2F"
    )


def test_a_four_player_round_tapped_in_by_a_signed_in_creator_ends_as_the_rules_say(
    browser_page: Page, live_server: LiveServer
) -> None:
    creator = UserFactory.create(username="creator")
    api = APIClient()
    api.force_authenticate(creator)
    sides = [{"name": "Rossi e Verdi"}, {"name": "Bianchi e Neri"}]
    match = created(post(api, f"{API}/matches/", {"table_size": 4, "sides": sides}))
    session = Client()
    session.force_login(creator)
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    briscola, plays = legal_round(table_size=4, dealer=0, seed=11)

    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays)

    expect_the_rules_result(browser_page, 4, briscola, plays)
    assert played_cards(match["id"]) == [(play.seat, play.card.code) for play in plays]


def test_undo_takes_back_the_last_card(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=3)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays[:3])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")

    browser_page.click('[data-action="undo"]')

    expect(browser_page.locator(f'[data-card="{plays[2].card.code}"]')).to_be_enabled()
    expect(browser_page.locator("[data-turn]")).to_have_attribute("data-seat", str(plays[2].seat))
    assert played_cards(at[3]) == [(play.seat, play.card.code) for play in plays[:2]]


def test_a_card_entered_wrongly_is_corrected_and_the_round_then_voided_with_a_reason(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    briscola, plays = legal_round(dealer=0, seed=4)
    actually = next(
        code for code in ("1D", "2D", "3D") if code not in (briscola, plays[0].card.code)
    )
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays[:1])
    expect(browser_page.locator("[data-queue]")).to_have_attribute("data-queue", "0")

    browser_page.click('[data-action="correct"]')
    browser_page.click('[data-play-index="0"]')
    expect(browser_page.locator(f'[data-card="{actually}"]')).to_be_enabled()
    expect(browser_page.locator(f'[data-card="{briscola}"]')).to_be_disabled()  # not drawn yet
    browser_page.click(f'[data-card="{actually}"]')

    expect(browser_page.locator(f'[data-card="{plays[0].card.code}"]')).to_be_enabled()
    expect(browser_page.locator(f'[data-card="{actually}"]')).to_be_disabled()
    assert played_cards(at[3]) == [(plays[0].seat, actually)]

    browser_page.click(".void summary")
    browser_page.fill("#void-reason", "a card fell face up")
    browser_page.click('[data-action="void"]')

    expect(browser_page.locator("[data-result]")).to_contain_text("a card fell face up")
    expect(browser_page.locator('[data-view="setup"]')).to_be_visible()
    rounds = world.organizer.get(f"{API}/matches/{at[3]}/").json()["rounds"]
    assert [(r["status"], r["void_reason"]) for r in rounds] == [("voided", "a card fell face up")]


def test_a_round_scored_by_points_only_asks_one_number_at_a_table_of_two(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")

    browser_page.click('[data-action="points-only"]')
    browser_page.fill('[data-points-input="0"]', "52")
    expect(browser_page.locator("[data-points-other]")).to_contain_text("68")
    browser_page.click('[data-action="enter-points"]')

    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "side1")
    expect(browser_page.locator('[data-points-side="0"]')).to_have_text("52")
    expect(browser_page.locator('[data-points-side="1"]')).to_have_text("68")
    assert world.organizer.get(f"{API}/matches/{at[3]}/").json()["rounds"][0]["points"] == [52, 68]


def test_a_table_3_device_key_cannot_score_table_4_through_the_page(
    watched_page: WatchedPage, live_server: LiveServer, world: World
) -> None:
    browser_page = watched_page.page
    tournament_id, at = tournament_at_tables(world, 3, 4)
    key = device_key(tournament_id, 3)

    browser_page.goto(f"{live_server.url}/table/?match={at[4]}#key={key}")
    browser_page.click('[data-briscola="7D"]')
    browser_page.click('[data-action="start-round"]')

    problem = browser_page.locator('[data-view="setup"] [data-problem][role="alert"]')
    expect(problem).to_contain_text("table 4")  # next to the button that caused it
    expect(problem).to_be_in_viewport(ratio=1)
    expect(browser_page.locator('[data-view="setup"]')).to_be_visible()
    assert world.organizer.get(f"{API}/matches/{at[4]}/").json()["rounds"] == []
    watched_page.assert_only_failed_loads("the server responded with a status of 403")


def test_the_table_page_speaks_italian_and_keeps_the_key_across_the_language_switch(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3, 4)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    expect(browser_page.locator("[data-needs]")).to_contain_text("needs")

    browser_page.click('[data-language="it"]')

    expect(browser_page.locator("html")).to_have_attribute("lang", "it")
    expect(browser_page.locator('[data-action="points-only"]')).to_have_text("Solo punti")
    expect(browser_page.locator('[data-briscola="1D"]')).to_have_attribute(
        "aria-label", "Asso di Denari"
    )
    expect(browser_page.locator("[data-needs]")).to_contain_text("Vittorie che mancano")
    expect(browser_page.locator('[data-dealer="0"]')).to_have_text("Posto 1: Player 1")


def test_a_round_of_french_cards_tapped_in_is_recorded_as_the_cards_tapped(
    browser_page: Page, live_server: LiveServer
) -> None:
    creator = UserFactory.create(username="creator")
    api = APIClient()
    api.force_authenticate(creator)
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    body = {"table_size": 2, "sides": sides, "variant": {"deck_names": "french"}}
    match = created(post(api, f"{API}/matches/", body))
    session = Client()
    session.force_login(creator)
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    briscola, plays = legal_round(dealer=0, seed=5)

    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays)

    expect_the_rules_result(browser_page, 2, briscola, plays)
    assert played_cards(match["id"]) == [(play.seat, play.card.code) for play in plays]
    [started] = [e for e in read_stream(stream_id=UUID(match["id"])) if "briscola" in e.payload]
    assert started.payload["briscola"] == briscola
