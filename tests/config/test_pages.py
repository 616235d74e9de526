"""Every page shares one frame: its language, the language switch, a strict CSP, static files."""

import pytest
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

pytestmark = pytest.mark.django_db


def test_pages_carry_a_content_security_policy_without_inline_script(client: Client) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]

    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


@pytest.mark.parametrize(
    ("accept", "lang", "heading"),
    [
        ("en-GB,en;q=0.9", "en", "Tournaments"),
        ("it-IT,it;q=0.9", "it", "Tornei"),
    ],
)
def test_the_page_language_follows_the_browser(
    client: Client, accept: str, lang: str, heading: str
) -> None:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()

    assert f'<html lang="{lang}">' in html
    assert f"<h2>{heading}</h2>" in html


def test_the_switch_changes_the_language_and_the_page_stays_free_of_console_errors(
    browser_page: Page, live_server: LiveServer
) -> None:
    browser_page.goto(live_server.url + "/")
    expect(browser_page.locator("html")).to_have_attribute("lang", "en")

    browser_page.click('[data-language="it"]')

    expect(browser_page.locator("html")).to_have_attribute("lang", "it")
    expect(browser_page.get_by_role("heading", name="Tornei", exact=True)).to_be_visible()
