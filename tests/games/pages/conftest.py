import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User


@pytest.fixture
def creator(db: None) -> User:
    """Who creates and scores the free-standing matches of these tests."""
    user: User = get_user_model().objects.create_user(username="creator")
    return user


@pytest.fixture
def scorer(creator: User) -> APIClient:
    """The creator's scoring device: the API with the creator's token."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=creator).key}")
    return client
