"""The console's part of decision record 0049: the add form's tables left blank, the tables
changed on the tournament's page, and one click to print the evening's cards and sheets."""

from __future__ import annotations

import re
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


def link(page: str, hook: str) -> tuple[str, str]:
    """The href and the text of the link marked `data-print="hook"`."""
    found = re.search(rf'<a href="([^"]+)"[^>]*data-print="{hook}">([^<]+)</a>', page)
    assert found is not None, f"no {hook} link"
    return found.group(1).replace("&amp;", "&"), found.group(2)


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


def test_the_console_prints_the_evening_in_one_click_each(admin_client: Client) -> None:
    registration = TournamentFactory.create(format="round_robin", entrants=4, tables=2)
    started = TournamentFactory.create(
        format="round_robin", entrants=4, tables=2, started=True, projected=True
    )

    before = console(admin_client, registration.id)
    during = console(admin_client, started.id)

    cards = reverse("api-v1:table-cards", args=[started.id]) + "?format=pdf"
    sheets = reverse("api-v1:round-sheets", args=[started.id, 1]) + "?format=pdf"
    assert link(during, "table-cards") == (cards, "Print the table cards")
    assert link(during, "score-sheets") == (sheets, "Print the round's score sheets")
    assert admin_client.get(cards)["Content-Type"] == "application/pdf"
    assert link(before, "table-cards")[1] == "Print the table cards"
    assert 'data-print="score-sheets"' not in before
