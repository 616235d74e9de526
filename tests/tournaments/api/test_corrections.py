"""Correcting entrants through the API: `PATCH` an entrant (name, players, seed) and `PATCH` the
seeds as one list. Each records an event by the organizer, with the reason."""

from typing import Any
from uuid import UUID

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.eventstore.api import RecordedEvent, last_position, read_stream
from tests.factories.tournaments import ApiTournamentFactory
from tests.games.api.builders import post
from tests.tournaments.api.builders import (
    entrant_url,
    register,
    register_seeded,
    started_tournament,
    tournament_url,
)


def patch(client: APIClient, url: str, body: Any, **headers: Any) -> Any:
    return client.patch(url, body, format="json", **headers)


def events_since(tournament_id: str, position: int) -> list[RecordedEvent]:
    events = read_stream(stream_id=UUID(tournament_id))
    return [e for e in events if e.global_position > position]


def seeds_listed(entrants: list[dict[str, Any]]) -> list[tuple[str, int | None]]:
    return [(entrant["name"], entrant["seed"]) for entrant in entrants]


@pytest.fixture
def two_entrants(organizer: APIClient) -> tuple[str, list[int]]:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    return tournament_id, register_seeded(organizer, tournament_id, 2)


def test_patching_an_entrants_name_answers_the_entrant_and_records_who_and_why(
    organizer: APIClient, two_entrants: tuple[str, list[int]]
) -> None:
    tournament_id, (first, _) = two_entrants
    before = last_position()

    response = patch(
        organizer,
        entrant_url(tournament_id, first),
        {"name": "Giulia Rossi", "reason": "misspelled"},
        HTTP_X_DEVICE="desk",
    )

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["id"], body["name"], body["players"], body["seed"]) == (
        first,
        "Giulia Rossi",
        ["Player 1"],
        1,
    )
    (recorded,) = events_since(tournament_id, before)
    organizer_id = get_user_model().objects.get(username="organizer").pk
    assert recorded.event_type == "EntrantCorrected"
    assert recorded.payload == {"entrant": first, "changed": ["name"], "reason": "misspelled"}
    assert (recorded.metadata.actor_id, recorded.metadata.device) == (organizer_id, "desk")
    assert recorded.metadata.reason == "misspelled"


def test_patching_players_renames_one_and_replaces_another(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, table_size=4)["id"]
    entrant = register(organizer, tournament_id, "I Leoni", ["Ada", "Bruno"])["id"]
    before = last_position()

    response = patch(
        organizer,
        entrant_url(tournament_id, entrant),
        {
            "players": [{"name": "Adele"}, {"name": "Ettore", "replace": True}],
            "reason": "Ada is Adele; Bruno is ill",
        },
    )

    assert response.status_code == 200, response.json()
    assert response.json()["players"] == ["Adele", "Ettore"]
    (recorded,) = events_since(tournament_id, before)
    assert recorded.payload["changed"] == ["players"]
    assert all(isinstance(player, int) for player in recorded.payload["players"])


def test_patching_the_seed_is_a_one_entry_reseed(
    organizer: APIClient, two_entrants: tuple[str, list[int]]
) -> None:
    tournament_id, (_, second) = two_entrants
    before = last_position()

    response = patch(
        organizer, entrant_url(tournament_id, second), {"seed": 5, "reason": "ranking"}
    )

    assert response.status_code == 200, response.json()
    assert response.json()["seed"] == 5
    (recorded,) = events_since(tournament_id, before)
    assert recorded.event_type == "EntrantsReseeded"
    assert recorded.payload == {"seeds": [[second, 5]], "reason": "ranking"}


def test_a_name_and_a_seed_in_one_patch_are_two_events_or_none(
    organizer: APIClient, two_entrants: tuple[str, list[int]]
) -> None:
    tournament_id, (_, second) = two_entrants
    url = entrant_url(tournament_id, second)
    before = last_position()

    refused = patch(organizer, url, {"name": "Bianchi", "seed": 1, "reason": "both"})
    after_refusal = last_position()
    accepted = patch(organizer, url, {"name": "Bianchi", "seed": 3, "reason": "both"})

    assert (refused.status_code, refused.json()["code"]) == (422, "duplicate_seed")
    assert after_refusal == before
    assert (accepted.json()["name"], accepted.json()["seed"]) == ("Bianchi", 3)
    recorded = [e.event_type for e in events_since(tournament_id, before)]
    assert recorded == ["EntrantCorrected", "EntrantsReseeded"]


def test_a_duplicate_name_is_a_warning_until_confirmed(
    organizer: APIClient, two_entrants: tuple[str, list[int]]
) -> None:
    tournament_id, (_, second) = two_entrants
    url = entrant_url(tournament_id, second)
    body = {"name": "player  1", "reason": "the same"}

    warned = patch(organizer, url, body)
    confirmed = patch(organizer, url, {**body, "confirm_duplicate_name": True})

    assert warned.status_code == 422
    assert warned.json() == {
        "code": "duplicate_entrant_name",
        "detail": "another entrant of this tournament is already called Player 1: confirm the "
        "duplicate name to register or rename it all the same",
    }
    assert (confirmed.status_code, confirmed.json()["name"]) == (200, "player  1")


def test_registering_a_seed_already_held_is_duplicate_seed_in_the_request_language(
    organizer: APIClient, two_entrants: tuple[str, list[int]]
) -> None:
    tournament_id, _ = two_entrants
    body = {"name": "Late", "players": ["Late"], "seed": 2}

    english = post(organizer, tournament_url(tournament_id, "entrants"), body)
    italian = post(
        organizer, tournament_url(tournament_id, "entrants"), body, HTTP_ACCEPT_LANGUAGE="it"
    )

    assert english.status_code == italian.status_code == 422
    assert english.json() == {
        "code": "duplicate_seed",
        "detail": "seed 2 would be held by more than one entrant: Player 2, Late",
    }
    assert italian.json()["detail"] == (
        "la testa di serie 2 andrebbe a più di un iscritto: Player 2, Late"
    )


def test_registering_a_name_already_taken_needs_the_confirmation(
    organizer: APIClient, two_entrants: tuple[str, list[int]]
) -> None:
    tournament_id, _ = two_entrants
    url = tournament_url(tournament_id, "entrants")
    body = {"name": "PLAYER 2", "players": ["Somebody"]}

    warned = post(organizer, url, body)
    confirmed = post(organizer, url, {**body, "confirm_duplicate_name": True})

    assert (warned.status_code, warned.json()["code"]) == (422, "duplicate_entrant_name")
    assert confirmed.status_code == 201


def test_the_seed_list_swaps_two_seeds_and_answers_every_entrant_in_seed_order(
    organizer: APIClient,
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    first, second, third = register_seeded(organizer, tournament_id, 3)
    before = last_position()

    response = patch(
        organizer,
        tournament_url(tournament_id, "seeds"),
        {
            "seeds": [{"entrant": first, "seed": 2}, {"entrant": second, "seed": 1}],
            "reason": "last year's ranking",
        },
    )

    assert response.status_code == 200, response.json()
    assert seeds_listed(response.json()) == [("Player 2", 1), ("Player 1", 2), ("Player 3", 3)]
    (recorded,) = events_since(tournament_id, before)
    assert recorded.payload == {
        "seeds": sorted([[first, 2], [second, 1]]),
        "reason": "last year's ranking",
    }
    shown = organizer.get(tournament_url(tournament_id)).json()["entrants"]
    assert seeds_listed(shown) == seeds_listed(response.json())
    assert third in [entrant["id"] for entrant in shown]


@pytest.mark.parametrize(
    ("seeds", "status", "code"),
    [
        ([("first", 2)], 422, "duplicate_seed"),
        ([("first", 0)], 422, "invalid_entrant"),
        ([(10**6, 3)], 404, "entrant_not_found"),
        ([("first", 3), ("first", 4)], 400, "invalid_input"),
        ([], 400, "invalid_input"),
    ],
)
def test_a_seed_list_the_tournament_cannot_take_records_nothing(
    organizer: APIClient,
    two_entrants: tuple[str, list[int]],
    seeds: list[tuple[Any, int]],
    status: int,
    code: str,
) -> None:
    tournament_id, (first, _) = two_entrants
    body = {
        "seeds": [
            {"entrant": first if entrant == "first" else entrant, "seed": seed}
            for entrant, seed in seeds
        ],
        "reason": "fix",
    }
    before = last_position()

    response = patch(organizer, tournament_url(tournament_id, "seeds"), body)

    assert (response.status_code, response.json()["code"]) == (status, code)
    assert last_position() == before


def test_seeds_cannot_change_after_the_start(organizer: APIClient) -> None:
    tournament_id, (first, second) = started_tournament(organizer, 2)
    body = {"seeds": [{"entrant": first, "seed": 2}, {"entrant": second, "seed": 1}]}

    by_list = patch(organizer, tournament_url(tournament_id, "seeds"), {**body, "reason": "x"})
    by_entrant = patch(organizer, entrant_url(tournament_id, first), {"seed": 9, "reason": "x"})
    renamed = patch(organizer, entrant_url(tournament_id, first), {"name": "Ada", "reason": "x"})

    assert (by_list.status_code, by_list.json()["code"]) == (409, "tournament_started")
    assert (by_entrant.status_code, by_entrant.json()["code"]) == (409, "tournament_started")
    assert renamed.status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"reason": "nothing"}, "non_field_errors"),
        ({"name": "Rossi"}, "reason"),
        ({"name": "Rossi", "reason": ""}, "reason"),
        ({"players": "Rossi", "reason": "x"}, "players"),
        ({"players": [{"name": "Rossi", "replace": "yes"}], "reason": "x"}, "players"),
        ({"name": "Rossi", "reason": "x", "nickname": "R"}, "nickname"),
    ],
)
def test_a_malformed_correction_is_invalid_input_naming_the_field(
    organizer: APIClient, two_entrants: tuple[str, list[int]], body: dict[str, Any], field: str
) -> None:
    tournament_id, (first, _) = two_entrants

    response = patch(organizer, entrant_url(tournament_id, first), body)

    assert response.status_code == 400
    assert list(response.json()["fields"]) == [field]


def test_correcting_an_entrant_of_another_tournament_is_entrant_not_found(
    organizer: APIClient, two_entrants: tuple[str, list[int]]
) -> None:
    _, (first, _) = two_entrants
    other = ApiTournamentFactory.create(client=organizer)["id"]

    response = patch(organizer, entrant_url(other, first), {"name": "Ada", "reason": "x"})

    assert (response.status_code, response.json()["code"]) == (404, "entrant_not_found")


def test_a_repeated_key_answers_the_first_correction_and_records_nothing(
    organizer: APIClient, two_entrants: tuple[str, list[int]]
) -> None:
    tournament_id, (first, _) = two_entrants
    url = entrant_url(tournament_id, first)
    body = {"name": "Rossi", "seed": 4, "reason": "typo"}
    answered = patch(organizer, url, body, HTTP_IDEMPOTENCY_KEY="fix-1")
    position = last_position()

    again = patch(organizer, url, body, HTTP_IDEMPOTENCY_KEY="fix-1")

    assert again.status_code == answered.status_code == 200
    assert again.json() == answered.json()
    assert last_position() == position


@pytest.mark.usefixtures("organizer")
def test_only_an_organizer_corrects(
    anonymous: APIClient, two_entrants: tuple[str, list[int]]
) -> None:
    tournament_id, (first, _) = two_entrants
    before = last_position()

    refused = patch(anonymous, entrant_url(tournament_id, first), {"name": "X", "reason": "x"})
    reseed = patch(
        anonymous,
        tournament_url(tournament_id, "seeds"),
        {"seeds": [{"entrant": first, "seed": 9}], "reason": "x"},
    )

    assert (refused.status_code, reseed.status_code) == (401, 401)
    assert last_position() == before
