"""The one rule of every player read (decision record 0043): a player is known to whoever may
read a tournament they play in; a person is shown by the first of their rows the reader may
know of."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts import services as accounts
from accounts.models import Role
from tests.factories.accounts import ClubFactory, UserFactory
from tests.tournaments.seasons.builders import club_tournament
from tournaments.errors import PlayerNotFound
from tournaments.models import Player
from tournaments.selectors.players import persons_shown, player_get

pytestmark = pytest.mark.django_db

ANYONE = AnonymousUser()


def test_a_player_of_a_private_tournament_is_not_found_by_outsiders_but_by_its_people() -> None:
    club = ClubFactory.create()
    private = club_tournament(club, [["Carla"], ["Dario"]], public=False)
    carla = Player.objects.get(entries__tournament=private, name="Carla")
    member = UserFactory.create()
    accounts.role_grant(user=member, role=Role.SCORER, club=club)
    player = UserFactory.create()
    Player.objects.filter(id=carla.id).update(user=player)
    other_club = UserFactory.create()
    accounts.role_grant(
        user=other_club, role=Role.ORGANIZER, club=ClubFactory.create(name="Altrove")
    )

    assert player_get(player_id=carla.id, reader=member) == carla
    assert player_get(player_id=carla.id, reader=player) == carla
    for outsider in (ANYONE, other_club):
        with pytest.raises(PlayerNotFound):
            player_get(player_id=carla.id, reader=outsider)


def test_a_person_is_shown_by_their_first_row_the_reader_may_know_of_or_not_at_all() -> None:
    club = ClubFactory.create()
    private = club_tournament(club, [["Anna"], ["Carla"]], public=False)
    public = club_tournament(club, [["anna"], ["Bruno"]])
    anna_private = Player.objects.get(entries__tournament=private, name="Anna")
    anna_public = Player.objects.get(entries__tournament=public, name="anna")
    carla = Player.objects.get(name="Carla")
    member = UserFactory.create()
    accounts.role_grant(user=member, role=Role.ORGANIZER, club=club)
    persons = [anna_private.id, carla.id]

    assert persons_shown(persons=persons, reader=ANYONE) == {anna_private.id: anna_public}
    assert persons_shown(persons=persons, reader=member) == {
        anna_private.id: anna_private,
        carla.id: carla,
    }
