from rest_framework.test import APIClient

from tests.tournaments.api.builders import create_tournament, started_tournament

TOURNAMENTS = "/api/v1/tournaments/"


def test_anyone_lists_the_tournaments_newest_first(
    organizer: APIClient, anonymous: APIClient
) -> None:
    first = create_tournament(organizer, name="Autumn cup")
    second = create_tournament(organizer, name="Winter cup")

    response = anonymous.get(TOURNAMENTS)

    assert response.status_code == 200
    listed = [t["id"] for t in response.json()]
    assert listed.index(second["id"]) < listed.index(first["id"])
    assert set(response.json()[0]) >= {"id", "name", "format", "table_size", "status"}


def test_the_list_is_filtered_by_status(organizer: APIClient, anonymous: APIClient) -> None:
    waiting = create_tournament(organizer, name="Still registering")
    running, _ = started_tournament(organizer, 4)

    in_progress = [t["id"] for t in anonymous.get(TOURNAMENTS, {"status": "in_progress"}).json()]

    assert running in in_progress
    assert waiting["id"] not in in_progress


def test_an_unknown_status_is_invalid_input(anonymous: APIClient) -> None:
    response = anonymous.get(TOURNAMENTS, {"status": "paused"})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
