from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.eventstore.api import last_position
from tests.security.world import World, build_world


@pytest.fixture
def token(db: None) -> Token:
    return Token.objects.create(user=get_user_model().objects.create_user(username="scorer"))


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
