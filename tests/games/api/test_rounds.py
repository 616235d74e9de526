import pytest
from rest_framework.test import APIClient

from tests.factories.matches import ApiMatchFactory
from tests.games.api.builders import (
    created,
    event_count,
    legal_round,
    match_url,
    play_body,
    play_cards,
    post,
    round_url,
    score_round,
    start_round,
)


def test_starting_a_round_answers_201_with_the_round_and_the_version(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    response = post(scorer, match_url(match["id"], "rounds"), {"briscola": "7D", "dealer_seat": 1})

    assert response.status_code == 201
    assert response.json() == {
        "number": 1,
        "status": "in_progress",
        "dealer_seat": 1,
        "leader_seat": 0,
        "briscola": "7D",
        "points": [],
        "result": None,
        "replay_of": None,
        "plays": 0,
        "points_entered": False,
        "void_reason": "",
        "ruling": None,
        "corrections": [],
        "deal": "table",
        "hands": None,
        "version": 2,
    }


def test_the_dealer_is_by_default_the_seat_after_the_previous_dealer(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    score_round(scorer, match["id"], 70, 50)

    second = start_round(scorer, match["id"])

    assert second["dealer_seat"] == 1


def test_a_round_without_a_briscola_is_started_for_entering_its_points(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer)

    started = start_round(scorer, match["id"], briscola=None)

    assert started["briscola"] is None


def test_the_briscola_must_be_named_even_when_it_is_null(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    response = post(scorer, match_url(match["id"], "rounds"), {"dealer_seat": 0})

    assert response.status_code == 400
    assert "briscola" in response.json()["fields"]


def test_a_round_cannot_start_while_another_is_in_progress(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"])

    response = post(scorer, match_url(match["id"], "rounds"), {"briscola": "1C"})

    assert (response.status_code, response.json()["code"]) == (409, "round_in_progress")


def test_no_round_starts_once_the_match_is_won(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)
    score_round(scorer, match["id"], 70, 50)

    response = post(scorer, match_url(match["id"], "rounds"), {"briscola": "1C"})

    assert (response.status_code, response.json()["code"]) == (409, "match_finished")


def test_a_round_in_a_match_that_does_not_exist_is_404(scorer: APIClient) -> None:
    response = post(
        scorer, match_url("00000000-0000-4000-8000-000000000000", "rounds"), {"briscola": "1C"}
    )

    assert (response.status_code, response.json()["code"]) == (404, "match_not_found")


def test_an_unreadable_briscola_is_422_invalid_card(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    response = post(scorer, match_url(match["id"], "rounds"), {"briscola": "13D"})

    assert (response.status_code, response.json()["code"]) == (422, "invalid_card")


def test_a_briscola_outside_the_tables_deck_is_422_card_not_in_deck(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, table_size=6)

    response = post(scorer, match_url(match["id"], "rounds"), {"briscola": "2D"})

    assert (response.status_code, response.json()["code"]) == (422, "card_not_in_deck")


def test_a_dealer_seat_that_does_not_exist_is_422_invalid_seat(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)

    response = post(scorer, match_url(match["id"], "rounds"), {"briscola": "1C", "dealer_seat": 2})

    assert (response.status_code, response.json()["code"]) == (422, "invalid_seat")


def test_a_round_can_be_read_on_its_own(scorer: APIClient, anonymous: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    started = start_round(scorer, match["id"])

    response = anonymous.get(round_url(match["id"], 1))

    assert response.status_code == 200
    assert response.json() == {k: v for k, v in started.items() if k != "version"}


def test_a_round_that_does_not_exist_is_404_round_not_found(
    scorer: APIClient, anonymous: APIClient
) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"])

    for number in (2, 0, 10**20):
        response = anonymous.get(round_url(match["id"], number))
        assert (response.status_code, response.json()["code"]) == (404, "round_not_found")


def test_entering_a_rounds_points_finishes_it_with_its_result(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], briscola=None)

    response = post(scorer, round_url(match["id"], 1, "score"), {"points": [50, 70]})

    scored = response.json()
    assert response.status_code == 201
    assert scored["status"] == "finished"
    assert (scored["points"], scored["result"], scored["points_entered"]) == (
        [50, 70],
        "side1",
        True,
    )
    assert scored["version"] == 3
    assert scorer.get(match_url(match["id"])).json()["round_wins"] == [0, 1]


def test_a_tied_round_entered_by_points_is_replayed_by_the_next_round(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer, best_of=1)

    tied = score_round(scorer, match["id"], 60, 60)
    after_tie = scorer.get(match_url(match["id"])).json()
    replay = score_round(scorer, match["id"], 70, 50)

    assert tied["result"] == "tie"
    assert (after_tie["status"], after_tie["round_wins"]) == ("in_progress", [0, 0])
    assert (replay["number"], replay["replay_of"], replay["result"]) == (2, 1, "side0")
    standing = scorer.get(match_url(match["id"])).json()
    assert (standing["status"], standing["winner"], standing["round_wins"]) == (
        "finished",
        "side0",
        [1, 0],
    )
    assert [(r["number"], r["result"], r["replay_of"]) for r in standing["rounds"]] == [
        (1, "tie", None),
        (2, "side0", 1),
    ]


def test_points_that_do_not_total_120_are_422(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], briscola=None)

    response = post(scorer, round_url(match["id"], 1, "score"), {"points": [70, 70]})

    assert (response.status_code, response.json()["code"]) == (422, "points_must_total_120")


def test_points_for_a_round_whose_cards_were_entered_are_422_cards_already_entered(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer)
    briscola, plays = legal_round(dealer=0)
    start_round(scorer, match["id"], briscola=briscola, dealer_seat=0)
    play_cards(scorer, match["id"], 1, plays[:1])

    response = post(scorer, round_url(match["id"], 1, "score"), {"points": [70, 50]})

    assert (response.status_code, response.json()["code"]) == (422, "cards_already_entered")


def test_points_entered_twice_are_409_points_already_entered(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    score_round(scorer, match["id"], 70, 50)

    response = post(scorer, round_url(match["id"], 1, "score"), {"points": [50, 70]})

    assert (response.status_code, response.json()["code"]) == (409, "points_already_entered")


def test_undo_takes_back_the_last_card_and_answers_with_the_round(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    briscola, plays = legal_round(dealer=0)
    start_round(scorer, match["id"], briscola=briscola, dealer_seat=0)
    play_cards(scorer, match["id"], 1, plays[:2])

    response = post(scorer, round_url(match["id"], 1, "undo"))

    assert response.status_code == 201
    assert (response.json()["plays"], response.json()["version"]) == (1, 5)
    again = post(scorer, round_url(match["id"], 1, "plays"), play_body(plays[1]))
    assert again.status_code == 201


def test_undo_with_no_card_played_is_422_nothing_to_undo(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"])

    response = post(scorer, round_url(match["id"], 1, "undo"))

    assert (response.status_code, response.json()["code"]) == (422, "nothing_to_undo")


def test_undo_in_an_earlier_round_is_409_round_not_latest(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    score_round(scorer, match["id"], 70, 50)
    start_round(scorer, match["id"])

    response = post(scorer, round_url(match["id"], 1, "undo"))

    assert (response.status_code, response.json()["code"]) == (409, "round_not_latest")


def test_a_voided_round_keeps_its_reason_and_is_dealt_again(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], dealer_seat=0)

    response = post(scorer, round_url(match["id"], 1, "void"), {"reason": "misdeal"})
    next_round = start_round(scorer, match["id"])

    voided = response.json()
    assert response.status_code == 201
    assert (voided["status"], voided["void_reason"], voided["result"]) == (
        "voided",
        "misdeal",
        None,
    )
    assert (next_round["number"], next_round["dealer_seat"]) == (2, 0)


def test_a_round_is_voided_only_once(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"])
    post(scorer, round_url(match["id"], 1, "void"), {"reason": "misdeal"})

    response = post(scorer, round_url(match["id"], 1, "void"), {"reason": "misdeal"})

    assert (response.status_code, response.json()["code"]) == (409, "round_voided")


def test_no_card_is_played_in_a_voided_round(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    briscola, plays = legal_round(dealer=0)
    start_round(scorer, match["id"], briscola=briscola, dealer_seat=0)
    post(scorer, round_url(match["id"], 1, "void"), {"reason": "misdeal"})

    response = post(scorer, round_url(match["id"], 1, "plays"), play_body(plays[0]))

    assert (response.status_code, response.json()["code"]) == (409, "round_voided")


def test_a_void_needs_a_reason(scorer: APIClient) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"])

    response = post(scorer, round_url(match["id"], 1, "void"), {"reason": ""})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert "reason" in response.json()["fields"]


def test_a_retried_round_start_with_its_idempotency_key_answers_200_with_the_first_round(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer)
    body = {"briscola": "7D"}
    first = post(scorer, match_url(match["id"], "rounds"), body, HTTP_IDEMPOTENCY_KEY="r1")

    retry = post(scorer, match_url(match["id"], "rounds"), body, HTTP_IDEMPOTENCY_KEY="r1")

    assert (first.status_code, retry.status_code) == (201, 200)
    assert retry.json() == first.json()


def test_retried_points_with_their_idempotency_key_answer_200_and_record_nothing(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer)
    start_round(scorer, match["id"], briscola=None)
    url, body = round_url(match["id"], 1, "score"), {"points": [70, 50]}
    first = post(scorer, url, body, HTTP_IDEMPOTENCY_KEY="score-1")

    retry = post(scorer, url, body, HTTP_IDEMPOTENCY_KEY="score-1")

    assert (first.status_code, retry.status_code) == (201, 200)
    assert retry.json() == first.json()
    assert event_count(scorer, match["id"]) == 3


def test_a_points_only_round_starts_without_naming_a_briscola_and_takes_its_points(
    scorer: APIClient,
) -> None:
    match = ApiMatchFactory.create(client=scorer)

    started = created(post(scorer, match_url(match["id"], "rounds"), {"points_only": True}))
    scored = post(scorer, round_url(match["id"], 1, "score"), {"points": [70, 50]})

    assert (started["briscola"], started["status"]) == (None, "in_progress")
    assert (scored.status_code, scored.json()["result"]) == (201, "side0")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"points_only": True, "briscola": "7D"}, "briscola"),
        ({"points_only": True, "deal": "server"}, "deal"),
    ],
)
def test_a_points_only_round_names_no_briscola_and_is_not_dealt_by_the_server(
    scorer: APIClient, body: dict[str, object], field: str
) -> None:
    match = ApiMatchFactory.create(client=scorer)

    response = post(scorer, match_url(match["id"], "rounds"), body)

    assert response.status_code == 400
    assert field in response.json()["fields"]
    assert scorer.get(match_url(match["id"])).json()["rounds"] == []
