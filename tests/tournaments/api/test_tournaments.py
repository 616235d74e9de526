"""Creating, reading, seeding and starting tournaments."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import Role
from accounts.services import club_create, role_grant
from tests.factories.accounts import UserFactory
from tests.factories.api import API
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import post
from tests.tournaments.api.builders import (
    matches,
    register,
    register_seeded,
    tournament_url,
    tournaments,
)

CREATE = f"{API}/tournaments/"


def test_a_created_tournament_is_answered_with_its_settings(organizer: APIClient) -> None:
    response = post(
        organizer,
        CREATE,
        {
            "name": "Circolo di Natale",
            "format": "swiss",
            "table_size": 4,
            "best_of": 5,
            "swiss_rounds": 4,
            "tables": 3,
            "automatic_rounds": False,
            "tiebreaks": ["match_points", "buchholz"],
        },
    )

    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Circolo di Natale"
    assert (body["format"], body["status"], body["table_size"]) == ("swiss", "registration", 4)
    assert (body["best_of"], body["swiss_rounds"], body["tables"]) == (5, 4, 3)
    assert body["automatic_rounds"] is False
    assert body["tiebreaks"] == ["match_points", "buchholz"]
    assert body["entrants"] == []
    assert organizer.get(tournament_url(body["id"])).json() == body


def test_options_left_out_take_the_defaults(organizer: APIClient) -> None:
    body = ApiTournamentFactory.create(client=organizer, format="round_robin", best_of=3)

    assert body["scoring"] == "rounds"
    assert body["rounds"] is None
    assert body["variant"] == {}
    assert (body["legs"], body["tables"], body["advance_per_group"]) == (1, 1, 2)
    assert (body["third_place"], body["grand_final_reset"]) == (False, True)
    assert (body["match_minutes"], body["no_show_minutes"]) == (30, None)
    assert body["automatic_rounds"] is True
    assert body["tiebreaks"] is None


def test_every_format_of_the_contract_can_be_created(organizer: APIClient) -> None:
    formats = [
        "single_elimination",
        "double_elimination",
        "round_robin",
        "swiss",
        "groups_then_knockout",
    ]

    created = [
        ApiTournamentFactory.create(client=organizer, format=name)["format"] for name in formats
    ]

    assert created == formats


def test_a_tournament_scored_by_points_takes_its_rounds_and_variant(organizer: APIClient) -> None:
    body = ApiTournamentFactory.create(
        client=organizer, scoring="points", rounds=4, variant={"hand_size": 3}, third_place=True
    )

    assert (body["scoring"], body["rounds"], body["variant"]) == ("points", 4, {"hand_size": 3})
    assert body["third_place"] is True


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"format": "ladder"}, "invalid_tournament"),
        ({"table_size": 5}, "invalid_tournament"),
        ({"tables": 0}, "invalid_tournament"),
        ({"tables": 10**6}, "invalid_format_option"),
        ({"best_of": 2}, "invalid_match_format"),
        ({"scoring": "points"}, "invalid_match_format"),
        ({"variant": {"hand_size": 4}}, "invalid_variant"),
        ({"tiebreaks": ["coin_toss"]}, "unknown_tiebreak"),
        ({"tiebreaks": ["buchholz", "buchholz"]}, "duplicate_tiebreak"),
    ],
)
def test_settings_the_rules_do_not_allow_are_refused_with_their_code(
    organizer: APIClient, fields: dict[str, Any], code: str
) -> None:
    response = post(
        organizer, CREATE, {"name": "Circolo", "format": "swiss", "table_size": 2, **fields}
    )

    assert response.status_code == 422
    assert response.json()["code"] == code


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"format": "swiss", "table_size": 2}, "name"),
        ({"name": "Circolo", "table_size": 2}, "format"),
        ({"name": "Circolo", "format": "swiss", "table_size": "two"}, "table_size"),
        (
            {"name": "Circolo", "format": "swiss", "table_size": 2, "swiss_rounds": 0},
            "swiss_rounds",
        ),
        (
            {"name": "Circolo", "format": "swiss", "table_size": 2, "tiebreaks": "buchholz"},
            "tiebreaks",
        ),
    ],
)
def test_a_malformed_creation_is_invalid_input_naming_the_field(
    organizer: APIClient, body: dict[str, Any], field: str
) -> None:
    response = post(organizer, CREATE, body)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"
    assert list(response.json()["fields"]) == [field]


@pytest.mark.usefixtures("db")
def test_an_organizer_signed_in_with_a_session_may_create_a_tournament() -> None:
    client = APIClient()
    user = UserFactory.create(username="browser")
    role_grant(user=user, role=Role.ORGANIZER, club=club_create(name="Circolo"))
    client.force_login(user)

    response = post(client, CREATE, {"name": "Circolo", "format": "swiss", "table_size": 2})

    assert response.status_code == 201


def test_a_tournament_is_read_by_anyone(organizer: APIClient, anonymous: APIClient) -> None:
    tournament = ApiTournamentFactory.create(client=organizer)
    register(organizer, tournament["id"], "Rossi", seed=1)

    response = anonymous.get(tournament_url(tournament["id"]))

    assert response.status_code == 200
    (entrant,) = response.json()["entrants"]
    assert (entrant["name"], entrant["players"], entrant["seed"]) == ("Rossi", ["Rossi"], 1)


def test_starting_seeds_by_the_given_seeds_and_creates_the_first_matches(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    late = register(organizer, tournament_id, "Unseeded")["id"]
    fourth = register(organizer, tournament_id, "Fourth", seed=4)["id"]
    first = register(organizer, tournament_id, "First", seed=1)["id"]
    second = register(organizer, tournament_id, "Second", seed=2)["id"]

    response = post(organizer, tournament_url(tournament_id, "start"))

    assert response.status_code == 201
    assert response.json()["status"] == "in_progress"
    pairs = sorted(sorted(match["entrants"]) for match in matches(organizer, tournament_id))
    # Seeds 1-4, 2-3: the unseeded entrant comes after the seeded ones.
    assert pairs == sorted([sorted([first, late]), sorted([second, fourth])])


def test_starting_twice_is_a_conflict(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    register_seeded(organizer, tournament_id, 2)
    post(organizer, tournament_url(tournament_id, "start"))

    response = post(organizer, tournament_url(tournament_id, "start"))

    assert response.status_code == 409
    assert response.json()["code"] == "tournament_started"


def test_starting_with_a_single_entrant_is_too_few_entrants(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    register_seeded(organizer, tournament_id, 1)

    response = post(organizer, tournament_url(tournament_id, "start"))

    assert response.status_code == 422
    assert response.json()["code"] == "too_few_entrants"
    assert organizer.get(tournament_url(tournament_id)).json()["status"] == "registration"


def test_an_option_the_format_cannot_take_is_refused_at_creation(organizer: APIClient) -> None:
    """Three legs were taken at creation and refused only at the start (decision record 0041)."""
    response = post(
        organizer,
        CREATE,
        {"name": "Circolo", "format": "round_robin", "table_size": 2, "legs": 3},
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_format_option"
    assert tournaments(organizer) == []


def test_seeding_by_the_given_seeds_puts_unseeded_entrants_last(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    unseeded = register(organizer, tournament_id, "Unseeded")["id"]
    second = register(organizer, tournament_id, "Second", seed=2)["id"]
    first = register(organizer, tournament_id, "First", seed=1)["id"]

    response = post(organizer, tournament_url(tournament_id, "seed"), {"method": "given"})

    assert response.status_code == 201
    assert response.json() == {
        "order": [first, second, unseeded],
        "method": "given",
        "random_seed": None,
    }
    entrants = organizer.get(tournament_url(tournament_id)).json()["entrants"]
    assert [(e["id"], e["seed"]) for e in entrants] == [(first, 1), (second, 2), (unseeded, 3)]


def test_a_random_seeding_is_repeated_by_its_random_seed(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    ids = register_seeded(organizer, tournament_id, 8)
    url = tournament_url(tournament_id, "seed")

    first = post(organizer, url, {"method": "random", "random_seed": 2024}).json()
    again = post(organizer, url, {"method": "random", "random_seed": 2024}).json()

    assert first == again
    assert first["random_seed"] == 2024
    assert sorted(first["order"]) == ids


@pytest.mark.parametrize("body", [{"method": "random"}, {"method": "alphabetical"}])
def test_a_seeding_method_that_cannot_be_followed_is_invalid_tournament(
    organizer: APIClient, body: dict[str, Any]
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    register_seeded(organizer, tournament_id, 2)

    response = post(organizer, tournament_url(tournament_id, "seed"), body)

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_tournament"


def test_seeding_after_the_start_is_a_conflict(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    register_seeded(organizer, tournament_id, 2)
    post(organizer, tournament_url(tournament_id, "start"))

    response = post(organizer, tournament_url(tournament_id, "seed"), {"method": "given"})

    assert response.status_code == 409
    assert response.json()["code"] == "tournament_started"


def test_the_start_follows_the_seeding_order(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    ids = register_seeded(organizer, tournament_id, 2)
    post(organizer, tournament_url(tournament_id, "seed"), {"method": "random", "random_seed": 1})
    order = organizer.get(tournament_url(tournament_id)).json()["entrants"]

    post(organizer, tournament_url(tournament_id, "start"))

    (final,) = matches(organizer, tournament_id)
    assert final["entrants"] == [order[0]["id"], order[1]["id"]]
    assert sorted(final["entrants"]) == ids
