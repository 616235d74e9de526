import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


@pytest.fixture
def organizer(db: None) -> APIClient:
    """A client that sends an organizer's token (roles come later: any user may write)."""
    user = get_user_model().objects.create_user(username="organizer")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def anonymous(db: None) -> APIClient:
    return APIClient()
