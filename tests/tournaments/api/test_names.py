"""Issue 23 §3: a name is one line of text the tables hold, at registration, at a correction
and at creation: a control character (a lone carriage return ended the calendar's SUMMARY) or a
line separator is refused with `invalid_name`, naming the character; any script, right to left
or with zero-width characters, is a name."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.eventstore.api import last_position
from tests.factories.api import API
from tests.factories.tournaments import ApiTournamentFactory
from tests.tournaments.api.builders import entrant_url, register, tournament_url
from tournaments.models import Entrant, Player, Tournament

pytestmark = pytest.mark.django_db


def assert_invalid_name(response: Any, character: str) -> None:
    body = response.json()
    assert response.status_code == 422, body
    assert body["code"] == "invalid_name"
    assert character in body["detail"]


@pytest.mark.parametrize(
    ("name", "players", "character"),
    [
        ("Ada\rEND:VEVENT", None, "U+000D"),
        ("Ada\nBruno", None, "U+000A"),
        ("Ada\tBruno", None, "U+0009"),
        ("Ada\x1b[31m", None, "U+001B"),
        ("Ada\u2028Bruno", None, "U+2028"),
        ("I Leoni", ["Ad\x85a", "Bruno"], "U+0085"),
    ],
)
def test_a_name_with_a_control_character_is_refused_at_registration_and_nothing_is_recorded(
    organizer: APIClient, name: str, players: list[str] | None, character: str
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer, table_size=4 if players else 2)[
        "id"
    ]
    before = last_position()

    response = organizer.post(
        tournament_url(tournament_id, "entrants"),
        {"name": name, "players": players or [name]},
        format="json",
    )

    assert_invalid_name(response, character)
    assert last_position() == before
    assert not Entrant.objects.filter(tournament_id=tournament_id).exists()


def test_a_correction_to_a_name_with_a_carriage_return_is_refused(organizer: APIClient) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]
    entrant = register(organizer, tournament_id, "Ada")["id"]

    renamed = organizer.patch(
        entrant_url(tournament_id, entrant), {"name": "Ada\rB", "reason": "typo"}, format="json"
    )
    replaced = organizer.patch(
        entrant_url(tournament_id, entrant),
        {"players": [{"name": "Be\u2029a", "replace": True}], "reason": "a substitute"},
        format="json",
    )

    assert_invalid_name(renamed, "U+000D")
    assert_invalid_name(replaced, "U+2029")
    assert Entrant.objects.get(id=entrant).name == "Ada"
    assert not Player.objects.filter(name__startswith="Bea").exists()


def test_a_tournament_named_with_a_control_character_is_not_created(organizer: APIClient) -> None:
    response = organizer.post(
        f"{API}/tournaments/",
        {"name": "Coppa\rX-WR-CALNAME:altro", "format": "swiss", "table_size": 2},
        format="json",
    )

    assert_invalid_name(response, "U+000D")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "name", ["أحمد", "Nicolò D'Amico", "Ada\u200bBruno", "\u202eAda", "I Leoni 🦁"]
)
def test_a_name_in_any_script_or_with_invisible_formatting_is_registered(
    organizer: APIClient, name: str
) -> None:
    tournament_id = ApiTournamentFactory.create(client=organizer)["id"]

    assert register(organizer, tournament_id, name)["name"] == name
