"""Several cards of a round in one request: `POST .../rounds/{n}/plays/batch/`, all or none."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.rules.tricks import Play
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import (
    dealt_match,
    event_count,
    match_url,
    play_body,
    post,
    round_url,
    start_round,
)


def batch(client: APIClient, match_id: str, plays: list[Any], **fields: Any) -> Any:
    headers = {k: v for k, v in fields.items() if k.startswith("HTTP_")}
    body = {"plays": plays, **{k: v for k, v in fields.items() if not k.startswith("HTTP_")}}
    return post(client, round_url(match_id, 1, "plays", "batch"), body, **headers)


def pairs(plays: list[Play]) -> list[list[Any]]:
    return [[play.seat, play.card.code] for play in plays]


def test_a_whole_round_in_one_batch_finishes_the_match_as_card_by_card_would(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer, best_of=1, seed=7)
    by_card, _ = dealt_match(scorer, best_of=1, seed=7)
    for play in plays:
        assert post(scorer, round_url(by_card, 1, "plays"), play_body(play)).status_code == 201

    response = batch(scorer, match_id, pairs(plays))

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["status"], body["plays"], body["version"]) == ("finished", 40, 2 + 40)
    one_by_one = scorer.get(round_url(by_card, 1)).json()
    batched = scorer.get(round_url(match_id, 1)).json()
    assert {k: v for k, v in batched.items() if k != "match_id"} == {
        k: v for k, v in one_by_one.items() if k != "match_id"
    }
    assert scorer.get(match_url(match_id)).json()["status"] == "finished"


def test_a_refused_card_in_a_batch_records_none_of_it_and_names_its_index(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer)
    before = event_count(scorer, match_id)
    wrong = [*pairs(plays[:3]), [plays[3].seat, plays[0].card.code]]  # a card played already

    response = batch(scorer, match_id, wrong)

    assert response.status_code == 422
    body = response.json()
    assert (body["code"], body["play_index"]) == ("card_already_played", 3)
    assert event_count(scorer, match_id) == before


@pytest.mark.parametrize(
    ("plays", "code", "index"),
    [
        ([[0, "ZZ"]], "invalid_card", 0),
        ([[0, "1B"], [0, "2B"]], "not_your_turn", 1),
        ([[7, "1B"]], "invalid_seat", 0),
    ],
)
def test_each_rule_refusal_in_a_batch_answers_its_code_and_index(
    scorer: APIClient, plays: list[Any], code: str, index: int
) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], briscola="7D", dealer_seat=1)

    response = batch(scorer, match["id"], plays)

    assert response.status_code == 422
    assert (response.json()["code"], response.json()["play_index"]) == (code, index)


@pytest.mark.parametrize(
    "plays",
    [[], [[0]], [[0, "1B", 2]], [["0", "1B"]], [[True, "1B"]], [[0, 7]], "1B", [[0, "1B"]] * 49],
)
def test_a_malformed_batch_is_a_bad_request(scorer: APIClient, plays: Any) -> None:
    match_id, _ = dealt_match(scorer)

    response = batch(scorer, match_id, plays)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert "plays" in response.json()["fields"]


def test_a_batch_with_a_stale_expected_version_is_a_conflict_and_records_nothing(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer)
    before = event_count(scorer, match_id)

    response = batch(scorer, match_id, pairs(plays[:4]), expected_version=1)

    assert response.status_code == 409
    assert response.json()["code"] == "version_conflict"
    assert event_count(scorer, match_id) == before
    fresh = batch(scorer, match_id, pairs(plays[:4]), expected_version=before)
    assert fresh.status_code == 201
    assert fresh.json()["version"] == before + 4


def test_a_repeated_batch_with_its_idempotency_key_answers_the_first_and_records_once(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer)

    first = batch(scorer, match_id, pairs(plays[:6]), HTTP_IDEMPOTENCY_KEY="sheet-1")
    retry = batch(scorer, match_id, pairs(plays[:6]), HTTP_IDEMPOTENCY_KEY="sheet-1")
    other = batch(scorer, match_id, pairs(plays[:5]), HTTP_IDEMPOTENCY_KEY="sheet-1")

    assert (first.status_code, retry.status_code) == (201, 200)
    assert retry.json() == first.json()
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert scorer.get(round_url(match_id, 1)).json()["plays"] == 6


def test_the_batch_continues_from_cards_played_one_by_one(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer)
    assert post(scorer, round_url(match_id, 1, "plays"), play_body(plays[0])).status_code == 201

    response = batch(scorer, match_id, pairs(plays[1:10]))

    assert response.status_code == 201, response.json()
    assert response.json()["plays"] == 10


def test_nobody_without_the_right_to_score_plays_a_batch(
    scorer: APIClient, anonymous: APIClient
) -> None:
    match_id, plays = dealt_match(scorer)

    response = batch(anonymous, match_id, pairs(plays[:2]))

    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
    assert scorer.get(round_url(match_id, 1)).json()["plays"] == 0
