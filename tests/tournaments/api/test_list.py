from typing import Any
from uuid import UUID

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories.tournaments import ApiTournamentFactory
from tests.tournaments.api.builders import started_tournament, tournaments
from tournaments.models import Tournament

TOURNAMENTS = "/api/v1/tournaments/"


def test_anyone_lists_the_tournaments_newest_first(
    organizer: APIClient, anonymous: APIClient
) -> None:
    first = ApiTournamentFactory.create(client=organizer, name="Autumn cup")
    second = ApiTournamentFactory.create(client=organizer, name="Winter cup")

    response = anonymous.get(TOURNAMENTS)

    assert response.status_code == 200
    listed = [t["id"] for t in response.json()["tournaments"]]
    assert listed.index(second["id"]) < listed.index(first["id"])
    assert set(response.json()["tournaments"][0]) >= {
        "id",
        "name",
        "format",
        "table_size",
        "status",
    }
    assert response.json()["next_after"] is None


def test_the_list_is_filtered_by_status(organizer: APIClient, anonymous: APIClient) -> None:
    waiting = ApiTournamentFactory.create(client=organizer, name="Still registering")
    running, _ = started_tournament(organizer, 4)

    in_progress = [t["id"] for t in tournaments(anonymous, status="in_progress")]

    assert running in in_progress
    assert waiting["id"] not in in_progress


def test_an_unknown_status_is_invalid_input(anonymous: APIClient) -> None:
    response = anonymous.get(TOURNAMENTS, {"status": "paused"})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"


def test_the_pages_follow_each_other_without_gaps_or_repeats(
    organizer: APIClient, anonymous: APIClient
) -> None:
    created = [
        ApiTournamentFactory.create(client=organizer, name=f"Cup {n}")["id"] for n in range(7)
    ]

    pages = []
    query: dict[str, Any] = {"limit": 3}
    while True:
        page = anonymous.get(TOURNAMENTS, query).json()
        pages.append([t["id"] for t in page["tournaments"]])
        if page["next_after"] is None:
            break
        query = {"limit": 3, "after": page["next_after"]}

    assert [len(page) for page in pages] == [3, 3, 1]
    assert [tournament for page in pages for tournament in page] == created[::-1]


def test_a_tournament_created_while_paging_does_not_shift_the_pages_that_follow(
    organizer: APIClient, anonymous: APIClient
) -> None:
    older = [ApiTournamentFactory.create(client=organizer, name=f"Cup {n}")["id"] for n in range(4)]
    first = anonymous.get(TOURNAMENTS, {"limit": 2}).json()

    ApiTournamentFactory.create(client=organizer, name="Late cup")
    second = anonymous.get(TOURNAMENTS, {"limit": 2, "after": first["next_after"]}).json()

    listed = [t["id"] for t in first["tournaments"] + second["tournaments"]]
    assert listed == older[::-1]
    assert second["next_after"] is None


def test_the_pages_of_a_filtered_list_keep_the_filter(
    organizer: APIClient, anonymous: APIClient
) -> None:
    running = [started_tournament(organizer, 2)[0] for _ in range(3)]
    ApiTournamentFactory.create(client=organizer, name="Still registering")

    query: dict[str, Any] = {"status": "in_progress", "limit": 2}
    first = anonymous.get(TOURNAMENTS, query).json()
    rest = anonymous.get(TOURNAMENTS, {**query, "after": first["next_after"]}).json()

    listed = [t["id"] for t in first["tournaments"] + rest["tournaments"]]
    assert listed == running[::-1]
    assert rest["next_after"] is None


def test_a_full_last_page_says_there_is_no_next_one(
    organizer: APIClient, anonymous: APIClient
) -> None:
    for n in range(2):
        ApiTournamentFactory.create(client=organizer, name=f"Cup {n}")

    page = anonymous.get(TOURNAMENTS, {"limit": 2}).json()

    assert len(page["tournaments"]) == 2
    assert page["next_after"] is None


@pytest.mark.parametrize("limit", ["0", "501", "-1", "many", ""])
def test_a_limit_out_of_bounds_is_invalid_input(anonymous: APIClient, limit: str) -> None:
    response = anonymous.get(TOURNAMENTS, {"limit": limit})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert list(response.json()["fields"]) == ["limit"]


@pytest.mark.parametrize("limit", ["1", "500"])
def test_a_limit_within_bounds_is_taken(anonymous: APIClient, limit: str) -> None:
    assert anonymous.get(TOURNAMENTS, {"limit": limit}).status_code == 200


@pytest.mark.parametrize(
    "after",
    [
        "nonsense",
        "",
        "WyIxIl0",  # ["1"]: a cursor of the match list
        "WzFd",  # [1]: not strings
        "WyJ5ZXN0ZXJkYXkiLCJ4Il0",  # ["yesterday","x"]
        "x" * 201,
    ],
)
def test_a_cursor_this_list_did_not_give_is_invalid_input(anonymous: APIClient, after: str) -> None:
    response = anonymous.get(TOURNAMENTS, {"after": after})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert list(response.json()["fields"]) == ["after"]


def test_tournaments_created_at_the_same_moment_are_paged_by_id(
    organizer: APIClient, anonymous: APIClient
) -> None:
    ids = [ApiTournamentFactory.create(client=organizer, name=f"Cup {n}")["id"] for n in range(5)]
    Tournament.objects.filter(id__in=ids).update(created_at=timezone.now())

    listed = []
    query: dict[str, Any] = {"limit": 2}
    while True:
        page = anonymous.get(TOURNAMENTS, query).json()
        listed += [t["id"] for t in page["tournaments"]]
        if page["next_after"] is None:
            break
        query = {"limit": 2, "after": page["next_after"]}

    assert listed == sorted(ids, key=UUID, reverse=True)


def test_a_bad_cursor_is_explained_in_the_readers_language(anonymous: APIClient) -> None:
    response = anonymous.get(TOURNAMENTS, {"after": "nonsense"}, HTTP_ACCEPT_LANGUAGE="it")

    assert response.status_code == 400
    assert response.json()["fields"]["after"] == [
        "Non è un cursore di questo elenco: invia il next_after della pagina precedente."
    ]
