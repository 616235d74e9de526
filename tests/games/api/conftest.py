import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.event_streams import asgi_server  # noqa: F401 - the streams' live server, for their tests
from tests.factories.accounts import UserFactory


@pytest.fixture
def scorer_token(db: None) -> Token:  # noqa: ARG001 - requested for its side effect
    return Token.objects.create(user=UserFactory.create(username="scorer"))


@pytest.fixture
def scorer(scorer_token: Token) -> APIClient:
    """A client that sends the scorer's token, as a scoring device does."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {scorer_token.key}")
    return client


@pytest.fixture
def anonymous(db: None) -> APIClient:  # noqa: ARG001 - requested for its side effect
    return APIClient()


@pytest.fixture
def staff(db: None) -> APIClient:  # noqa: ARG001 - requested for its side effect
    """A superuser's session: the site's administrators read the whole event log."""
    client = APIClient()
    client.force_login(UserFactory.create(username="staff", is_staff=True, is_superuser=True))
    return client
