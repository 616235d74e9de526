"""Tournaments for the admin tests, built through the services, and a way to post actions."""

import uuid
from typing import Any

from django.test import Client
from django.urls import reverse

from games import services as match_services
from games.eventstore.api import read_stream
from tests.tournaments.builders import ORGANIZER, new_tournament
from tournaments import services
from tournaments.models import Fixture


def started(format: str = "single_elimination", entrants: int = 4, **options: Any) -> uuid.UUID:
    tournament_id = new_tournament(format, entrants, **options)
    services.tournament_start(tournament_id=tournament_id, actor=ORGANIZER)
    return tournament_id


def win_by_points(match_id: uuid.UUID, points: tuple[int, int] = (80, 40)) -> None:
    match_services.round_start(match_id=match_id, briscola=None, actor=ORGANIZER)
    match_services.round_points_enter(
        match_id=match_id, round_number=1, points=points, actor=ORGANIZER
    )
    services.fixture_result_sync(match_id=match_id, actor=ORGANIZER)


def ready_fixtures(tournament_id: uuid.UUID) -> list[Fixture]:
    return list(Fixture.objects.filter(tournament_id=tournament_id, status="ready").order_by("key"))


def event_types(stream_id: uuid.UUID) -> list[str]:
    return [event.event_type for event in read_stream(stream_id=stream_id)]


def events_after(stream_id: uuid.UUID, count: int) -> list[Any]:
    return list(read_stream(stream_id=stream_id))[count:]


def act(
    client: Client, model: str, action: str, selected: list[object], **fields: Any
) -> tuple[Any, list[str]]:
    """Post an admin action on the selected rows: its response, and the messages the organizer
    reads on the page it leads to (reading them there uses them up)."""
    url = reverse(f"admin:{model}_changelist")
    data = {"action": action, "_selected_action": [str(pk) for pk in selected], **fields}
    response = client.post(url, data)
    page = client.get(response["Location"]) if response.status_code == 302 else response
    return response, [str(message) for message in page.context["messages"]]


TOURNAMENT_FORM = {
    "name": "Coppa di primavera",
    "format": "swiss",
    "table_size": "4",
    "scoring": "rounds",
    "best_of": "3",
    "swiss_rounds": "5",
    "advance_per_group": "2",
    "tables": "6",
    "no_show_minutes": "15",
    "automatic_rounds": "on",
    "grand_final_reset": "on",
    "level_knockout": "higher_seed",
}


def add_tournament(client: Client, **changes: Any) -> Any:
    return client.post(reverse("admin:tournaments_tournament_add"), TOURNAMENT_FORM | changes)
