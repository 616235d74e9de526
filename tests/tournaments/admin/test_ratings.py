"""The organizer sets whether a club's forfeits are rated, from the admin."""

import pytest
from django.test import Client

from tests.factories.accounts import ClubFactory
from tests.factories.ratings import club_tournament, forfeited, live
from tournaments.models import ClubRatingSettings, PlayerRating

pytestmark = pytest.mark.django_db

ADD = "/admin/tournaments/clubratingsettings/add/"


def test_counting_a_clubs_forfeits_rates_the_forfeits_already_recorded(
    admin_client: Client,
) -> None:
    club = ClubFactory.create()
    forfeited(live(club_tournament(club=club, entrants=2))[0].match_id, by=1)
    assert not PlayerRating.objects.exists()

    response = admin_client.post(ADD, {"club": club.id, "count_forfeits": "on"})

    assert response.status_code == 302
    assert ClubRatingSettings.objects.get(club=club).count_forfeits
    assert PlayerRating.objects.filter(club=club).count() == 2
