"""The organizer links a player to the account they sign in with, from the admin."""

import pytest
from django.test import Client

from tests.factories.accounts import UserFactory
from tests.factories.tournaments import TournamentFactory
from tests.tournaments.admin.builders import act
from tournaments.models import Player

pytestmark = pytest.mark.django_db

PLAYERS = "tournaments_player"


def test_linking_a_player_asks_for_the_account_then_links_it(admin_client: Client) -> None:
    TournamentFactory.create(format="single_elimination", entrants=2, started=True)
    player = Player.objects.get(name="Player 1")
    account = UserFactory.create(username="anna")

    asked, _ = act(admin_client, PLAYERS, "link", [player.pk])
    linked, said = act(admin_client, PLAYERS, "link", [player.pk], apply="1", username="anna")

    assert asked.status_code == 200
    assert b'name="username"' in asked.content
    assert linked.status_code == 302
    assert said == ["Player 1 signs in as anna."]
    player.refresh_from_db()
    assert player.user == account


def test_linking_to_an_unknown_account_changes_nothing_and_says_why(admin_client: Client) -> None:
    TournamentFactory.create(format="single_elimination", entrants=2, started=True)
    player = Player.objects.get(name="Player 1")

    _, said = act(admin_client, PLAYERS, "link", [player.pk], apply="1", username="nobody")

    player.refresh_from_db()
    assert player.user is None
    assert said == ["there is no user 'nobody'"]
