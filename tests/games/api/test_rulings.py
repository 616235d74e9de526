"""The organizer's ruling on a finished round, through the API (decision record 0045): the
round's points become the ruled ones, the match's result follows, and the confirmations of the
result before it lapse."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import (
    dealt_match,
    match_url,
    play_cards,
    post,
    round_url,
    score_round,
)


def rule(client: APIClient, match_id: str, number: int, points: list[int], reason: str) -> Any:
    return post(client, round_url(match_id, number, "rule"), {"points": points, "reason": reason})


def test_the_organizers_ruling_changes_the_rounds_points_and_the_winner_and_lapses_a_confirmation(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 80, 40)
    post(scorer, match_url(match["id"], "confirm"), {"side": 0})

    response = rule(scorer, match["id"], 1, [55, 65], " the last trick was miscounted ")

    assert response.status_code == 201, response.json()
    ruled = response.json()
    assert (ruled["points"], ruled["result"]) == ([55, 65], "side1")
    assert ruled["ruling"] == {"points": [55, 65], "reason": "the last trick was miscounted"}
    after = scorer.get(match_url(match["id"])).json()
    assert (after["winner"], after["confirmed_by"], after["total_points"]) == (
        "side1",
        [],
        [55, 65],
    )
    assert after["rounds"][0]["ruling"]["reason"] == "the last trick was miscounted"
    event = scorer.get(match_url(match["id"], "events")).json()["events"][-1]
    assert event["event_type"] == "RoundResultRuled"
    assert event["payload"] == {
        "round": 1,
        "points": [55, 65],
        "reason": "the last trick was miscounted",
    }
    assert event["metadata"]["reason"] == "the last trick was miscounted"


def test_a_round_never_ruled_answers_a_null_ruling(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)

    scored = score_round(scorer, match["id"], 80, 40)

    assert scored["ruling"] is None


@pytest.mark.parametrize(
    ("finish", "number", "points", "reason", "status", "code"),
    [
        (False, 1, [60, 60], "x", 422, "round_not_finished"),
        (True, 1, [60, 60], "   ", 422, "reason_required"),
        (True, 1, [60, 61], "x", 422, "points_must_total_120"),
        (True, 2, [60, 60], "x", 404, "round_not_found"),
    ],
)
def test_a_ruling_is_refused_with_its_code(
    scorer: APIClient,
    finish: bool,
    number: int,
    points: list[int],
    reason: str,
    status: int,
    code: str,
) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    if finish:
        score_round(scorer, match["id"], 80, 40)
    else:
        post(scorer, match_url(match["id"], "rounds"), {"briscola": None})

    response = rule(scorer, match["id"], number, points, reason)

    assert (response.status_code, response.json()["code"]) == (status, code)


def test_a_ruled_card_round_takes_back_no_card(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer, seed=2, best_of=1)
    play_cards(scorer, match_id, 1, plays)
    ruled = rule(scorer, match_id, 1, [60, 60], "a trick was given to the wrong side")

    undone = post(scorer, round_url(match_id, 1, "undo"))

    assert ruled.status_code == 201, ruled.json()

    assert (undone.status_code, undone.json()["code"]) == (409, "round_ruled")
