"""The organizer's sidebar (the admin's index and the navigation beside every page) shows what an
organizer uses; the site's own rows (periodic tasks and their schedules, API tokens, groups,
users, idempotency keys) are a superuser's only (issue 24 §3, decision record 0050)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts import services as accounts
from accounts.models import Role, User
from tests.factories.accounts import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

ORGANIZERS_ROWS = {
    "tournaments.tournament",
    "tournaments.entrant",
    "tournaments.fixture",
    "tournaments.player",
    "tournaments.season",
    "games.match",
    "eventstore.event",
    "accounts.club",
    "accounts.devicetoken",
}
SITES_ROWS = {
    "django_celery_beat.periodictask",
    "django_celery_beat.clockedschedule",
    "django_celery_beat.crontabschedule",
    "django_celery_beat.intervalschedule",
    "django_celery_beat.solarschedule",
    "authtoken.tokenproxy",
    "auth.group",
    "accounts.user",
    "eventstore.idempotencykey",
}


def sidebar(client: Client, url: str) -> set[str]:
    """The rows the navigation offers on a page: app label and model name of each."""
    response = client.get(url)
    assert response.status_code == 200
    apps: list[dict[str, Any]] = response.context["available_apps"]
    return {
        f"{app['app_label']}.{model['object_name'].lower()}"
        for app in apps
        for model in app["models"]
    }


def organizer() -> User:
    user = UserFactory.create(username="organizzatrice")
    accounts.role_grant(user=user, role=Role.ORGANIZER, club=ClubFactory.create())
    return user


def test_an_organizers_sidebar_shows_the_evenings_rows_and_none_of_the_sites() -> None:
    client = Client()
    client.force_login(organizer())

    for url in (reverse("admin:index"), reverse("admin:tournaments_tournament_changelist")):
        shown = sidebar(client, url)

        assert shown >= ORGANIZERS_ROWS
        assert shown & SITES_ROWS == set()


def test_a_superuser_still_finds_the_sites_rows() -> None:
    client = Client()
    client.force_login(UserFactory.create(username="root", is_staff=True, is_superuser=True))

    assert sidebar(client, reverse("admin:index")) >= SITES_ROWS
