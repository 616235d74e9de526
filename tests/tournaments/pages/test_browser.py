"""The public tournament pages in a real browser at phone size: the hooks, a result showing up
without a reload (projected by a real Celery worker), the projector view and an Italian page.
`browser_page` fails a test on any console error (a CSP refusal is one)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories.tournaments import ORGANIZER, ThreesTournamentFactory, TournamentFactory
from tests.tournaments.builders import play, win_by_points
from tests.tournaments.pages.builders import play_ready, ready_fixtures
from tournaments.models import Entrant, Fixture
from tournaments.projections import consumer
from tournaments.services import running, scheduling

pytestmark = pytest.mark.django_db(transaction=True)


def entrant_id(tournament_id: uuid.UUID, name: str) -> int:
    return Entrant.objects.get(tournament_id=tournament_id, name=name).id


def test_the_tournament_page_shows_standings_bracket_and_fixtures_with_their_hooks(
    browser_page: Page, live_server: LiveServer, settings: Any
) -> None:
    settings.TOURNAMENT_POLL_SECONDS = 1
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    first = ready_fixtures(tournament_id)[0]
    play_ready(tournament_id)
    browser_page.add_init_script("delete window.EventSource;")  # no stream to follow: it polls
    browser_page.goto(f"{live_server.url}/tournaments/{tournament_id}/")

    rows = browser_page.locator("[data-entrant][data-rank]")
    expect(rows).to_have_count(4)
    expect(rows.first).to_have_attribute("data-entrant", str(entrant_id(tournament_id, "Player 1")))
    expect(rows.first).to_have_attribute("data-rank", "1")
    expect(browser_page.locator("[data-bracket] svg")).to_be_visible()
    expect(browser_page.locator("[data-bracket] svg")).to_contain_text("Player 3")
    fixtures = browser_page.locator("[data-match][data-status]")
    expect(fixtures).to_have_count(Fixture.objects.filter(tournament_id=tournament_id).count())
    expect(browser_page.locator(f'[data-match="{first.match_id}"]')).to_have_attribute(
        "data-status", "finished"
    )
    expect(browser_page.get_by_role("columnheader", name="Won", exact=True)).to_be_visible()
    # Wider than a phone, the standings scroll sideways (by keyboard too) and show that they do.
    standings = browser_page.locator(".standings .scroll-x[role=region]")
    expect(standings).to_have_attribute("tabindex", "0")
    assert standings.evaluate("region => region.scrollWidth > region.clientWidth")
    assert "local" in standings.evaluate("region => getComputedStyle(region).backgroundAttachment")
    # Nothing changed: the next poll is answered 304 and nothing is swapped.
    heading = browser_page.locator("#standings-heading").element_handle()
    with browser_page.expect_response(is_poll) as poll:
        pass
    assert poll.value.status == 304
    assert heading.evaluate("node => node.isConnected")


def is_poll(response: Response) -> bool:
    return response.request.headers.get("hx-request") == "true"


@pytest.mark.usefixtures("worker")
def test_the_standings_change_after_a_result_without_a_reload(
    browser_page: Page, live_server: LiveServer, settings: Any
) -> None:
    settings.TOURNAMENT_POLL_SECONDS = 1
    tournament_id = TournamentFactory.create(format="round_robin", entrants=4).id
    running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    fourth = entrant_id(tournament_id, "Player 4")
    navigations: list[str] = []

    browser_page.goto(f"{live_server.url}/tournaments/{tournament_id}/")
    browser_page.on(
        "framenavigated",
        lambda frame: navigations.append(frame.url) if frame.parent_frame is None else None,
    )
    row = browser_page.locator(f'[data-entrant="{fourth}"]')
    expect(row).to_have_attribute("data-rank", "4")  # the worker projected the start
    match = next(f for f in ready_fixtures(tournament_id) if fourth in (f.home_id, f.away_id))
    play(match.match_id, winner=0 if match.home_id == fourth else 1)

    expect(row).to_have_attribute("data-rank", "1")
    expect(browser_page.locator(f'[data-match="{match.match_id}"]')).to_have_attribute(
        "data-status", "finished"
    )
    assert navigations == []


def test_the_projector_view_shows_the_pairings_at_their_tables_in_large_type(
    browser_page: Page, live_server: LiveServer
) -> None:
    tournament_id = TournamentFactory.create(
        format="swiss", entrants=4, tables=2, started=True, projected=True
    ).id
    scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)
    browser_page.set_viewport_size({"width": 1280, "height": 720})

    browser_page.goto(f"{live_server.url}/tournaments/{tournament_id}/screen/")

    pairings = browser_page.locator(".screen-pairings [data-match][data-status]")
    expect(pairings).to_have_count(2)
    expect(pairings.first.locator(".table-number")).to_have_text("1")
    expect(pairings.first).to_contain_text("Player 1")
    expect(browser_page.locator(".screen-standings [data-entrant][data-rank]")).to_have_count(4)
    expect(browser_page.locator("#live")).to_have_attribute("hx-trigger", "every 5s, feed")
    body_size = browser_page.locator("body").evaluate("b => getComputedStyle(b).fontSize")
    assert float(body_size.removesuffix("px")) >= 24


def test_the_tournament_page_speaks_italian(browser: Browser, live_server: LiveServer) -> None:
    tournament_id = TournamentFactory.create(
        format="round_robin", entrants=4, started=True, projected=True
    ).id
    context = browser.new_context(locale="it-IT", viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"{live_server.url}/tournaments/{tournament_id}/")

        expect(page.locator("html")).to_have_attribute("lang", "it")
        expect(page.get_by_role("heading", name="Classifica", exact=True)).to_be_visible()
        expect(page.get_by_role("heading", name="Incontri", exact=True)).to_be_visible()
        expect(page.get_by_role("columnheader", name="Vinti", exact=True)).to_be_visible()
        expect(page.locator("[data-bracket] svg")).to_contain_text("Girone all'italiana")
    finally:
        context.close()
    assert errors == []


def test_a_tournament_at_tables_of_three_fits_a_phone_with_its_places_in_both_languages(
    browser_page: Page, browser: Browser, live_server: LiveServer
) -> None:
    tournament_id = ThreesTournamentFactory.create(format="swiss", entrants=5, swiss_rounds=2).id
    three = next(f for f in ready_fixtures(tournament_id) if f.third_id is not None)
    for fixture in ready_fixtures(tournament_id):
        win_by_points(fixture.match_id, [50, 50, 20] if fixture.third_id else [80, 40])
    consumer.consume()
    url = f"{live_server.url}/tournaments/{tournament_id}/"

    browser_page.goto(url)

    row = browser_page.locator(f'[data-match="{three.match_id}"]')
    expect(row.locator("td.seat[data-place]")).to_have_count(3)
    expect(row.locator('td.seat[data-place="1"]')).to_have_count(2)
    # The link's name starts with what it shows (WCAG 2.5.3, label in name).
    expect(
        row.get_by_role("link", name=re.compile("^0\u20130\u20130 \\(the table of "))
    ).to_have_count(1)
    # The three entrants stack in one column: the rounds won and the status fit the phone's
    # width, nothing to scroll sideways.
    scroller = row.locator("xpath=ancestor::div[contains(@class, 'scroll-x')]")
    assert scroller.evaluate("d => d.scrollWidth <= d.clientWidth")
    expect(row.locator(".badge")).to_have_text("Finished")
    for name in ("First places", "Second places", "Third places", "Match points"):
        expect(browser_page.get_by_role("columnheader", name=name, exact=True)).to_be_visible()
    assert match_points_shown(browser_page).count("1.5") == 2  # a shared first place
    svg = browser_page.locator("[data-bracket] svg")
    expect(svg.locator(".bracket-place")).to_have_count(3)

    context = browser.new_context(locale="it-IT", viewport={"width": 390, "height": 844})
    italian = context.new_page()
    try:
        italian.goto(url)
        expect(italian.get_by_role("columnheader", name="Al tavolo")).to_have_count(2)
        expect(italian.get_by_role("columnheader", name="Primi posti", exact=True)).to_be_visible()
        assert match_points_shown(italian).count("1,5") == 2
        expect(italian.locator(f'[data-match="{three.match_id}"] .place').first).to_have_text("1°")
    finally:
        context.close()


def match_points_shown(page: Page) -> list[str]:
    """The standings' match points column as the page shows it, best first."""
    columns = page.locator("th[data-column]").evaluate_all("ths => ths.map(t => t.dataset.column)")
    # Each row: the rank, the entrant (a header cell), then the columns.
    child = columns.index("match_points") + 3
    return page.locator(f"[data-entrant][data-rank] > :nth-child({child})").all_inner_texts()
