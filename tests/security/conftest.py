from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Club, Role
from games.eventstore.api import last_position
from tests.factories.accounts import ClubFactory, UserFactory
from tests.security.world import WORLD, World, build_world


@pytest.fixture
def club(db: None) -> Club:  # noqa: ARG001 - requested for its side effect
    return ClubFactory.create(name="Club")


@pytest.fixture
def token(club: Club) -> Token:
    """The token of a club's organizer and the site's administrator, who may do everything the
    API offers in the club (and to the matches they create) and read the whole log, so that
    every request gets past the permissions to its input."""
    user = UserFactory.create(username="scorer", is_staff=True, is_superuser=True)
    services.role_grant(user=user, role=Role.ORGANIZER, club=club)
    return Token.objects.create(user=user)


@pytest.fixture
def scorer(token: Token) -> APIClient:
    """A client that sends a token, so that writes get past authentication to their input."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def world(scorer: APIClient, club: Club) -> World:
    return build_world(scorer, club)


@contextmanager
def recording_nothing() -> Iterator[None]:
    """The block must leave the event log as it found it."""
    before = last_position()
    yield
    assert last_position() == before, "a refused request recorded events"


@pytest.fixture
def records_nothing() -> Callable[[], AbstractContextManager[None]]:
    return recording_nothing


@pytest.fixture
def seeded(world: World) -> Iterator[World]:
    WORLD.append(world)
    try:
        yield world
    finally:
        WORLD.clear()
