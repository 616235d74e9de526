"""The console's late arrivals, requested byes and absences (decision record 0058): the settings
from the add form, a late entrant added to a running Swiss, and the entrants' actions."""

import pytest
from django.test import Client
from django.urls import reverse

from games.eventstore.api import read_stream
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.admin.builders import act, add_tournament
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db

ENTRANTS = "tournaments_entrant"


def test_the_add_form_records_the_late_entry_and_bye_settings(admin_client: Client) -> None:
    response = add_tournament(
        admin_client,
        name="Svizzero tardivo",
        late_entry_until_round="3",
        late_entry_points="bye",
        max_requested_byes="",
        requested_bye_points="2",
    )

    assert response.status_code == 302
    settings = Tournament.objects.get(name="Svizzero tardivo").settings
    assert settings["late_entry_until_round"] == 3
    assert settings["late_entry_points"] == "bye"
    assert settings["requested_bye_points"] == 2
    assert "max_requested_byes" not in settings  # the default, one


def test_a_running_swiss_takes_a_late_entrant_and_the_entrants_actions_record_events(
    admin_client: Client,
) -> None:
    tournament = TournamentFactory.create(
        format="swiss", swiss_rounds=3, entrants=4, started=True, late_entry_until_round=2
    )
    added = admin_client.post(
        reverse("admin:tournaments_entrant_add"),
        {"tournament": str(tournament.id), "name": "Ritardo", "players": "", "seed": ""},
    )
    first = Entrant.objects.get(tournament=tournament, name="Player 1")

    _, paused = act(admin_client, ENTRANTS, "pause", [first.pk])
    _, back = act(admin_client, ENTRANTS, "return_to_play", [first.pk])
    _, asked = act(admin_client, ENTRANTS, "request_bye", [first.pk])
    _, again = act(admin_client, ENTRANTS, "request_bye", [first.pk])

    assert added.status_code == 302
    types = [event.event_type for event in read_stream(stream_id=tournament.id)]
    assert types[-4:] == ["EntrantRegistered", "EntrantPaused", "EntrantReturned", "ByeRequested"]
    assert paused[-1] == "Player 1 is absent."
    assert back == ["Player 1 is back."]
    assert asked == ["Player 1 sits out the next round."]
    assert "Player 1: " in again[0]  # refused: one requested bye at most
