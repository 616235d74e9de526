"""Builders for match service tests: events as older schema versions recorded them, and an API
client that writes as a superuser (who passes every role check)."""

import uuid
from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from games.eventstore.api import NewEvent, append_to_stream
from games.rules import DEFAULT_VARIANT, MatchFormat

V1_SIDES = [{"name": "Anna"}, {"name": "Bruno"}]


def superuser_client() -> APIClient:
    """Writes as a superuser, who passes every role check."""
    user = User.objects.create_superuser(username="lead", password="not-used")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def old_match_created(stream_id: uuid.UUID, sides: list[dict[str, Any]] = V1_SIDES) -> None:
    """A MatchCreated as schema version 1 recorded it: with the sides' names."""
    payload = {
        "table_size": 2,
        "format": MatchFormat.best_of(3).to_dict(),
        "sides": sides,
        "variant": DEFAULT_VARIANT.to_dict(),
        "first_dealer": 0,
    }
    append_to_stream(
        stream_id=stream_id,
        stream_type="match",
        events=[NewEvent("MatchCreated", payload, schema_version=1)],
        expected_version=0,
    )
