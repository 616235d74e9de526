"""Match events carry schema versions (decision record 0063): each event type is written at its
current version, and a payload stored at a past version reads back as the typed event."""

import uuid

import pytest

from games.eventstore.api import read_stream
from games.eventstore.pipeline import stored_event
from games.matches.execution import MATCH_KIND
from games.matches.projections import MATCH_STREAM, match_event
from games.matches.stream.events import (
    MATCH_EVENT_TYPES,
    MatchCreated,
    match_event_from_stored,
    schema_version_of,
)
from games.rules.match import MatchFormat
from games.rules.variants import DEFAULT_VARIANT
from tests.factories.matches import V1_SIDES, old_match_created
from tests.games.eventstore.builders import version_upcast_to

V2_PAYLOAD = {
    "table_size": 2,
    "format": MatchFormat.best_of(3).to_dict(),
    "sides": [{}, {}],
    "variant": DEFAULT_VARIANT.to_dict(),
    "first_dealer": 0,
}


def test_every_match_event_type_is_at_the_version_its_upcasters_lead_to() -> None:
    for event_type in MATCH_EVENT_TYPES:
        assert schema_version_of(event_type) == version_upcast_to(MATCH_STREAM, event_type), (
            event_type
        )
    assert schema_version_of(MatchCreated.type) == 2


def test_the_pipeline_writes_a_match_event_at_its_current_version() -> None:
    created = match_event_from_stored(MatchCreated.type, V2_PAYLOAD)

    written = stored_event(MATCH_KIND, created)

    assert (written.event_type, written.payload, written.schema_version) == (
        MatchCreated.type,
        V2_PAYLOAD,
        2,
    )


@pytest.mark.django_db
def test_a_match_created_at_version_1_reads_back_as_the_event_it_records() -> None:
    stream_id = uuid.uuid4()
    old_match_created(stream_id, sides=V1_SIDES)

    [recorded] = read_stream(stream_id=stream_id)

    assert recorded.schema_version == 2
    assert match_event(recorded) == match_event_from_stored(MatchCreated.type, V2_PAYLOAD)
