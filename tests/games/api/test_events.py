from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories.api import API
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import match_url, score_round

LOG = f"{API}/events/"


def test_a_matchs_events_are_listed_in_version_order(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    score_round(scorer, match["id"], 70, 50)

    response = scorer.get(match_url(match["id"], "events"))

    events = response.json()["events"]
    assert response.status_code == 200
    assert [(e["stream_version"], e["event_type"]) for e in events] == [
        (1, "MatchCreated"),
        (2, "RoundStarted"),
        (3, "RoundPointsEntered"),
    ]
    assert events[2]["payload"] == {"round": 1, "points": [70, 50]}
    assert {e["stream_id"] for e in events} == {match["id"]}
    assert set(events[0]) >= {
        "global_position",
        "schema_version",
        "metadata",
        "recorded_at",
        "stream_type",
    }


def test_the_events_of_an_unknown_match_are_404(scorer: APIClient) -> None:
    response = scorer.get(match_url("00000000-0000-4000-8000-000000000000", "events"))

    assert (response.status_code, response.json()["code"]) == (404, "match_not_found")


def read_log(client: APIClient, after: int, limit: int) -> list[dict[str, Any]]:
    """Follow the log page by page from `after` until a page comes back empty."""
    pages = []
    while True:
        page = client.get(LOG, {"after": after, "limit": limit}).json()
        pages.append(page)
        if not page["events"]:
            assert page["next_after"] == after
            return pages
        assert page["next_after"] == page["events"][-1]["global_position"]
        after = page["next_after"]


def test_the_global_log_is_read_page_by_page_with_next_after(
    scorer: APIClient, staff: APIClient
) -> None:
    start = staff.get(LOG, {"after": 0, "limit": 1000}).json()
    while start["events"]:
        start = staff.get(LOG, {"after": start["next_after"], "limit": 1000}).json()
    first = ApiMatchFactory.create(client=scorer)
    second = ApiMatchFactory.create(client=scorer)
    score_round(scorer, first["id"], 70, 50)

    pages = read_log(staff, start["next_after"], limit=2)

    events = [event for page in pages for event in page["events"]]
    assert [len(page["events"]) for page in pages] == [2, 2, 0]
    positions = [event["global_position"] for event in events]
    assert positions == sorted(positions)
    assert [(e["stream_id"], e["stream_version"]) for e in events] == [
        (first["id"], 1),
        (second["id"], 1),
        (first["id"], 2),
        (first["id"], 3),
    ]


@pytest.mark.parametrize(
    "query", [{"after": -1}, {"after": "x"}, {"limit": 0}, {"limit": 1001}, {"after": 2**63}]
)
def test_a_log_query_out_of_bounds_is_400_invalid_input(
    staff: APIClient, query: dict[str, Any]
) -> None:
    response = staff.get(LOG, query)

    assert (response.status_code, response.json()["code"]) == (400, "invalid_input")
