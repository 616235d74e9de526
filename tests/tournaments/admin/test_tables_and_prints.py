"""The console's part of decision record 0049: the add form's tables left blank, and the
tables changed on the tournament's page."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from django.test import Client
from django.urls import reverse

from games.eventstore.api import read_stream
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.admin.builders import add_tournament
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db


def console(client: Client, tournament_id: UUID) -> str:
    response = client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id]))
    assert response.status_code == 200
    return response.content.decode()


def change_tables(client: Client, tournament_id: UUID, tables: str) -> Any:
    url = reverse("admin:tournaments_tournament_run", args=[tournament_id, "tables"])
    return client.post(url, {"tables": tables}, follow=True)


def messages_of(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_add_form_s_blank_tables_leave_them_to_the_entrants_need(
    admin_client: Client,
) -> None:
    add_tournament(admin_client, tables="")

    tournament = Tournament.objects.get(name="Coppa di primavera")
    (created,) = read_stream(stream_id=tournament.id)
    assert created.payload["settings"]["tables"] is None
    assert tournament.tables.count() == 1
    assert "By need: 1 table" in console(admin_client, tournament.id)


def test_the_organizer_changes_the_tables_on_the_tournament_s_page(
    admin_client: Client,
) -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=4, tables=2)

    response = change_tables(admin_client, tournament.id, "5")

    assert response.status_code == 200
    assert messages_of(response) == [f"{tournament}: 5 tables."]
    last = read_stream(stream_id=tournament.id)[-1]
    assert (last.event_type, last.payload["tables"], last.metadata.device) == (
        "TablesChanged",
        5,
        "admin",
    )
    assert Table.objects.filter(tournament=tournament).count() == 5
    assert 'name="tables" min="1" max="500" value="5"' in response.content.decode()


def test_blank_tables_before_the_start_go_back_to_the_entrants_need(
    admin_client: Client,
) -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=6, tables=9)

    response = change_tables(admin_client, tournament.id, "")

    assert messages_of(response) == [
        f"{tournament}: 3 tables, as many as the entrants need until the start."
    ]
    assert Table.objects.filter(tournament=tournament).count() == 3


def test_tables_that_are_not_a_number_are_refused_and_nothing_is_recorded(
    admin_client: Client,
) -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=4, tables=2)
    version = len(read_stream(stream_id=tournament.id))

    response = change_tables(admin_client, tournament.id, "many")

    assert len(read_stream(stream_id=tournament.id)) == version
    assert any("tables is a whole number" in message for message in messages_of(response))
