"""Matches: created through the API, or as older schema versions recorded them (no service
records these any more, so their events are appended to the store as they were)."""

import uuid
from typing import Any

from factory.base import Factory
from rest_framework.test import APIClient
from typing_extensions import override

from games.eventstore.api import NewEvent, append_to_stream
from games.rules.match import MatchFormat
from games.rules.variants import DEFAULT_VARIANT
from tests.factories.api import created_by

V1_SIDES = [{"name": "Anna"}, {"name": "Bruno"}]
TWO_SIDES = [{"name": "Rossi"}, {"name": "Bianchi"}]


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


class ApiMatchFactory(Factory[dict[str, Any]]):
    """A free-standing match of two sides, created through the API by `client`: the API's
    answer."""

    class Meta:
        model = dict

    table_size = 2
    sides = TWO_SIDES

    @classmethod
    @override
    def _create(
        cls, model_class: type[dict[str, Any]], *args: Any, client: APIClient, **body: Any
    ) -> dict[str, Any]:
        return created_by(client, "/matches/", body)
