from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Role
from games.eventstore.api import last_position
from tests.security.world import World, build_world


@pytest.fixture
def token(db: None) -> Token:
    """The token of a club's organizer and staff member, who may do everything the API offers
    in the club (and to the matches they create) and read the whole log, so that every request
    gets past the permissions to its input."""
    user = get_user_model().objects.create_user(username="scorer", is_staff=True)
    services.role_grant(user=user, role=Role.ORGANIZER, club=services.club_create(name="Club"))
    return Token.objects.create(user=user)


@pytest.fixture
def scorer(token: Token) -> APIClient:
    """A client that sends a token, so that writes get past authentication to their input."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def world(scorer: APIClient) -> World:
    return build_world(scorer)


@contextmanager
def recording_nothing() -> Iterator[None]:
    """The block must leave the event log as it found it."""
    before = last_position()
    yield
    assert last_position() == before, "a refused request recorded events"


@pytest.fixture
def records_nothing() -> Callable[[], AbstractContextManager[None]]:
    return recording_nothing
