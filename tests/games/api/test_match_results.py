"""The matches API once a match is played: sides confirm or dispute its result, a forfeit
finishes it, and a level match with a decider says a deciding round is due."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.eventstore.api import last_position
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import match_url, post, round_url, score_round, start_round


def test_a_side_confirms_the_result_of_a_finished_match_once(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 70, 50)

    confirmed = post(scorer, match_url(match["id"], "confirm"), {"side": 1})
    again = post(scorer, match_url(match["id"], "confirm"), {"side": 1})

    assert confirmed.status_code == 201
    assert confirmed.json()["confirmed_by"] == ["side1"]
    assert again.status_code == 409
    assert again.json()["code"] == "result_already_confirmed"


def test_a_result_cannot_be_confirmed_before_the_match_is_over(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    response = post(scorer, match_url(match["id"], "confirm"), {"side": 0})

    assert response.status_code == 422
    assert response.json()["code"] == "match_not_finished"


def test_a_side_that_does_not_exist_cannot_confirm(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 70, 50)

    response = post(scorer, match_url(match["id"], "confirm"), {"side": 2})

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_side"


def test_a_side_disputes_a_finished_result_and_the_result_stands(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 70, 50)

    response = post(
        scorer, match_url(match["id"], "dispute"), {"side": 1, "reason": "we had 62 points"}
    )

    assert response.status_code == 201
    disputed = response.json()
    assert disputed["disputed_by"] == ["side1"]
    assert disputed["confirmed_by"] == []
    assert (disputed["status"], disputed["winner"]) == ("finished", "side0")
    assert scorer.get(match_url(match["id"])).json()["disputed_by"] == ["side1"]
    event = scorer.get(match_url(match["id"], "events")).json()["events"][-1]
    assert event["event_type"] == "ResultDisputed"
    assert event["payload"] == {"side": 1, "reason": "we had 62 points"}


def test_the_match_lists_each_dispute_with_its_reason_and_the_side_but_not_who_sent_it(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 70, 50)
    version = post(
        scorer, match_url(match["id"], "dispute"), {"side": 1, "reason": " we had 62 points "}
    ).json()["version"]

    (dispute,) = scorer.get(match_url(match["id"])).json()["disputes"]

    assert dispute == {
        "side": "side1",
        "version": version,
        "result": {
            "winner": "side0",
            "forfeited_by": None,
            "rounds": [{"number": 1, "points": [70, 50]}],
        },
        "standing": True,
        "reason": "we had 62 points",
    }


def test_a_side_disputes_once_and_withdraws_its_dispute_by_confirming(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 70, 50)
    dispute = match_url(match["id"], "dispute")
    post(scorer, dispute, {"side": 1, "reason": "we had 62 points"})

    again = post(scorer, dispute, {"side": 1, "reason": "really"})
    confirmed = post(scorer, match_url(match["id"], "confirm"), {"side": 1})
    after_confirming = post(scorer, dispute, {"side": 1, "reason": "changed my mind"})

    assert (again.status_code, again.json()["code"]) == (409, "result_already_disputed")
    assert confirmed.status_code == 201
    assert (confirmed.json()["confirmed_by"], confirmed.json()["disputed_by"]) == (["side1"], [])
    assert after_confirming.status_code == 409
    assert after_confirming.json()["code"] == "result_already_confirmed"


def test_a_confirmation_lapses_when_a_void_and_a_new_round_change_the_result(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 80, 40)
    post(scorer, match_url(match["id"], "confirm"), {"side": 0})
    post(scorer, round_url(match["id"], 1, "void"), {"reason": "misdeal"})
    score_round(scorer, match["id"], 30, 90)

    changed = scorer.get(match_url(match["id"])).json()
    confirmed_again = post(scorer, match_url(match["id"], "confirm"), {"side": 0})

    assert (changed["winner"], changed["confirmed_by"], changed["disputed_by"]) == ("side1", [], [])
    assert confirmed_again.status_code == 201
    assert confirmed_again.json()["confirmed_by"] == ["side0"]


def test_the_match_shows_each_confirmation_with_the_result_it_was_of_and_whether_it_stands(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 80, 40)
    first = post(scorer, match_url(match["id"], "confirm"), {"side": 0}).json()["version"]
    post(scorer, round_url(match["id"], 1, "void"), {"reason": "misdeal"})
    score_round(scorer, match["id"], 30, 90)
    second = post(scorer, match_url(match["id"], "confirm"), {"side": 0}).json()["version"]

    confirmations = scorer.get(match_url(match["id"])).json()["confirmations"]

    assert confirmations == [
        {
            "side": "side0",
            "version": first,
            "result": {
                "winner": "side0",
                "forfeited_by": None,
                "rounds": [{"number": 1, "points": [80, 40]}],
            },
            "standing": False,
        },
        {
            "side": "side0",
            "version": second,
            "result": {
                "winner": "side1",
                "forfeited_by": None,
                "rounds": [{"number": 2, "points": [30, 90]}],
            },
            "standing": True,
        },
    ]
    event = scorer.get(match_url(match["id"], "events")).json()["events"][first - 1]
    assert (event["event_type"], event["stream_version"]) == ("ResultConfirmed", first)


@pytest.mark.parametrize(
    ("finished", "body", "status", "code"),
    [
        (False, {"side": 0, "reason": "wrong"}, 422, "match_not_finished"),
        (True, {"side": 2, "reason": "wrong"}, 422, "invalid_side"),
        (True, {"side": 0, "reason": "   "}, 422, "reason_required"),
        (True, {"side": 0}, 400, "invalid_input"),
    ],
)
def test_a_dispute_is_refused_with_its_code_and_records_nothing(
    scorer: APIClient, finished: bool, body: dict[str, Any], status: int, code: str
) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    if finished:
        score_round(scorer, match["id"], 70, 50)
    version = scorer.get(match_url(match["id"])).json()["version"]

    response = post(scorer, match_url(match["id"], "dispute"), body)

    assert (response.status_code, response.json()["code"]) == (status, code)
    assert scorer.get(match_url(match["id"])).json()["version"] == version


def test_a_forfeit_finishes_the_match_for_the_other_side(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"])

    response = post(scorer, match_url(match["id"], "forfeit"), {"side": 0, "reason": "left"})

    forfeited = response.json()
    assert response.status_code == 201
    assert forfeited["status"] == "finished"
    assert forfeited["forfeited_by"] == "side0"
    assert forfeited["winner"] == "side1"


def test_nothing_more_is_recorded_once_a_match_is_forfeited(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    post(scorer, match_url(match["id"], "forfeit"), {"side": 0, "reason": "left"})
    version, position = scorer.get(match_url(match["id"])).json()["version"], last_position()

    forfeit_again = post(scorer, match_url(match["id"], "forfeit"), {"side": 1, "reason": "x"})
    new_round = post(scorer, match_url(match["id"], "rounds"), {"briscola": "7D"})

    assert (forfeit_again.status_code, forfeit_again.json()["code"]) == (409, "match_finished")
    assert (new_round.status_code, new_round.json()["code"]) == (409, "match_finished")
    assert scorer.get(match_url(match["id"])).json()["version"] == version
    assert last_position() == position


def test_a_forfeit_needs_a_reason(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    response = post(scorer, match_url(match["id"], "forfeit"), {"side": 0})

    assert response.status_code == 400
    assert "reason" in response.json()["fields"]


def test_a_level_match_asked_for_a_decider_says_a_deciding_round_is_due(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, scoring="points", rounds=2, decider="round")
    score_round(scorer, match["id"], 70, 50)
    score_round(scorer, match["id"], 50, 70)

    level = scorer.get(match_url(match["id"])).json()
    assert (level["status"], level["decider"], level["deciding_round_due"]) == (
        "in_progress",
        "round",
        True,
    )
    score_round(scorer, match["id"], 60, 60)
    score_round(scorer, match["id"], 58, 62)
    decided = scorer.get(match_url(match["id"])).json()
    assert (decided["status"], decided["winner"], decided["deciding_round_due"]) == (
        "finished",
        "side1",
        False,
    )
    assert decided["rounds"][3]["replay_of"] == 3


def test_a_match_won_by_a_deciding_round_says_so_and_keeps_its_regulation_total(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer, scoring="points", rounds=2, decider="round")
    score_round(scorer, match["id"], 70, 50)
    after_one = scorer.get(match_url(match["id"])).json()
    score_round(scorer, match["id"], 50, 70)
    score_round(scorer, match["id"], 55, 65)

    decided = scorer.get(match_url(match["id"])).json()

    assert (after_one["regulation_points"], after_one["decided_by"]) == ([70, 50], None)
    assert (decided["winner"], decided["decided_by"], decided["deciding_round"]) == (
        "side1",
        "deciding_round",
        3,
    )
    assert (decided["regulation_points"], decided["total_points"]) == ([120, 120], [175, 185])


def test_a_best_of_match_has_no_regulation_total_and_is_never_decided_by_a_deciding_round(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 70, 50)

    won = scorer.get(match_url(match["id"])).json()

    assert (won["regulation_points"], won["decided_by"], won["deciding_round"]) == (
        None,
        None,
        None,
    )


def test_a_free_standing_match_scored_by_points_still_ends_level_by_default(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer, scoring="points", rounds=2)
    score_round(scorer, match["id"], 70, 50)
    score_round(scorer, match["id"], 50, 70)

    level = scorer.get(match_url(match["id"])).json()
    assert (level["status"], level["winner"], level["decider"]) == ("finished", None, "none")
