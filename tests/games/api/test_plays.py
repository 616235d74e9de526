from typing import Any

import pytest
from rest_framework.test import APIClient

from games.rules.cards import parse_card
from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import (
    dealt_match,
    event_count,
    match_url,
    play_body,
    play_cards,
    post,
    round_url,
    score_round,
    start_round,
)
from tests.games.rules.builders import physical_round, play_to_the_holders_last_card


def play(client: APIClient, match_id: str, body: dict[str, Any], **headers: str) -> Any:
    return post(client, round_url(match_id, 1, "plays"), body, **headers)


def test_a_whole_best_of_one_round_entered_card_by_card_finishes_the_match(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer, best_of=1, seed=7)

    last = play_cards(scorer, match_id, 1, plays).json()

    assert last["play_index"] == 39
    assert last["trick"]["number"] == 20
    assert last["trick_winner"] == last["trick"]["winner"]
    finished = last["round"]
    assert (finished["status"], finished["plays"]) == ("finished", 40)
    assert sum(finished["points"]) == 120
    assert finished["result"] == "side0"
    assert last["version"] == 2 + 40
    match = scorer.get(match_url(match_id)).json()
    assert (match["status"], match["winner"], match["round_wins"]) == ("finished", "side0", [1, 0])


def test_a_played_card_answers_with_its_trick_and_its_index(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer)

    first = play(scorer, match_id, play_body(plays[0]))
    second = play(scorer, match_id, play_body(plays[1])).json()

    assert first.status_code == 201
    assert first.json()["play_index"] == 0
    assert first.json()["trick"] == {
        "number": 1,
        "leader": 1,
        "plays": [[plays[0].seat, plays[0].card.code]],
        "winner": None,
        "points": None,
    }
    assert first.json()["trick_winner"] is None
    assert (first.json()["round"]["plays"], first.json()["version"]) == (1, 3)
    assert second["play_index"] == 1
    assert second["trick_winner"] in (0, 1)
    assert second["trick"]["points"] == plays[0].card.points + plays[1].card.points


def test_a_card_from_a_seat_not_on_turn_is_422_not_your_turn(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer)

    response = play(scorer, match_id, {"seat": 0, "card": plays[0].card.code})

    assert (response.status_code, response.json()["code"]) == (422, "not_your_turn")


def test_a_card_played_twice_is_422_card_already_played(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer)
    play(scorer, match_id, play_body(plays[0]))

    response = play(scorer, match_id, {"seat": plays[1].seat, "card": plays[0].card.code})

    assert (response.status_code, response.json()["code"]) == (422, "card_already_played")


@pytest.mark.parametrize("card", ["13D", "7X", ""])
def test_an_unreadable_card_is_422_invalid_card(scorer: APIClient, card: str) -> None:
    match_id, plays = dealt_match(scorer)

    response = play(scorer, match_id, {"seat": plays[0].seat, "card": card})

    expected = (400, "invalid_input") if card == "" else (422, "invalid_card")
    assert (response.status_code, response.json()["code"]) == expected


def test_a_card_outside_the_tables_deck_is_422_card_not_in_deck(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, table_size=3, sides=[{"name": n} for n in "ABC"])
    start_round(scorer, match["id"], briscola="7D", dealer_seat=0)

    response = play(scorer, match["id"], {"seat": 1, "card": "2B"})

    assert (response.status_code, response.json()["code"]) == (422, "card_not_in_deck")


def test_the_face_up_briscola_is_not_played_before_it_is_drawn(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], briscola="7D", dealer_seat=0)

    response = play(scorer, match["id"], {"seat": 1, "card": "7D"})

    assert (response.status_code, response.json()["code"]) == (422, "briscola_not_drawn")


def test_the_briscola_holders_last_card_must_be_the_briscola_so_the_round_can_finish(
    scorer: APIClient,
) -> None:
    rules_round = play_to_the_holders_last_card(physical_round(dealer=0, briscola="2C"))
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], briscola="2C", dealer_seat=0)
    play_cards(scorer, match["id"], 1, list(rules_round.plays))
    (last_other,) = [
        card.code
        for card in rules_round.table.deck
        if not rules_round.is_played(card) and card.code != "2C"
    ]

    refused = play(scorer, match["id"], {"seat": 0, "card": last_other})
    play(scorer, match["id"], {"seat": 0, "card": "2C"})
    finished = play(scorer, match["id"], {"seat": 1, "card": last_other})

    assert (refused.status_code, refused.json()["code"]) == (422, "briscola_must_be_played")
    assert finished.status_code == 201
    assert finished.json()["round"]["result"] is not None


def test_a_seat_that_does_not_exist_is_422_invalid_seat(scorer: APIClient) -> None:
    match_id, _plays = dealt_match(scorer)

    response = play(scorer, match_id, {"seat": 5, "card": "1C"})

    assert (response.status_code, response.json()["code"]) == (422, "invalid_seat")


def test_a_card_after_the_round_is_over_is_422_round_finished(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer, best_of=3, seed=7)
    play_cards(scorer, match_id, 1, plays)

    response = play(scorer, match_id, play_body(plays[0]))

    assert (response.status_code, response.json()["code"]) == (422, "round_finished")


def test_no_card_is_played_in_a_round_without_a_briscola(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], briscola=None)

    response = play(scorer, match["id"], {"seat": 1, "card": "1C"})

    assert (response.status_code, response.json()["code"]) == (422, "missing_briscola")


def test_no_card_is_played_in_a_round_scored_by_points(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    score_round(scorer, match["id"], 70, 50)

    response = play(scorer, match["id"], {"seat": 1, "card": "1C"})

    assert (response.status_code, response.json()["code"]) == (409, "points_already_entered")


def test_a_card_in_a_round_that_does_not_exist_is_404_round_not_found(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer)

    response = post(scorer, round_url(match_id, 2, "plays"), play_body(plays[0]))

    assert (response.status_code, response.json()["code"]) == (404, "round_not_found")


def test_a_retried_card_with_its_idempotency_key_answers_200_with_the_first_answer(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer)
    first = play(scorer, match_id, play_body(plays[0]), HTTP_IDEMPOTENCY_KEY="card-1")
    play(scorer, match_id, play_body(plays[1]), HTTP_IDEMPOTENCY_KEY="card-2")
    events = event_count(scorer, match_id)

    retry = play(scorer, match_id, play_body(plays[0]), HTTP_IDEMPOTENCY_KEY="card-1")

    assert (first.status_code, retry.status_code) == (201, 200)
    assert retry.json() == first.json()
    assert event_count(scorer, match_id) == events


def test_a_retry_with_its_key_is_answered_even_with_the_version_it_first_sent(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer)
    body = play_body(plays[0], expected_version=2)
    first = play(scorer, match_id, body, HTTP_IDEMPOTENCY_KEY="card-1")

    retry = play(scorer, match_id, body, HTTP_IDEMPOTENCY_KEY="card-1")

    assert retry.status_code == 200
    assert retry.json() == first.json()


def test_an_idempotency_key_reused_for_another_card_is_422_idempotency_key_reused(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer)
    play(scorer, match_id, play_body(plays[0]), HTTP_IDEMPOTENCY_KEY="card-1")

    response = play(scorer, match_id, play_body(plays[1]), HTTP_IDEMPOTENCY_KEY="card-1")

    assert (response.status_code, response.json()["code"]) == (422, "idempotency_key_reused")


@pytest.mark.parametrize("key", ["", "k" * 129])
def test_an_idempotency_key_of_the_wrong_length_is_400(scorer: APIClient, key: str) -> None:
    match_id, plays = dealt_match(scorer)

    response = play(scorer, match_id, play_body(plays[0]), HTTP_IDEMPOTENCY_KEY=key)

    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["fields"]


def test_a_stale_expected_version_is_409_version_conflict_with_the_current_version(
    scorer: APIClient,
) -> None:
    match_id, plays = dealt_match(scorer)
    play(scorer, match_id, play_body(plays[0], expected_version=2))

    response = play(scorer, match_id, play_body(plays[1], expected_version=2))

    assert response.status_code == 409
    assert response.json()["code"] == "version_conflict"
    assert response.json()["current_version"] == 3
    assert event_count(scorer, match_id) == 3


def test_correcting_a_card_replaces_it_and_answers_with_the_round(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer)
    play(scorer, match_id, play_body(plays[0]))
    actual = plays[2].card.code

    response = post(scorer, round_url(match_id, 1, "plays", 0, "correct"), {"card": actual})

    assert response.status_code == 201
    assert (response.json()["plays"], response.json()["version"]) == (1, 4)
    replay = scorer.get(round_url(match_id, 1, "replay")).json()
    assert replay["tricks"][0]["plays"] == [[plays[0].seat, actual]]


def test_correcting_a_play_that_does_not_exist_is_404_play_not_found(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer)
    play(scorer, match_id, play_body(plays[0]))

    response = post(scorer, round_url(match_id, 1, "plays", 1, "correct"), {"card": "1C"})

    assert (response.status_code, response.json()["code"]) == (404, "play_not_found")


def test_a_correction_that_makes_a_later_play_illegal_is_refused(scorer: APIClient) -> None:
    match_id, plays = dealt_match(scorer)
    play_cards(scorer, match_id, 1, plays[:2])
    later_card = plays[1].card.code

    response = post(scorer, round_url(match_id, 1, "plays", 0, "correct"), {"card": later_card})

    assert (response.status_code, response.json()["code"]) == (422, "card_already_played")


def test_every_event_records_the_user_and_the_device(scorer: APIClient, scorer_token: Any) -> None:
    match_id, plays = dealt_match(scorer)
    play(scorer, match_id, play_body(plays[0]), HTTP_X_DEVICE="table-7 tablet")
    post(scorer, round_url(match_id, 1, "void"), {"reason": "misdeal"})

    events = scorer.get(match_url(match_id, "events")).json()["events"]

    created, started, played, voided = (event["metadata"] for event in events)
    assert {m["actor_id"] for m in (created, started, played, voided)} == {scorer_token.user_id}
    assert started["device"] == f"token:{scorer_token.key[:8]}"
    assert played["device"] == "table-7 tablet"
    assert voided["reason"] == "misdeal"


def test_a_card_written_with_an_alias_is_recorded_by_its_code(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], briscola="7D", dealer_seat=0)

    response = play(scorer, match["id"], {"seat": 1, "card": "ac"})

    assert response.json()["trick"]["plays"] == [[1, parse_card("AC").code]]


def test_a_french_match_takes_cards_in_french_suit_letters_and_answers_canonical_codes(
    scorer: APIClient,
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, variant={"deck_names": "french"})["id"]
    start_round(scorer, match_id, briscola="7h", dealer_seat=0)

    response = play(scorer, match_id, {"seat": 1, "card": "AC"})

    assert response.status_code == 201, response.json()
    assert response.json()["trick"]["plays"] == [[1, parse_card("1B").code]]
    round_one = scorer.get(round_url(match_id, 1)).json()
    assert round_one["briscola"] == "7C"


def test_an_italian_suit_letter_in_a_french_match_is_refused_naming_the_french_letters(
    scorer: APIClient,
) -> None:
    match_id = ApiMatchFactory.create(client=scorer, variant={"deck_names": "french"})["id"]
    start_round(scorer, match_id, briscola="7H", dealer_seat=0)
    versions = event_count(scorer, match_id)

    response = play(scorer, match_id, {"seat": 1, "card": "1B"})

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_card"
    assert "C (clubs), D (diamonds), H (hearts) or S (spades)" in response.json()["detail"]
    assert event_count(scorer, match_id) == versions


def test_an_italian_match_still_reads_1c_as_the_ace_of_cups(scorer: APIClient) -> None:
    match_id = ApiMatchFactory.create(client=scorer)["id"]
    start_round(scorer, match_id, briscola="7D", dealer_seat=0)

    response = play(scorer, match_id, {"seat": 1, "card": "1C"})

    assert response.json()["trick"]["plays"] == [[1, "1C"]]
