"""Side names live in ordinary tables: match events refer to sides by ids only, old events that
named their sides are upcast, and every read takes names from the tables (decision 0018)."""

import importlib
import json
import uuid
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.db import connection

from common.actors import Actor
from games.eventstore.api import NewEvent, append_to_stream, read_stream
from games.matches import execution, rebuilding, selectors, services
from games.matches.stream.commands import CreateMatch
from games.matches.stream.decide import decide
from games.matches.stream.errors import InvalidSide
from games.models import Match, MatchSide
from games.rules.match import MatchFormat
from games.rules.variants import DEFAULT_VARIANT
from games.side_names import SideRefs, register_side_namer, unregister_side_namer
from tests.factories.accounts import UserFactory, token_client
from tests.factories.api import API
from tests.factories.matches import V1_SIDES, old_match_created
from tests.games.api.builders import created, match_url, post, score_round

pytestmark = pytest.mark.django_db

SCORER = Actor(device="table-3")


def stored_payload(stream_id: uuid.UUID, version: int = 1) -> dict[str, Any]:
    """The payload exactly as stored, without upcasting."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT payload::text FROM eventstore_event "
            "WHERE stream_id = %s AND stream_version = %s",
            [stream_id, version],
        )
        (text,) = cursor.fetchone()
    payload: dict[str, Any] = json.loads(text)
    return payload


def test_a_new_match_created_event_refers_to_its_sides_without_names() -> None:
    match_id = services.match_create(table_size=2, sides=["Anna", "Bruno"], actor=SCORER).match_id

    (created_event,) = read_stream(stream_id=match_id)
    assert created_event.schema_version == 2
    assert created_event.payload["sides"] == [{}, {}]
    assert stored_payload(match_id)["sides"] == [{}, {}]
    assert "Anna" not in json.dumps(stored_payload(match_id))
    assert list(MatchSide.objects.filter(match_id=match_id).values_list("side", "name")) == [
        (0, "Anna"),
        (1, "Bruno"),
    ]


def test_a_side_cannot_be_described_by_a_name_in_the_match_stream() -> None:
    by_id = CreateMatch(2, MatchFormat.best_of(3), ({"entrant": 7}, {}), DEFAULT_VARIANT)
    by_name = CreateMatch(2, MatchFormat.best_of(3), ({"name": "Anna"}, {}), DEFAULT_VARIANT)  # type: ignore[dict-item]

    (event,) = decide(None, by_id)
    assert event.to_payload()["sides"] == [{"entrant": 7}, {}]
    with pytest.raises(InvalidSide):
        decide(None, by_name)


def test_a_match_is_created_with_either_names_or_references() -> None:
    with pytest.raises(TypeError):
        services.match_create(table_size=2, actor=SCORER)
    with pytest.raises(TypeError):
        services.match_create(
            table_size=2, sides=["A", "B"], side_refs=[{"entrant": 1}, {"entrant": 2}], actor=SCORER
        )


def test_a_refused_creation_writes_no_names() -> None:
    match_id = services.match_create(table_size=2, sides=["A", "B"], actor=SCORER).match_id

    with pytest.raises(Exception, match="already exists"):
        services.match_create(table_size=2, sides=["C", "D"], actor=SCORER, match_id=match_id)

    assert selectors.match_side_names(match=Match.objects.get(id=match_id)) == ["A", "B"]


def test_an_old_match_created_event_is_upcast_to_sides_without_names() -> None:
    match_id = uuid.uuid4()
    old_match_created(match_id)

    (upcast,) = read_stream(stream_id=match_id)

    assert (upcast.schema_version, upcast.payload["sides"]) == (2, [{}, {}])
    assert stored_payload(match_id)["sides"] == V1_SIDES  # the log itself is never rewritten
    state, _ = execution.load_match(match_id=match_id)
    assert state.setup.sides == ({}, {})


def test_rebuilt_and_verified_projections_take_no_names_from_the_events() -> None:
    old_id = uuid.uuid4()
    old_match_created(old_id)
    new_id = services.match_create(table_size=2, sides=["Carla", "Dino"], actor=SCORER).match_id

    rebuilding.rebuild()

    assert rebuilding.verify() == []
    assert Match.objects.get(id=old_id).sides == [{}, {}]
    rebuilt = Match.objects.get(id=new_id)
    assert rebuilt.sides == [{}, {}]
    assert selectors.match_side_names(match=rebuilt) == ["Carla", "Dino"]


def test_the_migration_copies_the_names_of_old_free_standing_matches_only() -> None:
    free_standing, owned = uuid.uuid4(), uuid.uuid4()
    old_match_created(free_standing)
    old_match_created(owned, [{"name": "Entrant 1"}, {"name": "Entrant 2"}])
    append_to_stream(
        stream_id=uuid.uuid4(),
        stream_type="tournament",
        events=[NewEvent("FixtureCreated", {"fixture": "R1-1", "match_id": str(owned)})],
        expected_version=0,
    )
    rebuilding.rebuild()
    Match.objects.filter(id__in=[free_standing, owned]).update(sides=V1_SIDES)  # as it was
    migration = importlib.import_module("games.migrations.0003_side_names_out_of_match_events")

    migration.copy_side_names(apps, SimpleNamespace(connection=connection))

    copied = MatchSide.objects.values_list("match_id", "side", "name")
    assert sorted(copied) == [(free_standing, 0, "Anna"), (free_standing, 1, "Bruno")]
    assert Match.objects.get(id=free_standing).sides == [{}, {}]
    assert Match.objects.get(id=owned).sides == [{}, {}]
    assert rebuilding.verify() == []


@pytest.fixture
def club_namer() -> Iterator[None]:
    def names(refs: SideRefs) -> dict[uuid.UUID, list[str]]:
        return {
            match_id: [f"member {side['member']}" for side in sides]
            for match_id, sides in refs.items()
            if sides and all("member" in side for side in sides)
        }

    register_side_namer("club", names=names, search=lambda _term: [])
    yield
    unregister_side_namer("club")


@pytest.mark.usefixtures("club_namer")
def test_sides_that_refer_to_another_apps_rows_are_named_by_its_registered_namer() -> None:
    result = services.match_create(
        table_size=2, side_refs=[{"member": 4}, {"member": 9}], actor=SCORER
    )

    match = Match.objects.get(id=result.match_id)
    assert match.sides == [{"member": 4}, {"member": 9}]
    assert selectors.match_side_names(match=match) == ["member 4", "member 9"]
    assert not MatchSide.objects.filter(match_id=match.id).exists()


def test_a_side_nobody_can_name_reads_by_its_number() -> None:
    result = services.match_create(
        table_size=2, side_refs=[{"member": 4}, {"member": 9}], actor=SCORER
    )

    assert selectors.match_side_names(match=Match.objects.get(id=result.match_id)) == [
        "side 0",
        "side 1",
    ]


def test_the_scorer_api_still_takes_and_shows_names_while_the_events_hold_none() -> None:
    client = token_client(UserFactory.create(username="lead", is_staff=True, is_superuser=True))
    body = {"table_size": 2, "sides": [{"name": "Rossi"}, {"name": "Bianchi"}]}

    match = created(post(client, f"{API}/matches/", body))
    score_round(client, match["id"], 70, 50)
    detail = client.get(match_url(match["id"])).json()
    events = client.get(match_url(match["id"], "events")).json()["events"]

    assert match["sides"] == [{"name": "Rossi"}, {"name": "Bianchi"}]
    assert detail["sides"] == [{"name": "Rossi"}, {"name": "Bianchi"}]
    assert events[0]["payload"]["sides"] == [{}, {}]
    assert "Rossi" not in json.dumps(events)
