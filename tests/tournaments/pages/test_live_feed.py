"""The tournament page follows the tournament's event stream (tournaments/static/tournaments/
live.js): a result shows without a reload and without a timed poll, once the worker's
projection has caught up with the events the stream announced; a burst of events refreshes
the page once, not once an event."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Request, expect

from games.matches import services as match_services
from tests.event_streams import AsgiServer, asgi_server  # noqa: F401 - a fixture
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.pages.builders import ready_fixtures
from tournaments.projections import consumer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def live_server(asgi_server: AsgiServer) -> AsgiServer:  # noqa: F811 - the fixture
    """The pages as `make run` serves them (uvicorn, config/asgi.py): a WSGI server would send
    the page's stream only once it ended."""
    return asgi_server


def test_a_result_shows_as_the_stream_announces_it_without_a_timed_poll(
    browser_page: Page, live_server: AsgiServer, settings: Any
) -> None:
    settings.TOURNAMENT_POLL_SECONDS = 600  # no timed poll within the test
    settings.FEED_POLL_SECONDS = 0.1
    settings.FEED_STREAM_SECONDS = 30.0
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True, projected=True
    ).id
    first, second = ready_fixtures(tournament_id)[:2]
    refreshes: list[Request] = []
    browser_page.on(
        "request", lambda r: refreshes.append(r) if r.headers.get("hx-request") else None
    )

    with browser_page.expect_response(lambda r: "/events/stream/" in r.url) as stream:
        browser_page.goto(f"{live_server.url}/tournaments/{tournament_id}/")
    fixture = browser_page.locator(f'[data-match="{first.match_id}"]')
    expect(fixture).to_have_attribute("data-status", "ready")
    assert stream.value.status == 200
    assert refreshes == []
    # Four events half a second apart, as at a busy evening's tables.
    steps: list[Callable[[], object]] = [
        lambda: match_services.round_start(match_id=first.match_id, briscola=None, actor=ORGANIZER),
        lambda: match_services.round_start(
            match_id=second.match_id, briscola=None, actor=ORGANIZER
        ),
        lambda: match_services.round_points_enter(
            match_id=second.match_id, round_number=1, points=[70, 50], actor=ORGANIZER
        ),
        lambda: match_services.round_points_enter(
            match_id=first.match_id, round_number=1, points=[80, 40], actor=ORGANIZER
        ),
    ]
    for step in steps:
        step()
        browser_page.wait_for_timeout(500)  # the pace of the events, not a wait for the page
    consumer.consume()  # what the worker does after the events

    expect(fixture).to_have_attribute("data-status", "finished")
    expect(fixture).to_contain_text("1\N{EN DASH}0")
    assert refreshes  # the stream triggered them: the next timed poll is minutes away
    # Not a refresh an event: live.js waits LEAST_GAP_MS between two (or CATCH_UP_MS for the
    # worker); a loaded machine only makes the gaps longer.
    sent_at = [r.timing["startTime"] for r in refreshes]  # milliseconds, the browser's clock
    gaps = [later - earlier for earlier, later in itertools.pairwise(sent_at)]
    # Fewer refreshes than events (on a loaded machine the stream may bring them all at once:
    # one refresh then shows them all).
    assert len(refreshes) < len(steps)
    assert all(gap >= 1400 for gap in gaps), gaps
    assert browser_page.url.endswith(f"/tournaments/{tournament_id}/")
