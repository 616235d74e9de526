"""Every public page, in a real browser at phone size, has no accessibility violation of impact
serious or critical by axe-core (WCAG 2.1 A/AA and best practice): the demo club evening,
loaded through the services, gives each page real content."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from games.models import Round
from tests.browser import serious_violations
from tournaments.management.commands.load_demo import SMALL_CUP_NAME, SMALL_THREES_NAME
from tournaments.management.demo_club import CLUB_SLUG, NIGHT_NAMES, SEASON_SLUG
from tournaments.models import Fixture, Player, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def public_pages() -> list[str]:
    """A page of each kind the public reads, with the demo's content."""
    call_command("load_demo", "--small", verbosity=0)
    cup = Tournament.objects.get(name=SMALL_CUP_NAME)
    threes = Tournament.objects.get(name=SMALL_THREES_NAME)
    night = Tournament.objects.get(name=NIGHT_NAMES[0])
    tapped = (
        Round.objects.filter(match_id__in=Fixture.objects.values("match_id"))
        .exclude(plays=[])
        .order_by("match_id", "number")
        .first()
    )
    assert tapped is not None
    player = Player.objects.filter(entries__tournament=night).order_by("id").first()
    assert player is not None
    return [
        "/",
        "/tournaments/",
        f"/tournaments/{cup.id}/",
        f"/tournaments/{threes.id}/",
        f"/tournaments/{night.id}/",
        f"/tournaments/{cup.id}/screen/",
        f"/matches/{tapped.match_id}/",
        f"/matches/{tapped.match_id}/rounds/{tapped.number}/?upto=5",
        f"/players/{player.id}/",
        f"/clubs/{CLUB_SLUG}/ratings/",
        f"/clubs/{CLUB_SLUG}/seasons/",
        f"/clubs/{CLUB_SLUG}/seasons/{SEASON_SLUG}/",
    ]


def test_every_public_page_has_no_serious_accessibility_violation(
    browser_page: Page, live_server: LiveServer
) -> None:
    found = {}
    for path in public_pages():
        browser_page.goto(f"{live_server.url}{path}")
        found[path] = serious_violations(browser_page)

    assert {path: violations for path, violations in found.items() if violations} == {}
    assert len(found) == 12
