"""The table page in a real browser at phone size: a deciding round due in a level match, and
which tied rounds are played again."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from tests.factories.accounts import UserFactory
from tests.factories.api import API
from tests.games.api.builders import created, post

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in_match(
    browser_page: Page, live_server: LiveServer, **body: Any
) -> tuple[dict[str, Any], APIClient]:
    """A free-standing match created through the API by a creator signed in on the page."""
    creator = UserFactory.create(username="creator")
    api = APIClient()
    api.force_authenticate(creator)
    match = created(post(api, f"{API}/matches/", body))
    session = Client()
    session.force_login(creator)
    browser_page.context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": live_server.url}]
    )
    return match, api


def enter_points(browser_page: Page, *points: int) -> None:
    browser_page.click('[data-action="points-only"]')
    for side, side_points in enumerate(points if len(points) > 2 else points[:1]):
        browser_page.fill(f'[data-points-input="{side}"]', str(side_points))
    browser_page.click('[data-action="enter-points"]')


def test_the_table_page_says_when_a_deciding_round_is_due_until_one_is_won(
    browser_page: Page, live_server: LiveServer
) -> None:
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    match, api = signed_in_match(
        browser_page,
        live_server,
        table_size=2,
        sides=sides,
        scoring="points",
        rounds=2,
        decider="round",
    )
    url = f"{API}/matches/{match['id']}/"
    for points in ([70, 50], [50, 70]):
        number = created(post(api, f"{url}rounds/", {"briscola": None}))["number"]
        created(post(api, f"{url}rounds/{number}/score/", {"points": points}))
    notice = browser_page.locator("[data-deciding-round]")

    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")

    expect(notice).to_be_visible()
    expect(notice).to_have_text(
        "Deciding round: the match is level after its 2 rounds; one more round decides it "
        "(a tied one is played again)."
    )
    expect(browser_page.locator("[data-needs]")).to_have_text("")
    enter_points(browser_page, 60, 60)
    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "tie")
    expect(browser_page.locator("[data-result]")).to_contain_text("it is played again")
    expect(notice).to_be_visible()
    enter_points(browser_page, 52, 68)
    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "side1")
    expect(browser_page.locator('[data-view="over"]')).to_be_visible()
    expect(notice).to_be_hidden()
    assert api.get(url).json()["winner"] == "side1"


def test_the_deciding_round_notice_speaks_italian(
    browser_page: Page, live_server: LiveServer
) -> None:
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    match, api = signed_in_match(
        browser_page,
        live_server,
        table_size=2,
        sides=sides,
        scoring="points",
        rounds=1,
        decider="round",
    )
    url = f"{API}/matches/{match['id']}/"
    created(post(api, f"{url}rounds/", {"briscola": None}))
    created(post(api, f"{url}rounds/1/score/", {"points": [60, 60]}))
    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")
    expect(browser_page.locator("[data-deciding-round]")).to_be_visible()

    browser_page.click('[data-language="it"]')

    expect(browser_page.locator("html")).to_have_attribute("lang", "it")
    expect(browser_page.locator("[data-deciding-round]")).to_have_text(
        "Partita decisiva: l'incontro è in parità dopo la sua partita; un'altra partita lo "
        "decide (se finisce in pareggio si rigioca)."
    )


def test_a_tied_round_of_a_match_scored_by_points_is_not_said_to_be_played_again(
    browser_page: Page, live_server: LiveServer
) -> None:
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    match, api = signed_in_match(
        browser_page, live_server, table_size=2, sides=sides, scoring="points", rounds=2
    )
    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")

    enter_points(browser_page, 60, 60)

    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "tie")
    expect(browser_page.locator("[data-result]")).to_contain_text("nobody wins it")
    expect(browser_page.locator("[data-deciding-round]")).to_be_hidden()
    assert api.get(f"{API}/matches/{match['id']}/").json()["status"] == "in_progress"


def test_at_three_under_at_least_61_a_round_where_nobody_reaches_61_is_played_again(
    browser_page: Page, live_server: LiveServer
) -> None:
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}, {"name": "Verdi"}]
    match, api = signed_in_match(
        browser_page,
        live_server,
        table_size=3,
        sides=sides,
        best_of=1,
        variant={"three_winner": "at_least_61"},
    )
    browser_page.goto(f"{live_server.url}/table/?match={match['id']}")

    enter_points(browser_page, 50, 40, 30)
    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "tie")
    expect(browser_page.locator("[data-result]")).to_contain_text("it is played again")
    enter_points(browser_page, 30, 61, 29)

    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "side1")
    expect(browser_page.locator('[data-view="over"]')).to_be_visible()
    rounds = api.get(f"{API}/matches/{match['id']}/").json()["rounds"]
    assert [(r["points"], r["result"], r["replay_of"]) for r in rounds] == [
        ([50, 40, 30], "tie", None),
        ([30, 61, 29], "side1", 1),
    ]


def test_a_match_scored_by_points_shows_each_sides_running_total_and_a_best_of_match_none(
    browser_page: Page, live_server: LiveServer
) -> None:
    sides = [{"name": "Rossi"}, {"name": "Bianchi"}]
    by_points, api = signed_in_match(
        browser_page, live_server, table_size=2, sides=sides, scoring="points", rounds=3
    )
    best_of = created(post(api, f"{API}/matches/", {"table_size": 2, "sides": sides, "best_of": 3}))
    browser_page.goto(f"{live_server.url}/table/?match={by_points['id']}")
    totals = [browser_page.locator(f'[data-total-side="{side}"]') for side in (0, 1)]

    enter_points(browser_page, 70, 50)
    expect(totals[0]).to_have_text("70")
    expect(totals[1]).to_have_text("50")
    enter_points(browser_page, 52, 68)

    expect(totals[0]).to_have_text("122")
    expect(totals[1]).to_have_text("118")
    expect(browser_page.locator(".side-total").first).to_contain_text("In all:")
    browser_page.goto(f"{live_server.url}/table/?match={best_of['id']}")
    enter_points(browser_page, 70, 50)
    expect(browser_page.locator("[data-result]")).to_have_attribute("data-result", "side0")
    expect(browser_page.locator("[data-total-side]")).to_have_count(0)
    assert api.get(f"{API}/matches/{best_of['id']}/").json()["total_points"] == [70, 50]
