"""The season pages: a club's seasons, the standings over a season's tournaments at phone
width, the links between them and the leaderboard, and the tournament page's link to its
seasons."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories.accounts import ClubFactory
from tests.tournaments.seasons.builders import club_tournament, played_out, season_of, started
from tournaments.seasons import services as season_services

FOUR = [["Ada"], ["Bruno"], ["Carla"], ["Dario"]]


@pytest.mark.django_db
def test_an_unknown_club_or_season_is_not_found(client: Client) -> None:
    season_of(ClubFactory.create(slug="circolo"), name="Stagione")

    assert client.get("/clubs/circolo/seasons/nessuna/").status_code == 404
    assert client.get("/clubs/altrove/seasons/stagione/").status_code == 404
    assert client.get("/clubs/circolo/seasons/stagione/").status_code == 200


@pytest.mark.django_db
def test_a_clubs_seasons_are_listed_newest_first_with_their_tournaments_and_rules(
    client: Client,
) -> None:
    club = ClubFactory.create(slug="circolo")
    finished = played_out(club_tournament(club, FOUR, name="Autunno"))
    running = started(club_tournament(club, FOUR, name="Inverno"))
    season_of(club, finished, name="Stagione 2025", best_n=3)
    season_of(club, finished, running, name="Stagione 2026")

    page = client.get("/clubs/circolo/seasons/").content.decode()

    assert 'data-club-seasons="circolo"' in page
    links = re.findall(r'<a href="([^"]+)" data-season-link><bdi>([^<]+)</bdi></a>', page)
    assert links == [
        ("/clubs/circolo/seasons/stagione-2026/", "Stagione 2026"),
        ("/clubs/circolo/seasons/stagione-2025/", "Stagione 2025"),
    ]
    newest, older = page.split('data-season="stagione-2025"')
    assert "2 tournaments" in newest
    assert "every result counts" in newest
    assert "data-season-running" in newest
    assert "1 tournament " in older
    assert "best 3 results count" in older
    assert "data-season-running" not in older


@pytest.mark.django_db
def test_a_club_without_seasons_says_so_and_an_unknown_club_is_not_found(client: Client) -> None:
    ClubFactory.create(slug="circolo")

    page = client.get("/clubs/circolo/seasons/").content.decode()

    assert "data-club-seasons-empty" in page
    assert "data-season-link" not in page
    missing = client.get("/clubs/altrove/seasons/")
    assert missing.status_code == 404
    assert missing.content == client.get("/clubs/altrove/seasons/stagione/").content


@pytest.mark.django_db
def test_the_leaderboard_the_seasons_list_and_a_season_link_to_each_other(client: Client) -> None:
    season_of(ClubFactory.create(slug="circolo"), name="Stagione")

    leaderboard = client.get("/clubs/circolo/ratings/").content.decode()
    listed = client.get("/clubs/circolo/seasons/").content.decode()
    season = client.get("/clubs/circolo/seasons/stagione/").content.decode()

    assert '<a href="/clubs/circolo/seasons/" data-club-seasons-link>' in leaderboard
    assert '<a href="/clubs/circolo/ratings/" data-club-ratings-link>' in listed
    assert '<a href="/clubs/circolo/seasons/" data-club-seasons-link>' in season


@pytest.mark.django_db
def test_the_tournament_page_links_to_its_seasons(client: Client) -> None:
    club = ClubFactory.create(slug="circolo")
    tournament = club_tournament(club, FOUR)
    season_of(club, tournament, name="Stagione")

    page = client.get(f"/tournaments/{tournament.id}/").content.decode()

    assert 'href="/clubs/circolo/seasons/stagione/"' in page


@pytest.mark.django_db
def test_a_kept_tournament_page_is_answered_again_once_a_season_adds_renames_or_drops_it(
    client: Client,
) -> None:
    club = ClubFactory.create(slug="circolo")
    tournament = club_tournament(club, FOUR)
    address = f"/tournaments/{tournament.id}/"
    kept = client.get(address)["ETag"]
    assert client.get(address, headers={"if-none-match": kept}).status_code == 304

    season = season_of(club, tournament, name="Stagione")
    added = client.get(address, headers={"if-none-match": kept})
    season_services.season_change(season=season, name="Stagione lunga")
    renamed = client.get(address, headers={"if-none-match": added["ETag"]})
    season_services.season_tournament_remove(season=season, tournament=tournament)
    dropped = client.get(address, headers={"if-none-match": renamed["ETag"]})

    assert added.status_code == 200
    assert 'href="/clubs/circolo/seasons/stagione/"' in added.content.decode()
    assert renamed.status_code == 200
    assert "Stagione lunga" in renamed.content.decode()
    assert dropped.status_code == 200
    assert "data-tournament-seasons" not in dropped.content.decode()
    assert client.get(address, headers={"if-none-match": dropped["ETag"]}).status_code == 304


@pytest.mark.django_db(transaction=True)
@pytest.mark.django_db
def test_a_season_player_links_to_a_page_listing_their_nights_in_every_tournament(
    client: Client,
) -> None:
    club = ClubFactory.create(slug="circolo")
    first = played_out(club_tournament(club, FOUR, name="Autunno"))
    second = played_out(club_tournament(club, FOUR[::-1], name="Inverno"))
    season_of(club, first, second, name="Stagione")

    page = client.get("/clubs/circolo/seasons/stagione/").content.decode()
    [ada] = re.findall(r'<th scope="row"><a href="(/players/\d+/)"><bdi>Ada</bdi></a>', page)
    player_page = client.get(ada).content.decode()

    assert "Autunno" in player_page
    assert "Inverno" in player_page


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


@pytest.mark.django_db(transaction=True)
def test_a_visitor_goes_from_the_leaderboard_to_the_clubs_seasons_and_on_to_a_season(
    browser_page: Page, live_server: LiveServer
) -> None:
    club = ClubFactory.create(name="Circolo", slug="circolo")
    finished = played_out(club_tournament(club, FOUR, name="Autunno"))
    season_of(club, finished, name="Stagione", best_n=2)

    browser_page.goto(f"{live_server.url}/clubs/circolo/ratings/")
    browser_page.get_by_role("link", name="Seasons", exact=True).click()

    expect(browser_page.get_by_role("heading", level=1)).to_have_text("Seasons of Circolo")
    listed = browser_page.locator("[data-club-seasons] li")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("1 tournament")
    expect(listed).to_contain_text("best 2 results count")
    assert browser_page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    browser_page.locator("[data-season-link]").click()
    expect(browser_page.get_by_role("heading", level=1)).to_have_text("Stagione")
    expect(browser_page.locator("tr[data-season-row]")).to_have_count(4)
    browser_page.get_by_role("link", name="Seasons of Circolo").click()
    expect(browser_page).to_have_url(f"{live_server.url}/clubs/circolo/seasons/")
