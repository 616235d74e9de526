from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import Club
from games.eventstore.api import last_position
from tests.security.world import WORLD, World, administrator_token, build_world, client_of, new_club


@pytest.fixture
def club(db: None) -> Club:  # noqa: ARG001 - requested for its side effect
    return new_club()


@pytest.fixture
def token(club: Club) -> Token:
    return administrator_token(club)


@pytest.fixture
def scorer(token: Token) -> APIClient:
    return client_of(token)


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
