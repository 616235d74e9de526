"""The season page: the standings over the season's tournaments, at phone width, and the
tournament page's link to its seasons."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories.accounts import ClubFactory
from tests.tournaments.seasons import club_tournament, played_out, season_of, started

FOUR = [["Ada"], ["Bruno"], ["Carla"], ["Dario"]]


@pytest.mark.django_db
def test_an_unknown_club_or_season_is_not_found(client: Client) -> None:
    season_of(ClubFactory.create(slug="circolo"), name="Stagione")

    assert client.get("/clubs/circolo/seasons/nessuna/").status_code == 404
    assert client.get("/clubs/altrove/seasons/stagione/").status_code == 404
    assert client.get("/clubs/circolo/seasons/stagione/").status_code == 200


@pytest.mark.django_db
def test_the_tournament_page_links_to_its_seasons(client: Client) -> None:
    club = ClubFactory.create(slug="circolo")
    tournament = club_tournament(club, FOUR)
    season_of(club, tournament, name="Stagione")

    page = client.get(f"/tournaments/{tournament.id}/").content.decode()

    assert 'href="/clubs/circolo/seasons/stagione/"' in page


@pytest.mark.django_db(transaction=True)
def test_the_season_page_shows_the_standings_with_counted_points_told_apart(
    browser_page: Page, live_server: LiveServer
) -> None:
    club = ClubFactory.create(slug="circolo")
    first = played_out(club_tournament(club, FOUR, name="Autunno"))
    second = played_out(club_tournament(club, FOUR[::-1], name="Inverno"))
    running = started(club_tournament(club, FOUR, name="Primavera"))
    season_of(club, first, second, running, name="Stagione", best_n=1)

    browser_page.goto(f"{live_server.url}/clubs/circolo/seasons/stagione/")

    table = browser_page.locator("table[data-season-standings]")
    rows = table.locator("tr[data-season-row]")
    expect(rows).to_have_count(4)
    expect(rows.first).to_have_attribute("data-rank", "1")
    expect(rows.first.get_by_role("rowheader")).to_have_text("Ada")
    expect(rows.first.locator("[data-season-points]")).to_have_text("25")
    # Ada's win counts (bold), her 3rd place does not (in brackets, and said in words).
    expect(rows.first.locator('strong[data-counted="true"]')).to_have_text("25")
    expect(rows.first.locator('[data-counted="false"]')).to_have_text("(15)")
    expect(rows.first).to_contain_text("not counted")
    for name in ("Rank", "Player", "Points"):
        expect(table.get_by_role("columnheader", name=name, exact=True)).to_be_visible()
    expect(table.locator("th[data-season-tournament]")).to_have_count(3)
    expect(browser_page.locator("[data-season-provisional]")).to_be_visible()
    # At phone width the page itself never scrolls sideways: the table scrolls in its box.
    assert browser_page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    browser_page.get_by_role("link", name="Autunno").click()
    expect(browser_page.get_by_role("heading", level=1)).to_have_text("Autunno")
    expect(browser_page.locator("[data-tournament-seasons]")).to_contain_text("Stagione")
