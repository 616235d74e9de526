"""A tournament's matches, and publishing Swiss rounds by hand."""

from typing import Any
from uuid import UUID

import pytest
from rest_framework.test import APIClient

from tests.factories.api import API
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import match_url, post, start_round
from tests.tournaments.api.builders import (
    home_wins,
    matches,
    play_round,
    register_seeded,
    started_tournament,
    tournament_url,
    win,
)
from tournaments.projections import consumer
from tournaments.services import scheduling
from tournaments.tasks import running
from tournaments.tasks.running import SCHEDULER

MATCH_FIELDS = {
    "id",
    "key",
    "places",
    "stage",
    "round",
    "entrants",
    "entrant_names",
    "status",
    "table",
    "scheduled_at",
    "called_at",
    "deadline",
    "overdue",
    "winner",
    "winner_name",
    "decided_by",
}


def test_a_tournament_has_no_matches_before_its_start(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    register_seeded(organizer, tournament_id, 4)

    assert matches(anonymous, tournament_id) == []


def test_the_matches_of_a_started_tournament_are_scored_with_the_scorer_api(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id, (first, second, third, fourth) = started_tournament(organizer, 4)

    listed = matches(anonymous, tournament_id)

    assert [set(match) for match in listed] == [MATCH_FIELDS, MATCH_FIELDS]
    assert [(m["key"], m["stage"], m["round"]) for m in listed] == [
        ("R1-1", "main", 1),
        ("R1-2", "main", 1),
    ]
    assert [m["entrants"] for m in listed] == [[first, fourth], [second, third]]
    assert [m["entrant_names"] for m in listed] == [
        ["Player 1", "Player 4"],
        ["Player 2", "Player 3"],
    ]
    assert {m["status"] for m in listed} == {"ready"}
    assert {m["winner"] for m in listed} == {None}
    scorer_view = anonymous.get(match_url(listed[0]["id"])).json()
    assert [side["name"] for side in scorer_view["sides"]] == ["Player 1", "Player 4"]
    assert scorer_view["best_of"] == 1


def test_matches_are_filtered_by_their_status(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 4, format="round_robin")
    finished, playing, *_ = matches(organizer, tournament_id)
    win(organizer, finished, finished["entrants"][1])
    start_round(organizer, playing["id"], briscola=None)
    consumer.consume()

    by_status = {
        status: [m["key"] for m in matches(organizer, tournament_id, status=status)]
        for status in ("ready", "in_progress", "finished")
    }

    assert by_status["finished"] == [finished["key"]]
    assert by_status["in_progress"] == [playing["key"]]
    assert len(by_status["ready"]) == 4
    (played,) = matches(organizer, tournament_id, status="finished")
    assert played["winner"] == finished["entrants"][1]
    assert played["winner_name"] == played["entrant_names"][1]
    assert {m["winner_name"] for m in matches(organizer, tournament_id, status="ready")} == {None}


def test_matches_are_filtered_by_stage_and_round(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 4, format="round_robin")

    second_round = matches(organizer, tournament_id, stage="league", round=2)

    assert len(second_round) == 2
    assert {m["round"] for m in second_round} == {2}
    assert matches(organizer, tournament_id, stage="A") == []


@pytest.mark.parametrize("query", [{"status": "reset"}, {"status": "done"}, {"round": "first"}])
def test_an_unknown_filter_value_is_invalid_input(
    organizer: APIClient, query: dict[str, Any]
) -> None:
    tournament_id, _ = started_tournament(organizer, 2)

    response = organizer.get(tournament_url(tournament_id, "matches"), query)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert list(response.json()["fields"]) == list(query)


def test_a_match_replaced_after_a_corrected_result_is_not_listed(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 4)
    semi, _ = play_round(organizer, tournament_id, home_wins)
    (old_final,) = matches(organizer, tournament_id, status="ready")

    post(organizer, match_url(semi["id"], "rounds", 1, "void"), {"reason": "miscounted"})
    win(organizer, semi, semi["entrants"][1])
    consumer.consume()

    listed = matches(organizer, tournament_id)
    assert old_final["id"] not in {m["id"] for m in listed}
    (new_final,) = [m for m in listed if m["key"] == "R2-1"]
    assert semi["entrants"][1] in new_final["entrants"]


SWISS = {"format": "swiss", "swiss_rounds": 2, "automatic_rounds": False}


def test_the_next_swiss_round_is_published_once_the_current_one_is_played(
    organizer: APIClient,
) -> None:
    tournament_id, _ = started_tournament(organizer, 5, **SWISS)
    play_round(organizer, tournament_id, home_wins)
    assert matches(organizer, tournament_id, status="ready") == []

    response = post(organizer, tournament_url(tournament_id, "next-round"))

    assert response.status_code == 201
    body = response.json()
    assert body["round"] == 2
    assert isinstance(body["bye"], int)
    assert len(body["matches"]) == 2
    assert {(m["stage"], m["round"], m["status"]) for m in body["matches"]} == {
        ("swiss", 2, "ready")
    }
    assert body["matches"] == matches(organizer, tournament_id, round=2)


def test_the_next_swiss_round_is_not_due_while_the_current_one_is_played(
    organizer: APIClient,
) -> None:
    tournament_id, _ = started_tournament(organizer, 4, **SWISS)

    response = post(organizer, tournament_url(tournament_id, "next-round"))

    assert response.status_code == 409
    assert response.json()["code"] == "swiss_round_not_due"


def test_no_swiss_round_is_due_after_the_last_one(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 4, **SWISS)
    play_round(organizer, tournament_id, home_wins)
    post(organizer, tournament_url(tournament_id, "next-round"))
    play_round(organizer, tournament_id, home_wins)

    response = post(organizer, tournament_url(tournament_id, "next-round"))

    assert response.status_code == 409
    assert response.json()["code"] == "swiss_round_not_due"
    assert organizer.get(tournament_url(tournament_id)).json()["status"] == "finished"


def test_a_tournament_that_is_not_swiss_has_no_round_to_publish(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 4, format="round_robin")

    response = post(organizer, tournament_url(tournament_id, "next-round"))

    assert response.status_code == 409
    assert response.json()["code"] == "swiss_round_not_due"


def test_a_round_cannot_be_published_before_the_start(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, **SWISS)["id"]
    register_seeded(organizer, tournament_id, 4)

    response = post(organizer, tournament_url(tournament_id, "next-round"))

    assert response.status_code == 409
    assert response.json()["code"] == "tournament_not_started"


def test_a_match_past_its_no_show_deadline_with_both_sides_absent_is_listed_as_overdue(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id, _ = started_tournament(organizer, 2, no_show_minutes=0)
    assert matches(anonymous, tournament_id)[0]["overdue"] is False  # no table, no deadline yet
    scheduling.fixture_schedule(tournament_id=UUID(tournament_id), actor=SCHEDULER)
    (scheduled,) = matches(anonymous, tournament_id)
    assert (scheduled["called_at"], scheduled["deadline"], scheduled["overdue"]) == (
        None,
        None,
        False,
    )  # a table, not called yet
    call = post(organizer, tournament_url(tournament_id, "matches", scheduled["id"], "call"))
    assert call.status_code == 201, call.json()

    running.catch_up_all()

    (final,) = matches(anonymous, tournament_id)
    assert (final["status"], final["overdue"]) == ("ready", True)
    assert final["called_at"] is not None
    assert final["deadline"] == final["called_at"]


def test_with_the_no_show_rule_off_no_match_is_ever_overdue(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id, _ = started_tournament(organizer, 2)
    scheduling.fixture_schedule(tournament_id=UUID(tournament_id), actor=SCHEDULER)

    (final,) = matches(anonymous, tournament_id)
    assert (final["table"], final["deadline"], final["overdue"]) == (1, None, False)


def test_the_no_show_rule_is_set_at_creation_and_refuses_negative_minutes(
    organizer: APIClient,
) -> None:
    assert (
        ApiTournamentFactory.create(client=organizer, no_show_minutes=15)["no_show_minutes"] == 15
    )
    assert (
        ApiTournamentFactory.create(client=organizer, no_show_minutes=None)["no_show_minutes"]
        is None
    )
    body = ApiTournamentFactory.build(no_show_minutes=-1)
    refused = post(organizer, f"{API}/tournaments/", body)
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_input")


def pages_of(client: APIClient, tournament_id: str, **query: Any) -> list[list[str]]:
    """The keys of the matches on each page, following `next_after` to the last page."""
    pages = []
    after: dict[str, str] = {}
    while True:
        response = client.get(tournament_url(tournament_id, "matches"), {**query, **after})
        assert response.status_code == 200, response.json()
        page = response.json()
        pages.append([m["key"] for m in page["matches"]])
        if page["next_after"] is None:
            return pages
        after = {"after": page["next_after"]}


def test_the_pages_of_the_match_list_follow_each_other_without_gaps_or_repeats(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id, _ = started_tournament(organizer, 6, format="round_robin")
    whole = anonymous.get(tournament_url(tournament_id, "matches"), {"limit": 500}).json()

    pages = pages_of(anonymous, tournament_id, limit=4)

    assert whole["next_after"] is None
    assert len(whole["matches"]) == 15
    assert [len(page) for page in pages] == [4, 4, 4, 3]
    assert [key for page in pages for key in page] == [m["key"] for m in whole["matches"]]


def test_the_pages_of_a_filtered_match_list_keep_the_filters(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 6, format="round_robin")
    first, *_ = matches(organizer, tournament_id, round=1)
    win(organizer, first, first["entrants"][0])
    consumer.consume()
    wanted = [
        m["key"]
        for m in matches(organizer, tournament_id, limit=500)
        if m["status"] == "ready" and m["round"] in (2, 3, 4, 5)
    ]

    pages = [
        pages_of(organizer, tournament_id, status="ready", round=n, limit=1) for n in (2, 3, 4, 5)
    ]
    ready_pages = pages_of(organizer, tournament_id, status="ready", limit=2)
    ready = [key for page in ready_pages for key in page]

    assert [key for by_round in pages for page in by_round for key in page] == wanted
    assert all(len(page) == 1 for by_round in pages for page in by_round)
    assert first["key"] not in ready
    assert len(ready) == len(set(ready)) == 14


def test_the_last_page_of_the_match_list_has_no_next_after(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 4)

    page = organizer.get(tournament_url(tournament_id, "matches"), {"limit": 2}).json()

    assert len(page["matches"]) == 2
    assert page["next_after"] is None


@pytest.mark.parametrize("limit", ["0", "501", ""])
def test_a_match_list_limit_out_of_bounds_is_invalid_input(
    organizer: APIClient, limit: str
) -> None:
    tournament_id, _ = started_tournament(organizer, 2)

    response = organizer.get(tournament_url(tournament_id, "matches"), {"limit": limit})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert list(response.json()["fields"]) == ["limit"]


@pytest.mark.parametrize(
    "after",
    [
        "nonsense",
        "WyJ4Il0",  # ["x"]
        "WyIyMDI2LTAxLTAxVDAwOjAwOjAwKzAwOjAwIiwiYSJd",  # a cursor of the tournament list
    ],
)
def test_a_match_list_cursor_it_did_not_give_is_invalid_input(
    organizer: APIClient, after: str
) -> None:
    tournament_id, _ = started_tournament(organizer, 2)

    response = organizer.get(tournament_url(tournament_id, "matches"), {"after": after})

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert list(response.json()["fields"]) == ["after"]
