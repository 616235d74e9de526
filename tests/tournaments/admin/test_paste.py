"""A pasted list of entrants on the tournament's page: previewed, then registered in one
command (all its lines, or none)."""

import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.eventstore.api import read_stream
from tests.factories.tournaments import TournamentFactory
from tournaments.admin.entrants_csv import parse_pasted_lines
from tournaments.models import Entrant
from tournaments.services.registration import ImportedEntrant

pytestmark = pytest.mark.django_db


def paste(client: Client, tournament_id: uuid.UUID, text: str, **fields: Any) -> Any:
    url = reverse("admin:tournaments_tournament_paste_entrants", args=[tournament_id])
    return client.post(url, {"entrants": text, **fields})


def registered(tournament_id: uuid.UUID) -> list[tuple[str, list[str], int | None]]:
    return [
        (e.name, [p.name for p in e.players.order_by("entrantplayer__position")], e.seed)
        for e in Entrant.objects.filter(tournament_id=tournament_id).order_by("id")
    ]


def test_the_tournament_s_page_has_a_box_for_a_list_of_entrants(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=0).id

    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id]))

    box = reverse("admin:tournaments_tournament_paste_entrants", args=[tournament_id])
    assert f'action="{box}"' in page.content.decode()


def test_a_started_tournament_s_page_has_no_box_for_entrants(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id

    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id]))

    assert "data-paste-entrants" not in page.content.decode()


def test_the_preview_shows_what_will_be_registered_and_registers_nothing(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0).id

    response = paste(admin_client, tournament_id, "Giulia Rossi; 2\n\nMarco Bianchi\n")

    assert response.status_code == 200
    assert [
        (row["line"], row["name"], row["players"], row["seed"], row["refusal"])
        for row in response.context["preview"]
    ] == [
        (1, "Giulia Rossi", ["Giulia Rossi"], 2, ""),
        (3, "Marco Bianchi", ["Marco Bianchi"], None, ""),
    ]
    assert "Register 2 entrants" in response.content.decode()
    assert registered(tournament_id) == []


def test_registering_the_list_records_one_command_and_returns_to_the_tournament(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0, table_size=4).id
    text = "I Leoni; Ada, Bruno; 1\nLe Volpi; Carlo , Dario\n"

    response = paste(admin_client, tournament_id, text, _register="Register")

    assert response.status_code == 302
    assert response.url == reverse("admin:tournaments_tournament_change", args=[tournament_id])
    assert registered(tournament_id) == [
        ("I Leoni", ["Ada", "Bruno"], 1),
        ("Le Volpi", ["Carlo", "Dario"], None),
    ]
    events = read_stream(stream_id=tournament_id)[1:]
    assert [e.event_type for e in events] == ["EntrantRegistered", "EntrantRegistered"]
    assert {e.metadata.device for e in events} == {"admin"}


def test_the_preview_names_each_line_the_tournament_refuses(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0, table_size=4).id
    text = "I Leoni; Ada, Bruno; 1\nSolo\nLe Volpi; Carlo, Dario; 1\n"

    response = paste(admin_client, tournament_id, text)

    refusals = [row["refusal"] for row in response.context["preview"]]
    assert refusals[0] == ""
    assert "give the names of its 2 players" in refusals[1]
    assert "seed 1 would be held by more than one entrant: I Leoni, Le Volpi" in refusals[2]
    assert "data-register" not in response.content.decode()


def test_registering_a_list_with_a_refused_line_registers_none_of_it(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0).id

    response = paste(admin_client, tournament_id, "Rossi\nVerdi; 1\nrossi", _register="Register")

    assert response.status_code == 200
    page = response.content.decode()
    assert "line 3: the name rossi is also on line 1" in page
    assert "Nothing was registered" in page
    assert registered(tournament_id) == []
    assert [e.event_type for e in read_stream(stream_id=tournament_id)] == ["TournamentCreated"]


def test_a_badly_written_line_is_named_on_the_form(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=0).id

    response = paste(admin_client, tournament_id, "Rossi\n; Verdi\nBianchi; 0")

    page = response.content.decode()
    assert "line 2: the name is empty" in page
    assert "line 3: the seed is a whole number from 1, not &#x27;0&#x27;" in page
    assert registered(tournament_id) == []


@pytest.mark.parametrize(
    ("text", "entrant"),
    [
        ("Rossi", ImportedEntrant(1, "Rossi", None, None)),
        ("  Rossi ;", ImportedEntrant(1, "Rossi", None, None)),
        ("Rossi; 4", ImportedEntrant(1, "Rossi", None, 4)),
        ("I Leoni; Ada, Bruno", ImportedEntrant(1, "I Leoni", ["Ada", "Bruno"], None)),
        ("I Leoni; Ada, Bruno; 2", ImportedEntrant(1, "I Leoni", ["Ada", "Bruno"], 2)),
        ("I Leoni; 2; Ada, Bruno", ImportedEntrant(1, "I Leoni", ["Ada", "Bruno"], 2)),
        ("Rossi; [Circolo Aurora]; 3", ImportedEntrant(1, "Rossi", None, 3, "Circolo Aurora")),
    ],
)
def test_a_pasted_line_is_a_name_its_players_and_a_seed(
    text: str, entrant: ImportedEntrant
) -> None:
    assert parse_pasted_lines(text) == ([entrant], [])


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("; Ada", "line 1: the name is empty"),
        (
            "Rossi\nI Leoni; Ada,, Bruno",
            "line 2: players are names separated by ','; none is empty",
        ),
        ("Rossi; 1; 2", "line 1: more than one seed"),
        ("Rossi; [Aurora]; [Bar]", "line 1: more than one group"),
        (f"Rossi; [{'x' * 61}]", "line 1: a group is at most 60 characters"),
        ("I Leoni; Ada; Bruno", "line 1: the players once, after the name"),
        ("\n  \n", "the list has no entrants"),
    ],
)
def test_each_bad_pasted_line_is_reported_with_its_number(text: str, error: str) -> None:
    _, errors = parse_pasted_lines(text)

    assert any(reported.startswith(error) for reported in errors), errors
