"""Registering a list of entrants at once: `POST .../entrants/bulk/`, all of them or none."""

from rest_framework.test import APIClient

from games.eventstore.api import read_stream
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import post
from tests.tournaments.api.builders import register, tournament_url
from tournaments.models import Entrant


def bulk_url(tournament_id: str) -> str:
    return tournament_url(tournament_id, "entrants", "bulk")


def test_a_list_of_entrants_is_registered_in_one_command_and_answered_in_its_order(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    body = {
        "entrants": [
            {"name": "Rossi"},
            {"name": "Bianchi", "players": ["Anna Bianchi"], "seed": 1},
            {"name": "Verdi", "seed": None},
        ]
    }

    response = post(organizer, bulk_url(tournament_id), body)

    assert response.status_code == 201
    answered = response.json()["entrants"]
    assert [(e["name"], e["players"], e["seed"]) for e in answered] == [
        ("Rossi", ["Rossi"], None),
        ("Bianchi", ["Anna Bianchi"], 1),
        ("Verdi", ["Verdi"], None),
    ]
    registered = read_stream(stream_id=tournament_id)[1:]
    assert [e.event_type for e in registered] == ["EntrantRegistered"] * 3
    assert [e.payload["entrant"] for e in registered] == [e["id"] for e in answered]


def test_a_list_with_refused_lines_registers_nothing_and_names_each_line(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, table_size=4)["id"]
    register(organizer, tournament_id, "I Leoni", ["Ada", "Bruno"], seed=1)
    body = {
        "entrants": [
            {"name": "Le Volpi", "players": ["Carlo", "Dario"]},
            {"name": "Solo"},
            {"name": "Le Aquile", "players": ["Elsa", "Fabio"], "seed": 1},
            {"name": "Le volpi", "players": ["Gino", "Ugo"]},
        ]
    }

    response = post(organizer, bulk_url(tournament_id), body)

    assert response.status_code == 422
    error = response.json()
    assert error["code"] == "entrants_refused"
    assert error["detail"] == "3 of the 4 entrants were refused: none was registered"
    assert [(line["line"], line["code"]) for line in error["lines"]] == [
        (2, "players_required"),
        (3, "duplicate_seed"),
        (4, "duplicate_entrant_name"),
    ]
    assert "I Leoni" in error["lines"][1]["detail"]
    assert "also on line 1" in error["lines"][2]["detail"]
    assert list(
        Entrant.objects.filter(tournament_id=tournament_id).values_list("name", flat=True)
    ) == ["I Leoni"]


def test_two_lines_of_one_list_cannot_hold_one_seed(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    body = {"entrants": [{"name": "Rossi", "seed": 2}, {"name": "Verdi", "seed": 2}]}

    response = post(organizer, bulk_url(tournament_id), body)

    assert response.status_code == 422
    (line,) = response.json()["lines"]
    assert (line["line"], line["code"]) == (2, "duplicate_seed")
    assert "Rossi, Verdi" in line["detail"]


def test_duplicate_names_confirmed_are_registered(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    register(organizer, tournament_id, "Rossi")
    body = {"entrants": [{"name": "Rossi"}, {"name": "rossi"}], "confirm_duplicate_names": True}

    response = post(organizer, bulk_url(tournament_id), body)

    assert response.status_code == 201
    assert [e["name"] for e in response.json()["entrants"]] == ["Rossi", "rossi"]


def test_the_refused_lines_are_said_in_the_request_s_language(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, table_size=4)["id"]

    response = post(
        organizer,
        bulk_url(tournament_id),
        {"entrants": [{"name": "I Leoni"}]},
        HTTP_ACCEPT_LANGUAGE="it",
    )

    (line,) = response.json()["lines"]
    assert line["detail"] == (
        "ai tavoli da 4 un iscritto è una coppia o un terzetto: indica i nomi dei suoi 2 giocatori"
    )


def test_a_list_after_the_start_is_registration_closed(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    for name in ("Rossi", "Verdi"):
        register(organizer, tournament_id, name)
    post(organizer, tournament_url(tournament_id, "start"))

    response = post(organizer, bulk_url(tournament_id), {"entrants": [{"name": "Late"}]})

    assert (response.status_code, response.json()["code"]) == (409, "registration_closed")


def test_an_empty_list_is_invalid_input(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    response = post(organizer, bulk_url(tournament_id), {"entrants": []})

    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["entrants"]
