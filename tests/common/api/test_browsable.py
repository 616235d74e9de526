"""The browsable API: what a person exploring the API in a browser gets."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from tests.factories.accounts import UserFactory, token_client
from tests.factories.api import API
from tests.factories.matches import ApiMatchFactory

pytestmark = pytest.mark.django_db

HTML = "text/html"


def test_an_unknown_match_in_the_browser_is_a_404_page_naming_the_code_not_a_server_error() -> None:
    response = Client().get(f"{API}/matches/{uuid.uuid4()}/", HTTP_ACCEPT=HTML)

    assert response.status_code == 404
    assert response["Content-Type"].startswith(HTML)
    assert b"match_not_found" in response.content


def test_an_unknown_tournament_in_the_browser_is_a_404_naming_the_code() -> None:
    response = Client().get(f"{API}/tournaments/{uuid.uuid4()}/standings/", HTTP_ACCEPT=HTML)

    assert response.status_code == 404
    assert b"tournament_not_found" in response.content


def test_a_match_its_creator_reads_in_the_browser_is_drawn_with_its_sides() -> None:
    user = UserFactory.create()
    match = ApiMatchFactory.create(client=token_client(user))
    browser = Client()
    browser.force_login(user)

    response = browser.get(f"{API}/matches/{match['id']}/", HTTP_ACCEPT=HTML)

    assert response.status_code == 200
    assert response["Content-Type"].startswith(HTML)
    assert match["id"].encode() in response.content
