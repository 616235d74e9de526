"""The venue's tables through the API (decision record 0049): `tables: null` at creation leaves
them to the entrants' need, counted at the start, and `PATCH tables/` changes them."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.eventstore.api import read_stream
from tests.factories.tournaments import ORGANIZER, ApiTournamentFactory
from tests.tournaments.api.builders import register_seeded, tournament_url
from tests.tournaments.builders import fixtures
from tournaments.projections import consumer
from tournaments.services.scheduling import fixture_schedule

pytestmark = pytest.mark.django_db


def change(client: APIClient, tournament_id: str, body: dict[str, Any], **headers: Any) -> Any:
    return client.patch(tournament_url(tournament_id, "tables"), body, format="json", **headers)


def test_tables_left_null_follow_the_entrants_until_the_start_counts_them(
    organizer: APIClient,
) -> None:
    created = ApiTournamentFactory.create(client=organizer, format="round_robin", tables=None)
    tournament_id = created["id"]
    assert (created["tables"], created["tables_by_need"]) == (1, True)

    register_seeded(organizer, tournament_id, 5)
    registered = organizer.get(tournament_url(tournament_id)).json()
    started = organizer.post(tournament_url(tournament_id, "start"), format="json")

    assert (registered["tables"], registered["tables_by_need"]) == (3, True)
    assert started.status_code == 201
    assert (started.json()["tables"], started.json()["tables_by_need"]) == (3, False)
    assert organizer.get(tournament_url(tournament_id)).json()["tables"] == 3


def test_a_tournament_created_without_tables_has_one_as_before(
    organizer: APIClient,
) -> None:
    created = ApiTournamentFactory.create(client=organizer)

    assert (created["tables"], created["tables_by_need"]) == (1, False)


def test_the_organizer_changes_the_tables_and_reads_the_tournament_back(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, tables=2)["id"]

    response = change(organizer, tournament_id, {"tables": 6})

    assert response.status_code == 200
    assert (response.json()["tables"], response.json()["tables_by_need"]) == (6, False)
    assert read_stream(stream_id=tournament_id)[-1].event_type == "TablesChanged"
    assert organizer.get(tournament_url(tournament_id)).json()["tables"] == 6


def test_null_before_the_start_gives_the_tables_back_to_the_entrants_need(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, tables=9)["id"]
    register_seeded(organizer, tournament_id, 4)

    response = change(organizer, tournament_id, {"tables": None})

    assert response.status_code == 200
    assert (response.json()["tables"], response.json()["tables_by_need"]) == (2, True)


def test_a_change_sent_again_with_its_key_records_nothing_more(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, tables=2)["id"]

    first = change(organizer, tournament_id, {"tables": 4}, HTTP_IDEMPOTENCY_KEY="t-1")
    again = change(organizer, tournament_id, {"tables": 4}, HTTP_IDEMPOTENCY_KEY="t-1")

    assert first.status_code == again.status_code == 200
    assert again.json()["version"] == first.json()["version"]
    assert [e.event_type for e in read_stream(stream_id=tournament_id)].count("TablesChanged") == 1


def test_more_tables_mid_tournament_seat_the_waiting_matches(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, format="round_robin", tables=1)[
        "id"
    ]
    register_seeded(organizer, tournament_id, 6)
    organizer.post(tournament_url(tournament_id, "start"), format="json")
    consumer.consume()

    response = change(organizer, tournament_id, {"tables": 3})
    fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)
    consumer.consume()

    assert response.status_code == 200
    assert sorted(f.table or 0 for f in fixtures(tournament_id, round=1)) == [1, 2, 3]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"tables": 0}, 422, "invalid_format_option"),
        ({"tables": 501}, 422, "invalid_format_option"),
        ({"tables": "four"}, 400, "invalid_input"),
        ({}, 400, "invalid_input"),
    ],
)
def test_tables_that_cannot_be_are_refused_with_a_code_and_nothing_is_recorded(
    organizer: APIClient, body: dict[str, Any], status: int, code: str
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, tables=2)["id"]
    version = len(read_stream(stream_id=tournament_id))

    response = change(organizer, tournament_id, body)

    assert response.status_code == status
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert len(read_stream(stream_id=tournament_id)) == version


def test_after_the_start_null_is_refused_and_fewer_tables_than_the_matches_hold_too(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(
        client=organizer, format="round_robin", tables=None
    )["id"]
    register_seeded(organizer, tournament_id, 4)
    organizer.post(tournament_url(tournament_id, "start"), format="json")
    fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)

    back_to_need = change(organizer, tournament_id, {"tables": None})
    fewer = change(organizer, tournament_id, {"tables": 1})

    assert (back_to_need.status_code, back_to_need.json()["code"]) == (409, "tournament_started")
    assert (fewer.status_code, fewer.json()["code"]) == (422, "tables_in_use")
    assert "table 2" in fewer.json()["detail"]
