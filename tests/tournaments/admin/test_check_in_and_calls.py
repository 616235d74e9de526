"""The organizer's check-in operations on the tournament's page, and calling a match to its
table from the fixtures list (issue 11 §4)."""

from uuid import UUID

import pytest
from django.test import Client
from django.urls import reverse

from games.eventstore.api import read_stream
from tests.factories.tournaments import ORGANIZER, TournamentFactory
from tests.tournaments.admin.builders import act
from tournaments.models import Entrant, Fixture
from tournaments.services import registration
from tournaments.services import running as tournament_running
from tournaments.services import scheduling as tournament_scheduling

pytestmark = pytest.mark.django_db


def run(client: Client, tournament_id: UUID, operation: str) -> str:
    url = reverse("admin:tournaments_tournament_run", args=[tournament_id, operation])
    response = client.post(url, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def event_types(stream_id: UUID) -> list[str]:
    return [event.event_type for event in read_stream(stream_id=stream_id)]


def test_the_tournaments_page_offers_check_in_and_a_start_with_the_checked_in_only(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create().id

    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id]))

    operations = {operation["name"] for operation in page.context["operations"]}
    assert {"open_check_in", "close_check_in", "start_checked_in"} <= operations


def test_closing_check_in_on_the_page_refuses_a_later_check_in(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create().id
    entrant = Entrant.objects.filter(tournament_id=tournament_id).first()
    assert entrant is not None

    run(admin_client, tournament_id, "open_check_in")
    said = run(admin_client, tournament_id, "close_check_in")
    _, messages = act(admin_client, "tournaments_entrant", "check_in", [entrant.pk])

    assert "check-in is closed" in said
    assert any("check-in is closed" in message for message in messages)
    assert event_types(tournament_id)[-2:] == ["CheckInOpened", "CheckInClosed"]
    entrant.refresh_from_db()
    assert entrant.checked_in is False


def test_starting_with_the_checked_in_only_from_the_page_withdraws_the_absent(
    admin_client: Client,
) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=3).id
    present = list(Entrant.objects.filter(tournament_id=tournament_id).order_by("seed")[:2])
    for entrant in present:
        registration.entrant_check_in(
            tournament_id=tournament_id, entrant_id=entrant.id, actor=ORGANIZER
        )

    said = run(admin_client, tournament_id, "start_checked_in")

    assert "started with the 2 entrants checked in (1 withdrawn" in said
    absent = Entrant.objects.get(tournament_id=tournament_id, seed=3)
    assert absent.withdrawn is True
    assert Fixture.objects.filter(tournament_id=tournament_id).count() == 1


def test_calling_a_match_from_the_fixtures_list_records_the_call(admin_client: Client) -> None:
    tournament_id = TournamentFactory.create(entrants=2, no_show_minutes=10).id
    tournament_running.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    tournament_scheduling.fixture_schedule(tournament_id=tournament_id, actor=ORGANIZER)
    fixture = Fixture.objects.get(tournament_id=tournament_id)

    _, messages = act(admin_client, "tournaments_fixture", "call_to_table", [fixture.pk])

    fixture.refresh_from_db()
    assert messages == [f"{fixture.key} called to table 1."]
    assert fixture.called_at is not None
    assert fixture.deadline is not None
    assert event_types(tournament_id)[-1] == "MatchCalled"
