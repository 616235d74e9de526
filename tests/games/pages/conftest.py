import pytest
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories.accounts import UserFactory, token_client


@pytest.fixture
def creator(db: None) -> User:  # noqa: ARG001 - requested for its side effect
    """Who creates and scores the free-standing matches of these tests."""
    return UserFactory.create(username="creator")


@pytest.fixture
def scorer(creator: User) -> APIClient:
    """The creator's scoring device: the API with the creator's token."""
    return token_client(creator)
