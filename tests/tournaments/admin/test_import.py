import uuid
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.eventstore.api import read_stream
from tests.factories.tournaments import TournamentFactory
from tournaments.admin.entrants_csv import parse_entrant_lines
from tournaments.models import Entrant, Player

pytestmark = pytest.mark.django_db


def upload(client: Client, tournament_id: uuid.UUID, text: str) -> Any:
    url = reverse("admin:tournaments_tournament_import_entrants", args=[tournament_id])
    return client.post(url, {"file": SimpleUploadedFile("entrants.csv", text.encode())})


def test_a_valid_file_registers_every_entrant_through_the_service(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0, table_size=4).id
    text = 'name,players,seed\nI Leoni,Ada;Bruno,2\n\n"Rossi, padre e figlio",Carlo; Dario,\n'

    response = upload(admin_client, tournament_id, text)

    assert response.status_code == 302
    entrants = Entrant.objects.filter(tournament_id=tournament_id).order_by("id")
    assert [(e.name, e.seed) for e in entrants] == [("I Leoni", 2), ("Rossi, padre e figlio", None)]
    players = [p.name for e in entrants for p in e.players.order_by("entrantplayer__position")]
    assert players == ["Ada", "Bruno", "Carlo", "Dario"]
    registered = [
        e for e in read_stream(stream_id=tournament_id) if e.event_type != "TournamentCreated"
    ]
    assert [e.event_type for e in registered] == ["EntrantRegistered", "EntrantRegistered"]
    assert {e.metadata.device for e in registered} == {"admin"}


def test_a_file_s_fourth_column_is_the_entrant_s_group(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0).id

    response = upload(
        admin_client, tournament_id, "name,players,seed,group\nAda,,1,Bar Sport\nBea,,,\n"
    )

    assert response.status_code == 302
    entrants = Entrant.objects.filter(tournament_id=tournament_id).order_by("id")
    assert [(e.name, e.group) for e in entrants] == [("Ada", "Bar Sport"), ("Bea", None)]
    [first, _] = [
        e for e in read_stream(stream_id=tournament_id) if e.event_type != "TournamentCreated"
    ]
    assert first.payload["group"] == "Bar Sport"


def test_a_badly_formed_line_imports_nothing_and_names_its_line(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0).id
    text = "name,players,seed\nAda,Ada,1\nBruno,Bruno,first\nCarlo\n"

    response = upload(admin_client, tournament_id, text)

    assert response.status_code == 200
    page = response.content.decode()
    assert "line 3: the seed is a whole number from 1, not &#x27;first&#x27;" in page
    assert (
        "line 4: expected the columns name,players,seed,group,fixed_table, found 1 column(s)"
        in page
    )
    assert "Nothing was imported" in page
    assert not Entrant.objects.filter(tournament_id=tournament_id).exists()


def test_a_line_the_service_refuses_rolls_back_the_lines_before_it(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0, table_size=4).id
    text = "I Leoni,Ada;Bruno,1\nSolo,Carlo,2\n"

    response = upload(admin_client, tournament_id, text)

    assert response.status_code == 200
    assert (
        "line 2: an entrant at tables of 4 needs 2 player(s); this one has 1"
        in response.content.decode()
    )
    assert not Entrant.objects.filter(tournament_id=tournament_id).exists()
    assert not Player.objects.filter(name__in=["Ada", "Bruno", "Carlo"]).exists()
    assert [e.event_type for e in read_stream(stream_id=tournament_id)] == ["TournamentCreated"]


def test_a_started_tournament_takes_no_import(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(started=True).id

    response = upload(admin_client, tournament_id, "Late,Late,\n")

    assert "the tournament has started: registration is closed" in response.content.decode()
    assert Entrant.objects.filter(tournament_id=tournament_id).count() == 4


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("Ada,Ada;,1", "line 1: players are names separated by ';'; none may be empty"),
        (",Ada,1", "line 1: the name is empty"),
        ("Ada,Ada;;Bea,", "line 1: players are names separated by ';'; none may be empty"),
        ("name,players,seed\n", "the file has no entrants"),
        ("Ada,Ada,0", "line 1: the seed is a whole number from 1, not '0'"),
        ("Ada,Ada,²", "line 1: the seed is a whole number from 1, not '²'"),
        ("Ada,Ada,٣", "line 1: the seed is a whole number from 1, not '٣'"),
        (f"Ada,Ada,{'9' * 5000}", "line 1: the seed is a whole number from 1, not '99999"),
        ('"Ada\rBea",Ada,', "line 1: a name cannot hold control characters"),
        ('Ada,"Ada\tBea",', "line 1: a name cannot hold control characters"),
        ('Ada,Ada,,"Bar\tSport"', "line 1: a group cannot hold control characters"),
    ],
)
def test_each_bad_line_is_reported_with_its_number(text: str, error: str) -> None:
    _, errors = parse_entrant_lines(text)

    assert any(found.startswith(error) for found in errors), errors


def test_a_name_of_ten_thousand_characters_is_a_form_error_naming_its_line(
    admin_client: Client,
) -> None:
    """It reached the database, which answered `value too long`: a 500."""
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0).id

    response = upload(admin_client, tournament_id, f"Ada,Ada,\n{'B' * 10_000},Bea,\n")

    assert response.status_code == 200
    assert "line 2: a name is at most 200 characters, not 10000" in response.content.decode()
    assert not Entrant.objects.filter(tournament_id=tournament_id).exists()


def test_a_single_s_blank_players_are_its_name(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0).id

    response = upload(admin_client, tournament_id, "Ada,,1\nBea,,\n")

    assert response.status_code == 302
    entrants = Entrant.objects.filter(tournament_id=tournament_id).order_by("id")
    assert [(e.name, [str(p) for p in e.players.all()], e.seed) for e in entrants] == [
        ("Ada", ["Ada"], 1),
        ("Bea", ["Bea"], None),
    ]


def test_a_name_or_a_seed_twice_in_the_file_is_refused_by_the_service(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0).id

    response = upload(admin_client, tournament_id, "Ada,,1\nBea,,1\nada,,\n")

    page = response.content.decode()
    assert "line 2: seed 1 would be held by more than one entrant: Ada, Bea" in page
    assert "line 3: the name ada is also on line 1" in page
    assert not Entrant.objects.filter(tournament_id=tournament_id).exists()


def test_a_name_twice_in_the_file_is_kept_when_confirmed(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0).id
    url = reverse("admin:tournaments_tournament_import_entrants", args=[tournament_id])

    response = admin_client.post(
        url,
        {
            "file": SimpleUploadedFile("entrants.csv", b"Ada,,\nAda,,\n"),
            "confirm_duplicate_names": "on",
        },
    )

    assert response.status_code == 302
    assert Entrant.objects.filter(tournament_id=tournament_id, name="Ada").count() == 2


def test_the_import_page_loads(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create().id
    url = reverse("admin:tournaments_tournament_import_entrants", args=[tournament_id])

    assert admin_client.get(url).status_code == 200


def test_a_fifth_column_gives_the_entrant_its_fixed_table(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=0, tables=4).id
    text = "name,players,seed,group,fixed_table\nGino,,,,3\nLina,,1\n"

    response = upload(admin_client, tournament_id, text)

    assert response.status_code == 302
    entrants = Entrant.objects.filter(tournament_id=tournament_id).order_by("id")
    assert [(e.name, e.fixed_table) for e in entrants] == [("Gino", 3), ("Lina", None)]
