"""An organizer's staff permissions come with the role (decision record 0040): nobody hands out
model permissions by hand."""

import pytest
from django.contrib.auth.models import Group

from accounts import services
from accounts.models import Role
from accounts.organizers import ORGANIZER_PERMISSIONS, ORGANIZERS_GROUP
from tests.factories.accounts import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_organizers_group_holds_every_permission_it_names_and_no_other() -> None:
    group = Group.objects.get(name=ORGANIZERS_GROUP)

    held = {
        f"{app_label}.{codename}"
        for app_label, codename in group.permissions.values_list(
            "content_type__app_label", "codename"
        )
    }

    assert held == set(ORGANIZER_PERMISSIONS)


def test_an_organizer_role_makes_a_staff_member_of_the_organizers_group() -> None:
    user = UserFactory.create(username="ada")

    services.role_grant(user=user, role=Role.ORGANIZER, club=ClubFactory.create())
    user.refresh_from_db()

    assert user.is_staff
    assert user.has_perm("tournaments.change_tournament")
    assert not user.has_perm("accounts.change_user")
    assert list(user.groups.values_list("name", flat=True)) == [ORGANIZERS_GROUP]


def test_a_scorer_role_gives_no_console() -> None:
    user = UserFactory.create(username="sam")

    services.role_grant(user=user, role=Role.SCORER, club=ClubFactory.create())
    user.refresh_from_db()

    assert not user.is_staff
    assert not user.groups.exists()


def test_revoking_the_last_organizer_role_takes_the_console_away_but_not_before() -> None:
    user = UserFactory.create(username="ada")
    first, second = ClubFactory.create(slug="a"), ClubFactory.create(slug="b")
    services.role_grant(user=user, role=Role.ORGANIZER, club=first)
    services.role_grant(user=user, role=Role.ORGANIZER, club=second)

    services.role_revoke(user=user, role=Role.ORGANIZER, club=first)
    user.refresh_from_db()
    still = (user.is_staff, user.groups.count())
    services.role_revoke(user=user, role=Role.ORGANIZER, club=second)
    user.refresh_from_db()

    assert still == (True, 1)
    assert not user.is_staff
    assert not user.groups.exists()


def test_a_superuser_losing_an_organizer_role_stays_staff() -> None:
    user = UserFactory.create(username="root", is_superuser=True, is_staff=True)
    club = ClubFactory.create()
    services.role_grant(user=user, role=Role.ORGANIZER, club=club)

    services.role_revoke(user=user, role=Role.ORGANIZER, club=club)
    user.refresh_from_db()

    assert user.is_staff
