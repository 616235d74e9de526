"""A match's server-sent event stream: only that match's events, live over real HTTP, as its
reader may see them (a dealt deck hidden from the public)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from rest_framework.test import APIClient

from games.feeds import streams_feed
from games.visibility import EVERYTHING
from tests.event_streams import AsgiServer, EventStream, streamed_events
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import created, legal_round, match_url, play_cards, post, start_round


def stream_path(match_id: str) -> str:
    return match_url(match_id, "events", "stream")


def positions_of(match_id: str) -> list[int]:
    events = streams_feed(
        stream_ids=[UUID(match_id)], after=0, viewer_of_match=lambda _: EVERYTHING
    )
    return [event.global_position for event in events]


@pytest.mark.django_db(transaction=True)
def test_a_match_stream_pushes_that_match_s_new_plays_and_nothing_of_other_matches(
    asgi_server: AsgiServer, scorer: APIClient, settings: Any
) -> None:
    settings.FEED_POLL_SECONDS = 0.05
    settings.FEED_STREAM_SECONDS = 3.0
    match_id = ApiMatchFactory.create(client=scorer)["id"]
    other_id = ApiMatchFactory.create(client=scorer)["id"]
    briscola, plays = legal_round(dealer=0, seed=2)
    start_round(scorer, match_id, briscola=briscola, dealer_seat=0)

    with EventStream(asgi_server.url, stream_path(match_id)) as stream:
        backlog = stream.events_until(positions_of(match_id)[-1])
        start_round(scorer, other_id, briscola=briscola, dealer_seat=0)
        play_cards(scorer, match_id, 1, plays[:2])
        arrived = stream.events_until(positions_of(match_id)[-1])

    assert [event.event for event in backlog] == ["MatchCreated", "RoundStarted"]
    assert [event.event for event in arrived] == ["CardPlayed", "CardPlayed"]
    assert [event.id for event in backlog + arrived] == positions_of(match_id)
    assert {event.data["stream_id"] for event in backlog + arrived} == {match_id}


@pytest.mark.django_db
def test_the_public_reads_a_dealt_round_without_its_deck_and_the_match_s_creator_with_it(
    scorer: APIClient, anonymous: APIClient
) -> None:
    match_id = ApiMatchFactory.create(client=scorer)["id"]
    created(post(scorer, match_url(match_id, "rounds"), {"deal": "server"}))

    public = streamed_events(anonymous.get(stream_path(match_id)))
    creator = streamed_events(scorer.get(stream_path(match_id)))

    assert [event.event for event in public] == ["MatchCreated", "RoundStarted"]
    assert [event.id for event in public] == [event.id for event in creator]
    assert public[-1].data["payload"]["deck"] is None
    assert len(creator[-1].data["payload"]["deck"]) == 40


@pytest.mark.django_db
def test_a_match_stream_resumes_after_the_last_event_id(scorer: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=scorer)["id"]
    start_round(scorer, match_id)
    positions = positions_of(match_id)

    resumed = scorer.get(stream_path(match_id), HTTP_LAST_EVENT_ID=str(positions[0]))

    assert resumed["Content-Type"] == "text/event-stream"
    assert [event.id for event in streamed_events(resumed)] == positions[1:]


@pytest.mark.django_db
def test_a_match_stream_refuses_a_last_event_id_that_is_not_a_position(
    scorer: APIClient,
) -> None:
    match_id = ApiMatchFactory.create(client=scorer)["id"]

    response = scorer.get(stream_path(match_id), HTTP_LAST_EVENT_ID="last")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "invalid_last_event_id"


@pytest.mark.django_db
def test_an_unknown_match_has_no_stream(anonymous: APIClient) -> None:
    response = anonymous.get(
        stream_path("00000000-0000-4000-8000-0000000000fe"), HTTP_ACCEPT="text/event-stream"
    )

    assert response.status_code == 404
    assert response.json()["code"] == "match_not_found"


@pytest.mark.django_db
def test_a_stream_answers_get_only_not_head(scorer: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=scorer)["id"]

    response = scorer.head(stream_path(match_id))

    assert response.status_code == 405
    assert response["Allow"] == "GET, OPTIONS"
