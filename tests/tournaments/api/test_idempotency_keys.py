"""Tournament writes retried with their `Idempotency-Key` (decision record 0020)."""

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.eventstore.api import last_position
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import created, post
from tests.tournaments.api.builders import (
    entrant_url,
    home_wins,
    play_round,
    register,
    register_seeded,
    started_tournament,
    tournament_url,
)
from tournaments.models import Entrant, EntrantPlayer, Fixture, Player

KEY = "retry-1"


def row_counts() -> tuple[int, int, int, int]:
    return (
        Entrant.objects.count(),
        Player.objects.count(),
        EntrantPlayer.objects.count(),
        Fixture.objects.count(),
    )


def with_key(client: APIClient, url: str, body: Any = None, key: str = KEY) -> Any:
    return post(client, url, body, HTTP_IDEMPOTENCY_KEY=key)


# Each write: (url and body of the command, url and body of another command) in a fresh world.
Command = tuple[str, Any, str, Any]


def registration(client: APIClient) -> Command:
    tournament_id = ApiTournamentFactory.create(client=client)["id"]
    url = tournament_url(tournament_id, "entrants")
    return (
        url,
        {"name": "Rossi", "players": ["Rossi"]},
        url,
        {"name": "Verdi", "players": ["Verdi"]},
    )


def bulk_registration(client: APIClient) -> Command:
    tournament_id = ApiTournamentFactory.create(client=client)["id"]
    url = tournament_url(tournament_id, "entrants", "bulk")
    return (
        url,
        {"entrants": [{"name": "Rossi"}, {"name": "Bianchi", "seed": 1}]},
        url,
        {"entrants": [{"name": "Verdi"}]},
    )


def check_in(client: APIClient) -> Command:
    tournament_id = ApiTournamentFactory.create(client=client)["id"]
    first, second = register_seeded(client, tournament_id, 2)
    return (
        entrant_url(tournament_id, first, "check-in"),
        None,
        entrant_url(tournament_id, second, "check-in"),
        None,
    )


def withdrawal(client: APIClient) -> Command:
    tournament_id = ApiTournamentFactory.create(client=client)["id"]
    first, _second = register_seeded(client, tournament_id, 2)
    url = entrant_url(tournament_id, first, "withdraw")
    return url, {"reason": "ill"}, url, {"reason": "left early"}


def seeding(client: APIClient) -> Command:
    tournament_id = ApiTournamentFactory.create(client=client)["id"]
    register_seeded(client, tournament_id, 4)
    url = tournament_url(tournament_id, "seed")
    return url, {"method": "random", "random_seed": 4}, url, {"method": "random", "random_seed": 5}


def start(client: APIClient) -> Command:
    tournament_id = ApiTournamentFactory.create(client=client)["id"]
    first, _second = register_seeded(client, tournament_id, 2)
    return (
        tournament_url(tournament_id, "start"),
        None,
        entrant_url(tournament_id, first, "check-in"),
        None,
    )


def next_round(client: APIClient) -> Command:
    tournament_id, _entrants = started_tournament(
        client, 4, format="swiss", swiss_rounds=2, automatic_rounds=False
    )
    play_round(client, tournament_id, home_wins)
    return (
        tournament_url(tournament_id, "next-round"),
        None,
        tournament_url(tournament_id, "seed"),
        {},
    )


WRITES: dict[str, Callable[[APIClient], Command]] = {
    "register": registration,
    "register-bulk": bulk_registration,
    "check-in": check_in,
    "withdraw": withdrawal,
    "seed": seeding,
    "start": start,
    "next-round": next_round,
}


@pytest.mark.parametrize("make", WRITES.values(), ids=WRITES.keys())
def test_a_write_retried_with_its_key_answers_200_with_the_first_answer_and_records_nothing(
    organizer: APIClient, make: Callable[[APIClient], Command]
) -> None:
    url, body, _other_url, _other_body = make(organizer)
    first = with_key(organizer, url, body)
    events, rows = last_position(), row_counts()

    retry = with_key(organizer, url, body)

    assert (first.status_code, retry.status_code) == (201, 200)
    assert retry.json() == first.json()
    assert (last_position(), row_counts()) == (events, rows)


@pytest.mark.parametrize("make", WRITES.values(), ids=WRITES.keys())
def test_another_command_with_a_used_key_is_422_idempotency_key_reused_and_records_nothing(
    organizer: APIClient, make: Callable[[APIClient], Command]
) -> None:
    url, body, other_url, other_body = make(organizer)
    created(with_key(organizer, url, body))
    events, rows = last_position(), row_counts()

    response = with_key(organizer, other_url, other_body)

    assert (response.status_code, response.json()["code"]) == (422, "idempotency_key_reused")
    assert (last_position(), row_counts()) == (events, rows)


@pytest.mark.parametrize("key", ["", "k" * 129, "tab\there", "line\nbreak"])
@pytest.mark.parametrize("make", WRITES.values(), ids=WRITES.keys())
def test_an_invalid_key_is_400_and_records_nothing(
    organizer: APIClient, make: Callable[[APIClient], Command], key: str
) -> None:
    url, body, _other_url, _other_body = make(organizer)
    events, rows = last_position(), row_counts()

    response = with_key(organizer, url, body, key=key)

    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["fields"]
    assert (last_position(), row_counts()) == (events, rows)


def test_a_retried_registration_answers_the_entrant_as_first_registered_after_it_checked_in(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    body = {"name": "Rossi", "players": ["Rossi"], "seed": 2}
    first = created(with_key(organizer, tournament_url(tournament_id, "entrants"), body))
    created(post(organizer, entrant_url(tournament_id, first["id"], "check-in")))

    retry = with_key(organizer, tournament_url(tournament_id, "entrants"), body)

    assert retry.status_code == 200
    assert retry.json() == first


def test_a_retried_start_answers_the_tournament_as_the_start_left_it(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    entrants = register_seeded(organizer, tournament_id, 4)
    first = created(with_key(organizer, tournament_url(tournament_id, "start")))
    created(post(organizer, entrant_url(tournament_id, entrants[0], "check-in")))

    retry = with_key(organizer, tournament_url(tournament_id, "start"))

    assert retry.status_code == 200
    assert retry.json() == first
    assert first["status"] == "in_progress"


def test_the_same_key_on_another_tournament_is_another_command(organizer: APIClient) -> None:
    first_id = ApiTournamentFactory.create(client=organizer)["id"]
    second_id = ApiTournamentFactory.create(client=organizer)["id"]
    body = {"name": "Rossi", "players": ["Rossi"]}

    answers = [
        with_key(organizer, tournament_url(tournament_id, "entrants"), body)
        for tournament_id in (first_id, second_id)
    ]

    assert [answer.status_code for answer in answers] == [201, 201]


def test_without_a_key_a_retried_registration_is_caught_only_as_a_duplicate_name(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    url = tournament_url(tournament_id, "entrants")
    body = {"name": "Rossi", "players": ["Rossi"]}
    first = register(organizer, tournament_id, "Rossi")

    retry = post(organizer, url, body)
    confirmed = created(post(organizer, url, {**body, "confirm_duplicate_name": True}))

    assert (retry.status_code, retry.json()["code"]) == (422, "duplicate_entrant_name")
    assert first["id"] != confirmed["id"]


@pytest.mark.django_db(transaction=True)
def test_a_registration_retried_concurrently_registers_once(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    url = tournament_url(tournament_id, "entrants")
    body = {"name": "Rossi", "players": ["Rossi"]}
    barrier = threading.Barrier(2)
    answers: list[Any] = []

    def send() -> None:
        try:
            barrier.wait()
            answers.append(with_key(organizer, url, body))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answer.status_code for answer in answers) == [200, 201]
    assert answers[0].json() == answers[1].json()
    assert Entrant.objects.filter(tournament_id=tournament_id).count() == 1
    assert (Player.objects.count(), EntrantPlayer.objects.count()) == (1, 1)
