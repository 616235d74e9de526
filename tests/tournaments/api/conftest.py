import pytest
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Role
from tests.event_streams import asgi_server  # noqa: F401 - the streams' live server, for their tests
from tests.factories.accounts import ClubFactory, UserFactory, token_client


@pytest.fixture
def organizer(db: None) -> APIClient:  # noqa: ARG001 - requested for its side effect
    """A client that sends the token of an organizer of one club (where the tournaments it
    creates belong)."""
    user = UserFactory.create(username="organizer")
    club = ClubFactory.create(name="Circolo Briscola")
    services.role_grant(user=user, role=Role.ORGANIZER, club=club)
    return token_client(user)


@pytest.fixture
def anonymous(db: None) -> APIClient:  # noqa: ARG001 - requested for its side effect
    return APIClient()
