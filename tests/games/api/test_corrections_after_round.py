"""The organizer's correction of a finished round's card, through the API (decision record
0048): POST .../rounds/{n}/correct/ exchanges the two plays' cards, the round's points and the
match's result follow, the confirmations of the result before it lapse; organizers only, never
a table's tablet, which the match answer's `may_organize` tells a page."""

from typing import Any
from uuid import UUID

import pytest
from rest_framework.test import APIClient

from accounts import services as accounts
from accounts.models import User
from games.rules.tricks import Play
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import (
    a_correction,
    finished_card_round,
    match_url,
    post,
    round_url,
    score_round,
    start_round,
)
from tests.security.roles import make_world, tournament_at_tables


def correct(client: APIClient, match_id: str, number: int, **body: Any) -> Any:
    return post(client, round_url(match_id, number, "correct"), body)


def finished_match(client: APIClient, seed: int = 1) -> tuple[str, str, list[Play], int]:
    match_id = ApiMatchFactory.create(client=client, best_of=1)["id"]
    briscola, plays, dealer = finished_card_round(client, match_id, seed=seed)
    return match_id, briscola, plays, dealer


def test_the_organizers_correction_exchanges_two_cards_and_the_points_and_result_follow(
    scorer: APIClient,
) -> None:
    match_id, briscola, plays, dealer = finished_match(scorer)
    before = scorer.get(match_url(match_id)).json()
    index, card, points = next(
        found
        for seed in range(200)
        if (found := a_correction(briscola, plays, dealer=dealer, seed=seed))[2]
        != tuple(before["rounds"][0]["points"])
    )
    post(scorer, match_url(match_id, "confirm"), {"side": 0})
    other = next(i for i, play in enumerate(plays) if play.card == card)

    response = correct(
        scorer, match_id, 1, play_index=index, card=card.code, reason=" the 3 was misread "
    )

    assert response.status_code == 201, response.json()
    corrected = response.json()
    assert corrected["points"] == list(points)
    assert corrected["corrections"] == [
        {
            "play_index": index,
            "seat": plays[index].seat,
            "card": card.code,
            "previous_card": plays[index].card.code,
            "swapped_with": other,
            "reason": "the 3 was misread",
        }
    ]
    after = scorer.get(match_url(match_id)).json()
    assert after["total_points"] == list(points)
    assert after["confirmed_by"] == []
    assert after["confirmations"][0]["standing"] is False
    replay = scorer.get(round_url(match_id, 1, "replay")).json()
    replayed = [play for trick in replay["tricks"] for play in trick["plays"]]
    assert replayed[index] == [plays[index].seat, card.code]
    assert replayed[other] == [plays[other].seat, plays[index].card.code]
    event = scorer.get(match_url(match_id, "events")).json()["events"][-1]
    assert (event["event_type"], event["payload"]["reason"]) == (
        "CardCorrectedAfterRound",
        "the 3 was misread",
    )
    assert event["metadata"]["reason"] == "the 3 was misread"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"reason": "  "}, 422, "reason_required"),
        ({"same_card": True}, 422, "card_unchanged"),
        ({"play_index": 40}, 404, "play_not_found"),
        ({"card": "11D"}, 422, "card_not_in_deck"),
        ({"card": "ZZ"}, 422, "invalid_card"),
    ],
)
def test_a_correction_is_refused_with_its_code(
    scorer: APIClient, body: dict[str, Any], status: int, code: str
) -> None:
    match_id, briscola, plays, dealer = finished_match(scorer)
    index, card, _points = a_correction(briscola, plays, dealer=dealer)
    sent = {"play_index": index, "card": card.code, "reason": "misread"} | body
    if sent.pop("same_card", False):
        sent["card"] = plays[index].card.code

    response = correct(scorer, match_id, 1, **sent)

    assert (response.status_code, response.json()["code"]) == (status, code), response.json()


def test_a_round_not_over_or_scored_by_points_takes_no_correction_after_it(
    scorer: APIClient,
) -> None:
    in_play = ApiMatchFactory.create(client=scorer)["id"]
    start_round(scorer, in_play)
    by_points = ApiMatchFactory.create(client=scorer, best_of=1)["id"]
    score_round(scorer, by_points, 80, 40)
    body = {"play_index": 0, "card": "1D", "reason": "misread"}

    not_over = correct(scorer, in_play, 1, **body)
    scored = correct(scorer, by_points, 1, **body)

    assert (not_over.status_code, not_over.json()["code"]) == (422, "round_not_finished")
    assert (scored.status_code, scored.json()["code"]) == (409, "points_already_entered")
    assert "rule on its points" in scored.json()["detail"]


def test_correcting_a_finished_round_as_during_play_points_to_the_organizers_settling(
    scorer: APIClient,
) -> None:
    match_id, _briscola, plays, _dealer = finished_match(scorer)

    response = post(
        scorer, round_url(match_id, 1, "plays", 0, "correct"), {"card": plays[1].card.code}
    )
    by_points = ApiMatchFactory.create(client=scorer, best_of=1)["id"]
    score_round(scorer, by_points, 80, 40)
    scored = post(scorer, round_url(by_points, 1, "score"), {"points": [60, 60]})

    assert (response.status_code, response.json()["code"]) == (422, "card_already_played")
    assert "rounds/1/correct/" in response.json()["detail"]
    assert "rounds/1/rule/" in scored.json()["detail"]


def test_only_the_organizer_corrects_and_only_the_organizer_is_told_so(db: None) -> None:  # noqa: ARG001
    world = make_world()
    tournament_id, at = tournament_at_tables(world, 3)
    organizer = world.organizer
    briscola, plays, dealer = finished_card_round(organizer, at[3])
    index, card, _points = a_correction(briscola, plays, dealer=dealer)
    body = {"play_index": index, "card": card.code, "reason": "misread"}
    tablet = APIClient()
    _token, key = accounts.device_token_create(
        user=User.objects.get(username="organizer"),
        device="tablet",
        created_by=None,
        tournament_id=UUID(tournament_id),
        tables=[3],
    )
    tablet.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    scorer = APIClient()
    scorer.force_authenticate(User.objects.get(username="scorer"))

    assert organizer.get(match_url(at[3])).json()["may_organize"] is True
    assert tablet.get(match_url(at[3])).json()["may_organize"] is False
    assert scorer.get(match_url(at[3])).json()["may_organize"] is False
    assert APIClient().get(match_url(at[3])).json()["may_organize"] is False
    assert correct(tablet, at[3], 1, **body).status_code == 403
    assert correct(scorer, at[3], 1, **body).status_code == 403
    assert correct(organizer, at[3], 1, **body).status_code == 201
