import pytest
from django.db import IntegrityError

from accounts import services
from accounts.models import Role, RoleGrant
from tests.factories.accounts import TOURNAMENT, ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_role_is_granted_in_a_club() -> None:
    organizer, club = UserFactory.create(username="organizer"), ClubFactory.create()
    admin = UserFactory.create(username="admin")

    grant = services.role_grant(user=organizer, role=Role.ORGANIZER, club=club, granted_by=admin)

    assert (grant.user, grant.role, grant.club, grant.tournament_id) == (
        organizer,
        "organizer",
        club,
        None,
    )
    assert grant.granted_by == admin
    assert str(grant) == f"organizer is organizer in club {club}"


def test_a_role_is_granted_in_a_tournament_by_its_id() -> None:
    scorer = UserFactory.create(username="scorer")

    grant = services.role_grant(user=scorer, role="scorer", tournament_id=TOURNAMENT)

    assert (grant.club, grant.tournament_id) == (None, TOURNAMENT)
    assert str(grant) == f"scorer is scorer in tournament {TOURNAMENT}"


def test_granting_a_role_twice_keeps_one_grant() -> None:
    scorer = UserFactory.create(username="scorer")

    first = services.role_grant(user=scorer, role=Role.SCORER, tournament_id=TOURNAMENT)
    second = services.role_grant(user=scorer, role=Role.SCORER, tournament_id=TOURNAMENT)

    assert first == second
    assert RoleGrant.objects.count() == 1


def test_a_user_may_hold_several_roles_in_one_place() -> None:
    user, club = UserFactory.create(username="organizer"), ClubFactory.create()

    services.role_grant(user=user, role=Role.ORGANIZER, club=club)
    services.role_grant(user=user, role=Role.PLAYER, club=club)

    assert set(RoleGrant.objects.values_list("role", flat=True)) == {"organizer", "player"}


@pytest.mark.parametrize("scopes", ["neither", "both"])
def test_a_role_is_granted_in_exactly_one_place(scopes: str) -> None:
    user = UserFactory.create(username="scorer")
    club = ClubFactory.create() if scopes == "both" else None
    tournament_id = TOURNAMENT if scopes == "both" else None

    with pytest.raises(services.InvalidRoleGrant, match="exactly one"):
        services.role_grant(user=user, role=Role.SCORER, club=club, tournament_id=tournament_id)

    assert not RoleGrant.objects.exists()


def test_an_unknown_role_is_refused() -> None:
    with pytest.raises(services.InvalidRoleGrant, match="unknown role 'referee'"):
        services.role_grant(
            user=UserFactory.create(username="scorer"), role="referee", tournament_id=TOURNAMENT
        )


def test_the_database_refuses_a_grant_with_no_place() -> None:
    with pytest.raises(IntegrityError, match="accounts_rolegrant_one_scope"):
        RoleGrant.objects.create(user=UserFactory.create(username="scorer"), role=Role.SCORER)


def test_revoking_a_role_removes_only_that_grant() -> None:
    user, club = UserFactory.create(username="scorer"), ClubFactory.create()
    services.role_grant(user=user, role=Role.SCORER, club=club)
    services.role_grant(user=user, role=Role.SCORER, tournament_id=TOURNAMENT)
    services.role_grant(user=user, role=Role.PLAYER, club=club)

    revoked = services.role_revoke(user=user, role=Role.SCORER, club=club)

    assert revoked
    assert set(RoleGrant.objects.values_list("role", "club", "tournament_id")) == {
        ("scorer", None, TOURNAMENT),
        ("player", club.pk, None),
    }


def test_revoking_a_role_not_held_changes_nothing() -> None:
    user = UserFactory.create(username="scorer")
    services.role_grant(user=user, role=Role.PLAYER, tournament_id=TOURNAMENT)

    assert not services.role_revoke(user=user, role=Role.SCORER, tournament_id=TOURNAMENT)
    assert RoleGrant.objects.count() == 1
