"""A whole tournament played through the HTTP API only, while a real worker runs it: scheduling
tables, recording results, advancing the bracket and projecting the views are the worker's."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import Role
from accounts.services import role_grant
from tests.factories.accounts import ClubFactory, UserFactory, token_client
from tests.workers import Worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

API = "/api/v1"


def organizer_client() -> APIClient:
    user = UserFactory.create(username="organizer")
    role_grant(user=user, role=Role.ORGANIZER, club=ClubFactory.create(name="Circolo"))
    return token_client(user)


def created(client: APIClient, url: str, body: dict[str, Any] | None = None) -> Any:
    response = client.post(url, body or {}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_single_elimination_is_played_to_its_champion_through_the_api(worker: Worker) -> None:
    client = organizer_client()
    tournament = created(
        client,
        f"{API}/tournaments/",
        {
            "name": "Coppa",
            "format": "single_elimination",
            "table_size": 2,
            "best_of": 1,
            "tables": 2,
        },
    )
    base = f"{API}/tournaments/{tournament['id']}"
    entrants = [
        created(client, f"{base}/entrants/", {"name": f"P{n}", "players": [f"P{n}"], "seed": n})
        for n in (1, 2, 3, 4)
    ]
    created(client, f"{base}/start/")

    played: set[str] = set()
    for expected in (2, 1):

        def at_tables(expected: int = expected) -> list[dict[str, Any]]:
            ready = client.get(f"{base}/matches/", {"status": "ready"}).json()["matches"]
            waiting = [m for m in ready if m["table"] is not None and m["id"] not in played]
            return waiting if len(waiting) == expected else []

        for match in wait_for(at_tables, what=f"{expected} match(es) at tables", log=worker.log):
            created(client, f"{API}/matches/{match['id']}/rounds/", {"briscola": None})
            created(client, f"{API}/matches/{match['id']}/rounds/1/score/", {"points": [90, 30]})
            played.add(match["id"])

    def champion() -> Any:
        bracket = client.get(f"{base}/bracket/").json()
        return bracket.get("champion") if bracket.get("status") == "finished" else None

    assert wait_for(champion, what="the champion", log=worker.log) == entrants[0]["id"]
    standings = client.get(f"{base}/standings/").json()
    assert standings[0]["name"] == "P1"
    assert client.get(f"{base}/").json()["status"] == "finished"
