import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Role


@pytest.fixture
def organizer(db: None) -> APIClient:
    """A client that sends the token of an organizer of one club (where the tournaments it
    creates belong)."""
    user = get_user_model().objects.create_user(username="organizer")
    club = services.club_create(name="Circolo Briscola")
    services.role_grant(user=user, role=Role.ORGANIZER, club=club)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def anonymous(db: None) -> APIClient:
    return APIClient()
