"""The table page mid-round, as a scorer sees it at phone size, has no accessibility violation
of impact serious or critical by axe-core (WCAG 2.1 A/AA and best practice)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser import serious_violations
from tests.games.api.builders import legal_round
from tests.games.pages.builders import device_key, start_at_the_table, tap
from tests.security.roles import World, tournament_at_tables

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_table_page_mid_round_has_no_serious_accessibility_violation(
    browser_page: Page, live_server: LiveServer, world: World
) -> None:
    tournament_id, at = tournament_at_tables(world, 3)
    briscola, plays = legal_round(dealer=0, seed=5)
    browser_page.goto(f"{live_server.url}/table/?match={at[3]}#key={device_key(tournament_id, 3)}")
    start_at_the_table(browser_page, briscola)
    tap(browser_page, plays[:3])
    expect(browser_page.locator(f'[data-card="{plays[2].card.code}"]')).to_be_disabled()

    assert serious_violations(browser_page) == []
