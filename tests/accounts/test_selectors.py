import pytest
from django.contrib.auth.models import AnonymousUser

from accounts import selectors, services
from accounts.models import Role
from tests.factories.accounts import (
    OTHER_TOURNAMENT,
    TOURNAMENT,
    ClubFactory,
    UserFactory,
    device_token_issued,
)

pytestmark = pytest.mark.django_db


def test_roles_in_a_tournament_are_those_granted_there() -> None:
    user = UserFactory.create(username="scorer")
    services.role_grant(user=user, role=Role.SCORER, tournament_id=TOURNAMENT)
    services.role_grant(user=user, role=Role.PLAYER, tournament_id=OTHER_TOURNAMENT)

    assert selectors.roles_of(user, tournament_id=TOURNAMENT) == {Role.SCORER}
    assert selectors.roles_of(user, tournament_id=OTHER_TOURNAMENT) == {Role.PLAYER}


def test_roles_in_a_club_are_those_granted_there() -> None:
    user, club, other = (
        UserFactory.create(username="scorer"),
        ClubFactory.create(name="Trastevere"),
        ClubFactory.create(name="Testaccio"),
    )
    services.role_grant(user=user, role=Role.ORGANIZER, club=club)
    services.role_grant(user=user, role=Role.PLAYER, club=club)

    assert selectors.roles_of(user, club_id=club.pk) == {Role.ORGANIZER, Role.PLAYER}
    assert selectors.roles_of(user, club_id=other.pk) == frozenset()


def test_a_tournament_and_its_club_together_give_the_roles_of_both() -> None:
    user, club = UserFactory.create(username="scorer"), ClubFactory.create()
    services.role_grant(user=user, role=Role.ORGANIZER, club=club)
    services.role_grant(user=user, role=Role.PLAYER, tournament_id=TOURNAMENT)

    roles = selectors.roles_of(user, tournament_id=TOURNAMENT, club_id=club.pk)

    assert roles == {Role.ORGANIZER, Role.PLAYER}
    assert selectors.has_role(user, Role.ORGANIZER, tournament_id=TOURNAMENT, club_id=club.pk)
    assert not selectors.has_role(user, Role.ORGANIZER, tournament_id=TOURNAMENT)


def test_with_no_place_the_roles_are_those_held_anywhere() -> None:
    user = UserFactory.create(username="scorer")
    services.role_grant(user=user, role=Role.ORGANIZER, club=ClubFactory.create())
    services.role_grant(user=user, role=Role.SCORER, tournament_id=TOURNAMENT)

    assert selectors.roles_of(user) == {Role.ORGANIZER, Role.SCORER}
    assert selectors.has_role(user, "scorer")
    assert not selectors.has_role(user, Role.PLAYER)


def test_a_user_with_no_grant_has_no_role() -> None:
    user = UserFactory.create(username="scorer")
    services.role_grant(
        user=UserFactory.create(username="other"), role=Role.SCORER, tournament_id=TOURNAMENT
    )

    assert selectors.roles_of(user, tournament_id=TOURNAMENT) == frozenset()
    assert not selectors.has_role(user, Role.SCORER, tournament_id=TOURNAMENT)


def test_a_superuser_holds_only_the_roles_granted_to_them() -> None:
    admin = UserFactory.create(username="admin", is_superuser=True, is_staff=True)

    assert selectors.roles_of(admin, tournament_id=TOURNAMENT) == frozenset()


def test_anonymous_and_inactive_users_have_no_role() -> None:
    inactive = UserFactory.create(username="gone")
    services.role_grant(user=inactive, role=Role.SCORER, tournament_id=TOURNAMENT)
    inactive.is_active = False
    inactive.save()

    assert selectors.roles_of(AnonymousUser(), tournament_id=TOURNAMENT) == frozenset()
    assert not selectors.has_role(AnonymousUser(), Role.PLAYER)
    assert selectors.roles_of(inactive, tournament_id=TOURNAMENT) == frozenset()


def test_asking_for_an_unknown_role_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="referee"):
        selectors.has_role(UserFactory.create(username="scorer"), "referee")


def test_a_club_is_found_by_its_slug() -> None:
    club = ClubFactory.create(slug="trastevere")

    assert selectors.club_by_slug(slug="trastevere") == club
    assert selectors.club_by_slug(slug="testaccio") is None


def test_a_device_token_is_found_by_its_key_and_only_by_it() -> None:
    token, key = device_token_issued()

    assert selectors.device_token_by_key(key=key) == token
    assert selectors.device_token_by_key(key=key[:-1]) is None
    assert selectors.device_token_by_key(key=token.key_hash) is None
    assert selectors.device_token_by_key(key="") is None
