import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


@pytest.fixture
def scorer_token(db: None) -> Token:
    scorer = get_user_model().objects.create_user(username="scorer")
    return Token.objects.create(user=scorer)


@pytest.fixture
def scorer(scorer_token: Token) -> APIClient:
    """A client that sends the scorer's token, as a scoring device does."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {scorer_token.key}")
    return client


@pytest.fixture
def anonymous(db: None) -> APIClient:
    return APIClient()


@pytest.fixture
def staff(db: None) -> APIClient:
    """A staff member's session: staff read the whole event log."""
    client = APIClient()
    client.force_login(get_user_model().objects.create_user(username="staff", is_staff=True))
    return client
