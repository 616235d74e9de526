"""The events a request appends name it: their correlation id is the request's id."""

from rest_framework.test import APIClient

from games.eventstore.models import Event
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import post, round_url, start_round


def test_the_events_a_request_appends_carry_its_id_as_correlation_id(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], briscola="7D", dealer_seat=0)

    response = post(
        scorer,
        round_url(match["id"], 1, "plays"),
        {"seat": 1, "card": "5C"},
        HTTP_X_REQUEST_ID="card-request-1",
    )

    assert response.status_code == 201
    last = Event.objects.filter(stream_id=match["id"]).order_by("-stream_version").first()
    assert last is not None
    assert last.metadata["correlation_id"] == "card-request-1"
