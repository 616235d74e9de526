"""Issue 23 §3: the files a tournament is exported as cannot be turned against their readers.
The standings CSV writes a name a spreadsheet would run as a formula as text (OWASP's leading
`'`), numbers as numbers; the calendar writes every line break of a name escaped, a lone carriage
return too (icalendar writes that one as it is, which ended the SUMMARY)."""

from __future__ import annotations

import csv
import io

import pytest
from icalendar import Calendar
from rest_framework.test import APIClient

from common.actors import Actor
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.api.builders import tournament_url
from tournaments.models import Entrant, Tournament
from tournaments.projections import consumer
from tournaments.services import registration, running, scheduling

pytestmark = pytest.mark.django_db

ORGANIZER = Actor(device="export-test")
FORMULAS = ['=HYPERLINK("http://x")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)"]


def test_a_name_a_spreadsheet_would_run_is_written_as_text_and_numbers_stay_numbers() -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=0, tables=2)
    for name in FORMULAS:
        registration.entrant_register(
            tournament_id=tournament.id, name=name, players=[name], actor=ORGANIZER
        )
    running.tournament_start(tournament_id=tournament.id, actor=ORGANIZER)
    consumer.consume()

    response = APIClient().get(tournament_url(tournament.id, "standings") + "?format=csv")

    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert sorted(row["name"] for row in rows) == sorted(f"'{name}" for name in FORMULAS)
    assert sorted(row["players"] for row in rows) == sorted(f"'{name}" for name in FORMULAS)
    assert {row["match_points"] for row in rows} == {"0"}
    assert sorted(int(row["rank"]) for row in rows) == [1, 2, 3, 4]
    assert all(row["entrant"].isdigit() for row in rows)


def test_a_lone_carriage_return_in_a_name_cannot_end_a_calendar_line() -> None:
    tournament = TournamentFactory.create(format="round_robin", entrants=2, tables=1, started=True)
    # Names written before they were checked: the file must hold them all the same.
    Entrant.objects.filter(tournament=tournament, name="Player 1").update(
        name="Ada\rEND:VEVENT\rBEGIN:VEVENT\rSUMMARY:Phish\x1b"
    )
    Tournament.objects.filter(id=tournament.id).update(name="Coppa\rX-WR-CALNAME:Altro")
    consumer.consume()
    scheduling.fixture_schedule(tournament_id=tournament.id, actor=ORGANIZER)

    written = APIClient().get(tournament_url(tournament.id, "schedule")).content

    assert b"\r" not in written.replace(b"\r\n", b"")
    calendar = Calendar.from_ical(written)
    assert str(calendar["x-wr-calname"]) == "Coppa\nX-WR-CALNAME:Altro"
    (event,) = calendar.walk("VEVENT")
    assert str(event["summary"]) == (
        "Ada\nEND:VEVENT\nBEGIN:VEVENT\nSUMMARY:Phish  \N{EN DASH} Player 2"
    )
