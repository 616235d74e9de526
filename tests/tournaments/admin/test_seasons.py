"""Seasons in the admin: an organizer creates one, sets its points table and best N, and adds or
removes its club's tournaments; refusals show on the form and keep nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts import services as accounts
from accounts.models import Club, Role
from tests.factories.accounts import ClubFactory, UserFactory
from tests.tournaments.seasons.builders import club_tournament, season_of
from tournaments.models import Season

pytestmark = pytest.mark.django_db

TWO = [["Ada"], ["Bruno"]]
ADD = "admin:tournaments_season_add"


def season_form(club: Club, **changes: Any) -> dict[str, Any]:
    return {
        "club": str(club.pk),
        "name": "Stagione 2026",
        "slug": "",
        "points": "25,18,15,12,10,8,6,4,2,1",
        "participation": "0",
        "best_n": "",
        "tournaments": [],
        **changes,
    }


def test_the_add_form_creates_the_season_with_its_points_and_tournaments(
    admin_client: Client,
) -> None:
    club = ClubFactory.create()
    tournament = club_tournament(club, TWO)

    response = admin_client.post(
        reverse(ADD),
        season_form(club, points="10, 6, 3", best_n="5", tournaments=[str(tournament.id)]),
    )

    season = Season.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:tournaments_season_change", args=[season.pk])
    assert (season.slug, season.points, season.best_n) == ("stagione-2026", [10, 6, 3], 5)
    assert list(season.tournaments.all()) == [tournament]


def test_a_bad_points_table_is_explained_on_the_form(admin_client: Client) -> None:
    club = ClubFactory.create()

    response = admin_client.post(reverse(ADD), season_form(club, points="25,18,x"))

    assert response.status_code == 200
    assert "place 3: &#x27;x&#x27; is not a whole number of points" in response.content.decode()
    assert not Season.objects.exists()


def test_another_clubs_tournament_is_refused_on_the_form_and_nothing_is_kept(
    admin_client: Client,
) -> None:
    club = ClubFactory.create(name="Circolo A")
    theirs = club_tournament(ClubFactory.create(name="Circolo B"), TWO, name="Coppa di B")

    response = admin_client.post(reverse(ADD), season_form(club, tournaments=[str(theirs.id)]))

    assert response.status_code == 200
    assert "Coppa di B is not a tournament of Circolo A" in response.content.decode()
    assert not Season.objects.exists()


def test_the_change_form_sets_the_points_and_removes_a_tournament(admin_client: Client) -> None:
    club = ClubFactory.create()
    kept, dropped = club_tournament(club, TWO, name="Uno"), club_tournament(club, TWO, name="Due")
    season = season_of(club, kept, dropped)
    url = reverse("admin:tournaments_season_change", args=[season.pk])

    response = admin_client.post(
        url,
        {
            "name": "Stagione",
            "points": "5,3,1",
            "participation": "1",
            "best_n": "2",
            "tournaments": [str(kept.id)],
        },
    )

    season.refresh_from_db()
    assert response.status_code == 302
    assert (season.name, season.points, season.participation, season.best_n) == (
        "Stagione",
        [5, 3, 1],
        1,
        2,
    )
    assert list(season.tournaments.all()) == [kept]


def test_an_organizer_of_another_club_neither_sees_nor_changes_the_season(client: Client) -> None:
    season = season_of(ClubFactory.create(name="Circolo A"))
    other = ClubFactory.create(name="Circolo B")
    user = UserFactory.create(username="other", password="secret-password", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__endswith="_season"))
    accounts.role_grant(user=user, role=Role.ORGANIZER, club=other)
    client.force_login(user)

    listed = client.get(reverse("admin:tournaments_season_changelist"))
    change = client.get(reverse("admin:tournaments_season_change", args=[season.pk]))
    form = client.get(reverse(ADD)).context["adminform"].form

    assert season.name not in listed.content.decode()
    assert change.status_code == 404
    assert list(form.fields["club"].queryset) == [other]
