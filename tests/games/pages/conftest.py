import pytest
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories.accounts import UserFactory, token_client
from tests.games.pages.builders import WatchedPage
from tests.security.roles import World, make_world


@pytest.fixture
def creator(db: None) -> User:  # noqa: ARG001 - requested for its side effect
    """Who creates and scores the free-standing matches of these tests."""
    return UserFactory.create(username="creator")


@pytest.fixture
def scorer(creator: User) -> APIClient:
    """The creator's scoring device: the API with the creator's token."""
    return token_client(creator)


@pytest.fixture
def world() -> World:
    return make_world()


@pytest.fixture
def watched_page(page: Page, live_server: LiveServer) -> WatchedPage:  # noqa: ARG001 - requested for its side effect
    watched = WatchedPage(page)
    page.on("console", lambda m: watched.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: watched.errors.append(str(error)))
    page.set_default_timeout(10_000)
    return watched
