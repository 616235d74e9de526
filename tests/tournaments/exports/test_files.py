"""Issue 12 §3: the standings as CSV, the schedule as iCalendar and the archive, read back with
the csv module, icalendar and json, and compared with what the JSON API says."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest
from django.core.management import call_command
from icalendar import Calendar
from rest_framework.test import APIClient

from tests.factories.accounts import UserFactory
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.api.builders import matches, tournament_url
from tests.tournaments.exports.evening import club_evening
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> APIClient:
    client = APIClient()
    client.force_authenticate(
        UserFactory.create(username="export-staff", is_staff=True, is_superuser=True)
    )
    return client


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_standings_csv_has_a_row_per_entrant_with_the_numbers_of_the_json_standings(
    staff: APIClient,
) -> None:
    tournament_id = club_evening()
    standings = staff.get(tournament_url(tournament_id, "standings")).json()

    response = staff.get(tournament_url(tournament_id, "standings") + "?format=csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="standings-{tournament_id}.csv"'
    )
    rows = csv_rows(response.content.decode())
    assert [row["name"] for row in rows] == [entry["name"] for entry in standings]
    assert "Carla B." in [row["name"] for row in rows]
    for row, entry in zip(rows, standings, strict=True):
        for field in ("rank", "entrant", "match_points", "played", "won", "lost", "points_for"):
            assert row[field] == str(entry[field])
        for name, value in entry["tiebreaks"].items():
            assert row[name] == ("" if value is None else str(value))
    assert rows[0]["players"]


def test_the_standings_csv_is_also_chosen_by_the_accept_header(staff: APIClient) -> None:
    tournament_id = club_evening()

    response = staff.get(tournament_url(tournament_id, "standings"), HTTP_ACCEPT="text/csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert len(csv_rows(response.content.decode())) == 5


def test_before_the_start_the_standings_csv_is_its_header_alone(staff: APIClient) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=3).id

    response = staff.get(tournament_url(tournament_id, "standings") + "?format=csv")

    lines = response.content.decode().splitlines()
    assert lines == [
        "rank,entrant,name,players,match_points,played,won,tied,lost,rounds_won,rounds_lost,"
        "points_for,points_against"
    ]


def test_the_json_standings_stay_the_default(staff: APIClient) -> None:
    tournament_id = club_evening()

    response = staff.get(tournament_url(tournament_id, "standings"))

    assert response["Content-Type"] == "application/json"
    assert len(response.json()) == 5


@pytest.mark.parametrize(
    "path", ["standings/?format=csv", "schedule/", "schedule/?format=ics", "archive/"]
)
def test_an_unknown_tournament_is_answered_in_json_whatever_the_format(
    staff: APIClient, path: str
) -> None:
    response = staff.get(f"{tournament_url(uuid4())}{path}")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "tournament_not_found"


def test_the_schedule_has_an_event_per_scheduled_match_with_table_sides_start_and_length(
    staff: APIClient,
) -> None:
    tournament_id = club_evening()
    scheduled = {m["id"]: m for m in matches(staff, tournament_id) if m["scheduled_at"] is not None}

    response = staff.get(tournament_url(tournament_id, "schedule"), HTTP_ACCEPT_LANGUAGE="it")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    calendar = Calendar.from_ical(response.content)
    assert str(calendar["x-wr-calname"]) == "Serata al Circolo"
    events = calendar.walk("VEVENT")
    assert len(events) == len(scheduled) >= 4
    for event in events:
        match = scheduled[str(event["x-briscola-match"])]
        assert str(event["uid"]) == f"{match['id']}@briscola-tournaments"
        assert str(event["summary"]) == " \N{EN DASH} ".join(match["entrant_names"])
        assert str(event["location"]) == f"Tavolo {match['table']}"
        # iCalendar times are to the second.
        starts = datetime.fromisoformat(match["scheduled_at"]).replace(microsecond=0)
        assert event.decoded("dtstart") == starts
        assert event.decoded("duration") == timedelta(minutes=25)
        assert str(event["x-briscola-status"]) == match["status"]


def test_the_schedule_reads_the_same_twice(staff: APIClient) -> None:
    tournament_id = club_evening()

    first = staff.get(tournament_url(tournament_id, "schedule")).content
    second = staff.get(tournament_url(tournament_id, "schedule")).content

    assert first == second


def test_a_tournament_without_start_times_has_an_empty_calendar(staff: APIClient) -> None:
    tournament_id = TournamentFactory.create(format="round_robin", entrants=3).id

    response = staff.get(tournament_url(tournament_id, "schedule"))

    assert Calendar.from_ical(response.content).walk("VEVENT") == []


def archive_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def test_the_archive_holds_every_event_of_the_tournament_and_its_matches_in_order_and_names(
    staff: APIClient,
) -> None:
    tournament_id = club_evening()

    response = staff.get(tournament_url(tournament_id, "archive"))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/jsonl; charset=utf-8"
    assert response["Cache-Control"] == "no-store"
    lines = archive_lines(response.content.decode())
    assert lines[0]["kind"] == "archive"
    kinds = [line["kind"] for line in lines]
    events = [line for line in lines if line["kind"] == "event"]
    assert lines[0]["events"] == len(events)
    match_ids = set(
        Fixture.objects.filter(tournament_id=tournament_id).values_list("match_id", flat=True)
    )
    assert {UUID(str(e["stream_id"])) for e in events} == {tournament_id, *match_ids}
    positions = [e["global_position"] for e in events]
    assert positions == sorted(positions)
    assert all(e["metadata"] for e in events)
    assert kinds.count("tournament") == 1
    entrants = [line for line in lines if line["kind"] == "entrant"]
    assert [e["name"] for e in entrants] == ["Ada", "Bruno", "Carla B.", "Dario", "Elena"]
    players = {line["id"]: line for line in lines if line["kind"] == "player"}
    assert [players[seat["player"]]["name"] for seat in entrants[0]["players"]] == ["Ada"]
    assert entrants[0]["players"][0]["position"] == 0
    # Davide sat for Dario, then Diego for Davide: the events name both by id. Dario was
    # registered (a registration records how many players, not who): nothing refers to him.
    names = {player["name"] for player in players.values()}
    assert {"Davide", "Diego"} <= names
    assert "Dario" not in names
    tournament = next(line for line in lines if line["kind"] == "tournament")
    assert tournament["club"] == "circolo-export"
    keys = [line for line in lines if line["kind"] == "idempotency_key"]
    assert sorted(key["key"] for key in keys) == ["desk-1", "desk-2", "desk-3", "desk-4"]
    assert all(key["stream_id"] == str(tournament_id) for key in keys)
    # No name inside an event (decision 0018): the names are lines of their own.
    assert "Bruno" not in json.dumps(events)


def test_the_export_command_writes_the_archive_the_api_answers(staff: APIClient) -> None:
    tournament_id = club_evening()
    out, err = io.StringIO(), io.StringIO()

    call_command("export_tournament", str(tournament_id), stdout=out, stderr=err)

    assert out.getvalue() == staff.get(tournament_url(tournament_id, "archive")).content.decode()
    assert "export" in err.getvalue()
