from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.eventstore.api import AppendResult, EventMetadata, NewEvent
from games.eventstore.models import Event, IdempotencyKey
from tests.games.eventstore.builders import append, card_played, new_stream_id

pytestmark = pytest.mark.django_db


def test_organizers_can_list_events_and_filter_them_by_stream_and_event_type(
    admin_client: Client,
) -> None:
    match = append(stream_type="match", events=[NewEvent("MatchStarted", {}), card_played()])
    tournament = append(stream_type="tournament")
    url = reverse("admin:eventstore_event_changelist")

    def listed(stream: AppendResult, **filters: str) -> list[int]:
        response = admin_client.get(url, {"q": str(stream.events[0].stream_id), **filters})
        assert response.status_code == 200
        return [event.global_position for event in response.context["cl"].result_list]

    assert admin_client.get(url).status_code == 200
    assert listed(match) == [e.global_position for e in reversed(match.events)]
    assert listed(match, event_type="CardPlayed") == [match.events[1].global_position]
    assert listed(match, stream_type="tournament") == []
    assert listed(tournament, stream_type="tournament") == [tournament.last_position]


def test_searching_by_stream_id_finds_that_streams_events_only(admin_client: Client) -> None:
    wanted = append().events[0]
    append()
    url = reverse("admin:eventstore_event_changelist")

    found = admin_client.get(url, {"q": str(wanted.stream_id)})
    not_a_uuid = admin_client.get(url, {"q": "table 3"})

    assert [event.global_position for event in found.context["cl"].result_list] == [
        wanted.global_position
    ]
    assert not_a_uuid.context["cl"].result_count == 0


def test_an_event_can_be_viewed_but_not_added_changed_or_deleted(admin_client: Client) -> None:
    event = append().events[0]
    events = Event.objects.filter(stream_id=event.stream_id)
    change_url = reverse("admin:eventstore_event_change", args=[event.global_position])

    viewed = admin_client.get(change_url)
    changed = admin_client.post(change_url, {"event_type": "Tampered"})

    assert viewed.status_code == 200
    assert b"CardPlayed" in viewed.content
    assert not viewed.context["has_change_permission"]
    assert changed.status_code == 403
    assert admin_client.get(reverse("admin:eventstore_event_add")).status_code == 403
    delete_url = reverse("admin:eventstore_event_delete", args=[event.global_position])
    assert admin_client.post(delete_url, {"post": "yes"}).status_code == 403
    assert events.get().event_type == "CardPlayed"


def test_idempotency_keys_can_be_listed_but_not_changed(admin_client: Client) -> None:
    stream_id = new_stream_id()
    append(stream_id, idempotency_key="play-1")
    key = IdempotencyKey.objects.get(stream_id=stream_id)

    listed = admin_client.get(
        reverse("admin:eventstore_idempotencykey_changelist"), {"q": str(stream_id)}
    )
    changed = admin_client.post(
        reverse("admin:eventstore_idempotencykey_change", args=[key.pk]), {"key": "other"}
    )

    assert listed.context["cl"].result_count == 1
    assert changed.status_code == 403
    assert admin_client.get(reverse("admin:eventstore_idempotencykey_add")).status_code == 403


def test_the_event_list_shows_who_did_what_and_from_which_device(
    admin_client: Client, django_user_model: Any
) -> None:
    scorer = django_user_model.objects.create_user(username="rossi")
    stream = append(
        stream_type="match",
        events=[NewEvent("MatchStarted", {})],
        metadata=EventMetadata(actor_id=scorer.pk, device="tablet 3"),
    )
    gone = append(stream_type="match", metadata=EventMetadata(actor_id=999_999))

    def row(result: AppendResult) -> str:
        response = admin_client.get(
            reverse("admin:eventstore_event_changelist"), {"q": str(result.events[0].stream_id)}
        )
        return response.content.decode()

    assert "rossi" in row(stream)
    assert "tablet 3" in row(stream)
    assert "user 999999 (deleted)" in row(gone)
