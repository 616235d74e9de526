"""Registering, checking in and withdrawing entrants."""

from typing import Any
from uuid import UUID

import pytest
from rest_framework.test import APIClient

from games.eventstore.api import read_stream
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import post
from tests.tournaments.api.builders import (
    entrant_url,
    matches,
    register,
    register_seeded,
    started_tournament,
    tournament_url,
)


def test_a_registered_entrant_is_answered_with_its_id_and_seed(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    response = post(
        organizer,
        tournament_url(tournament_id, "entrants"),
        {"name": "Rossi", "players": ["Rossi"], "seed": 3},
    )

    assert response.status_code == 201
    body = response.json()
    assert isinstance(body["id"], int)
    assert body["seed"] == 3
    assert (body["name"], body["players"]) == ("Rossi", ["Rossi"])
    assert (body["checked_in"], body["withdrawn"]) == (False, False)


@pytest.mark.parametrize("table_size", [2, 3])
def test_a_single_registered_without_players_plays_under_its_own_name(
    organizer: APIClient, table_size: int
) -> None:
    tournament_id = ApiTournamentFactory.create(
        client=organizer, table_size=table_size, format="round_robin"
    )["id"]

    response = post(organizer, tournament_url(tournament_id, "entrants"), {"name": "Rossi"})

    assert response.status_code == 201
    assert response.json()["players"] == ["Rossi"]


@pytest.mark.parametrize(("table_size", "needed"), [(4, 2), (6, 3)])
def test_a_pair_or_trio_registered_without_players_is_refused_and_asked_for_them(
    organizer: APIClient, table_size: int, needed: int
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, table_size=table_size)["id"]

    response = post(organizer, tournament_url(tournament_id, "entrants"), {"name": "I Leoni"})

    assert response.status_code == 422
    assert response.json()["code"] == "players_required"
    assert f"give the names of its {needed} players" in response.json()["detail"]
    assert organizer.get(tournament_url(tournament_id)).json()["entrants"] == []


def test_an_entrant_needs_no_seed(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    assert register(organizer, tournament_id, "Rossi")["seed"] is None


@pytest.mark.parametrize(
    ("table_size", "players"),
    [(2, ["Rossi"]), (4, ["Rossi", "Bianchi"]), (6, ["Rossi", "Bianchi", "Verdi"])],
)
def test_an_entrant_has_one_player_per_seat_of_its_side(
    organizer: APIClient, table_size: int, players: list[str]
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, table_size=table_size)["id"]

    entrant = register(organizer, tournament_id, "Circolo Nord", players)

    assert entrant["players"] == players


@pytest.mark.parametrize(
    ("table_size", "players"),
    [(2, ["Rossi", "Bianchi"]), (4, ["Rossi"]), (6, ["Rossi", "Bianchi"]), (2, [])],
)
def test_a_player_count_that_does_not_fit_the_table_is_invalid_entrant(
    organizer: APIClient, table_size: int, players: list[str]
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, table_size=table_size)["id"]

    response = post(
        organizer, tournament_url(tournament_id, "entrants"), {"name": "Team", "players": players}
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_entrant"


def test_a_seed_below_one_is_invalid_entrant(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    response = post(
        organizer,
        tournament_url(tournament_id, "entrants"),
        {"name": "Rossi", "players": ["Rossi"], "seed": 0},
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_entrant"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["Rossi"]}, "name"),
        ({"name": "Rossi", "players": None}, "players"),
        ({"name": "Rossi", "players": "Rossi"}, "players"),
        ({"name": "Rossi", "players": ["Rossi"], "seed": "first"}, "seed"),
    ],
)
def test_a_malformed_registration_is_invalid_input_naming_the_field(
    organizer: APIClient, body: dict[str, Any], field: str
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    response = post(organizer, tournament_url(tournament_id, "entrants"), body)

    assert response.status_code == 400
    assert list(response.json()["fields"]) == [field]


def test_registering_after_the_start_is_registration_closed(organizer: APIClient) -> None:
    tournament_id, _ = started_tournament(organizer, 2)

    response = post(
        organizer, tournament_url(tournament_id, "entrants"), {"name": "Late", "players": ["Late"]}
    )

    assert response.status_code == 409
    assert response.json()["code"] == "registration_closed"


def test_checking_in_is_recorded_once_and_answered_200_when_repeated(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    entrant_id = register(organizer, tournament_id, "Rossi")["id"]
    url = entrant_url(tournament_id, entrant_id, "check-in")

    first = post(organizer, url)
    again = post(organizer, url)

    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["checked_in"] is True
    assert again.json() == first.json()
    check_ins = [
        e for e in read_stream(stream_id=UUID(tournament_id)) if e.event_type == "EntrantCheckedIn"
    ]
    assert len(check_ins) == 1


def test_withdrawing_records_the_reason_and_is_answered_200_when_repeated(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    entrant_id = register(organizer, tournament_id, "Rossi")["id"]
    url = entrant_url(tournament_id, entrant_id, "withdraw")

    first = post(organizer, url, {"reason": "ill"})
    again = post(organizer, url, {"reason": "ill"})

    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["withdrawn"] is True
    (withdrew,) = [
        e for e in read_stream(stream_id=UUID(tournament_id)) if e.event_type == "EntrantWithdrew"
    ]
    assert withdrew.payload["reason"] == "ill"
    assert withdrew.metadata.reason == "ill"


def test_an_entrant_may_withdraw_without_a_reason(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    entrant_id = register(organizer, tournament_id, "Rossi")["id"]

    response = post(organizer, entrant_url(tournament_id, entrant_id, "withdraw"))

    assert response.status_code == 201


def test_an_entrant_withdrawn_before_the_start_is_not_drawn(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    first, leaving, third = register_seeded(organizer, tournament_id, 3)
    post(organizer, entrant_url(tournament_id, leaving, "withdraw"), {"reason": "ill"})

    post(organizer, tournament_url(tournament_id, "start"))

    (final,) = matches(organizer, tournament_id)
    assert final["entrants"] == [first, third]


def test_withdrawing_after_the_start_forfeits_the_entrants_matches(organizer: APIClient) -> None:
    tournament_id, (_, second) = started_tournament(organizer, 2)
    (final,) = matches(organizer, tournament_id)

    post(organizer, entrant_url(tournament_id, second, "withdraw"), {"reason": "train"})

    match = organizer.get(f"/api/v1/matches/{final['id']}/").json()
    assert (match["status"], match["forfeited_by"]) == ("finished", "side1")


@pytest.mark.parametrize("action", ["check-in", "withdraw"])
def test_an_entrant_of_another_tournament_is_entrant_not_found(
    organizer: APIClient, action: str
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    other_id = ApiTournamentFactory.create(client=organizer)["id"]
    entrant_id = register(organizer, other_id, "Rossi")["id"]

    response = post(organizer, entrant_url(tournament_id, entrant_id, action))

    assert response.status_code == 404
    assert response.json()["code"] == "entrant_not_found"
