import pytest
from rest_framework.test import APIClient

from accounts.services import device_token_create
from games.eventstore.api import read_stream
from tests.factories.accounts import UserFactory
from tests.factories.matches import ApiMatchFactory

pytestmark = pytest.mark.django_db


def test_a_device_tokens_visible_prefix_is_recorded_as_the_device() -> None:
    scorer = UserFactory.create(username="scorer")
    token, key = device_token_create(user=scorer, device="tablet 3", created_by=None)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")

    match = ApiMatchFactory.create(client=client)

    (created,) = read_stream(stream_id=match["id"])
    assert created.metadata.device == token.prefix
    assert created.metadata.actor_id == scorer.pk
    assert key not in str(created.metadata)
