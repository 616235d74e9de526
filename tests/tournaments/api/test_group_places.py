"""Ties at a group's qualification cut, through the API (decision record 0029, amended)."""

from typing import Any

from rest_framework.test import APIClient

from tests.games.api.builders import post, score_round
from tests.tournaments.api.builders import (
    groups_tied_at_the_cut,
    matches,
    started_tournament,
    tournament_url,
)
from tournaments.projections import consumer


def decide_url(tournament_id: str, label: str) -> str:
    return tournament_url(tournament_id, "groups", label, "decide")


def knockout(client: APIClient, tournament_id: str) -> list[dict[str, Any]]:
    return [m for m in matches(client, tournament_id) if m["stage"] not in ("A", "B")]


def test_the_organizer_orders_the_tied_groups_and_the_knockout_is_drawn(
    organizer: APIClient,
) -> None:
    tournament_id, entrants = groups_tied_at_the_cut(organizer)
    assert knockout(organizer, tournament_id) == []

    first = post(
        organizer,
        decide_url(tournament_id, "A"),
        {"order": [entrants[3], entrants[0]], "reason": "sorteggio"},
    )
    assert first.status_code == 201, first.json()
    assert knockout(organizer, tournament_id) == []
    second = post(
        organizer,
        decide_url(tournament_id, "B"),
        {"order": [entrants[1], entrants[2]], "reason": "accordo"},
        HTTP_IDEMPOTENCY_KEY="group-b",
    )
    assert second.status_code == 201, second.json()

    [final] = knockout(organizer, tournament_id)
    assert sorted(final["entrants"]) == sorted([entrants[3], entrants[1]])
    again = post(
        organizer,
        decide_url(tournament_id, "B"),
        {"order": [entrants[1], entrants[2]], "reason": "accordo"},
        HTTP_IDEMPOTENCY_KEY="group-b",
    )
    assert again.status_code == 200
    refused = post(
        organizer,
        decide_url(tournament_id, "B"),
        {"order": [entrants[2], entrants[1]], "reason": "ripensamento"},
    )
    assert (refused.status_code, refused.json()["code"]) == (422, "group_not_tied")


def test_an_order_that_is_not_exactly_the_tied_entrants_is_refused(organizer: APIClient) -> None:
    tournament_id, entrants = groups_tied_at_the_cut(organizer)

    wrong = post(
        organizer,
        decide_url(tournament_id, "A"),
        {"order": [entrants[1], entrants[0]], "reason": "sorteggio"},
    )
    unknown = post(
        organizer,
        decide_url(tournament_id, "Z"),
        {"order": [entrants[3], entrants[0]], "reason": "sorteggio"},
    )
    without_reason = post(
        organizer, decide_url(tournament_id, "A"), {"order": [entrants[3], entrants[0]]}
    )

    assert (wrong.status_code, wrong.json()["code"]) == (422, "invalid_group_order")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "group_not_found")
    assert without_reason.status_code == 400


def test_a_group_still_being_played_is_not_decided(organizer: APIClient) -> None:
    tournament_id, entrants = started_tournament(
        organizer,
        4,
        format="groups_then_knockout",
        group_size=2,
        advance_per_group=1,
        level_knockout="organizer",
    )

    response = post(
        organizer,
        decide_url(tournament_id, "A"),
        {"order": [entrants[3], entrants[0]], "reason": "sorteggio"},
    )

    assert (response.status_code, response.json()["code"]) == (422, "group_not_complete")


def test_under_the_deciding_round_rule_the_tied_entrants_play_a_playoff(
    organizer: APIClient,
) -> None:
    tournament_id, entrants = groups_tied_at_the_cut(organizer, level_knockout="deciding_round")

    playoffs = matches(organizer, tournament_id, status="ready")
    assert sorted(m["key"] for m in playoffs) == ["A-PO-1", "B-PO-1"]
    assert all(m["round"] == 2 for m in playoffs)
    for match in playoffs:
        score_round(organizer, match["id"], 50, 70)
    consumer.consume()

    [final] = knockout(organizer, tournament_id)
    assert sorted(final["entrants"]) == sorted([entrants[3], entrants[2]])
    page = organizer.get(f"/tournaments/{tournament_id}/").content.decode()
    assert "Group A playoff" in page
    standings = organizer.get(tournament_url(tournament_id, "standings")).json()
    assert all(row["played"] == 1 for row in standings)
    stages = organizer.get(tournament_url(tournament_id, "bracket")).json()["stages"]
    assert [(stage["name"], stage["kind"]) for stage in stages] == [
        ("A", "group"),
        ("B", "group"),
        ("A-playoff", "playoff"),
        ("B-playoff", "playoff"),
        ("knockout", "single_elimination"),
    ]
