"""The rating pages in a real browser at phone size: the leaderboard's hooks and filter, the
player's chart (an accessible SVG image), with no console error (the CSP refuses nothing), and
the club's pages at phone width with long names (their tables scroll in their own box)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories.accounts import ClubFactory
from tests.factories.ratings import caught_up, club_tournament, play_all
from tests.tournaments.seasons.builders import club_tournament as season_tournament
from tests.tournaments.seasons.builders import played_out, season_of
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def club_slug() -> str:
    club = ClubFactory.create(name="Circolo Rating", slug="circolo-rating")
    play_all(club_tournament(club=club))
    return club.slug


def test_the_leaderboard_filters_by_matches_and_links_each_player(
    browser_page: Page, live_server: LiveServer, club_slug: str
) -> None:
    browser_page.goto(f"{live_server.url}/clubs/{club_slug}/ratings/")
    expect(browser_page.locator("[data-leaderboard-empty]")).to_be_visible()

    browser_page.get_by_label("At least this many matches").fill("3")
    browser_page.get_by_role("button", name="Show").click()

    rows = browser_page.locator("[data-leaderboard] [data-player][data-rank]")
    expect(rows).to_have_count(4)
    expect(rows.first).to_have_attribute("data-rank", "1")
    expect(rows.first).to_contain_text("Player 1")
    rows.first.get_by_role("link", name="Player 1").click()
    expect(browser_page).to_have_url(re.compile(r"/players/\d+/$"))
    expect(browser_page.locator('[data-rating-chart="circolo-rating"]')).to_be_visible()


def test_a_players_chart_is_an_image_named_by_its_title(
    browser_page: Page, live_server: LiveServer, club_slug: str
) -> None:
    player = Player.objects.get(name="Player 4")

    browser_page.goto(f"{live_server.url}/players/{player.id}/")

    chart = browser_page.locator(f'[data-rating-chart="{club_slug}"]')
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(1)
    named = browser_page.get_by_role("img", name=re.compile(r"Rating after each of 3 matches"))
    expect(named).to_have_count(2)  # overall and in the club
    box = chart.bounding_box()
    assert box is not None
    assert box["width"] > 200


LONG_NAMES = [
    ["Maria Francesca Bartolomea Lombardi-Santangelo"],
    ["Giovanni Battista Alessandro Casagrande-Fontanarosa"],
    ["Anna"],
    ["Bruno"],
]


def test_the_leaderboard_a_players_page_and_the_season_never_scroll_sideways_at_phone_width(
    browser_page: Page, live_server: LiveServer
) -> None:
    club = ClubFactory.create(name="Circolo", slug="circolo")
    nights = [
        played_out(season_tournament(club, LONG_NAMES[::step], name=f"Serata numero {night}"))
        for night, step in enumerate((1, -1, 1), start=1)
    ]
    season_of(club, *nights, name="Stagione", best_n=2)
    caught_up()
    player = Player.objects.filter(name=LONG_NAMES[0][0]).order_by("id").first()
    assert player is not None

    for address in (
        "/clubs/circolo/ratings/?min_matches=0",
        f"/players/{player.id}/",
        "/clubs/circolo/seasons/",
        "/clubs/circolo/seasons/stagione/",
    ):
        browser_page.goto(f"{live_server.url}{address}")
        expect(browser_page.locator("table, [data-club-seasons]").first).to_be_visible()
        assert browser_page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        ), f"{address} scrolls sideways at phone width"
