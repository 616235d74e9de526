"""The organizer erases a player's personal data from the admin: afterwards every read (the
tournament API, standings, bracket, match detail, round replay, the admin pages) shows
`erased player`, and the event table is exactly as it was."""

from typing import Any
from uuid import UUID

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories.tournaments import TournamentFactory
from tests.games.api.builders import match_url, round_url
from tests.games.eventstore.builders import event_rows
from tests.tournaments.admin.builders import act
from tests.tournaments.api.builders import tournament_url
from tests.tournaments.builders import ready_fixtures, win_by_points
from tournaments.models import Entrant, Player
from tournaments.projections import consumer

pytestmark = pytest.mark.django_db

PLAYERS = "tournaments_player"
ERASED = "erased player"
NAME = "Player 1"


def played_tournament() -> tuple[UUID, Entrant, UUID]:
    """A cup of four whose first match (Player 1's) is played; the tournament, Player 1's
    entrant and that match."""
    tournament_id = TournamentFactory.create(
        format="single_elimination", entrants=4, started=True
    ).id
    entrant = Entrant.objects.get(tournament_id=tournament_id, name=NAME)
    match_id = next(
        f.match_id for f in ready_fixtures(tournament_id) if entrant.id in (f.home_id, f.away_id)
    )
    win_by_points(match_id)
    consumer.consume()
    return tournament_id, entrant, match_id


def every_read(admin_client: Client, tournament_id: UUID, match_id: UUID) -> str:
    """Everything a reader can see about the tournament, the entrant and the match, as text."""
    api = APIClient()
    responses: list[Any] = [
        api.get(tournament_url(tournament_id)),
        api.get(tournament_url(tournament_id, "matches")),
        api.get(tournament_url(tournament_id, "standings")),
        api.get(tournament_url(tournament_id, "bracket")),
        api.get(match_url(match_id)),
        api.get(round_url(match_id, 1, "replay")),
        admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id])),
        admin_client.get(reverse("admin:tournaments_entrant_changelist")),
        admin_client.get(reverse("admin:tournaments_fixture_changelist")),
        admin_client.get(reverse("admin:games_match_changelist")),
        admin_client.get(reverse("admin:games_match_change", args=[match_id])),
        admin_client.get(reverse("admin:tournaments_player_changelist")),
    ]
    assert [response.status_code for response in responses] == [200] * len(responses)
    return "\n".join(response.content.decode() for response in responses)


def test_the_erase_action_asks_for_confirmation_first(admin_client: Client) -> None:
    TournamentFactory.create(format="single_elimination", entrants=4, started=True)
    player = Player.objects.get(name=NAME)

    response = admin_client.post(
        reverse(f"admin:{PLAYERS}_changelist"),
        {"action": "erase", "_selected_action": [str(player.pk)]},
    )

    assert response.status_code == 200
    assert "Erase personal data" in response.content.decode()
    player.refresh_from_db()
    assert not player.erased


def test_after_erasure_every_read_shows_erased_player_and_no_event_changed(
    admin_client: Client,
) -> None:
    tournament_id, _entrant, match_id = played_tournament()
    player = Player.objects.get(name=NAME)
    assert NAME in every_read(admin_client, tournament_id, match_id)
    events_before = event_rows()

    response, said = act(admin_client, PLAYERS, "erase", [player.pk], apply="1")

    assert response.status_code == 302
    assert said == ["1 player(s) erased."]
    seen = every_read(admin_client, tournament_id, match_id)
    assert NAME not in seen
    assert ERASED in seen
    assert event_rows() == events_before


def test_each_read_names_the_erased_entrant_erased_player(admin_client: Client) -> None:
    tournament_id, entrant, match_id = played_tournament()
    player = Player.objects.get(name=NAME)

    act(admin_client, PLAYERS, "erase", [player.pk], apply="1")

    api = APIClient()
    entrants = api.get(tournament_url(tournament_id)).json()["entrants"]
    detail = next(listed for listed in entrants if listed["id"] == entrant.id)
    standings = api.get(tournament_url(tournament_id, "standings")).json()
    bracket = api.get(tournament_url(tournament_id, "bracket")).json()
    match = api.get(match_url(match_id)).json()
    assert (detail["name"], detail["players"]) == (ERASED, [ERASED])
    assert next(r["name"] for r in standings if r["entrant"] == entrant.id) == ERASED
    assert bracket["entrants"][str(entrant.id)] == ERASED
    assert ERASED in [side["name"] for side in match["sides"]]
    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament_id]))
    assert ERASED in [row["name"] for row in page.context["standings"]]


def test_the_match_admin_finds_matches_by_their_sides_names_as_they_read_now(
    admin_client: Client,
) -> None:
    _tournament_id, _entrant, match_id = played_tournament()
    player = Player.objects.get(name=NAME)
    changelist = reverse("admin:games_match_changelist")

    found_before = admin_client.get(changelist, {"q": NAME}).context["cl"].result_list
    act(admin_client, PLAYERS, "erase", [player.pk], apply="1")
    found_after = admin_client.get(changelist, {"q": NAME}).context["cl"].result_list
    found_erased = admin_client.get(changelist, {"q": "erased"}).context["cl"].result_list

    assert [m.id for m in found_before] == [match_id]
    assert list(found_after) == []
    assert [m.id for m in found_erased] == [match_id]


def test_erasing_twice_from_the_admin_is_harmless(admin_client: Client) -> None:
    tournament_id, _entrant, match_id = played_tournament()
    player = Player.objects.get(name=NAME)
    act(admin_client, PLAYERS, "erase", [player.pk], apply="1")
    seen, events_before = every_read(admin_client, tournament_id, match_id), event_rows()

    response, said = act(admin_client, PLAYERS, "erase", [player.pk], apply="1")

    assert response.status_code == 302
    assert said == ["0 player(s) erased. 1 had been erased already: nothing more to erase."]
    assert event_rows() == events_before
    assert ERASED in seen
    assert NAME not in every_read(admin_client, tournament_id, match_id)
