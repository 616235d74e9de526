"""The check-in window, starting with the checked-in entrants only, and calling a match to its
table, through the API (issue 11 §4)."""

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from common.actors import Actor
from games.eventstore.api import read_stream
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import post
from tests.tournaments.api.builders import (
    entrant_url,
    matches,
    register_seeded,
    started_tournament,
    tournament_url,
)
from tournaments.services import scheduling

pytestmark = pytest.mark.django_db


def check_in(client: APIClient, tournament_id: str, entrant_id: int) -> Any:
    return post(client, entrant_url(tournament_id, entrant_id, "check-in"), None)


def event_types(tournament_id: str) -> list[str]:
    return [event.event_type for event in read_stream(stream_id=UUID(tournament_id))]


def test_a_tournament_that_never_opened_check_in_takes_check_ins_and_says_it_is_open(
    organizer: APIClient, anonymous: APIClient
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    first, _ = register_seeded(organizer, tournament_id, 2)

    window = anonymous.get(tournament_url(tournament_id, "check-in")).json()
    checked = check_in(organizer, tournament_id, first)

    assert window == {"open": True, "opened_at": None, "closes_at": None, "closed_at": None}
    assert checked.status_code == 201
    assert checked.json()["checked_in"] is True


def test_a_closed_check_in_refuses_check_ins_with_check_in_closed_until_it_opens_again(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    first, second = register_seeded(organizer, tournament_id, 2)
    opened = post(organizer, tournament_url(tournament_id, "check-in", "open"), None)
    check_in(organizer, tournament_id, first)

    closed = post(organizer, tournament_url(tournament_id, "check-in", "close"), None)
    refused = check_in(organizer, tournament_id, second)
    reopened = post(organizer, tournament_url(tournament_id, "check-in", "open"), None)
    accepted = check_in(organizer, tournament_id, second)

    assert (reopened.status_code, reopened.json()["open"]) == (201, True)
    assert (opened.status_code, opened.json()["open"]) == (201, True)
    assert (closed.status_code, closed.json()["open"]) == (201, False)
    assert refused.status_code == 422
    assert refused.json()["code"] == "check_in_closed"
    assert accepted.status_code == 201
    assert event_types(tournament_id).count("EntrantCheckedIn") == 2


def test_a_check_in_window_closes_by_itself_at_its_time(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    first, _ = register_seeded(organizer, tournament_id, 2)
    soon = timezone.now() + timedelta(minutes=30)
    post(
        organizer,
        tournament_url(tournament_id, "check-in", "open"),
        {"closes_at": soon.isoformat()},
    )
    past = timezone.now() - timedelta(minutes=1)

    in_the_past = post(
        organizer,
        tournament_url(tournament_id, "check-in", "open"),
        {"closes_at": past.isoformat()},
    )
    window = organizer.get(tournament_url(tournament_id, "check-in")).json()

    assert in_the_past.status_code == 422
    assert in_the_past.json()["code"] == "invalid_tournament"
    assert window["open"] is True
    assert window["closes_at"] is not None
    assert check_in(organizer, tournament_id, first).status_code == 201


def test_starting_with_the_checked_in_only_withdraws_the_others_and_pairs_the_rest(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, format="round_robin")["id"]
    entrants = register_seeded(organizer, tournament_id, 4)
    for entrant in entrants[:3]:
        check_in(organizer, tournament_id, entrant)

    started = post(organizer, tournament_url(tournament_id, "start"), {"only_checked_in": True})

    assert started.status_code == 201
    by_id = {entrant["id"]: entrant for entrant in started.json()["entrants"]}
    assert by_id[entrants[3]]["withdrawn"] is True
    assert not any(by_id[e]["withdrawn"] for e in entrants[:3])
    paired = {e for match in matches(organizer, tournament_id) for e in match["entrants"]}
    assert paired == set(entrants[:3])
    withdrawal = next(
        e for e in read_stream(stream_id=UUID(tournament_id)) if e.event_type == "EntrantWithdrew"
    )
    assert withdrawal.payload == {"entrant": entrants[3], "reason": "did not check in"}


def test_starting_with_the_checked_in_only_needs_two_of_them(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    first, _ = register_seeded(organizer, tournament_id, 2)
    check_in(organizer, tournament_id, first)

    refused = post(organizer, tournament_url(tournament_id, "start"), {"only_checked_in": True})

    assert refused.status_code == 422
    assert refused.json()["code"] == "too_few_entrants"
    assert "TournamentStarted" not in event_types(tournament_id)


def test_calling_a_match_to_a_table_starts_its_no_show_clock(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 2, tables=2, no_show_minutes=10)
    [match] = matches(organizer, tournament_id)
    assert (match["called_at"], match["deadline"]) == (None, None)

    called = post(
        organizer, tournament_url(tournament_id, "matches", match["id"], "call"), {"table": 2}
    )
    again = post(organizer, tournament_url(tournament_id, "matches", match["id"], "call"), None)

    assert called.status_code == 201
    body = called.json()
    assert body["table"] == 2
    assert body["called_at"] is not None
    deadline = datetime.fromisoformat(body["deadline"])
    assert deadline - datetime.fromisoformat(body["called_at"]) == timedelta(minutes=10)
    assert again.status_code == 201
    assert event_types(tournament_id).count("MatchCalled") == 1


def test_a_match_without_a_table_cannot_be_called(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 2)
    [match] = matches(organizer, tournament_id)

    refused = post(organizer, tournament_url(tournament_id, "matches", match["id"], "call"), None)

    assert refused.status_code == 422
    assert refused.json()["code"] == "invalid_tournament"
    assert "MatchCalled" not in event_types(tournament_id)


def test_a_match_is_called_by_itself_when_both_sides_have_checked_in_at_its_table(
    organizer: APIClient,
) -> None:
    tournament_id, _ = started_tournament(organizer, 2, no_show_minutes=5)
    [match] = matches(organizer, tournament_id)
    scheduling.fixture_table_assign(match_id=match["id"], table=1, actor=Actor())
    first, second = match["entrants"]
    check_in(organizer, tournament_id, first)
    assert matches(organizer, tournament_id)[0]["called_at"] is None

    check_in(organizer, tournament_id, second)

    called = [
        e for e in read_stream(stream_id=UUID(tournament_id)) if e.event_type == "MatchCalled"
    ]
    assert [e.payload["by"] for e in called] == ["check-in"]
    [after] = matches(organizer, tournament_id)
    assert after["called_at"] is not None
    assert after["deadline"] is not None
