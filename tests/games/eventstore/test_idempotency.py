import pytest

from games.eventstore.api import (
    EventMetadata,
    EventStoreError,
    IdempotencyKeyReused,
    find_append_by_idempotency_key,
    read_stream,
    stream_version,
)
from games.eventstore.models import IdempotencyKey
from tests.games.eventstore.builders import append, card_played, cards_played, new_stream_id

pytestmark = pytest.mark.django_db


def test_a_repeated_key_returns_the_first_append_and_appends_nothing() -> None:
    stream_id = new_stream_id()
    first = append(
        stream_id,
        cards_played("1D", "3C"),
        expected_version=0,
        idempotency_key="play-1",
        command_fingerprint="play 1D then 3C",
    )

    retry = append(
        stream_id,
        cards_played("1D", "3C"),
        expected_version=0,
        idempotency_key="play-1",
        command_fingerprint="play 1D then 3C",
    )

    assert retry.duplicate
    assert not first.duplicate
    assert retry.events == first.events
    assert stream_version(stream_id=stream_id) == 2


def test_a_retry_gets_its_first_result_even_after_the_stream_moved_on() -> None:
    stream_id = new_stream_id()
    first = append(stream_id, [card_played("1D")], expected_version=0, idempotency_key="k1")
    append(stream_id, [card_played("3C")], expected_version=1, idempotency_key="k2")

    retry = append(stream_id, [card_played("1D")], expected_version=0, idempotency_key="k1")

    assert retry.duplicate
    assert retry.events == first.events
    assert stream_version(stream_id=stream_id) == 2


def test_the_same_key_for_a_different_command_is_refused() -> None:
    stream_id = new_stream_id()
    append(stream_id, idempotency_key="play-1", command_fingerprint="play 1D")

    with pytest.raises(IdempotencyKeyReused) as reused:
        append(stream_id, idempotency_key="play-1", command_fingerprint="play 3C")

    error = reused.value
    assert isinstance(error, EventStoreError)
    assert error.code == "idempotency_key_reused"
    assert error.idempotency_key == "play-1"
    assert "play-1" in error.message
    assert stream_version(stream_id=stream_id) == 1


def test_without_a_fingerprint_the_events_themselves_identify_the_command() -> None:
    stream_id = new_stream_id()
    append(stream_id, [card_played("1D")], idempotency_key="play-1")

    retry = append(stream_id, [card_played("1D")], idempotency_key="play-1")
    with pytest.raises(IdempotencyKeyReused):
        append(stream_id, [card_played("3C")], idempotency_key="play-1")

    assert retry.duplicate
    assert stream_version(stream_id=stream_id) == 1


def test_idempotency_keys_belong_to_one_stream() -> None:
    first_stream, second_stream = new_stream_id(), new_stream_id()

    append(first_stream, idempotency_key="play-1")
    on_second = append(second_stream, idempotency_key="play-1")

    assert not on_second.duplicate
    assert stream_version(stream_id=second_stream) == 1


def test_every_event_of_an_idempotent_append_records_its_key() -> None:
    stream_id = new_stream_id()

    append(
        stream_id,
        cards_played("1D", "3C"),
        metadata=EventMetadata(actor_id=1),
        idempotency_key="play-1",
    )

    assert [e.metadata.idempotency_key for e in read_stream(stream_id=stream_id)] == [
        "play-1",
        "play-1",
    ]


def test_the_key_table_records_the_versions_and_first_position_of_the_append() -> None:
    stream_id = new_stream_id()
    append(stream_id, [card_played("1D")])

    result = append(
        stream_id, cards_played("3C", "10S"), idempotency_key="play-2", command_fingerprint="fp"
    )

    key = IdempotencyKey.objects.get(stream_id=stream_id)
    assert (key.key, key.command_fingerprint) == ("play-2", "fp")
    assert (key.first_version, key.last_version) == (2, 3)
    assert key.first_position == result.events[0].global_position


def test_an_append_without_a_key_records_no_key() -> None:
    stream_id = new_stream_id()

    append(stream_id)

    assert not IdempotencyKey.objects.filter(stream_id=stream_id).exists()


def test_a_refused_append_records_no_key() -> None:
    stream_id = new_stream_id()
    append(stream_id, expected_version=0)

    with pytest.raises(EventStoreError):
        append(stream_id, expected_version=0, idempotency_key="play-1")

    assert find_append_by_idempotency_key(stream_id=stream_id, idempotency_key="play-1") is None


def test_a_service_can_look_up_a_key_before_deciding_the_command() -> None:
    stream_id = new_stream_id()
    first = append(stream_id, idempotency_key="play-1", command_fingerprint="play 1D")

    found = find_append_by_idempotency_key(
        stream_id=stream_id, idempotency_key="play-1", command_fingerprint="play 1D"
    )
    found_without_fingerprint = find_append_by_idempotency_key(
        stream_id=stream_id, idempotency_key="play-1"
    )

    assert found is not None
    assert found.duplicate
    assert found.events == first.events
    assert found_without_fingerprint == found
    assert find_append_by_idempotency_key(stream_id=stream_id, idempotency_key="other") is None
    with pytest.raises(IdempotencyKeyReused):
        find_append_by_idempotency_key(
            stream_id=stream_id, idempotency_key="play-1", command_fingerprint="play 3C"
        )
